/**
 * Safety properties of the network layer, each against a small node:http server: a billed POST is
 * never re-sent once it may have reached the server, what a server sends is bounded (one stream event,
 * one JSON body), odd-but-valid stream events do not cut a reply, and a credential never travels over
 * plain http:// to a non-loopback host without the user's yes.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type AddressInfo } from 'node:net';
import { createGatewayClient, type GatewayClient, type GatewayClientOptions } from '../../../src/core/gateway/gatewayClient';
import { Network, isInsecureCredentialTarget, isLoopbackHost } from '../../../src/core/http/network';
import { chunkJson, drain, gatewayError, MemoryLogger, startServer, VirtualClock, withServer } from './helpers';

const KEY = 'svc_pat_safety_test_key_4c3b2a';
const clients: GatewayClient[] = [];
after(() => Promise.all(clients.map((c) => c.dispose())));

/** A client on a virtual clock (waits recorded, not slept) with a memory log and no proxy environment. */
function client(baseUrl: string, extra: Partial<GatewayClientOptions> = {}): { c: GatewayClient; clock: VirtualClock; log: MemoryLogger } {
  const clock = new VirtualClock();
  const log = new MemoryLogger();
  clients.push(createGatewayClient({ baseUrl, getKey: async () => KEY, userAgent: 'ai-gateway-vscode/test', logger: log, clock, env: {}, ...extra }));
  return { c: clients[clients.length - 1], clock, log };
}

/** Reads the whole request body, then drops the connection without answering. */
const readThenDrop: Parameters<typeof startServer>[0] = (req, res) => {
  req.resume();
  req.on('end', () => res.socket?.destroy());
};

function sse(res: import('node:http').ServerResponse, events: string[]): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'x-request-id': 'req-sse-1' });
  for (const e of events) res.write(`data: ${e}\n\n`);
  res.end();
}

describe('billed requests are not repeated', () => {
  for (const [name, call] of [
    ['a streamed chat completion', (c: GatewayClient) => c.streamChatCompletion({ model: 'o/m', messages: [{ role: 'user', content: 'hi' }] })],
    ['a whole chat completion', (c: GatewayClient) => c.createChatCompletion({ model: 'o/m', messages: [{ role: 'user', content: 'hi' }] })],
    ['/v1/images/alt-text', (c: GatewayClient) => c.postJson('/v1/images/alt-text', { image: 'x' })],
  ] as const) {
    test(`${name} is sent once when the server read the body and dropped the connection`, async () => {
      await withServer(readThenDrop, async (s) => {
        const { c, clock } = client(s.url);
        const e = await gatewayError(call(c));
        assert.equal(s.requests.length, 1);
        assert.equal(clock.sleeps.length, 0);
        assert.equal(e.reason, 'network');
        assert.equal(e.mayHaveReachedServer, true);
        assert.equal(e.retryable, false);
      });
    });
  }

  test('a GET (idempotent) dropped the same way is retried', async () => {
    await withServer(
      (_req, res, i) => {
        if (i === 0) {
          res.socket?.destroy();
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ object: 'list', data: [] }));
      },
      async (s) => {
        const { c, clock } = client(s.url);
        const r = await c.listModels();
        assert.deepEqual(r.data.data, []);
        assert.equal(s.requests.length, 2);
        assert.equal(clock.sleeps.length, 1);
      },
    );
  });

  test('connection refused (provably never sent) is retried and says it did not reach the server', async () => {
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((r) => probe.close(() => r()));
    const { c, clock } = client(`http://127.0.0.1:${port}`, { retry: { maxAttempts: 3 } });
    const e = await gatewayError(c.createChatCompletion({ model: 'o/m', messages: [{ role: 'user', content: 'hi' }] }));
    assert.equal(e.code, 'ECONNREFUSED');
    assert.equal(e.mayHaveReachedServer, false);
    assert.equal(clock.sleeps.length, 2);
  });
});

describe('size limits', () => {
  test('one stream event longer than the limit ends in a protocol error naming the limit, with the request id', async () => {
    await withServer(
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'x-request-id': 'req-big-1' });
        res.write(`data: ${chunkJson('ok')}\n\n`);
        // An event that never ends: 64 KiB pieces without a newline, far past the limit.
        const piece = 'x'.repeat(64 * 1024);
        let sent = 0;
        const pump = (): void => {
          while (sent < 64 && res.write(sent === 0 ? `data: ${piece}` : piece)) sent++;
          if (sent < 64) res.once('drain', pump);
          else res.end();
        };
        pump();
      },
      async (s) => {
        const { c } = client(s.url, { limits: { maxEventChars: 256 * 1024 } });
        const { items, error } = await drain(await c.streamChatCompletion({ model: 'o/m', messages: [] }));
        assert.equal(items.length, 1);
        assert.ok(error);
        assert.equal(error.reason, 'protocol');
        assert.match(error.message, /262144 characters/);
        assert.equal(error.requestId, 'req-big-1');
      },
    );
  });

  test('a JSON body larger than the limit ends in a protocol error naming the limit', async () => {
    await withServer(
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'req-big-2' });
        res.end(JSON.stringify({ object: 'list', data: [{ id: 'x'.repeat(200_000) }] }));
      },
      async (s) => {
        const { c } = client(s.url, { limits: { maxJsonBytes: 64 * 1024 } });
        const e = await gatewayError(c.listModels());
        assert.equal(e.reason, 'protocol');
        assert.match(e.message, /64 KiB/);
        assert.equal(e.requestId, 'req-big-2');
      },
    );
  });
});

