/**
 * The "Show Usage" view model (vscode-free): window presets, custom-window parsing and the markdown
 * report rendered from an AnalyticsResult. Credits are rendered exactly from bigint nanocredits
 * (G-AN-6) with the shared pricing formatter; nothing here goes through a double.
 */
import { DIMENSION_LABELS, dimensionValueLabel } from '../../protocol/usageProtocol';
import {
  BUCKET_SECONDS,
  DEFAULT_GROUP_BY,
  MAX_WINDOW_SECONDS,
  buildAnalyticsParams,
  compareTotalsRows,
  isInTotalsOrder,
  type AnalyticsQuery,
  type AnalyticsResult,
  type AnalyticsRow,
  type BucketWidth,
  type GroupByDimension,
} from '../usage/analytics';
import { formatCredits, formatNano } from '../pricing';

export interface UsageWindowPreset {
  id: 'day' | 'week' | 'month';
  label: string;
  description: string;
  bucketWidth: BucketWidth;
}

/** One preset per bucket width, each the largest window that width allows (G-AN-2). */
export const USAGE_PRESETS: readonly UsageWindowPreset[] = [
  { id: 'day', label: 'Last 24 hours', description: '10-minute buckets', bucketWidth: '10m' },
  { id: 'week', label: 'Last 7 days', description: 'hourly buckets', bucketWidth: '1h' },
  { id: 'month', label: 'Last 30 days', description: 'daily buckets', bucketWidth: '1d' },
];

export interface UsageWindow {
  startTime: number;
  endTime: number;
  bucketWidth: BucketWidth;
}

/**
 * A preset window ending now. The end is sent explicitly rather than left to the server's clock: with
 * a start exactly one maximum window back, a server clock a second ahead of ours would make the window
 * too long and answer 400.
 *
 * The end is exclusive and in whole seconds, so it is the second AFTER the current one: a reply recorded
 * (and billed) earlier in this same second is in the window. With the end at the current second, a
 * dashboard that re-queried right after a reply left that reply out on both sides until something else
 * made it query again. Assumed (not shown in the spec): the gateway accepts an end up to a second ahead
 * of its clock, as "the end defaults to now" suggests; change the `+ 1` here if it does not.
 */
export function presetWindow(preset: UsageWindowPreset, nowMs: number): UsageWindow {
  const endTime = Math.floor(nowMs / 1000) + 1;
  return { startTime: endTime - MAX_WINDOW_SECONDS[preset.bucketWidth], endTime, bucketWidth: preset.bucketWidth };
}

/**
 * Parses a point in time typed by the user: an ISO 8601 date or date-time ("2026-11-20",
 * "2026-11-20T08:00Z", "2026-11-20 08:00" read as UTC), or a time relative to now ("-6h", "-3d",
 * "-90m"). Returns Unix seconds, or an error sentence.
 */
export function parseUsageTime(text: string, nowMs: number): { seconds: number } | { error: string } {
  const t = text.trim();
  const rel = /^-(\d+)\s*(m|h|d)$/i.exec(t);
  if (rel) {
    const unit = { m: 60, h: 3600, d: 86400 }[rel[2].toLowerCase() as 'm' | 'h' | 'd'];
    return { seconds: Math.floor(nowMs / 1000) - Number(rel[1]) * unit };
  }
  const m = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2})?)(Z|[+-]\d{2}:\d{2})?)?$/i.exec(t);
  if (!m) return { error: 'Use a UTC date or date-time such as 2026-11-20 or 2026-11-20 08:00, or a relative time such as -6h or -3d.' };
  const iso = `${m[1]}T${m[2] ?? '00:00'}${m[2] && m[2].length === 5 ? ':00' : ''}${m[3] ? m[3].toUpperCase() : 'Z'}`;
  const ms = Date.parse(iso);
  if (Number.isNaN(ms) || !isCalendarDate(m[1])) return { error: `'${t}' is not a valid date.` };
  return { seconds: Math.floor(ms / 1000) };
}

/** Date.parse rolls 2026-02-31 over to March; a typo should be an error instead. */
export function isCalendarDate(ymd: string): boolean {
  const [y, mo, d] = ymd.split('-').map(Number);
  const dt = new Date(Date.UTC(y, mo - 1, d));
  return dt.getUTCFullYear() === y && dt.getUTCMonth() === mo - 1 && dt.getUTCDate() === d;
}

/**
 * A custom window from the user's start and end text (empty end = now), checked against the same
 * rules the client enforces before sending (G-AN-2, G-AN-3). Returns the window or an error sentence.
 */
export function parseCustomWindow(startText: string, endText: string, bucketWidth: BucketWidth, nowMs: number): UsageWindow | { error: string } {
  const start = parseUsageTime(startText, nowMs);
  if ('error' in start) return { error: `Start: ${start.error}` };
  const end = endText.trim() === '' ? { seconds: Math.floor(nowMs / 1000) } : parseUsageTime(endText, nowMs);
  if ('error' in end) return { error: `End: ${end.error}` };
  const window: UsageWindow = { startTime: start.seconds, endTime: end.seconds, bucketWidth };
  try {
    buildAnalyticsParams({ projectId: 'check', ...window }, Math.floor(nowMs / 1000));
  } catch (e) {
    return { error: (e as Error).message };
  }
  return window;
}

export const GROUP_BY_LABELS: Record<GroupByDimension, string> = DIMENSION_LABELS;

