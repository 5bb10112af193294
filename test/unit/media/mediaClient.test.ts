/**
 * The media clients against the local gateway over real HTTP: images (base64 and URL), speech,
 * transcription streamed from disk, the 404/405 "not offered" errors, the scope 403 (G-AUTH-7), the
 * limits refused before sending, and cancel.
 */
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readlinkSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startGateway, type RunningGateway } from '../../localGateway/server';
import { LOCAL_KEYS } from '../../localGateway/keys';
import { setMediaEndpointMissing } from '../../localGateway/media';
import { createGatewayClient, type GatewayClient } from '../../../src/core/gateway/gatewayClient';
import { generateImage, inspectAudioFile, isMediaError, synthesizeSpeech, transcribeAudioFile, type MediaDeps } from '../../../src/core/media/mediaClient';
import { createDownloader, createRawGateway, type Download } from '../../../src/core/media/mediaTransport';
import { isGatewayError, type GatewayError } from '../../../src/core/http/errors';
import { Network } from '../../../src/core/http/network';
import { MemoryLogger } from '../http/helpers';

const IMAGE_MODEL = 'openai/gpt-image-1';
const SPEECH_MODEL = 'openai/tts-1-hd';
const TRANSCRIBE_MODEL = 'openai/whisper-1';

let gw: RunningGateway;
let dir: string;
const clients: GatewayClient[] = [];
const nets: Network[] = [];

function deps(key: string = LOCAL_KEYS.userFull, signal?: AbortSignal, download?: Download): MediaDeps & { log: MemoryLogger } {
  const client = createGatewayClient({ baseUrl: () => gw.url, getKey: async () => key, userAgent: 'media-test', env: {}, retry: { maxAttempts: 1 } });
  clients.push(client);
  const log = new MemoryLogger();
  const net = new Network({ env: {}, userAgent: 'media-test' });
  nets.push(net);
  return {
    client,
    raw: createRawGateway({ baseUrl: () => gw.url, getKey: async () => key, net, logger: log }),
    download: download ?? createDownloader({ net, ownOrigins: () => [new URL(gw.url).origin] }),
    log,
    signal,
  };
}

async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  assert.fail('expected a rejection');
}

function gatewayError(e: unknown): GatewayError {
  assert.ok(isGatewayError(e), `expected a GatewayError, got ${String(e)}`);
  return e;
}

const requests = (path: string) => gw.events.list('request').filter((e) => e.path === path);