describe('odd stream events', () => {
  test('`{}` and `[]` events (keep-alives) are skipped: the reply is whole and the call ends at [DONE]', async () => {
    await withServer(
      (_req, res) => sse(res, [chunkJson('Hel'), '{}', '[]', '{"object":"keepalive"}', chunkJson('lo'), '[DONE]']),
      async (s) => {
        const { c, log } = client(s.url);
        const { items, error } = await drain(await c.streamChatCompletion({ model: 'o/m', messages: [] }));
        assert.equal(error, undefined);
        assert.deepEqual(
          items.map((i) => i.choices[0]?.delta?.content),
          ['Hel', 'lo'],
        );
        assert.match(log.text, /info POST \/v1\/chat\/completions 200 .*stream chunks=2 request_id=req-sse-1/);
      },
    );
  });

  test('a consumer that stops before [DONE] is not logged as a plain success', async () => {
    await withServer(
      (_req, res) => sse(res, [chunkJson('a'), chunkJson('b'), '[DONE]']),
      async (s) => {
        const { c, log } = client(s.url);
        const stream = await c.streamChatCompletion({ model: 'o/m', messages: [] });
        await assert.rejects(async () => {
          for await (const _ of stream) throw new Error('consumer failed');
        }, /consumer failed/);
        assert.match(log.text, /warn POST \/v1\/chat\/completions 200 .*stopped-early request_id=req-sse-1/);
      },
    );
  });
});

describe('credentials over plain http', () => {
  test('loopback is recognised; http:// to anything else needs consent', () => {
    for (const h of ['localhost', 'a.localhost', '127.0.0.1', '127.8.9.10', '[::1]', '::1']) assert.equal(isLoopbackHost(h), true, h);
    for (const h of ['example.com', '10.0.0.1', '128.0.0.1', 'localhost.example.com', '[::2]']) assert.equal(isLoopbackHost(h), false, h);
    assert.equal(isInsecureCredentialTarget(new URL('http://gw.example.com/v1')), true);
    assert.equal(isInsecureCredentialTarget(new URL('https://gw.example.com/v1')), false);
    assert.equal(isInsecureCredentialTarget(new URL('http://127.0.0.1:9/v1')), false);
  });

  test('a declined (or unanswerable) prompt sends nothing; a yes is remembered per host for the session', async () => {
    const asked: string[] = [];
    let answer = false;
    const net = new Network({ confirmInsecureCredential: async (u) => (asked.push(u.host), answer) });
    const e = await gatewayError(net.checkCredentialTarget(new URL('http://gw.example.com/v1/x')));
    assert.equal(e.mayHaveReachedServer, false);
    assert.match(e.message, /unencrypted over http:\/\/ to gw\.example\.com/);
    answer = true;
    await Promise.all([net.checkCredentialTarget(new URL('http://gw.example.com/a')), net.checkCredentialTarget(new URL('http://gw.example.com/b'))]);
    await net.checkCredentialTarget(new URL('http://gw.example.com/c'));
    await net.checkCredentialTarget(new URL('https://other.example.com/c'));
    assert.deepEqual(asked, ['gw.example.com', 'gw.example.com']);
    const silent = new Network({});
    await gatewayError(silent.checkCredentialTarget(new URL('http://gw.example.com/v1/x')));
  });

  test('the gateway client asks before sending the key over http:// to a non-loopback host, and sends nothing on no', async () => {
    let asked = 0;
    // A host that cannot resolve: if the key were sent, the error would be a network error instead.
    const { c } = client('http://gateway.invalid', { confirmInsecureCredential: async () => (asked++, false) });
    const e = await gatewayError(c.createChatCompletion({ model: 'o/m', messages: [] }));
    assert.equal(asked, 1);
    assert.equal(e.reason, 'aborted');
    assert.equal(e.mayHaveReachedServer, false);
  });

  test('the shared fetch (analytics, hosting, MCP) asks before a credential header goes over http://, not for plain requests', async () => {
    const asked: string[] = [];
    const net = new Network({ env: {}, confirmInsecureCredential: async (u) => (asked.push(u.host), false) });
    try {
      await gatewayError(net.fetch('http://gateway.invalid/v1/analytics', { headers: { Authorization: 'Bearer x' } }));
      await gatewayError(net.fetch('http://gateway.invalid/mcp', { headers: { 'X-Api-Key': 'x' } }));
      await assert.rejects(net.fetch('http://gateway.invalid/public'), (e: Error) => e.name !== 'GatewayError');
      assert.deepEqual(asked, ['gateway.invalid', 'gateway.invalid']);
    } finally {
      await net.dispose();
    }
  });
});
