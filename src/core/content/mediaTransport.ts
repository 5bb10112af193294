/**
 * The two exchanges the media features need that the shared client (IGatewayClient) does not offer
 * yet: a JSON request answered with raw bytes (speech), and a streamed request body answered with JSON
 * (the multipart transcription upload). Plus the downloader for images the gateway answers by URL.
 *
 * Kept minimal and separate so that, once IGatewayClient grows `postForBytes` / `postStream`, this
 * file shrinks to an adapter. It follows the client's invariants:
 * - the key goes only into the Authorization header of a request to the configured gateway, built
 *   from a relative path (never to a server-chosen URL; the downloader sends no credential at all);
 * - every failure is a GatewayError classified by http/classify.ts, keeping the request id;
 * - NO automatic retry: these requests are billed and a streamed body cannot be replayed;
 * - every body read is bounded (`limit`), and an error body is read at most ERROR_BODY_LIMIT bytes;
 * - one log line per call, without headers or bodies, passed through redactSecrets.
 */
import { Readable } from 'node:stream';
import { request, type Dispatcher } from 'undici';
import { errorFromResponse, errorFromTransport, parseRetryAfter } from '../http/classify';
import { GatewayError } from '../http/errors';
import { joinUrl } from '../gateway/joinUrl';
import type { CallOptions, JsonResponse } from '../gateway/api';
import { nullLogger, redactSecrets, type Logger } from '../log';

export interface BytesResponse {
  bytes: Uint8Array;
  /** Content-Type as sent, lower-cased, parameters dropped; undefined when absent. */
  contentType: string | undefined;
  status: number;
  requestId: string | undefined;
  /** Response headers by lower-case name (first value). */
  header(name: string): string | undefined;
}

/** A request body produced on demand, with its exact length known up front. */
export interface StreamBody {
  contentType: string;
  length: number;
  /** Called once; the transport pulls chunks as the socket drains. */
  open(): AsyncIterable<Uint8Array>;
}

export interface LimitedCallOptions extends Pick<CallOptions, 'signal'> {
  /** Largest response body accepted, in bytes; more is a protocol error and the socket is dropped. */
  limit: number;
}

export interface RawGateway {
  /** Authenticated POST of a JSON body; the answer's bytes (at most `limit`). Not retried. */
  postForBytes(path: string, body: unknown, options: LimitedCallOptions): Promise<BytesResponse>;
  /** Authenticated POST of a streamed body; the answer parsed as JSON (at most `limit` bytes). Not retried. */
  postStreamForJson<T>(path: string, body: StreamBody, options: LimitedCallOptions): Promise<JsonResponse<T>>;
}

export interface RawGatewayOptions {
  baseUrl: () => string;
  getKey: () => Promise<string | undefined>;
  userAgent: string;
  logger?: Logger;
  /** The shared network layer's dispatcher (proxy settings); undici's global dispatcher when absent. */
  dispatcher?: () => Dispatcher | undefined;
  /** Time to the response headers once the body is sent, and longest silence in the body. */
  timeouts?: () => { firstByteMs?: number; idleMs?: number } | undefined;
}

const DEFAULTS = { firstByteMs: 300_000, idleMs: 60_000 };
const ERROR_BODY_LIMIT = 64 * 1024;

