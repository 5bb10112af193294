/**
 * "Did you mean …" (src/core/modelIds/closeness.ts), issue 40 item 12: the suggestions are the ones
 * written here by hand; the search is checked against a plain reference (every candidate compared with
 * boundedDistance) on random catalogs; its work is counted in distance cells, never timed, and bounded;
 * the answers are cached per id within a bound; a diagnostics pass that spends its budget says which ids
 * it left and the next pass goes on from there.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { boundedDistance, closestId, IdMatcher } from '../../../src/core/modelIds/closeness';
import { CatalogIndex, findingsFor } from '../../../src/core/modelIds/modelIdFindings';
import type { Model } from '../../../src/core/gateway/types';

const CANDIDATES = ['openai/gpt-4o', 'openai/gpt-4o-mini', 'openai/gpt-5.1', 'openai/o3', 'anthropic/claude-sonnet-4.5', 'Qwen/Qwen3-Max', 'google/gemini-2.5-pro', 'google/gemini-2.5-flash'];

// [typed, max, expected suggestion]
const TABLE: Array<[string, number, string | undefined]> = [
  ['openai/gpt-4o', 2, 'openai/gpt-4o'],
  ['OPENAI/GPT-4O', 2, 'openai/gpt-4o'],
  ['openai/gpt-o4', 2, 'openai/gpt-4o'], // two neighbours swapped: one edit
  ['openai/gpt4o', 2, 'openai/gpt-4o'],
  ['openai/gpt-4o-mni', 2, 'openai/gpt-4o-mini'],
  ['openai/gpt-4o-m', 2, 'openai/gpt-4o'], // 2 from gpt-4o, 3 from gpt-4o-mini
  ['openai/gpt-5', 2, 'openai/gpt-4o'], // 2 from both gpt-4o and gpt-5.1: the first in the catalog
  ['openai/gpt-5.2', 2, 'openai/gpt-5.1'],
  ['openai/o1', 2, 'openai/o3'],
  ['openai/o', 2, 'openai/o3'],
  ['qwen/qwen3-max', 2, 'Qwen/Qwen3-Max'], // the catalog's spelling comes back
  ['qwen/qwen3-mix', 2, 'Qwen/Qwen3-Max'],
  ['google/gemini-2.5-fash', 2, 'google/gemini-2.5-flash'],
  ['google/gemini-2.5-prp', 2, 'google/gemini-2.5-pro'],
  ['google/gemini-2.0-pro', 2, 'google/gemini-2.5-pro'],
  ['anthropic/claude-sonnet-45', 2, 'anthropic/claude-sonnet-4.5'],
  ['google/gemini-2.5', 2, undefined],
  ['anthropic/claude-opus-4.5', 2, undefined],
  ['openai/gpt-4o-2024-01-abc', 2, undefined],
  ['a/b', 2, undefined],
  ['', 2, undefined],
  ['openai/gpt4o', 1, 'openai/gpt-4o'],
  ['openai/gpt-4o-m', 1, undefined],
  ['OpenAI/GPT-4o', 0, 'openai/gpt-4o'],
  ['openai/gpt-o4', 0, undefined],
];

describe('[#40.12] closest catalog id: suggestions', () => {
  for (const [typed, max, expected] of TABLE) {
    test(`[#40.12] ${JSON.stringify(typed)} within ${max} -> ${String(expected)}`, () => {
      assert.equal(closestId(typed, CANDIDATES, max), expected);
      // A fresh matcher and a second (cached) lookup say the same.
      const m = new IdMatcher(CANDIDATES, max);
      assert.equal(m.closest(typed), expected);
      assert.equal(m.closest(typed), expected);
    });
  }

  test('[#40.12] a tie goes to the first candidate in catalog order, whichever that is', () => {
    assert.equal(closestId('openai/gpt-5', ['openai/gpt-5.1', 'openai/gpt-4o']), 'openai/gpt-5.1');
    assert.equal(closestId('openai/gpt-5', ['openai/gpt-4o', 'openai/gpt-5.1']), 'openai/gpt-4o');
    assert.equal(closestId('x/ab', ['X/AB', 'x/ab']), 'X/AB', 'the same id spelled twice: the first spelling');
  });

  test('[#40.12] property: the same answer as comparing every candidate in turn (boundedDistance)', () => {
    const reference = (id: string, cands: readonly string[], max: number): string | undefined => {
      let best: string | undefined;
      let bestD = max + 1;
      for (const c of cands) {
        const d = boundedDistance(id.toLowerCase(), c.toLowerCase(), max);
        if (d < bestD) [best, bestD] = [c, d];
      }
      return best;
    };
    const str = fc.array(fc.constantFrom('a', 'b', 'c', 'A', '/', '-'), { maxLength: 9 }).map((a) => a.join(''));
    fc.assert(
      fc.property(fc.array(str, { maxLength: 12 }), fc.array(str, { minLength: 1, maxLength: 8 }), fc.integer({ min: 0, max: 3 }), (cands, typed, max) => {
        const m = new IdMatcher(cands, max);
        for (const id of typed) assert.equal(m.closest(id), reference(id, cands, max), JSON.stringify({ cands, id, max }));
      }),
      { numRuns: 3000 },
    );
  });
});

describe('[#40.12] closest catalog id: bounded work, bounded cache', () => {
  const W = 5; // cells per row of the band at max 2
  const catalogChars = (cands: readonly string[]): number => [...new Set(cands.map((c) => c.toLowerCase()))].reduce((s, c) => s + c.length, 0);

  const ADVERSARIAL: Array<[string, string[], string]> = [
    ['400 ids one substitution apart from each other', Array.from({ length: 400 }, (_, i) => `p/${'a'.repeat(i % 40)}b${'a'.repeat(39 - (i % 40))}${String(i).padStart(3, '0')}`), `p/${'a'.repeat(42)}`],
    ['400 ids of one letter', Array.from({ length: 400 }, (_, i) => `a/${'a'.repeat(1 + (i % 120))}`), `a/${'a'.repeat(30)}b${'a'.repeat(29)}`],
    ['400 ids sharing nothing', Array.from({ length: 400 }, (_, i) => `${i.toString(36)}/${'xyz'.repeat(10)}`), `zz/${'xyz'.repeat(10)}`],
  ];
  for (const [name, cands, typed] of ADVERSARIAL) {
    test(`[#40.12] ${name}: one lookup computes at most ${W} cells per catalog character`, () => {
      const m = new IdMatcher(cands);
      m.closest(typed);
      assert.ok(m.cells > 0, 'the lookup computed something');
      assert.ok(m.cells <= W * catalogChars(cands), `${m.cells} cells for ${catalogChars(cands)} catalog characters`);
    });
  }

  test('[#40.12] ids sharing a prefix share its rows: 400 dated ids cost far less than one comparison each', () => {
    const cands = Array.from({ length: 400 }, (_, i) => `openai/gpt-4o-2024-${String(1 + (i % 12)).padStart(2, '0')}-${String(i).padStart(3, '0')}`);
    const m = new IdMatcher(cands);
    assert.equal(m.closest('openai/gpt-4o-2024-01-abc'), undefined);
    // Comparing each candidate in full inside the band would be about 400 × 27 × 5 = 54,000 cells.
    assert.ok(m.cells < 10_000, `${m.cells} cells`);
  });

  test('[#40.12] a cached answer computes nothing; the cache keeps at most its bound, least recently used out first', () => {
    const m = new IdMatcher(CANDIDATES, 2, 3);
    m.closest('openai/gpt-o4');
    const after = m.cells;
    assert.equal(m.closest('openai/gpt-o4'), 'openai/gpt-4o');
    assert.equal(m.cells, after, 'no cell computed for a cached id');
    m.closest('openai/o1');
    m.closest('openai/gpt-o4'); // used again: now the most recent
    m.closest('qwen/qwen3-mix');
    m.closest('google/gemini-2.5-fash'); // the fourth: the least recently used (openai/o1) goes
    assert.equal(m.has('openai/o1'), false);
    assert.equal(m.has('openai/gpt-o4'), true);
    assert.equal(m.has('qwen/qwen3-mix'), true);
    assert.equal(m.has('google/gemini-2.5-fash'), true);
  });
});

describe('[#40.12] a diagnostics pass is bounded and says what it left', () => {
  const model = (id: string): Model => ({ id, object: 'model', owned_by: 'o', provider: 'openai', display_name: id });
  const catalog = ['openai/gpt-4o', 'openai/gpt-5.1', 'openai/o3'].map(model);
  const text = ['"openai/gpt-o4"', '"openai/gpt-5.2"', '"openai/o1"', '"openai/gpt-4x"'].join('\n'); // offsets 0, 16, 33, 45

  test('[#40.12] with no budget left, the unknown ids are counted with the offset of the first, and no suggestion is made', () => {
    const r = findingsFor(text, new CatalogIndex(catalog), 0, undefined, 0);
    assert.deepEqual(r.findings, []);
    assert.deepEqual(r.unchecked, { ids: 4, firstOffset: 1 });
  });

  test('[#40.12] a small budget: each pass goes further from the cached answers, until the whole file is judged as with no limit', () => {
    const index = new CatalogIndex(catalog);
    const passes: Array<number | undefined> = [];
    let r = findingsFor(text, index, 0, undefined, 1);
    passes.push(r.unchecked?.ids);
    while (r.unchecked && passes.length < 10) {
      r = findingsFor(text, index, 0, undefined, 1);
      passes.push(r.unchecked?.ids);
    }
    assert.deepEqual(passes, [3, 2, 1, undefined]);
    assert.deepEqual(
      r.findings.map((f) => [f.id, f.replacement]),
      [
        ['openai/gpt-o4', 'openai/gpt-4o'],
        ['openai/gpt-5.2', 'openai/gpt-5.1'],
        ['openai/o1', 'openai/o3'],
        ['openai/gpt-4x', 'openai/gpt-4o'],
      ],
    );
  });

  test('[#40.12] the default budget judges a 140 KB file of 3,935 distinct near-misses at 400 models in one pass', async () => {
    const { modelIdCatalog, nearMissFile } = await import('../../../bench/modelIdDiagnostics.bench');
    const cat = modelIdCatalog(400);
    const r = findingsFor(nearMissFile(cat), new CatalogIndex(cat), 0);
    assert.equal(r.unchecked, undefined);
    assert.equal(r.truncated, undefined);
    // One line in ten is one edit from a catalog id (bench/modelIdDiagnostics.bench.ts): 394 of 3,935.
    assert.equal(r.findings.length, 394);
    assert.ok(r.findings.every((f) => f.kind === 'unknown' && f.replacement !== undefined && boundedDistance(f.id, f.replacement, 1) === 1));
  });
});
