/**
 * The Usage dashboard's view model (vscode-free): windows from presets or typed bounds, the local
 * ledger folded into the same shape as a gateway answer, and the plain-JSON view the webview draws.
 * Every figure is exact (bigint nanocredits rendered as decimal strings); the chart gets doubles for
 * drawing only, next to the exact strings its tooltip shows.
 */
import { USAGE_PRESETS, parseUsageTime, presetWindow } from '../account/usageReport';
import { formatNano } from '../pricing';
import type { SpendReadResult } from '../spend/ledger';
import { ACTOR_TYPES, APPLICATIONS, AUTH_METHODS, BUCKET_SECONDS, BUCKET_WIDTHS, GROUP_BY_DIMENSIONS, compareTotalsRows, type AnalyticsResult, type AnalyticsRow, type BucketWidth, type GroupByDimension } from './analytics';
import { splitWindow } from './range';
import { dimensionValueLabel, LEDGER_DIMENSIONS, type DashboardRequest, type WireSeries, type WireView } from '../../protocol/usageProtocol';

// The page's side of these types is the dashboard protocol (src/protocol/usageProtocol.ts).
export type { DashboardRequest, WireRow, WireSeries, WireView } from '../../protocol/usageProtocol';


export interface ResolvedRequest {
  startTime: number;
  endTime: number;
  bucketWidth: BucketWidth;
  authMethod?: (typeof AUTH_METHODS)[number];
  actorType?: (typeof ACTOR_TYPES)[number];
  application?: (typeof APPLICATIONS)[number];
  groupBy: GroupByDimension[];
  site?: string;
  /** How many documented windows the range needs (more than one is stitched). */
  parts: number;
}

const oneOf = <T extends string>(list: readonly T[], v: string | undefined): v is T => v !== undefined && (list as readonly string[]).includes(v);

/** Checks the dashboard's request before anything is sent; an error names the parameter. */
export function resolveRequest(req: DashboardRequest, nowMs: number): ResolvedRequest | { error: string; param: string } {
  let startTime: number;
  let endTime: number;
  let width: BucketWidth;
  if (req.preset) {
    const p = USAGE_PRESETS.find((x) => x.id === req.preset);
    if (!p) return { error: `Unknown preset '${req.preset}'.`, param: 'preset' };
    ({ startTime, endTime, bucketWidth: width } = presetWindow(p, nowMs));
  } else {
    if (!oneOf(BUCKET_WIDTHS, req.width)) return { error: `bucket_width must be one of ${BUCKET_WIDTHS.join(', ')}.`, param: 'bucket_width' };
    width = req.width;
    const s = parseUsageTime(req.start ?? '', nowMs);
    if ('error' in s) return { error: s.error, param: 'start_time' };
    const e = req.end?.trim() ? parseUsageTime(req.end, nowMs) : { seconds: Math.floor(nowMs / 1000) };
    if ('error' in e) return { error: e.error, param: 'end_time' };
    startTime = s.seconds;
    endTime = e.seconds;
    if (endTime <= startTime) return { error: 'The end must be after the start (start inclusive, end exclusive).', param: 'end_time' };
  }
  let parts: number;
  try {
    parts = splitWindow(startTime, endTime, width).length;
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e), param: 'bucket_width' };
  }
  const out: ResolvedRequest = { startTime, endTime, bucketWidth: width, groupBy: [], parts };
  if (req.authMethod) {
    if (!oneOf(AUTH_METHODS, req.authMethod)) return { error: `auth_method must be one of ${AUTH_METHODS.join(', ')}.`, param: 'auth_method' };
    out.authMethod = req.authMethod;
  }
  if (req.actorType) {
    if (!oneOf(ACTOR_TYPES, req.actorType)) return { error: `actor_type must be one of ${ACTOR_TYPES.join(', ')}.`, param: 'actor_type' };
    out.actorType = req.actorType;
  }
  if (req.application) {
    if (!oneOf(APPLICATIONS, req.application)) return { error: `application must be one of ${APPLICATIONS.join(', ')}.`, param: 'application' };
    out.application = req.application;
  }
  for (const d of req.groupBy ?? []) {
    if (!oneOf(GROUP_BY_DIMENSIONS, d)) return { error: `group_by dimension '${d}' is not one of ${GROUP_BY_DIMENSIONS.join(', ')}.`, param: 'group_by' };
    if (!out.groupBy.includes(d)) out.groupBy.push(d);
  }
  if (out.groupBy.length === 0) out.groupBy = ['model', 'operation'];
  if (req.site?.trim()) out.site = req.site.trim();
  return out;
}

/** Unix seconds as ISO 8601 UTC without the milliseconds a whole second never has ("2026-11-28T10:00:00Z"), #41.10. */
function isoSeconds(sec: number): string {
  return new Date(sec * 1000).toISOString().replace(/\.000Z$/, 'Z');
}

export type LedgerDimension = (typeof LEDGER_DIMENSIONS)[number];

/**
 * The grouping the local ledger can honour (#41.7): the ledger's own dimensions among `groupBy`, in
 * its order; model and operation when it names none of them.
 */
export function ledgerGroupBy(groupBy: readonly string[]): LedgerDimension[] {
  const dims = groupBy.filter((d): d is LedgerDimension => (LEDGER_DIMENSIONS as readonly string[]).includes(d));
  return dims.length > 0 ? [...new Set(dims)] : [...LEDGER_DIMENSIONS];
}

