/**
 * The checked image reader (src/core/content/localImage.ts, workspaceFile.ts, imageBytes.ts) on real
 * temp directories with real symlinks, driven the way the alt-text commands drive it: the document's
 * src is classified, the local image read, and only then is generateAltText called on the local
 * gateway. A refused image must leave the gateway's request log empty, on the dedicated endpoint and
 * on the chat fallback alike.
 */
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { startGateway, type RunningGateway } from '../../localGateway/server';
import { LOCAL_KEYS } from '../../localGateway/keys';
import { setContentEndpointMissing } from '../../localGateway/content';
import { createGatewayClient, type GatewayClient } from '../../../src/core/gateway/gatewayClient';
import { classifySrc } from '../../../src/core/content/altText';
import { generateAltText } from '../../../src/core/content/contentClient';
import { isContentError, type ContentErrorKind } from '../../../src/core/content/contentErrors';
import { sniffImageType } from '../../../src/core/content/imageBytes';
import { checkInlineImage, readLocalImage, readWorkspaceImage } from '../../../src/core/content/localImage';
import { readWorkspaceFile, isWorkspaceFileError } from '../../../src/core/content/workspaceFile';
import type { Logger } from '../../../src/core/log';

// Real image headers, written by hand (not produced by the code under test).
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');
const JPEG = Buffer.from('ffd8ffe000104a46494600010100000100010000', 'hex');
const GIF = Buffer.from('474946383961010001000000002c', 'hex');
const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x1a, 0, 0, 0]), Buffer.from('WEBPVP8L'), Buffer.alloc(8)]);
const AVIF = Buffer.concat([Buffer.from([0, 0, 0, 0x1c]), Buffer.from('ftypavif'), Buffer.from([0, 0, 0, 0]), Buffer.from('avifmif1miaf'), Buffer.alloc(8)]);
const SVG = Buffer.from('<?xml version="1.0"?>\n<!-- logo -->\n<!DOCTYPE svg [ <!ENTITY a "b"> ]>\n<svg xmlns="http://www.w3.org/2000/svg"><rect/></svg>\n');
const SECRET = 'PRIVATE KEY 0123456789 do not send';

const silent: Logger = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };
let gw: RunningGateway;
let client: GatewayClient;
let tmp: string;
let ws: string;
let doc: string;

before(async () => {
  gw = await startGateway();
  client = createGatewayClient({ baseUrl: () => gw.url, getKey: async () => LOCAL_KEYS.userFull, userAgent: 'local-image-test', env: {}, retry: { maxAttempts: 1 } });
  tmp = realpathSync(mkdtempSync(path.join(tmpdir(), 'aigw-img-')));
  ws = path.join(tmp, 'ws');
  mkdirSync(path.join(ws, 'docs'), { recursive: true });
  mkdirSync(path.join(ws, 'img'));
  mkdirSync(path.join(tmp, 'outside'));
  doc = path.join(ws, 'docs', 'post.md');
  writeFileSync(doc, '# post\n');
  writeFileSync(path.join(tmp, 'outside', 'x.png'), PNG);
  writeFileSync(path.join(tmp, 'outside', 'id_ed25519'), SECRET);
  writeFileSync(path.join(tmp, 'x.png'), PNG);
  writeFileSync(path.join(ws, 'img', 'good.png'), PNG);
  writeFileSync(path.join(ws, 'img', 'photo.png'), JPEG); // a JPEG named .png
  writeFileSync(path.join(ws, 'fake.png'), 'this is text, not a picture\n');
  writeFileSync(path.join(ws, 'page.svg'), '<html><body>not svg</body></html>');
  symlinkSync(path.join(tmp, 'outside', 'id_ed25519'), path.join(ws, 'logo.png'));
  symlinkSync('/proc/self/environ', path.join(ws, 'env.png'));
  symlinkSync(path.join(tmp, 'outside'), path.join(ws, 'linked'));
  symlinkSync(path.join(ws, 'img', 'good.png'), path.join(ws, 'inner.png'));
  symlinkSync(ws, path.join(tmp, 'ws-link'));
  spawnSync('mkfifo', [path.join(ws, 'pipe.png')]);
});
beforeEach(() => {
  gw.reset();
  setContentEndpointMissing(gw, 'altText', undefined);
});
after(async () => {
  await client.dispose();
  await gw.close();
  rmSync(tmp, { recursive: true, force: true });
});

