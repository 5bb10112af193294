/**
 * Pricing as the catalog shows it (G-CAT-8): every rate present, in credits, rendered exactly from the
 * wire's decimal strings. Nothing here converts a rate to a JavaScript number; the decimal maths is
 * src/core/pricing.ts.
 */
import * as l10n from '../l10n';
import type { ModelPricing } from '../gateway/types';
import { formatRate, isDecimalString, parseDecimal } from '../pricing';

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

/** RATE_LABELS in the display language (a rate's name, and the unit it is quoted per). */
function rateText(key: RateKey): { label: string; per: string } {
  const tokens = l10n.t('1M tokens');
  switch (key) {
    case 'input_per_million':
      return { label: l10n.t('Input'), per: tokens };
    case 'output_per_million':
      return { label: l10n.t('Output'), per: tokens };
    case 'cache_read_per_million':
      return { label: l10n.t('Cache read'), per: tokens };
    case 'cache_write_per_million':
      return { label: l10n.t('Cache write'), per: tokens };
    case 'reasoning_per_million':
      return { label: l10n.t('Reasoning'), per: tokens };
    case 'per_image':
      return { label: l10n.t('Image'), per: l10n.t('image') };
    case 'per_million_characters':
      return { label: l10n.t('Speech'), per: l10n.t('1M characters') };
    case 'per_megabyte_audio':
      return { label: l10n.t('Transcription'), per: l10n.t('MB of audio') };
  }
}

/** True when both strings denote the same exact amount ("2.50" equals "2.5"); malformed strings compare verbatim. */
export function sameRate(a: string | undefined, b: string | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (!isDecimalString(a) || !isDecimalString(b)) return a === b;
  const x = parseDecimal(a);
  const y = parseDecimal(b);
  // Cross-multiply to a common scale: exact in bigint.
  return x.digits * 10n ** BigInt(y.scale) === y.digits * 10n ** BigInt(x.scale);
}

/**
 * "2.5 credits / 1M tokens", exactly as the gateway wrote the rate (src/core/pricing.ts). A malformed
 * value is shown verbatim and flagged rather than hidden or "fixed": the user should see what was sent.
 */
export function formatRateText(value: string, per: string): string {
  return isDecimalString(value) ? formatRate(value, per) : l10n.t('{0} (not a valid rate) / {1}', value, per);
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
  for (const { key } of RATE_LABELS) {
    const value = pricing[key];
    if (typeof value === 'string' && value.length > 0) {
      const shown = rateText(key);
      out.push({ key, label: shown.label, value, text: formatRateText(value, shown.per) });
    }
  }
  return out;
}
