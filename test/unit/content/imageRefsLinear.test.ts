/**
 * The missing-alt scanner on hostile input: it runs on every Markdown or HTML file opened, even in
 * Restricted Mode, so it must be linear and bounded. Linearity is checked deterministically with the
 * scanner's step meter (characters examined), not with a clock: for each adversarial family and
 * several sizes, steps <= STEPS_PER_CHAR * n. The inputs reported as taking a minute must finish
 * inside the per-test timeout.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { once } from 'node:events';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { findImageRefs, scanImageRefs, type ImageSyntax } from '../../../src/core/content/imageRefs';

/** A fixed constant, independent of n: a quadratic scanner exceeds it as soon as n passes a few hundred. */
const STEPS_PER_CHAR = 24;
const SIZES = [4_000, 16_000, 64_000];

function repeatTo(unit: string, n: number): string {
  return unit.repeat(Math.ceil(n / unit.length));
}

function steps(text: string, syntax: ImageSyntax): number {
  const meter = { steps: 0 };
  scanImageRefs(text, syntax, { meter, maxImages: Number.MAX_SAFE_INTEGER, maxChars: Number.MAX_SAFE_INTEGER });
  return meter.steps;
}

const FAMILIES: Array<[string, ImageSyntax, (n: number) => string]> = [
  ['markdown: text <img alt (unclosed tags)', 'markdown', (n) => repeatTo('text <img alt ', n)],
  ['html: <img (unclosed tags)', 'html', (n) => repeatTo('<img ', n)],
  ['html: <img src=" (unclosed quotes)', 'html', (n) => repeatTo('<img src="', n)],
  ['html: <img <?php (unclosed PHP)', 'html', (n) => repeatTo('<img <?php ', n)],
  ['jsx: <img src={ (unclosed braces)', 'jsx', (n) => repeatTo('<img src={', n)],
  ['markdown: ![ (unclosed alts)', 'markdown', (n) => repeatTo('![', n)],
  ['markdown: ![](a (destinations that never close)', 'markdown', (n) => repeatTo('![](a', n)],
  ['markdown: ![](a( (nested open parens)', 'markdown', (n) => repeatTo('![](a(', n)],
  ['markdown: ![a](< (angle destinations)', 'markdown', (n) => repeatTo('![a](<', n)],
  ['markdown: ![a](b " (titles that never close)', 'markdown', (n) => repeatTo('![a](b "', n)],
  ['markdown: ![a](b ( (paren titles)', 'markdown', (n) => repeatTo('![a](b (', n)],
  ['markdown: ![a](b then spaces', 'markdown', (n) => repeatTo('![a](b' + ' '.repeat(40), n)],
  ['markdown: ![a][ (reference labels)', 'markdown', (n) => repeatTo('![a][', n)],
  ['markdown: [![ (links around images)', 'markdown', (n) => repeatTo('[![', n)],
  ['markdown: backtick runs of growing length', 'markdown', (n) => {
    let s = '';
    for (let k = 1; s.length < n; k = (k % 50) + 1) s += '`'.repeat(k) + ' x ';
    return s;
  }],
  ['markdown: ` ` ` (unmatched single ticks with ``)', 'markdown', (n) => repeatTo('`` ` ', n)],
  ['markdown: deeply nested images', 'markdown', (n) => '![' .repeat(Math.floor(n / 7)) + 'a](b)'.repeat(Math.floor(n / 7))],
  ['markdown: valid images', 'markdown', (n) => repeatTo('![a](b.png "t") <img src=x> ', n)],
  ['html: valid tags', 'html', (n) => repeatTo('<p><img src="a.png" alt=""></p>', n)],
];

