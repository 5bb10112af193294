/**
 * One typed error for everything the gateway client can fail with. Errors are classified once, here
 * and in the client; they are turned into words only at the edge (notification, webview banner).
 */

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

export class GatewayError extends Error {
  readonly reason: GatewayErrorReason;
  readonly status?: number;
  readonly type?: string;
  readonly requestId?: string;
  readonly permission?: PermissionDetail;
  readonly retryAfterMs?: number;
  readonly timeoutPhase?: GatewayErrorInit['timeoutPhase'];
  readonly partial: boolean;
  readonly code?: string;

  constructor(init: GatewayErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'GatewayError';
    this.reason = init.reason;
    this.status = init.status;
    this.type = init.type;
    this.requestId = init.requestId;
    this.permission = init.permission;
    this.retryAfterMs = init.retryAfterMs;
    this.timeoutPhase = init.timeoutPhase;
    this.partial = init.partial ?? false;
    this.code = init.code;
  }

  /** Whether a retry before any response byte is reasonable. */
  get retryable(): boolean {
    if (this.partial) return false;
    if (this.reason === 'network') return !isCertificateErrorCode(this.code);
    return this.reason === 'throttled' || this.reason === 'unavailable';
  }
}

/**
 * True for a GatewayError from this module or from another bundle's copy of it. The client lives in
 * the lazy chunk dist/core.js while editor glue is bundled into dist/extension.js, so each bundle has
 * its own GatewayError class and `instanceof` alone would miss errors crossing that boundary.
 */
export function isGatewayError(e: unknown): e is GatewayError {
  if (e instanceof GatewayError) return true;
  return (
    e instanceof Error &&
    e.name === 'GatewayError' &&
    typeof (e as { reason?: unknown }).reason === 'string' &&
    typeof (e as { partial?: unknown }).partial === 'boolean'
  );
}
