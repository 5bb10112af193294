/**
 * The plug-in contract of the local gateway. Route modules (test/localGateway/modules.ts) receive a
 * GatewayContext and register handlers; everything a handler needs (auth, the error envelope, the
 * catalog, fault injection, the event log) comes through here, so modules never import the server.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Model } from './wire';

export type Scope = 'chat' | 'image' | 'speech' | 'transcribe' | 'collections' | 'documents' | 'search' | 'agents' | 'session_events' | 'mcp';
export type Level = 'none' | 'read' | 'write';

export const SCOPES: readonly Scope[] = ['chat', 'image', 'speech', 'transcribe', 'collections', 'documents', 'search', 'agents', 'session_events', 'mcp'];

export interface KeyRecord {
  secret: string;
  name: string;
  type: 'user' | 'account';
  permission: 'full' | 'read_only' | 'restricted';
  scopes: Record<Scope, Level>;
  revoked: boolean;
}

export type Req = IncomingMessage;
export type Res = ServerResponse;

/** One entry of the gateway's event log. `type` names what happened; the rest is per type. */
export interface GatewayEvent {
  type: string;
  /** Milliseconds since the epoch (real clock, not options.now). */
  at: number;
  [field: string]: unknown;
}

/**
 * Event types the gateway itself pushes:
 * - `request`: every finished request (method, path, status, requestId, keyName, authorization:
 *   'bearer' | 'other' | 'none', userAgent). Never the secret.
 * - `chat-request`: the parsed chat body (model, stream, temperature, hasTemperature, messages count).
 * - `chat-stream`: a stream starts (requestId, model, chunkSize, chunkDelayMs, fault).
 * - `client-closed-stream`: the client went away before a stream finished (requestId, path, chunksSent).
 * - `client-closed-request`: the same for a non-streamed request still being answered (stall).
 * - `fault`: a fault fired (kind, path, requestId).
 */
export interface GatewayEventLog {
  push(event: { type: string; [field: string]: unknown }): void;
  list(type?: string): GatewayEvent[];
  clear(): void;
  /**
   * Resolves with the first event (already logged or future) of that type matching `predicate`.
   * Rejects after `timeoutMs` (default 5000) so a broken test fails instead of hanging.
   */
  waitFor(type: string, predicate?: (event: GatewayEvent) => boolean, timeoutMs?: number): Promise<GatewayEvent>;
}

/**
 * Fault kinds:
 * - `throttled`: 429 with an HTML body (text/html), like the load balancer (G-ERR-3). Fires before auth.
 * - `unavailable`: 503 envelope, type `service_unavailable`; with `retryAfter` a Retry-After header (G-ERR-4).
 * - `unavailable_html`: 503 with an HTML page (text/html) and no envelope, like a load balancer's own
 *   error page (the spec does not show 5xx bodies); with `retryAfter` a Retry-After header.
 * - `server_error`: 500 envelope.
 *   (the four above fire at the edge, before routing and authentication)
 * - `entitlement_unavailable`: 503 envelope type `entitlement_unavailable` (optional Retry-After).
 * - `entitlement_required`, `account_required`: 403 envelopes (G-AUTH-10).
 *   (these three fire right after a key authenticated, inside ctx.authenticate / ctx.authorize)
 * - `disconnect`: the socket is destroyed after `afterChunks` stream chunks (before any byte when the
 *   response is not streamed).
 * - `stall`: after `afterChunks` chunks nothing more is sent until the client leaves or the gateway
 *   closes (or `stallMs` passes, when options.stallMs > 0).
 *   (these two are consumed by handlers that stream: chat completions; other modules may opt in)
 *
 * Wire faults, applied by the server to ANY route (faults.ts, applyWireFault), without the route
 * module's help; they fire after the edge faults and before routing:
 * - `reset_before_headers`: the socket is destroyed as soon as the request line and headers arrived
 *   (the body is not read, the handler never runs).
 * - `reset_after_body`: the whole request body is read, then the socket is destroyed (the handler
 *   never runs): the client cannot know whether the request was acted on.
 * - `stall_before_headers`: the body is read, then nothing is sent (not even headers) until the client
 *   leaves, options.stallMs passes or the gateway closes; then the socket is destroyed.
 * The others wrap the response writer and let the handler run, changing what it writes:
 * - `stall_mid_body`: after `afterChunks` SSE events (or, for any other body, half of it) nothing more
 *   is sent, as for `stall_before_headers`.
 * - `malformed_json`: a JSON body is cut in half; in an event stream, the first `data:` event's JSON is.
 * - `truncated_event`: event streams only: event number `afterChunks` (or the last one, if fewer) is
 *   cut in half, and the response then ends cleanly.
 * - `no_done`: event streams only: the end event (`data: [DONE]`, or the messages route's `event: message_stop`) is dropped and the response ends cleanly.
 * - `invalid_utf8`: the bytes C3 28 FF (not UTF-8) are put inside the first JSON string of the body
 *   (for an event stream, of event number `afterChunks`, or the last one).
 * - `oversized_event`: event streams: before event number `afterChunks` (or the last one), one event of
 *   `bytes` bytes (default 16 MiB + 1) without a newline in its data; JSON bodies: the body is wrapped
 *   as {"pad":"<bytes>","body":<original>}. Written in slices with back-pressure.
 * Bodies without a Content-Type of JSON or event stream pass unchanged for the content faults.
 */
