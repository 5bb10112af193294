/**
 * Request and response mappers for the three media endpoints, and every limit the media features
 * assume. The spec lists the routes and their scopes (image, speech, transcribe; all write) but not
 * their payloads, nor any size limit: each shape and number below is an ASSUMPTION, modelled on the
 * OpenAI-compatible API, and kept in this one file so a correction is a local edit. The rest of the
 * feature only sees the domain types (ImageRequest, GeneratedImage, SpeechRequest, ...).
 *
 * The local gateway (test/localGateway/media.ts) implements the same shapes without importing this file.
 */
import { GatewayError } from '../http/errors';
import { isRecord } from '../guards';
import { formatBytes } from '../bytes';

export const MEDIA_PATHS = {
  images: '/v1/images/generations',
  speech: '/v1/audio/speech',
  transcriptions: '/v1/audio/transcriptions',
} as const;

export type MediaEndpoint = keyof typeof MEDIA_PATHS;

/** What each route does, for the "this gateway does not offer X" error. */
export const MEDIA_LABELS: Record<MediaEndpoint, string> = {
  images: 'image generation',
  speech: 'speech generation',
  transcriptions: 'audio transcription',
};

// ---------------------------------------------------------------------------------------------------
// Limits (all ASSUMED: the spec publishes none). Changing a number here changes the refusal, its
// message and the tests' expectations in one go.

export const MEDIA_LIMITS = {
  /** Images per request when the model's schema publishes no `n.maximum` (OpenAI's dall-e-2 cap). */
  maxImagesPerRequest: 10,
  /** Largest decoded image accepted, whether inline (base64) or downloaded from a URL. */
  maxImageBytes: 20_000_000,
  /** Longest speech input, in characters as counted by countSpeechCharacters (OpenAI's limit). */
  maxSpeechCharacters: 4096,
  /** Largest audio answer read from /v1/audio/speech. */
  maxSpeechBytes: 64_000_000,
  /** Largest audio file uploaded for transcription: 25 MB (OpenAI's limit), with MB = 1,000,000 bytes. */
  maxTranscriptionBytes: 25_000_000,
  /** Largest JSON answer read from /v1/audio/transcriptions. */
  maxTranscriptJsonBytes: 4_000_000,
} as const;

/**
 * How speech characters are counted, for the limit and for `per_million_characters`. Assumption:
 * Unicode code points of the text exactly as sent (so an emoji is one character, not two UTF-16
 * units). The same function feeds the refusal and the cost, so both always agree.
 */
