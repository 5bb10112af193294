/**
 * The media endpoints of the local gateway, in the OpenAI-compatible shapes the client assumes
 * (src/core/media/mediaWire.ts; written out again here, since the gateway must not import src/):
 *   POST /v1/images/generations    image, write       {model, prompt, n?, size?, response_format?}
 *                                                      -> {created, data:[{b64_json}|{url}], usage:{images}}
 *   POST /v1/audio/speech          speech, write      {model, input, voice?, response_format?: mp3|wav}
 *                                                      -> audio bytes; header X-Usage-Characters
 *   POST /v1/audio/transcriptions  transcribe, write  multipart: file, model, response_format?, language?, prompt?
 *                                                      -> {text, language, duration, usage:{audio_bytes}}
 *   GET  /local-media/{name}       none               an image answered by URL (like a signed CDN link)
 *
 * Outputs are deterministic: a small PNG (the requested size divided by 16, to stay cheap) whose
 * 8x8 grid of colours comes from a hash of the prompt and the image's index; a WAV (8 kHz, 16-bit mono
 * square tones, 10 ms per character) or MP3 (silent MPEG-1 Layer III frames, same duration); a
 * transcript made of words picked by a hash of the file's bytes.
 *
 * Decisions (spec gaps): unknown or removed model, a model without the capability, a size or voice the
 * model's schema does not list, speech input over 4096 characters: 400 invalid_request_error. An audio
 * file over 25,000,000 bytes: 413. Speech formats other than mp3 and wav: 400 (the schema lists two).
 *
 * Markers (in the prompt, the speech input, or the transcription's `prompt` field or file name):
 * [[media:404]] / [[media:405]] -> the route answers as if missing (after authentication);
 * [[moderate]] -> 403 content_policy_violation; [[fault:429]] -> HTML 429; [[fault:503]] -> 503 with
 * Retry-After: 1; [[fault:disconnect]] -> the socket is destroyed before any byte; [[fault:stall]] ->
 * nothing is answered until the client leaves (or options.stallMs); [[image:url]] -> images by URL
 * whatever response_format says. Armed `disconnect` / `stall` faults (ctx.faults) apply too.
 * In process: setMediaEndpointMissing(gateway, 'speech', 405) answers before authentication.
 */
import { createHash, randomBytes } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { isRemoved, modelSchema, SPEECH_VOICES } from './catalog';
import { GatewayHttpError, type GatewayContext, type GatewayOptions, type Handler, type Req, type Res, type RouteModule, type Scope } from './context';
import { sendThrottled } from './throttle';

export const MEDIA_ROUTES = {
  images: '/v1/images/generations',
  speech: '/v1/audio/speech',
  transcriptions: '/v1/audio/transcriptions',
} as const;
export type MediaRoute = keyof typeof MEDIA_ROUTES;

export const LOCAL_MAX_SPEECH_CHARACTERS = 4096;
export const LOCAL_MAX_AUDIO_BYTES = 25_000_000;
const MULTIPART_OVERHEAD = 64 * 1024;

const missing = new WeakMap<object, Map<MediaRoute, 404 | 405>>();
const stored = new WeakMap<object, Map<string, Buffer>>();
const MAX_STORED = 32;

/** Makes a media route answer 404 or 405 on that gateway until set back to undefined. */
export function setMediaEndpointMissing(gateway: { options: Required<GatewayOptions> }, route: MediaRoute, status: 404 | 405 | undefined): void {
  const map = missing.get(gateway.options) ?? new Map<MediaRoute, 404 | 405>();
  if (status === undefined) map.delete(route);
  else map.set(route, status);
  missing.set(gateway.options, map);
}

function invalid(message: string): GatewayHttpError {
  return new GatewayHttpError(400, 'invalid_request_error', message);
}

// ---------------------------------------------------------------------------------------------------
// PNG

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

