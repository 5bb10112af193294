/**
 * Exact pricing maths (G-CAT-8, G-AN-6). Catalog rates are decimal strings; costs are integer
 * nanocredits in bigint (1 credit = 1,000,000,000 nanocredits). No JavaScript number ever holds a rate
 * or a cost: decimal strings are parsed digit by digit into bigint, and token counts (integers) are
 * converted to bigint before any multiplication.
 *
 * Rounding rule: each line item is kept as an exact rational number of nanocredits; the total is the
 * exact sum, rounded ONCE, half up, to a whole nanocredit. Line items are also reported rounded (half
 * up) for display, so the displayed lines can differ from the total by at most one nanocredit per line.
 * Assumption (spec: not shown): the gateway's own billing rounding is not documented; this rule keeps
 * the client's estimate within a nanocredit of the exact value.
 */
import * as l10n from './l10n';
import type { ModelPricing, Usage } from './gateway/types';

export const NANO_PER_CREDIT = 1_000_000_000n;

export class PricingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PricingError';
  }
}

/** value = digits / 10^scale, exactly. */
export interface Decimal {
  readonly digits: bigint;
  readonly scale: number;
}

// Plain non-negative decimal: digits, optionally one '.' followed by digits. No sign, exponent,
// whitespace, leading or trailing '.', or thousands separators.
const DECIMAL_RE = /^(\d+)(?:\.(\d+))?$/;
const MAX_DECIMAL_LENGTH = 200;

export function isDecimalString(value: unknown): value is string {
  return typeof value === 'string' && value.length <= MAX_DECIMAL_LENGTH && DECIMAL_RE.test(value);
}

/** Parses a wire decimal string exactly; throws PricingError naming the bad value otherwise. */
export function parseDecimal(value: string, what = 'rate'): Decimal {
  if (typeof value !== 'string') throw new PricingError(`The ${what} is not a decimal string`);
  if (value.length > MAX_DECIMAL_LENGTH) throw new PricingError(`The ${what} is too long to be a price (${value.length} characters)`);
  const m = DECIMAL_RE.exec(value);
  if (!m) throw new PricingError(`The ${what} "${value}" is not a plain decimal number such as "0.15"`);
  const frac = m[2] ?? '';
  return { digits: BigInt(m[1] + frac), scale: frac.length };
}

const POW10: bigint[] = [];
function pow10(n: number): bigint {
  return (POW10[n] ??= 10n ** BigInt(n));
}

/** An exact non-negative rational amount of nanocredits. */
interface Rational {
  num: bigint;
  den: bigint;
}

/** Half-up rounding of a non-negative rational to an integer. */
function roundHalfUp(r: Rational): bigint {
  return (2n * r.num + r.den) / (2n * r.den);
}

export function toCount(n: number | undefined, what: string): bigint {
  if (n === undefined) return 0n;
  if (!Number.isSafeInteger(n) || n < 0) throw new PricingError(`The ${what} (${String(n)}) is not a non-negative whole number`);
  return BigInt(n);
}

/**
 * The exact cost of `quantity` units at `rate` credits per `per` units, as a rational in nanocredits:
 * quantity * rate * 1e9 / per.
 */
function lineCost(quantity: bigint, rate: Decimal, per: bigint): Rational {
  return { num: quantity * rate.digits * NANO_PER_CREDIT, den: per * pow10(rate.scale) };
}

/** Cost of `quantity` units at `rate` credits per `per` units, rounded half up to a nanocredit. */
export function costNanoFor(quantity: bigint | number, rate: string, per: bigint | number = 1n): bigint {
  const q = typeof quantity === 'bigint' ? quantity : toCount(quantity, 'quantity');
  const p = typeof per === 'bigint' ? per : toCount(per, 'unit size');
  if (q < 0n) throw new PricingError('A quantity cannot be negative');
  if (p <= 0n) throw new PricingError('A unit size must be positive');
  return roundHalfUp(lineCost(q, parseDecimal(rate), p));
}

