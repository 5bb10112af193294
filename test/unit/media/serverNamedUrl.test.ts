/**
 * Issue 27, item 8: a URL a server names (an image URL in an image-generation answer, a redirect's
 * Location) never makes the extension call another local service. A "gateway" on 127.0.0.1 (its own
 * origin stays allowed, as for the local gateway) answers with, or redirects to, every spelling of a
 * loopback address of a second local server that counts every connection it gets: it must get none.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { createDownloader } from '../../../src/core/media/mediaTransport';
import { generateImage } from '../../../src/core/media/mediaClient';
import { Network } from '../../../src/core/http/network';
import { isGatewayError } from '../../../src/core/http/errors';
import { MAX_SERVER_REDIRECTS, type Resolver } from '../../../src/core/http/serverUrl';
import { MemoryLogger } from '../http/helpers';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);

/** Names the fake DNS knows: one says loopback, one says a private address, one changes its answer. */
let rebindCalls = 0;
const resolve: Resolver = async (hostname) => {
  if (hostname === 'images.example.test') return [{ address: '127.0.0.1', family: 4 }];
  if (hostname === 'mixed.example.test') return [{ address: '93.184.216.34', family: 4 }, { address: '127.0.0.1', family: 4 }];
  if (hostname === 'lan.example.test') return [{ address: '192.168.1.10', family: 4 }];
  if (hostname === 'rebind.example.test') return rebindCalls++ % 2 === 0 ? [{ address: '192.0.2.1', family: 4 }] : [{ address: '127.0.0.1', family: 4 }];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
};

