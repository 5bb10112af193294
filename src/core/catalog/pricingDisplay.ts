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

/** RATE_LABELS in the display language. */
const RATE_TEXT: Readonly<Record<RateKey, () => { label: string; per: string } | undefined>> = {
  input_per_million: () => ({ label: l10n.t({ message: 'Input', comment: ['the price of input tokens'] }), per: l10n.t('1M tokens') }),
  output_per_million: () => ({ label: l10n.t({ message: 'Output', comment: ['the price of output tokens'] }), per: l10n.t('1M tokens') }),
  cache_read_per_million: () => ({ label: l10n.t('Cache read'), per: l10n.t('1M tokens') }),
  cache_write_per_million: () => ({ label: l10n.t('Cache write'), per: l10n.t('1M tokens') }),
  reasoning_per_million: () => ({ label: l10n.t({ message: 'Reasoning', comment: ['the price of reasoning tokens'] }), per: l10n.t('1M tokens') }),
  per_image: () => ({ label: l10n.t({ message: 'Image', comment: ['the price per generated image'] }), per: l10n.t('image') }),
  per_million_characters: () => ({ label: l10n.t({ message: 'Speech', comment: ['the price of text-to-speech'] }), per: l10n.t('1M characters') }),
  per_megabyte_audio: () => ({ label: l10n.t({ message: 'Transcription', comment: ['the price of speech-to-text'] }), per: l10n.t('MB of audio') }),
};

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
  for (const { key, label, per } of RATE_LABELS) {
    const value = pricing[key];
    if (typeof value === 'string' && value.length > 0) {
      const shown = RATE_TEXT[key]();
      out.push({ key, label: shown?.label ?? label, value, text: formatRateText(value, shown?.per ?? per) });
    }
  }
  return out;
}
