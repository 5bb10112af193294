/**
 * The model-id scanner runs on every open document on each (debounced) change, so it must be linear
 * and bounded whatever the text: steps (characters examined, counted by the scanner) stay under a fixed
 * multiple of the length, never timed. Offsets are checked on random texts with CRLF and LF line ends.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { scanModelIds } from '../../../src/core/modelIds/idScanner';
import { CatalogIndex, findingsFor } from '../../../src/core/modelIds/modelIdFindings';
import { completionSpot } from '../../../src/core/modelIds/modelIdInfo';

const STEPS_PER_CHAR = 3;
const UNBOUNDED = { maxChars: Number.MAX_SAFE_INTEGER, maxTokens: Number.MAX_SAFE_INTEGER, maxTokenChars: 128 };
const ONE_MB = 1024 * 1024;

function repeatTo(unit: string, n: number): string {
  return unit.repeat(Math.ceil(n / unit.length)).slice(0, n);
}

const FAMILIES: Array<[string, (n: number) => string]> = [
  ['one long run of id characters', (n) => 'a'.repeat(n)],
  ['slashes only', (n) => '/'.repeat(n)],
  ['a/ a/ a/ (half ids)', (n) => repeatTo('a/ ', n)],
  ['a/b/ (long paths)', (n) => repeatTo('a/b', n)],
  ['"a/b" (many ids)', (n) => repeatTo('"a/b"', n)],
  ['x: a/b (bare values and spaces)', (n) => repeatTo('x:' + ' '.repeat(100) + 'a/b' + ' '.repeat(100), n)],
  ['dots and colons around ids', (n) => repeatTo('.:.:a/b.:.:', n)],
  ['minified JavaScript naming ids', (n) => repeatTo('var a={model:"openai/gpt-4o",tools:[b]},c=d/e/f;', n)],
];

describe('[#31.1] the model-id scanner is linear on adversarial input (counted, not timed)', () => {
  for (const [name, make] of FAMILIES) {
    test(`[#31.1] ${name}: steps <= ${STEPS_PER_CHAR}·n at 4 KB, 64 KB and 1 MB`, () => {
      for (const size of [4096, 65536, ONE_MB]) {
        const text = make(size);
        const scan = scanModelIds(text, UNBOUNDED);
        assert.ok(scan.steps <= STEPS_PER_CHAR * text.length, `${name} at ${text.length}: ${scan.steps} steps`);
      }
    });
  }

  test('[#31.1] a 1 MB minified file is judged whole, with the default limits, and every id is found', () => {
    const unit = 'var a={model:"openai/gpt-4o",tools:[b]},c=d/e/f;';
    const text = repeatTo(unit, ONE_MB);
    const index = new CatalogIndex([{ id: 'openai/gpt-4o', object: 'model', owned_by: 'o', provider: 'openai', display_name: 'GPT-4o', deprecation_date: '2026-01-01' }]);
    const result = findingsFor(text, index, Date.UTC(2026, 10, 27));
    assert.equal(result.truncated?.reason, 'tokens', 'more ids than the bound: the scan stops and says so');
    assert.equal(result.findings.length, 5000);
  });

  test('[#31.1] property: any text is scanned within the step bound and every token is at its exact offset (CRLF and LF)', () => {
    const piece = fc.oneof(
      fc.constantFrom('openai/gpt-4o', 'a/b', '"', "'", '`', '\r\n', '\n', ' ', ':', '=', '#', '/', '.', '\\"', 'x/y/z', '@s/p', 'é', '😀'),
      fc.string({ maxLength: 8 }),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 200 }), (parts) => {
        const text = parts.join('');
        const scan = scanModelIds(text, UNBOUNDED);
        assert.ok(scan.steps <= STEPS_PER_CHAR * text.length + 1);
        let last = -1;
        for (const t of scan.tokens) {
          assert.equal(text.slice(t.start, t.end), t.text);
          assert.ok(t.start >= last, 'tokens in order, not overlapping');
          last = t.end;
          assert.ok(!t.text.includes('\r') && !t.text.includes('\n'));
        }
        // CRLF and LF give the same ids, each at the offset of its own text.
        const lf = scanModelIds(text.replace(/\r\n/g, '\n'), UNBOUNDED).tokens.map((t) => t.text);
        assert.deepEqual(scan.tokens.map((t) => t.text), lf);
        for (let at = 0; at <= Math.min(text.length, 40); at++) completionSpot(text, at);
      }),
      { numRuns: 10_000 },
    );
  });
});
