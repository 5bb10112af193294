/**
 * Turns HTTP statuses, gateway error envelopes and transport failures into GatewayError. This is the
 * one place that knows the gateway's error contract (ai-gateway-api.md, "Errors"); everything above
 * works with `GatewayError.reason`.
 */
import { redactSecrets } from '../log';
import { GatewayError, isCertificateErrorCode, type GatewayErrorInit, type GatewayErrorReason, type PermissionDetail } from './errors';

export interface ErrorEnvelope {
  message?: string;
  type?: string;
  code?: number;
  request_id?: string;
}

/** Reads `{error: {message, type, code, request_id}}` leniently; undefined when the body is not one. */
export function parseErrorEnvelope(bodyText: string): ErrorEnvelope | undefined {
  const trimmed = bodyText.trimStart();
  if (!trimmed.startsWith('{')) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(trimmed);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const error = (parsed as { error?: unknown }).error;
  if (typeof error !== 'object' || error === null) return undefined;
  const e = error as Record<string, unknown>;
  return {
    message: typeof e.message === 'string' ? e.message : undefined,
    type: typeof e.type === 'string' ? e.type : undefined,
    code: typeof e.code === 'number' ? e.code : typeof e.code === 'string' && /^\d+$/.test(e.code) ? Number(e.code) : undefined,
    request_id: typeof e.request_id === 'string' ? e.request_id : undefined,
  };
}

const LEVEL = '(none|read|write)';
const Q = `['"\`“”‘’]?`;
const NAME = '([a-z][a-z0-9_.-]*)';
// Several phrasings are accepted because the exact wording is not part of the contract: the spec only
// says the message "names the scope, the required level and the granted level".
const SCOPE_PATTERNS: RegExp[] = [
  new RegExp(`\\bscope\\s*[:=]?\\s*${Q}${NAME}${Q}`, 'i'), // scope 'image' / scope: image / scope=chat
  new RegExp(`${Q}${NAME}${Q}\\s+scope\\b`, 'i'), // the 'chat' scope
  new RegExp(`\\b(?:access|permission)\\s+(?:to|on|for)\\s+${Q}${NAME}${Q}`, 'i'), // write access to chat
];
const REQUIRED_PATTERNS: RegExp[] = [
  new RegExp(`\\brequire[sd]?\\s*(?:level\\s*)?(?:is\\s+)?[:=]?\\s*(?:at\\s+least\\s+)?${Q}${LEVEL}${Q}`, 'i'), // requires write / required: write
  new RegExp(`\\bneeds?\\s*(?:level\\s*)?[:=]?\\s*${Q}${LEVEL}${Q}`, 'i'), // needs write
  new RegExp(`\\blacks?\\s+${Q}${LEVEL}${Q}`, 'i'), // lacks write access
  new RegExp(`${Q}${LEVEL}${Q}\\s+(?:is\\s+)?required`, 'i'), // write required
];
const GRANTED_PATTERNS: RegExp[] = [
  new RegExp(`\\b(?:granted|has|have|current|actual|got)\\s*(?:level\\s*|only\\s*)?(?:is\\s+)?[:=]?\\s*${Q}${LEVEL}${Q}`, 'i'), // key has none / granted: read / has only read
  new RegExp(`${Q}${LEVEL}${Q}\\s+(?:is\\s+)?granted`, 'i'), // read granted
];

function firstMatch(patterns: RegExp[], text: string): string | undefined {
  for (const re of patterns) {
    const m = re.exec(text);
    if (m) return m[1].toLowerCase();
  }
  return undefined;
}

/**
 * Extracts scope, required and granted levels from a 403 permission_error message, e.g.
 * "insufficient permission: scope 'image' requires write, key has none". Each part is independent:
 * whatever cannot be found is left undefined rather than guessed.
 */
export function parsePermissionMessage(message: string): PermissionDetail {
  const detail: PermissionDetail = {};
  const scope = firstMatch(SCOPE_PATTERNS, message);
  if (scope !== undefined && scope !== 'none' && scope !== 'read' && scope !== 'write') detail.scope = scope;
  const required = firstMatch(REQUIRED_PATTERNS, message);
  if (required !== undefined) detail.required = required;
  const granted = firstMatch(GRANTED_PATTERNS, message);
  if (granted !== undefined) detail.granted = granted;
  return detail;
}

