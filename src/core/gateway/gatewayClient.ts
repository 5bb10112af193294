/**
 * The one shared gateway client (IGatewayClient), on undici.
 *
 * Invariants:
 * - The key is fetched per call through `getKey()` and goes only into the Authorization header of
 *   authenticated routes on the configured base URL. Catalog routes carry no Authorization header at
 *   all (G-AUTH-1). Paths are always relative, so a key can never be sent to another host.
 * - Every failure is a GatewayError; the request id is kept whenever the server sent one.
 * - Retries happen only before a response body is consumed (see http/retry.ts); a started stream is
 *   never retried.
 * - One log line per call (method, path, status, duration, request id), passed through redactSecrets.
 */
import type { Dispatcher } from 'undici';
import { redactSecrets, nullLogger, type Logger } from '../log';
import { errorFromResponse, errorFromTransport, parseRetryAfter } from '../http/classify';
import type { Env, NetworkSettings, TimeoutSettings } from '../http/dispatcher';
import { GatewayError, NO_API_KEY_CODE } from '../http/errors';
import { isInsecureCredentialTarget, Network, readTextLimited, readTextPrefix, type SizeLimits } from '../http/network';
import { systemClock, withRetry, type Clock, type RetrySettings } from '../http/retry';
import type { CallOptions, ChatStream, IGatewayClient, JsonResponse } from './api';
import { chatCodec, readEventStream, streamEventError, type EventCodec } from './sse';
import { readChatUsage } from './usage';
import {
  completionFromMessage,
  isMessagesResponse,
  messagesAsChatCodec,
  messagesCodec,
  MESSAGES_PATH,
  toMessagesRequest,
  type MessagesRequest,
  type MessagesResponse,
  type MessagesStreamEvent,
} from './messagesWire';
import { joinUrl } from './joinUrl';

export { joinUrl };
import type { ChatCompletion, ChatCompletionRequest, ModelCatalog } from './types';

type ValueOrGetter<T> = T | (() => T);

export interface GatewayClientOptions {
  /** A getter is read on every call, so a settings change applies to the next request. */
  baseUrl: ValueOrGetter<string>;
  /** The bearer token for authenticated routes; undefined means "no key set". */
  getKey: () => Promise<string | undefined>;
  /**
   * The shared network layer (pool, proxy, timeouts, retry policy, user agent, size limits, plain-http
   * credential check). When given, the options below marked "without `net`" are ignored.
   */
  net?: Network;
  /** Without `net`: e.g. "ai-gateway-vscode/0.1.0" */
  userAgent?: string;
  logger?: Logger;
  /** Without `net`: timeouts, read per call. */
  timeouts?: ValueOrGetter<Partial<TimeoutSettings>>;
  /** Without `net`: the retry policy. */
  retry?: Partial<RetrySettings>;
  /** Without `net`: proxy settings (`http.proxy`, `http.noProxy`, `http.proxyStrictSSL`); read per call, dispatcher rebuilt on change. */
  network?: ValueOrGetter<NetworkSettings>;
  /** Without `net`: environment for HTTP(S)_PROXY / NO_PROXY; defaults to process.env. */
  env?: Env;
  /** Without `net`: size limits. */
  limits?: Partial<SizeLimits>;
  /** Without `net`: asked before the key goes over http:// to a non-loopback host (absent: refuse). */
  confirmInsecureCredential?: (url: URL) => Promise<boolean>;
  /** Injectable time and randomness (tests). */
  clock?: Clock;
}

/** A started stream of the messages route's own events (messagesWire.ts). */
export interface MessagesStream extends AsyncIterable<MessagesStreamEvent> {
  readonly requestId: string | undefined;
}

export interface GatewayClient extends IGatewayClient {
  /**
   * POST /v1/messages without streaming, in the route's own form. Same network layer, errors, size
   * limits and retry rules as chat completions: a billed POST is re-sent only when it provably never
   * reached the server.
   */
  createMessage(request: MessagesRequest, options?: CallOptions): Promise<JsonResponse<MessagesResponse>>;
  /**
   * POST /v1/messages with stream: true. Resolves once headers arrived; iterating yields the route's
   * events and ends at message_stop; never retried once started; breaking out or aborting closes it.
   */
  streamMessages(request: MessagesRequest, options?: CallOptions): Promise<MessagesStream>;
  /** Closes the connection pool. In-flight requests fail. */
  dispose(): Promise<void>;
}

