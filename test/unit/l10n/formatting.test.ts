/**
 * [#30.2] Numbers, credit amounts, rates, ages and percentages for the display language (Intl), with
 * the expected strings written by hand. Credits stay exact: Intl formats the decimal STRING, so no
 * digit is lost beyond 2^53 or at the ninth decimal.
 */
import { afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as l10n from '../../../src/core/l10n';
import { formatCredits, formatDecimalText, formatRate } from '../../../src/core/pricing';
import { formatAge } from '../../../src/core/catalog/catalogStore';
import { describeToday, formatPercent } from '../../../src/core/spend/budget';
import { tokensText } from '../../../src/core/catalog/details';
import { formatCount } from '../../../src/core/words';
import { formatTick } from '../../../src/webview/kit/format';

const NBSP = '\u00a0';
const HOUR = 3_600_000;

afterEach(() => l10n.configure({}));

describe('display-language formatting', () => {
  test('[#30.2] English: credits exact with grouping, rates as written, ages, percentages', () => {
    l10n.configure({ locale: 'en' });
    assert.equal(formatCredits(123_456n), '0.000123456 credits');
    assert.equal(formatCredits(1_000_000_000n), '1 credit');
    assert.equal(formatCredits(9_007_199_254_740_993n), '9,007,199.254740993 credits');
    assert.equal(formatCredits(-2_500_000_000n), '-2.5 credits');
    assert.equal(formatRate('0.150'), '0.150 credits / 1M tokens');
    assert.equal(formatDecimalText('1234567.000000001'), '1,234,567.000000001');
    assert.equal(formatAge(3 * HOUR), '3 hours ago');
    assert.equal(formatAge(59_000), 'just now');
    assert.equal(formatPercent(80n), '80 %');
    assert.equal(describeToday(400_000_000n, 1_000_000_000n), '0.4 credits / 1 credit today (40 %)');
    assert.equal(tokensText(128_000, '-'), '128,000 tokens');
    assert.equal(formatCount(1024), '1,024');
  });

  test('[#30.2] German: decimal comma, dot grouping, German relative time and percent', () => {
    l10n.configure({ locale: 'de' });
    assert.equal(formatCredits(123_456n), '0,000123456 credits'); // the word comes from the bundle (none configured here)
    assert.equal(formatCredits(9_007_199_254_740_993n), '9.007.199,254740993 credits');
    assert.equal(formatRate('0.150'), '0,150 credits / 1M tokens');
    assert.equal(formatDecimalText('1234567.000000001'), '1.234.567,000000001');
    assert.equal(formatAge(3 * HOUR), 'vor 3 Stunden');
    assert.equal(formatAge(26 * HOUR), 'vor 1 Tag');
    assert.equal(formatPercent(80n), `80${NBSP}%`);
    assert.equal(tokensText(128_000, '-'), '128.000 tokens');
    assert.equal(formatCount(1024), '1.024');
  });

  test('[#30.2] Spanish: decimal comma, Spanish relative time and percent; the bundle words fill in', () => {
    l10n.configure({ locale: 'es', bundle: { '{0} credits': '{0} créditos', '{0} credit': '{0} crédito', '{0} credits / {1}': '{0} créditos / {1}', '1M tokens': '1 M de tokens' } });
    assert.equal(formatCredits(123_456n), '0,000123456 créditos');
    assert.equal(formatCredits(1_000_000_000n), '1 crédito');
    assert.equal(formatCredits(2_500_000_000_000n), '2500 créditos'); // Spanish groups only from five digits
    assert.equal(formatCredits(12_345_500_000_000n), '12.345,5 créditos');
    assert.equal(formatRate('2.50'), '2,50 créditos / 1 M de tokens');
    assert.equal(formatAge(2 * 60_000), 'hace 2 minutos');
    assert.equal(formatPercent(80n), `80${NBSP}%`);
  });

  test('[#30.2] an unknown or malformed display language falls back to English formatting', () => {
    l10n.configure({ locale: 'not a locale!' });
    assert.equal(formatCredits(1_500_000_000n), '1.5 credits');
  });

  test('usage chart ticks: as many decimals as their spacing needs, so small credit amounts are not all "0"', () => {
    l10n.configure({ locale: 'en' });
    assert.deepEqual([0, 0.00002, 0.00004, 0.00006000000000000001].map((v) => formatTick(v, 0.00002)), ['0', '0.00002', '0.00004', '0.00006']);
    assert.deepEqual([0, 0.0001, 0.0002].map((v) => formatTick(v, 0.0001)), ['0', '0.0001', '0.0002']);
    assert.deepEqual([0.1, 0.30000000000000004].map((v) => formatTick(v, 0.1)), ['0.1', '0.3']);
    assert.deepEqual([0, 5000, 10000].map((v) => formatTick(v, 5000)), ['0', '5,000', '10,000']);
    assert.equal(formatTick(1, 1e-20), '1.000000000000'); // at most 12 decimals
    l10n.configure({ locale: 'de' });
    assert.deepEqual([0.5, 1.5].map((v) => formatTick(v, 0.5)), ['0,5', '1,5']);
  });
});
