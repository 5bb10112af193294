/**
 * The media transport and the image downloader go through the shared network layer (http/network.ts):
 * its proxy settings, user agent, error-body limit, plain-http credential check and retry policy apply
 * to them exactly as to the JSON client, and a billed media request is re-sent only when it provably
 * never reached the gateway.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { createDownloader, createRawGateway } from '../../../src/core/media/mediaTransport';
import { generateImage } from '../../../src/core/media/mediaClient';
import { Network } from '../../../src/core/http/network';
import { isGatewayError, type GatewayError } from '../../../src/core/http/errors';
import { MemoryLogger, startProxy, VirtualClock, withServer } from '../http/helpers';

const KEY = 'svc_pat_media_network_test_4b3a';
const WAV = Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WAVE'), Buffer.alloc(32)]);
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);


async function rejection(p: Promise<unknown>): Promise<GatewayError> {
  try {
    await p;
  } catch (e) {
    assert.ok(isGatewayError(e), `expected a GatewayError, got ${String(e)}`);
    return e;
  }
  assert.fail('expected a rejection');
}

/** A port nothing listens on: connecting to it is refused, so a request provably never left. */
async function closedPort(): Promise<number> {
  const s = createNetServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

describe('media requests use the shared network layer', () => {
  test('the http.proxy setting applies to the speech transport and the image download at their next request; noProxy bypasses it', async () => {
    const proxy = await startProxy();
    try {
      await withServer(
        (req, res) => {
          if (req.url === '/img.png') {
            res.writeHead(200, { 'content-type': 'image/png' });
            res.end(PNG);
            return;
          }
          req.resume();
          req.on('end', () => {
            res.writeHead(200, { 'content-type': 'audio/wav', 'x-request-id': 'r-1' });
            res.end(WAV);
          });
        },
        async (s) => {
          let settings: { proxy?: string; noProxy?: string[] } = { proxy: proxy.url };
          const net = new Network({ settings: () => settings, env: {}, userAgent: 'ai-gateway-vscode/9.9.9 VSCode/1.0.0' });
          try {
            const raw = createRawGateway({ baseUrl: () => s.url, getKey: async () => KEY, net });
            const download = createDownloader({ net, ownOrigins: () => [new URL(s.url).origin] });
            const target = new URL(s.url).host;
            const speech = await raw.postForBytes('/v1/audio/speech', { model: 'm', input: 'x' }, { limit: 1000 });
            assert.deepEqual(Buffer.from(speech.bytes), WAV);
            assert.equal((await download(`${s.url}/img.png`, 1000)).bytes.byteLength, PNG.byteLength);
            assert.deepEqual(proxy.tunnels, [target, target], 'both went through the proxy');
            settings = { proxy: proxy.url, noProxy: ['127.0.0.1'] };
            await raw.postForBytes('/v1/audio/speech', { model: 'm', input: 'x' }, { limit: 1000 });
            await download(`${s.url}/img.png`, 1000);
            assert.equal(proxy.tunnels.length, 2, 'after the change neither uses the proxy');
            assert.equal(s.requests.length, 4);
            assert.deepEqual(new Set(s.requests.map((r) => r.headers['user-agent'])), new Set(['ai-gateway-vscode/9.9.9 VSCode/1.0.0']));
          } finally {
            await net.dispose();
          }
        },
      );
    } finally {
      await proxy.close();
    }
  });

  test("the network layer's error-body limit applies to a media error answer", async () => {
    const message = 'The speech model is resting; try again later. '.repeat(4);
    const envelope = JSON.stringify({ error: { type: 'invalid_request_error', message } });
    await withServer(
      (req, res) => {
        req.resume();
        req.on('end', () => {
          res.writeHead(400, { 'content-type': 'application/json' });
          res.end(envelope);
        });
      },
      async (s) => {
        const wide = new Network({ env: {}, limits: { maxErrorBodyBytes: 64 * 1024 } });
        const narrow = new Network({ env: {}, limits: { maxErrorBodyBytes: 40 } });
        try {
          const call = (net: Network) => createRawGateway({ baseUrl: () => s.url, getKey: async () => KEY, net }).postForBytes('/v1/audio/speech', {}, { limit: 1000 });
          const e1 = await rejection(call(wide));
          assert.ok(e1.message.includes('The speech model is resting'), e1.message);
          // Cut to 40 bytes the envelope no longer parses, so its message cannot be shown.
          const e2 = await rejection(call(narrow));
          assert.equal(e2.status, 400);
          assert.ok(!e2.message.includes('The speech model is resting'), e2.message);
        } finally {
          await wide.dispose();
          await narrow.dispose();
        }
      },
    );
  });

  test('a credential is not sent over plain http to a non-loopback gateway unless the user agrees; nothing leaves', async () => {
    const asked: string[] = [];
    const net = new Network({ env: {}, confirmInsecureCredential: async (u) => (asked.push(u.host), false) });
    try {
      const raw = createRawGateway({ baseUrl: () => 'http://gateway.example.invalid:8080', getKey: async () => KEY, net });
      const e = await rejection(raw.postForBytes('/v1/audio/speech', { input: 'x' }, { limit: 10 }));
      assert.equal(e.mayHaveReachedServer, false);
      assert.match(e.message, /unencrypted over http:\/\/ to gateway\.example\.invalid:8080/);
      assert.deepEqual(asked, ['gateway.example.invalid:8080']);
      const upload = raw.postStreamForJson('/v1/audio/transcriptions', { contentType: 'multipart/form-data; boundary=x', length: 1, open: async function* () { yield Buffer.from('x'); } }, { limit: 10 });
      assert.equal((await rejection(upload)).mayHaveReachedServer, false);
    } finally {
      await net.dispose();
    }
  });

  test('a refused connection (provably not sent) is retried per the network retry policy, the streamed body re-opened from its start', async () => {
    const port = await closedPort();
    const clock = new VirtualClock();
    const net = new Network({ env: {}, retry: () => ({ maxAttempts: 3 }) });
    const log = new MemoryLogger();
    let opened = 0;
    try {
      const raw = createRawGateway({ baseUrl: () => `http://127.0.0.1:${port}`, getKey: async () => KEY, net, clock, logger: log });
      const body = {
        contentType: 'multipart/form-data; boundary=x',
        length: 3,
        open: async function* () {
          opened++;
          yield Buffer.from('abc');
        },
      };
      const e = await rejection(raw.postStreamForJson('/v1/audio/transcriptions', body, { limit: 10 }));
      assert.equal(e.reason, 'network');
      assert.equal(e.mayHaveReachedServer, false);
      assert.equal(clock.sleeps.length, 2, 'two waits between three attempts');
      assert.ok(opened <= 3);
      assert.match(log.text, /attempts=3/);
      assert.ok(!log.text.includes(KEY));
    } finally {
      await net.dispose();
    }
  });

  test('a connection that breaks after the request was sent, a 503 and a 429 are never re-sent (billed work)', async () => {
    const clock = new VirtualClock();
    const net = new Network({ env: {}, retry: () => ({ maxAttempts: 4 }) });
    let mode: 'reset' | '503' | '429' = 'reset';
    try {
      await withServer(
        (req, res) => {
          req.resume();
          req.on('end', () => {
            if (mode === 'reset') {
              res.socket?.destroy();
              return;
            }
            res.writeHead(Number(mode), { 'content-type': 'application/json', 'retry-after': '1' });
            res.end('{"error":{"type":"server_error","message":"busy"}}');
          });
        },
        async (s) => {
          const raw = createRawGateway({ baseUrl: () => s.url, getKey: async () => KEY, net, clock });
          for (const m of ['reset', '503', '429'] as const) {
            mode = m;
            const before = s.requests.length;
            const e = await rejection(raw.postForBytes('/v1/audio/speech', { input: 'x' }, { limit: 100 }));
            assert.equal(e.mayHaveReachedServer, true, m);
            assert.equal(s.requests.length - before, 1, `${m}: sent once`);
          }
          assert.deepEqual(clock.sleeps, []);
        },
      );
    } finally {
      await net.dispose();
    }
  });
});

describe('image downloads', () => {
  test('a URL image over the size limit fails the whole generation: nothing is returned that could be saved, the download socket is dropped', async () => {
    const net = new Network({ env: {} });
    try {
      await withServer(
        (req, res) => {
          if (req.url === '/v1/images/generations') {
            req.resume();
            req.on('end', () => {
              res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'r-img' });
              res.end(JSON.stringify({ created: 1, data: [{ url: `http://${req.headers.host}/big.png` }], usage: { images: 1 } }));
            });
            return;
          }
          res.writeHead(200, { 'content-type': 'image/png' });
          res.write(PNG);
          res.end(Buffer.alloc(5000, 7));
        },
        async (s) => {
          const download = createDownloader({ net, ownOrigins: () => [new URL(s.url).origin] });
          const client = { postJson: async <T>(path: string, body: unknown) => {
            const r = await net.fetch(`${s.url}${path}`, { method: 'POST', body: JSON.stringify(body) });
            return { data: (await r.json()) as T, status: r.status, requestId: r.headers.get('x-request-id') ?? undefined };
          } };
          const e = await rejection(
            generateImage({ client, raw: createRawGateway({ baseUrl: () => s.url, getKey: async () => KEY, net }), download: (url, _limit, signal) => download(url, 1000, signal), log: new MemoryLogger() }, { model: 'acme/img', prompt: 'a cat' }),
          );
          assert.equal(e.reason, 'protocol');
          assert.match(e.message, /The generated image is larger than the limit of 1000 bytes/);
          // The download's socket was dropped at the limit rather than read to its end.
          await s.socketClosed(1);
        },
      );
    } finally {
      await net.dispose();
    }
  });
});
