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

const UNTRUSTED_CODES: ReadonlySet<string> = new Set(['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'UNABLE_TO_GET_ISSUER_CERT', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'SELF_SIGNED_CERT_IN_CHAIN', 'CERT_UNTRUSTED', 'CERT_CHAIN_TOO_LONG']);
const HOSTNAME_CODES: ReadonlySet<string> = new Set(['ERR_TLS_CERT_ALTNAME_INVALID', 'HOSTNAME_MISMATCH']);

/** What is wrong with a refused certificate, from its code. */
export type CertificateProblem = 'untrusted' | 'selfSigned' | 'expired' | 'notYetValid' | 'hostname' | 'other';

export function certificateProblem(code: string): CertificateProblem {
  if (UNTRUSTED_CODES.has(code)) return 'untrusted';
  if (code === 'DEPTH_ZERO_SELF_SIGNED_CERT') return 'selfSigned';
  if (code === 'CERT_HAS_EXPIRED') return 'expired';
  if (code === 'CERT_NOT_YET_VALID') return 'notYetValid';
  if (HOSTNAME_CODES.has(code)) return 'hostname';
  return 'other';
}

const TRUST_ADVICE =
  "If your company's proxy re-signs HTTPS, add its root certificate to the operating system's store (trusted while http.systemCertificates is on) or set NODE_EXTRA_CA_CERTS to its file; do not turn off http.proxyStrictSSL.";

/**
 * The words for a refused certificate of `who` ("the gateway", "the hosting API"): what is wrong and
 * the setting or file that fixes it. `addressSetting` is named when the host name does not match.
 */
export function certificateMessage(code: string, who: string, addressSetting: string): string {
  const head = `The TLS certificate of ${who} was not accepted (${code})`;
  switch (certificateProblem(code)) {
    case 'untrusted':
      return `${head}: the certificate is signed by an authority this editor does not trust. ${TRUST_ADVICE}`;
    case 'selfSigned':
      return `${head}: the certificate is self-signed. If you trust this server, or your company's proxy presents it, add it to the operating system's store or set NODE_EXTRA_CA_CERTS to its file; do not turn off http.proxyStrictSSL.`;
    case 'expired':
      return `${head}: the certificate has expired, or this computer's clock is wrong. Check the date and time; otherwise the server's certificate must be renewed.`;
    case 'notYetValid':
      return `${head}: the certificate is not valid yet, or this computer's clock is wrong. Check the date and time.`;
    case 'hostname':
      return `${head}: the certificate is for a different host name. Check the address (${addressSetting}); a proxy that re-signs HTTPS must issue certificates for the host that was asked for.`;
    default:
      return `${head}. ${TRUST_ADVICE}`;
  }
}

/** The setting that fixes a refused certificate, when one does: the trust of the system store, or the address. */
export function certificateSetting(code: string, addressSetting: string): string | undefined {
  const problem = certificateProblem(code);
  if (problem === 'untrusted' || problem === 'selfSigned' || problem === 'other') return 'http.systemCertificates';
  if (problem === 'hostname') return addressSetting;
  return undefined;
}

/**
 * The first code in an error and its causes that `pick` accepts (undici wraps a connect failure in
 * fetch's TypeError, a tunnel's TLS failure in SecureProxyConnectionError).
 */
export function findErrorCode(err: unknown, pick: (code: string) => boolean): string | undefined {
  let e: unknown = err;
  for (let depth = 0; depth < 6 && typeof e === 'object' && e !== null; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && pick(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The proxy's tunnel failed because of its authentication (proxyAuth.ts): retrying cannot help. */
export const PROXY_AUTH_ERROR_CODE = 'ERR_PROXY_AUTH_REQUIRED';
/** The proxy refused the tunnel with another status (proxyAuth.ts). */
export const PROXY_REFUSED_ERROR_CODE = 'ERR_PROXY_CONNECT_REFUSED';

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
