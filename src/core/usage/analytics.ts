/**
 * GET /v1/analytics: query building, validation and exact parsing (vscode-free).
 *
 * The documented rules (G-AN-1..9) are enforced before anything is sent, so a bad window or filter is
 * a clear local error rather than a round trip to a 400.
 */

import * as l10n from '../l10n';
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
 * here; change them in one place when the real names are known. The local gateway keeps its own copy
 * (test/localGateway/analytics.ts WIRE), and its `analytics: 'renamed'` mode answers with other names.
 * An answer without these fields (or with them of another type) is refused as a whole
 * (recogniseAnalyticsShape, #39.11): the dashboard says the gateway's usage is unknown and why,
 * never shows a missing count as 0 or a missing bound as empty.
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
 * An analytics answer whose shape this extension does not recognise (#39.11): a field it relies on is
 * missing or of another type (the request count, window bounds or bucket start under other names, a
 * `credits_nano` that is not an exact integer). Nothing is made of it: no figure is shown, and in
 * particular no missing count is shown as 0. `problems` name fields only (never values).
 */
export class AnalyticsShapeError extends AnalyticsQueryError {
  constructor(readonly problems: readonly string[]) {
    super(
      l10n.t(
        'the analytics answer is in a shape this extension does not recognise ({0}); its figures are not shown rather than shown as zeros',
        problems.slice(0, 3).join('; ') + (problems.length > 3 ? '; …' : ''),
      ),
    );
    this.name = 'AnalyticsShapeError';
  }
}

export type AnalyticsShape = { kind: 'recognised'; result: AnalyticsResult } | { kind: 'unrecognised'; problems: string[] };

/**
 * JSON numbers lose precision above 2^53 nanocredits (about 9 million credits), and Node 20's
 * JSON.parse has no access to the source text of a number. So integer `credits_nano` literals are
 * quoted before parsing and read back as bigint; any other number form (a fraction, an exponent such
 * as 9.007199254740993e15, which the parser has already rounded) is refused, never read as a figure.
 */
export function parseAnalyticsResponse(text: string): AnalyticsResult {
  const shape = recogniseAnalyticsText(text);
  if (shape.kind === 'unrecognised') throw new AnalyticsShapeError(shape.problems);
  return shape.result;
}

/**
 * Recognises (or refuses) the text of an analytics answer (exported for the compatibility check).
 * Throws AnalyticsQueryError only when the text is not JSON.
 */
export function recogniseAnalyticsText(text: string): AnalyticsShape {
  const quoted = text.replace(/("credits_nano"\s*:\s*)(-?\d+)(?=\s*[,}\]])/g, '$1"$2"');
  let raw: unknown;
  try {
    raw = JSON.parse(quoted);
  } catch {
    throw new AnalyticsQueryError('the analytics response is not valid JSON');
  }
  // Plain integer literals arrived as strings: a number left here was written as a fraction or with
  // an exponent, and may already have been rounded by the parser.
  return recogniseAnalyticsShape(raw, { numbers: 'never' });
}

/**
 * Recognises (or refuses) a parsed analytics answer against the assumed field names (ANALYTICS_WIRE)
 * and the documented fields. Exact integers only: a `credits_nano` must be a decimal-integer string
 * (parseAnalyticsResponse quotes integer literals so they arrive as such) or a safe integer number.
 * Exported for the compatibility check; `raw` may come from JSON.parse directly (then a large
 * integer literal already lost its digits and arrives as an unsafe number, which is refused).
 */
