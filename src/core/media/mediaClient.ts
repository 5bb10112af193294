/**
 * Image generation, speech and transcription against the gateway's media routes (shapes and limits:
 * mediaWire.ts). Nothing here touches the workspace: results are bytes and text handed to the caller,
 * who writes them only after a success, so a failure or a cancel leaves nothing behind.
 *
 * Contract: every failure is a MediaError (detected here, before anything is sent, or a server answer
 * that is not the media it claims to be) or a GatewayError (from the transport). A route answering
 * 404 or 405 becomes a GatewayError with the same reason (not_found / method_not_allowed) whose message
 * says the gateway does not offer the feature. Every call honours the AbortSignal in MediaDeps.
 */
import { open, stat, type FileHandle } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { basename, extname } from 'node:path';
import type { IGatewayClient } from '../gateway/api';
import { GatewayError, isGatewayError } from '../http/errors';
import type { Logger } from '../log';
import {
  AUDIO_MEDIA_TYPES,
  countSpeechCharacters,
  decodeBase64Image,
  fromImageResponse,
  fromTranscriptionResponse,
  MEDIA_LABELS,
  MEDIA_LIMITS,
  MEDIA_PATHS,
  parseUsageCount,
  SPEECH_USAGE_HEADER,
  toImageRequest,
  toSpeechRequest,
  toTranscriptionFields,
  type ImageRequest,
  type MediaEndpoint,
  type SpeechRequest,
  type TranscriptionFields,
  type TranscriptionResult,
} from './mediaWire';
import { formatBytes } from '../bytes';
import type { Download, RawGateway, StreamBody } from './mediaTransport';

export type MediaErrorKind =
  | 'empty_input' // no prompt / no text: nothing was sent
  | 'too_long' // speech text over the route limit: nothing was sent
  | 'too_large' // audio file over the upload limit: nothing was sent
  | 'bad_count' // image count outside 1..max
  | 'unsupported_file' // not a regular file, or not one of the audio extensions
  | 'file_changed' // the file's size changed after the cost was shown, or during the upload
  | 'bad_media'; // the server's bytes are not an image / audio format we accept

export class MediaError extends Error {
  readonly kind: MediaErrorKind;
  constructor(kind: MediaErrorKind, message: string) {
    super(message);
    this.name = 'MediaError';
    this.kind = kind;
  }
}

export function isMediaError(e: unknown): e is MediaError {
  return e instanceof Error && e.name === 'MediaError' && typeof (e as { kind?: unknown }).kind === 'string';
}

export interface MediaDeps {
  /** The shared gateway client (JSON route: images). */
  client: Pick<IGatewayClient, 'postJson'>;
  /** Raw exchanges (speech bytes, multipart upload); see mediaTransport.ts. */
  raw: RawGateway;
  /** Fetches an image the gateway answered by URL. Must not send the API key (see createDownloader). */
  download: Download;
  log: Logger;
  signal?: AbortSignal;
}

/** Rethrows a 404/405 as "this gateway does not offer X", keeping reason, status and request id. */
function missingRoute(e: unknown, endpoint: MediaEndpoint): unknown {
  if (!isGatewayError(e) || (e.reason !== 'not_found' && e.reason !== 'method_not_allowed')) return e;
  const path = MEDIA_PATHS[endpoint];
  return new GatewayError({
    reason: e.reason,
    status: e.status,
    type: e.type,
    requestId: e.requestId,
    message: `This gateway does not offer ${MEDIA_LABELS[endpoint]}: POST ${path} answered HTTP ${e.status ?? (e.reason === 'not_found' ? 404 : 405)}.`,
    cause: e,
  });
}

async function onRoute<T>(endpoint: MediaEndpoint, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    throw missingRoute(e, endpoint);
  }
}

// ---------------------------------------------------------------------------------------------------
// Sniffing: what the bytes really are, whatever the server's Content-Type says.

export type ImageMediaType = 'image/png' | 'image/jpeg' | 'image/webp' | 'image/gif';

function startsWith(bytes: Uint8Array, sig: readonly number[], at = 0): boolean {
  if (bytes.byteLength < at + sig.length) return false;
  for (let i = 0; i < sig.length; i++) if (bytes[at + i] !== sig[i]) return false;
  return true;
}
const ascii = (s: string): number[] => Array.from(s, (c) => c.charCodeAt(0));

