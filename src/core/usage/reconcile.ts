/**
 * Reconciliation: for each model and UTC day, the local ledger's cost next to the gateway's
 * credits_nano for API-key traffic (the traffic this editor's keys make), with the difference.
 *
 * A difference is flagged when it is beyond rounding: the ledger rounds each reply once to a whole
 * nanocredit (src/core/pricing.ts), so the sum of N local replies may differ from an exact bill by at
 * most N nanocredits (the gateway's own rounding is not documented). The explanation names what can be
 * seen locally:
 *  - replies recorded at a pricing_version other than the catalog's current one (a repricing between
 *    the reply and the bill);
 *  - no local record (usage from another client, another machine, or a reply this editor did not record);
 *  - local replies the gateway has not billed (yet), or replies recorded without usable rates;
 *  - local replies whose cost is the client's estimate (stopped or cut before the gateway reported
 *    usage, or usage it could not read; core/spend/charge.ts): the bill has their real cost.
 */
import type { SpendDaySummary, SpendEntry } from '../spend/ledger';
import { utcDay } from '../spend/ledger';
import type { AnalyticsResult } from './analytics';

export interface ReconRow {
  day: string;
  model: string;
  ledgerNano: bigint;
  ledgerRequests: number;
  gatewayNano: bigint;
  gatewayRequests: number;
  /** gateway - ledger. */
  diffNano: bigint;
  flagged: boolean;
  explanation?: string;
}

interface LocalCell {
  nano: bigint;
  requests: number;
  unpriced: number;
  estimated: number;
  versions: Set<string>;
}

/**
 * `gateway` must be a 1-day-bucket result for auth_method=api_key grouped by model (the dashboard
 * asks for exactly that). `currentVersions` maps model id to the catalog's pricing_version now.
 */
export function reconcile(
  local: { entries: readonly SpendEntry[]; summaries: readonly SpendDaySummary[] },
  gateway: AnalyticsResult,
  currentVersions: ReadonlyMap<string, string>,
): ReconRow[] {
  const cells = new Map<string, LocalCell>();
  const cell = (day: string, model: string): LocalCell => {
    const k = `${day}\u0000${model}`;
    let c = cells.get(k);
    if (!c) cells.set(k, (c = { nano: 0n, requests: 0, unpriced: 0, estimated: 0, versions: new Set() }));
    return c;
  };
  const from = Date.parse(gateway.window_start);
  const to = Date.parse(gateway.window_end);
  for (const e of local.entries) {
    const t = Date.parse(e.time);
    if (!(t >= from && t < to)) continue;
    const c = cell(utcDay(t), e.model);
    c.requests++;
    if (e.cost_nano === null) c.unpriced++;
    else c.nano += BigInt(e.cost_nano);
    if (e.estimated) c.estimated++;
    if (e.pricing_version) c.versions.add(e.pricing_version);
  }
  for (const s of local.summaries) {
    const t = Date.parse(`${s.day}T00:00:00Z`);
    if (!(t + 86_400_000 > from && t < to)) continue;
    const c = cell(s.day, s.model);
    c.requests += s.requests;
    c.unpriced += s.unpriced;
    c.estimated += s.estimated ?? 0;
    c.nano += BigInt(s.cost_nano);
    if (s.pricing_version) c.versions.add(s.pricing_version);
  }
  const remote = new Map<string, { nano: bigint; requests: number }>();
  for (const b of gateway.buckets) {
    const t = Date.parse(b.start);
    if (Number.isNaN(t)) continue;
    for (const r of b.models) {
      const k = `${utcDay(t)}\u0000${r.model}`;
      const cur = remote.get(k) ?? { nano: 0n, requests: 0 };
      cur.nano += r.credits_nano;
      cur.requests += r.requests;
      remote.set(k, cur);
      cell(utcDay(t), r.model);
    }
  }
  const rows: ReconRow[] = [];
  for (const [k, c] of cells) {
    const [day, model] = k.split('\u0000');
    const g = remote.get(k) ?? { nano: 0n, requests: 0 };
    const diff = g.nano - c.nano;
    const abs = diff < 0n ? -diff : diff;
    const tolerance = BigInt(Math.max(1, c.requests));
    const flagged = abs > tolerance || c.unpriced > 0;
    const row: ReconRow = { day, model, ledgerNano: c.nano, ledgerRequests: c.requests, gatewayNano: g.nano, gatewayRequests: g.requests, diffNano: diff, flagged };
    if (flagged) row.explanation = explain(c, g, currentVersions.get(model));
    rows.push(row);
  }
  return rows.sort((a, b) => (a.day !== b.day ? (a.day < b.day ? 1 : -1) : a.model < b.model ? -1 : a.model > b.model ? 1 : 0));
}

function explain(c: LocalCell, g: { nano: bigint; requests: number }, current: string | undefined): string {
  const reasons: string[] = [];
  if (c.requests === 0) return 'No local record: this usage came from another client or machine, or a reply this editor did not record.';
  if (g.requests === 0) reasons.push('The gateway shows no API-key usage for this model and day yet (billing may lag, or the replies went through another authentication method).');
  const stale = [...c.versions].filter((v) => current !== undefined && v !== current);
  if (stale.length > 0) reasons.push(`Repricing: local replies were priced at pricing_version ${stale.join(', ')}, the catalog is now at ${current}; the bill may use other rates than the reply did.`);
  if (c.requests > 0 && g.requests > c.requests) reasons.push(`The gateway counted ${g.requests - c.requests} more request(s) than were recorded here (another client, machine, or an unrecorded reply).`);
  if (c.requests > g.requests && g.requests > 0) reasons.push(`${c.requests - g.requests} local reply(ies) are not on the bill yet.`);
  if (c.unpriced > 0) reasons.push(`${c.unpriced} local reply(ies) had no usable rates in the catalog, so their local cost is unknown.`);
  if (c.estimated > 0) reasons.push(`${c.estimated} local reply(ies) are estimates (stopped or cut before the gateway reported usage, or usage that could not be read): the bill has their real cost.`);
  if (reasons.length === 0) reasons.push('Same request count on both sides: the gateway billed these requests differently from the catalog rates.');
  return reasons.join(' ');
}
