import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  costNanoFor,
  costOfUsage,
  creditsToNano,
  formatCredits,
  formatNano,
  formatRate,
  isDecimalString,
  parseDecimal,
  PricingError,
  usageCostNano,
} from '../../src/core/pricing';
import type { ModelPricing, Usage } from '../../src/core/gateway/types';

const base = { pricing_version: 'v1', unit: 'credits' } as const;

describe('decimal strings', () => {
  test('[G-CAT-8] parse exactly into digits and scale', () => {
    assert.deepEqual(parseDecimal('0.1'), { digits: 1n, scale: 1 });
    assert.deepEqual(parseDecimal('10.00'), { digits: 1000n, scale: 2 });
    assert.deepEqual(parseDecimal('007'), { digits: 7n, scale: 0 });
    assert.deepEqual(parseDecimal('123456789012345678901234567890.000000000000000000001'), {
      digits: 123456789012345678901234567890000000000000000000001n,
      scale: 21,
    });
  });

  test('[G-CAT-8] malformed strings are rejected with a clear error', () => {
    for (const bad of ['', '.5', '5.', '1e-3', '1E3', '-1', '+1', ' 1', '1 ', '1,5', '1.2.3', '0x10', 'NaN', 'Infinity', '١']) {
      assert.throws(() => parseDecimal(bad), (e: unknown) => e instanceof PricingError && e.message.includes(JSON.stringify(bad).slice(1, -1)), bad);
      assert.equal(isDecimalString(bad), false, bad);
    }
    assert.throws(() => parseDecimal('1'.repeat(500)), PricingError);
    assert.equal(isDecimalString(0.1), false);
  });
});

describe('costs in nanocredits', () => {
  test('[G-CAT-8] "0.1" + "0.2" per million tokens is exactly 0.3 credits per million, no float drift', () => {
    const pricing: ModelPricing = { ...base, input_per_million: '0.1', output_per_million: '0.2' };
    const cost = costOfUsage({ prompt_tokens: 1_000_000, completion_tokens: 1_000_000, total_tokens: 2_000_000 }, pricing);
    assert.equal(cost.totalNano, 300_000_000n);
    assert.equal(formatCredits(cost.totalNano), '0.3 credits');
    // The float version is the classic 0.30000000000000004.
    assert.notEqual(0.1 + 0.2, 0.3);
  });

  test('[G-CAT-8] one token at a tiny rate: exact sum rounded once, half up', () => {
    // 1 token * 0.0000001 credits / 1M = 1e-13 credits = 0.0001 nanocredits: rounds to 0.
    assert.equal(costNanoFor(1, '0.0000001', 1_000_000), 0n);
    // 1 token at 0.5 credits / 1M = 500 nanocredits exactly.
    assert.equal(costNanoFor(1, '0.5', 1_000_000), 500n);
    // 3 tokens at 0.3333333333 / 1M = 999.9999999 nano -> 1000.
    assert.equal(costNanoFor(3, '0.3333333333', 1_000_000), 1000n);
    // An exact half rounds up: 1 token at 0.0015 / 1M = 1.5 nano -> 2; 2.5 -> 3; 1.49 -> 1.
    assert.equal(costNanoFor(1, '0.0015', 1_000_000), 2n);
    assert.equal(costNanoFor(1, '0.0025', 1_000_000), 3n);
    assert.equal(costNanoFor(1, '0.00149', 1_000_000), 1n);
  });

  test('[G-CAT-8] rounding happens once on the exact sum, not per line', () => {
    // Each line is 0.6 nanocredits: per-line rounding would give 1 + 1 = 2; exact sum 1.2 -> 1.
    const pricing: ModelPricing = { ...base, input_per_million: '0.0006', output_per_million: '0.0006' };
    const cost = costOfUsage({ prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 }, pricing);
    assert.deepEqual(
      cost.lines.map((l) => l.nano),
      [1n, 1n],
    );
    assert.equal(cost.totalNano, 1n);
  });

  test('[G-CAT-8] huge values stay exact', () => {
    const rate = '98765432109876543210.123456789123456789';
    const tokens = Number.MAX_SAFE_INTEGER;
    const nano = costNanoFor(tokens, rate, 1_000_000);
    // tokens * rate * 1e9 / 1e6, computed independently with bigint.
    const expectedNum = BigInt(tokens) * 98765432109876543210123456789123456789n * 1000n;
    const den = 10n ** 18n;
    assert.equal(nano, (2n * expectedNum + den) / (2n * den));
    assert.ok(nano > BigInt(Number.MAX_SAFE_INTEGER));
  });

  test('token counts that are not whole numbers are refused', () => {
    const pricing: ModelPricing = { ...base, input_per_million: '1', output_per_million: '1' };
    for (const bad of [1.5, -1, Number.NaN, 2 ** 60]) {
      assert.throws(() => costOfUsage({ prompt_tokens: bad, completion_tokens: 0, total_tokens: 0 }, pricing), PricingError);
    }
  });

  test('a malformed rate in the pricing is an error, not a silent zero', () => {
    const pricing: ModelPricing = { ...base, input_per_million: '1e-3', output_per_million: '1' };
    assert.throws(() => costOfUsage({ prompt_tokens: 10, completion_tokens: 1, total_tokens: 11 }, pricing), /input_per_million "1e-3"/);
    assert.equal(usageCostNano(pricing, { prompt_tokens: 10, completion_tokens: 1, total_tokens: 11 }), undefined);
  });
});

