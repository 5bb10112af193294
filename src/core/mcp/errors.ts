/**
 * The one typed error of the MCP client (single calls and batches), kept free of the SDK so the main
 * activation code can use it without loading the MCP SDK's chunk. Also decides whether a failed request may have
 * reached the server: a tools/call that may have run is "outcome unknown" and is never re-run with
 * one click.
 */

import { AppError, isAppErrorOf } from '../appError';
import { formatBytes } from '../bytes';
import { parseErrorEnvelope } from '../http/classify';
import { DEFAULT_LIMITS } from '../http/policy';

export type McpFailureReason = 'http' | 'authentication' | 'permission' | 'jsonrpc' | 'timeout' | 'aborted' | 'network' | 'protocol';

export class McpCallError extends AppError<McpFailureReason> {
  /** JSON-RPC error code, for reason 'jsonrpc'. */
  readonly code?: number;
  /** error.type of the gateway envelope, when the server sent one. */
  readonly type?: string;
  /** Every request id of the call (a session may take several requests); `requestId` is the first. */
  readonly requestIds: string[];
  /**
   * True when the request may have reached the server and no usable answer came back (a connection
   * dropped after sending, a timeout, a cancel, an unreadable or oversized response): a write may
   * have happened.
   */
  readonly outcomeUnknown: boolean;
  /** Milliseconds the server asked to wait (Retry-After), when it did. */
  readonly retryAfterMs?: number;

  constructor(init: {
    reason: McpFailureReason;
    message: string;
    status?: number;
    code?: number;
    type?: string;
    requestIds?: string[];
    cause?: unknown;
    outcomeUnknown?: boolean;
    retryAfterMs?: number;
  }) {
    const requestIds = init.requestIds ?? [];
    super('mcp', { reason: init.reason, message: init.message, status: init.status, requestId: requestIds[0], cause: init.cause });
    this.name = 'McpCallError';
    this.code = init.code;
    this.type = init.type;
    this.requestIds = requestIds;
    this.outcomeUnknown = init.outcomeUnknown ?? false;
    this.retryAfterMs = init.retryAfterMs;
  }
}

/** The gateway's error envelope as read from an MCP answer: what can be shown of it. */
export interface McpGatewayEnvelope {
  message: string;
  type?: string;
  requestId?: string;
}

/**
 * Recognises the gateway's error envelope (`{error: {message, type, code, request_id}}`, ai-gateway-api.md
 * "Errors") in the body of a refused /v1/mcp request; undefined for any other body.
 *
 * Assumption (spec: "bodies of 404 and 5xx responses on the gateway: not shown"): a 5xx body that is the
 * envelope (with a string message) is the gateway's own word and is shown with its request id, e.g. a
 * 503 `entitlement_unavailable`; any other body (an HTML page from the edge, plain text, a JSON that is
 * not the envelope) is not shown, and the status words stand. The body is read only up to the network
 * layer's error-body limit and parsed once (linear).
 */
export function mcpGatewayEnvelope(bodyText: string | undefined): McpGatewayEnvelope | undefined {
  if (bodyText === undefined) return undefined;
  const env = parseErrorEnvelope(bodyText, DEFAULT_LIMITS.maxErrorBodyBytes);
  if (env?.message === undefined || env.message.trim() === '') return undefined;
  return { message: env.message, ...(env.type ? { type: env.type } : {}), ...(env.request_id ? { requestId: env.request_id } : {}) };
}

/**
 * Reads that may be sent again on a 503 (the spec's error table: retry with exponential back-off):
 * initialize, ping, tools/list and a tools/call of a provably read-only tool. Only a 503 answer counts
 * (the server said it did nothing and to come back); never a timeout, a cut connection or any other status.
 */
export function isRetryableMcpRead(e: unknown): boolean {
  return isMcpCallError(e) && e.reason === 'http' && e.status === 503;
}

/** The bound of those retries: attempts (the first included) and total wait, Retry-After honoured within it. */
export const MCP_READ_RETRY = Object.freeze({ maxAttempts: 4, maxTotalMs: 20_000, baseDelayMs: 500, maxDelayMs: 8_000 });

/** True for an McpCallError of this bundle or of another bundle's copy (structural, see appError.ts). */
export function isMcpCallError(e: unknown): e is McpCallError {
  return e instanceof McpCallError || isAppErrorOf(e, 'mcp');
}

/** The largest MCP response body read (one JSON body, or one SSE stream of one request). */
export const MAX_MCP_RESPONSE_BYTES = 16 * 1024 * 1024;

export function responseTooLarge(limit: number, requestIds: string[] = []): McpCallError {
  return new McpCallError({
    reason: 'protocol',
    requestIds,
    outcomeUnknown: true,
    message: `The MCP response exceeded the ${formatBytes(limit)} limit for one response; stopped reading it. The server may still have done the work.`,
  });
}

// Error codes that prove the request never left this machine: no connection was made.
const NEVER_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'ENETUNREACH', 'EHOSTUNREACH', 'UND_ERR_CONNECT_TIMEOUT', 'ERR_INVALID_URL']);

/** True only when a fetch failure provably happened before the request was sent (walks `cause`). */
export function provablyNotSent(e: unknown): boolean {
  let cur: unknown = e;
  for (let depth = 0; depth < 5 && cur && typeof cur === 'object'; depth++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === 'string' && NEVER_SENT_CODES.has(code)) return true;
    cur = (cur as { cause?: unknown }).cause;
  }
  return false;
}

/** The warning shown for a tools/call whose outcome is unknown. */
export const OUTCOME_UNKNOWN_ADVICE = 'The change may still have happened: the request was sent but no answer arrived. Check the site before running it again.';