export type FaultKind =
  | 'throttled'
  | 'unavailable'
  | 'unavailable_html'
  | 'server_error'
  | 'entitlement_unavailable'
  | 'entitlement_required'
  | 'account_required'
  | 'disconnect'
  | 'stall'
  | WireFaultKind;

export type WireFaultKind =
  | 'reset_before_headers'
  | 'reset_after_body'
  | 'stall_before_headers'
  | 'stall_mid_body'
  | 'malformed_json'
  | 'truncated_event'
  | 'no_done'
  | 'invalid_utf8'
  | 'oversized_event';

export const WIRE_FAULT_KINDS: readonly WireFaultKind[] = [
  'reset_before_headers',
  'reset_after_body',
  'stall_before_headers',
  'stall_mid_body',
  'malformed_json',
  'truncated_event',
  'no_done',
  'invalid_utf8',
  'oversized_event',
];

export const FAULT_KINDS: readonly FaultKind[] = [
  'throttled',
  'unavailable',
  'unavailable_html',
  'server_error',
  'entitlement_unavailable',
  'entitlement_required',
  'account_required',
  'disconnect',
  'stall',
  ...WIRE_FAULT_KINDS,
];

export interface FaultSpec {
  kind: FaultKind;
  /**
   * Which requests: an exact path ('/v1/models'), a prefix ending in '*' ('/v1/kb/*'), or '*' (every
   * /v1 path; the default). Query strings are ignored.
   */
  route?: string;
  /** Upper-case method, or undefined for any. */
  method?: string;
  /** How many matching requests it applies to (default 1). Use Infinity for "until cleared". */
  count?: number;
  /** Seconds for a Retry-After header (503 kinds only). Omitted: no header. */
  retryAfter?: number;
  /** Stream chunks sent before a disconnect or stall (default options.faultAfterChunks). */
  afterChunks?: number;
  /** Size of the injected event or padding for `oversized_event` (default 16 MiB + 1). */
  bytes?: number;
}

export interface ActiveFault extends Required<Pick<FaultSpec, 'kind' | 'route' | 'count'>> {
  id: number;
  method?: string;
  retryAfter?: number;
  afterChunks?: number;
  bytes?: number;
  /** How many times it fired so far. */
  fired: number;
}

export interface FaultController {
  /** Arms a fault for the next `count` matching requests; returns its id. */
  add(spec: FaultSpec): number;
  /** Disarms every fault. */
  clear(): void;
  list(): ActiveFault[];
  /**
   * Consumes one firing of the first armed fault of one of `kinds` matching the request, or returns
   * undefined. Handlers that stream call it with ['disconnect', 'stall'].
   */
  take(req: Req, kinds: readonly FaultKind[]): ActiveFault | undefined;
}

