/**
 * The one byte formatter (src/core/bytes.ts): binary units with IEC names; a size that is not a
 * whole number of its unit carries its exact byte count.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { formatBytes } from '../../../src/core/bytes';

describe('formatBytes', () => {
  test('whole units read as whole numbers in KiB, MiB and GiB', () => {
    assert.equal(formatBytes(64 * 1024), '64 KiB');
    assert.equal(formatBytes(4 * 1024 * 1024), '4 MiB');
    assert.equal(formatBytes(16 * 1024 * 1024), '16 MiB');
    assert.equal(formatBytes(2 * 1024 ** 3), '2 GiB');
  });

  test('anything else is rounded to one decimal and followed by the exact byte count', () => {
    assert.equal(formatBytes(25_000_000), '23.8 MiB (25,000,000 bytes)');
    assert.equal(formatBytes(1536), '1.5 KiB (1,536 bytes)');
    assert.equal(formatBytes(1000), '1000 bytes');
    assert.equal(formatBytes(1), '1 byte');
    assert.equal(formatBytes(0), '0 bytes');
  });

  test('the exact count is always recoverable from the text', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 40 }), (n) => {
        const text = formatBytes(n);
        const exact = /\(([\d,]+) bytes\)$/.exec(text) ?? /^([\d,]+) bytes?$/.exec(text);
        if (exact) return Number(exact[1].replace(/,/g, '')) === n;
        const whole = /^(\d+) (KiB|MiB|GiB)$/.exec(text);
        return whole !== null && Number(whole[1]) * { KiB: 1024, MiB: 1024 ** 2, GiB: 1024 ** 3 }[whole[2] as 'KiB'] === n;
      }),
    );
  });
});
