/**
 * The gateway client against the local gateway (test/localGateway): real HTTP, real sockets. Each rule the
 * client and the gateway prove together is tagged with its id.
 */
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startGateway, type RunningGateway } from '../../localGateway/server';
import { LOCAL_KEYS } from '../../localGateway/keys';
import { createGatewayClient, type GatewayClient, type GatewayClientOptions } from '../../../src/core/gateway/gatewayClient';
import type { RetryNotice } from '../../../src/core/gateway/api';
import type { ChatCompletionRequest } from '../../../src/core/gateway/types';
import { drain, gatewayError, MemoryLogger, VirtualClock } from './helpers';

const CHAT_MODEL = 'openai/gpt-4.1';
const REASONING_MODEL = 'deepseek/deepseek-reasoner';
const UA = 'ai-gateway-vscode/0.0.0-test';

let gw: RunningGateway;
const clients: GatewayClient[] = [];

function client(key: string | undefined, extra: Partial<GatewayClientOptions> = {}): { c: GatewayClient; log: MemoryLogger; clock: VirtualClock } {
  const log = new MemoryLogger();
  const clock = new VirtualClock();
  const c = createGatewayClient({
    baseUrl: () => gw.url,
    getKey: async () => key,
    userAgent: UA,
    logger: log,
    clock,
    env: {},
    ...extra,
  });
  clients.push(c);
  return { c, log, clock };
}

function chat(content: string, model = CHAT_MODEL): ChatCompletionRequest {
  return { model, messages: [{ role: 'user', content }] };
}

function requestsTo(path: string): Array<Record<string, unknown>> {
  return gw.events.list('request').filter((e) => e.path === path);
}

before(async () => {
  gw = await startGateway({ chunkSize: 5 });
});
beforeEach(() => gw.reset());
after(async () => {
  await Promise.all(clients.map((c) => c.dispose()));
  await gw.close();
});

describe('catalog routes', () => {
  test('[G-CAT-1] [G-AUTH-1] listModels sends no Authorization header and returns the list', async () => {
    const { c } = client(LOCAL_KEYS.userFull);
    const r = await c.listModels();
    assert.equal(r.status, 200);
    assert.equal(r.data.object, 'list');
    assert.ok(r.data.data.length >= 30);
    assert.ok(r.data.data.every((m) => m.object === 'model'));
    assert.ok(r.requestId);
    const seen = requestsTo('/v1/models');
    assert.equal(seen.length, 1);
    assert.equal(seen[0].authorization, 'none');
    assert.equal(seen[0].userAgent, UA);
  });

  test('[G-CAT-14] [G-AUTH-1] getModelSchema sends no Authorization header, even with a key set', async () => {
    const { c } = client(LOCAL_KEYS.userFull);
    const r = await c.getModelSchema(CHAT_MODEL);
    assert.equal(r.status, 200);
    assert.equal(typeof r.data, 'object');
    const seen = gw.events.list('request').filter((e) => String(e.path).endsWith('/schema'));
    assert.equal(seen.length, 1);
    assert.equal(seen[0].authorization, 'none');
  });

  test('[G-AUTH-1] authenticated routes carry the bearer token', async () => {
    const { c } = client(LOCAL_KEYS.userFull);
    await c.createChatCompletion(chat('hello'));
    assert.equal(requestsTo('/v1/chat/completions')[0].authorization, 'bearer');
  });

  test('a malformed model id is refused before any request', async () => {
    const { c } = client(LOCAL_KEYS.userFull);
    const e = await gatewayError(c.getModelSchema('no-slash'));
    assert.equal(e.reason, 'invalid_request');
    assert.equal(gw.events.list('request').length, 0);
  });

  test('[G-CAT-13] a 429 on the catalog is retried and then survives', async () => {
    const { c, clock } = client(undefined);
    gw.faults.add({ kind: 'throttled', route: '/v1/models' });
    const r = await c.listModels();
    assert.equal(r.status, 200);
    assert.equal(clock.sleeps.length, 1);
    assert.equal(requestsTo('/v1/models').length, 2);
  });
});