/** PNG, JPEG, WebP or GIF by magic bytes; undefined for anything else (SVG included: it can script). */
export function sniffImage(bytes: Uint8Array): ImageMediaType | undefined {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'image/webp';
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return 'image/gif';
  return undefined;
}

export type AudioMediaType = 'audio/wav' | 'audio/mpeg' | 'audio/ogg' | 'audio/flac' | 'audio/aac' | 'audio/mp4' | 'audio/webm';

/** WAV, MP3, Ogg, FLAC, AAC (ADTS), MP4/M4A or WebM by magic bytes; undefined for anything else. */
export function sniffAudio(bytes: Uint8Array): AudioMediaType | undefined {
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WAVE'), 8)) return 'audio/wav';
  if (startsWith(bytes, ascii('OggS'))) return 'audio/ogg';
  if (startsWith(bytes, ascii('fLaC'))) return 'audio/flac';
  if (startsWith(bytes, ascii('ID3'))) return 'audio/mpeg';
  if (startsWith(bytes, ascii('ftyp'), 4)) return 'audio/mp4';
  if (startsWith(bytes, [0x1a, 0x45, 0xdf, 0xa3])) return 'audio/webm';
  if (bytes.byteLength >= 2 && bytes[0] === 0xff && (bytes[1] & 0xe0) === 0xe0) {
    // Frame sync. Layer bits 00 with MPEG-4/2 ADTS sync (0xFFF) is AAC; any other layer is MPEG audio.
    return (bytes[1] & 0xf6) === 0xf0 ? 'audio/aac' : 'audio/mpeg';
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------------
// Images

export interface GeneratedImage {
  bytes: Uint8Array;
  mediaType: ImageMediaType;
  /** The prompt as the model rewrote it, when it says so. */
  revisedPrompt?: string;
  /** Where it came from: inline base64, or downloaded from the URL the gateway gave. */
  source: 'base64' | 'url';
}

export interface ImageOutcome {
  images: GeneratedImage[];
  requestId: string | undefined;
  /** usage.images when sent: what the gateway billed. */
  billedImages: number | undefined;
}

export interface ImageOptions {
  /** The model schema's `n.maximum`, when it lists one (mediaOptionsFromSchema). */
  maxImages?: number;
}

/** The most images one request may ask for: the model schema's maximum, capped by MEDIA_LIMITS. */
export function maxImageCount(options: ImageOptions = {}): number {
  return Math.max(1, Math.min(options.maxImages ?? MEDIA_LIMITS.maxImagesPerRequest, MEDIA_LIMITS.maxImagesPerRequest));
}

/** The checks generateImage makes before sending; exported so the UI can refuse before asking for a cost. */
export function checkImageRequest(input: ImageRequest, options: ImageOptions = {}): void {
  if (!input.prompt.trim()) throw new MediaError('empty_input', 'There is no prompt: write what the image should show.');
  const max = maxImageCount(options);
  const count = input.count ?? 1;
  if (!Number.isSafeInteger(count) || count < 1 || count > max) {
    throw new MediaError('bad_count', `The number of images must be a whole number from 1 to ${max}.`);
  }
}

/** POST /v1/images/generations; every image, base64 or URL, comes back as checked bytes. */
export async function generateImage(deps: MediaDeps, input: ImageRequest, options: ImageOptions = {}): Promise<ImageOutcome> {
  checkImageRequest(input, options);
  const requested = input.count ?? 1;
  const res = await onRoute('images', () => deps.client.postJson<unknown>(MEDIA_PATHS.images, toImageRequest(input), { signal: deps.signal }));
  const { items, billedImages } = fromImageResponse(res.data, requested, res.requestId);
  const images: GeneratedImage[] = [];
  for (const item of items) {
    let bytes: Uint8Array;
    if (item.kind === 'base64') {
      bytes = decodeBase64Image(item.base64, res.requestId);
    } else {
      deps.log.info(`${MEDIA_PATHS.images} answered with an image URL; downloading it (no credentials sent).`);
      bytes = (await deps.download(item.url, MEDIA_LIMITS.maxImageBytes, deps.signal)).bytes;
    }
    const mediaType = sniffImage(bytes);
    if (!mediaType) throw new MediaError('bad_media', `The gateway's image ${images.length + 1} is not a PNG, JPEG, WebP or GIF image; it was not kept.`);
    images.push({ bytes, mediaType, source: item.kind, ...(item.revisedPrompt !== undefined ? { revisedPrompt: item.revisedPrompt } : {}) });
  }
  return { images, requestId: res.requestId, billedImages };
}

// ---------------------------------------------------------------------------------------------------
// Speech

export interface SpeechOutcome {
  bytes: Uint8Array;
  mediaType: AudioMediaType;
  requestId: string | undefined;
  /** Characters sent (countSpeechCharacters): what the cost was computed from. */
  characters: number;
  /** The gateway's own count (SPEECH_USAGE_HEADER), when sent. */
  billedCharacters: number | undefined;
}

/** The checks synthesizeSpeech makes before sending; returns the character count. */
export function checkSpeechText(text: string): number {
  if (!text.trim()) throw new MediaError('empty_input', 'There is no text to read aloud: the selection is empty once markup is removed.');
  const characters = countSpeechCharacters(text);
  const max = MEDIA_LIMITS.maxSpeechCharacters;
  if (characters > max) {
    throw new MediaError('too_long', `The text has ${characters.toLocaleString('en-US')} characters; speech is limited to ${max.toLocaleString('en-US')} characters per request. Select a shorter passage.`);
  }
  return characters;
}

/** POST /v1/audio/speech; text over the limit is refused before anything is sent. */
export async function synthesizeSpeech(deps: MediaDeps, input: SpeechRequest): Promise<SpeechOutcome> {
  const characters = checkSpeechText(input.text);
  const res = await onRoute('speech', () => deps.raw.postForBytes(MEDIA_PATHS.speech, toSpeechRequest(input), { signal: deps.signal, limit: MEDIA_LIMITS.maxSpeechBytes }));
  const mediaType = sniffAudio(res.bytes);
  if (!mediaType) {
    throw new MediaError('bad_media', `${MEDIA_PATHS.speech} answered with ${res.contentType ?? 'untyped'} data that is not a known audio format; it was not kept.`);
  }
  return { bytes: res.bytes, mediaType, requestId: res.requestId, characters, billedCharacters: parseUsageCount(res.header(SPEECH_USAGE_HEADER)) };
}

// ---------------------------------------------------------------------------------------------------
// Transcription

export interface AudioFileInfo {
  /** Size in bytes: the cost (per_megabyte_audio) is computed from this. */
  size: number;
  /** The name sent in the form (sanitised base name). */
  name: string;
  mediaType: string;
}

/** Sanitised for a Content-Disposition filename: printable ASCII without quotes or backslashes. */
export function formFileName(path: string): string {
  const base = basename(path).replace(/[^A-Za-z0-9._ -]/g, '_').slice(-100);
  return base.replace(/^[ .]+/, '') || 'audio';
}

function audioMediaType(path: string): string {
  const ext = extname(path).slice(1).toLowerCase();
  const type = AUDIO_MEDIA_TYPES[ext];
  if (!type) throw new MediaError('unsupported_file', `Only ${Object.keys(AUDIO_MEDIA_TYPES).join(', ')} files can be transcribed.`);
  return type;
}

function checkAudioSize(size: number): void {
  const max = MEDIA_LIMITS.maxTranscriptionBytes;
  if (size > max) throw new MediaError('too_large', `The file is ${formatBytes(size)}; transcription is limited to ${formatBytes(max)}. Nothing was sent.`);
  if (size === 0) throw new MediaError('empty_input', 'The audio file is empty.');
}

/** What the confirmation needs (size for the cost), with the refusals that need no upload. */
export async function inspectAudioFile(path: string): Promise<AudioFileInfo> {
  const mediaType = audioMediaType(path);
  const st = await stat(path);
  if (!st.isFile()) throw new MediaError('unsupported_file', 'Only a regular file can be transcribed.');
  checkAudioSize(st.size);
  return { size: st.size, name: formFileName(path), mediaType };
}

export interface MultipartFile {
  name: string;
  mediaType: string;
  size: number;
  /** The file's bytes, exactly `size` of them, produced once. */
  chunks: () => AsyncIterable<Uint8Array>;
}

/**
 * multipart/form-data (RFC 7578) with the text fields first and the file last, as a stream of known
 * length: the fields and part headers are a few hundred bytes; the file's chunks pass through as read.
 * The boundary is 32 random hex digits, so it cannot be predicted by content in the file.
 */
export function multipartBody(fields: ReadonlyArray<readonly [string, string]>, file: MultipartFile, boundary = `----ai-gateway-${randomBytes(16).toString('hex')}`): StreamBody & { boundary: string } {
  const quote = (s: string): string => s.replace(/[\r\n"\\]/g, '_');
  let head = '';
  for (const [name, value] of fields) head += `--${boundary}\r\nContent-Disposition: form-data; name="${quote(name)}"\r\n\r\n${value}\r\n`;
  head += `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${quote(file.name)}"\r\nContent-Type: ${file.mediaType}\r\n\r\n`;
  const headBytes = Buffer.from(head, 'utf8');
  const tailBytes = Buffer.from(`\r\n--${boundary}--\r\n`, 'utf8');
  return {
    boundary,
    contentType: `multipart/form-data; boundary=${boundary}`,
    length: headBytes.byteLength + file.size + tailBytes.byteLength,
    async *open() {
      yield headBytes;
      yield* file.chunks();
      yield tailBytes;
    },
  };
}

const CHUNK_BYTES = 64 * 1024;

/**
 * Reads exactly `size` bytes from an open file, one fresh chunk at a time (a chunk may still be queued
 * in the socket when the next is read, so buffers are not reused). A file that grows or shrinks during
 * the upload fails the request rather than sending something else than what was priced.
 */
async function* fileChunks(handle: FileHandle, size: number, onProgress: ((sent: number, total: number) => void) | undefined, signal: AbortSignal | undefined): AsyncGenerator<Uint8Array> {
  let sent = 0;
  while (sent < size) {
    if (signal?.aborted) return;
    const buf = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, size - sent));
    const { bytesRead } = await handle.read(buf, 0, buf.byteLength, sent);
    if (bytesRead === 0) throw new MediaError('file_changed', 'The audio file became shorter during the upload; nothing was transcribed.');
    sent += bytesRead;
    yield bytesRead === buf.byteLength ? buf : buf.subarray(0, bytesRead);
    onProgress?.(sent, size);
  }
  const probe = Buffer.alloc(1);
  if ((await handle.read(probe, 0, 1, size)).bytesRead !== 0) throw new MediaError('file_changed', 'The audio file grew during the upload; nothing was transcribed.');
}

export interface TranscriptionInput extends TranscriptionFields {
  /** Absolute path of the audio file (the caller checks it is one the user chose). */
  path: string;
  /** The size the cost was shown for (inspectAudioFile): a different size is refused before sending. */
  expectedSize?: number;
  /** File bytes handed to the connection so far, and the file's size. */
  onProgress?: (sent: number, total: number) => void;
}

export interface TranscriptionOutcome extends TranscriptionResult {
  requestId: string | undefined;
  /** File bytes sent: what the cost was computed from. */
  bytes: number;
}

/**
 * POST /v1/audio/transcriptions as multipart/form-data streamed from disk: one open file handle, read
 * in 64 KiB chunks as the socket drains, so the file is never held in memory whole. The handle is
 * closed whatever happens; nothing is written anywhere.
 */
export async function transcribeAudioFile(deps: MediaDeps, input: TranscriptionInput): Promise<TranscriptionOutcome> {
  const mediaType = audioMediaType(input.path);
  if (deps.signal?.aborted) throw new GatewayError({ reason: 'aborted', message: 'The request was cancelled' });
  const handle = await open(input.path, 'r');
  try {
    // Size from the open handle, not the path: what is measured is what is sent.
    const st = await handle.stat();
    if (!st.isFile()) throw new MediaError('unsupported_file', 'Only a regular file can be transcribed.');
    checkAudioSize(st.size);
    if (input.expectedSize !== undefined && input.expectedSize !== st.size) {
      throw new MediaError('file_changed', `The audio file changed size (${formatBytes(input.expectedSize)} when the cost was shown, ${formatBytes(st.size)} now). Nothing was sent; start again to see the new cost.`);
    }
    const body = multipartBody(toTranscriptionFields(input), {
      name: formFileName(input.path),
      mediaType,
      size: st.size,
      chunks: () => fileChunks(handle, st.size, input.onProgress, deps.signal),
    });
    const res = await onRoute('transcriptions', () => deps.raw.postStreamForJson<unknown>(MEDIA_PATHS.transcriptions, body, { signal: deps.signal, limit: MEDIA_LIMITS.maxTranscriptJsonBytes }));
    return { ...fromTranscriptionResponse(res.data, res.requestId), requestId: res.requestId, bytes: st.size };
  } catch (e) {
    // A MediaError thrown inside the body stream reaches us wrapped by the transport: unwrap it.
    const inner = isGatewayError(e) ? (e as Error).cause : undefined;
    if (isMediaError(inner) && !deps.signal?.aborted) throw inner;
    throw e;
  } finally {
    await handle.close();
  }
}
