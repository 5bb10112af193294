/**
 * The assumed wire shapes of the media routes, the schema-derived options, the limits, the sniffers and
 * the multipart body (parsed back here by a small parser written independently of the client's builder).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  countSpeechCharacters,
  decodeBase64Image,
  fromImageResponse,
  fromTranscriptionResponse,
  MEDIA_LIMITS,
  mediaOptionsFromSchema,
  parseUsageCount,
  toImageRequest,
  toSpeechRequest,
  toTranscriptionFields,
} from '../../../src/core/media/mediaWire';
import { checkImageRequest, checkSpeechText, formFileName, isMediaError, multipartBody, sniffAudio, sniffImage } from '../../../src/core/media/mediaClient';
import { isGatewayError } from '../../../src/core/http/errors';
import { buildCatalog, modelSchema } from '../../localGateway/catalog';

describe('request mappers', () => {
  test('image request: n only when not 1, b64_json asked for by default', () => {
    assert.deepEqual(toImageRequest({ model: 'm/i', prompt: 'A fox' }), { model: 'm/i', prompt: 'A fox', response_format: 'b64_json' });
    assert.deepEqual(toImageRequest({ model: 'm/i', prompt: 'A fox', count: 3, size: '1024x1536', responseFormat: 'url' }), {
      model: 'm/i',
      prompt: 'A fox',
      n: 3,
      size: '1024x1536',
      response_format: 'url',
    });
  });

  test('speech request: input, optional voice, mp3 by default', () => {
    assert.deepEqual(toSpeechRequest({ model: 'm/s', text: 'Hello' }), { model: 'm/s', input: 'Hello', response_format: 'mp3' });
    assert.deepEqual(toSpeechRequest({ model: 'm/s', text: 'Hello', voice: 'nova', format: 'wav' }), { model: 'm/s', input: 'Hello', voice: 'nova', response_format: 'wav' });
  });

  test('transcription fields: model and json first, hints only when set', () => {
    assert.deepEqual(toTranscriptionFields({ model: 'm/t' }), [
      ['model', 'm/t'],
      ['response_format', 'json'],
    ]);
    assert.deepEqual(toTranscriptionFields({ model: 'm/t', language: 'de', prompt: 'Names: Ada' }), [
      ['model', 'm/t'],
      ['response_format', 'json'],
      ['language', 'de'],
      ['prompt', 'Names: Ada'],
    ]);
  });
});

describe('response mappers', () => {
  test('image answers: base64 and URL entries, revised prompt, billed images', () => {
    const r = fromImageResponse({ data: [{ b64_json: 'iVBO', revised_prompt: 'A red fox' }, { url: 'https://cdn.test/a.png' }], usage: { images: 2 } }, 2);
    assert.deepEqual(r, {
      items: [
        { kind: 'base64', base64: 'iVBO', revisedPrompt: 'A red fox' },
        { kind: 'url', url: 'https://cdn.test/a.png' },
      ],
      billedImages: 2,
    });
    assert.equal(fromImageResponse({ data: [{ url: 'https://x.test/1.png' }], usage: { images: 'two' } }, 1).billedImages, undefined);
  });

  test('image answers that are not the assumed shape are protocol errors with the request id', () => {
    const bad: unknown[] = [{}, { data: [] }, { data: [{}] }, { data: ['x'] }, { data: [{ url: 'a' }, { url: 'b' }] }, { data: [{ b64_json: 'A'.repeat(Math.ceil(MEDIA_LIMITS.maxImageBytes / 3) * 4 + 8) }] }];
    for (const body of bad) {
      assert.throws(
        () => fromImageResponse(body, 1, 'rid-1'),
        (e: unknown) => isGatewayError(e) && e.reason === 'protocol' && e.requestId === 'rid-1',
      );
    }
  });

  test('base64 is decoded strictly', () => {
    assert.deepEqual(Array.from(decodeBase64Image('AQID')), [1, 2, 3]);
    assert.deepEqual(Array.from(decodeBase64Image('AQ\nID')), [1, 2, 3]);
    assert.throws(() => decodeBase64Image('not*base64'), (e: unknown) => isGatewayError(e) && e.reason === 'protocol');
  });

  test('transcription answers: text required; language, duration and billed bytes read when well-formed', () => {
    assert.deepEqual(fromTranscriptionResponse({ text: 'Hello', language: 'en', duration: 1.5, usage: { audio_bytes: 1234 } }), {
      text: 'Hello',
      language: 'en',
      durationSeconds: 1.5,
      billedBytes: 1234,
    });
    assert.deepEqual(fromTranscriptionResponse({ text: '', duration: -1, usage: { audio_bytes: 1.5 } }), { text: '' });
    assert.throws(() => fromTranscriptionResponse({ transcript: 'x' }, 'r'), (e: unknown) => isGatewayError(e) && e.reason === 'protocol' && e.requestId === 'r');
  });

  test('usage header values are plain integers or ignored', () => {
    assert.equal(parseUsageCount('42'), 42);
    assert.equal(parseUsageCount(' 7 '), 7);
    assert.equal(parseUsageCount('4e3'), undefined);
    assert.equal(parseUsageCount(undefined), undefined);
  });
});

describe('options from the model schema route', () => {
  test('sizes, the image cap, voices and formats are read when listed', () => {
    const o = mediaOptionsFromSchema({
      properties: {
        size: { enum: ['1024x1024', '1536x1024', 'auto', '<script>', 12], default: '1536x1024' },
        n: { maximum: 4 },
        voice: { enum: ['alloy', 'nova', 'bad"quote'], default: 'nova' },
        response_format: { enum: ['mp3', 'wav'] },
      },
    });
    assert.deepEqual(o, { sizes: ['1024x1024', '1536x1024', 'auto'], defaultSize: '1536x1024', maxImages: 4, voices: ['alloy', 'nova'], defaultVoice: 'nova', formats: ['mp3', 'wav'] });
  });

  test('nothing listed, or not a schema, gives no options (the UI then offers none)', () => {
    assert.deepEqual(mediaOptionsFromSchema({ properties: { voice: { type: 'string' } } }), {});
    assert.deepEqual(mediaOptionsFromSchema('nope'), {});
    assert.deepEqual(mediaOptionsFromSchema({ properties: { size: { enum: Array.from({ length: 1000 }, (_, i) => `${i}x${i}`) } } }).sizes?.length, 64);
  });

  test('the local gateway schema lists sizes for image models and voices for one speech model only', () => {
    const models = buildCatalog(new Date('2026-01-01T00:00:00Z'), { repriced: false, pricingVersion: 'v' });
    const ctx = { options: { pricingVersion: 'v' } } as Parameters<typeof modelSchema>[1];
    const of = (id: string) => mediaOptionsFromSchema(modelSchema(models.find((m) => m.id === id)!, ctx));
    assert.deepEqual(of('openai/gpt-image-1'), { sizes: ['1024x1024', '1024x1536', '1536x1024'], defaultSize: '1024x1024', maxImages: 4, formats: ['b64_json', 'url'] });
    assert.deepEqual(of('openai/tts-1-hd'), { voices: ['alloy', 'echo', 'fable', 'onyx', 'nova', 'shimmer'], defaultVoice: 'alloy', formats: ['mp3', 'wav'] });
    assert.deepEqual(of('minimax/speech-02-hd'), { formats: ['mp3', 'wav'] });
  });
});

describe('limits, refused before sending', () => {
  test('speech characters are code points: an emoji counts once', () => {
    assert.equal(countSpeechCharacters('abc'), 3);
    assert.equal(countSpeechCharacters('a😀b'), 3);
    assert.equal('a😀b'.length, 4);
  });

  test('speech text at the limit passes, one character over is refused naming the limit', () => {
    assert.equal(MEDIA_LIMITS.maxSpeechCharacters, 4096);
    assert.equal(checkSpeechText('x'.repeat(4096)), 4096);
    assert.throws(
      () => checkSpeechText('x'.repeat(4095) + '😀😀'),
      (e: unknown) => isMediaError(e) && e.kind === 'too_long' && e.message.includes('4,097 characters') && e.message.includes('limited to 4,096 characters'),
    );
    assert.throws(() => checkSpeechText('  \n '), (e: unknown) => isMediaError(e) && e.kind === 'empty_input');
  });

  test('image count is 1..min(schema maximum, 10); an empty prompt is refused', () => {
    assert.doesNotThrow(() => checkImageRequest({ model: 'm', prompt: 'p', count: 4 }, { maxImages: 4 }));
    assert.throws(() => checkImageRequest({ model: 'm', prompt: 'p', count: 5 }, { maxImages: 4 }), (e: unknown) => isMediaError(e) && e.kind === 'bad_count' && /1 to 4/.test(e.message));
    assert.throws(() => checkImageRequest({ model: 'm', prompt: 'p', count: 11 }), (e: unknown) => isMediaError(e) && /1 to 10/.test(e.message));
    assert.throws(() => checkImageRequest({ model: 'm', prompt: 'p', count: 0 }), (e: unknown) => isMediaError(e) && e.kind === 'bad_count');
    assert.throws(() => checkImageRequest({ model: 'm', prompt: ' ' }), (e: unknown) => isMediaError(e) && e.kind === 'empty_input');
  });

  test('the transcription limit is 25,000,000 bytes (OpenAI\'s 25 MB)', () => {
    assert.equal(MEDIA_LIMITS.maxTranscriptionBytes, 25_000_000);
  });
});

describe('sniffing the server\'s bytes', () => {
  test('images: PNG, JPEG, WebP, GIF; SVG and HTML are not images here', () => {
    assert.equal(sniffImage(Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0])), 'image/png');
    assert.equal(sniffImage(Uint8Array.from([0xff, 0xd8, 0xff, 0xe0])), 'image/jpeg');
    assert.equal(sniffImage(new Uint8Array(Buffer.from('RIFF\0\0\0\0WEBPVP8 '))), 'image/webp');
    assert.equal(sniffImage(new Uint8Array(Buffer.from('GIF89a...'))), 'image/gif');
    assert.equal(sniffImage(new Uint8Array(Buffer.from('<svg onload="alert(1)">'))), undefined);
    assert.equal(sniffImage(new Uint8Array(Buffer.from('<html>'))), undefined);
  });

  test('audio: WAV, MP3 (ID3 and frame sync), Ogg, FLAC, AAC, M4A, WebM', () => {
    assert.equal(sniffAudio(new Uint8Array(Buffer.from('RIFF\0\0\0\0WAVEfmt '))), 'audio/wav');
    assert.equal(sniffAudio(new Uint8Array(Buffer.from('ID3\x04'))), 'audio/mpeg');
    assert.equal(sniffAudio(Uint8Array.from([0xff, 0xfb, 0x90, 0xc0])), 'audio/mpeg');
    assert.equal(sniffAudio(Uint8Array.from([0xff, 0xf1, 0x50, 0x80])), 'audio/aac');
    assert.equal(sniffAudio(new Uint8Array(Buffer.from('OggS'))), 'audio/ogg');
    assert.equal(sniffAudio(new Uint8Array(Buffer.from('fLaC'))), 'audio/flac');
    assert.equal(sniffAudio(new Uint8Array(Buffer.from('\0\0\0\x20ftypM4A '))), 'audio/mp4');
    assert.equal(sniffAudio(Uint8Array.from([0x1a, 0x45, 0xdf, 0xa3])), 'audio/webm');
    assert.equal(sniffAudio(new Uint8Array(Buffer.from('{"error":1}'))), undefined);
  });
});

/** An independent RFC 7578 reader for the test: split on the delimiter line, then headers / body. */
function parseForm(body: Buffer, boundary: string): Array<{ headers: string[]; data: Buffer }> {
  const text = body.toString('latin1');
  const delimiter = `--${boundary}`;
  assert.ok(text.startsWith(`${delimiter}\r\n`), 'starts with the first delimiter');
  assert.ok(text.endsWith(`\r\n${delimiter}--\r\n`), 'ends with the close delimiter');
  const inner = text.slice(delimiter.length + 2, text.length - (delimiter.length + 6));
  return inner.split(`\r\n${delimiter}\r\n`).map((part) => {
    const sep = part.indexOf('\r\n\r\n');
    return { headers: part.slice(0, sep).split('\r\n'), data: Buffer.from(part.slice(sep + 4), 'latin1') };
  });
}