describe('usage under a model pricing', () => {
  const usage = (u: Partial<Usage>): Usage => ({ prompt_tokens: 0, completion_tokens: 0, total_tokens: 0, ...u });

  test('[G-CAT-8] input and output', () => {
    const pricing: ModelPricing = { ...base, input_per_million: '1.25', output_per_million: '10.00' };
    const cost = costOfUsage(usage({ prompt_tokens: 1234, completion_tokens: 567, total_tokens: 1801 }), pricing);
    // 1234 * 1.25 = 1542.5 credits/M -> 1542500 nano; 567 * 10 = 5670 -> 5670000 nano.
    assert.equal(cost.totalNano, 1_542_500n + 5_670_000n);
    assert.deepEqual(
      cost.lines.map((l) => [l.kind, l.tokens, l.rate, l.nano]),
      [
        ['input', 1234, '1.25', 1_542_500n],
        ['output', 567, '10.00', 5_670_000n],
      ],
    );
  });

  test('[G-CAT-8] cache reads and writes at their own rates, taken out of the plain input', () => {
    const pricing: ModelPricing = { ...base, input_per_million: '3', output_per_million: '15', cache_read_per_million: '0.30', cache_write_per_million: '3.75' };
    const cost = costOfUsage(usage({ prompt_tokens: 10_000, completion_tokens: 100, total_tokens: 10_100, cache_read_tokens: 6_000, cache_write_tokens: 1_000 }), pricing);
    const byKind = Object.fromEntries(cost.lines.map((l) => [l.kind, l.nano]));
    assert.deepEqual(byKind, { input: 9_000_000n, cache_read: 1_800_000n, cache_write: 3_750_000n, output: 1_500_000n });
    assert.equal(cost.totalNano, 16_050_000n);
  });

  test('[G-CAT-8] cache tokens fall back to the input rate when no cache rate is published', () => {
    const pricing: ModelPricing = { ...base, input_per_million: '2', output_per_million: '8' };
    const cost = costOfUsage(usage({ prompt_tokens: 100, cache_read_tokens: 40 }), pricing);
    assert.deepEqual(
      cost.lines.map((l) => [l.kind, l.rateField]),
      [
        ['input', 'input_per_million'],
        ['cache_read', 'input_per_million'],
      ],
    );
    assert.equal(cost.totalNano, 200_000n);
  });

  test('[G-CAT-8] [G-CHAT-3] reasoning tokens outside completion (total exceeds prompt + completion) at reasoning_per_million', () => {
    const pricing: ModelPricing = { ...base, input_per_million: '0.55', output_per_million: '2.19', reasoning_per_million: '3' };
    const cost = costOfUsage(usage({ prompt_tokens: 100, completion_tokens: 50, completion_tokens_details: { reasoning_tokens: 70 }, total_tokens: 220 }), pricing);
    assert.equal(cost.reasoningIncludedInCompletion, false);
    const byKind = Object.fromEntries(cost.lines.map((l) => [l.kind, [l.tokens, l.nano]]));
    assert.deepEqual(byKind, { input: [100, 55_000n], output: [50, 109_500n], reasoning: [70, 210_000n] });
    assert.equal(cost.totalNano, 374_500n);
  });

  test('[G-CAT-8] reasoning tokens inside completion (OpenAI style) are not billed twice', () => {
    const pricing: ModelPricing = { ...base, input_per_million: '1', output_per_million: '10', reasoning_per_million: '20' };
    const cost = costOfUsage(usage({ prompt_tokens: 10, completion_tokens: 100, completion_tokens_details: { reasoning_tokens: 60 }, total_tokens: 110 }), pricing);
    assert.equal(cost.reasoningIncludedInCompletion, true);
    const byKind = Object.fromEntries(cost.lines.map((l) => [l.kind, l.tokens]));
    assert.deepEqual(byKind, { input: 10, output: 40, reasoning: 60 });
    assert.equal(cost.totalNano, 10_000n + 400_000n + 1_200_000n);
  });

  test('[G-CAT-8] without reasoning_per_million, reasoning tokens are billed at the output rate', () => {
    const pricing: ModelPricing = { ...base, input_per_million: '1', output_per_million: '10' };
    const cost = costOfUsage(usage({ prompt_tokens: 0, completion_tokens: 5, completion_tokens_details: { reasoning_tokens: 7 }, total_tokens: 12 }), pricing);
    assert.equal(cost.lines.find((l) => l.kind === 'reasoning')?.rateField, 'output_per_million');
    assert.equal(cost.totalNano, 120_000n);
  });

  test('tokens without any applicable rate are reported, not silently priced', () => {
    const pricing: ModelPricing = { ...base, per_image: '0.04' };
    const cost = costOfUsage(usage({ prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 }), pricing);
    assert.equal(cost.totalNano, 0n);
    assert.deepEqual(cost.unpriced, ['input', 'output']);
    assert.equal(usageCostNano(pricing, usage({ prompt_tokens: 10 })), undefined);
    assert.equal(usageCostNano({ ...pricing, unit: 'dollars', input_per_million: '1' }, usage({ prompt_tokens: 10 })), undefined);
  });

  test('per-unit rates: images and megabytes', () => {
    assert.equal(costNanoFor(3, '0.042'), 126_000_000n);
    // 2.5 MB of audio at 0.0061 credits / MB (MB = 1,000,000 bytes).
    assert.equal(costNanoFor(2_500_000, '0.0061', 1_000_000), 15_250_000n);
  });
});