describe('missing-alt scanner is linear on adversarial input', () => {
  for (const [name, syntax, make] of FAMILIES) {
    test(`${name}: steps <= ${STEPS_PER_CHAR}·n at ${SIZES.join(', ')} chars`, { timeout: 20_000 }, () => {
      for (const size of SIZES) {
        const text = make(size);
        const s = steps(text, syntax);
        // Every character is looked at at least once: a meter that counts nothing proves nothing.
        assert.ok(s >= text.length, `${s} steps for ${text.length} chars: the meter did not count`);
        assert.ok(s <= STEPS_PER_CHAR * text.length, `${s} steps for ${text.length} chars (${(s / text.length).toFixed(1)} per char)`);
      }
    });
  }

  // In a worker: the timeout must be able to fire while a slow scan is still running.
  for (const [label, unit, kb, syntax] of [
    ['208 KB Markdown file of repeated `text <img alt` (took over a minute)', 'text <img alt ', 208, 'markdown'],
    ['80 KB HTML file of repeated `<img ` (took about 30 s)', '<img ', 80, 'html'],
  ] as const) {
    test(`the review's ${label} is scanned within the per-test timeout`, { timeout: 20_000 }, async () => {
      // A worker's entry cannot be .ts under Node 20's loader hooks: a JS stub registers tsx first.
      const entry = path.join(__dirname, 'imageRefsScanWorker.ts');
      const worker = new Worker(`require('tsx/cjs'); require(${JSON.stringify(entry)});`, { eval: true, workerData: { text: repeatTo(unit, kb * 1024), syntax } });
      // If the timeout fails the test, the stray worker must not keep the run alive.
      worker.unref();
      const [found] = (await once(worker, 'message')) as [number];
      assert.equal(found, 0);
      await worker.terminate();
    });
  }

  test('random mixes of image syntax stay within the step bound (fast-check)', { timeout: 60_000 }, () => {
    const piece = fc.constantFrom('![', '](', ')', '[', ']', '(', '<', '>', '"', "'", '`', '``', '\\', ' ', '\n', '\n\n', '<img ', 'src=', 'alt', '{', '}', '<?', '?>', '<!--', '-->', 'a', '.png');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 400 }), fc.constantFrom<ImageSyntax>('markdown', 'html', 'jsx'), (parts, syntax) => {
        const text = parts.join('');
        const s = steps(text, syntax);
        return s <= STEPS_PER_CHAR * text.length + 16;
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('what the linear scanner still finds', () => {
  test('an unclosed <img at the end hides nothing before it, and images nested in an alt are still found', () => {
    const html = '<img src="a.png" alt="">\n<p>text</p>\n<img src="b.png"';
    assert.deepEqual(
      findImageRefs(html, 'html').map((r) => r.src),
      ['a.png'],
    );
    const md = '![outer ![inner](i.png) text](o.png "t") and `![code](c.png)` then ![last][ref]\n\n[ref]: l.png\n';
    assert.deepEqual(
      findImageRefs(md, 'markdown').map((r) => r.src),
      ['o.png', 'i.png', 'l.png'],
    );
  });

  test('a code span closes at the next run of the same length, past runs of other lengths', () => {
    const md = '`` a ` b `` ![x](y.png) ` ![hidden](h.png) ` ![z](z.png)';
    assert.deepEqual(
      findImageRefs(md, 'markdown').map((r) => r.src),
      ['y.png', 'z.png'],
    );
  });

  test('destinations with balanced parens, angle brackets and titles in all three forms', () => {
    const md = '![a](x(1).png) ![b](<y z.png>) ![c](c.png "t") ![d](d.png \'t\') ![e](e.png (t)) ![f](f.png (t(u)))';
    assert.deepEqual(
      findImageRefs(md, 'markdown').map((r) => r.src),
      ['x(1).png', 'y z.png', 'c.png', 'd.png', 'e.png'],
    );
  });
});

describe('the scan is bounded per document and says where it stopped', () => {
  test('past maxImages it stops and reports the offset reached', () => {
    const text = repeatTo('<img src="a.png">', 17 * 10);
    const scan = scanImageRefs(text, 'html', { maxImages: 3 });
    assert.equal(scan.refs.length, 3);
    assert.deepEqual(scan.truncated, { reason: 'images', scannedChars: 17 * 3, limit: 3 });
  });

  test('past maxChars the rest is not scanned, and that is reported', () => {
    const text = '![a](a.png) '.repeat(10) + 'x'.repeat(100) + ' ![late](late.png)';
    const scan = scanImageRefs(text, 'markdown', { maxChars: 150 });
    assert.equal(scan.refs.length, 10);
    assert.deepEqual(scan.truncated, { reason: 'chars', scannedChars: 150, limit: 150 });
  });

  test('within the limits nothing is reported as truncated', () => {
    assert.equal(scanImageRefs('![a](a.png)', 'markdown').truncated, undefined);
  });
});
