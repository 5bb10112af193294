/**
 * Budgets (vscode-free): a daily and a monthly limit in credits, typed as exact decimal strings
 * ("5", "0.25"); empty means no limit. Spend is summed exactly in nanocredits from the local ledger.
 *
 * Levels: below WARN_PERCENT of every budget is 'ok'; at or above it 'warn'; at or above 100 % 'over',
 * where sends are refused unless the user chooses "Send Anyway" for that one send.
 */
import * as l10n from '../l10n';
import { creditsToNano, formatCredits, isDecimalString } from '../pricing';
import { utcDay, type SpendReadResult } from './ledger';

export const WARN_PERCENT = 80n;

export interface BudgetLimits {
  /** Nanocredits per UTC day, or undefined for none. */
  dailyNano?: bigint;
  /** Nanocredits per UTC calendar month, or undefined for none. */
  monthlyNano?: bigint;
}

/** Reads a budget setting: '' (or only spaces) is none; anything else must be a plain decimal of credits. */
export function parseBudget(text: unknown, name: string): { nano?: bigint; error?: string } {
  if (text === undefined || text === null) return {};
  if (typeof text !== 'string') return { error: `${name} must be a string of credits such as "5" or "0.25".` };
  const t = text.trim();
  if (t === '') return {};
  if (!isDecimalString(t)) return { error: `${name} "${text.trim().slice(0, 40)}" is not a plain decimal number of credits such as "5" or "0.25"; it is ignored.` };
  try {
    return { nano: creditsToNano(t) };
  } catch (e) {
    return { error: `${name}: ${e instanceof Error ? e.message : String(e)}` };
  }
}

export type BudgetLevel = 'ok' | 'warn' | 'over';

export interface BudgetCheck {
  level: BudgetLevel;
  /** The budget that decided the level ('daily' or 'monthly'), when not 'ok'. */
  which?: 'daily' | 'monthly';
  dayNano: bigint;
  monthNano: bigint;
}

function levelOf(spent: bigint, limit: bigint | undefined): BudgetLevel {
  if (limit === undefined) return 'ok';
  if (spent >= limit) return 'over';
  if (spent * 100n >= limit * WARN_PERCENT) return 'warn';
  return 'ok';
}

const RANK: Record<BudgetLevel, number> = { ok: 0, warn: 1, over: 2 };

export function checkBudget(limits: BudgetLimits, dayNano: bigint, monthNano: bigint): BudgetCheck {
  const d = levelOf(dayNano, limits.dailyNano);
  const m = levelOf(monthNano, limits.monthlyNano);
  if (RANK[d] === 0 && RANK[m] === 0) return { level: 'ok', dayNano, monthNano };
  return RANK[d] >= RANK[m] ? { level: d, which: 'daily', dayNano, monthNano } : { level: m, which: 'monthly', dayNano, monthNano };
}

/** Exact spend of the ledger lines read, split into today (UTC) and this month (UTC). */
export function spendTotals(read: SpendReadResult, nowMs: number): { dayNano: bigint; monthNano: bigint } {
  const today = utcDay(nowMs);
  const month = today.slice(0, 7);
  let dayNano = 0n;
  let monthNano = 0n;
  for (const e of read.entries) {
    if (e.cost_nano === null) continue;
    const d = utcDay(Date.parse(e.time));
    if (d.slice(0, 7) !== month) continue;
    monthNano += BigInt(e.cost_nano);
    if (d === today) dayNano += BigInt(e.cost_nano);
  }
  for (const s of read.summaries) {
    if (s.day.slice(0, 7) !== month) continue;
    monthNano += BigInt(s.cost_nano);
    if (s.day === today) dayNano += BigInt(s.cost_nano);
  }
  return { dayNano, monthNano };
}

/**
 * The spend the guard goes by when the gateway's figure for today is known: today is the larger of
 * the ledger's and the gateway's (the gateway also bills other windows' and machines' API-key traffic;
 * the ledger has replies the bill may not show yet), and the month is the ledger's earlier days plus
 * that today. Without a gateway figure, the ledger's totals.
 */
export function guardedSpend(ledger: { dayNano: bigint; monthNano: bigint }, gatewayDayNano?: bigint): { dayNano: bigint; monthNano: bigint } {
  if (gatewayDayNano === undefined || gatewayDayNano <= ledger.dayNano) return ledger;
  return { dayNano: gatewayDayNano, monthNano: ledger.monthNano - ledger.dayNano + gatewayDayNano };
}

/** The first instant (ms) of the UTC month of `nowMs`. */
export function monthStartMs(nowMs: number): number {
  const d = new Date(nowMs);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
}

/** "0.42 / 5 credits today (8 %)" for the status bar; exact credits, whole percent rounded down. */
export function describeToday(dayNano: bigint, dailyNano: bigint | undefined): string {
  if (dailyNano === undefined) return l10n.t('{0} today', formatCredits(dayNano));
  const pct = dailyNano === 0n ? 100n : (dayNano * 100n) / dailyNano;
  return l10n.t('{0} / {1} today ({2})', formatCredits(dayNano), formatCredits(dailyNano), formatPercent(pct));
}

/** The sentence shown when a send is refused. */
export function refusalMessage(check: BudgetCheck, limits: BudgetLimits, operation: string, source = 'local ledger'): string {
  const daily = check.which === 'daily';
  const spent = daily ? check.dayNano : check.monthNano;
  const limit = (daily ? limits.dailyNano : limits.monthlyNano) ?? 0n;
  return daily
    ? l10n.t('The daily budget is used up: {0} of {1} spent today ({2}). {3} was not sent.', formatCredits(spent), formatCredits(limit), source, operation)
    : l10n.t('The monthly budget is used up: {0} of {1} spent this month ({2}). {3} was not sent.', formatCredits(spent), formatCredits(limit), source, operation);
}

/**
 * A whole percentage for display: "80 %" in English (as this extension has always written it), the
 * display language's own form elsewhere (Intl: German and Spanish put a no-break space before the %).
 */
export function formatPercent(pct: bigint): string {
  const locale = l10n.displayLocale();
  if (locale === 'en' || locale.startsWith('en-')) return `${pct} %`;
  return new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 0 }).format(Number(pct) / 100);
}