/** Exact conversion of a decimal credits string ("0.000000001") to nanocredits; more than 9 decimals is refused. */
export function creditsToNano(credits: string): bigint {
  const d = parseDecimal(credits, 'credit amount');
  if (d.scale > 9) throw new PricingError(`"${credits}" has more than 9 decimals: below one nanocredit`);
  return d.digits * pow10(9 - d.scale);
}

export type CostLineKind = 'input' | 'cache_read' | 'cache_write' | 'output' | 'reasoning';

export interface CostLine {
  kind: CostLineKind;
  tokens: number;
  /** The rate string used, exactly as the catalog gave it. */
  rate: string;
  /** Which pricing field the rate came from (a fallback rate names the field it fell back to). */
  rateField: keyof ModelPricing;
  /** This line alone, rounded half up. */
  nano: bigint;
}

export interface UsageCost {
  /** Exact sum of all lines, rounded once, half up. */
  totalNano: bigint;
  lines: CostLine[];
  /** Token kinds that had tokens but no applicable rate in the pricing: the total leaves them out. */
  unpriced: CostLineKind[];
  /** Whether reasoning tokens were taken to be part of completion_tokens (see costOfUsage). */
  reasoningIncludedInCompletion: boolean;
}

/**
 * The cost of one response's usage under a model's pricing.
 *
 * Token accounting (the internal Usage, gateway/types.ts; how each route's fields are read into it is
 * gateway/usage.ts and gateway/messagesWire.ts):
 * - Cache: cache_read_tokens and cache_write_tokens are counted inside prompt_tokens. They are billed
 *   at cache_read_per_million / cache_write_per_million when present, otherwise at input_per_million;
 *   the rest of the prompt at input_per_million.
 * - Reasoning: the spec says total_tokens counts reasoning tokens and can exceed prompt + completion,
 *   i.e. reasoning tokens are reported outside completion_tokens. When total_tokens is smaller than
 *   prompt + completion + reasoning, the usage follows the OpenAI convention instead (reasoning inside
 *   completion), and the reasoning tokens are taken out of the output line so nothing is billed twice.
 *   Reasoning tokens are billed at reasoning_per_million when present, otherwise at output_per_million.
 *
 * Throws PricingError when a rate that is needed is malformed, a token count is not a whole number, or
 * the usage names fields the client could not read (`unreadable`): such a reply is charged at a
 * conservative estimate instead (core/spend/charge.ts), never at a total that leaves them out.
 */
export function costOfUsage(usage: Usage, pricing: ModelPricing): UsageCost {
  if (usage.unreadable !== undefined && usage.unreadable.length > 0) {
    throw new PricingError(`The gateway's usage could not be read (${usage.unreadable.join(', ')} not a non-negative whole number)`);
  }
  const prompt = toCount(usage.prompt_tokens, 'prompt_tokens');
  const completion = toCount(usage.completion_tokens, 'completion_tokens');
  const reasoning = toCount(usage.completion_tokens_details?.reasoning_tokens, 'reasoning_tokens');
  const cacheRead = toCount(usage.cache_read_tokens, 'cache read tokens');
  const cacheWrite = toCount(usage.cache_write_tokens, 'cache write tokens');
  const total = usage.total_tokens === undefined ? undefined : toCount(usage.total_tokens, 'total_tokens');

  const reasoningIncluded = reasoning > 0n && total !== undefined && total < prompt + completion + reasoning;
  const output = reasoningIncluded ? (completion > reasoning ? completion - reasoning : 0n) : completion;
  const cachedTotal = cacheRead + cacheWrite;
  const input = prompt > cachedTotal ? prompt - cachedTotal : 0n;

  const million = 1_000_000n;
  const candidates: Array<{ kind: CostLineKind; tokens: bigint; fields: Array<keyof ModelPricing> }> = [
    { kind: 'input', tokens: input, fields: ['input_per_million'] },
    { kind: 'cache_read', tokens: cacheRead, fields: ['cache_read_per_million', 'input_per_million'] },
    { kind: 'cache_write', tokens: cacheWrite, fields: ['cache_write_per_million', 'input_per_million'] },
    { kind: 'output', tokens: output, fields: ['output_per_million'] },
    { kind: 'reasoning', tokens: reasoning, fields: ['reasoning_per_million', 'output_per_million'] },
  ];

  const lines: CostLine[] = [];
  const unpriced: CostLineKind[] = [];
  let sum: Rational = { num: 0n, den: 1n };
  for (const c of candidates) {
    if (c.tokens === 0n) continue;
    const field = c.fields.find((f) => pricing[f] !== undefined);
    if (field === undefined) {
      unpriced.push(c.kind);
      continue;
    }
    const rate = pricing[field] as string;
    const exact = lineCost(c.tokens, parseDecimal(rate, field), million);
    sum = sum.den === exact.den ? { num: sum.num + exact.num, den: sum.den } : { num: sum.num * exact.den + exact.num * sum.den, den: sum.den * exact.den };
    lines.push({ kind: c.kind, tokens: Number(c.tokens), rate, rateField: field, nano: roundHalfUp(exact) });
  }
  return { totalNano: roundHalfUp(sum), lines, unpriced, reasoningIncludedInCompletion: reasoningIncluded };
}