before(async () => {
  gw = await startGateway();
  dir = mkdtempSync(join(tmpdir(), 'media-test-'));
});
beforeEach(() => {
  gw.reset();
  for (const r of ['images', 'speech', 'transcriptions'] as const) setMediaEndpointMissing(gw, r, undefined);
});
after(async () => {
  await Promise.all([...clients, ...nets].map((c) => c.dispose()));
  await gw.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('images', () => {
  test('base64 answer: checked PNG bytes, billed count, request id', async () => {
    const out = await generateImage(deps(), { model: IMAGE_MODEL, prompt: 'A lighthouse at dusk', count: 2, size: '1024x1536' });
    assert.equal(out.images.length, 2);
    assert.equal(out.billedImages, 2);
    assert.ok(out.requestId);
    for (const img of out.images) {
      assert.equal(img.mediaType, 'image/png');
      assert.equal(img.source, 'base64');
    }
    // IHDR: 1024x1536 / 16 = 64 x 96; the two images differ (index is hashed in).
    const ihdr = Buffer.from(out.images[0].bytes).subarray(16, 24);
    assert.deepEqual([ihdr.readUInt32BE(0), ihdr.readUInt32BE(4)], [64, 96]);
    assert.ok(!Buffer.from(out.images[0].bytes).equals(Buffer.from(out.images[1].bytes)));
    const ev = gw.events.list('media-request');
    assert.deepEqual([ev[0].endpoint, ev[0].model, ev[0].images], ['images', IMAGE_MODEL, 2]);
  });

  test('URL answer: downloaded without the API key, same pixels as the base64 answer', async () => {
    const viaUrl = await generateImage(deps(), { model: IMAGE_MODEL, prompt: 'A lighthouse', responseFormat: 'url' });
    const viaB64 = await generateImage(deps(), { model: IMAGE_MODEL, prompt: 'A lighthouse' });
    assert.equal(viaUrl.images[0].source, 'url');
    assert.ok(Buffer.from(viaUrl.images[0].bytes).equals(Buffer.from(viaB64.images[0].bytes)));
    const fetched = gw.events.list('request').filter((e) => String(e.path).startsWith('/local-media/'));
    assert.equal(fetched.length, 1);
    assert.equal(fetched[0].authorization, 'none');
  });

  test('a URL answer goes through the injected download seam with the image limit', async () => {
    const calls: Array<[string, number]> = [];
    const d = deps(LOCAL_KEYS.userFull, undefined, async (url, limit) => {
      calls.push([url, limit]);
      return { bytes: new Uint8Array(Buffer.from('<svg/>')), contentType: 'image/png' };
    });
    const e = await rejection(generateImage(d, { model: IMAGE_MODEL, prompt: 'x [[image:url]]' }));
    assert.equal(calls.length, 1);
    assert.match(calls[0][0], /\/local-media\/[0-9a-f]+\.png$/);
    assert.equal(calls[0][1], 20_000_000);
    // Claimed image/png, but the bytes are SVG: refused.
    assert.ok(isMediaError(e) && e.kind === 'bad_media');
  });
});

describe('speech', () => {
  test('mp3 and wav bytes come back sniffed, with the billed character count', async () => {
    const mp3 = await synthesizeSpeech(deps(), { model: SPEECH_MODEL, text: 'Hello there', voice: 'nova' });
    assert.equal(mp3.mediaType, 'audio/mpeg');
    assert.equal(mp3.characters, 11);
    assert.equal(mp3.billedCharacters, 11);
    const wav = await synthesizeSpeech(deps(), { model: SPEECH_MODEL, text: 'Héllo 😀', format: 'wav' });
    assert.equal(wav.mediaType, 'audio/wav');
    assert.equal(wav.characters, 7);
    assert.equal(wav.billedCharacters, 7);
    // 7 characters × 10 ms at 8 kHz, 16-bit: 1120 bytes of samples after the 44-byte header.
    assert.equal(wav.bytes.byteLength, 44 + 1120);
  });

  test('text over the limit is refused before anything is sent, naming the limit', async () => {
    const e = await rejection(synthesizeSpeech(deps(), { model: SPEECH_MODEL, text: 'a'.repeat(4097) }));
    assert.ok(isMediaError(e) && e.kind === 'too_long' && e.message.includes('4,096'));
    assert.equal(requests('/v1/audio/speech').length, 0);
  });

  test('a voice the model does not list is the gateway\'s 400, passed on', async () => {
    const e = gatewayError(await rejection(synthesizeSpeech(deps(), { model: SPEECH_MODEL, text: 'Hi', voice: 'robot' })));
    assert.equal(e.reason, 'invalid_request');
    assert.match(e.message, /voice 'robot'/);
  });
});

describe('transcription', () => {
  test('the file is uploaded as multipart from disk; the gateway receives exactly its bytes', async () => {
    const path = join(dir, 'interview.mp3');
    const bytes = Buffer.from(Array.from({ length: 300_000 }, (_, i) => (i * 7) % 251));
    writeFileSync(path, bytes);
    const info = await inspectAudioFile(path);
    assert.deepEqual(info, { size: 300_000, name: 'interview.mp3', mediaType: 'audio/mpeg' });
    const progress: number[] = [];
    const out = await transcribeAudioFile(deps(), { path, model: TRANSCRIBE_MODEL, language: 'de', expectedSize: info.size, onProgress: (sent, total) => progress.push(sent / total) });
    assert.match(out.text, /^Local transcript of "interview\.mp3" \(300000 bytes\): /);
    assert.equal(out.language, 'de');
    assert.equal(out.billedBytes, 300_000);
    assert.equal(out.bytes, 300_000);
    assert.ok(progress.length >= 2, 'progress is reported per chunk');
    assert.equal(progress.at(-1), 1);
    const ev = gw.events.list('media-request')[0];
    assert.equal(ev.sha256, createHash('sha256').update(bytes).digest('hex'));
    assert.equal(ev.fileType, 'audio/mpeg');
  });

  test('a file over 25 MB is refused before anything is sent, naming the limit', async () => {
    const path = join(dir, 'long.wav');
    writeFileSync(path, '');
    truncateSync(path, 25_000_001); // sparse: no real disk use
    const e = await rejection(inspectAudioFile(path));
    assert.ok(isMediaError(e) && e.kind === 'too_large' && e.message.includes('23.8 MiB (25,000,000 bytes)'));
    const e2 = await rejection(transcribeAudioFile(deps(), { path, model: TRANSCRIBE_MODEL }));
    assert.ok(isMediaError(e2) && e2.kind === 'too_large');
    assert.equal(requests('/v1/audio/transcriptions').length, 0);
  });

  test('a file whose size changed since the cost was shown is refused before sending', async () => {
    const path = join(dir, 'changed.ogg');
    writeFileSync(path, Buffer.alloc(1000, 1));
    const e = await rejection(transcribeAudioFile(deps(), { path, model: TRANSCRIBE_MODEL, expectedSize: 999 }));
    assert.ok(isMediaError(e) && e.kind === 'file_changed');
    assert.equal(requests('/v1/audio/transcriptions').length, 0);
  });

  test('a file that shrinks during the upload fails the request instead of sending other bytes', async () => {
    const path = join(dir, 'shrinks.webm');
    writeFileSync(path, Buffer.alloc(500_000, 5));
    const e = await rejection(
      transcribeAudioFile(deps(), {
        path,
        model: TRANSCRIBE_MODEL,
        onProgress: (sent) => {
          if (sent === 65_536) truncateSync(path, 100_000);
        },
      }),
    );
    assert.ok(isMediaError(e) && e.kind === 'file_changed', String(e));
    assert.equal(gw.events.list('media-request').length, 0);
  });

  test('only the audio extensions are accepted', async () => {
    const path = join(dir, 'notes.txt');
    writeFileSync(path, 'x');
    assert.ok(isMediaError(await rejection(inspectAudioFile(path))));
  });

  test('cancel mid-upload: aborted, no transcript on the gateway, the file handle closed', async () => {
    const path = join(dir, 'big.flac');
    writeFileSync(path, Buffer.alloc(8_000_000, 3));
    const controller = new AbortController();
    let calls = 0;
    const e = gatewayError(
      await rejection(
        transcribeAudioFile(deps(LOCAL_KEYS.userFull, controller.signal), {
          path,
          model: TRANSCRIBE_MODEL,
          onProgress: (sent) => {
            calls++;
            if (sent >= 1_000_000) controller.abort();
          },
        }),
      ),
    );
    assert.equal(e.reason, 'aborted');
    assert.ok(calls < 8_000_000 / 65_536, `stopped reading the file early (${calls} chunks)`);
    assert.equal(gw.events.list('media-request').length, 0);
    const open = readdirSync('/proc/self/fd').flatMap((fd) => {
      try {
        return [readlinkSync(join('/proc/self/fd', fd))];
      } catch {
        return [];
      }
    });
    assert.ok(!open.includes(path), 'no descriptor of the audio file is left open');
  });
});

describe('routes the gateway does not offer, and scopes', () => {
  test('404 and 405 become "this gateway does not offer X", keeping the reason and request id', async () => {
    setMediaEndpointMissing(gw, 'images', 404);
    const e1 = gatewayError(await rejection(generateImage(deps(), { model: IMAGE_MODEL, prompt: 'x' })));
    assert.equal(e1.reason, 'not_found');
    assert.equal(e1.message, 'This gateway does not offer image generation: POST /v1/images/generations answered HTTP 404.');
    assert.ok(e1.requestId);

    setMediaEndpointMissing(gw, 'speech', 405);
    const e2 = gatewayError(await rejection(synthesizeSpeech(deps(), { model: SPEECH_MODEL, text: 'x' })));
    assert.equal(e2.reason, 'method_not_allowed');
    assert.equal(e2.message, 'This gateway does not offer speech generation: POST /v1/audio/speech answered HTTP 405.');

    const path = join(dir, 'clip.wav');
    writeFileSync(path, Buffer.alloc(10, 1));
    const e3 = gatewayError(await rejection(transcribeAudioFile(deps(), { path, model: TRANSCRIBE_MODEL, prompt: '[[media:404]]' })));
    assert.equal(e3.reason, 'not_found');
    assert.match(e3.message, /does not offer audio transcription/);
  });

  test('[G-AUTH-7] a key without image, speech or transcribe write gets the 403 naming the scope and levels', async () => {
    const key = LOCAL_KEYS.userChatOnly;
    const e1 = gatewayError(await rejection(generateImage(deps(key), { model: IMAGE_MODEL, prompt: 'x' })));
    assert.deepEqual([e1.reason, e1.status, e1.permission], ['permission', 403, { scope: 'image', required: 'write', granted: 'none' }]);
    const e2 = gatewayError(await rejection(synthesizeSpeech(deps(key), { model: SPEECH_MODEL, text: 'x' })));
    assert.deepEqual(e2.permission, { scope: 'speech', required: 'write', granted: 'none' });
    const path = join(dir, 'scope.m4a');
    writeFileSync(path, Buffer.alloc(200_000, 2));
    const e3 = gatewayError(await rejection(transcribeAudioFile(deps(key), { path, model: TRANSCRIBE_MODEL })));
    assert.deepEqual(e3.permission, { scope: 'transcribe', required: 'write', granted: 'none' });
    const e4 = gatewayError(await rejection(synthesizeSpeech(deps(LOCAL_KEYS.userReadOnly), { model: SPEECH_MODEL, text: 'x' })));
    assert.deepEqual(e4.permission, { scope: 'speech', required: 'write', granted: 'read' });
    assert.equal(gw.events.list('media-request').length, 0);
  });

  test('the key never appears in the raw transport\'s log lines', async () => {
    const d = deps();
    await synthesizeSpeech(d, { model: SPEECH_MODEL, text: 'x' });
    assert.match(d.log.text, /POST \/v1\/audio\/speech 200 /);
    assert.ok(!d.log.text.includes(LOCAL_KEYS.userFull));
  });

  test('content policy and server faults arrive as typed errors', async () => {
    const e1 = gatewayError(await rejection(generateImage(deps(), { model: IMAGE_MODEL, prompt: '[[moderate]]' })));
    assert.equal(e1.reason, 'content_policy');
    const e2 = gatewayError(await rejection(synthesizeSpeech(deps(), { model: SPEECH_MODEL, text: '[[fault:503]]' })));
    assert.equal(e2.reason, 'unavailable');
    const e3 = gatewayError(await rejection(synthesizeSpeech(deps(), { model: SPEECH_MODEL, text: '[[fault:disconnect]]' })));
    assert.equal(e3.reason, 'network');
    // The raw transport never retries a billed request.
    assert.equal(requests('/v1/audio/speech').length, 2);
  });
});
