/** The local gateway's scripted tool-calling model and count_tokens route, over plain HTTP. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { chat, envelopeOf, postJson, sseData, useGateway, userSays } from '../gateway/helpers';

const WEATHER = { type: 'function', function: { name: 'get_weather', description: 'Weather for a city', parameters: { type: 'object', properties: { city: { type: 'string' } } } } };
const TIME = { type: 'function', function: { name: 'get_time', parameters: { type: 'object', properties: {} } } };

interface Delta {
  content?: string;
  tool_calls?: Array<{ index: number; id?: string; function?: { name?: string; arguments?: string } }>;
}

async function streamed(res: Response): Promise<{ text: string; calls: Map<number, { id: string; name: string; args: string }>; finish: string | null; chunks: number }> {
  assert.equal(res.status, 200);
  const events = sseData(await res.text());
  assert.equal(events.at(-1), '[DONE]');
  const calls = new Map<number, { id: string; name: string; args: string }>();
  let text = '';
  let finish: string | null = null;
  for (const e of events.slice(0, -1)) {
    const chunk = JSON.parse(e) as { choices: Array<{ delta: Delta; finish_reason: string | null }> };
    const choice = chunk.choices[0];
    text += choice?.delta.content ?? '';
    for (const c of choice?.delta.tool_calls ?? []) {
      const cur = calls.get(c.index) ?? { id: '', name: '', args: '' };
      cur.id ||= c.id ?? '';
      cur.name ||= c.function?.name ?? '';
      cur.args += c.function?.arguments ?? '';
      calls.set(c.index, cur);
    }
    if (choice?.finish_reason) finish = choice.finish_reason;
  }
  return { text, calls, finish, chunks: events.length - 1 };
}

describe('local gateway: scripted tool calls', () => {
  const gw = useGateway({ chunkDelayMs: 0 });

  test('a marker makes a tools model call the named tool with the given arguments', async () => {
    const r = await streamed(await chat(gw(), userSays('Weather? [[tool:get_weather {"city":"Oslo"}]]', 'openai/gpt-5.1', { stream: true, tools: [WEATHER] })));
    assert.equal(r.finish, 'tool_calls');
    assert.equal(r.text, '');
    assert.equal(r.calls.size, 1);
    assert.equal(r.calls.get(0)?.name, 'get_weather');
    assert.equal(r.calls.get(0)?.args, '{"city":"Oslo"}');
    assert.match(r.calls.get(0)?.id ?? '', /^call_/);
  });

  test('two markers give parallel calls; [[tool-split]] spreads the arguments over many interleaved chunks', async () => {
    const said = 'Both [[tool:get_weather {"city":"Zürich"}]] [[tool:get_time {"tz":"CET"}]] [[tool-split]]';
    const r = await streamed(await chat(gw(), userSays(said, 'openai/gpt-5.1', { stream: true, tools: [WEATHER, TIME] })));
    assert.equal(r.calls.get(0)?.args, '{"city":"Zürich"}');
    assert.equal(r.calls.get(1)?.args, '{"tz":"CET"}');
    assert.equal(r.calls.get(1)?.name, 'get_time');
    assert.ok(r.chunks > 10, `arguments split over many chunks (${r.chunks})`);
  });

  test('[[tool-invalid:NAME]] sends arguments that are not valid JSON', async () => {
    const r = await streamed(await chat(gw(), userSays('[[tool-invalid:get_weather]]', 'openai/gpt-5.1', { stream: true, tools: [WEATHER] })));
    assert.throws(() => JSON.parse(r.calls.get(0)?.args ?? ''));
  });

  test('after the tool results it answers from them', async () => {
    const body = {
      model: 'openai/gpt-5.1',
      tools: [WEATHER],
      messages: [
        { role: 'user', content: 'Weather? [[tool:get_weather {"city":"Oslo"}]]' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: 'sunny, 21 °C' },
      ],
    };
    const res = await chat(gw(), body);
    assert.equal(res.status, 200);
    const json = (await res.json()) as { choices: Array<{ message: { content: string }; finish_reason: string }> };
    assert.equal(json.choices[0]?.message.content, 'Tool results:\n- get_weather: sunny, 21 °C');
    assert.equal(json.choices[0]?.finish_reason, 'stop');
  });

  test('a model without tools refuses a request carrying tools with 400', async () => {
    const res = await chat(gw(), userSays('hi', 'gemma/gemma-3-4b', { tools: [WEATHER] }));
    assert.equal(res.status, 400);
    assert.match((await envelopeOf(res)).message, /does not support tool calling/);
  });

  test('a tool result answering no earlier call is refused', async () => {
    const res = await chat(gw(), { model: 'openai/gpt-5.1', messages: [{ role: 'user', content: 'x' }, { role: 'tool', tool_call_id: 'nope', content: 'y' }] });
    assert.equal(res.status, 400);
  });

  test('count_tokens answers deterministically: ceil(code points / 4) + 4 per message', async () => {
    const res = await postJson(gw(), '/v1/messages/count_tokens', { model: 'openai/gpt-5.1', messages: [{ role: 'user', content: 'abcdefghi' }] });
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { input_tokens: 7 });
    const unknown = await postJson(gw(), '/v1/messages/count_tokens', { model: 'nobody/none', messages: [{ role: 'user', content: 'a' }] });
    assert.equal(unknown.status, 404);
  });
});