export function createGatewayClient(options: GatewayClientOptions): GatewayClient {
  return new UndiciGatewayClient(options);
}

interface Exchange {
  method: 'GET' | 'POST';
  path: string;
  auth: boolean;
  body?: string;
  accept: string;
}

interface Opened {
  response: Dispatcher.ResponseData;
  requestId: string | undefined;
  attempts: number;
  started: number;
  timeouts: TimeoutSettings;
  key: string | undefined;
}

/** Where a call goes: the configured base and the route, joined; origin and path as undici takes them. */
interface Target {
  base: string;
  relative: string;
  url: URL;
  origin: string;
  path: string;
}

function resolve<T>(v: ValueOrGetter<T> | undefined): T | undefined {
  return typeof v === 'function' ? (v as () => T)() : v;
}

function header(headers: Dispatcher.ResponseData['headers'], name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

const MODEL_ID = /^([^/\s]+)\/([^/\s]+)$/;

class UndiciGatewayClient implements GatewayClient {
  private readonly log: Logger;
  private readonly clock: Clock;
  private readonly net: Network;
  private readonly ownsNet: boolean;
  private lastTarget: Target | undefined;

  constructor(private readonly options: GatewayClientOptions) {
    this.log = options.logger ?? nullLogger;
    this.clock = options.clock ?? systemClock;
    this.ownsNet = options.net === undefined;
    this.net =
      options.net ??
      new Network({
        settings: () => resolve(options.network) ?? {},
        timeouts: () => resolve(options.timeouts) ?? {},
        retry: () => options.retry ?? {},
        userAgent: options.userAgent,
        env: options.env,
        limits: options.limits,
        confirmInsecureCredential: options.confirmInsecureCredential,
      });
  }

  /** Closes the pool when this client built its own; a shared Network is closed by its owner. */
  get limits(): SizeLimits {
    return this.net.limits;
  }

  dispose(): Promise<void> {
    return this.ownsNet ? this.net.dispose() : Promise.resolve();
  }

  listModels(options?: CallOptions): Promise<JsonResponse<ModelCatalog>> {
    return this.json<ModelCatalog>({ method: 'GET', path: '/v1/models', auth: false, accept: 'application/json' }, options, (d) => {
      const c = d as Partial<ModelCatalog> | null;
      return typeof c === 'object' && c !== null && Array.isArray(c.data);
    });
  }

  getModelSchema(modelId: string, options?: CallOptions): Promise<JsonResponse<unknown>> {
    const m = MODEL_ID.exec(modelId);
    if (!m) {
      return Promise.reject(new GatewayError({ reason: 'invalid_request', message: `Not a model id of the form owner/model: ${modelId}` }));
    }
    const path = `/v1/models/${encodeURIComponent(m[1])}/${encodeURIComponent(m[2])}/schema`;
    return this.json<unknown>({ method: 'GET', path, auth: false, accept: 'application/json' }, options);
  }

  createChatCompletion(req: ChatCompletionRequest, options?: CallOptions): Promise<JsonResponse<ChatCompletion>> {
    const route = options?.route;
    if (route?.kind === 'messages') {
      const created = Math.floor(this.clock.now() / 1000);
      return this.createMessage(toMessagesRequest(req, route.maxTokens, false), options).then((r) => ({ ...r, data: completionFromMessage(r.data, created) }));
    }
    const body = JSON.stringify({ ...req, stream: false });
    return this.json<ChatCompletion>({ method: 'POST', path: '/v1/chat/completions', auth: true, body, accept: 'application/json' }, options, (d) => {
      const c = d as Partial<ChatCompletion> | null;
      return typeof c === 'object' && c !== null && Array.isArray(c.choices);
    }).then((r) => {
      // The usage object is read into the internal form here, once (gateway/usage.ts).
      const data = r.data as ChatCompletion & { usage?: unknown };
      if (data.usage !== undefined) {
        const usage = readChatUsage(data.usage);
        if (usage) data.usage = usage;
        else delete data.usage;
      }
      return r;
    });
  }

  async streamChatCompletion(req: ChatCompletionRequest, options?: CallOptions): Promise<ChatStream> {
    const route = options?.route;
    if (route?.kind === 'messages') {
      const created = Math.floor(this.clock.now() / 1000);
      const body = JSON.stringify(toMessagesRequest(req, route.maxTokens, true));
      return this.stream({ method: 'POST', path: MESSAGES_PATH, auth: true, body, accept: 'text/event-stream' }, options, (id) => messagesAsChatCodec(id, created, streamEventError));
    }
    const body = JSON.stringify({ ...req, stream: true });
    return this.stream({ method: 'POST', path: '/v1/chat/completions', auth: true, body, accept: 'text/event-stream' }, options, chatCodec);
  }

  createMessage(req: MessagesRequest, options?: CallOptions): Promise<JsonResponse<MessagesResponse>> {
    const body = JSON.stringify({ ...req, stream: false });
    return this.json<MessagesResponse>({ method: 'POST', path: MESSAGES_PATH, auth: true, body, accept: 'application/json' }, options, isMessagesResponse);
  }

  streamMessages(req: MessagesRequest, options?: CallOptions): Promise<MessagesStream> {
    const body = JSON.stringify({ ...req, stream: true });
    return this.stream({ method: 'POST', path: MESSAGES_PATH, auth: true, body, accept: 'text/event-stream' }, options, (id) => messagesCodec(id, streamEventError));
  }

  private async stream<T>(ex: Exchange, options: CallOptions | undefined, codec: (requestId: string | undefined) => EventCodec<T>): Promise<AsyncIterable<T> & { readonly requestId: string | undefined }> {
    const opened = await this.open(ex, options);
    const contentType = header(opened.response.headers, 'content-type') ?? '';
    if (!contentType.includes('text/event-stream')) {
      await opened.response.body.dump().catch(() => undefined);
      const error = new GatewayError({
        reason: 'protocol',
        message: `Expected an event stream from the gateway, got ${contentType || 'no content type'}`,
        status: opened.response.statusCode,
        requestId: opened.requestId,
      });
      this.logCall(ex, opened, error);
      throw error;
    }
    return new UndiciEventStream(this, ex, opened, options?.signal, codec(opened.requestId));
  }

  async postJson<T>(path: string, body: unknown, options?: CallOptions & { accept?: string }): Promise<JsonResponse<T>> {
    return this.json<T>({ method: 'POST', path: checkPath(path), auth: true, body: JSON.stringify(body), accept: options?.accept ?? 'application/json' }, options);
  }

  async getJson<T>(path: string, options?: CallOptions & { query?: Record<string, string | undefined> }): Promise<JsonResponse<T>> {
    let full = checkPath(path);
    if (options?.query) {
      const params = new URLSearchParams();
      for (const [k, v] of Object.entries(options.query)) if (v !== undefined) params.append(k, v);
      const qs = params.toString();
      if (qs) full += (full.includes('?') ? '&' : '?') + qs;
    }
    return this.json<T>({ method: 'GET', path: full, auth: true, accept: 'application/json' }, options);
  }

  private async json<T>(ex: Exchange, options: CallOptions | undefined, isValid?: (data: unknown) => boolean): Promise<JsonResponse<T>> {
    const opened = await this.open(ex, options);
    const { response, requestId } = opened;
    let text: string;
    try {
      text = await readTextLimited(response.body, this.net.limits.maxJsonBytes, "The gateway's response", { requestId, status: response.statusCode });
    } catch (err) {
      const error = errorFromTransport(err, { signal: options?.signal, requestId, status: response.statusCode, partial: true });
      this.logCall(ex, opened, error);
      throw error;
    }
    let data: unknown;
    try {
      data = text === '' ? undefined : JSON.parse(text);
    } catch (cause) {
      data = cause;
    }
    if (data instanceof Error || (isValid !== undefined && !isValid(data))) {
      const error = new GatewayError({ reason: 'protocol', message: 'The gateway sent a response that is not the expected JSON', status: response.statusCode, requestId, cause: data instanceof Error ? data : undefined });
      this.logCall(ex, opened, error);
      throw error;
    }
    this.logCall(ex, opened);
    return { data: data as T, status: response.statusCode, requestId };
  }

  /**
   * Sends the request, retrying per policy, until a 2xx response's headers arrived. Non-2xx
   * responses are consumed and thrown as GatewayError. The returned body is unread.
   */
  private async open(ex: Exchange, options: CallOptions | undefined): Promise<Opened> {
    const signal = options?.signal;
    const started = this.clock.now();
    const timeouts: TimeoutSettings = this.net.timeouts();
    const retry: RetrySettings = this.net.retry();
    let key: string | undefined;
    let attempt = 0;
    const fail = (error: GatewayError): never => {
      this.logCall(ex, { started, attempts: attempt, requestId: error.requestId, key, status: error.status }, error);
      throw error;
    };

    let target: Target;
    try {
      target = this.target(resolve(this.options.baseUrl) ?? '', ex.path);
    } catch (cause) {
      return fail(new GatewayError({ reason: 'invalid_request', message: `The gateway address is not a valid http(s) URL (setting aiGateway.baseUrl)`, cause }));
    }
    const url = target.url;
    if (signal?.aborted) return fail(new GatewayError({ reason: 'aborted', message: 'The request was cancelled', mayHaveReachedServer: false }));

    const headers: Record<string, string> = { 'user-agent': this.net.userAgent, accept: ex.accept };
    if (ex.body !== undefined) headers['content-type'] = 'application/json';
    if (ex.auth) {
      try {
        key = await this.options.getKey();
      } catch (cause) {
        return fail(new GatewayError({ reason: 'authentication', message: 'The API key could not be read from secret storage', cause }));
      }
      if (!key) return fail(new GatewayError({ reason: 'authentication', message: 'No API key is set', code: NO_API_KEY_CODE, mayHaveReachedServer: false }));
      // Only a plain-http, non-loopback target needs the (async) consent check; skipping the call
      // otherwise saves the request an await before it is written.
      if (isInsecureCredentialTarget(url)) {
        try {
          await this.net.checkCredentialTarget(url);
        } catch (cause) {
          return fail(errorFromTransport(cause, {}));
        }
      }
      headers.authorization = `Bearer ${key}`;
    }
    const dispatcher = this.net.dispatcher(timeouts.connectMs);

    // A POST whose connection broke after it was written is never re-sent: the gateway may have read
    // it and started (and billed) the work. Only an idempotent GET may be retried after that.
    const policy = { settings: retry, clock: this.clock, signal, idempotent: ex.method === 'GET', started, onRetry: options?.onRetry };
    try {
      return await withRetry(policy, async (n) => {
        attempt = n;
        let error: GatewayError;
        try {
          // dispatcher.request with origin and path: what undici's request(url, ...) does, minus its
          // per-call URL handling (a measurable share of the time to first token).
          const response = await dispatcher.request({
            origin: target.origin,
            path: target.path,
            method: ex.method,
            headers,
            body: ex.body,
            signal,
            headersTimeout: timeouts.firstByteMs,
            bodyTimeout: timeouts.idleMs,
          });
          const requestId = header(response.headers, 'x-request-id');
          if (response.statusCode >= 200 && response.statusCode < 300) {
            return { response, requestId, attempts: n, started, timeouts, key };
          }
          error = await this.errorFrom(response, requestId, key, signal);
        } catch (err) {
          error = errorFromTransport(err, { signal });
        }
        throw error;
      });
    } catch (e) {
      return fail(e as GatewayError);
    }
  }

  /** joinUrl, remembering the last result: the same base and path give the same (never mutated) target. */
  private target(base: string, path: string): Target {
    const last = this.lastTarget;
    if (last !== undefined && last.base === base && last.relative === path) return last;
    const url = joinUrl(base, path);
    const target: Target = { base, relative: path, url, origin: url.origin, path: url.search ? `${url.pathname}${url.search}` : url.pathname };
    this.lastTarget = target;
    return target;
  }

  private async errorFrom(response: Dispatcher.ResponseData, requestId: string | undefined, key: string | undefined, signal: AbortSignal | undefined): Promise<GatewayError> {
    const status = response.statusCode;
    const retryAfterMs = parseRetryAfter(header(response.headers, 'retry-after'), this.clock.now());
    let bodyText: string | undefined;
    try {
      if (status === 429) {
        // The load balancer's HTML page: drained, never read as JSON (G-ERR-3).
        await response.body.dump();
      } else {
        bodyText = await readTextPrefix(response.body, this.net.limits.maxErrorBodyBytes);
      }
    } catch (err) {
      if (signal?.aborted) return errorFromTransport(err, { signal, requestId, status });
      // The status is known; a body we could not read just means no envelope.
      bodyText = undefined;
    }
    return errorFromResponse({ status, headerRequestId: requestId, retryAfterMs, bodyText, maxBodyChars: this.net.limits.maxErrorBodyBytes, knownSecrets: key ? [key] : [] });
  }

  /** The single log line of a call. Never includes headers or bodies. */
  logCall(
    ex: Exchange,
    call: { started: number; attempts: number; requestId: string | undefined; key: string | undefined; status?: number; response?: Dispatcher.ResponseData },
    error?: GatewayError,
    extra = '',
    warn = false,
  ): void {
    const ms = Math.max(0, Math.round(this.clock.now() - call.started));
    const status = call.response?.statusCode ?? error?.status;
    const outcome = error ? `${status ?? '-'} ${error.reason}${error.timeoutPhase ? `/${error.timeoutPhase}` : ''}` : String(status ?? '-');
    const retries = call.attempts > 1 ? ` attempts=${call.attempts}` : '';
    const line = `${ex.method} ${ex.path} ${outcome} ${ms}ms${extra} request_id=${error?.requestId ?? call.requestId ?? '-'}${retries}`;
    const safe = redactSecrets(line, call.key ? [call.key] : []);
    if (!error) {
      if (warn) this.log.warn(safe);
      else this.log.info(safe);
    }
    else if (error.reason === 'aborted') this.log.info(safe);
    else this.log.warn(safe);
  }
}

/**
 * A started stream. Iterating reads the body once; breaking out of the loop (or aborting the signal)
 * destroys the socket, so the gateway sees the client go away. The iterator is the SSE reader itself,
 * with no wrapper generator, to keep the per-chunk cost at one await.
 */
class UndiciEventStream<T> implements AsyncIterable<T> {
  readonly requestId: string | undefined;
  private consumed = false;

  constructor(
    private readonly client: UndiciGatewayClient,
    private readonly ex: Exchange,
    private readonly opened: Opened,
    private readonly signal: AbortSignal | undefined,
    private readonly codec: EventCodec<T>,
  ) {
    this.requestId = opened.requestId;
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    const { response, requestId } = this.opened;
    if (this.consumed) {
      return failingIterator(new GatewayError({ reason: 'protocol', message: 'A chat stream can only be read once', requestId }));
    }
    this.consumed = true;
    return readEventStream(response.body, this.codec, {
      requestId,
      maxEventChars: this.client.limits.maxEventChars,
      mapError: (err) => errorFromTransport(err, { signal: this.signal, requestId, status: response.statusCode, partial: true }),
      onEnd: (error, chunks, complete) => {
        // Early exit by the consumer: release the socket now rather than when the body is collected.
        if (!response.body.readableEnded) response.body.destroy();
        // A consumer that stopped reading (or threw) before the end event is not a success.
        const extra = complete || error ? ` stream chunks=${chunks}` : ` stream chunks=${chunks} stopped-early`;
        this.client.logCall(this.ex, this.opened, error, extra, !complete && !error);
      },
    });
  }
}

function failingIterator<T>(error: GatewayError): AsyncIterator<T> {
  return { next: () => Promise.reject(error) };
}

function checkPath(path: string): string {
  // Relative paths only: the bearer token must never be sent anywhere but the configured gateway.
  if (!path.startsWith('/') || path.startsWith('//')) {
    throw new GatewayError({ reason: 'invalid_request', message: `Gateway paths must start with a single '/': ${path}` });
  }
  return path;
}
