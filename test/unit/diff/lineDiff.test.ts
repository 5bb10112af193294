import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { applyEdits, chosenEdits, describeHunk, diffLines, eolOf, rebaseEdits, splitLines, withEol } from '../../../src/core/diff/lineDiff';

const all = (a: string, b: string): string => applyEdits(a, chosenEdits(diffLines(a, b)));

describe('[#29.5] line diff of a proposed change', () => {
  test('lines keep their terminators; the last may have none', () => {
    assert.deepEqual(splitLines('a\r\nb\nc'), ['a\r\n', 'b\n', 'c']);
    assert.deepEqual(splitLines('a\n'), ['a\n']);
    assert.deepEqual(splitLines(''), []);
  });

  test('no change, no hunks', () => {
    assert.deepEqual(diffLines('a\nb\n', 'a\nb\n'), []);
  });

  test('separate changes are separate hunks, with old and new line numbers', () => {
    const old = 'one\ntwo\nthree\nfour\nfive\n';
    const next = 'one\nTWO\nthree\nfour\nFIVE\nsix\n';
    const hunks = diffLines(old, next);
    assert.equal(hunks.length, 2);
    assert.deepEqual(
      hunks.map((h) => [h.oldLine, h.oldCount, h.newLine, h.newCount, h.oldText, h.newText]),
      [
        [1, 1, 1, 1, 'two\n', 'TWO\n'],
        [4, 1, 4, 2, 'five\n', 'FIVE\nsix\n'],
      ],
    );
    assert.equal(all(old, next), next);
  });

  test('per-change selection: only the chosen hunks are applied, the others stay as they were', () => {
    const old = 'one\ntwo\nthree\nfour\nfive\n';
    const next = 'one\nTWO\nthree\nfour\nFIVE\n';
    const hunks = diffLines(old, next);
    assert.equal(applyEdits(old, chosenEdits(hunks, new Set([0]))), 'one\nTWO\nthree\nfour\nfive\n');
    assert.equal(applyEdits(old, chosenEdits(hunks, new Set([1]))), 'one\ntwo\nthree\nfour\nFIVE\n');
    assert.equal(applyEdits(old, chosenEdits(hunks, new Set())), old);
  });

  test('CRLF documents: applied hunks keep CRLF, and a proposal is normalised to the document line break', () => {
    const old = '---\r\ntitle: Post\r\n---\r\n\r\nFirst paragraph.\r\nSecond.\r\n';
    assert.equal(eolOf(old), '\r\n');
    const proposal = withEol('---\ntitle: Post\ntags: [a]\n---\n\nFirst paragraph.\nSecond, better.\n', eolOf(old));
    const hunks = diffLines(old, proposal);
    assert.equal(hunks.length, 2, 'only the two changed lines, not every line');
    const out = all(old, proposal);
    assert.equal(out, proposal);
    assert.ok(!/[^\r]\n/.test(out), 'no bare LF');
  });

  test('a document without a final newline keeps having none; changing only the last line touches only it', () => {
    const old = 'a\nb\nlast line';
    const next = 'a\nb\nlast line, rewritten';
    const hunks = diffLines(old, next);
    assert.equal(hunks.length, 1);
    assert.equal(hunks[0].oldText, 'last line');
    assert.equal(all(old, next), next);
    assert.ok(!all(old, next).endsWith('\n'));
  });

  test('adding after a last line without newline replaces that line (it gains its terminator)', () => {
    const old = 'a\nb';
    const next = 'a\nb\nc';
    const hunks = diffLines(old, next);
    assert.deepEqual(hunks.map((h) => [h.oldText, h.newText]), [['b', 'b\nc']]);
    assert.equal(all(old, next), next);
  });

  test('past the edit-distance bound the changed middle is one hunk, still exact', () => {
    const old = Array.from({ length: 50 }, (_, i) => `old ${i}\n`).join('');
    const next = Array.from({ length: 50 }, (_, i) => `new ${i}\n`).join('');
    const hunks = diffLines(`keep\n${old}tail\n`, `keep\n${next}tail\n`, 10);
    assert.equal(hunks.length, 1);
    assert.equal(hunks[0].oldLine, 1);
    assert.equal(hunks[0].oldCount, 50);
  });

  test('applying every hunk gives the new text, and no hunks overlap (10,000 cases)', () => {
    const line = fc.constantFrom('a', 'b', 'c', '', 'd e');
    const doc = fc.tuple(fc.array(line, { maxLength: 12 }), fc.constantFrom<'\n' | '\r\n'>('\n', '\r\n'), fc.boolean()).map(([ls, eol, final]) => ls.join(eol) + (final && ls.length ? eol : ''));
    fc.assert(
      fc.property(doc, doc, (a, b) => {
        const hunks = diffLines(a, b);
        for (let i = 1; i < hunks.length; i++) assert.ok(hunks[i - 1].end <= hunks[i].start);
        assert.equal(applyEdits(a, chosenEdits(hunks)), b);
      }),
      { numRuns: 10_000 },
    );
  });

  test('rebase: edits move past what the user typed elsewhere, and are refused when the user changed their lines', () => {
    const base = 'title\n\nintro\n\nbody\n';
    const proposal = 'title\n\nintro\n\nbody, improved\n';
    const edits = chosenEdits(diffLines(base, proposal));
    const typedAbove = 'title\nsubtitle\n\nintro\n\nbody\n';
    const moved = rebaseEdits(base, typedAbove, edits);
    assert.ok(moved);
    assert.equal(applyEdits(typedAbove, moved), 'title\nsubtitle\n\nintro\n\nbody, improved\n');
    assert.equal(rebaseEdits(base, 'title\n\nintro\n\nbody (mine)\n', edits), undefined);
  });

  test('a hunk is described by its lines and what it does', () => {
    const [h] = diffLines('a\nb\nc\n', 'a\nB\nc\n');
    assert.deepEqual(describeHunk(h), { label: 'Line 2: replace 1 line with 1 line', detail: '− b   + B' });
    const [add] = diffLines('a\n', 'a\nb\n');
    assert.equal(describeHunk(add).label, 'After line 1: add 1 line');
  });
});