async function collect(it: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of it) chunks.push(Buffer.from(c));
  return Buffer.concat(chunks);
}

describe('multipart body', () => {
  test('fields first, file last, exact declared length, bytes unchanged', async () => {
    const file = Buffer.from(Array.from({ length: 300 }, (_, i) => i % 256));
    let opened = 0;
    const body = multipartBody(
      [
        ['model', 'openai/whisper-1'],
        ['response_format', 'json'],
        ['prompt', 'Line one\r\nLine "two"'],
      ],
      {
        name: 'talk.mp3',
        mediaType: 'audio/mpeg',
        size: file.length,
        chunks: async function* () {
          opened++;
          yield file.subarray(0, 100);
          yield file.subarray(100);
        },
      },
      'BOUNDARY123',
    );
    assert.equal(opened, 0, 'the file is not read before the body is');
    assert.equal(body.contentType, 'multipart/form-data; boundary=BOUNDARY123');
    const bytes = await collect(body.open());
    assert.equal(opened, 1);
    assert.equal(bytes.length, body.length);
    const parts = parseForm(bytes, 'BOUNDARY123');
    assert.equal(parts.length, 4);
    assert.deepEqual(parts[0].headers, ['Content-Disposition: form-data; name="model"']);
    assert.equal(parts[0].data.toString(), 'openai/whisper-1');
    assert.equal(parts[1].data.toString(), 'json');
    assert.equal(parts[2].data.toString(), 'Line one\r\nLine "two"');
    assert.deepEqual(parts[3].headers, ['Content-Disposition: form-data; name="file"; filename="talk.mp3"', 'Content-Type: audio/mpeg']);
    assert.ok(parts[3].data.equals(file));
  });

  test('a random boundary per body; a hostile file name cannot break the header', async () => {
    const mk = (name: string) => multipartBody([], { name, mediaType: 'audio/wav', size: 0, chunks: async function* () {} });
    assert.notEqual(mk('a.wav').boundary, mk('a.wav').boundary);
    assert.match(mk('a.wav').boundary, /^----ai-gateway-[0-9a-f]{32}$/);
    const evil = mk('x"\r\nContent-Type: text/html\r\n\r\n.wav');
    const text = (await collect(evil.open())).toString();
    assert.equal(text.split('\r\n').filter((l) => l.startsWith('Content-Type')).length, 1);
    assert.equal(formFileName('/tmp/dir/Ünïcode "name".m4a'), '_n_code _name_.m4a');
    assert.equal(formFileName('/tmp/..'), 'audio');
  });
});
