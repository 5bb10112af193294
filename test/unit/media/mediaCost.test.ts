/**
 * Exact media costs before sending (G-CAT-8): per_image × images, per_million_characters × characters,
 * per_megabyte_audio × bytes (1 MB = 1,000,000 bytes, assumed). Expected values are worked out by hand.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { billedCost, BYTES_PER_MEGABYTE, imageCost, imageCountChoices, mediaSpendEntry, speechCost, transcriptionCost, type MediaCost } from '../../../src/core/media/mediaCost';
import { maxImageCount } from '../../../src/core/media/mediaClient';
import type { ModelPricing } from '../../../src/core/gateway/types';
import { PricingError } from '../../../src/core/pricing';

const card = (rates: Partial<ModelPricing>): ModelPricing => ({ pricing_version: 'v1', unit: 'credits', ...rates });

function nano(c: MediaCost): bigint {
  assert.equal(c.known, true, c.known ? '' : c.reason);
  return (c as Extract<MediaCost, { known: true }>).nano;
}

test('[G-CAT-8] per_image × count, exactly', () => {
  // 0.042 credits × 2 = 0.084 credits = 84,000,000 nanocredits
  assert.equal(nano(imageCost(card({ per_image: '0.042' }), 2)), 84_000_000n);
  // 0.0399 × 3 = 0.1197
  assert.equal(nano(imageCost(card({ per_image: '0.0399' }), 3)), 119_700_000n);
  // 0.0035 × 1 = 3,500,000 nano
  assert.equal(nano(imageCost(card({ per_image: '0.0035' }), 1)), 3_500_000n);
  // A rate with more decimals than a nanocredit: 0.3333333333 × 1 = 333,333,333.3 -> 333,333,333
  assert.equal(nano(imageCost(card({ per_image: '0.3333333333' }), 1)), 333_333_333n);
  // ... × 2 = 666,666,666.6 -> 666,666,667 (rounded once, on the product, not per image)
  assert.equal(nano(imageCost(card({ per_image: '0.3333333333' }), 2)), 666_666_667n);
});

test('[G-CAT-8] per_million_characters × characters, exactly', () => {
  // 30.000 credits per 1,000,000 characters × 1,234 characters = 0.03702 credits
  assert.equal(nano(speechCost(card({ per_million_characters: '30.000' }), 1234)), 37_020_000n);
  // 100 × 4096 / 1e6 = 0.4096
  assert.equal(nano(speechCost(card({ per_million_characters: '100' }), 4096)), 409_600_000n);
  // 30 × 1 / 1e6 = 0.00003 = 30,000 nano
  assert.equal(nano(speechCost(card({ per_million_characters: '30' }), 1)), 30_000n);
  // 0.0000015 × 1 / 1e6 credits = 0.0000015 nano -> 0
  assert.equal(nano(speechCost(card({ per_million_characters: '0.0000015' }), 1)), 0n);
});

test('[G-CAT-8] per_megabyte_audio × file bytes, with a megabyte of 1,000,000 bytes', () => {
  assert.equal(BYTES_PER_MEGABYTE, 1_000_000n);
  // 0.0061 credits per MB × 2,500,000 bytes = 2.5 MB × 0.0061 = 0.01525 credits
  assert.equal(nano(transcriptionCost(card({ per_megabyte_audio: '0.0061' }), 2_500_000)), 15_250_000n);
  // exactly 1 MB = 1,000,000 bytes (not 1,048,576): 0.0048 credits
  assert.equal(nano(transcriptionCost(card({ per_megabyte_audio: '0.0048' }), 1_000_000)), 4_800_000n);
  // 1,048,576 bytes is 1.048576 MB: 0.0048 × 1.048576 = 0.0050331648 -> 5,033,165 nano (half up of 5,033,164.8)
  assert.equal(nano(transcriptionCost(card({ per_megabyte_audio: '0.0048' }), 1_048_576)), 5_033_165n);
  // 5 bytes × 0.0061 / 1e6 = 0.0000000305 credits = 30.5 nano -> 31 (half up)
  assert.equal(nano(transcriptionCost(card({ per_megabyte_audio: '0.0061' }), 5)), 31n);
  // 25,000,000 bytes (the upload limit) at 0.0061 = 0.1525
  assert.equal(nano(transcriptionCost(card({ per_megabyte_audio: '0.0061' }), 25_000_000)), 152_500_000n);
});

test('the confirmation line names the quantity, the rate as written and the exact total', () => {
  const c = imageCost(card({ per_image: '0.042' }), 2);
  assert.equal(c.known && c.summary, '2 images × 0.042 credits per image = 0.084 credits');
  const s = speechCost(card({ per_million_characters: '30.000' }), 1234);
  assert.equal(s.known && s.summary, '1,234 characters × 30.000 credits per 1,000,000 characters = 0.03702 credits');
  const t = transcriptionCost(card({ per_megabyte_audio: '0.0061' }), 1);
  assert.equal(t.known && t.summary, '1 byte × 0.0061 credits per MB (1,000,000 bytes) = 0.000000006 credits'); // 6.1 nano -> 6
});

test('no cost is made up: missing pricing, missing rate, other unit and malformed rate are unknown, with a reason', () => {
  const cases: Array<[MediaCost, RegExp]> = [
    [imageCost(undefined, 1), /no pricing/],
    [imageCost(card({ input_per_million: '1' }), 1), /no per_image rate/],
    [speechCost({ pricing_version: 'v', unit: 'usd', per_million_characters: '1' }, 10), /"usd"/],
    [transcriptionCost(card({ per_megabyte_audio: '1e-3' }), 10), /per_megabyte_audio rate is unusable/],
    [imageCost(card({ per_image: '-1' }), 1), /unusable/],
  ];
  for (const [cost, reason] of cases) {
    assert.equal(cost.known, false);
    assert.match((cost as Extract<MediaCost, { known: false }>).reason, reason);
  }
});

test('a quantity that is not a whole number is refused', () => {
  assert.throws(() => imageCost(card({ per_image: '1' }), 1.5), PricingError);
  assert.throws(() => transcriptionCost(card({ per_megabyte_audio: '1' }), -1), PricingError);
});

test('[G-CAT-8] the image-count choices: 1 to the maximum, each priced per_image × count exactly', () => {
  const choices = imageCountChoices(card({ per_image: '0.042' }), 4);
  assert.deepEqual(
    choices.map((c) => [c.count, c.label, c.costText]),
    [
      [1, '1 image', '0.042 credits'],
      [2, '2 images', '0.084 credits'],
      [3, '3 images', '0.126 credits'],
      [4, '4 images', '0.168 credits'],
    ],
  );
  assert.deepEqual(choices.map((c) => nano(c.cost)), [42_000_000n, 84_000_000n, 126_000_000n, 168_000_000n]);
  // A rate finer than a nanocredit is multiplied first and rounded once: 0.3333333333 × 3 = 0.9999999999 -> 1.000000000
  assert.deepEqual(imageCountChoices(card({ per_image: '0.3333333333' }), 3).map((c) => nano(c.cost)), [333_333_333n, 666_666_667n, 1_000_000_000n]);
  // No pricing: every choice says so rather than showing a number.
  assert.deepEqual(imageCountChoices(undefined, 2).map((c) => c.costText), ['cost unknown', 'cost unknown']);
});

test('the image count offered is the schema maximum capped at 10, and at least 1', () => {
  assert.equal(maxImageCount({ maxImages: 4 }), 4);
  assert.equal(maxImageCount({ maxImages: 50 }), 10);
  assert.equal(maxImageCount({}), 10);
  assert.equal(maxImageCount({ maxImages: 0 }), 1);
});

test('the spend ledger entry of a media response: the exact cost in nanocredits, zero tokens, the pricing version and request id', () => {
  const pricing = card({ per_image: '0.042' });
  const entry = mediaSpendEntry({ time: new Date(Date.UTC(2026, 10, 24, 8, 0, 0)), model: 'openai/gpt-image-1', operation: 'image-generation', cost: imageCost(pricing, 2), pricing, keyName: 'work', requestId: 'req_1' });
  assert.deepEqual(entry, {
    time: '2026-11-24T08:00:00.000Z',
    model: 'openai/gpt-image-1',
    operation: 'image-generation',
    key_name: 'work',
    usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
    cost_nano: '84000000',
    pricing_version: 'v1',
    request_id: 'req_1',
  });
  // An unknown cost is recorded as null, never as 0.
  const unpriced = mediaSpendEntry({ time: new Date(0), model: 'm/x', operation: 'transcription', cost: transcriptionCost(undefined, 10), pricing: undefined });
  assert.equal(unpriced.cost_nano, null);
  assert.equal('pricing_version' in unpriced || 'key_name' in unpriced || 'request_id' in unpriced, false);
});

test('[G-CAT-8] the recorded cost follows the quantity the gateway reports it billed, at the same rate', () => {
  const pricing = card({ per_image: '0.042', per_million_characters: '30', per_megabyte_audio: '0.0061' });
  const shown = imageCost(pricing, 3);
  // Billed as shown, or not reported: the shown cost (0.126 credits).
  assert.equal(nano(billedCost(shown, pricing, undefined)), 126_000_000n);
  assert.equal(nano(billedCost(shown, pricing, 3)), 126_000_000n);
  // The gateway billed 2 images: 0.084 credits.
  assert.equal(nano(billedCost(shown, pricing, 2)), 84_000_000n);
  // 1,000 characters shown, 1,001 billed: 30 × 1001 / 1e6 = 0.03003 credits.
  assert.equal(nano(billedCost(speechCost(pricing, 1000), pricing, 1001)), 30_030_000n);
  // 2,000,000 bytes shown, 2,000,500 billed: 0.0061 × 2.0005 = 0.01220305 credits.
  assert.equal(nano(billedCost(transcriptionCost(pricing, 2_000_000), pricing, 2_000_500)), 12_203_050n);
  // A nonsense billed count is ignored.
  assert.equal(nano(billedCost(shown, pricing, -1)), 126_000_000n);
  assert.equal(nano(billedCost(shown, pricing, 1.5)), 126_000_000n);
});