function sentToGateway(): number {
  return gw.events.list('request').filter((e) => e.path === '/v1/images/alt-text' || e.path === '/v1/chat/completions').length;
}

/** What the alt-text command does for one src in docs/post.md: read the image, then call the gateway. */
async function altTextFor(src: string, roots: string[] = [ws], documentPath: string = doc) {
  const c = classifySrc(src);
  assert.equal(c.kind, 'local', `test setup: ${src} should be a local src`);
  if (c.kind !== 'local') throw new Error('unreachable');
  const image = await readLocalImage(c, documentPath, { roots });
  return generateAltText({ client, log: silent, model: { id: 'anthropic/claude-haiku-4.5' } }, { image });
}

async function assertRefused(src: string, kind: ContentErrorKind, mentions: string | RegExp, roots?: string[]) {
  await assert.rejects(altTextFor(src, roots), (e: unknown) => {
    assert.ok(isContentError(e), `expected a ContentError, got ${String(e)}`);
    assert.equal(e.kind, kind, e.message);
    if (typeof mentions === 'string') assert.ok(e.message.includes(mentions), e.message);
    else assert.match(e.message, mentions);
    assert.ok(!e.message.includes(SECRET));
    return true;
  });
  assert.equal(sentToGateway(), 0, 'nothing may reach the gateway');
}

for (const fallback of [false, true]) {
  describe(`images outside the workspace are never read or sent (${fallback ? 'chat fallback' : 'alt-text endpoint'})`, () => {
    beforeEach(() => setContentEndpointMissing(gw, 'altText', fallback ? 404 : undefined));

    test('../../outside/x.png is refused, naming the path', async () => {
      await assertRefused('../../outside/x.png', 'outside_workspace', '../../outside/x.png');
    });
    test('absolute /../x.png is refused', async () => {
      await assertRefused('/../x.png', 'outside_workspace', '/../x.png');
    });
    test('percent-encoded %2e%2e/%2e%2e/outside/x.png is refused', async () => {
      await assertRefused('%2e%2e/%2e%2e/outside/x.png', 'outside_workspace', 'outside/x.png');
    });
    test('a symlink logo.png -> a private key outside is refused, naming where it leads', async () => {
      await assertRefused('../logo.png', 'outside_workspace', path.join(tmp, 'outside', 'id_ed25519'));
    });
    test('a symlink env.png -> /proc/self/environ is refused', async () => {
      await assertRefused('../env.png', 'outside_workspace', /environ/);
    });
    test('a path through a symlinked directory that leads outside is refused', async () => {
      await assertRefused('../linked/x.png', 'outside_workspace', path.join(tmp, 'outside', 'x.png'));
    });
    test('a .png that is really text is refused by its content', async () => {
      await assertRefused('../fake.png', 'not_an_image', 'fake.png');
    });
    test('an .svg that is really HTML is refused by its content', async () => {
      await assertRefused('../page.svg', 'not_an_image', 'page.svg');
    });
    test('a FIFO named pipe.png is refused without hanging', async () => {
      await assertRefused('../pipe.png', 'unresolvable_image', 'pipe.png');
    });
    test('with no workspace folder open, nothing local is read', async () => {
      await assertRefused('../img/good.png', 'outside_workspace', 'no', []);
    });

    test('a real image inside is sent, with the type its bytes show; a symlink that stays inside is fine', async () => {
      for (const [src, type, bytes] of [
        ['../img/good.png', 'image/png', PNG.length],
        ['../inner.png', 'image/png', PNG.length],
        ['../img/photo.png', 'image/jpeg', JPEG.length],
      ] as const) {
        gw.reset();
        const out = await altTextFor(src);
        assert.equal(out.via, fallback ? 'chat' : 'endpoint');
        if (!fallback) assert.equal(out.result.altText, `Local "test" image: inline ${type} [${bytes} bytes]`);
        assert.equal(sentToGateway(), fallback ? 2 : 1);
      }
    });
  });
}