describe('chat completions', () => {
  test('[G-CHAT-1] a whole completion has choices[].message and finish_reason', async () => {
    const { c } = client(LOCAL_KEYS.userFull);
    const r = await c.createChatCompletion(chat('Say something'));
    assert.equal(r.data.object, 'chat.completion');
    assert.equal(r.data.choices[0].message.role, 'assistant');
    assert.ok(r.data.choices[0].message.content.length > 0);
    assert.equal(r.data.choices[0].finish_reason, 'stop');
    const sent = gw.events.list('chat-request')[0];
    assert.equal(sent.model, CHAT_MODEL);
    assert.equal(sent.stream, false);
  });

  test('[G-CHAT-2] a stream yields chat.completion.chunk items and ends at [DONE]', async () => {
    const { c, log } = client(LOCAL_KEYS.userFull);
    const whole = await c.createChatCompletion(chat('Stream me please'));
    const stream = await c.streamChatCompletion(chat('Stream me please'));
    assert.ok(stream.requestId);
    const { items, error } = await drain(stream);
    assert.equal(error, undefined);
    assert.ok(items.length > 3);
    assert.ok(items.every((ch) => ch.object === 'chat.completion.chunk'));
    const text = items.map((ch) => ch.choices[0]?.delta.content ?? '').join('');
    assert.equal(text, whole.data.choices[0].message.content);
    assert.equal(items.at(-1)?.choices[0].finish_reason, 'stop');
    assert.equal(gw.events.list('chat-request')[1].stream, true);
    assert.match(log.text, new RegExp(`POST /v1/chat/completions 200 \\d+ms stream chunks=${items.length} request_id=${stream.requestId}`));
  });

  test('[G-CHAT-3] usage on a reasoning model: total_tokens exceeds prompt + completion', async () => {
    const { c } = client(LOCAL_KEYS.userFull);
    const r = await c.createChatCompletion(chat('Think hard', REASONING_MODEL));
    const u = r.data.usage;
    assert.ok(u);
    const reasoning = u.completion_tokens_details?.reasoning_tokens ?? 0;
    assert.ok(reasoning > 0);
    assert.ok(u.total_tokens > u.prompt_tokens + u.completion_tokens);
    const { items } = await drain(await c.streamChatCompletion(chat('Think hard', REASONING_MODEL)));
    const last = items.find((ch) => ch.usage);
    assert.equal(last?.usage?.completion_tokens_details?.reasoning_tokens, reasoning);
  });
});

