/**
 * The one set of shape guards (src/core/guards.ts): what they accept and refuse, and that the module
 * stays dependency-free so src/protocol and the webviews can import it.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { isArrayOf, isFiniteNumber, isOneOf, isOptional, isRecord, isString } from '../../../src/core/guards';

describe('guards', () => {
  test('isRecord: any JSON object is a record; arrays, null and primitives are not', () => {
    fc.assert(fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (o) => isRecord(o)));
    fc.assert(fc.property(fc.oneof(fc.array(fc.anything()), fc.constant(null), fc.constant(undefined), fc.string(), fc.double(), fc.boolean(), fc.bigInt()), (v) => !isRecord(v)));
  });

  test('isArrayOf checks every element; isOptional lets only undefined through besides the guard', () => {
    assert.ok(isArrayOf(['a', 'b'], isString));
    assert.ok(isArrayOf([], isString));
    assert.ok(!isArrayOf(['a', 1], isString));
    assert.ok(!isArrayOf({ 0: 'a', length: 1 }, isString));
    assert.ok(isOptional(undefined, isString) && isOptional('x', isString));
    assert.ok(!isOptional(null, isString));
  });

  test('isFiniteNumber refuses NaN and infinities; isOneOf only the listed strings', () => {
    assert.ok(isFiniteNumber(0) && isFiniteNumber(-1.5));
    assert.ok(!isFiniteNumber(Number.NaN) && !isFiniteNumber(Infinity) && !isFiniteNumber('1'));
    assert.ok(isOneOf('a', ['a', 'b'] as const));
    assert.ok(!isOneOf('c', ['a', 'b'] as const) && !isOneOf(undefined, ['a'] as const));
  });

  test('the module imports nothing (src/protocol and the webviews depend on it)', () => {
    const text = readFileSync('src/core/guards.ts', 'utf8');
    assert.doesNotMatch(text, /^\s*import\s/m);
  });
});
