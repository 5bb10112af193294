/**
 * Windows longer than one documented maximum (G-AN-2): split into consecutive documented windows,
 * fetched with bounded concurrency, and stitched back without gaps or double counting.
 *
 * Each part is [start, end) (G-AN-3: start inclusive, end exclusive) and the next part starts exactly
 * where the previous one ended, so every request falls in exactly one part. A bucket cut by a part
 * boundary (a window start not aligned to the bucket width) comes back twice with the same start:
 * those halves are added, which is exact because they hold disjoint requests.
 */
import type { RetryInfo } from '../http/retry';
import { MAX_WINDOW_SECONDS, compareTotalsRows, type AnalyticsBucket, type AnalyticsQuery, type AnalyticsResult, type AnalyticsRow, type BucketWidth } from './analytics';

/** At most this many parts are fetched at once. */
export const RANGE_CONCURRENCY = 3;
/** A range is refused beyond this many parts (e.g. a year of 10-minute buckets). */
export const MAX_RANGE_PARTS = 60;

export interface WindowPart {
  startTime: number;
  endTime: number;
}

/** Consecutive documented windows covering [start, end) exactly. */
export function splitWindow(startTime: number, endTime: number, width: BucketWidth): WindowPart[] {
  if (!Number.isInteger(startTime) || !Number.isInteger(endTime) || endTime <= startTime) throw new RangeError('the window end must be after its start');
  const max = MAX_WINDOW_SECONDS[width];
  const parts: WindowPart[] = [];
  for (let s = startTime; s < endTime; s += max) {
    parts.push({ startTime: s, endTime: Math.min(s + max, endTime) });
    if (parts.length > MAX_RANGE_PARTS) throw new RangeError(`this range needs more than ${MAX_RANGE_PARTS} requests at ${width} buckets; choose a wider bucket`);
  }
  return parts;
}

function rowKey(r: AnalyticsRow): string {
  return JSON.stringify([r.model, r.operation, r.client_id ?? null, r.site_id ?? null, r.auth_method ?? null, r.actor_type ?? null, r.application ?? null]);
}

/** Rows with the same dimensions are added; the result is in the documented order (G-AN-7). */
export function mergeRows(lists: ReadonlyArray<readonly AnalyticsRow[]>): AnalyticsRow[] {
  const map = new Map<string, AnalyticsRow>();
  for (const list of lists) {
    for (const r of list) {
      const k = rowKey(r);
      const cur = map.get(k);
      if (cur) {
        cur.credits_nano += r.credits_nano;
        cur.requests += r.requests;
      } else map.set(k, { ...r });
    }
  }
  return [...map.values()].sort(compareTotalsRows);
}

/** Stitches part results (in window order) into one result over the whole range. */
export function stitch(results: readonly AnalyticsResult[], width: BucketWidth): AnalyticsResult {
  if (results.length === 0) throw new RangeError('nothing to stitch');
  const buckets = new Map<number, { start: string; parts: AnalyticsBucket[] }>();
  for (const r of results) {
    for (const b of r.buckets) {
      const t = Date.parse(b.start);
      const key = Number.isNaN(t) ? Number.MAX_SAFE_INTEGER : t;
      const cur = buckets.get(key);
      if (cur) cur.parts.push(b);
      else buckets.set(key, { start: b.start, parts: [b] });
    }
  }
  return {
    bucket_width: width,
    window_start: results[0].window_start,
    window_end: results[results.length - 1].window_end,
    totals: {
      credits_nano: results.reduce((a, r) => a + r.totals.credits_nano, 0n),
      requests: results.reduce((a, r) => a + r.totals.requests, 0),
      models: mergeRows(results.map((r) => r.totals.models)),
    },
    buckets: [...buckets.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([, { start, parts }]) => ({
        start,
        credits_nano: parts.reduce((a, b) => a + b.credits_nano, 0n),
        requests: parts.reduce((a, b) => a + b.requests, 0),
        models: mergeRows(parts.map((b) => b.models)),
      })),
  };
}

export interface RangeOptions {
  /** One documented window; the client retries it by the user's retry settings (analyticsClient.ts). */
  fetchOne(query: AnalyticsQuery, signal?: AbortSignal, onRetry?: (info: RetryInfo) => void): Promise<AnalyticsResult>;
  concurrency?: number;
  signal?: AbortSignal;
  /** Called before each retry of a part (for the log and the dashboard's status line). */
  onRetry?: (part: WindowPart, info: RetryInfo) => void;
}

/**
 * Fetches [startTime, endTime) as documented windows, at most `concurrency` at once (each retried by
 * the client, a read: repeating it bills nothing), and stitches the answers.
 */
export async function fetchRange(query: AnalyticsQuery & { endTime: number }, options: RangeOptions): Promise<AnalyticsResult> {
  const width = query.bucketWidth ?? '1d';
  const parts = splitWindow(query.startTime, query.endTime, width);
  const results: AnalyticsResult[] = new Array(parts.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < parts.length) {
      const i = next++;
      const part = parts[i];
      const onRetry = options.onRetry && ((r: RetryInfo) => options.onRetry?.(part, r));
      results[i] = await options.fetchOne({ ...query, startTime: part.startTime, endTime: part.endTime }, options.signal, onRetry);
    }
  };
  const n = Math.max(1, Math.min(options.concurrency ?? RANGE_CONCURRENCY, parts.length));
  await Promise.all(Array.from({ length: n }, () => worker()));
  return stitch(results, width);
}