/**
 * Convenience for UI code: the total in nanocredits, or undefined when the pricing is not in credits,
 * has no token rates, or is malformed (the caller then shows no cost rather than a wrong one).
 */
export function usageCostNano(pricing: ModelPricing, usage: Usage): bigint | undefined {
  if (pricing.unit !== 'credits') return undefined;
  if (pricing.input_per_million === undefined && pricing.output_per_million === undefined) return undefined;
  try {
    return costOfUsage(usage, pricing).totalNano;
  } catch (e) {
    if (e instanceof PricingError) return undefined;
    throw e;
  }
}

/** Exact decimal rendering of nanocredits without unit: 123456n -> "0.000123456", 2_500_000_000n -> "2.5". */
export function formatNano(nano: bigint): string {
  const neg = nano < 0n;
  const abs = neg ? -nano : nano;
  const int = abs / NANO_PER_CREDIT;
  const frac = (abs % NANO_PER_CREDIT).toString().padStart(9, '0').replace(/0+$/, '');
  return `${neg ? '-' : ''}${int}${frac ? `.${frac}` : ''}`;
}

/**
 * An exact decimal string ("0.000123456", "-12.50") for display in the display language: its
 * separators ("0,000123456" in German, "1,234.5" in English), every digit kept. Intl formats a decimal
 * STRING exactly (no trip through a binary float), so credits stay exact.
 */
export function formatDecimalText(decimal: string): string {
  const fraction = /\.(\d+)$/.exec(decimal)?.[1]?.length ?? 0;
  const digits = Math.min(fraction, 100);
  const format = new Intl.NumberFormat(l10n.displayLocale(), { minimumFractionDigits: digits, maximumFractionDigits: digits });
  return format.format(decimal as unknown as number);
}

/** "0.000123456 credits", "1 credit", "0 credits": exact, trailing zeros trimmed, in the display language. */
export function formatCredits(nano: bigint): string {
  const n = formatNano(nano);
  const shown = formatDecimalText(n);
  return n === '1' || n === '-1' ? l10n.t('{0} credit', shown) : l10n.t('{0} credits', shown);
}

/**
 * A catalog rate shown exactly as the gateway wrote it: formatRate("0.150") is
 * "0.150 credits / 1M tokens". Refuses malformed values rather than showing a made-up number.
 */
export function formatRate(rate: string, per = l10n.t('1M tokens')): string {
  parseDecimal(rate);
  // "1 credit / 1M tokens" (#41.10): singular only for a rate written as exactly 1, as formatCredits does.
  return rate.trim() === '1' ? l10n.t('{0} credit / {1}', formatDecimalText(rate), per) : l10n.t('{0} credits / {1}', formatDecimalText(rate), per);
}
