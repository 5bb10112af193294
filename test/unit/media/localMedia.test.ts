/**
 * The local gateway's media routes on their own (raw HTTP, no client code): valid PNG / WAV / MP3
 * outputs, determinism, the multipart parser, scope checks and the size limit.
 */
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { inflateSync } from 'node:zlib';
import { startGateway, type RunningGateway } from '../../localGateway/server';
import { LOCAL_KEYS } from '../../localGateway/keys';
import { crc32, localImagePng, localSpeechMp3, localSpeechWav, localTranscript, parseMultipart } from '../../localGateway/media';

let gw: RunningGateway;
before(async () => {
  gw = await startGateway();
});
beforeEach(() => gw.reset());
after(() => gw.close());

function post(path: string, body: string | Buffer, headers: Record<string, string>, key = LOCAL_KEYS.userFull): Promise<Response> {
  return fetch(`${gw.url}${path}`, { method: 'POST', body, headers: { authorization: `Bearer ${key}`, ...headers } });
}

/** Reads PNG chunks, checking each CRC; returns IHDR fields and the inflated scanlines. */
function readPng(png: Buffer): { width: number; height: number; raw: Buffer } {
  assert.ok(png.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])));
  let at = 8;
  let width = 0;
  let height = 0;
  const idat: Buffer[] = [];
  const types: string[] = [];
  while (at < png.length) {
    const len = png.readUInt32BE(at);
    const type = png.subarray(at + 4, at + 8).toString('ascii');
    const data = png.subarray(at + 8, at + 8 + len);
    assert.equal(png.readUInt32BE(at + 8 + len), crc32(png.subarray(at + 4, at + 8 + len)), `CRC of ${type}`);
    types.push(type);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      assert.deepEqual([data[8], data[9], data[10], data[11], data[12]], [8, 2, 0, 0, 0]);
    }
    if (type === 'IDAT') idat.push(data);
    at += 12 + len;
  }
  assert.deepEqual(types, ['IHDR', 'IDAT', 'IEND']);
  return { width, height, raw: inflateSync(Buffer.concat(idat)) };
}

describe('generated media', () => {
  test('crc32 matches the standard check value', () => {
    // The CRC-32 of "123456789" is 0xCBF43926 (the published check value of the algorithm).
    assert.equal(crc32(Buffer.from('123456789')), 0xcbf43926);
  });

  test('the PNG is valid, its size is the requested size / 16, and its pixels depend on the prompt', () => {
    const a = readPng(localImagePng('a red fox', 0, '1536x1024'));
    assert.deepEqual([a.width, a.height], [96, 64]);
    assert.equal(a.raw.length, (96 * 3 + 1) * 64);
    const again = readPng(localImagePng('a red fox', 0, '1536x1024'));
    assert.ok(a.raw.equals(again.raw), 'deterministic');
    assert.ok(!a.raw.equals(readPng(localImagePng('a blue fox', 0, '1536x1024')).raw), 'prompt changes pixels');
    assert.ok(!a.raw.equals(readPng(localImagePng('a red fox', 1, '1536x1024')).raw), 'index changes pixels');
  });

  test('the WAV header describes its data: 8 kHz mono 16-bit, 10 ms per character', () => {
    const wav = localSpeechWav('Hi there');
    assert.equal(wav.subarray(0, 4).toString(), 'RIFF');
    assert.equal(wav.readUInt32LE(4), wav.length - 8);
    assert.equal(wav.subarray(8, 16).toString(), 'WAVEfmt ');
    assert.deepEqual([wav.readUInt16LE(20), wav.readUInt16LE(22), wav.readUInt32LE(24), wav.readUInt16LE(34)], [1, 1, 8000, 16]);
    assert.equal(wav.readUInt32LE(40), 8 * 80 * 2);
    assert.equal(wav.length, 44 + 8 * 80 * 2);
  });

  test('the MP3 is whole frames of MPEG-1 Layer III', () => {
    const mp3 = localSpeechMp3('x'.repeat(100)); // 1 s -> ceil(44100 / 1152) = 39 frames
    assert.equal(mp3.length, 39 * 417);
    for (let f = 0; f < 39; f++) assert.deepEqual([...mp3.subarray(f * 417, f * 417 + 4)], [0xff, 0xfb, 0x90, 0xc0]);
  });

  test('the transcript depends on the bytes only (and names the file)', () => {
    const t1 = localTranscript('a.wav', Buffer.from('one'));
    assert.equal(t1, localTranscript('a.wav', Buffer.from('one')));
    assert.notEqual(t1, localTranscript('a.wav', Buffer.from('two')));
    assert.match(t1, /^Local transcript of "a\.wav" \(3 bytes\): (\w+ ){7}\w+\.$/);
  });

  test('the gateway\'s multipart parser reads fields and a file with CRLF inside', () => {
    const body = Buffer.from('--B\r\nContent-Disposition: form-data; name="model"\r\n\r\nm/t\r\n--B\r\nContent-Disposition: form-data; name="file"; filename="x.wav"\r\nContent-Type: audio/wav\r\n\r\nab\r\ncd\r\n--B--\r\n');
    const parts = parseMultipart(body, 'B');
    assert.deepEqual(
      parts.map((p) => [p.name, p.filename, p.contentType, p.data.toString()]),
      [
        ['model', undefined, undefined, 'm/t'],
        ['file', 'x.wav', 'audio/wav', 'ab\r\ncd'],
      ],
    );
  });
});

