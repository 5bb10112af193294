/**
 * GET /v1/analytics: query building, validation and exact parsing (vscode-free).
 *
 * The documented rules (G-AN-1..9) are enforced before anything is sent, so a bad window or filter is
 * a clear local error rather than a round trip to a 400.
 */

import { ACTOR_TYPES, APPLICATIONS, AUTH_METHODS, BUCKET_WIDTHS, GROUP_BY_DIMENSIONS, type BucketWidth, type GroupByDimension } from '../../protocol/usageProtocol';

// The documented values are defined once, with the dashboard's protocol (the page's menus use them).
export { ACTOR_TYPES, APPLICATIONS, AUTH_METHODS, BUCKET_WIDTHS, GROUP_BY_DIMENSIONS, type BucketWidth, type GroupByDimension };

/** Maximum window per bucket width, in seconds (G-AN-2). */
export const MAX_WINDOW_SECONDS: Record<BucketWidth, number> = {
  '10m': 24 * 3600,
  '1h': 7 * 24 * 3600,
  '1d': 30 * 24 * 3600,
};

export const BUCKET_SECONDS: Record<BucketWidth, number> = { '10m': 600, '1h': 3600, '1d': 86400 };

export const DEFAULT_GROUP_BY: readonly GroupByDimension[] = ['model', 'operation'];

/**
 * Assumption (spec: "names of the window-end and site-filter parameters ... and response field names
 * for request counts, window bounds and bucket start: not shown"). Every such name is here and only
 * here; change them in one place when the real names are known. The local gateway imports the same
 * table, so both sides move together.
 */
export const ANALYTICS_WIRE = {
  endTimeParam: 'end_time',
  siteFilterParam: 'client_id',
  requestCount: 'requests',
  windowStart: 'window_start',
  windowEnd: 'window_end',
  bucketStart: 'start',
} as const;

export interface AnalyticsQuery {
  projectId: string;
  /** Unix seconds, inclusive. */
  startTime: number;
  /** Unix seconds, exclusive; defaults to now (G-AN-3). */
  endTime?: number;
  bucketWidth?: BucketWidth;
  authMethod?: (typeof AUTH_METHODS)[number];
  actorType?: (typeof ACTOR_TYPES)[number];
  application?: (typeof APPLICATIONS)[number];
  groupBy?: readonly GroupByDimension[];
  /** Registered site's client_id. Usage without a registered site has an empty client_id and cannot be selected (G-AN-8). */
  siteClientId?: string;
}

export class AnalyticsQueryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AnalyticsQueryError';
  }
}

function isOneOf<T extends string>(values: readonly T[], v: string): v is T {
  return (values as readonly string[]).includes(v);
}

/**
 * Checks a query against the documented rules and returns its query string parameters.
 * Throws AnalyticsQueryError naming the broken rule; nothing is sent in that case.
 */
export function buildAnalyticsParams(q: AnalyticsQuery, nowSeconds: number): URLSearchParams {
  const width: BucketWidth = q.bucketWidth ?? '1d';
  if (!isOneOf(BUCKET_WIDTHS, width)) throw new AnalyticsQueryError(`bucket_width must be one of ${BUCKET_WIDTHS.join(', ')}`);
  if (!q.projectId) throw new AnalyticsQueryError('project_id is required');
  if (!Number.isInteger(q.startTime) || q.startTime < 0) throw new AnalyticsQueryError('start_time must be a whole number of Unix seconds');
  const end = q.endTime ?? nowSeconds;
  if (!Number.isInteger(end)) throw new AnalyticsQueryError('the window end must be a whole number of Unix seconds');
  if (end <= q.startTime) throw new AnalyticsQueryError('the window end must be after start_time (start inclusive, end exclusive)');
  const max = MAX_WINDOW_SECONDS[width];
  if (end - q.startTime > max) {
    throw new AnalyticsQueryError(`a ${width} bucket allows a window of at most ${describeSeconds(max)}; this window is ${describeSeconds(end - q.startTime)}`);
  }
  if (q.authMethod !== undefined && !isOneOf(AUTH_METHODS, q.authMethod)) throw new AnalyticsQueryError(`auth_method must be one of ${AUTH_METHODS.join(', ')}`);
  if (q.actorType !== undefined && !isOneOf(ACTOR_TYPES, q.actorType)) throw new AnalyticsQueryError(`actor_type must be one of ${ACTOR_TYPES.join(', ')}`);
  if (q.application !== undefined && !isOneOf(APPLICATIONS, q.application)) throw new AnalyticsQueryError(`application must be one of ${APPLICATIONS.join(', ')}`);
  for (const d of q.groupBy ?? []) {
    if (!isOneOf(GROUP_BY_DIMENSIONS, d)) throw new AnalyticsQueryError(`group_by dimension '${d}' is not one of ${GROUP_BY_DIMENSIONS.join(', ')}`);
  }
  if (q.siteClientId !== undefined && q.siteClientId.trim() === '') {
    throw new AnalyticsQueryError('usage without a registered site has an empty client_id and cannot be selected by the site filter');
  }

  const p = new URLSearchParams();
  p.set('project_id', q.projectId);
  p.set('start_time', String(q.startTime));
  if (q.endTime !== undefined) p.set(ANALYTICS_WIRE.endTimeParam, String(q.endTime));
  p.set('bucket_width', width);
  if (q.authMethod) p.set('auth_method', q.authMethod);
  if (q.actorType) p.set('actor_type', q.actorType);
  if (q.application) p.set('application', q.application);
  if (q.groupBy && q.groupBy.length > 0) p.set('group_by', [...new Set(q.groupBy)].join(','));
  if (q.siteClientId !== undefined) p.set(ANALYTICS_WIRE.siteFilterParam, q.siteClientId);
  return p;
}

