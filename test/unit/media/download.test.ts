/**
 * The downloader for images the gateway answers by URL: a server-chosen address, so no credential is
 * ever sent, the size is bounded, and only the gateway's own origin or https on a public host is
 * fetched (http/serverUrl.ts). The test server here plays the gateway's own origin.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createDownloader, downloadUrlProblem } from '../../../src/core/media/mediaTransport';
import { isGatewayError } from '../../../src/core/http/errors';
import { Network } from '../../../src/core/http/network';

const nets: Network[] = [];
/** The shared network layer, as the editor builds it (no proxy from the environment). */
function net(): Network {
  const n = new Network({ env: {}, userAgent: 'media-test' });
  nets.push(n);
  return n;
}

let server: Server;
let base: string;
const seen: Array<{ url: string; headers: IncomingHttpHeaders }> = [];

before(async () => {
  server = createServer((req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers });
    if (req.url === '/big.png') {
      res.writeHead(200, { 'Content-Type': 'image/png' });
      // 3 chunks of 40 KB, no Content-Length: the limit must hold on streamed bytes.
      res.write(Buffer.alloc(40_000, 1));
      res.write(Buffer.alloc(40_000, 2));
      res.end(Buffer.alloc(40_000, 3));
    } else if (req.url === '/redirect') {
      res.writeHead(302, { Location: '/small.png' });
      res.end();
    } else if (req.url === '/away') {
      res.writeHead(302, { Location: 'http://example.invalid/x.png' });
      res.end();
    } else if (req.url === '/small.png') {
      res.writeHead(200, { 'Content-Type': 'image/png; charset=binary' });
      res.end(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(async () => {
  await Promise.all(nets.map((n) => n.dispose()));
  await new Promise<void>((r) => server.close(() => r()));
});

test('sends no Authorization (nor any cookie) to the server-chosen host, only the network layer\'s user agent; follows a redirect', async () => {
  const download = createDownloader({ net: net(), ownOrigins: () => [base] });
  const got = await download(`${base}/redirect`, 1000);
  assert.deepEqual(Array.from(got.bytes), [0x89, 0x50, 0x4e, 0x47]);
  assert.equal(got.contentType, 'image/png');
  for (const r of seen) {
    assert.equal(r.headers.authorization, undefined);
    assert.equal(r.headers.cookie, undefined);
    assert.equal(r.headers['user-agent'], 'media-test');
  }
});

test('a body over the limit is refused, even without Content-Length', async () => {
  const download = createDownloader({ net: net(), ownOrigins: () => [base] });
  const e = await download(`${base}/big.png`, 100_000).then(
    () => assert.fail('expected a refusal'),
    (err: unknown) => err,
  );
  assert.ok(isGatewayError(e) && e.reason === 'protocol' && e.message.includes('limit of 97.7 KiB (100,000 bytes)'), String(e));
  // At the limit exactly it passes.
  assert.equal((await download(`${base}/big.png`, 120_000)).bytes.byteLength, 120_000);
});

test('a redirect to plain http on another host is not followed', async () => {
  const download = createDownloader({ net: net(), ownOrigins: () => [base] });
  const e = await download(`${base}/away`, 1000).then(
    () => assert.fail('expected a refusal'),
    (err: unknown) => err,
  );
  assert.ok(isGatewayError(e) && /plain http to example\.invalid, which is not the gateway/.test(e.message), String(e));
});

test('URL policy: the gateway\'s own origin, or https on a public host; no credentials; no other schemes', () => {
  assert.equal(downloadUrlProblem('https://cdn.example.com/a.png'), undefined);
  assert.equal(downloadUrlProblem('http://gw.lan:8080/a.png', ['http://gw.lan:8080']), undefined);
  assert.equal(downloadUrlProblem('http://127.0.0.1:9/a.png', ['http://127.0.0.1:9']), undefined);
  assert.equal(downloadUrlProblem('http://127.0.0.1:9/a.png'), 'it is plain http to 127.0.0.1:9, which is not the gateway');
  assert.equal(downloadUrlProblem('https://localhost/a.png'), 'localhost is this computer (a loopback name)');
  assert.equal(downloadUrlProblem('http://cdn.example.com/a.png'), 'it is plain http to cdn.example.com, which is not the gateway');
  assert.equal(downloadUrlProblem('https://user:pw@cdn.example.com/a.png'), 'it carries credentials');
  assert.equal(downloadUrlProblem('file:///etc/passwd'), 'its scheme file: is not https');
  assert.equal(downloadUrlProblem('data:image/png;base64,AAAA'), 'its scheme data: is not https');
  assert.equal(downloadUrlProblem('not a url'), 'it is not a valid URL');
});

test('cancel before the download starts sends nothing', async () => {
  const before = seen.length;
  const controller = new AbortController();
  controller.abort();
  const e = await createDownloader({ net: net(), ownOrigins: () => [base] })(`${base}/small.png`, 10, controller.signal).then(
    () => assert.fail('expected a refusal'),
    (err: unknown) => err,
  );
  assert.ok(isGatewayError(e) && e.reason === 'aborted');
  assert.equal(seen.length, before);
});