describe('formatting', () => {
  test('[G-AN-6] formatCredits renders nanocredits exactly, trimming trailing zeros', () => {
    assert.equal(formatCredits(123_456n), '0.000123456 credits');
    assert.equal(formatCredits(0n), '0 credits');
    assert.equal(formatCredits(1n), '0.000000001 credits');
    assert.equal(formatCredits(1_000_000_000n), '1 credit');
    assert.equal(formatCredits(2_500_000_000n), '2.5 credits');
    assert.equal(formatCredits(-1_500_000n), '-0.0015 credits');
    assert.equal(formatNano(123_456_789_012_345_678_901n), '123456789012.345678901');
  });

  test('[G-AN-6] 1 credit = 1e9 nanocredits; below a nanocredit is refused', () => {
    assert.equal(creditsToNano('1'), 1_000_000_000n);
    assert.equal(creditsToNano('0.000000001'), 1n);
    assert.throws(() => creditsToNano('0.0000000001'), /more than 9 decimals/);
  });

  test('[G-CAT-8] [#41.10] a rate is shown exactly as the catalog wrote it', () => {
    assert.equal(formatRate('0.150'), '0.150 credits / 1M tokens');
    assert.equal(formatRate('10.00', 'image'), '10.00 credits / image');
    assert.equal(formatRate('0.0000001'), '0.0000001 credits / 1M tokens');
    // [#41.10] one credit is singular; "1.0" keeps the plural as the gateway wrote a decimal.
    assert.equal(formatRate('1'), '1 credit / 1M tokens');
    assert.equal(formatRate('1', 'image'), '1 credit / image');
    assert.equal(formatRate('1.0'), '1.0 credits / 1M tokens');
    assert.equal(formatRate('11'), '11 credits / 1M tokens');
    assert.throws(() => formatRate('1e-3'), PricingError);
  });
});