export function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** An 8-bit RGB PNG, width x height, pixel (x, y) coloured by rgb(x, y). */
export function encodePng(width: number, height: number, rgb: (x: number, y: number) => [number, number, number]): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: truecolour
  // compression 0, filter 0, interlace 0
  const stride = width * 3 + 1;
  const raw = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    raw[y * stride] = 0; // filter: none
    for (let x = 0; x < width; x++) {
      const [r, g, b] = rgb(x, y);
      const at = y * stride + 1 + x * 3;
      raw[at] = r;
      raw[at + 1] = g;
      raw[at + 2] = b;
    }
  }
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), pngChunk('IHDR', ihdr), pngChunk('IDAT', deflateSync(raw)), pngChunk('IEND', Buffer.alloc(0))]);
}

/** The local image for a prompt: 8x8 cells whose colours are a hash of the prompt and the index. */
export function localImagePng(prompt: string, index: number, size: string): Buffer {
  const m = /^(\d{1,5})x(\d{1,5})$/.exec(size);
  const width = Math.max(1, Math.round(Number(m?.[1] ?? 1024) / 16));
  const height = Math.max(1, Math.round(Number(m?.[2] ?? 1024) / 16));
  const palette = Buffer.concat(Array.from({ length: 6 }, (_, k) => createHash('sha256').update(`${index}:${k}:${prompt}`).digest()));
  return encodePng(width, height, (x, y) => {
    const cell = Math.floor((y * 8) / height) * 8 + Math.floor((x * 8) / width);
    return [palette[cell * 3], palette[cell * 3 + 1], palette[cell * 3 + 2]];
  });
}

// ---------------------------------------------------------------------------------------------------
// Audio

const SAMPLE_RATE = 8000;
const MS_PER_CHARACTER = 10;

/** 16-bit mono PCM WAV: one square tone per character, pitch from the character's code point. */
export function localSpeechWav(text: string): Buffer {
  const chars = Array.from(text);
  const perChar = (SAMPLE_RATE * MS_PER_CHARACTER) / 1000;
  const data = Buffer.alloc(chars.length * perChar * 2);
  chars.forEach((ch, i) => {
    const period = Math.max(2, Math.round(SAMPLE_RATE / (200 + ((ch.codePointAt(0) ?? 0) % 600))));
    for (let s = 0; s < perChar; s++) data.writeInt16LE(/\s/.test(ch) ? 0 : s % period < period / 2 ? 6000 : -6000, (i * perChar + s) * 2);
  });
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(SAMPLE_RATE, 24);
  header.writeUInt32LE(SAMPLE_RATE * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

/**
 * Silent MPEG-1 Layer III, mono, 128 kbit/s, 44.1 kHz: frames of 417 bytes (header FF FB 90 C0, then
 * zero side information and zero main data, which decoders play as silence), 1152 samples each.
 */
export function localSpeechMp3(text: string): Buffer {
  const ms = Array.from(text).length * MS_PER_CHARACTER;
  const frames = Math.max(1, Math.ceil((ms * 44100) / 1000 / 1152));
  const frame = Buffer.alloc(417);
  frame.set([0xff, 0xfb, 0x90, 0xc0]);
  return Buffer.concat(Array.from({ length: frames }, () => frame));
}

const WORDS = ['river', 'lantern', 'orchard', 'signal', 'meadow', 'copper', 'harbour', 'violet', 'engine', 'quiet', 'summit', 'paper', 'ember', 'willow', 'canvas', 'thunder'];

export function localTranscript(fileName: string, bytes: Buffer): string {
  const digest = createHash('sha256').update(bytes).digest();
  const words = Array.from({ length: 8 }, (_, i) => WORDS[digest[i] % WORDS.length]);
  return `Local transcript of "${fileName}" (${bytes.length} bytes): ${words.join(' ')}.`;
}

// ---------------------------------------------------------------------------------------------------
// multipart/form-data (RFC 7578), parsed from a buffer with indexOf only: linear in the body size.

export interface FormPart {
  name: string;
  filename?: string;
  contentType?: string;
  data: Buffer;
}

export function parseMultipart(body: Buffer, boundary: string): FormPart[] {
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: FormPart[] = [];
  let at = body.indexOf(delimiter);
  if (at === -1) throw invalid('multipart body has no boundary line');
  for (;;) {
    at += delimiter.length;
    if (body.subarray(at, at + 2).toString('latin1') === '--') return parts;
    if (body.subarray(at, at + 2).toString('latin1') !== '\r\n') throw invalid('malformed multipart boundary line');
    at += 2;
    const headEnd = body.indexOf('\r\n\r\n', at);
    if (headEnd === -1) throw invalid('multipart part without a header end');
    const headers = body.subarray(at, headEnd).toString('utf8').split('\r\n');
    const next = body.indexOf(Buffer.concat([Buffer.from('\r\n'), delimiter]), headEnd + 4);
    if (next === -1) throw invalid('multipart body is not terminated');
    const disposition = headers.find((h) => /^content-disposition:/i.test(h)) ?? '';
    const name = /;\s*name="([^"]*)"/i.exec(disposition)?.[1];
    if (name === undefined) throw invalid('multipart part without a name');
    const filename = /;\s*filename="([^"]*)"/i.exec(disposition)?.[1];
    const contentType = headers.find((h) => /^content-type:/i.test(h))?.replace(/^content-type:\s*/i, '');
    parts.push({ name, ...(filename !== undefined ? { filename } : {}), ...(contentType !== undefined ? { contentType } : {}), data: body.subarray(headEnd + 4, next) });
    at = next + 2;
  }
}