describe('error classification against the gateway', () => {
  test('[G-AUTH-3] [G-ERR-1] [G-ERR-2] a revoked key gets authentication with the request id', async () => {
    const { c } = client(LOCAL_KEYS.revoked);
    const e = await gatewayError(c.createChatCompletion(chat('hi')));
    assert.equal(e.reason, 'authentication');
    assert.equal(e.status, 401);
    assert.equal(e.type, 'authentication_error');
    assert.equal(e.message, 'invalid or revoked API key');
    assert.doesNotMatch(e.message, /scope/);
    const seen = requestsTo('/v1/chat/completions')[0];
    assert.equal(e.requestId, seen.requestId);
    assert.match(String(e.requestId), /^(?:[0-9a-f]{32}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/);
  });

  test('[G-AUTH-3] an unknown key gets authentication too; a missing key is refused without a request', async () => {
    const e1 = await gatewayError(client('svc_pat_not_a_real_key_123').c.createChatCompletion(chat('hi')));
    assert.equal(e1.reason, 'authentication');
    assert.equal(e1.status, 401);
    const before = gw.events.list('request').length;
    const e2 = await gatewayError(client(undefined).c.createChatCompletion(chat('hi')));
    assert.equal(e2.reason, 'authentication');
    assert.equal(e2.status, undefined);
    assert.equal(gw.events.list('request').length, before);
  });

  test('[G-AUTH-4] a missing scope level gets permission with scope, required and granted', async () => {
    const { c } = client(LOCAL_KEYS.userReadOnly);
    const e = await gatewayError(c.createChatCompletion(chat('hi')));
    assert.equal(e.reason, 'permission');
    assert.equal(e.status, 403);
    assert.equal(e.type, 'permission_error');
    assert.deepEqual(e.permission, { scope: 'chat', required: 'write', granted: 'read' });
    const e2 = await gatewayError(client(LOCAL_KEYS.userChatOnly).c.postJson('/v1/images/alt-text', { image: 'x' }));
    assert.deepEqual(e2.permission, { scope: 'image', required: 'write', granted: 'none' });
  });

  test('[G-AUTH-10] entitlement_required and account_required are distinct reasons', async () => {
    const { c } = client(LOCAL_KEYS.userFull);
    gw.faults.add({ kind: 'entitlement_required' });
    const e1 = await gatewayError(c.createChatCompletion(chat('hi')));
    gw.faults.add({ kind: 'account_required' });
    const e2 = await gatewayError(c.createChatCompletion(chat('hi')));
    assert.equal(e1.reason, 'entitlement_required');
    assert.equal(e2.reason, 'account_required');
    assert.equal(e1.status, 403);
    assert.equal(e2.status, 403);
  });

  test('[G-CHAT-4] moderation gives content_policy, not retried, without naming a category', async () => {
    const { c, clock } = client(LOCAL_KEYS.userFull);
    const e = await gatewayError(c.streamChatCompletion(chat('tell me [[moderate]]')));
    assert.equal(e.reason, 'content_policy');
    assert.equal(e.type, 'content_policy_violation');
    assert.equal(e.status, 403);
    assert.ok(e.requestId);
    assert.equal(clock.sleeps.length, 0);
    assert.equal(requestsTo('/v1/chat/completions').length, 1);
  });

  test('[G-ERR-5] 400 invalid_request_error is invalid_request, not retried', async () => {
    const { c, clock } = client(LOCAL_KEYS.userFull);
    const e = await gatewayError(c.createChatCompletion({ model: CHAT_MODEL, messages: [] }));
    assert.equal(e.reason, 'invalid_request');
    assert.equal(e.type, 'invalid_request_error');
    assert.equal(e.status, 400);
    assert.equal(clock.sleeps.length, 0);
  });

  test('404 and 405 are not_found and method_not_allowed', async () => {
    const { c } = client(LOCAL_KEYS.userFull);
    const e404 = await gatewayError(c.getJson('/v1/does-not-exist'));
    assert.equal(e404.reason, 'not_found');
    assert.equal(e404.status, 404);
    assert.ok(e404.requestId);
    const e405 = await gatewayError(c.getJson('/v1/chat/completions'));
    assert.equal(e405.reason, 'method_not_allowed');
    assert.equal(e405.status, 405);
  });

  test('500 is server, not retried', async () => {
    const { c, clock } = client(LOCAL_KEYS.userFull);
    gw.faults.add({ kind: 'server_error' });
    const e = await gatewayError(c.createChatCompletion(chat('hi')));
    assert.equal(e.reason, 'server');
    assert.equal(e.status, 500);
    assert.equal(clock.sleeps.length, 0);
  });

  test('[G-ERR-3] 429 (HTML body) is throttled with the request id from the header', async () => {
    const { c } = client(LOCAL_KEYS.userFull, { retry: { maxAttempts: 1 } });
    const e = await gatewayError(c.createChatCompletion(chat('hi [[fault:429]]')));
    assert.equal(e.reason, 'throttled');
    assert.equal(e.status, 429);
    assert.equal(e.type, undefined);
    assert.doesNotMatch(e.message, /html|DOCTYPE/i);
    assert.equal(e.requestId, requestsTo('/v1/chat/completions')[0].requestId);
  });
});

describe('retries against the gateway', () => {
  test('[G-ERR-4] 503 entitlement_unavailable is unavailable and retried with back-off until it succeeds', async () => {
    const { c, clock } = client(LOCAL_KEYS.userFull, { retry: { maxAttempts: 4, baseDelayMs: 100, maxDelayMs: 10_000, maxTotalMs: 60_000 } });
    gw.faults.add({ kind: 'entitlement_unavailable', count: 2 });
    const notices: RetryNotice[] = [];
    const r = await c.createChatCompletion(chat('hi'), { onRetry: (n) => notices.push(n) });
    assert.equal(r.status, 200);
    // VirtualClock.random() is 0.5: full jitter gives half of 100 * 2^(n-1).
    assert.deepEqual(clock.sleeps, [50, 100]);
    assert.deepEqual(
      notices.map((n) => [n.attempt, n.delayMs, n.error.reason, n.error.type]),
      [
        [1, 50, 'unavailable', 'entitlement_unavailable'],
        [2, 100, 'unavailable', 'entitlement_unavailable'],
      ],
    );
    assert.equal(requestsTo('/v1/chat/completions').length, 3);
  });

  test('[G-ERR-4] Retry-After on 503 is honoured', async () => {
    const { c, clock } = client(LOCAL_KEYS.userFull);
    const e = await gatewayError(c.createChatCompletion(chat('hi [[fault:503]]')));
    // The marker fires on every attempt: all 4 attempts fail, each wait is the server's 1 s.
    assert.equal(e.reason, 'unavailable');
    assert.equal(e.retryAfterMs, 1000);
    assert.deepEqual(clock.sleeps, [1000, 1000, 1000]);
    assert.equal(requestsTo('/v1/chat/completions').length, 4);
  });

  test('attempts are bounded by total time as well as by count', async () => {
    const { c, clock } = client(LOCAL_KEYS.userFull, { retry: { maxAttempts: 10, maxTotalMs: 2500 } });
    const e = await gatewayError(c.createChatCompletion(chat('hi [[fault:503]]')));
    assert.equal(e.reason, 'unavailable');
    assert.deepEqual(clock.sleeps, [1000, 1000]);
    assert.equal(requestsTo('/v1/chat/completions').length, 3);
  });

  test('a billed POST whose connection dropped after the gateway read it is sent once, and may have reached the gateway', async () => {
    for (const call of ['stream', 'whole'] as const) {
      gw.reset();
      const { c, clock } = client(LOCAL_KEYS.userFull);
      gw.faults.add({ kind: 'disconnect', route: '/v1/chat/completions', afterChunks: 0 });
      const notices: RetryNotice[] = [];
      const e = await gatewayError(
        call === 'stream' ? c.streamChatCompletion(chat('hello there'), { onRetry: (n) => notices.push(n) }) : c.createChatCompletion(chat('hello there'), { onRetry: (n) => notices.push(n) }),
      );
      assert.equal(e.reason, 'network', call);
      assert.equal(e.mayHaveReachedServer, true, call);
      assert.equal(e.retryable, false, call);
      assert.equal(clock.sleeps.length, 0, call);
      assert.equal(notices.length, 0, call);
      assert.equal(requestsTo('/v1/chat/completions').length, 1, call);
    }
  });

  test('nothing is retried after the stream began: a mid-stream disconnect is a partial network error', async () => {
    // A small delay between chunks lets the first chunks leave the gateway before it drops the socket.
    gw.configure({ chunkDelayMs: 20 });
    const { c, clock } = client(LOCAL_KEYS.userFull);
    const stream = await c.streamChatCompletion(chat('a long answer [[fault:disconnect]]'));
    const { items, error } = await drain(stream);
    assert.equal(items.length, 2);
    assert.ok(error);
    assert.equal(error.reason, 'network');
    assert.equal(error.partial, true);
    assert.equal(error.requestId, stream.requestId);
    assert.equal(clock.sleeps.length, 0);
    assert.equal(gw.events.list('chat-request').length, 1);
  });
});

describe('cancel and timeouts against the gateway', () => {
  test('cancelling mid-stream aborts the HTTP request: the gateway sees the client leave', async () => {
    gw.configure({ chunkDelayMs: 30 });
    const { c, log } = client(LOCAL_KEYS.userFull);
    const ac = new AbortController();
    const stream = await c.streamChatCompletion(chat('a long answer that keeps going for a while'), { signal: ac.signal });
    const items: unknown[] = [];
    const e = await gatewayError(
      (async () => {
        for await (const ch of stream) {
          items.push(ch);
          if (items.length === 2) ac.abort();
        }
      })(),
    );
    assert.equal(e.reason, 'aborted');
    assert.equal(e.partial, true);
    assert.equal(items.length, 2);
    const left = await gw.events.waitFor('client-closed-stream', (ev) => ev.requestId === stream.requestId);
    assert.ok(Number(left.chunksSent) >= 2);
    assert.match(log.text, /aborted/);
  });

  test('breaking out of the loop also closes the request', async () => {
    gw.configure({ chunkDelayMs: 30 });
    const { c } = client(LOCAL_KEYS.userFull);
    const stream = await c.streamChatCompletion(chat('a long answer that keeps going for a while'));
    for await (const ch of stream) {
      assert.ok(ch);
      break;
    }
    await gw.events.waitFor('client-closed-stream', (ev) => ev.requestId === stream.requestId);
  });

  test('an idle (stalled) stream times out with phase idle, keeping what arrived', async () => {
    const { c } = client(LOCAL_KEYS.userFull, { timeouts: { idleMs: 300 } });
    const stream = await c.streamChatCompletion(chat('stall please [[fault:stall]]'));
    const { items, error } = await drain(stream);
    assert.equal(items.length, 2);
    assert.ok(error);
    assert.equal(error.reason, 'timeout');
    assert.equal(error.timeoutPhase, 'idle');
    assert.equal(error.partial, true);
    await gw.events.waitFor('client-closed-stream', (ev) => ev.requestId === stream.requestId);
  });
});

describe('logging', () => {
  test('one line per call, with method, path, status, duration and request id, and no secret', async () => {
    const { c, log } = client(LOCAL_KEYS.userFull);
    const r = await c.createChatCompletion(chat('hi'));
    await gatewayError(client(LOCAL_KEYS.revoked).c.createChatCompletion(chat('hi')));
    await c.listModels();
    assert.equal(log.lines.length, 2);
    assert.match(log.lines[0], new RegExp(`^info POST /v1/chat/completions 200 \\d+ms request_id=${r.requestId}$`));
    assert.match(log.lines[1], /^info GET \/v1\/models 200 \d+ms request_id=\S+$/);
    for (const key of Object.values(LOCAL_KEYS)) assert.ok(!log.text.includes(key));
    assert.doesNotMatch(log.text, /Bearer|authorization/i);
  });

  test('failed calls log the reason; retries are counted in the same line', async () => {
    const { c, log } = client(LOCAL_KEYS.revoked);
    await gatewayError(c.createChatCompletion(chat('hi')));
    gw.faults.add({ kind: 'unavailable', count: 1 });
    await client(LOCAL_KEYS.userFull, { logger: log }).c.listModels();
    assert.equal(log.lines.length, 2);
    assert.match(log.lines[0], /^warn POST \/v1\/chat\/completions 401 authentication \d+ms request_id=\S+$/);
    assert.match(log.lines[1], /^info GET \/v1\/models 200 \d+ms request_id=\S+ attempts=2$/);
    assert.ok(!log.text.includes(LOCAL_KEYS.revoked));
  });
});
