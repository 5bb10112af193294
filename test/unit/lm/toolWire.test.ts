import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { readChatStream } from '../../../src/core/gateway/sse';
import { MAX_TOOL_CALLS, readToolChunk, ToolCallAssembler, ToolWireError, wireToolCall, wireToolChoice, wireTools } from '../../../src/core/gateway/toolWire';

/** A streamed reply with text, then two interleaved parallel calls whose arguments contain non-ASCII text. */
const EVENTS: unknown[] = [
  { choices: [{ index: 0, delta: { role: 'assistant', content: 'Looking é🙂' }, finish_reason: null }] },
  { choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '' } }] }, finish_reason: null }] },
  { choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '{"city":"Zü' } }] }, finish_reason: null }] },
  { choices: [{ index: 0, delta: { tool_calls: [{ index: 1, id: 'call_b', type: 'function', function: { name: 'get_time', arguments: '{"tz":' } }] }, finish_reason: null }] },
  { choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: 'rich 🙂"}' } }] }, finish_reason: null }] },
  { choices: [{ index: 0, delta: { tool_calls: [{ index: 1, function: { arguments: '"CET"}' } }] }, finish_reason: null }] },
  { choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } },
];
const BODY = Buffer.from(EVENTS.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('') + 'data: [DONE]\n\n', 'utf8');

async function* pieces(buf: Buffer, cuts: number[]): AsyncGenerator<Uint8Array> {
  let at = 0;
  for (const c of [...cuts, buf.length]) {
    yield buf.subarray(at, c);
    at = c;
  }
}

async function assemble(cuts: number[]): Promise<{ text: string; calls: ReturnType<ToolCallAssembler['finish']>; finish: string | null | undefined }> {
  const asm = new ToolCallAssembler();
  let text = '';
  let finish: string | null | undefined;
  for await (const chunk of readChatStream(pieces(BODY, cuts))) {
    const v = readToolChunk(chunk);
    text += v.content ?? '';
    asm.push(v.toolCalls);
    if (v.finishReason) finish = v.finishReason;
  }
  return { text, calls: asm.finish(), finish };
}

const EXPECTED_CALLS = [
  { ok: true, index: 0, id: 'call_a', name: 'get_weather', arguments: '{"city":"Zürich 🙂"}', input: { city: 'Zürich 🙂' } },
  { ok: true, index: 1, id: 'call_b', name: 'get_time', arguments: '{"tz":"CET"}', input: { tz: 'CET' } },
];

describe('tool wire: streamed tool-call assembly', () => {
  test('split at every byte boundary, the text and both parallel calls come out the same', async () => {
    for (let i = 1; i < BODY.length; i++) {
      const r = await assemble([i]);
      assert.equal(r.text, 'Looking é🙂', `cut at ${i}`);
      assert.deepEqual(r.calls, EXPECTED_CALLS, `cut at ${i}`);
      assert.equal(r.finish, 'tool_calls');
    }
  });

  test('one byte per read gives the same calls', async () => {
    const cuts = Array.from({ length: BODY.length - 1 }, (_, i) => i + 1);
    assert.deepEqual((await assemble(cuts)).calls, EXPECTED_CALLS);
  });

  test('invalid JSON arguments are reported, not parsed into something else', () => {
    const a = new ToolCallAssembler();
    a.push([{ index: 0, id: 'c1', function: { name: 'write', arguments: '{"path": "a"' } }]);
    const [call] = a.finish();
    assert.equal(call?.ok, false);
    assert.match(call && !call.ok ? call.error : '', /not valid JSON/);
  });

  test('arguments that are JSON but not an object are refused; empty arguments mean {}', () => {
    const a = new ToolCallAssembler();
    a.push([{ index: 0, id: 'c1', function: { name: 'x', arguments: '[1,2]' } }, { index: 1, id: 'c2', function: { name: 'y', arguments: '' } }]);
    const [first, second] = a.finish();
    assert.equal(first?.ok, false);
    assert.deepEqual(second, { ok: true, index: 1, id: 'c2', name: 'y', arguments: '', input: {} });
  });

  test('a repeated id or name on later fragments is ignored, arguments concatenate', () => {
    const a = new ToolCallAssembler();
    a.push([{ index: 0, id: 'c1', function: { name: 'tool', arguments: '{"a":' } }]);
    a.push([{ index: 0, id: 'c1', function: { name: 'tool', arguments: '1}' } }]);
    assert.deepEqual(a.finish(), [{ ok: true, index: 0, id: 'c1', name: 'tool', arguments: '{"a":1}', input: { a: 1 } }]);
  });

  test('too many calls and malformed fragments are refused', () => {
    const a = new ToolCallAssembler();
    assert.throws(() => a.push(Array.from({ length: MAX_TOOL_CALLS + 1 }, (_, i) => ({ index: i, id: `c${i}`, function: { name: 't' } }))), ToolWireError);
    assert.throws(() => new ToolCallAssembler().push('nope'), ToolWireError);
    assert.throws(() => new ToolCallAssembler().push([{ index: -1 }]), ToolWireError);
  });
});

describe('tool wire: request shapes', () => {
  test('tools, tool choice and the assistant echo of a call', () => {
    const tools = [{ name: 'get_weather', description: 'Weather', inputSchema: { type: 'object', properties: { city: { type: 'string' } } } }];
    assert.deepEqual(wireTools(tools), [
      { type: 'function', function: { name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } },
    ]);
    assert.deepEqual(wireTools([{ name: 'x' }]), [{ type: 'function', function: { name: 'x', parameters: { type: 'object', properties: {} } } }]);
    assert.equal(wireToolChoice('auto', tools), undefined);
    assert.deepEqual(wireToolChoice('required', tools), { type: 'function', function: { name: 'get_weather' } });
    assert.equal(wireToolChoice('required', [...tools, { name: 'b' }]), 'required');
    assert.deepEqual(wireToolCall('c1', 'get_weather', { city: 'Oslo' }), { id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } });
  });
});
