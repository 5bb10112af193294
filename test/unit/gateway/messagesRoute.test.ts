/**
 * Issue 33: POST /v1/messages beside chat completions. The client (src/core/gateway) against the local
 * gateway: a whole and a streamed reply in the route's own form and in the chat form the rest of the
 * extension reads, Stop, the spec's errors, cost with cache reads and writes (worked out by hand
 * here), a tool round trip, and the one route decision.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startGateway, type RunningGateway } from '../../localGateway/server';
import { LOCAL_KEYS } from '../../localGateway/keys';
import { createGatewayClient, type GatewayClient } from '../../../src/core/gateway/gatewayClient';
import { chatRouteFor, CONVERSATION_CAPABILITIES, DEFAULT_MAX_TOKENS, isConversational } from '../../../src/core/gateway/chatRoute';
import { costOfMessagesUsage, messagesCodec, toMessagesRequest, usageFromMessages, type MessagesStreamEvent } from '../../../src/core/gateway/messagesWire';
import { readEventStream, streamEventError } from '../../../src/core/gateway/sse';
import { costOfUsage } from '../../../src/core/pricing';
import { isGatewayError } from '../../../src/core/http/errors';
import { ToolCallAssembler, readToolChunk, wireTools, type ToolChatRequest, type WireMessage } from '../../../src/core/gateway/toolWire';
import type { ChatCompletionChunk, ChatCompletionRequest, Model, Usage } from '../../../src/core/gateway/types';
import { modelsForCapability } from '../../../src/core/catalog/query';
import { lmModelInfos } from '../../../src/core/lm/modelInfo';
import { chatModelOptions } from '../../../src/core/chat/modelOptions';

const MESSAGES_ONLY = 'anthropic/claude-sonnet-4';
const SYSTEM = 'You answer in one short paragraph, kindly.';

let gw: RunningGateway;
let client: GatewayClient;
let models: Model[];

before(async () => {
  gw = await startGateway({ chunkSize: 12 });
  client = createGatewayClient({ baseUrl: gw.url, getKey: async () => LOCAL_KEYS.userFull, retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 2 } });
  models = (await client.listModels()).data.data;
});

after(async () => {
  await client.dispose();
  await gw.close();
});

function model(id: string): Model {
  const m = models.find((x) => x.id === id);
  assert.ok(m, `${id} is in the local catalog`);
  return m;
}

function conversation(text: string): ChatCompletionRequest {
  return { model: MESSAGES_ONLY, messages: [{ role: 'system', content: SYSTEM }, { role: 'user', content: text }] };
}

async function collect(stream: AsyncIterable<ChatCompletionChunk>): Promise<{ text: string; usage?: Usage; finish: string | null }> {
  let text = '';
  let usage: Usage | undefined;
  let finish: string | null = null;
  for await (const c of stream) {
    text += c.choices[0]?.delta?.content ?? '';
    if (c.choices[0]?.finish_reason) finish = c.choices[0].finish_reason;
    if (c.usage) usage = c.usage;
  }
  return { text, usage, finish };
}

describe('the route decision', () => {
  test('[#33.3] chat first, messages otherwise: one function decides, and model lists include messages-only models', () => {
    assert.deepEqual(chatRouteFor(model('anthropic/claude-sonnet-4.5')), { kind: 'chat' }, 'a model with both routes goes to chat completions');
    assert.deepEqual(chatRouteFor(model(MESSAGES_ONLY)), { kind: 'messages', maxTokens: 16000 }, 'a messages-only model goes to the messages route, max_tokens from the catalog');
    assert.deepEqual(chatRouteFor({ capabilities: ['messages'] }), { kind: 'messages', maxTokens: DEFAULT_MAX_TOKENS });
    assert.deepEqual(chatRouteFor(undefined), { kind: 'chat' }, 'an unknown model keeps the route every model had before');
    assert.equal(isConversational(model('openai/gpt-image-1')), false);
    const now = Date.now();
    assert.ok(modelsForCapability(models, CONVERSATION_CAPABILITIES, now).some((m) => m.id === MESSAGES_ONLY), 'the chat model list');
    assert.ok(chatModelOptions(models, now).some((o) => o.id === MESSAGES_ONLY), 'the chat model picker');
    assert.ok(lmModelInfos(models, now).some((i) => i.id === MESSAGES_ONLY), "VS Code's model provider");
    assert.ok(!modelsForCapability(models, 'chat', now).some((m) => m.id === MESSAGES_ONLY), 'it is not a chat-completions model');
  });
});

describe('POST /v1/messages through the shared client', () => {
  test('[#33.1] a whole reply in the route\'s own form: content blocks, stop_reason, usage with the cache write of a first turn', async () => {
    const res = await client.createMessage({ model: MESSAGES_ONLY, max_tokens: 1000, system: SYSTEM, messages: [{ role: 'user', content: 'Hello there' }] });
    assert.equal(res.status, 200);
    assert.equal(res.data.type, 'message');
    assert.equal(res.data.stop_reason, 'end_turn');
    const text = res.data.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
    assert.match(text, /You said: "Hello there"/);
    assert.ok(res.requestId);
    const u = res.data.usage;
    assert.ok((u.cache_creation_input_tokens ?? 0) > 0 && u.cache_read_input_tokens === 0, 'the system prompt is written to the cache on a first turn');
    const seen = gw.events.list('messages-request').at(-1);
    assert.equal(seen?.model, MESSAGES_ONLY);
    assert.equal(seen?.stream, false);
  });

  test('[#33.1] a streamed reply: message_start, block events, message_delta, ending at message_stop; same text as the whole reply', async () => {
    const request = { model: MESSAGES_ONLY, max_tokens: 1000, messages: [{ role: 'user' as const, content: 'Stream this, please' }] };
    const whole = await client.createMessage(request);
    const stream = await client.streamMessages(request);
    const events: MessagesStreamEvent[] = [];
    for await (const e of stream) events.push(e);
    assert.equal(events[0]?.type, 'message_start');
    assert.equal(events.at(-1)?.type, 'message_delta');
    assert.ok(events.filter((e) => e.type === 'content_block_delta').length > 3, 'the text arrives in several deltas');
    const text = events.map((e) => (e.type === 'content_block_delta' && e.delta.type === 'text_delta' ? e.delta.text : '')).join('');
    assert.equal(text, whole.data.content.map((b) => (b.type === 'text' ? b.text : '')).join(''));
    assert.ok(stream.requestId);
  });

  test('[#33.3] through streamChatCompletion with the route: the same reply as chat chunks, usage in the chat form (cache inside the prompt)', async () => {
    const route = chatRouteFor(model(MESSAGES_ONLY));
    const whole = await client.createChatCompletion(conversation('Hello via the chat form'), { route });
    assert.equal(whole.data.object, 'chat.completion');
    assert.equal(whole.data.choices[0]?.finish_reason, 'stop');
    const got = await collect(await client.streamChatCompletion(conversation('Hello via the chat form'), { route }));
    assert.equal(got.text, whole.data.choices[0]?.message.content);
    assert.equal(got.finish, 'stop');
    assert.deepEqual(got.usage, whole.data.usage);
    assert.ok((got.usage?.cache_write_tokens ?? 0) > 0);
    const req = gw.events.list('messages-request').at(-1);
    assert.equal(req?.hasSystem, true, 'the system message went out as `system`');
    assert.equal(req?.maxTokens, 16000);
    // Without the route the chat-completions route refuses the model: the route is what makes it work.
    await assert.rejects(client.createChatCompletion(conversation('no route')), (e: unknown) => isGatewayError(e) && e.status === 400);
  });

  test('[#33.1] Stop: aborting a stream closes the request; the gateway sees the client leave', async () => {
    const abort = new AbortController();
    const stream = await client.streamChatCompletion(conversation('[[slow]] a long answer'), { route: chatRouteFor(model(MESSAGES_ONLY)), signal: abort.signal });
    let text = '';
    await assert.rejects(
      (async () => {
        for await (const c of stream) {
          text += c.choices[0]?.delta?.content ?? '';
          if (text.length > 0) abort.abort();
        }
      })(),
      (e: unknown) => isGatewayError(e) && e.reason === 'aborted',
    );
    assert.ok(text.length > 0);
    const closed = await gw.events.waitFor('client-closed-stream', (e) => e.requestId === stream.requestId);
    assert.equal(closed.path, '/v1/messages');
  });

  test('[#33.1] breaking out of a raw event stream also closes the request', async () => {
    const stream = await client.streamMessages({ model: MESSAGES_ONLY, max_tokens: 100, messages: [{ role: 'user', content: '[[slow]] stop me' }] });
    for await (const e of stream) if (e.type === 'content_block_delta') break;
    const closed = await gw.events.waitFor('client-closed-stream', (e) => e.requestId === stream.requestId);
    assert.equal(closed.path, '/v1/messages');
  });

  test('[#33.2] cost with cache reads and writes, worked out by hand from the usage of two turns', async () => {
    const m = model(MESSAGES_ONLY);
    // Rates (credits per million): input 3, output 15, cache read 0.30, cache write 3.75, i.e. per
    // token in nanocredits: 3000, 15000, 300, 3750.
    assert.deepEqual([m.pricing?.input_per_million, m.pricing?.output_per_million, m.pricing?.cache_read_per_million, m.pricing?.cache_write_per_million], ['3', '15', '0.30', '3.75']);
    const first = await client.createMessage({ model: MESSAGES_ONLY, max_tokens: 1000, system: SYSTEM, messages: [{ role: 'user', content: 'First turn' }] });
    const u1 = first.data.usage;
    const w = u1.cache_creation_input_tokens ?? 0;
    assert.ok(w > 0);
    assert.equal(costOfMessagesUsage(u1, m.pricing!).totalNano, BigInt((u1.input_tokens ?? 0) * 3000 + w * 3750 + (u1.output_tokens ?? 0) * 15000));

    const second = await client.createMessage({
      model: MESSAGES_ONLY,
      max_tokens: 1000,
      system: SYSTEM,
      messages: [
        { role: 'user', content: 'First turn' },
        { role: 'assistant', content: 'An answer.' },
        { role: 'user', content: 'Second turn' },
      ],
    });
    const u2 = second.data.usage;
    const r = u2.cache_read_input_tokens ?? 0;
    assert.ok(r > 0 && u2.cache_creation_input_tokens === 0, 'a later turn reads the cache');
    assert.equal(costOfMessagesUsage(u2, m.pricing!).totalNano, BigInt((u2.input_tokens ?? 0) * 3000 + r * 300 + (u2.output_tokens ?? 0) * 15000));
    // The streamed chat form carries the same usage, so the chat shows the same cost.
    const streamed = await collect(
      await client.streamChatCompletion(
        { model: MESSAGES_ONLY, messages: [{ role: 'system', content: SYSTEM }, { role: 'user', content: 'First turn' }, { role: 'assistant', content: 'An answer.' }, { role: 'user', content: 'Second turn' }] },
        { route: chatRouteFor(m) },
      ),
    );
    assert.ok(streamed.usage);
    assert.equal(costOfUsage(streamed.usage, m.pricing!).totalNano, BigInt((u2.input_tokens ?? 0) * 3000 + r * 300 + (streamed.usage.completion_tokens ?? 0) * 15000));
  });

  test('[#33.2] exact cost of every usage field, reasoning included, by hand', () => {
    const pricing = { input_per_million: '3', output_per_million: '15', cache_read_per_million: '0.30', cache_write_per_million: '3.75', reasoning_per_million: '20', pricing_version: 'v', unit: 'credits' };
    const usage = { input_tokens: 1000, cache_read_input_tokens: 2000, cache_creation_input_tokens: 500, output_tokens: 400, output_tokens_details: { reasoning_tokens: 100 } };
    // 1000*3000 + 2000*300 + 500*3750 + (400-100)*15000 + 100*20000 nanocredits
    const cost = costOfMessagesUsage(usage, pricing);
    assert.equal(cost.totalNano, 3_000_000n + 600_000n + 1_875_000n + 4_500_000n + 2_000_000n);
    assert.deepEqual(
      cost.lines.map((l) => [l.kind, l.tokens, l.rateField]),
      [
        ['input', 1000, 'input_per_million'],
        ['cache_read', 2000, 'cache_read_per_million'],
        ['cache_write', 500, 'cache_write_per_million'],
        ['output', 300, 'output_per_million'],
        ['reasoning', 100, 'reasoning_per_million'],
      ],
    );
    // Odd rates stay exact: 7 tokens at 0.3333333333 credits per million is 2333.3333331 nanocredits -> 2333.
    assert.equal(costOfMessagesUsage({ input_tokens: 7 }, { input_per_million: '0.3333333333', pricing_version: 'v', unit: 'credits' }).totalNano, 2333n);
    assert.deepEqual(usageFromMessages({ input_tokens: 10, output_tokens: 5 }), { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15, source: 'messages' });
    assert.throws(() => costOfMessagesUsage({ input_tokens: 1.5 }, pricing), /whole number/);
  });

  test('[#33.3] a tool round trip in the route\'s own form: tool_use streamed as tool calls, results sent back as tool_result blocks', async () => {
    const route = chatRouteFor(model(MESSAGES_ONLY));
    const tools = wireTools([{ name: 'lookup', description: 'Looks a word up', inputSchema: { type: 'object', properties: { q: { type: 'string' } } } }]);
    const said = 'Please [[tool:lookup {"q":"gateway"}]] [[tool-split]]';
    const wire: WireMessage[] = [{ role: 'user', content: said }];
    const request: ToolChatRequest = { model: MESSAGES_ONLY, messages: wire, tools, stream: true };
    const sent = toMessagesRequest(request, 100, true);
    assert.deepEqual(sent.tools, [{ name: 'lookup', description: 'Looks a word up', input_schema: { type: 'object', properties: { q: { type: 'string' } } } }]);

    const assembler = new ToolCallAssembler();
    let finish: string | null = null;
    for await (const chunk of await client.streamChatCompletion(request as unknown as ChatCompletionRequest, { route })) {
      const v = readToolChunk(chunk);
      assembler.push(v.toolCalls);
      if (v.finishReason) finish = v.finishReason;
    }
    assert.equal(finish, 'tool_calls');
    const [call, ...rest] = assembler.finish();
    assert.equal(rest.length, 0);
    assert.ok(call?.ok);
    assert.equal(call.name, 'lookup');
    assert.deepEqual(call.input, { q: 'gateway' });

    wire.push({ role: 'assistant', content: null, tool_calls: [{ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } }] });
    wire.push({ role: 'tool', tool_call_id: call.id, content: 'a service in front of models' });
    const back = toMessagesRequest({ model: MESSAGES_ONLY, messages: wire, tools }, 100, true);
    assert.deepEqual(back.messages[1], { role: 'assistant', content: [{ type: 'tool_use', id: call.id, name: 'lookup', input: { q: 'gateway' } }] });
    assert.deepEqual(back.messages[2], { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: 'a service in front of models' }] });
    // The gateway refuses a tool_result that answers no tool_use: its answer proves the form.
    const answer = await collect(await client.streamChatCompletion({ model: MESSAGES_ONLY, messages: wire, tools, stream: true } as unknown as ChatCompletionRequest, { route }));
    assert.equal(answer.text, 'Tool results:\n- lookup: a service in front of models');
    assert.equal(answer.finish, 'stop');

    // Whole (not streamed): tool_use blocks come back as tool_calls.
    const whole = await client.createChatCompletion({ model: MESSAGES_ONLY, messages: [{ role: 'user', content: said }], tools } as unknown as ChatCompletionRequest, { route });
    const msg = whole.data.choices[0]?.message as { tool_calls?: Array<{ function: { name: string; arguments: string } }> };
    assert.equal(whole.data.choices[0]?.finish_reason, 'tool_calls');
    assert.deepEqual(msg.tool_calls?.map((c) => [c.function.name, JSON.parse(c.function.arguments)]), [['lookup', { q: 'gateway' }]]);
  });
});

describe('POST /v1/messages: the spec\'s errors', () => {
  test('[G-ERR-5] [G-ERR-1] shape errors are 400 invalid_request_error; an unknown model 404; a chat-only model 400', async () => {
    const expectStatus = async (body: unknown, status: number, type: string): Promise<void> => {
      await assert.rejects(client.postJson('/v1/messages', body), (e: unknown) => isGatewayError(e) && e.status === status && e.type === type && e.requestId !== undefined);
    };
    await expectStatus({ model: MESSAGES_ONLY, messages: [{ role: 'user', content: 'x' }] }, 400, 'invalid_request_error'); // no max_tokens
    await expectStatus({ model: MESSAGES_ONLY, max_tokens: 10, messages: [{ role: 'system', content: 'x' }] }, 400, 'invalid_request_error');
    await expectStatus({ model: MESSAGES_ONLY, max_tokens: 10, messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'nope', content: 'x' }] }] }, 400, 'invalid_request_error');
    await expectStatus({ model: 'nobody/none', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] }, 404, 'not_found_error');
    await expectStatus({ model: 'google/gemini-2.5-pro', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] }, 400, 'invalid_request_error');
    await expectStatus({ model: MESSAGES_ONLY, max_tokens: 16001, messages: [{ role: 'user', content: 'x' }] }, 400, 'invalid_request_error');
  });

  test('[G-AUTH-3] [G-AUTH-4] [G-AUTH-7] the route needs chat at write: a bad key 401, a read-only key 403 naming the scope', async () => {
    const body = { model: MESSAGES_ONLY, max_tokens: 10, messages: [{ role: 'user' as const, content: 'x' }] };
    const bad = createGatewayClient({ baseUrl: gw.url, getKey: async () => LOCAL_KEYS.revoked });
    const readOnly = createGatewayClient({ baseUrl: gw.url, getKey: async () => LOCAL_KEYS.userReadOnly });
    try {
      await assert.rejects(bad.createMessage(body), (e: unknown) => isGatewayError(e) && e.status === 401 && e.reason === 'authentication');
      await assert.rejects(readOnly.streamMessages(body), (e: unknown) => isGatewayError(e) && e.status === 403 && e.reason === 'permission' && /chat/.test(e.message));
    } finally {
      await bad.dispose();
      await readOnly.dispose();
    }
  });

  test('[G-ERR-3] [G-ERR-4] a 429 HTML page is read by its status; a 503 with Retry-After is retried within the budget, a billed POST never after it reached the server', async () => {
    const route = chatRouteFor(model(MESSAGES_ONLY));
    gw.events.clear();
    await assert.rejects(client.createChatCompletion(conversation('[[fault:429]]'), { route }), (e: unknown) => isGatewayError(e) && e.reason === 'throttled' && !/<html/i.test(e.message));
    await assert.rejects(client.createChatCompletion(conversation('[[fault:503]]'), { route }), (e: unknown) => isGatewayError(e) && e.reason === 'unavailable');
    gw.events.clear();
    gw.faults.add({ kind: 'reset_after_body', route: '/v1/messages', count: Infinity });
    try {
      await assert.rejects(client.streamChatCompletion(conversation('hello'), { route }), (e: unknown) => isGatewayError(e) && e.reason === 'network' && e.mayHaveReachedServer === true);
    } finally {
      gw.faults.clear();
    }
    assert.equal(gw.events.list('request').filter((e) => e.path === '/v1/messages').length, 1, 'the billed POST went out once');
  });

  test('[#33.1] an error event mid-stream ends it with a typed partial error; a stream without message_stop is incomplete', async () => {
    const body = (text: string): AsyncIterable<Uint8Array> => ({
      async *[Symbol.asyncIterator]() {
        yield new TextEncoder().encode(text);
      },
    });
    const start = 'event: message_start\ndata: {"type":"message_start","message":{"id":"m","type":"message","role":"assistant","model":"x","content":[],"usage":{"input_tokens":3}}}\n\n';
    const delta = 'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi"}}\n\n';
    const seen: string[] = [];
    await assert.rejects(
      (async () => {
        for await (const e of readEventStream(body(start + delta + 'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n'), messagesCodec('req-1', streamEventError))) seen.push(e.type);
      })(),
      (e: unknown) => isGatewayError(e) && e.reason === 'unavailable' && e.partial === true && e.status === 503,
    );
    assert.deepEqual(seen, ['message_start', 'content_block_delta']);
    await assert.rejects(
      (async () => {
        for await (const _ of readEventStream(body(start + delta), messagesCodec('req-2', streamEventError))) void _;
      })(),
      (e: unknown) => isGatewayError(e) && e.reason === 'protocol' && e.partial === true && /message_stop missing/.test(e.message),
    );
    // Unknown event types and pings are skipped; message_stop without an event name still ends it.
    const ok: string[] = [];
    for await (const e of readEventStream(body(start + 'event: ping\ndata: {"type":"ping"}\n\ndata: {"type":"future_thing"}\n\n' + delta + 'data: {"type":"message_stop"}\n\n'), messagesCodec('req-3', streamEventError))) ok.push(e.type);
    assert.deepEqual(ok, ['message_start', 'content_block_delta']);
  });
});