/** Markdown table cell: no HTML, no markup, no row breaks from whatever the server sent. */
export function markdownCell(value: string): string {
  return value
    .replace(/[\r\n]+/g, ' ')
    .replace(/[\\`*_[\]<>|#&!~]/g, (c) => `\\${c}`)
    .trim();
}

const INTEGER = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

export interface UsageReportInput {
  projectId: string;
  /** Only the grouping and filters are read. */
  query: Partial<AnalyticsQuery>;
  result: AnalyticsResult;
  /** When the report was fetched, for the header line. */
  fetchedAtMs: number;
}

/**
 * The read-only report: header (project, window, bucket width, grouping, filters), totals in credits
 * (exact), one row per group in the documented order (G-AN-7), then one line per non-empty bucket.
 * Rows arrive sorted; a server that breaks the order is named in a note and the rows are sorted here.
 */
export function renderUsageReport(input: UsageReportInput): string {
  const { result } = input;
  const groupBy: readonly GroupByDimension[] = input.query.groupBy && input.query.groupBy.length > 0 ? [...new Set(input.query.groupBy)] : DEFAULT_GROUP_BY;
  const out: string[] = [];
  out.push(`# Usage of project ${markdownCell(input.projectId)}`, '');
  out.push(`- Window: ${readableUtc(result.window_start)} to ${readableUtc(result.window_end)} (UTC; start inclusive, end exclusive)`);
  out.push(`- Buckets: ${markdownCell(result.bucket_width)}`);
  out.push(`- Grouped by: ${groupBy.map((d) => GROUP_BY_LABELS[d]).join(', ')}`);
  const filters = [
    input.query.authMethod && `auth method ${input.query.authMethod}`,
    input.query.actorType && `actor type ${input.query.actorType}`,
    input.query.application && `application ${input.query.application}`,
    input.query.siteClientId && `site ${input.query.siteClientId}`,
  ].filter((f): f is string => Boolean(f));
  out.push(`- Filters: ${filters.length ? markdownCell(filters.join(', ')) : 'none (all usage)'}`);
  out.push(`- Fetched: ${readableUtc(new Date(input.fetchedAtMs).toISOString())} UTC`, '');

  out.push('## Totals', '');
  out.push(`**${formatCredits(result.totals.credits_nano)}** in ${INTEGER.format(result.totals.requests)} request${result.totals.requests === 1 ? '' : 's'}.`, '');
  out.push('Credits are exact: 1 credit = 1,000,000,000 nanocredits.', '');

  const rows = [...result.totals.models];
  if (!isInTotalsOrder(rows)) {
    rows.sort(compareTotalsRows);
    out.push('> Note: the gateway sent these rows out of the documented order; they are shown sorted by credits.', '');
  }
  if (rows.length === 0) {
    out.push('No usage in this window.', '');
  } else {
    out.push(`| ${groupBy.map((d) => GROUP_BY_LABELS[d]).join(' | ')} | Credits | Requests |`);
    out.push(`|${groupBy.map(() => ' --- ').join('|')}| ---: | ---: |`);
    for (const r of rows) {
      const cells = groupBy.map((d) => dimensionCell(r, d));
      out.push(`| ${cells.join(' | ')} | ${formatNano(r.credits_nano)} | ${INTEGER.format(r.requests)} |`);
    }
    out.push('');
  }

  out.push('## Per bucket', '');
  const nonEmpty = result.buckets.filter((b) => b.credits_nano !== 0n || b.requests !== 0);
  if (nonEmpty.length === 0) {
    out.push('No bucket has usage.', '');
  } else {
    out.push('| Bucket start (UTC) | Credits | Requests |', '| --- | ---: | ---: |');
    for (const b of nonEmpty) out.push(`| ${readableUtc(b.start)} | ${formatNano(b.credits_nano)} | ${INTEGER.format(b.requests)} |`);
    out.push('');
  }
  const empty = result.buckets.length - nonEmpty.length;
  if (empty > 0) out.push(`${empty} empty bucket${empty === 1 ? '' : 's'} of ${bucketLabel(result.bucket_width)} not shown.`, '');
  return out.join('\n');
}

function dimensionCell(r: AnalyticsRow, d: GroupByDimension): string {
  const v = r[d];
  if (v === undefined || v === '') {
    // G-AN-8: an empty client_id (or unresolvable site_id) is usage without a registered site.
    return d === 'client_id' || d === 'site_id' ? '*(no registered site)*' : '*(none)*';
  }
  // Operation ids ("chat-panel") and documented values ("api_key") in words (#41.10).
  return markdownCell(dimensionValueLabel(d, v));
}

/**
 * An ISO time as people read it in the report (#41.10): "2026-11-28 10:05" (seconds only when not
 * zero, never milliseconds), in UTC as the API's times are; anything that is not a time is shown as sent.
 */
export function readableUtc(iso: string): string {
  const t = Date.parse(iso);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(iso) || !Number.isFinite(t)) return markdownCell(iso);
  const s = new Date(t).toISOString();
  return `${s.slice(0, 10)} ${s.slice(11, s.slice(17, 19) === '00' ? 16 : 19)}`;
}

function bucketLabel(width: string): string {
  const s = BUCKET_SECONDS[width as BucketWidth];
  if (s === undefined) return width;
  return s === 600 ? '10 minutes' : s === 3600 ? '1 hour' : '1 day';
}

/** Short title for the report tab, e.g. "Usage proj_1, last 7 days". */
export function usageReportTitle(projectId: string, window: UsageWindow): string {
  const days = (window.endTime - window.startTime) / 86400;
  const span = Number.isInteger(days) ? `${days} day${days === 1 ? '' : 's'}` : `${Math.round((window.endTime - window.startTime) / 3600)} h`;
  return `Usage ${projectId} (${span}, ${window.bucketWidth})`;
}