describe('[#27.8] server-named URLs never reach another local service', () => {
  let gateway: Server;
  let service: Server;
  let gw: string;
  let servicePort: number;
  /** Connections the other local service accepted (a TLS attempt counts too). */
  let reached = 0;
  const nets: Network[] = [];
  const net = (): Network => {
    const n = new Network({ env: {}, userAgent: 'ssrf-test', resolve, timeouts: () => ({ connectMs: 500 }) });
    nets.push(n);
    return n;
  };

  /** Where hop `kind` points: the gateway's own origin, or a spelling of the other local service. */
  const hopUrl = (kind: string): string => {
    const p = servicePort;
    switch (kind) {
      case 'own': return `${gw}/img.png`;
      case 'http-127': return `http://127.0.0.1:${p}/x.png`;
      case 'https-127': return `https://127.0.0.1:${p}/x.png`;
      case 'localhost': return `http://localhost:${p}/x.png`;
      case 'decimal': return `https://2130706433:${p}/x.png`;
      case 'octal': return `https://0177.0.0.1:${p}/x.png`;
      case 'hex': return `https://0x7f.1:${p}/x.png`;
      case 'short': return `https://127.1:${p}/x.png`;
      case 'mapped': return `https://[::ffff:127.0.0.1]:${p}/x.png`;
      case 'v6-loopback': return `https://[::1]:${p}/x.png`;
      case 'unspecified': return `https://0.0.0.0:${p}/x.png`;
      case 'dns-loopback': return `https://images.example.test:${p}/x.png`;
      case 'dns-mixed': return `https://mixed.example.test:${p}/x.png`;
      default: throw new Error(kind);
    }
  };
  const BLOCKED = ['http-127', 'https-127', 'localhost', 'decimal', 'octal', 'hex', 'short', 'mapped', 'v6-loopback', 'unspecified', 'dns-loopback', 'dns-mixed'];

  before(async () => {
    service = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(PNG);
    });
    service.on('connection', () => reached++);
    await new Promise<void>((r) => service.listen(0, '127.0.0.1', r));
    servicePort = (service.address() as AddressInfo).port;
    gateway = createServer((req, res) => {
      const u = new URL(req.url ?? '/', 'http://x');
      if (u.pathname === '/img.png') {
        res.writeHead(200, { 'content-type': 'image/png' });
        res.end(PNG);
        return;
      }
      if (u.pathname === '/hop') {
        // /hop?chain=a,b,c: a redirect to the first hop; an own hop continues the chain on the gateway.
        const [first, ...rest] = (u.searchParams.get('chain') ?? '').split(',').filter(Boolean);
        const status = Number(u.searchParams.get('status') ?? 302);
        const next = first === undefined ? `${gw}/img.png` : first === 'own' ? `${gw}/hop?status=${status}&chain=${rest.join(',')}` : hopUrl(first);
        res.writeHead(status, { location: next });
        res.end();
        return;
      }
      if (u.pathname === '/v1/images/generations') {
        req.resume();
        req.on('end', () => {
          res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'r-img' });
          res.end(JSON.stringify({ created: 1, data: [{ url: hopUrl(u.searchParams.get('to') ?? 'own') }], usage: { images: 1 } }));
        });
        return;
      }
      res.writeHead(404);
      res.end();
    });
    await new Promise<void>((r) => gateway.listen(0, '127.0.0.1', r));
    gw = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`;
  });
  after(async () => {
    await Promise.all(nets.map((n) => n.dispose()));
    await new Promise<void>((r) => gateway.close(() => r()));
    await new Promise<void>((r) => service.close(() => r()));
  });

  async function refusal(p: Promise<unknown>): Promise<Error> {
    return p.then(
      () => assert.fail('expected a refusal'),
      (e: unknown) => e as Error,
    );
  }

  test('an image-generation answer naming another local service in any spelling is refused with a clear message; the service gets no connection', async () => {
    const n = net();
    const download = createDownloader({ net: n, ownOrigins: () => [gw] });
    for (const kind of BLOCKED) {
      const client = {
        postJson: async <T>(path: string, body: unknown) => {
          const r = await fetch(`${gw}${path}?to=${kind}`, { method: 'POST', body: JSON.stringify(body) });
          return { data: (await r.json()) as T, status: r.status, requestId: r.headers.get('x-request-id') ?? undefined };
        },
      };
      const e = await refusal(generateImage({ client, raw: {} as never, download, log: new MemoryLogger() }, { model: 'acme/img', prompt: 'a cat' }));
      assert.ok(isGatewayError(e) && e.reason === 'protocol', `${kind}: ${String(e)}`);
      assert.match(e.message, /image address that was not fetched: .*(loopback|unspecified|not the gateway|this computer)/, kind);
    }
    assert.equal(reached, 0, 'the other local service was reached');
    // The gateway's own origin still works (the local gateway in tests is on 127.0.0.1).
    assert.deepEqual(Buffer.from((await download(`${gw}/img.png`, 1000)).bytes), PNG);
  });

  test('any redirect chain: fetched only when every hop stays on the gateway\'s origin within the bound; a refused hop never reaches the service (downloader and the shared fetch)', async () => {
    const n = net();
    const download = createDownloader({ net: n, ownOrigins: () => [gw] });
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof({ weight: 3, arbitrary: fc.constant('own') }, { weight: 2, arbitrary: fc.constantFrom(...BLOCKED) }), { maxLength: 8 }),
        fc.constantFrom(301, 302, 303, 307, 308),
        async (chain, status) => {
          const start = `${gw}/hop?status=${status}&chain=${chain.join(',')}`;
          // Redirects: the first /hop, then one per hop of the chain.
          const allowed = chain.every((k) => k === 'own') && chain.length + 1 <= MAX_SERVER_REDIRECTS;
          const got = await download(start, 1000).then(
            (d) => ({ ok: true as const, bytes: d.bytes }),
            (e: unknown) => ({ ok: false as const, e }),
          );
          assert.equal(got.ok, allowed, `download ${chain.join(',')}: ${got.ok ? 'fetched' : String(got.e)}`);
          if (!got.ok) assert.ok(isGatewayError(got.e) && got.e.reason === 'protocol', String(got.e));
          const viaFetch = await n.fetch(start).then(
            async (r) => ({ ok: r.ok, status: r.status, body: Buffer.from(await r.arrayBuffer()) }),
            (e: unknown) => ({ ok: false, e }),
          );
          assert.equal(viaFetch.ok, allowed, `fetch ${chain.join(',')}: ${JSON.stringify(viaFetch)}`);
          if (!viaFetch.ok && 'e' in viaFetch) assert.match(String(viaFetch.e), /redirected to an address that was not fetched/);
          assert.equal(reached, 0, `the other local service was reached through ${chain.join(',')}`);
        },
      ),
      { numRuns: 150 },
    );
  });

  test('DNS: a public-looking name that resolves to a loopback or private address is refused; a name that changes its answer cannot swap in a local address', async () => {
    const n = net();
    const download = createDownloader({ net: n, ownOrigins: () => [gw] });
    for (const host of ['images.example.test', 'mixed.example.test', 'lan.example.test']) {
      const e = await refusal(download(`https://${host}:${servicePort}/x.png`, 1000));
      assert.ok(isGatewayError(e) && e.reason === 'protocol', String(e));
      assert.match(e.message, new RegExp(`${host.replace(/\./g, '\\.')} resolves to (127\\.0\\.0\\.1|192\\.168\\.1\\.10), a (loopback|private) address`));
    }
    // Rebinding: each connection uses the answer it checked. The first answer (192.0.2.1) is tried
    // (and fails: nothing is there), the second (loopback) is refused; neither reaches the service.
    rebindCalls = 0;
    for (let i = 0; i < 4; i++) await refusal(download(`https://rebind.example.test:${servicePort}/x.png`, 1000));
    assert.ok(rebindCalls >= 2, `the name was resolved per connection (${rebindCalls})`);
    // Through the shared fetch too.
    const e = await refusal(n.fetch(`${gw}/hop?chain=dns-loopback`));
    assert.match(String(e), /images\.example\.test resolves to 127\.0\.0\.1/);
    assert.equal(reached, 0);
  });
});
