/**
 * Numbers and credit amounts for display in a webview (#30.2), in the editor's display language
 * (`l10n.displayLocale()`, set by ./l10n.ts): `Intl`, never hand-built. Credits cross the protocols as
 * exact decimal strings or nanocredit integers; they are formatted from the string, so no digit is
 * lost to a float (Intl.NumberFormat formats a decimal string exactly).
 */
import * as l10n from '../../core/l10n';

const DECIMAL = /^-?\d{1,30}(\.\d{1,18})?$/;
const formats = new Map<string, Intl.NumberFormat>();

/** The display language's number format: up to 18 decimals, or exactly `digits` decimals when given. */
function numberFormat(digits?: number): Intl.NumberFormat {
  const locale = l10n.displayLocale();
  const key = `${locale}/${digits ?? ''}`;
  let f = formats.get(key);
  if (!f) formats.set(key, (f = new Intl.NumberFormat(locale, digits === undefined ? { maximumFractionDigits: 18 } : { minimumFractionDigits: digits, maximumFractionDigits: digits })));
  return f;
}

/** A count or any number: "1,234" (en), "1.234" (de). */
export function formatNumber(n: number): string {
  return numberFormat().format(n);
}

/** An exact decimal string ("0.000123456", "-12.5") in the display language, every digit kept; anything else as given. */
export function formatDecimal(decimal: string): string {
  // Intl.NumberFormat.format takes a decimal string and keeps its digits (ES2023); typed for numbers here.
  return DECIMAL.test(decimal) ? numberFormat().format(decimal as unknown as number) : decimal;
}

/** Nanocredits (a decimal integer string) as an exact decimal string of credits. */
export function creditsOfNano(nano: string): string {
  if (!/^-?\d{1,30}$/.test(nano)) return nano;
  const neg = nano.startsWith('-');
  const digits = (neg ? nano.slice(1) : nano).padStart(10, '0');
  const int = digits.slice(0, -9).replace(/^0+(?=\d)/, '');
  const frac = digits.slice(-9).replace(/0+$/, '');
  return `${neg ? '-' : ''}${int}${frac ? `.${frac}` : ''}`;
}

/** "0.000123 credits", "1 credit": an exact decimal string of credits with its unit, in the display language. */
export function formatCredits(decimal: string): string {
  return decimal === '1' || decimal === '-1' ? l10n.t('{0} credit', formatDecimal(decimal)) : l10n.t('{0} credits', formatDecimal(decimal));
}

/** A chat CostView (nanocredits) as "0.000123 credits". */
export function formatCostView(cost: { readonly nanocredits: string; readonly display: string }): string {
  return /^-?\d{1,30}$/.test(cost.nanocredits) ? formatCredits(creditsOfNano(cost.nanocredits)) : cost.display;
}

/** A host's "0.000043 credits" / "1 credit" in the display language; other text as given. */
export function formatCreditsText(text: string): string {
  const m = /^(-?\d{1,30}(?:\.\d{1,18})?) credits?$/.exec(text);
  return m ? formatCredits(m[1]) : text;
}

/** The decimals a step needs to be written exactly (0.025 -> 3, 0.5 -> 1, 5000 -> 0), at most 12. */
export function stepDecimals(increment: number): number {
  if (!(increment > 0) || !Number.isFinite(increment)) return 0;
  for (let d = 0; d < 12; d++) {
    const scaled = increment * 10 ** d;
    if (Math.round(scaled) >= 1 && Math.abs(scaled - Math.round(scaled)) <= 1e-9 * scaled) return d;
  }
  return 12;
}

/**
 * A chart tick (`value` on an axis whose ticks are `increment` apart) with the decimals the increment
 * needs to be written exactly, so ticks 0.00002 apart read "0.00002", "0.00004" (Intl's default of
 * three decimals made every one of them "0") and ticks 0.025 apart "0.075", never a rounded "0.08"
 * (#41.11); the origin is plain "0". At most 12 decimals; float noise (0.30000000000000004) is not shown.
 */
export function formatTick(value: number, increment: number): string {
  if (value === 0) return '0';
  return numberFormat(stepDecimals(increment)).format(value);
}

/**
 * Steps for a chart's value axis (#41.11): 1, 2 and 5 times a power of ten, from 1e-9 to 5e15, each
 * written exactly by formatTick. (uPlot's own list also has 2.5 steps, whose ticks need one more
 * decimal than their neighbours and read unevenly.)
 */
export const NICE_STEPS: readonly number[] = Array.from({ length: 25 }, (_, i) => i - 9).flatMap((exp) => [1, 2, 5].map((m) => Number(`${m}e${exp}`)));
