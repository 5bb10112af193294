import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { costBeforeSending, DebouncedEstimate, isLargePrompt, LARGE_PROMPT_CHARS } from '../../../src/core/spend/costEstimate';

describe('cost before sending', () => {
  const pricing = { input_per_million: '1.25', output_per_million: '10', pricing_version: 'v', unit: 'credits' };

  test('prompt tokens x input rate, plus the maximum output cost when max_output_tokens is published', () => {
    // 1,000 x 1.25 / 1e6 credits = 0.00125 credits = 1,250,000 nano; 128,000 x 10 / 1e6 = 1.28 credits.
    assert.deepEqual(costBeforeSending(1000, true, pricing, 128_000), { inputTokens: 1000, inputNano: 1_250_000n, maxOutputNano: 1_280_000_000n, upToNano: 1_281_250_000n, counted: true });
    assert.deepEqual(costBeforeSending(1000, false, pricing), { inputTokens: 1000, inputNano: 1_250_000n, upToNano: 1_250_000n, counted: false });
    assert.equal(costBeforeSending(1000, true, undefined), undefined);
    assert.equal(costBeforeSending(1000, true, { ...pricing, input_per_million: '1e3' }), undefined);
  });

  test('typing: one count for a burst of keystrokes, every caller gets the latest answer', async () => {
    const asked: string[] = [];
    const d = new DebouncedEstimate(async (text) => {
      asked.push(text);
      return text.length;
    }, 5);
    const answers = await Promise.all(['h', 'he', 'hel', 'hell', 'hello'].map((t) => d.request(t)));
    assert.deepEqual(asked, ['hello']);
    assert.deepEqual(answers, [5, 5, 5, 5, 5]);
  });
});

describe('a large input for the content commands', () => {
  test('is 8,000 characters or more, decided in one place', () => {
    assert.equal(LARGE_PROMPT_CHARS, 8_000);
    assert.equal(isLargePrompt('x'.repeat(7_999)), false);
    assert.equal(isLargePrompt('x'.repeat(8_000)), true);
  });
});
