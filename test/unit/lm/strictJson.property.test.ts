// Property tests (fast-check) for the relay's strict JSON reader (issue 27, item 9): it agrees with
// JSON.parse on every JSON text it accepts, accepts every text JSON.stringify writes, and refuses the
// texts a lenient parser could read differently (duplicate names, a byte-order mark, trailing text).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseStrictJson, parseStrictJsonBytes } from '../../../src/core/lm/strictJson';

const RUNS = 3_000;

test('[#27.9] every text JSON.stringify writes is read strictly, to the value JSON.parse reads', () => {
  fc.assert(
    fc.property(fc.jsonValue({ noUnicodeString: false }), fc.constantFrom(undefined, 2), (v, indent) => {
      const text = JSON.stringify(v, null, indent);
      const read = parseStrictJson(text);
      assert.ok(read.ok, `${text}: ${read.ok ? '' : read.problem}`);
      assert.deepEqual(read.value, JSON.parse(text));
      assert.equal(JSON.stringify(read.value), JSON.stringify(JSON.parse(text)));
    }),
    { numRuns: RUNS },
  );
});

test('[#27.9] whatever the text, what the strict reader accepts JSON.parse reads the same way; it never throws', () => {
  const pieces = fc.constantFrom('{', '}', '[', ']', ',', ':', '"a"', '"b"', '1', '-0', '1e400', '0.5', 'true', 'null', ' ', '\ufeff', '"\\u0041"', '"\\ud800"', '\u2028', '"\\x"', '01');
  fc.assert(
    fc.property(fc.oneof(fc.string(), fc.array(pieces, { maxLength: 20 }).map((p) => p.join(''))), (text) => {
      const read = parseStrictJson(text);
      if (!read.ok) return;
      assert.deepEqual(read.value, JSON.parse(text));
    }),
    { numRuns: RUNS },
  );
});

test('[#27.9] duplicate names, a byte-order mark, trailing text and deep nesting are refused', () => {
  for (const text of ['{"a":1,"a":2}', '{"a":{"b":1,"b":1}}', '\ufeff{}', '{} x', '{}{}', '[1,]', '{"a":1,}', "{'a':1}", 'NaN', '[' .repeat(200) + ']'.repeat(200), '"\\ud800"', '1e999', '9007199254740993']) {
    assert.equal(parseStrictJson(text).ok, false, text);
  }
  assert.equal(parseStrictJsonBytes(Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d])).ok, false, 'a UTF-8 byte-order mark');
  assert.equal(parseStrictJsonBytes(Buffer.from([0x22, 0xff, 0x22])).ok, false, 'invalid UTF-8');
  // __proto__ is an own member, as with JSON.parse.
  const read = parseStrictJson('{"__proto__":{"x":1}}');
  assert.ok(read.ok && Object.keys(read.value as object).includes('__proto__') && ({} as { x?: number }).x === undefined);
});
