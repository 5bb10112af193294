/**
 * CSV export of the totals table and of the buckets (RFC 4180: comma-separated, CRLF, fields quoted
 * when they hold a comma, quote or line break). Safe to open in a spreadsheet: a text cell starting
 * with = + - @ tab or carriage return is prefixed with an apostrophe so it is never read as a
 * formula (model names and operations come from the server). Plain numbers (exact decimals, possibly
 * negative for a difference) are left as they are.
 */
import { formatNano } from '../pricing';
import type { AnalyticsResult, AnalyticsRow, GroupByDimension } from './analytics';
import type { ReconRow } from './reconcile';
import type { SpendEntry } from '../spend/ledger';
import { dimensionValueLabel } from '../../protocol/usageProtocol';

const NUMBER_RE = /^-?\d+(\.\d+)?$/;

export function csvCell(value: string | number | bigint): string {
  let s = String(value);
  if (typeof value === 'string' && !NUMBER_RE.test(s) && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) || s.startsWith("'") ? `"${s.replace(/"/g, '""')}"` : s;
}

export function toCsv(header: readonly string[], rows: ReadonlyArray<ReadonlyArray<string | number | bigint>>): string {
  return [header, ...rows].map((r) => r.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

function dims(groupBy: readonly GroupByDimension[]): GroupByDimension[] {
  return groupBy.length > 0 ? [...groupBy] : ['model', 'operation'];
}

/**
 * The grouping columns: each dimension's value as sent (ids a script can match), and after `operation`
 * an `operation_name` column with the words the dashboard shows for it, in the display language (#41.10).
 */
function header(d: readonly GroupByDimension[]): string[] {
  return d.flatMap((k) => (k === 'operation' ? ['operation', 'operation_name'] : [k]));
}

function cells(r: AnalyticsRow, d: readonly GroupByDimension[]): string[] {
  return d.flatMap((k) => (k === 'operation' ? [r.operation, dimensionValueLabel('operation', r.operation)] : [r[k] ?? '']));
}

/** The totals table: one line per row in the documented order, exact credits and nanocredits. */
export function totalsCsv(result: AnalyticsResult, groupBy: readonly GroupByDimension[]): string {
  const d = dims(groupBy);
  return toCsv(
    [...header(d), 'requests', 'credits', 'credits_nano'],
    result.totals.models.map((r) => [...cells(r, d), r.requests, formatNano(r.credits_nano), r.credits_nano]),
  );
}

/** The buckets: one line per bucket and row; `bucket_start` as the API sends it (ISO 8601, UTC). */
export function bucketsCsv(result: AnalyticsResult, groupBy: readonly GroupByDimension[]): string {
  const d = dims(groupBy);
  const rows: Array<Array<string | number | bigint>> = [];
  for (const b of result.buckets) for (const r of b.models) rows.push([b.start, ...cells(r, d), r.requests, formatNano(r.credits_nano), r.credits_nano]);
  return toCsv(['bucket_start', ...header(d), 'requests', 'credits', 'credits_nano'], rows);
}

export function reconciliationCsv(rows: readonly ReconRow[]): string {
  return toCsv(
    ['day', 'model', 'ledger_requests', 'ledger_credits', 'gateway_requests', 'gateway_credits', 'difference_credits', 'flagged', 'explanation'],
    rows.map((r) => [r.day, r.model, r.ledgerRequests, formatNano(r.ledgerNano), r.gatewayRequests, formatNano(r.gatewayNano), formatNano(r.diffNano), r.flagged ? 'yes' : 'no', r.explanation ?? '']),
  );
}

/**
 * The local ledger's entries, one line each, with their tokens: prompt (cache reads and writes
 * included), of which cache read and cache write, completion, reasoning (#39.3); the exact cost, and
 * whether it is an estimate and why (#39.1, #39.5). Days already compacted into summaries have no
 * entries left and are not in this export.
 */
export function ledgerEntriesCsv(entries: readonly SpendEntry[]): string {
  const n = (v: unknown): number | string => (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : '');
  return toCsv(
    ['time', 'model', 'operation', 'operation_name', 'prompt_tokens', 'cache_read_tokens', 'cache_write_tokens', 'completion_tokens', 'reasoning_tokens', 'credits', 'credits_nano', 'estimated', 'pricing_version', 'request_id'],
    entries.map((e) => [
      e.time,
      e.model,
      e.operation,
      dimensionValueLabel('operation', e.operation),
      n(e.usage.prompt_tokens),
      n(e.usage.cache_read_tokens ?? 0),
      n(e.usage.cache_write_tokens ?? 0),
      n(e.usage.completion_tokens),
      n(e.usage.completion_tokens_details?.reasoning_tokens ?? 0),
      e.cost_nano === null ? '' : formatNano(BigInt(e.cost_nano)),
      e.cost_nano ?? '',
      e.estimated ?? '',
      e.pricing_version ?? '',
      e.request_id ?? '',
    ]),
  );
}