export interface GatewayOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0 (ephemeral). */
  port?: number;
  /** The gateway's clock; catalog dates are computed from it. */
  now?: () => Date;
  /** Characters (code points) of content per stream chunk. Default 12. */
  chunkSize?: number;
  /** Delay between stream chunks. Default 0. */
  chunkDelayMs?: number;
  /** Delay between chunks for requests carrying the `[[slow]]` marker. Default 200. */
  slowChunkDelayMs?: number;
  /** Chunks sent before a disconnect or stall fault cuts in. Default 2. */
  faultAfterChunks?: number;
  /** How long a stall lasts; 0 (default) means until the client leaves or the gateway closes. */
  stallMs?: number;
  /** Serve the alternative rate card (different pricing_version and some rates). Default false. */
  repriced?: boolean;
  /** pricing_version of the base rate card. The repriced card is `${pricingVersion}-r2`. */
  pricingVersion?: string;
  /** Enables the `[[moderate]]` trigger. Default true. */
  moderation?: boolean;
  /**
   * X-Request-ID style: 'trace' (32 hex chars, as behind the load balancer), 'uuid', or 'alternate'
   * (default: odd requests trace, even requests UUID, so clients see both shapes; G-ERR-2).
   */
  requestIdStyle?: 'uuid' | 'trace' | 'alternate';
  /**
   * Models appended to the catalog as given (no date or pricing processing), e.g. an unknown provider
   * or capability for client tests (G-CAT-2, G-CAT-3). Default none.
   */
  extraModels?: Model[];
  /** Extra keys on top of LOCAL_KEYS. */
  keys?: KeyRecord[];
  /** Route modules; default ROUTE_MODULES from modules.ts. */
  modules?: RouteModule[];
  /** Print one line per request (used by `npm run gateway`). */
  logRequests?: boolean;
  /**
   * Listen over HTTPS with this key and certificate (PEM) instead of plain HTTP; the url then starts
   * with https://. Default null (HTTP). The TLS tests sign the certificate with a CA made at test time.
   */
  tls?: { key: string | Buffer; cert: string | Buffer } | null;
}

/** Thrown by readJson and handlers; the router turns it into the error envelope. */
export class GatewayHttpError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'GatewayHttpError';
  }
}

export interface GatewayContext {
  /**
   * Authenticates and checks `scope` at `level` (write implies read). On failure it has already
   * written the 401/403 envelope and returns undefined: the handler just returns.
   */
  authorize(req: Req, res: Res, scope: Scope, level: 'read' | 'write'): KeyRecord | undefined;
  /** Authenticates only (401 on failure, already written). */
  authenticate(req: Req, res: Res): KeyRecord | undefined;
  sendJson(res: Res, status: number, body: unknown, headers?: Record<string, string>): void;
  /** Writes {error:{message,type,code,request_id}} with code = status and request_id = X-Request-ID. */
  sendError(res: Res, status: number, type: string, message: string, headers?: Record<string, string>): void;
  readBody(req: Req): Promise<Buffer>;
  /** Parses the body; a malformed body throws GatewayHttpError 400 invalid_request_error. */
  readJson(req: Req): Promise<unknown>;
  /** The X-Request-ID already set on this response. */
  requestId(res: Res): string;
  /** The catalog as served now (dates relative to options.now, current rate card). */
  models(): Model[];
  events: GatewayEventLog;
  faults: FaultController;
  /** Live configuration; /__control/config and RunningGateway.configure change it. */
  options: Required<GatewayOptions>;
  /** Sleeps, but resolves early when the gateway closes (so streams and stalls never outlive it). */
  sleep(ms: number): Promise<void>;
  /** Aborted when the gateway closes. */
  closing: AbortSignal;
}

export type Handler = (req: Req, res: Res, ctx: GatewayContext, params: Record<string, string>) => void | Promise<void>;
export type RouteFn = (method: string, pattern: string, handler: Handler) => void;

export interface RouteModule {
  name: string;
  register(route: RouteFn, ctx: GatewayContext): void;
}
