/**
 * The base of the three error families a server call can end in: GatewayError (src/core/http/errors.ts),
 * McpCallError (src/core/mcp/errors.ts) and HostingError (src/core/account/hosting.ts). Each family
 * keeps its own typed reasons (they follow its own contract); what they share lives here, so the edge
 * (src/core/errorText.ts `describeError`) can turn any of them into words and actions in one place.
 *
 * Classification happens once, in the clients; nothing here produces words.
 */

export type ErrorFamily = 'gateway' | 'mcp' | 'hosting';

const FAMILIES: readonly ErrorFamily[] = ['gateway', 'mcp', 'hosting'];

export interface AppErrorInit<R extends string> {
  reason: R;
  message: string;
  /** HTTP status of the answer, when one arrived. */
  status?: number;
  /** The server's request id (X-Request-ID or the envelope's), when it sent one. */
  requestId?: string;
  /** True when part of a response had already arrived. */
  partial?: boolean;
  cause?: unknown;
}

export abstract class AppError<R extends string = string> extends Error {
  /**
   * Which contract classified the error; also the brand that isAppError checks, because the class
   * exists once per bundle (dist/extension.js and the lazy chunks) and `instanceof` misses the others.
   */
  readonly family: ErrorFamily;
  readonly reason: R;
  readonly status?: number;
  readonly requestId?: string;
  readonly partial: boolean;

  protected constructor(family: ErrorFamily, init: AppErrorInit<R>) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.family = family;
    this.reason = init.reason;
    this.status = init.status;
    this.requestId = init.requestId;
    this.partial = init.partial ?? false;
  }
}

/**
 * True for an AppError of any family, from this bundle or another one's copy of the classes: checked
 * by shape (an Error with a known family, a string reason and a boolean partial), never by constructor.
 */
export function isAppError(e: unknown): e is AppError {
  if (e instanceof AppError) return true;
  if (!(e instanceof Error)) return false;
  const o = e as unknown as Record<string, unknown>;
  return typeof o.family === 'string' && (FAMILIES as readonly string[]).includes(o.family) && typeof o.reason === 'string' && typeof o.partial === 'boolean';
}

/** isAppError narrowed to one family; the typed guards of the families (isGatewayError, …) use it. */
export function isAppErrorOf<F extends ErrorFamily>(e: unknown, family: F): e is AppError & { family: F } {
  return isAppError(e) && e.family === family;
}