/**
 * The local ledger in the shape of an analytics answer over [start, end): buckets of the width, rows
 * grouped by `groupBy` among model and operation (the only dimensions the ledger knows; its traffic is
 * all API-key); a dimension not grouped by is '' in the rows. A compacted day counts in the bucket that
 * holds the day's start.
 */
export function ledgerResult(read: SpendReadResult, r: Pick<ResolvedRequest, 'startTime' | 'endTime' | 'bucketWidth'>, groupBy: readonly LedgerDimension[] = LEDGER_DIMENSIONS): AnalyticsResult {
  const step = BUCKET_SECONDS[r.bucketWidth];
  const byModel = groupBy.includes('model');
  const byOperation = groupBy.includes('operation');
  const buckets = new Map<number, Map<string, AnalyticsRow>>();
  // An entry whose cost is the client's estimate (a stopped or cut reply, usage it could not read;
  // core/spend/charge.ts) counts like the rest, in a row of its own marked "(estimated)" on the
  // operation (or on the model when the rows are not by operation).
  const add = (atSec: number, entryModel: string, entryOperation: string, estimated: boolean, nano: bigint, requests: number): void => {
    if (atSec < r.startTime || atSec >= r.endTime) return;
    const mark = (v: string): string => (estimated ? `${v} (estimated)` : v);
    const model = byModel ? (byOperation ? entryModel : mark(entryModel)) : '';
    const operation = byOperation ? mark(entryOperation) : '';
    const b = Math.floor(atSec / step) * step;
    let rows = buckets.get(b);
    if (!rows) buckets.set(b, (rows = new Map()));
    const k = `${model}\u0000${operation}`;
    const cur = rows.get(k);
    if (cur) {
      cur.credits_nano += nano;
      cur.requests += requests;
    } else rows.set(k, { model, operation, credits_nano: nano, requests });
  };
  for (const e of read.entries) add(Math.floor(Date.parse(e.time) / 1000), e.model, e.operation, Boolean(e.estimated), BigInt(e.cost_nano ?? '0'), 1);
  for (const s of read.summaries) add(Math.floor(Date.parse(`${s.day}T00:00:00Z`) / 1000), s.model, s.operation, false, BigInt(s.cost_nano), s.requests);
  const total = new Map<string, AnalyticsRow>();
  const out = [...buckets.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([b, rows]) => {
      const models = [...rows.values()].sort(compareTotalsRows);
      for (const m of models) {
        const k = `${m.model}\u0000${m.operation}`;
        const cur = total.get(k);
        if (cur) {
          cur.credits_nano += m.credits_nano;
          cur.requests += m.requests;
        } else total.set(k, { ...m });
      }
      return { start: isoSeconds(b), credits_nano: models.reduce((a, m) => a + m.credits_nano, 0n), requests: models.reduce((a, m) => a + m.requests, 0), models };
    });
  const models = [...total.values()].sort(compareTotalsRows);
  return {
    bucket_width: r.bucketWidth,
    window_start: isoSeconds(r.startTime),
    window_end: isoSeconds(r.endTime),
    totals: { credits_nano: models.reduce((a, m) => a + m.credits_nano, 0n), requests: models.reduce((a, m) => a + m.requests, 0), models },
    buckets: out,
  };
}

/** The plain-JSON view; the chart is stacked by the first grouping dimension. */
export function toWireView(result: AnalyticsResult, source: WireView['source'], groupBy: readonly GroupByDimension[]): WireView {
  const dims = groupBy.length > 0 ? [...groupBy] : ['model' as const, 'operation' as const];
  const first = dims[0];
  const xs = result.buckets.map((b) => Math.floor(Date.parse(b.start) / 1000));
  const labels = new Map<string, bigint>();
  for (const r of result.totals.models) labels.set(r[first] ?? '', (labels.get(r[first] ?? '') ?? 0n) + r.credits_nano);
  const ordered = [...labels.entries()].sort((a, b) => (a[1] !== b[1] ? (a[1] > b[1] ? -1 : 1) : a[0] < b[0] ? -1 : 1)).map(([l]) => l);
  const series: WireSeries[] = ordered.map((label) => {
    const nanos = result.buckets.map((b) => b.models.filter((m) => (m[first] ?? '') === label).reduce((a, m) => a + m.credits_nano, 0n));
    const requests = result.buckets.map((b) => b.models.filter((m) => (m[first] ?? '') === label).reduce((a, m) => a + m.requests, 0));
    return { label: label === '' && first === 'client_id' ? '(no registered site)' : label ? dimensionValueLabel(first, label) : '(none)', values: nanos.map((n) => Number(n) / 1e9), exact: nanos.map(formatNano), requests };
  });
  return {
    source,
    windowStart: result.window_start,
    windowEnd: result.window_end,
    bucketWidth: result.bucket_width,
    dims,
    total: { credits: formatNano(result.totals.credits_nano), requests: result.totals.requests },
    rows: result.totals.models.map((r) => ({ dims: dims.map((d) => r[d] ?? ''), requests: r.requests, credits: formatNano(r.credits_nano) })),
    chart: { xs, series },
  };
}