/**
 * Retry-After as milliseconds: delta-seconds (decimals tolerated) or an HTTP-date relative to `nowMs`.
 * Undefined when absent or unreadable; a date in the past gives 0.
 */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (v === '') return undefined;
  if (/^\d+(?:\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  if (!/[a-z]/i.test(v)) return undefined;
  const at = Date.parse(v);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}

const STATUS_TEXT: Record<number, string> = {
  400: 'The gateway rejected the request as invalid',
  401: 'The API key is missing, invalid or revoked',
  403: 'The API key is not allowed to do this',
  404: 'Not found on the gateway',
  405: 'Method not allowed on this gateway route',
  429: 'The gateway is throttling requests; try again shortly',
  503: 'The gateway is temporarily unavailable; try again shortly',
};

function reasonFor(status: number, type: string | undefined): GatewayErrorReason {
  switch (status) {
    case 400:
      return 'invalid_request';
    case 401:
      return 'authentication';
    case 403:
      switch (type) {
        case 'entitlement_required':
          return 'entitlement_required';
        case 'account_required':
          return 'account_required';
        case 'content_policy_violation':
          return 'content_policy';
        default:
          // permission_error, and any 403 whose type we do not know: it is still a refusal of access.
          return 'permission';
      }
    case 404:
      return 'not_found';
    case 405:
      return 'method_not_allowed';
    case 429:
      return 'throttled';
    case 503:
      return 'unavailable';
    default:
      return 'server';
  }
}

export interface ResponseErrorInput {
  status: number;
  /** X-Request-ID header, when present: preferred over the envelope's request_id. */
  headerRequestId: string | undefined;
  retryAfterMs: number | undefined;
  /** The body text, or undefined when it was deliberately not read (429). */
  bodyText: string | undefined;
  /** Secrets to strip from any server-provided text, in addition to the generic patterns. */
  knownSecrets?: readonly string[];
}

/** Builds the GatewayError for a non-2xx response. */
export function errorFromResponse(input: ResponseErrorInput): GatewayError {
  const { status } = input;
  // 429 comes from the load balancer with an HTML page: never parse it (G-ERR-3).
  const envelope = status === 429 || input.bodyText === undefined ? undefined : parseErrorEnvelope(input.bodyText);
  const reason = reasonFor(status, envelope?.type);
  const serverMessage = envelope?.message ? redactSecrets(envelope.message, input.knownSecrets) : undefined;
  const message = serverMessage ?? STATUS_TEXT[status] ?? `The gateway answered with HTTP ${status}`;
  return new GatewayError({
    reason,
    message,
    status,
    type: envelope?.type,
    requestId: input.headerRequestId || envelope?.request_id || undefined,
    permission: reason === 'permission' && serverMessage !== undefined ? parsePermissionMessage(serverMessage) : undefined,
    retryAfterMs: input.retryAfterMs,
    envelope: envelope !== undefined,
  });
}

/**
 * Transport failures that prove the request never left this machine, so no server can have acted on
 * it: nobody accepted the connection, the name did not resolve, the connect (TCP + TLS handshake)
 * timed out, or TLS failed during the handshake, before any byte of the request was written. Every
 * other failure without a response (a reset, "other side closed", a socket error after the body was
 * written) is ambiguous: the server may have read the whole request.
 */
const NOT_SENT_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_NODATA',
  'EAI_NONAME',
  'EAI_FAIL',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'ERR_SSL_WRONG_VERSION_NUMBER',
  'ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION',
  'ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE',
  'ERR_TLS_HANDSHAKE_TIMEOUT',
]);

/** True when the transport error code proves the request was never written to a socket. */
export function isNotSentCode(code: string | undefined): boolean {
  return code !== undefined && (NOT_SENT_CODES.has(code) || isCertificateErrorCode(code));
}

interface ErrorWithCode {
  code?: unknown;
  message?: unknown;
  cause?: unknown;
}

function codeOf(err: unknown): string | undefined {
  let e: unknown = err;
  // undici wraps some failures (fetch) in a TypeError whose cause carries the code.
  for (let depth = 0; depth < 3 && typeof e === 'object' && e !== null; depth++) {
    const code = (e as ErrorWithCode).code;
    if (typeof code === 'string') return code;
    e = (e as ErrorWithCode).cause;
  }
  return undefined;
}

export interface TransportErrorContext {
  /** The caller's signal: when it fired, any failure is an abort. */
  signal?: AbortSignal;
  requestId?: string;
  partial?: boolean;
  status?: number;
}

/**
 * Classifies a failure thrown by undici (or by reading a body). Aborts win over anything else, so
 * a cancel never shows up as a network error.
 */
export function errorFromTransport(err: unknown, ctx: TransportErrorContext = {}): GatewayError {
  if (err instanceof GatewayError) return err;
  const base: Pick<GatewayErrorInit, 'requestId' | 'partial' | 'status' | 'cause' | 'mayHaveReachedServer'> = { requestId: ctx.requestId, partial: ctx.partial, status: ctx.status, cause: err };
  if (ctx.signal?.aborted) {
    return new GatewayError({ ...base, reason: 'aborted', message: 'The request was cancelled' });
  }
  const code = codeOf(err);
  base.mayHaveReachedServer = ctx.partial || ctx.status !== undefined ? true : !isNotSentCode(code);
  if (isCertificateErrorCode(code)) {
    return new GatewayError({
      ...base,
      code,
      reason: 'network',
      message: `The gateway's TLS certificate was not accepted (${code}). Behind a proxy that re-signs traffic, trust its certificate or turn off http.proxyStrictSSL.`,
    });
  }
  switch (code) {
    case 'UND_ERR_CONNECT_TIMEOUT':
      return new GatewayError({ ...base, reason: 'timeout', timeoutPhase: 'connect', message: 'Timed out connecting to the gateway' });
    case 'UND_ERR_HEADERS_TIMEOUT':
      return new GatewayError({ ...base, reason: 'timeout', timeoutPhase: 'firstByte', message: 'The gateway did not start answering in time' });
    case 'UND_ERR_BODY_TIMEOUT':
      return new GatewayError({ ...base, reason: 'timeout', timeoutPhase: 'idle', message: 'The gateway stopped sending data (idle timeout)' });
    case 'UND_ERR_ABORTED':
    case 'ABORT_ERR':
      return new GatewayError({ ...base, reason: 'aborted', message: 'The request was cancelled' });
    default: {
      const name = err instanceof Error ? err.name : '';
      if (name === 'AbortError') return new GatewayError({ ...base, reason: 'aborted', message: 'The request was cancelled' });
      const detail = code ? ` (${code})` : '';
      const message = ctx.partial
        ? `The connection to the gateway broke during the response${detail}`
        : base.mayHaveReachedServer
          ? `The connection to the gateway broke before the response${detail}`
          : `Could not reach the gateway${detail}`;
      return new GatewayError({ ...base, code, reason: 'network', message });
    }
  }
}
