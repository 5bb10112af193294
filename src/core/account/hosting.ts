/**
 * The hosting account API (hosting-account-api.md): cache exclusions of an install and site
 * transfers. Types, local validation of the documented constraints, and error-body parsing.
 * vscode-free.
 */
import { AppError, isAppErrorOf } from '../appError';

export const EXCLUSION_TYPES = ['query arg', 'url path', 'cookie'] as const;
export type ExclusionType = (typeof EXCLUSION_TYPES)[number];

export interface CacheExclusion {
  type: ExclusionType;
  value: string;
}

export interface SiteTransfer {
  id: string;
  site: string;
  installs: string[];
  origin_account: string;
  destination_account: string;
  /** `pending` or `scheduled` initially; other values are not documented and are shown verbatim. */
  status: string;
  scheduled_time: string | null;
  created_at: string;
  updated_at: string;
}

export interface TransferRequest {
  destination_account_id: string;
  /** RFC 3339; omitted means immediate. */
  scheduled_time?: string;
  /** Default false (H-TR-5). */
  maintenance_mode?: boolean;
}

export class HostingValidationError extends Error {
  constructor(
    message: string,
    readonly field?: string,
    /** For a cache exclusion: its 0-based position in the list given to prepareExclusions. */
    readonly index?: number,
  ) {
    super(message);
    this.name = 'HostingValidationError';
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(s: string): boolean {
  return UUID.test(s);
}

/**
 * Prepares a full replacement set for PUT (H-CE-1): checks types (H-CE-7) and regular expressions
 * (H-CE-4, pre-checked with JavaScript's RegExp: Assumption (spec: regex flavour not shown) that the
 * server's flavour rejects at least what JavaScript rejects; the server stays the judge), and
 * collapses duplicates (H-CE-2; the server does too, this keeps the preview honest).
 * `cookie` entries are platform-managed and ignored by the server on write (H-CE-3); they are kept so
 * that a list read from GET can be sent back unchanged.
 */
export function prepareExclusions(list: readonly CacheExclusion[]): CacheExclusion[] {
  const seen = new Set<string>();
  const out: CacheExclusion[] = [];
  list.forEach((e, i) => {
    if (!(EXCLUSION_TYPES as readonly string[]).includes(e.type)) {
      throw new HostingValidationError(`Exclusion ${i + 1}: type must be one of ${EXCLUSION_TYPES.map((t) => `'${t}'`).join(', ')}`, 'type', i);
    }
    if (typeof e.value !== 'string' || e.value === '') throw new HostingValidationError(`Exclusion ${i + 1}: value must be a non-empty regular expression`, 'value', i);
    if (e.type !== 'cookie') {
      try {
        new RegExp(e.value);
      } catch (err) {
        throw new HostingValidationError(`Exclusion ${i + 1}: '${e.value}' is not a valid regular expression (${(err as Error).message})`, 'value', i);
      }
    }
    const key = `${e.type}\u0000${e.value}`;
    if (!seen.has(key)) {
      seen.add(key);
      out.push({ type: e.type, value: e.value });
    }
  });
  return out;
}

export const MIN_SCHEDULE_MS = 3600_000;
export const MAX_SCHEDULE_MS = 7 * 24 * 3600_000;

/**
 * Checks a transfer request against the documented constraints the client can know (H-TR-1, H-TR-4,
 * H-TR-5). Sandbox status, preferred data centre and access rights (H-TR-2, H-TR-3) are server-side
 * facts; the server answers 409/403 for them.
 */
export function prepareTransfer(input: { originAccountId?: string; destinationAccountId: string; scheduledTime?: Date | string; maintenanceMode?: boolean }, nowMs: number): TransferRequest {
  if (!isUuid(input.destinationAccountId)) throw new HostingValidationError('The destination account id must be a UUID', 'destination_account_id');
  if (input.originAccountId !== undefined && input.originAccountId.toLowerCase() === input.destinationAccountId.toLowerCase()) {
    throw new HostingValidationError('The destination account must differ from the origin account', 'destination_account_id');
  }
  const body: TransferRequest = { destination_account_id: input.destinationAccountId, maintenance_mode: input.maintenanceMode ?? false };
  if (input.scheduledTime !== undefined) {
    const when = typeof input.scheduledTime === 'string' ? new Date(input.scheduledTime) : input.scheduledTime;
    if (Number.isNaN(when.getTime())) throw new HostingValidationError('scheduled_time must be an RFC 3339 date-time', 'scheduled_time');
    const delta = when.getTime() - nowMs;
    if (delta < MIN_SCHEDULE_MS || delta > MAX_SCHEDULE_MS) {
      throw new HostingValidationError('scheduled_time must lie between 1 hour and 7 days in the future', 'scheduled_time');
    }
    body.scheduled_time = when.toISOString();
  }
  return body;
}

export interface HostingErrorDetail {
  resource?: string;
  field?: string;
  type?: string;
  code?: string;
  message?: string;
}

export type HostingErrorReason =
  | 'invalid_request' // 400
  | 'authentication' // 401
  | 'permission' // 403
  | 'not_found' // 404
  | 'conflict' // 409
  | 'validation' // 422
  | 'throttled' // 429
  | 'server' // 500
  | 'unavailable' // 503
  | 'network'
  | 'timeout' // no answer, or the answer stopped, within the network timeouts
  | 'protocol' // an answer that is not the documented JSON (not JSON, not UTF-8, too large)
  | 'aborted';

export interface HostingErrorExtra {
  /**
   * Whether the server may have received (and applied) the request. Computed when absent: true for
   * every answer with a status and for timeouts and broken connections; false for 'aborted' before
   * sending and for the failures that prove nothing was sent (the client passes false for those).
   */
  mayHaveReachedServer?: boolean;
  /** Which timeout fired, for reason 'timeout'. */
  timeoutPhase?: 'connect' | 'firstByte' | 'idle';
  /** True when part of the response had already arrived. */
  partial?: boolean;
  requestId?: string;
  cause?: unknown;
}

/** A failure of the hosting API with its documented body (H-ERR-1). */
export class HostingError extends AppError<HostingErrorReason> {
  readonly timeoutPhase?: HostingErrorExtra['timeoutPhase'];
  readonly mayHaveReachedServer: boolean;

  constructor(
    reason: HostingErrorReason,
    message: string,
    status?: number,
    /** documentation_url of the body: server text, opened only when it is https. */
    readonly documentationUrl?: string,
    readonly errors: HostingErrorDetail[] = [],
    extra: HostingErrorExtra = {},
  ) {
    super('hosting', { reason, message, status, requestId: extra.requestId, partial: extra.partial, cause: extra.cause });
    this.name = 'HostingError';
    this.timeoutPhase = extra.timeoutPhase;
    this.mayHaveReachedServer = extra.mayHaveReachedServer ?? (status !== undefined || reason === 'network' || reason === 'timeout' || reason === 'protocol');
  }
}

/** True for a HostingError of this bundle or of the lazy chunk's copy (structural, see appError.ts). */
export function isHostingError(e: unknown): e is HostingError {
  return e instanceof HostingError || isAppErrorOf(e, 'hosting');
}

const HOSTING_REASONS: Record<number, HostingErrorReason> = {
  400: 'invalid_request',
  401: 'authentication',
  403: 'permission',
  404: 'not_found',
  409: 'conflict',
  422: 'validation',
  429: 'throttled',
  500: 'server',
  503: 'unavailable',
};

/**
 * Parses an error body by status (H-ERR-1). 401 may be "message text only" (H-AUTH-1): a plain-text
 * body becomes the message. Bodies of 429 and 503 are not shown in the spec and are never parsed.
 */
export function hostingErrorFromResponse(status: number, bodyText: string): HostingError {
  const reason = HOSTING_REASONS[status] ?? (status >= 500 ? 'server' : 'invalid_request');
  const fallback = `The hosting API answered with HTTP ${status}`;
  if (status === 429) return new HostingError(reason, 'Too many requests to the hosting API; try again shortly', status);
  if (status === 503) return new HostingError(reason, 'The hosting API is temporarily unavailable; try again shortly', status);
  let parsed: unknown;
  try {
    parsed = JSON.parse(bodyText);
  } catch {
    const text = bodyText.trim().slice(0, 300);
    return new HostingError(reason, text || fallback, status);
  }
  if (typeof parsed !== 'object' || parsed === null) return new HostingError(reason, fallback, status);
  const body = parsed as { message?: unknown; documentation_url?: unknown; errors?: unknown };
  const message = typeof body.message === 'string' && body.message ? body.message : fallback;
  const docs = typeof body.documentation_url === 'string' ? body.documentation_url : undefined;
  const details: HostingErrorDetail[] = [];
  if ((status === 400 || status === 409 || status === 422) && Array.isArray(body.errors)) {
    for (const e of body.errors) {
      if (typeof e !== 'object' || e === null) continue;
      const r = e as Record<string, unknown>;
      const d: HostingErrorDetail = {};
      for (const k of ['resource', 'field', 'type', 'code', 'message'] as const) if (typeof r[k] === 'string') d[k] = r[k] as string;
      details.push(d);
    }
  }
  return new HostingError(reason, message, status, docs, details);
}
