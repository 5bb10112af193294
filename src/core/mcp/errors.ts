/**
 * The one typed error of the MCP client (single calls and batches), kept free of the SDK so the main
 * activation code can use it without loading the MCP SDK's chunk. Also decides whether a failed request may have
 * reached the server: a tools/call that may have run is "outcome unknown" and is never re-run with
 * one click.
 */

import { AppError, isAppErrorOf } from '../appError';
import { formatBytes } from '../bytes';

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

  constructor(init: {
    reason: McpFailureReason;
    message: string;
    status?: number;
    code?: number;
    type?: string;
    requestIds?: string[];
    cause?: unknown;
    outcomeUnknown?: boolean;
  }) {
    const requestIds = init.requestIds ?? [];
    super('mcp', { reason: init.reason, message: init.message, status: init.status, requestId: requestIds[0], cause: init.cause });
    this.name = 'McpCallError';
    this.code = init.code;
    this.type = init.type;
    this.requestIds = requestIds;
    this.outcomeUnknown = init.outcomeUnknown ?? false;
  }
}

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