async function readBodyUpTo(req: Req, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new GatewayHttpError(413, 'invalid_request_error', `request body exceeds ${limit} bytes`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

// ---------------------------------------------------------------------------------------------------
// Handlers

interface Model {
  id: string;
  capabilities?: string[];
  removal_date?: string;
}

function pickModel(ctx: GatewayContext, id: unknown, capability: string): Model {
  if (typeof id !== 'string' || id === '') throw invalid("missing required field 'model'");
  const model = ctx.models().find((m) => m.id === id);
  if (!model) throw invalid(`unknown model '${id}'`);
  if (isRemoved(model, ctx.options.now())) throw invalid(`model '${id}' was removed on ${model.removal_date}`);
  if (!model.capabilities?.includes(capability)) throw invalid(`model '${id}' does not offer ${capability}`);
  return model;
}

function schemaEnum(ctx: GatewayContext, model: Model, field: string): unknown[] | undefined {
  const schema = modelSchema(ctx.models().find((m) => m.id === model.id)!, ctx) as { properties?: Record<string, { enum?: unknown[] }> };
  return schema.properties?.[field]?.enum;
}

function sendMissing(req: Req, res: Res, ctx: GatewayContext, status: 404 | 405, path: string): void {
  req.resume();
  if (status === 405) ctx.sendError(res, 405, 'invalid_request_error', `method ${req.method ?? 'POST'} is not allowed on ${path}`, { Allow: 'GET' });
  else ctx.sendError(res, 404, 'not_found_error', `no route for ${req.method ?? 'POST'} ${path}`);
}

/** Applies the markers and armed faults; true when the request has been answered (or cut). */
async function applyMarkers(marker: string, req: Req, res: Res, ctx: GatewayContext, path: string): Promise<boolean> {
  const requestId = ctx.requestId(res);
  const status = /\[\[media:(404|405)\]\]/.exec(marker)?.[1];
  if (status !== undefined) {
    sendMissing(req, res, ctx, Number(status) as 404 | 405, path);
    return true;
  }
  if (marker.includes('[[fault:429]]')) {
    ctx.events.push({ type: 'fault', kind: 'throttled', path, requestId, marker: true });
    sendThrottled(res);
    return true;
  }
  if (marker.includes('[[fault:503]]')) {
    ctx.events.push({ type: 'fault', kind: 'unavailable', path, requestId, marker: true });
    ctx.sendError(res, 503, 'service_unavailable', 'a required dependency is temporarily unavailable; retry shortly', { 'Retry-After': '1' });
    return true;
  }
  if (ctx.options.moderation && marker.includes('[[moderate]]')) {
    ctx.sendError(res, 403, 'content_policy_violation', 'the request was blocked by the content policy');
    return true;
  }
  const armed = ctx.faults.take(req, ['disconnect', 'stall']);
  const kind = marker.includes('[[fault:disconnect]]') ? 'disconnect' : marker.includes('[[fault:stall]]') ? 'stall' : armed?.kind;
  if (kind === 'disconnect') {
    ctx.events.push({ type: 'fault', kind, path, requestId });
    res.socket?.destroy();
    return true;
  }
  if (kind === 'stall') {
    ctx.events.push({ type: 'fault', kind, path, requestId });
    const closed = new Promise<void>((resolve) => res.once('close', () => resolve()));
    const stallMs = ctx.options.stallMs;
    await Promise.race([closed, stallMs > 0 ? ctx.sleep(stallMs) : new Promise<void>((r) => ctx.closing.addEventListener('abort', () => r(), { once: true }))]);
    if (!res.writableEnded) res.socket?.destroy();
    return true;
  }
  return false;
}

function guarded(route: MediaRoute, scope: Scope, work: Handler): Handler {
  return async (req, res, ctx, params) => {
    const forced = missing.get(ctx.options)?.get(route);
    if (forced !== undefined) {
      sendMissing(req, res, ctx, forced, MEDIA_ROUTES[route]);
      return;
    }
    if (ctx.authorize(req, res, scope, 'write') === undefined) {
      req.resume();
      return;
    }
    await work(req, res, ctx, params);
  };
}

function record(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalid('request body must be a JSON object');
  return body as Record<string, unknown>;
}

const images: Handler = async (req, res, ctx) => {
  const path = MEDIA_ROUTES.images;
  const b = record(await ctx.readJson(req));
  const model = pickModel(ctx, b.model, 'image_generation');
  if (typeof b.prompt !== 'string' || b.prompt.trim() === '') throw invalid("missing required field 'prompt' (a non-empty string)");
  const n = b.n ?? 1;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > 4) throw invalid("'n' must be an integer from 1 to 4");
  const sizes = schemaEnum(ctx, model, 'size') ?? [];
  const size = b.size ?? '1024x1024';
  if (typeof size !== 'string' || !sizes.includes(size)) throw invalid(`size '${String(size)}' is not offered by '${model.id}' (one of ${sizes.join(', ')})`);
  const format = b.response_format ?? 'b64_json';
  if (format !== 'b64_json' && format !== 'url') throw invalid("'response_format' must be b64_json or url");
  if (await applyMarkers(b.prompt, req, res, ctx, path)) return;

  const byUrl = format === 'url' || b.prompt.includes('[[image:url]]');
  const files = stored.get(ctx.options) ?? new Map<string, Buffer>();
  stored.set(ctx.options, files);
  const data = Array.from({ length: n }, (_, i) => {
    const png = localImagePng(b.prompt as string, i, size);
    if (!byUrl) return { b64_json: png.toString('base64') };
    const name = `${randomBytes(12).toString('hex')}.png`;
    files.set(name, png);
    while (files.size > MAX_STORED) files.delete(files.keys().next().value as string);
    return { url: `http://${req.headers.host ?? '127.0.0.1'}/local-media/${name}` };
  });
  ctx.events.push({ type: 'media-request', endpoint: 'images', model: model.id, requestId: ctx.requestId(res), images: n, byUrl });
  ctx.sendJson(res, 200, { created: Math.floor(ctx.options.now().getTime() / 1000), data, usage: { images: n } });
};

const speech: Handler = async (req, res, ctx) => {
  const path = MEDIA_ROUTES.speech;
  const b = record(await ctx.readJson(req));
  const model = pickModel(ctx, b.model, 'speech_generation');
  if (typeof b.input !== 'string' || b.input.trim() === '') throw invalid("missing required field 'input' (a non-empty string)");
  const characters = Array.from(b.input).length;
  if (characters > LOCAL_MAX_SPEECH_CHARACTERS) throw invalid(`input of ${characters} characters exceeds the limit of ${LOCAL_MAX_SPEECH_CHARACTERS}`);
  const voices = SPEECH_VOICES[model.id];
  if (b.voice !== undefined && (typeof b.voice !== 'string' || (voices !== undefined && !voices.includes(b.voice)))) {
    throw invalid(`voice '${String(b.voice)}' is not offered by '${model.id}'`);
  }
  const format = b.response_format ?? 'mp3';
  if (format !== 'mp3' && format !== 'wav') throw invalid("'response_format' must be mp3 or wav on the local gateway");
  if (await applyMarkers(b.input, req, res, ctx, path)) return;

  const audio = format === 'wav' ? localSpeechWav(b.input) : localSpeechMp3(b.input);
  ctx.events.push({ type: 'media-request', endpoint: 'speech', model: model.id, requestId: ctx.requestId(res), characters, voice: b.voice, format });
  res.writeHead(200, { 'Content-Type': format === 'wav' ? 'audio/wav' : 'audio/mpeg', 'Content-Length': audio.length, 'X-Usage-Characters': String(characters) });
  res.end(audio);
};

const transcriptions: Handler = async (req, res, ctx) => {
  const path = MEDIA_ROUTES.transcriptions;
  const type = req.headers['content-type'] ?? '';
  const boundary = /^multipart\/form-data;.*\bboundary=(?:"([^"]{1,70})"|([^\s;]{1,70}))/i.exec(type);
  if (!boundary) {
    req.resume();
    throw invalid('the body must be multipart/form-data with a boundary');
  }
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > LOCAL_MAX_AUDIO_BYTES + MULTIPART_OVERHEAD) {
    req.resume();
    throw new GatewayHttpError(413, 'invalid_request_error', `audio files are limited to ${LOCAL_MAX_AUDIO_BYTES} bytes`);
  }
  const body = await readBodyUpTo(req, LOCAL_MAX_AUDIO_BYTES + MULTIPART_OVERHEAD);
  const parts = parseMultipart(body, boundary[1] ?? boundary[2]);
  const field = (name: string): string | undefined => {
    const p = parts.find((x) => x.name === name && x.filename === undefined);
    return p?.data.toString('utf8');
  };
  const model = pickModel(ctx, field('model'), 'transcription');
  const file = parts.find((p) => p.name === 'file' && p.filename !== undefined);
  if (!file || file.data.length === 0) throw invalid("missing required part 'file' (a non-empty audio file)");
  if (file.data.length > LOCAL_MAX_AUDIO_BYTES) throw new GatewayHttpError(413, 'invalid_request_error', `audio files are limited to ${LOCAL_MAX_AUDIO_BYTES} bytes`);
  const format = field('response_format') ?? 'json';
  if (format !== 'json') throw invalid("'response_format' must be json on the local gateway");
  if (await applyMarkers(`${field('prompt') ?? ''} ${file.filename ?? ''}`, req, res, ctx, path)) return;

  const name = file.filename ?? 'audio';
  ctx.events.push({
    type: 'media-request',
    endpoint: 'transcriptions',
    model: model.id,
    requestId: ctx.requestId(res),
    bytes: file.data.length,
    fileName: name,
    fileType: file.contentType,
    sha256: createHash('sha256').update(file.data).digest('hex'),
  });
  ctx.sendJson(res, 200, { text: localTranscript(name, file.data), language: field('language') ?? 'en', duration: file.data.length / 16000, usage: { audio_bytes: file.data.length } });
};

export const mediaModule: RouteModule = {
  name: 'media',
  register(route) {
    route('POST', MEDIA_ROUTES.images, guarded('images', 'image', images));
    route('POST', MEDIA_ROUTES.speech, guarded('speech', 'speech', speech));
    route('POST', MEDIA_ROUTES.transcriptions, guarded('transcriptions', 'transcribe', transcriptions));
    route('GET', '/local-media/{name}', (_req, res, ctx, params) => {
      const png = stored.get(ctx.options)?.get(params.name);
      if (png === undefined) {
        ctx.sendError(res, 404, 'not_found_error', 'no such generated image');
        return;
      }
      res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': png.length });
      res.end(png);
    });
  },
};
