/**
 * Byte- and socket-level behaviour of the gateway client with small node:http servers: retry delays,
 * Retry-After, abort during back-off, connect / first-byte timeouts, cancellation closing the socket,
 * proxies and URL handling.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { join } from 'node:path';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { createGatewayClient, joinUrl, type GatewayClient, type GatewayClientOptions } from '../../../src/core/gateway/gatewayClient';
import { createProxyFetch } from '../../../src/core/http/proxyFetch';
import { Network } from '../../../src/core/http/network';
import { isExclusionsReadUnrecognised } from '../../../src/core/account/exclusionsRead';
import { HostingClient } from '../../../src/core/account/hostingClient';
import { resolveProxy } from '../../../src/core/http/dispatcher';
import type { RetryNotice } from '../../../src/core/gateway/api';
import { gatewayError, MemoryLogger, sendEnvelope, startProxy, VirtualClock, withServer } from './helpers';

const KEY = 'svc_pat_transport_test_key_9f8e7d';
const clients: GatewayClient[] = [];
after(() => Promise.all(clients.map((c) => c.dispose())));

function client(baseUrl: string | (() => string), extra: Partial<GatewayClientOptions> = {}): { c: GatewayClient; clock: VirtualClock; log: MemoryLogger } {
  const clock = new VirtualClock();
  const log = new MemoryLogger();
  const c = createGatewayClient({ baseUrl, getKey: async () => KEY, userAgent: 'ai-gateway-vscode/test', logger: log, clock, env: {}, ...extra });
  clients.push(c);
  return { c, clock, log };
}

describe('retry delays', () => {
  test('[G-ERR-3] [G-ERR-4] 429 and 503 are retried with exponential back-off and full jitter, bounded by attempts', async () => {
    await withServer(
      (_req, res, i) => {
        if (i % 2 === 0) {
          res.writeHead(429, { 'content-type': 'text/html' });
          res.end('<html>slow down</html>');
        } else sendEnvelope(res, 503, 'entitlement_unavailable', 'later', `r${i}`);
      },
      async (s) => {
        const { c, clock } = client(s.url, { retry: { maxAttempts: 5, baseDelayMs: 200, maxDelayMs: 1000, maxTotalMs: 60_000 } });
        const notices: RetryNotice[] = [];
        const e = await gatewayError(c.postJson('/v1/content/summarize', { text: 'x' }, { onRetry: (n) => notices.push(n) }));
        assert.equal(s.requests.length, 5);
        // random() = 0.5: half of min(1000, 200 * 2^(n-1)).
        assert.deepEqual(clock.sleeps, [100, 200, 400, 500]);
        assert.deepEqual(
          notices.map((n) => [n.attempt, n.error.reason]),
          [
            [1, 'throttled'],
            [2, 'unavailable'],
            [3, 'throttled'],
            [4, 'unavailable'],
          ],
        );
        assert.equal(e.reason, 'throttled');
        assert.equal(e.status, 429);
      },
    );
  });

  test('Retry-After as an HTTP-date is honoured relative to the clock', async () => {
    const clock = new VirtualClock();
    await withServer(
      (_req, res, i) => {
        if (i === 0) {
          res.writeHead(429, { 'retry-after': new Date(clock.now() + 3000).toUTCString(), 'content-type': 'text/html' });
          res.end('<html></html>');
        } else {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end('{"ok":true}');
        }
      },
      async (s) => {
        const { c } = client(s.url, { clock });
        const r = await c.getJson<{ ok: boolean }>('/v1/things');
        assert.deepEqual(r.data, { ok: true });
        assert.deepEqual(clock.sleeps, [3000]);
      },
    );
  });

  test('a Retry-After beyond the total-time budget is not waited for; the error carries it', async () => {
    await withServer(
      (_req, res) => sendEnvelope(res, 503, 'service_unavailable', 'down', 'r1', { 'retry-after': '120' }),
      async (s) => {
        const { c, clock } = client(s.url, { retry: { maxTotalMs: 30_000 } });
        const e = await gatewayError(c.getJson('/v1/things'));
        assert.equal(e.reason, 'unavailable');
        assert.equal(e.retryAfterMs, 120_000);
        assert.deepEqual(clock.sleeps, []);
        assert.equal(s.requests.length, 1);
      },
    );
  });

  test('an abort during the back-off wait ends the call at once as aborted', async () => {
    await withServer(
      (_req, res) => sendEnvelope(res, 503, 'service_unavailable', 'down', 'r-wait'),
      async (s) => {
        const ac = new AbortController();
        const { c, clock } = client(s.url);
        clock.onSleep = () => ac.abort();
        const e = await gatewayError(c.getJson('/v1/things', { signal: ac.signal }));
        assert.equal(e.reason, 'aborted');
        assert.equal(e.requestId, 'r-wait');
        assert.equal(s.requests.length, 1);
      },
    );
  });

  test('the real clock also stops waiting when aborted', async () => {
    await withServer(
      (_req, res) => sendEnvelope(res, 503, 'service_unavailable', 'down', 'r', { 'retry-after': '20' }),
      async (s) => {
        const ac = new AbortController();
        const c = createGatewayClient({ baseUrl: s.url, getKey: async () => KEY, userAgent: 't', env: {}, retry: { maxTotalMs: 60_000 } });
        clients.push(c);
        const e = await gatewayError(c.getJson('/v1/things', { signal: ac.signal, onRetry: () => setImmediate(() => ac.abort()) }));
        assert.equal(e.reason, 'aborted');
        assert.equal(s.requests.length, 1);
      },
    );
  });

  test('an onRetry callback that throws does not change the outcome', async () => {
    await withServer(
      (_req, res, i) => {
        if (i === 0) sendEnvelope(res, 503, 'service_unavailable', 'down', 'r0');
        else {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end('{"ok":1}');
        }
      },
      async (s) => {
        const { c } = client(s.url);
        const r = await c.getJson('/v1/x', {
          onRetry: () => {
            throw new Error('UI broke');
          },
        });
        assert.deepEqual(r.data, { ok: 1 });
        assert.equal(s.requests.length, 2);
      },
    );
  });

  test('a refused connection is a network error, retried up to maxAttempts', async () => {
    const probe = createNetServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((r) => probe.close(() => r()));
    const { c, clock } = client(`http://127.0.0.1:${port}`, { retry: { maxAttempts: 3 } });
    const e = await gatewayError(c.listModels());
    assert.equal(e.reason, 'network');
    assert.equal(e.status, undefined);
    assert.equal(clock.sleeps.length, 2);
  });

  test('an already-aborted signal sends nothing', async () => {
    await withServer(
      (_req, res) => void res.end('{}'),
      async (s) => {
        const { c } = client(s.url);
        const e = await gatewayError(c.getJson('/v1/x', { signal: AbortSignal.abort() }));
        assert.equal(e.reason, 'aborted');
        assert.equal(s.requests.length, 0);
      },
    );
  });
});

describe('timeouts and cancellation', () => {
  test('connect timeout: a TLS handshake that never completes', async () => {
    const sockets: Socket[] = [];
    const silent = createNetServer((sock) => void sockets.push(sock));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    try {
      const { port } = silent.address() as AddressInfo;
      const { c, clock } = client(`https://127.0.0.1:${port}`, { timeouts: { connectMs: 200 }, retry: { maxAttempts: 2 } });
      const e = await gatewayError(c.listModels());
      assert.equal(e.reason, 'timeout');
      assert.equal(e.timeoutPhase, 'connect');
      // Nothing was sent, so the connect failure is retried.
      assert.equal(clock.sleeps.length, 1);
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => silent.close(() => r()));
    }
  });

  test('first-byte timeout: no response headers in time; not retried', async () => {
    await withServer(
      () => undefined,
      async (s) => {
        const { c, clock } = client(s.url, { timeouts: { firstByteMs: 200 } });
        const e = await gatewayError(c.createChatCompletion({ model: 'a/b', messages: [] }));
        assert.equal(e.reason, 'timeout');
        assert.equal(e.timeoutPhase, 'firstByte');
        assert.equal(clock.sleeps.length, 0);
        assert.equal(s.requests.length, 1);
      },
    );
  });

  test('idle timeout on a JSON body that stops halfway', async () => {
    await withServer(
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"object":"list",');
      },
      async (s) => {
        const { c } = client(s.url, { timeouts: { idleMs: 200 } });
        const e = await gatewayError(c.listModels());
        assert.equal(e.reason, 'timeout');
        assert.equal(e.timeoutPhase, 'idle');
      },
    );
  });

  test('cancelling before the response arrives closes the socket the server sees', async () => {
    await withServer(
      () => undefined,
      async (s) => {
        const ac = new AbortController();
        const { c } = client(s.url);
        const p = c.createChatCompletion({ model: 'a/b', messages: [] }, { signal: ac.signal });
        while (s.requests.length === 0) await new Promise((r) => setTimeout(r, 5));
        ac.abort();
        const e = await gatewayError(p);
        assert.equal(e.reason, 'aborted');
        await s.socketClosed(0);
      },
    );
  });

  test('cancelling mid-stream closes the socket the server sees', async () => {
    await withServer(
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(`data: {"id":"1","object":"chat.completion.chunk","created":1,"model":"m","choices":[]}\n\n`);
      },
      async (s) => {
        const ac = new AbortController();
        const { c } = client(s.url);
        const stream = await c.streamChatCompletion({ model: 'a/b', messages: [] }, { signal: ac.signal });
        let got = 0;
        const e = await gatewayError(
          (async () => {
            for await (const _ of stream) {
              got++;
              ac.abort();
            }
          })(),
        );
        assert.equal(got, 1);
        assert.equal(e.reason, 'aborted');
        assert.equal(e.partial, true);
        await s.socketClosed(0);
      },
    );
  });
});

describe('request shape and safety', () => {
  test('the base URL is read per call, and a trailing /v1 is not doubled', async () => {
    await withServer(
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"object":"list","data":[]}');
      },
      async (s) => {
        let base = `${s.url}/v1/`;
        const { c } = client(() => base);
        await c.listModels();
        base = s.url;
        await c.listModels();
        assert.deepEqual(
          s.requests.map((r) => r.url),
          ['/v1/models', '/v1/models'],
        );
      },
    );
  });

  test('joinUrl keeps a path prefix and the query', () => {
    assert.equal(joinUrl('https://gw.example/prefix/', '/v1/models?a=1').href, 'https://gw.example/prefix/v1/models?a=1');
    assert.throws(() => joinUrl('ftp://gw.example', '/v1/models'));
  });

  test('getJson encodes query values and drops undefined ones', async () => {
    await withServer(
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{}');
      },
      async (s) => {
        const { c } = client(s.url);
        await c.getJson('/v1/analytics', { query: { project_id: 'a b&c', bucket_width: undefined, start_time: '1' } });
        assert.equal(s.requests[0].url, '/v1/analytics?project_id=a+b%26c&start_time=1');
      },
    );
  });

  test('absolute or protocol-relative paths are refused: the key never leaves the gateway host', async () => {
    const { c } = client('http://127.0.0.1:9');
    for (const p of ['https://evil.example/v1/x', '//evil.example/v1/x', 'v1/x']) {
      const e = await gatewayError(c.getJson(p));
      assert.equal(e.reason, 'invalid_request', p);
    }
  });

  test('[G-ERR-2] the request id falls back to the envelope when the header is missing', async () => {
    await withServer(
      (_req, res) => {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'boom', type: 'server_error', code: 500, request_id: 'from-envelope' } }));
      },
      async (s) => {
        const { c } = client(s.url);
        const e = await gatewayError(c.getJson('/v1/x'));
        assert.equal(e.requestId, 'from-envelope');
        assert.equal(e.reason, 'server');
      },
    );
  });

  test('[G-ERR-3] a 429 whose body looks like JSON is still not read', async () => {
    await withServer(
      (_req, res) => {
        res.writeHead(429, { 'content-type': 'application/json', 'x-request-id': 'edge-1' });
        res.end(JSON.stringify({ error: { message: 'should not be used', type: 'permission_error', code: 429 } }));
      },
      async (s) => {
        const { c } = client(s.url, { retry: { maxAttempts: 1 } });
        const e = await gatewayError(c.getJson('/v1/x'));
        assert.equal(e.reason, 'throttled');
        assert.equal(e.type, undefined);
        assert.notEqual(e.message, 'should not be used');
        assert.equal(e.requestId, 'edge-1');
      },
    );
  });

  test('a server echoing the key back never gets it into the error or the log', async () => {
    await withServer(
      (_req, res) => sendEnvelope(res, 401, 'authentication_error', `invalid key ${KEY} (Bearer ${KEY})`, 'r-echo'),
      async (s) => {
        const { c, log } = client(s.url);
        const e = await gatewayError(c.getJson('/v1/x'));
        assert.ok(!e.message.includes(KEY));
        assert.ok(!log.text.includes(KEY));
        assert.equal(s.requests[0].headers.authorization, `Bearer ${KEY}`);
        assert.equal(s.requests[0].headers['user-agent'], 'ai-gateway-vscode/test');
      },
    );
  });

  test('a 200 with a body that is not JSON is a protocol error with the request id', async () => {
    await withServer(
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'r-bad' });
        res.end('<html>');
      },
      async (s) => {
        const { c } = client(s.url);
        const e = await gatewayError(c.listModels());
        assert.equal(e.reason, 'protocol');
        assert.equal(e.requestId, 'r-bad');
      },
    );
  });
});

describe('proxy', () => {

  const ok = (_req: IncomingMessage, res: import('node:http').ServerResponse): void => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"object":"list","data":[]}');
  };

  test('http.proxy setting: requests go through the proxy; noProxy bypasses it', async () => {
    const proxy = await startProxy();
    try {
      await withServer(ok, async (s) => {
        const target = new URL(s.url).host;
        let network: { proxy?: string; noProxy?: string[] } = { proxy: proxy.url };
        const { c } = client(s.url, { network: () => network });
        await c.listModels();
        assert.deepEqual(proxy.tunnels, [target]);
        network = { proxy: proxy.url, noProxy: ['127.0.0.1'] };
        await c.listModels();
        assert.deepEqual(proxy.tunnels, [target]);
        assert.equal(s.requests.length, 2);
      });
    } finally {
      await proxy.close();
    }
  });

  test('HTTP_PROXY / NO_PROXY environment variables are honoured', async () => {
    const proxy = await startProxy();
    try {
      await withServer(ok, async (s) => {
        await client(s.url, { env: { HTTP_PROXY: proxy.url } }).c.listModels();
        assert.equal(proxy.tunnels.length, 1);
        await client(s.url, { env: { HTTP_PROXY: proxy.url, NO_PROXY: 'localhost,127.0.0.1' } }).c.listModels();
        assert.equal(proxy.tunnels.length, 1);
        assert.equal(s.requests.length, 2);
      });
    } finally {
      await proxy.close();
    }
  });

  test('createProxyFetch (for the MCP transport) uses the same proxy settings', async () => {
    const proxy = await startProxy();
    try {
      await withServer(ok, async (s) => {
        const pf = createProxyFetch({ proxy: proxy.url }, { env: {} });
        try {
          const r = await pf.fetch(`${s.url}/v1/models`);
          assert.equal(r.status, 200);
          assert.deepEqual(await r.json(), { object: 'list', data: [] });
          assert.equal(proxy.tunnels.length, 1);
        } finally {
          await pf.dispose();
        }
      });
    } finally {
      await proxy.close();
    }
  });

  test('one Network: a proxy change reaches the gateway client, the hosting client and the MCP fetch at their next request, all with one user agent', async () => {
    const proxy = await startProxy();
    try {
      await withServer(ok, async (s) => {
        let settings: { proxy?: string; noProxy?: string[] } = { proxy: proxy.url };
        const net = new Network({ settings: () => settings, env: {}, userAgent: 'ai-gateway-vscode/9.9.9 VSCode/1.0.0' });
        try {
          const gateway = createGatewayClient({ baseUrl: s.url, getKey: async () => KEY, net });
          const hosting = new HostingClient({ baseUrl: () => s.url, getCredentials: async () => ({ username: 'u', password: 'p' }), fetch: (u, i) => net.fetch(u, i), userAgent: net.userAgent });
          const install = '0b0e4a47-6f0e-4a0b-9b8f-3c4d5e6f7a8b';
          const calls = [
            () => gateway.listModels(),
            // The stub answers every path with {object, data}: not the exclusions envelope, so it is refused (#39.6), after the request went through.
            () => hosting.getCacheExclusions(install).then(() => assert.fail('an unknown envelope became a list'), (e: unknown) => assert.ok(isExclusionsReadUnrecognised(e), String(e))),
            async () => assert.equal((await net.fetch(`${s.url}/v1/mcp`)).status, 200),
          ];
          // Each change of the settings gives a new pool, so each call opens its own proxy tunnel.
          for (const [i, call] of calls.entries()) {
            settings = { proxy: proxy.url, noProxy: [`unrelated-${i}.example`] };
            await call();
            assert.equal(proxy.tunnels.length, i + 1, `call ${i} went through the proxy`);
          }
          settings = { proxy: proxy.url, noProxy: ['127.0.0.1'] };
          for (const call of calls) await call();
          assert.equal(proxy.tunnels.length, 3, 'after the change no call uses the proxy');
          assert.equal(s.requests.length, 6);
          assert.deepEqual(new Set(s.requests.map((r) => r.headers['user-agent'])), new Set(['ai-gateway-vscode/9.9.9 VSCode/1.0.0']));
        } finally {
          await net.dispose();
        }
      });
    } finally {
      await proxy.close();
    }
  });

  test('resolveProxy: settings win over the environment; noProxy lists merge', () => {
    const env = { https_proxy: 'http://env-https:1', HTTP_PROXY: 'http://env-http:2', NO_PROXY: 'a.example, b.example' };
    assert.deepEqual(resolveProxy({}, env), { httpProxy: 'http://env-http:2', httpsProxy: 'http://env-https:1', noProxy: 'a.example,b.example', strictSSL: true });
    assert.deepEqual(resolveProxy({ proxy: 'http://set:3', noProxy: ['c.example', 'a.example'], strictSSL: false }, env), {
      httpProxy: 'http://set:3',
      httpsProxy: 'http://set:3',
      noProxy: 'c.example,a.example,b.example',
      strictSSL: false,
    });
    assert.deepEqual(resolveProxy({}, {}), { httpProxy: '', httpsProxy: '', noProxy: '', strictSSL: true });
  });
});

describe('TLS verification (http.proxyStrictSSL)', () => {
  // A self-signed certificate for 127.0.0.1 (test fixture, valid for 100 years; not a credential).
  const fixtures = join(__dirname, 'fixtures');
  const tls = { key: readFileSync(join(fixtures, 'localhost.key.pem')), cert: readFileSync(join(fixtures, 'localhost.cert.pem')) };

  test('an untrusted certificate is refused by default, named as such and not retried; strictSSL false accepts it', async () => {
    const server = createHttpsServer(tls, (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"object":"list","data":[]}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const strict = client(url);
      const e = await gatewayError(strict.c.listModels());
      assert.equal(e.reason, 'network');
      assert.equal(e.code, 'DEPTH_ZERO_SELF_SIGNED_CERT');
      assert.match(e.message, /certificate/);
      assert.equal(e.retryable, false);
      assert.deepEqual(strict.clock.sleeps, []);
      const lax = client(url, { network: { strictSSL: false } });
      assert.equal((await lax.c.listModels()).status, 200);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
