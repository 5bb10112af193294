/**
 * Pricing as the catalog shows it (G-CAT-8): every rate present, in credits, rendered exactly from the
 * wire's decimal strings. Nothing here converts a rate to a JavaScript number.
 */
import type { ModelPricing } from '../gateway/types';

export type RateKey = Exclude<keyof ModelPricing, 'pricing_version' | 'unit'>;

/** Display order and the unit each rate is quoted per. */
export const RATE_LABELS: ReadonlyArray<{ key: RateKey; label: string; per: string }> = [
  { key: 'input_per_million', label: 'Input', per: '1M tokens' },
  { key: 'output_per_million', label: 'Output', per: '1M tokens' },
  { key: 'cache_read_per_million', label: 'Cache read', per: '1M tokens' },
  { key: 'cache_write_per_million', label: 'Cache write', per: '1M tokens' },
  { key: 'reasoning_per_million', label: 'Reasoning', per: '1M tokens' },
  { key: 'per_image', label: 'Image', per: 'image' },
  { key: 'per_million_characters', label: 'Speech', per: '1M characters' },
  { key: 'per_megabyte_audio', label: 'Transcription', per: 'MB of audio' },
];

const DECIMAL_RE = /^(\d+)(?:\.(\d+))?$/;

/**
 * Canonical form of a non-negative decimal string ("002.500" -> "2.5"), or undefined when the string
 * is not one. Used to compare rates exactly ("2.50" equals "2.5") without floating point.
 */
export function canonicalDecimal(value: string): string | undefined {
  const m = DECIMAL_RE.exec(value.trim());
  if (!m) return undefined;
  const int = m[1].replace(/^0+(?=\d)/, '');
  const frac = (m[2] ?? '').replace(/0+$/, '');
  return frac ? `${int}.${frac}` : int;
}

/** True when both strings denote the same exact amount; malformed strings compare verbatim. */
export function sameRate(a: string | undefined, b: string | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  const ca = canonicalDecimal(a);
  const cb = canonicalDecimal(b);
  return ca !== undefined && cb !== undefined ? ca === cb : a === b;
}

/**
 * "2.5 credits". The decimal string is already exact, so it is shown verbatim (a malformed value is
 * also shown verbatim rather than hidden: the user should see what the gateway sent).
 */
export function formatCredits(value: string): string {
  return `${value.trim()} credits`;
}

export interface RateLine {
  key: RateKey;
  label: string;
  /** "2.5 credits / 1M tokens" */
  text: string;
  value: string;
}

/** Every rate present on the model, in display order; absent rates do not apply and are not listed. */
export function rateLines(pricing: ModelPricing | undefined): RateLine[] {
  if (!pricing) return [];
  const out: RateLine[] = [];
  for (const { key, label, per } of RATE_LABELS) {
    const value = pricing[key];
    if (typeof value === 'string' && value.length > 0) out.push({ key, label, value, text: `${formatCredits(value)} / ${per}` });
  }
  return out;
}
