/**
 * One typed error for everything the gateway client can fail with. Errors are classified once, here
 * and in the client; they are turned into words only at the edge (src/core/errorText.ts `describeError`).
 * The fields shared with the MCP and hosting errors live on the base, src/core/appError.ts.
 */
import { AppError, isAppErrorOf } from '../appError';

export type GatewayErrorReason =
  | 'authentication' // 401: missing, invalid or revoked key
  | 'permission' // 403 permission_error: scope level missing
  | 'entitlement_required' // 403
  | 'account_required' // 403
  | 'content_policy' // 403 content_policy_violation
  | 'throttled' // 429 (HTML body, never parsed)
  | 'unavailable' // 503, including entitlement_unavailable
  | 'invalid_request' // 400
  | 'not_found' // 404
  | 'method_not_allowed' // 405
  | 'server' // other 5xx and unexpected statuses
  | 'network' // connection failed / reset
  | 'timeout' // connect, first byte or idle timeout
  | 'aborted' // the caller's AbortSignal fired
  | 'protocol'; // the response could not be understood (malformed JSON or stream)

export type ScopeLevel = 'none' | 'read' | 'write';

export interface PermissionDetail {
  scope?: string;
  required?: ScopeLevel | string;
  granted?: ScopeLevel | string;
}

export interface GatewayErrorInit {
  reason: GatewayErrorReason;
  message: string;
  status?: number;
  /** error.type from the envelope, verbatim. */
  type?: string;
  requestId?: string;
  permission?: PermissionDetail;
  /** Milliseconds the server asked us to wait (Retry-After), when it did. */
  retryAfterMs?: number;
  /** Which timeout fired, for reason 'timeout'. */
  timeoutPhase?: 'connect' | 'firstByte' | 'idle' | 'total';
  /** True when part of a streamed response had already arrived. */
  partial?: boolean;
  /** Transport error code for reason 'network' / 'timeout' (e.g. ECONNREFUSED, DEPTH_ZERO_SELF_SIGNED_CERT). */
  code?: string;
  /**
   * Whether the server may have received (and acted on, and billed) the request. Computed from the
   * other fields when absent; see GatewayError.mayHaveReachedServer.
   */
  mayHaveReachedServer?: boolean;
  /** True when a non-2xx body carried the gateway's documented error envelope `{error: {...}}`. */
  envelope?: boolean;
  cause?: unknown;
}

/**
 * TLS certificate verification failures: not transient, so never retried, and worth telling apart
 * (a corporate proxy re-signing traffic is the usual cause; see http.proxyStrictSSL).
 */
export function isCertificateErrorCode(code: string | undefined): boolean {
  return (
    code !== undefined &&
    (code.startsWith('CERT_') ||
      code.startsWith('ERR_TLS_CERT') ||
      code === 'DEPTH_ZERO_SELF_SIGNED_CERT' ||
      code === 'SELF_SIGNED_CERT_IN_CHAIN' ||
      code === 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' ||
      code === 'UNABLE_TO_GET_ISSUER_CERT' ||
      code === 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY' ||
      code === 'HOSTNAME_MISMATCH')
  );
}

/** `GatewayError.code` when no API key is set: nothing was sent, so the gateway refused nothing (#41: the first chat before a key). */
export const NO_API_KEY_CODE = 'ERR_NO_API_KEY';

/** The proxy's tunnel failed because of its authentication (proxyAuth.ts): retrying cannot help. */
export const PROXY_AUTH_ERROR_CODE = 'ERR_PROXY_AUTH_REQUIRED';
/** Failures before anything was sent that a retry cannot fix: a refused certificate, the proxy's authentication. */
export function isPermanentConnectCode(code: string | undefined): boolean {
  return isCertificateErrorCode(code) || code === PROXY_AUTH_ERROR_CODE;
}

export class GatewayError extends AppError<GatewayErrorReason> {
  /** error.type from the envelope, verbatim. */
  readonly type?: string;
  readonly permission?: PermissionDetail;
  readonly retryAfterMs?: number;
  readonly timeoutPhase?: GatewayErrorInit['timeoutPhase'];
  readonly code?: string;
  /**
   * False only when the request provably never reached the server (classify.ts isNotSentCode) or was never
   * sent at all (no key, bad address, cancelled before sending). True for every answer with a status
   * and for every other network or timeout failure: a connection that broke after the body was
   * written may have been read, acted on and billed, so it is not re-sent automatically.
   */
  readonly mayHaveReachedServer: boolean;
  /** True when the error body was the gateway's documented error envelope. */
  readonly envelope: boolean;

  constructor(init: GatewayErrorInit) {
    super('gateway', init);
    this.name = 'GatewayError';
    this.type = init.type;
    this.permission = init.permission;
    this.retryAfterMs = init.retryAfterMs;
    this.timeoutPhase = init.timeoutPhase;
    this.code = init.code;
    this.envelope = init.envelope ?? false;
    this.mayHaveReachedServer = init.mayHaveReachedServer ?? defaultMayHaveReachedServer(init);
  }

  /**
   * Whether re-sending the request automatically is safe for any method: the gateway said "come back"
   * (429, 503) or the request provably never reached it. A certificate failure never went out but is
   * not transient either. For an idempotent GET see http/retry.ts `isRetryable(error, { idempotent })`.
   */
  get retryable(): boolean {
    const r = this.reason;
    return !this.partial && (r === 'throttled' || r === 'unavailable' || ((r === 'network' || r === 'timeout') && !this.mayHaveReachedServer && !isPermanentConnectCode(this.code)));
  }
}

/** Without proof that nothing was sent (the classifier in classify.ts gives it), assume it may have been. */
function defaultMayHaveReachedServer(init: GatewayErrorInit): boolean {
  if (init.status !== undefined || init.partial) return true;
  if (init.reason === 'timeout') return init.timeoutPhase !== 'connect';
  // A cancel in flight is as ambiguous as a reset; callers that cancel before sending say so.
  return init.reason === 'network' || init.reason === 'aborted';
}

/**
 * True for a GatewayError from this module or from another copy of it (a second bundle of the class, e.g.
 * a test's or an older build's): the shared structural check of
 * src/core/appError.ts, narrowed to the gateway family.
 */
export function isGatewayError(e: unknown): e is GatewayError {
  return e instanceof GatewayError || isAppErrorOf(e, 'gateway');
}
