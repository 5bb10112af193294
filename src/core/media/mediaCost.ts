/**
 * Exact cost of a media request before it is sent, from the catalog's decimal rates (G-CAT-8): pure
 * functions over src/core/pricing.ts, so no JavaScript number ever holds a rate or a cost.
 *
 *   image          per_image              x images
 *   speech         per_million_characters x characters / 1,000,000
 *   transcription  per_megabyte_audio     x file bytes / BYTES_PER_MEGABYTE
 *
 * Each cost is the exact rational, rounded once, half up, to a whole nanocredit (pricing.ts's rule).
 */
import type { ModelPricing } from '../gateway/types';
import type { SpendEntry } from '../spend/ledger';
import { costNanoFor, formatCredits, PricingError } from '../pricing';

/**
 * Assumption (spec: "credits per megabyte of transcribed audio", the megabyte not defined): a megabyte
 * is 1,000,000 bytes (SI), matching the decimal "per 1,000,000" of the other rates, and the rate
 * applies pro rata to the exact byte count (no rounding up to whole megabytes). Change it here only.
 */
export const BYTES_PER_MEGABYTE = 1_000_000n;

/** The spec's unit for per_million_characters. */
export const CHARACTERS_PER_MILLION = 1_000_000n;

export type MediaRateField = 'per_image' | 'per_million_characters' | 'per_megabyte_audio';

export type MediaCost =
  | {
      known: true;
      nano: bigint;
      /** Images, characters or bytes. */
      quantity: number;
      rateField: MediaRateField;
      /** The rate string exactly as the catalog wrote it. */
      rate: string;
      /** One line for the confirmation: "2 images × 0.042 credits = 0.084 credits". */
      summary: string;
    }
  | { known: false; rateField: MediaRateField; quantity: number; reason: string };

const UNIT: Record<MediaRateField, { per: bigint; one: string; many: string; rateUnit: string }> = {
  per_image: { per: 1n, one: 'image', many: 'images', rateUnit: 'credits per image' },
  per_million_characters: { per: CHARACTERS_PER_MILLION, one: 'character', many: 'characters', rateUnit: 'credits per 1,000,000 characters' },
  per_megabyte_audio: { per: BYTES_PER_MEGABYTE, one: 'byte', many: 'bytes', rateUnit: 'credits per MB (1,000,000 bytes)' },
};

function mediaCost(pricing: ModelPricing | undefined, field: MediaRateField, quantity: number): MediaCost {
  if (!Number.isSafeInteger(quantity) || quantity < 0) throw new PricingError(`The quantity (${String(quantity)}) is not a non-negative whole number`);
  const unknown = (reason: string): MediaCost => ({ known: false, rateField: field, quantity, reason });
  if (pricing === undefined) return unknown('The model publishes no pricing.');
  if (pricing.unit !== 'credits') return unknown(`The model is priced in "${pricing.unit}", not credits.`);
  const rate = pricing[field];
  if (rate === undefined) return unknown(`The model publishes no ${field} rate.`);
  const u = UNIT[field];
  let nano: bigint;
  try {
    nano = costNanoFor(BigInt(quantity), rate, u.per);
  } catch (e) {
    if (e instanceof PricingError) return unknown(`The model's ${field} rate is unusable: ${e.message}.`);
    throw e;
  }
  const count = `${quantity.toLocaleString('en-US')} ${quantity === 1 ? u.one : u.many}`;
  return { known: true, nano, quantity, rateField: field, rate, summary: `${count} × ${rate} ${u.rateUnit} = ${formatCredits(nano)}` };
}

/** per_image × count. */
export function imageCost(pricing: ModelPricing | undefined, count: number): MediaCost {
  return mediaCost(pricing, 'per_image', count);
}

/** per_million_characters × characters (count them with countSpeechCharacters). */
export function speechCost(pricing: ModelPricing | undefined, characters: number): MediaCost {
  return mediaCost(pricing, 'per_million_characters', characters);
}

/** per_megabyte_audio × the file's size in bytes. */
export function transcriptionCost(pricing: ModelPricing | undefined, bytes: number): MediaCost {
  return mediaCost(pricing, 'per_megabyte_audio', bytes);
}

export interface ImageCountChoice {
  count: number;
  /** "2 images" */
  label: string;
  /** Exactly per_image × count ("0.084 credits"), or why it is unknown. */
  cost: MediaCost;
  costText: string;
}

/**
 * The choices for "how many images": 1 to `max`, each with its exact cost, for a pick shown before
 * the confirmation (which repeats the chosen line).
 */
export function imageCountChoices(pricing: ModelPricing | undefined, max: number): ImageCountChoice[] {
  const choices: ImageCountChoice[] = [];
  for (let count = 1; count <= max; count++) {
    const cost = imageCost(pricing, count);
    choices.push({ count, label: `${count} image${count === 1 ? '' : 's'}`, cost, costText: cost.known ? formatCredits(cost.nano) : 'cost unknown' });
  }
  return choices;
}

/**
 * The cost to record once the gateway answered: the one shown before sending, unless the gateway
 * reported billing a different quantity (usage.images, the characters header, usage.audio_bytes);
 * then the same rate times what it billed, so the ledger follows the gateway's count.
 */
export function billedCost(shown: MediaCost, pricing: ModelPricing | undefined, billed: number | undefined): MediaCost {
  if (billed === undefined || billed === shown.quantity || !Number.isSafeInteger(billed) || billed < 0) return shown;
  return mediaCost(pricing, shown.rateField, billed);
}

export type MediaOperation = 'image-generation' | 'speech-generation' | 'transcription';

/**
 * The local spend ledger's entry for a media response: the exact cost (the ledger's own pricing knows
 * only token rates), zero tokens as the usage, null when the cost is unknown.
 */
export function mediaSpendEntry(input: { time: Date; model: string; operation: MediaOperation; cost: MediaCost; pricing: ModelPricing | undefined; keyName?: string; requestId?: string }): SpendEntry {
  return {
    time: input.time.toISOString(),
    model: input.model,
    operation: input.operation,
    ...(input.keyName ? { key_name: input.keyName } : {}),
    usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
    cost_nano: input.cost.known ? input.cost.nano.toString() : null,
    ...(input.pricing?.pricing_version ? { pricing_version: input.pricing.pricing_version } : {}),
    ...(input.requestId ? { request_id: input.requestId } : {}),
  };
}