export function countSpeechCharacters(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

// ---------------------------------------------------------------------------------------------------
// Images

export interface ImageRequest {
  model: string;
  prompt: string;
  /** How many images; 1 when omitted. */
  count?: number;
  /** e.g. "1024x1024"; the gateway's default when omitted. */
  size?: string;
  /** Which answer to ask for; the response is read either way. Default b64_json (no second fetch). */
  responseFormat?: 'b64_json' | 'url';
}

/**
 * Assumption (spec: not shown): POST /v1/images/generations takes
 * `{ model, prompt, n?, size?, response_format?: 'b64_json' | 'url' }` and answers
 * `{ created?, data: [{ b64_json } | { url }, with optional revised_prompt], usage?: { images } }`.
 */
export interface ImageWireRequest {
  model: string;
  prompt: string;
  n?: number;
  size?: string;
  response_format?: 'b64_json' | 'url';
}

/** One image of the answer, before any download. */
export type ImageItem = { kind: 'base64'; base64: string; revisedPrompt?: string } | { kind: 'url'; url: string; revisedPrompt?: string };

export interface ImageWireResult {
  items: ImageItem[];
  /** usage.images when the gateway sent it (what it billed), else undefined. */
  billedImages: number | undefined;
}

export function toImageRequest(input: ImageRequest): ImageWireRequest {
  const body: ImageWireRequest = { model: input.model, prompt: input.prompt };
  if (input.count !== undefined && input.count !== 1) body.n = input.count;
  if (input.size) body.size = input.size;
  body.response_format = input.responseFormat ?? 'b64_json';
  return body;
}

// A base64 string longer than this cannot decode to at most maxImageBytes.
const MAX_BASE64_CHARS = Math.ceil(MEDIA_LIMITS.maxImageBytes / 3) * 4 + 4;

/** Throws GatewayError(protocol) when the body is not the assumed shape or has more images than asked. */
export function fromImageResponse(body: unknown, requested: number, requestId?: string): ImageWireResult {
  const path = MEDIA_PATHS.images;
  if (!isRecord(body) || !Array.isArray(body.data)) throw protocolError(path, 'no data list', requestId);
  if (body.data.length === 0) throw protocolError(path, 'no images', requestId);
  if (body.data.length > requested) throw protocolError(path, `${body.data.length} images where ${requested} were asked for`, requestId);
  const items = body.data.map((entry, i): ImageItem => {
    if (!isRecord(entry)) throw protocolError(path, `an image entry ${i + 1} that is not an object`, requestId);
    const revisedPrompt = typeof entry.revised_prompt === 'string' ? entry.revised_prompt : undefined;
    const extra = revisedPrompt !== undefined ? { revisedPrompt } : {};
    if (typeof entry.b64_json === 'string' && entry.b64_json !== '') {
      if (entry.b64_json.length > MAX_BASE64_CHARS) throw protocolError(path, `an image larger than ${formatBytes(MEDIA_LIMITS.maxImageBytes)}`, requestId);
      return { kind: 'base64', base64: entry.b64_json, ...extra };
    }
    if (typeof entry.url === 'string' && entry.url !== '') return { kind: 'url', url: entry.url, ...extra };
    throw protocolError(path, `an image entry ${i + 1} with neither b64_json nor url`, requestId);
  });
  const usage = isRecord(body.usage) ? body.usage.images : undefined;
  const billedImages = typeof usage === 'number' && Number.isSafeInteger(usage) && usage >= 0 ? usage : undefined;
  return { items, billedImages };
}

/** Strict base64 (standard alphabet, optional padding); throws protocol on anything else. */
export function decodeBase64Image(base64: string, requestId?: string): Uint8Array {
  const clean = base64.replace(/\s+/g, '');
  if (clean.length > MAX_BASE64_CHARS || !/^[A-Za-z0-9+/]*={0,2}$/.test(clean) || clean.length % 4 === 1) {
    throw protocolError(MEDIA_PATHS.images, 'an image that is not valid base64', requestId);
  }
  return new Uint8Array(Buffer.from(clean, 'base64'));
}

// ---------------------------------------------------------------------------------------------------
// Speech

export type SpeechFormat = 'mp3' | 'wav' | 'ogg' | 'flac' | 'aac' | 'opus';

export interface SpeechRequest {
  model: string;
  /** The text to read, exactly as it will be sent (markup already stripped by the caller). */
  text: string;
  voice?: string;
  /** Default mp3 (small; every player has it). */
  format?: SpeechFormat;
}

/**
 * Assumption (spec: not shown): POST /v1/audio/speech takes `{ model, input, voice?, response_format? }`
 * and answers the audio bytes themselves (Content-Type audio/*). The billed character count, when
 * sent, is in the header named by SPEECH_USAGE_HEADER.
 */
export interface SpeechWireRequest {
  model: string;
  input: string;
  voice?: string;
  response_format: SpeechFormat;
}

export const SPEECH_USAGE_HEADER = 'x-usage-characters';

export function toSpeechRequest(input: SpeechRequest): SpeechWireRequest {
  const body: SpeechWireRequest = { model: input.model, input: input.text, response_format: input.format ?? 'mp3' };
  if (input.voice) body.voice = input.voice;
  return body;
}

/** A usage header value, or undefined when absent or not a plain non-negative integer. */
export function parseUsageCount(value: string | undefined): number | undefined {
  if (value === undefined || !/^\d{1,15}$/.test(value.trim())) return undefined;
  return Number(value.trim());
}

// ---------------------------------------------------------------------------------------------------
// Transcription

/**
 * Assumption (spec: not shown): POST /v1/audio/transcriptions takes multipart/form-data with the
 * parts `file` (the audio, with a filename), `model`, `response_format` (`json`), and optionally
 * `language` and `prompt`; it answers `{ text, language?, duration?, usage?: { audio_bytes } }`.
 */
export interface TranscriptionFields {
  model: string;
  /** BCP 47 / ISO 639-1 hint, e.g. "en". */
  language?: string;
  /** Spelling hints (names, jargon). */
  prompt?: string;
}

export interface TranscriptionResult {
  text: string;
  language?: string;
  durationSeconds?: number;
  /** usage.audio_bytes when the gateway sent it. */
  billedBytes?: number;
}

/** The text fields of the form, in the order they are sent (before the file part). */
export function toTranscriptionFields(input: TranscriptionFields): Array<[name: string, value: string]> {
  const fields: Array<[string, string]> = [
    ['model', input.model],
    ['response_format', 'json'],
  ];
  if (input.language) fields.push(['language', input.language]);
  if (input.prompt) fields.push(['prompt', input.prompt]);
  return fields;
}

export function fromTranscriptionResponse(body: unknown, requestId?: string): TranscriptionResult {
  const path = MEDIA_PATHS.transcriptions;
  if (!isRecord(body) || typeof body.text !== 'string') throw protocolError(path, 'no string text field', requestId);
  const out: TranscriptionResult = { text: body.text };
  if (typeof body.language === 'string' && body.language.length <= 35) out.language = body.language;
  if (typeof body.duration === 'number' && Number.isFinite(body.duration) && body.duration >= 0) out.durationSeconds = body.duration;
  const billed = isRecord(body.usage) ? body.usage.audio_bytes : undefined;
  if (typeof billed === 'number' && Number.isSafeInteger(billed) && billed >= 0) out.billedBytes = billed;
  return out;
}

/** Media type of the file part, from the extension (the Explorer menu offers exactly these). */
export const AUDIO_MEDIA_TYPES: Readonly<Record<string, string>> = {
  mp3: 'audio/mpeg',
  m4a: 'audio/mp4',
  wav: 'audio/wav',
  webm: 'audio/webm',
  ogg: 'audio/ogg',
  flac: 'audio/flac',
};

// ---------------------------------------------------------------------------------------------------
// Options the model's schema route lists (GET /v1/models/{owner}/{model}/schema). The schema's shape
// is not documented either: this reads a JSON Schema whose `properties` describe the request body,
// and treats anything else as "lists nothing". Server text, so every list is bounded and filtered.

export interface MediaSchemaOptions {
  /** Image sizes (properties.size.enum). */
  sizes?: string[];
  defaultSize?: string;
  /** Largest image count (properties.n.maximum). */
  maxImages?: number;
  /** Speech voices (properties.voice.enum). */
  voices?: string[];
  defaultVoice?: string;
  /** Answer formats (properties.response_format.enum): audio formats for speech, b64_json/url for images. */
  formats?: string[];
}

const MAX_OPTIONS = 64;
const SIZE_RE = /^(?:\d{1,5}x\d{1,5}|auto)$/;
const NAME_RE = /^[\p{L}\p{N}][\p{L}\p{N} _.-]{0,63}$/u;

export function mediaOptionsFromSchema(schema: unknown): MediaSchemaOptions {
  const props = isRecord(schema) && isRecord(schema.properties) ? schema.properties : undefined;
  if (!props) return {};
  const out: MediaSchemaOptions = {};
  const sizes = enumOf(props.size, SIZE_RE);
  if (sizes) {
    out.sizes = sizes;
    const d = defaultOf(props.size);
    if (d !== undefined && sizes.includes(d)) out.defaultSize = d;
  }
  const n = isRecord(props.n) ? props.n.maximum : undefined;
  if (typeof n === 'number' && Number.isSafeInteger(n) && n >= 1) out.maxImages = Math.min(n, 100);
  const voices = enumOf(props.voice, NAME_RE);
  if (voices) {
    out.voices = voices;
    const d = defaultOf(props.voice);
    if (d !== undefined && voices.includes(d)) out.defaultVoice = d;
  }
  const formats = enumOf(props.response_format, /^[a-z0-9_]{1,16}$/);
  if (formats) out.formats = formats;
  return out;
}

function enumOf(prop: unknown, re: RegExp): string[] | undefined {
  if (!isRecord(prop) || !Array.isArray(prop.enum)) return undefined;
  const out: string[] = [];
  for (const v of prop.enum.slice(0, MAX_OPTIONS)) if (typeof v === 'string' && re.test(v) && !out.includes(v)) out.push(v);
  return out.length > 0 ? out : undefined;
}

function defaultOf(prop: unknown): string | undefined {
  return isRecord(prop) && typeof prop.default === 'string' ? prop.default : undefined;
}

// ---------------------------------------------------------------------------------------------------
// Shared bits


export function protocolError(path: string, what: string, requestId?: string): GatewayError {
  return new GatewayError({ reason: 'protocol', message: `${path} answered with ${what}.`, requestId });
}
