/**
 * The two exchanges the media features need that the shared client (IGatewayClient) does not offer
 * yet: a JSON request answered with raw bytes (speech), and a streamed request body answered with JSON
 * (the multipart transcription upload). Plus the downloader for images the gateway answers by URL.
 *
 * Both go through the shared network layer (http/network.ts, `Services.network()` in the editor): its
 * connection pool and proxy settings, timeouts, user agent, error-body limit and the plain-http
 * credential check. Only what differs from a JSON call is here:
 * - the key goes only into the Authorization header of a request to the configured gateway, built
 *   from a relative path (never to a server-chosen URL; the downloader sends no credential at all);
 * - every failure is a GatewayError classified by http/classify.ts, keeping the request id;
 * - a billed request is re-sent only when it provably never reached the gateway (connection refused,
 *   DNS failure, connect timeout), within the network layer's retry policy; an answer (429 and 503
 *   included) or a connection that broke after sending is never retried. A streamed body is re-opened
 *   from its start for such a retry, which is safe because nothing of it was sent;
 * - every body read is bounded: the answer by the caller's `limit`, an error body by the network
 *   layer's maxErrorBodyBytes;
 * - one log line per call, without headers or bodies, passed through redactSecrets.
 */
import { Readable } from 'node:stream';
import { request, type Dispatcher } from 'undici';
import { errorFromResponse, errorFromTransport, parseRetryAfter } from '../http/classify';
import { GatewayError, NO_API_KEY_CODE } from '../http/errors';
import { readBodyBytes } from '../http/body';
import { bodyErrorToGateway, readTextPrefix, refusedCause, type Network } from '../http/network';
import { checkServerUrl, isRedirect, MAX_SERVER_REDIRECTS } from '../http/serverUrl';
import { systemClock, withRetry, type Clock } from '../http/retry';
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
  /** Called once per attempt; each call starts from the first byte. The transport pulls chunks as the socket drains. */
  open(): AsyncIterable<Uint8Array>;
}

export interface LimitedCallOptions extends Pick<CallOptions, 'signal'> {
  /** Largest response body accepted, in bytes; more is a protocol error and the socket is dropped. */
  limit: number;
}

export interface RawGateway {
  /** Authenticated POST of a JSON body; the answer's bytes (at most `limit`). Re-sent only when provably not sent. */
  postForBytes(path: string, body: unknown, options: LimitedCallOptions): Promise<BytesResponse>;
  /** Authenticated POST of a streamed body; the answer parsed as JSON (at most `limit` bytes). Re-sent only when provably not sent. */
  postStreamForJson<T>(path: string, body: StreamBody, options: LimitedCallOptions): Promise<JsonResponse<T>>;
}

export interface RawGatewayOptions {
  baseUrl: () => string;
  getKey: () => Promise<string | undefined>;
  /** The shared network layer: pool, proxy, timeouts, user agent, limits, retry policy, plain-http check. */
  net: Network;
  logger?: Logger;
  /** Injectable time and randomness for the back-off (tests). */
  clock?: Clock;
}