function firstHeader(headers: Dispatcher.ResponseData['headers'], name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function mediaTypeOf(headers: Dispatcher.ResponseData['headers']): string | undefined {
  const ct = firstHeader(headers, 'content-type');
  return ct === undefined ? undefined : ct.split(';')[0].trim().toLowerCase() || undefined;
}

/**
 * Reads a body into one buffer of at most `limit` bytes. Over the limit the body is destroyed (so the
 * socket is not kept reading) and `tooLarge()` is thrown. Never holds more than limit + one chunk.
 */
export async function readLimited(body: AsyncIterable<Uint8Array> & { destroy?: () => void }, limit: number, tooLarge: () => Error): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.byteLength;
    if (size > limit) {
      body.destroy?.();
      throw tooLarge();
    }
    chunks.push(chunk);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

function checkPath(path: string): string {
  if (!path.startsWith('/') || path.startsWith('//')) {
    throw new GatewayError({ reason: 'invalid_request', message: `Gateway paths must start with a single '/': ${path}` });
  }
  return path;
}

export function createRawGateway(options: RawGatewayOptions): RawGateway {
  const log = options.logger ?? nullLogger;

  async function exchange(
    path: string,
    body: { contentType: string; length?: number; data: string | AsyncIterable<Uint8Array> },
    accept: string,
    call: LimitedCallOptions,
  ): Promise<{ bytes: Uint8Array; response: Dispatcher.ResponseData; requestId: string | undefined }> {
    const started = Date.now();
    const signal = call.signal;
    let key: string | undefined;
    // What the log line knows so far (filled in once the response headers arrived).
    const seen: { status?: number; requestId?: string } = {};
    const logLine = (error?: GatewayError): void => {
      const outcome = error ? `${error.status ?? seen.status ?? '-'} ${error.reason}` : String(seen.status ?? '-');
      const line = `POST ${path} ${outcome} ${Date.now() - started}ms request_id=${error?.requestId ?? seen.requestId ?? '-'}`;
      const safe = redactSecrets(line, key ? [key] : []);
      if (!error || error.reason === 'aborted') log.info(safe);
      else log.warn(safe);
    };
    const fail = (error: GatewayError): never => {
      logLine(error);
      throw error;
    };

    let url: URL;
    try {
      url = joinUrl(options.baseUrl(), checkPath(path));
    } catch (cause) {
      if (cause instanceof GatewayError) return fail(cause);
      return fail(new GatewayError({ reason: 'invalid_request', message: 'The gateway address is not a valid http(s) URL (setting aiGateway.baseUrl)', cause }));
    }
    if (signal?.aborted) return fail(new GatewayError({ reason: 'aborted', message: 'The request was cancelled' }));
    try {
      key = await options.getKey();
    } catch (cause) {
      return fail(new GatewayError({ reason: 'authentication', message: 'The API key could not be read from secret storage', cause }));
    }
    if (!key) return fail(new GatewayError({ reason: 'authentication', message: 'No API key is set' }));

    const headers: Record<string, string> = {
      'user-agent': options.userAgent,
      accept,
      'content-type': body.contentType,
      authorization: `Bearer ${key}`,
    };
    if (body.length !== undefined) headers['content-length'] = String(body.length);
    const timeouts = { ...DEFAULTS, ...options.timeouts?.() };

    let response: Dispatcher.ResponseData;
    try {
      response = await request(url, {
        method: 'POST',
        headers,
        body: typeof body.data === 'string' ? body.data : Readable.from(body.data, { objectMode: false }),
        signal,
        dispatcher: options.dispatcher?.(),
        headersTimeout: timeouts.firstByteMs,
        bodyTimeout: timeouts.idleMs,
      });
    } catch (err) {
      return fail(errorFromTransport(err, { signal }));
    }
    const status = response.statusCode;
    const requestId = firstHeader(response.headers, 'x-request-id');
    seen.status = status;
    seen.requestId = requestId;
    if (status < 200 || status >= 300) {
      let bodyText: string | undefined;
      try {
        if (status === 429) await response.body.dump();
        else bodyText = Buffer.from(await readLimited(response.body, ERROR_BODY_LIMIT, () => new Error('error body too large'))).toString('utf8');
      } catch (err) {
        if (signal?.aborted) return fail(errorFromTransport(err, { signal, requestId, status }));
        bodyText = undefined;
      }
      return fail(errorFromResponse({ status, headerRequestId: requestId, retryAfterMs: parseRetryAfter(firstHeader(response.headers, 'retry-after'), Date.now()), bodyText, knownSecrets: [key] }));
    }
    let bytes: Uint8Array;
    try {
      bytes = await readLimited(response.body, call.limit, () => new GatewayError({ reason: 'protocol', message: `${path} answered with more than ${call.limit.toLocaleString('en-US')} bytes; the answer was dropped.`, status, requestId }));
    } catch (err) {
      return fail(errorFromTransport(err, { signal, requestId, status, partial: true }));
    }
    logLine();
    return { bytes, response, requestId };
  }

  return {
    async postForBytes(path, body, call) {
      const { bytes, response, requestId } = await exchange(path, { contentType: 'application/json', data: JSON.stringify(body) }, '*/*', call);
      return {
        bytes,
        contentType: mediaTypeOf(response.headers),
        status: response.statusCode,
        requestId,
        header: (name) => firstHeader(response.headers, name.toLowerCase()),
      };
    },
    async postStreamForJson<T>(path: string, body: StreamBody, call: LimitedCallOptions): Promise<JsonResponse<T>> {
      const { bytes, response, requestId } = await exchange(path, { contentType: body.contentType, length: body.length, data: body.open() }, 'application/json', call);
      let data: unknown;
      try {
        data = bytes.byteLength === 0 ? undefined : JSON.parse(Buffer.from(bytes).toString('utf8'));
      } catch (cause) {
        throw new GatewayError({ reason: 'protocol', message: 'The gateway sent a response that is not the expected JSON', status: response.statusCode, requestId, cause });
      }
      return { data: data as T, status: response.statusCode, requestId };
    },
  };
}

// ---------------------------------------------------------------------------------------------------
// Downloads of server-chosen URLs (images answered by URL)

/** The seam the image client uses; the editor wires it to the shared network layer. */
export type Download = (url: string, limit: number, signal?: AbortSignal) => Promise<Downloaded>;

export interface Downloaded {
  bytes: Uint8Array;
  contentType: string | undefined;
}

export interface DownloaderOptions {
  userAgent: string;
  dispatcher?: () => Dispatcher | undefined;
  /** Origins (scheme://host:port) where plain http is accepted besides loopback, e.g. the gateway's own. */
  httpOrigins?: () => readonly string[];
  timeouts?: { firstByteMs?: number; idleMs?: number };
}

const MAX_REDIRECTS = 3;

function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(?:\.\d{1,3}){3}$/.test(hostname);
}