export function recogniseAnalyticsShape(raw: unknown, options: { numbers?: 'safe' | 'never' } = {}): AnalyticsShape {
  const problems: string[] = [];
  const fieldsOf = (r: Record<string, unknown>): string => Object.keys(r).slice(0, 8).map((k) => JSON.stringify(k.slice(0, 40))).join(', ') || l10n.t('none');
  const missing = (where: string, what: string, field: string, r: Record<string, unknown>): void => {
    if (problems.length < 20) problems.push(l10n.t('{0} has no {1} "{2}" (its fields: {3})', where, what, field, fieldsOf(r)));
  };
  const record = (v: unknown, where: string): Record<string, unknown> | undefined => {
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) return v as Record<string, unknown>;
    if (problems.length < 20) problems.push(l10n.t('{0} is not an object', where));
    return undefined;
  };
  const nanoOf = (r: Record<string, unknown>, where: string): bigint => {
    const v = r.credits_nano;
    if (typeof v === 'string' && /^-?\d{1,40}$/.test(v)) return BigInt(v);
    if (typeof v === 'number' && options.numbers !== 'never' && Number.isSafeInteger(v)) return BigInt(v);
    if (problems.length < 20) problems.push(v === undefined ? l10n.t('{0} has no "credits_nano"', where) : l10n.t('{0}: "credits_nano" is not an exact integer', where));
    return 0n;
  };
  const countOf = (r: Record<string, unknown>, where: string): number => {
    const v = r[ANALYTICS_WIRE.requestCount];
    if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return v;
    if (v === undefined) missing(where, l10n.t('request count'), ANALYTICS_WIRE.requestCount, r);
    else if (problems.length < 20) problems.push(l10n.t('{0}: "{1}" (request count) is not a whole number', where, ANALYTICS_WIRE.requestCount));
    return 0;
  };
  const timeOf = (r: Record<string, unknown>, field: string, where: string, what: string): string => {
    const v = r[field];
    if (typeof v === 'string' && v.length <= 64 && !Number.isNaN(Date.parse(v))) return v;
    if (v === undefined) missing(where, what, field, r);
    else if (problems.length < 20) problems.push(l10n.t('{0}: "{1}" ({2}) is not a date-time', where, field, what));
    return '';
  };
  const rowsOf = (v: unknown, where: string): AnalyticsRow[] => {
    if (!Array.isArray(v)) {
      if (problems.length < 20) problems.push(l10n.t('{0} has no "models" array', where));
      return [];
    }
    const out: AnalyticsRow[] = [];
    for (const [i, item] of v.entries()) {
      const at = `${where}.models[${i}]`;
      const r = record(item, at);
      if (!r) continue;
      if (typeof r.model !== 'string' || typeof r.operation !== 'string') {
        if (problems.length < 20) problems.push(l10n.t('{0} has no string "model" and "operation"', at));
      }
      const row: AnalyticsRow = { model: String(r.model ?? ''), operation: String(r.operation ?? ''), credits_nano: nanoOf(r, at), requests: countOf(r, at) };
      for (const k of ['client_id', 'site_id', 'auth_method', 'actor_type', 'application'] as const) {
        if (typeof r[k] === 'string') row[k] = r[k] as string;
      }
      out.push(row);
    }
    return out;
  };

  const obj = record(raw, l10n.t('the answer'));
  if (!obj) return { kind: 'unrecognised', problems };
  if (typeof obj.bucket_width !== 'string' || !(BUCKET_WIDTHS as readonly string[]).includes(obj.bucket_width)) problems.push(l10n.t('"bucket_width" is not one of {0}', BUCKET_WIDTHS.join(', ')));
  const windowStart = timeOf(obj, ANALYTICS_WIRE.windowStart, l10n.t('the answer'), l10n.t('window start'));
  const windowEnd = timeOf(obj, ANALYTICS_WIRE.windowEnd, l10n.t('the answer'), l10n.t('window end'));
  const totals = record(obj.totals, 'totals');
  const totalsResult = totals ? { credits_nano: nanoOf(totals, 'totals'), requests: countOf(totals, 'totals'), models: rowsOf(totals.models, 'totals') } : undefined;
  if (!Array.isArray(obj.buckets)) problems.push(l10n.t('the answer has no "buckets" array'));
  const buckets: AnalyticsBucket[] = [];
  for (const [i, b] of (Array.isArray(obj.buckets) ? obj.buckets : []).entries()) {
    const at = `buckets[${i}]`;
    const r = record(b, at);
    if (!r) continue;
    buckets.push({ start: timeOf(r, ANALYTICS_WIRE.bucketStart, at, l10n.t('bucket start')), credits_nano: nanoOf(r, at), requests: countOf(r, at), models: rowsOf(r.models, at) });
    if (problems.length >= 20) break;
  }
  if (problems.length > 0 || !totalsResult) return { kind: 'unrecognised', problems };
  return { kind: 'recognised', result: { bucket_width: obj.bucket_width as BucketWidth, window_start: windowStart, window_end: windowEnd, totals: totalsResult, buckets } };
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