function firstHeader(headers: Dispatcher.ResponseData['headers'], name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function mediaTypeOf(headers: Dispatcher.ResponseData['headers']): string | undefined {
  const ct = firstHeader(headers, 'content-type');
  return ct === undefined ? undefined : ct.split(';')[0].trim().toLowerCase() || undefined;
}

function checkPath(path: string): string {
  if (!path.startsWith('/') || path.startsWith('//')) {
    throw new GatewayError({ reason: 'invalid_request', message: `Gateway paths must start with a single '/': ${path}` });
  }
  return path;
}

/**
 * True only when the request provably never reached the server (classify.ts decides from the error
 * code): the one case where a billed POST may be sent again. Certificate failures are not transient.
 */
export function provablyNotSent(e: GatewayError): boolean {
  return (e.reason === 'network' || e.reason === 'timeout') && e.status === undefined && e.retryable;
}

export function createRawGateway(options: RawGatewayOptions): RawGateway {
  const log = options.logger ?? nullLogger;
  const clock = options.clock ?? systemClock;
  const net = options.net;

  async function exchange(
    path: string,
    body: { contentType: string; length?: number; data: () => string | AsyncIterable<Uint8Array> },
    accept: string,
    call: LimitedCallOptions,
  ): Promise<{ bytes: Uint8Array; response: Dispatcher.ResponseData; requestId: string | undefined }> {
    const started = clock.now();
    const signal = call.signal;
    let key: string | undefined;
    let attempt = 0;
    // What the log line knows so far (filled in once the response headers arrived).
    const seen: { status?: number; requestId?: string } = {};
    const logLine = (error?: GatewayError): void => {
      const outcome = error ? `${error.status ?? seen.status ?? '-'} ${error.reason}` : String(seen.status ?? '-');
      const retries = attempt > 1 ? ` attempts=${attempt}` : '';
      const line = `POST ${path} ${outcome} ${Math.max(0, Math.round(clock.now() - started))}ms request_id=${error?.requestId ?? seen.requestId ?? '-'}${retries}`;
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
    if (signal?.aborted) return fail(new GatewayError({ reason: 'aborted', message: 'The request was cancelled', mayHaveReachedServer: false }));
    try {
      key = await options.getKey();
    } catch (cause) {
      return fail(new GatewayError({ reason: 'authentication', message: 'The API key could not be read from secret storage', cause }));
    }
    if (!key) return fail(new GatewayError({ reason: 'authentication', message: 'No API key is set', code: NO_API_KEY_CODE, mayHaveReachedServer: false }));
    try {
      await net.checkCredentialTarget(url);
    } catch (cause) {
      return fail(errorFromTransport(cause, {}));
    }

    const headers: Record<string, string> = {
      'user-agent': net.userAgent,
      accept,
      'content-type': body.contentType,
      authorization: `Bearer ${key}`,
    };
    if (body.length !== undefined) headers['content-length'] = String(body.length);
    const timeouts = net.timeouts();
    const retry = net.retry();
    const dispatcher = net.dispatcher(timeouts.connectMs);

    let response: Dispatcher.ResponseData;
    try {
      // A billed POST: sent again only when it provably never left this machine. An answer that is
      // not 2xx is not retried here: it is read and thrown below.
      response = await withRetry({ settings: retry, clock, signal, started, retryable: provablyNotSent }, async (n) => {
        attempt = n;
        try {
          const data = body.data();
          return await request(url, {
            method: 'POST',
            headers,
            body: typeof data === 'string' ? data : Readable.from(data, { objectMode: false }),
            signal,
            dispatcher,
            headersTimeout: timeouts.firstByteMs,
            bodyTimeout: timeouts.idleMs,
          });
        } catch (err) {
          throw errorFromTransport(err, { signal });
        }
      });
    } catch (e) {
      return fail(e as GatewayError);
    }
    const status = response.statusCode;
    const requestId = firstHeader(response.headers, 'x-request-id');
    seen.status = status;
    seen.requestId = requestId;
    if (status < 200 || status >= 300) {
      let bodyText: string | undefined;
      try {
        if (status === 429) await response.body.dump();
        else bodyText = await readTextPrefix(response.body, net.limits.maxErrorBodyBytes);
      } catch (err) {
        if (signal?.aborted) return fail(errorFromTransport(err, { signal, requestId, status }));
        bodyText = undefined;
      }
      return fail(errorFromResponse({ status, headerRequestId: requestId, retryAfterMs: parseRetryAfter(firstHeader(response.headers, 'retry-after'), Date.now()), bodyText, knownSecrets: [key] }));
    }
    let bytes: Uint8Array;
    try {
      bytes = await readBodyBytes(response.body, { maxBytes: call.limit });
    } catch (err) {
      const mapped = bodyErrorToGateway(err, `The answer of ${path}`, { requestId, status });
      return fail(errorFromTransport(mapped, { signal, requestId, status, partial: true }));
    }
    logLine();
    return { bytes, response, requestId };
  }

  return {
    async postForBytes(path, body, call) {
      const json = JSON.stringify(body);
      const { bytes, response, requestId } = await exchange(path, { contentType: 'application/json', data: () => json }, '*/*', call);
      return {
        bytes,
        contentType: mediaTypeOf(response.headers),
        status: response.statusCode,
        requestId,
        header: (name) => firstHeader(response.headers, name.toLowerCase()),
      };
    },
    async postStreamForJson<T>(path: string, body: StreamBody, call: LimitedCallOptions): Promise<JsonResponse<T>> {
      const { bytes, response, requestId } = await exchange(path, { contentType: body.contentType, length: body.length, data: () => body.open() }, 'application/json', call);
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
  /** The shared network layer: pool, proxy, timeouts, user agent, DNS for server-named hosts. */
  net: Network;
  /**
   * The gateway's own origins (scheme://host:port): fetched as the gateway is, whatever its address.
   * Every other address must be https on a public host (http/serverUrl.ts).
   */
  ownOrigins?: () => readonly string[];
}

/**
 * Whether a server-chosen URL may be fetched, before DNS: the rule of http/serverUrl.ts (the gateway's
 * own origin, or https on a host that is not loopback, private, link-local or unspecified; never
 * embedded credentials). Returns the reason when not.
 */
export function downloadUrlProblem(raw: string, ownOrigins: readonly string[] = []): string | undefined {
  const verdict = checkServerUrl(raw, ownOrigins);
  return verdict.ok ? undefined : verdict.problem;
}

function refusedAddress(problem: string): GatewayError {
  return new GatewayError({
    reason: 'protocol',
    message: `The gateway answered with an image address that was not fetched: ${problem}. Images are downloaded only from the gateway's own address or over https from a public host.`,
    mayHaveReachedServer: false,
  });
}

/**
 * Downloads with a size limit and no credential: only a User-Agent and Accept header are sent, so the
 * API key can never reach a host the gateway names. Every address, the first and each redirect hop
 * (at most MAX_SERVER_REDIRECTS, followed here), passes http/serverUrl.ts: on the gateway's own origin
 * it is fetched as the gateway is; anywhere else it must be https on a public host, and the connection
 * goes through the network layer's server-URL pool, which checks every address the host resolves to
 * and pins the connection to them. The bytes stay in memory (the caller writes only after a success),
 * so a refused or broken download leaves nothing behind. A GET is not billed, but it is not retried
 * either: the image URL is usually short-lived and the user can simply try again.
 */
export function createDownloader(options: DownloaderOptions): Download {
  const net = options.net;
  return async (raw, limit, signal) => {
    let current = raw;
    const timeouts = net.timeouts();
    for (let hop = 0; ; hop++) {
      const verdict = checkServerUrl(current, options.ownOrigins?.() ?? []);
      if (!verdict.ok) throw refusedAddress(verdict.problem);
      if (signal?.aborted) throw new GatewayError({ reason: 'aborted', message: 'The request was cancelled', mayHaveReachedServer: false });
      if (!verdict.own) {
        try {
          await net.checkServerTarget(verdict.url);
        } catch (err) {
          const refused = refusedCause(err);
          if (refused) throw refusedAddress(refused.problem);
          throw errorFromTransport(err, { signal });
        }
      }
      const dispatcher = verdict.own ? net.dispatcher(timeouts.connectMs) : net.serverDispatcher(timeouts.connectMs);
      let response: Dispatcher.ResponseData;
      try {
        response = await request(verdict.url, {
          method: 'GET',
          headers: { 'user-agent': net.userAgent, accept: 'image/*' },
          signal,
          dispatcher,
          headersTimeout: timeouts.firstByteMs,
          bodyTimeout: timeouts.idleMs,
        });
      } catch (err) {
        const refused = refusedCause(err);
        if (refused) throw refusedAddress(refused.problem);
        throw errorFromTransport(err, { signal });
      }
      const status = response.statusCode;
      if (isRedirect(status) && firstHeader(response.headers, 'location')) {
        await response.body.dump().catch(() => undefined);
        if (hop >= MAX_SERVER_REDIRECTS) throw new GatewayError({ reason: 'protocol', message: `The image address redirected more than ${MAX_SERVER_REDIRECTS} times.` });
        current = new URL(firstHeader(response.headers, 'location') as string, verdict.url).toString();
        continue;
      }
      if (status < 200 || status >= 300) {
        await response.body.dump().catch(() => undefined);
        throw new GatewayError({ reason: status === 404 ? 'not_found' : 'server', status, message: `The generated image could not be downloaded (HTTP ${status}).` });
      }
      try {
        const bytes = await readBodyBytes(response.body, { maxBytes: limit });
        return { bytes, contentType: mediaTypeOf(response.headers) };
      } catch (err) {
        throw errorFromTransport(bodyErrorToGateway(err, 'The generated image', { status }), { signal, partial: true, status });
      }
    }
  };
}