function describeSeconds(s: number): string {
  if (s % 86400 === 0) return `${s / 86400} day${s === 86400 ? '' : 's'}`;
  if (s % 3600 === 0) return `${s / 3600} hour${s === 3600 ? '' : 's'}`;
  return `${s} second${s === 1 ? '' : 's'}`;
}

export interface AnalyticsRow {
  model: string;
  operation: string;
  client_id?: string;
  site_id?: string;
  auth_method?: string;
  actor_type?: string;
  application?: string;
  /** Exact nanocredits (G-AN-6). */
  credits_nano: bigint;
  requests: number;
}

export interface AnalyticsBucket {
  start: string;
  credits_nano: bigint;
  requests: number;
  models: AnalyticsRow[];
}

export interface AnalyticsResult {
  bucket_width: BucketWidth;
  window_start: string;
  window_end: string;
  totals: { credits_nano: bigint; requests: number; models: AnalyticsRow[] };
  buckets: AnalyticsBucket[];
}

/**
 * JSON numbers lose precision above 2^53 nanocredits (about 9 million credits), and Node 20's
 * JSON.parse has no access to the source text of a number. So integer `credits_nano` values are
 * quoted before parsing and read back as bigint.
 */
export function parseAnalyticsResponse(text: string): AnalyticsResult {
  const quoted = text.replace(/("credits_nano"\s*:\s*)(-?\d+)(?=\s*[,}\]])/g, '$1"$2"');
  let raw: unknown;
  try {
    raw = JSON.parse(quoted);
  } catch {
    throw new AnalyticsQueryError('the analytics response is not valid JSON');
  }
  const obj = asRecord(raw, 'response');
  const totals = asRecord(obj.totals, 'totals');
  const buckets = Array.isArray(obj.buckets) ? obj.buckets : [];
  return {
    bucket_width: String(obj.bucket_width) as BucketWidth,
    window_start: String(obj[ANALYTICS_WIRE.windowStart] ?? ''),
    window_end: String(obj[ANALYTICS_WIRE.windowEnd] ?? ''),
    totals: { credits_nano: nano(totals.credits_nano), requests: count(totals[ANALYTICS_WIRE.requestCount]), models: rows(totals.models) },
    buckets: buckets.map((b) => {
      const r = asRecord(b, 'bucket');
      return { start: String(r[ANALYTICS_WIRE.bucketStart] ?? ''), credits_nano: nano(r.credits_nano), requests: count(r[ANALYTICS_WIRE.requestCount]), models: rows(r.models) };
    }),
  };
}

function asRecord(v: unknown, what: string): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new AnalyticsQueryError(`the analytics response has no ${what} object`);
  return v as Record<string, unknown>;
}

function nano(v: unknown): bigint {
  if (typeof v === 'string' && /^-?\d+$/.test(v)) return BigInt(v);
  throw new AnalyticsQueryError('credits_nano must be an integer');
}

function count(v: unknown): number {
  return typeof v === 'number' && Number.isInteger(v) ? v : 0;
}

function rows(v: unknown): AnalyticsRow[] {
  if (!Array.isArray(v)) return [];
  return v.map((item) => {
    const r = asRecord(item, 'row');
    const row: AnalyticsRow = {
      model: String(r.model ?? ''),
      operation: String(r.operation ?? ''),
      credits_nano: nano(r.credits_nano),
      requests: count(r[ANALYTICS_WIRE.requestCount]),
    };
    for (const k of ['client_id', 'site_id', 'auth_method', 'actor_type', 'application'] as const) {
      if (typeof r[k] === 'string') row[k] = r[k] as string;
    }
    return row;
  });
}

/** The documented order of totals rows (G-AN-7): credits descending, then ascending by these keys. */
const TIE_KEYS = ['model', 'operation', 'client_id', 'auth_method', 'actor_type', 'application'] as const;

export function compareTotalsRows(a: Pick<AnalyticsRow, 'credits_nano' | (typeof TIE_KEYS)[number]>, b: typeof a): number {
  if (a.credits_nano !== b.credits_nano) return a.credits_nano > b.credits_nano ? -1 : 1;
  for (const k of TIE_KEYS) {
    const x = a[k] ?? '';
    const y = b[k] ?? '';
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/** Whether a totals list is in the documented order; the client flags a server that breaks it. */
export function isInTotalsOrder(rowsList: readonly AnalyticsRow[]): boolean {
  for (let i = 1; i < rowsList.length; i++) if (compareTotalsRows(rowsList[i - 1], rowsList[i]) > 0) return false;
  return true;
}

/**
 * Analytics requires account-level identity-provider authentication (G-AN-1). API keys (svc_...)
 * are refused locally with a clear message instead of a 401/403 round trip.
 */
export function checkAnalyticsCredential(token: string | undefined): string | undefined {
  if (!token) return 'Analytics needs an identity-provider token (JWT); none is set.';
  if (token.startsWith('svc_')) return 'Analytics needs account-level identity-provider authentication (a JWT); API keys are not accepted.';
  return undefined;
}