describe('workspace folders and limits', () => {
  test('a workspace folder opened through a symlink still contains its files (roots are realpathed too)', async () => {
    const linkRoot = path.join(tmp, 'ws-link');
    const image = await readLocalImage({ path: '../img/good.png', rootRelative: false }, path.join(linkRoot, 'docs', 'post.md'), { roots: [linkRoot] });
    assert.equal(image.kind === 'bytes' && image.mediaType, 'image/png');
  });

  test('root-relative /img/good.png is looked up under the workspace folder', async () => {
    const image = await readLocalImage({ path: 'img/good.png', rootRelative: true }, doc, { roots: [ws] });
    assert.equal(image.kind === 'bytes' && Buffer.from(image.base64, 'base64').equals(PNG), true);
  });

  test('a file over the limit is refused', async () => {
    await assert.rejects(readWorkspaceImage(path.join(ws, 'img', 'good.png'), { roots: [ws], maxBytes: PNG.length - 1 }), (e: unknown) => isContentError(e) && e.kind === 'image_too_large');
  });

  test('a /proc file reporting size 0 is still read at most limit+1 bytes and refused as too large', { skip: process.platform !== 'linux' }, async () => {
    // /proc/self is its own root here: the point is the bounded read, not containment.
    await assert.rejects(readWorkspaceFile('/proc/self/status', ['/proc/self'], 16), (e: unknown) => isWorkspaceFileError(e) && e.kind === 'too_large');
  });
});

describe('image content sniffing', () => {
  test('PNG, JPEG, GIF, WebP, AVIF and SVG are recognised by their bytes', () => {
    assert.equal(sniffImageType(PNG), 'image/png');
    assert.equal(sniffImageType(JPEG), 'image/jpeg');
    assert.equal(sniffImageType(GIF), 'image/gif');
    assert.equal(sniffImageType(WEBP), 'image/webp');
    assert.equal(sniffImageType(AVIF), 'image/avif');
    assert.equal(sniffImageType(SVG), 'image/svg+xml');
    assert.equal(sniffImageType(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')), 'image/svg+xml');
  });

  test('text, keys, HTML, truncated headers, BMP and SVG look-alikes are not images', () => {
    for (const bad of [
      Buffer.from(SECRET),
      Buffer.from('-----BEGIN OPENSSH PRIVATE KEY-----\n'),
      Buffer.from('HOME=/root\u0000PATH=/bin\u0000'),
      Buffer.from('<html><svg></svg></html>'),
      Buffer.from('<svg>unclosed'),
      Buffer.from('<svgfoo></svgfoo>'),
      Buffer.from('<svg></svg>\u0000'),
      Buffer.from([0x3c, 0x73, 0x76, 0x67, 0x3e, 0xff, 0xfe]), // <svg> then invalid UTF-8
      PNG.subarray(0, 7),
      Buffer.from('BM\u0000\u0000'),
      Buffer.from('RIFF\u0000\u0000\u0000\u0000WAVE'),
      Buffer.alloc(0),
    ]) {
      assert.equal(sniffImageType(bad), undefined, JSON.stringify(bad.toString('latin1')));
    }
  });

  test('an inline data: URI must hold a real image too; its type is taken from the bytes', () => {
    assert.deepEqual(checkInlineImage({ kind: 'bytes', mediaType: 'image/gif', base64: PNG.toString('base64') }), { kind: 'bytes', mediaType: 'image/png', base64: PNG.toString('base64') });
    assert.throws(() => checkInlineImage({ kind: 'bytes', mediaType: 'image/png', base64: Buffer.from(SECRET).toString('base64') }), (e: unknown) => isContentError(e) && e.kind === 'not_an_image');
  });
});