/**
 * Whether a server-chosen URL may be fetched: https anywhere, or http on loopback and the listed
 * origins; never embedded credentials. Returns the reason when not.
 */
export function downloadUrlProblem(raw: string, httpOrigins: readonly string[] = []): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'it is not a valid URL';
  }
  if (url.username || url.password) return 'it carries credentials';
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && (isLoopbackHost(url.hostname) || httpOrigins.includes(url.origin))) return undefined;
  return url.protocol === 'http:' ? 'it is plain http to another host' : `its scheme ${url.protocol} is not http(s)`;
}

/**
 * Downloads with a size limit and no credential: only a User-Agent and Accept header are sent, so the
 * API key can never reach a host the gateway names. Redirects are followed (at most 3), each hop
 * checked like the first URL.
 */
export function createDownloader(options: DownloaderOptions): Download {
  const timeouts = { firstByteMs: 60_000, idleMs: 60_000, ...options.timeouts };
  return async (raw, limit, signal) => {
    let current = raw;
    for (let hop = 0; ; hop++) {
      const problem = downloadUrlProblem(current, options.httpOrigins?.() ?? []);
      if (problem) throw new GatewayError({ reason: 'protocol', message: `The gateway answered with an image address that was not fetched: ${problem}.` });
      if (signal?.aborted) throw new GatewayError({ reason: 'aborted', message: 'The request was cancelled' });
      let response: Dispatcher.ResponseData;
      try {
        response = await request(current, {
          method: 'GET',
          headers: { 'user-agent': options.userAgent, accept: 'image/*' },
          signal,
          dispatcher: options.dispatcher?.(),
          headersTimeout: timeouts.firstByteMs,
          bodyTimeout: timeouts.idleMs,
        });
      } catch (err) {
        throw errorFromTransport(err, { signal });
      }
      const status = response.statusCode;
      if (status >= 300 && status < 400 && firstHeader(response.headers, 'location')) {
        await response.body.dump().catch(() => undefined);
        if (hop >= MAX_REDIRECTS) throw new GatewayError({ reason: 'protocol', message: `The image address redirected more than ${MAX_REDIRECTS} times.` });
        current = new URL(firstHeader(response.headers, 'location') as string, current).toString();
        continue;
      }
      if (status < 200 || status >= 300) {
        await response.body.dump().catch(() => undefined);
        throw new GatewayError({ reason: status === 404 ? 'not_found' : 'server', status, message: `The generated image could not be downloaded (HTTP ${status}).` });
      }
      try {
        const bytes = await readLimited(response.body, limit, () => new GatewayError({ reason: 'protocol', message: `The generated image is larger than ${limit.toLocaleString('en-US')} bytes; it was not downloaded.` }));
        return { bytes, contentType: mediaTypeOf(response.headers) };
      } catch (err) {
        throw errorFromTransport(err, { signal, partial: true, status });
      }
    }
  };
}