describe('routes', () => {
  test('[G-AUTH-7] each media route checks its own scope at write', async () => {
    const cases: Array<[string, string, string]> = [
      ['/v1/images/generations', JSON.stringify({ model: 'openai/gpt-image-1', prompt: 'x' }), 'image'],
      ['/v1/audio/speech', JSON.stringify({ model: 'openai/tts-1-hd', input: 'x' }), 'speech'],
      ['/v1/audio/transcriptions', '--B\r\nContent-Disposition: form-data; name="model"\r\n\r\nopenai/whisper-1\r\n--B--\r\n', 'transcribe'],
    ];
    for (const [path, body, scope] of cases) {
      const type = path.endsWith('transcriptions') ? 'multipart/form-data; boundary=B' : 'application/json';
      const res = await post(path, body, { 'content-type': type }, LOCAL_KEYS.userReadOnly);
      assert.equal(res.status, 403, path);
      const json = (await res.json()) as { error: { type: string; message: string } };
      assert.equal(json.error.type, 'permission_error');
      assert.equal(json.error.message, `insufficient permission: scope '${scope}' requires write, key has read`);
    }
  });

  test('a declared upload over 25,000,000 bytes plus form overhead is 413 before the body is read', async () => {
    const url = new URL(`${gw.url}/v1/audio/transcriptions`);
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { authorization: `Bearer ${LOCAL_KEYS.userFull}`, 'content-type': 'multipart/form-data; boundary=B', 'content-length': String(25_000_000 + 70_000) } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
          req.destroy();
        },
      );
      req.on('error', (e) => (e.message.includes('socket hang up') ? undefined : reject(e)));
      // Only 10 of the declared bytes are ever sent: the answer cannot depend on reading the body.
      req.write(Buffer.alloc(10));
    });
    assert.equal(status, 413);
    assert.equal(gw.events.list('media-request').length, 0);
  });

  test('a size the model schema does not list is 400', async () => {
    const res = await post('/v1/images/generations', JSON.stringify({ model: 'openai/gpt-image-1', prompt: 'x', size: '512x512' }), { 'content-type': 'application/json' });
    assert.equal(res.status, 400);
    assert.match(((await res.json()) as { error: { message: string } }).error.message, /size '512x512' is not offered/);
  });
});
