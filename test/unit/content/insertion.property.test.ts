/**
 * Property-based tests (fast-check) of src/core/content/insertion.ts (issue 27 items 2 and 3): for any
 * document built from front matter, paragraphs, headings, fenced code blocks, HTML tags and comments
 * spanning lines (Markdown), or tags, PHP blocks and scripts (HTML, PHP, JSX), with LF or CRLF, with
 * or without a BOM and a final newline, and for any position (cursor, below a range, end):
 * - the edit is a pure insertion and the original text is kept around it;
 * - the block stands on lines of its own, and in Markdown a blank line separates it from its neighbours;
 * - it is never inside front matter, a fence, a tag, a comment, a PHP block or a script (the generator
 *   knows where it put them: an oracle independent of the scanner), and the front matter reads the same;
 * - the EOL style and the presence of a final newline are preserved.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { placeBlock, type DocumentKind, type Eol, type InsertAt } from '../../../src/core/content/insertion';
import { findFrontMatter } from '../../../src/core/content/frontMatter';

const RUNS = 3000;

/** A part of a document: its lines, and whether the whole of it is off limits. */
interface Part {
  lines: string[];
  /** Off limits from the first character of the first line to the end of the last. */
  guarded: boolean;
  /** A fence that is never closed (only ever last): off limits to the end of the document. */
  open?: boolean;
}

const word = fc.constantFrom('rome', 'spring', 'garden', 'pasta', 'walk', 'river', 'sun', 'a', 'is', 'lovely.');
const textLine = fc.array(word, { minLength: 1, maxLength: 6 }).map((ws) => ws.join(' '));

const paragraph: fc.Arbitrary<Part> = fc.array(textLine, { minLength: 1, maxLength: 3 }).map((lines) => ({ lines, guarded: false }));
const heading: fc.Arbitrary<Part> = textLine.map((l) => ({ lines: [`## ${l}`], guarded: false }));
const fenceBody = (char: string) => fc.array(fc.oneof(textLine, fc.constantFrom('', '---', '...', '# not a heading', '<img src="x"', char === '`' ? '~~~' : '```', '  indented')), { maxLength: 4 });
const fence: fc.Arbitrary<Part> = fc.tuple(fc.constantFrom('`', '~'), fc.integer({ min: 3, max: 5 }), fc.constantFrom('', 'js', 'yaml'), fc.constantFrom('', '  ')).chain(([c, n, info, indent]) =>
  fenceBody(c).map((body) => ({ lines: [`${indent}${c.repeat(n)}${info}`, ...body, `${indent}${c.repeat(n)}`], guarded: true })),
);
const openFence: fc.Arbitrary<Part> = fc.tuple(fc.constantFrom('```', '~~~'), fenceBody('`')).map(([f, body]) => ({ lines: [f, ...body.filter((l) => !l.startsWith(f[0].repeat(3)))], guarded: true, open: true }));
// A tag spanning two lines of a paragraph: no line start between its first and last line is outside it.
const mdTag: fc.Arbitrary<Part> = fc.tuple(textLine, fc.constantFrom('"x > y"', "'a'", 'b'), textLine).map(([a, alt, b]) => ({ lines: [`${a} <img src="pic.png"`, `  alt=${alt}> ${b}`], guarded: true }));
const comment: fc.Arbitrary<Part> = fc.array(fc.oneof(textLine, fc.constant('')), { maxLength: 3 }).map((body) => ({ lines: ['<!-- note', ...body, 'end -->'], guarded: true }));

const htmlTag: fc.Arbitrary<Part> = fc.constantFrom<Part>(
  { lines: ['<img src="a.png"', '     alt="a > b">'], guarded: true },
  { lines: ['<div', '  class="x">'], guarded: true },
  { lines: ['<script>', 'if (a < b) {', '', '}', '</script>'], guarded: true },
  { lines: ['<!--', '', '-->'], guarded: true },
);
const phpBlock: fc.Arbitrary<Part> = fc.constantFrom<Part>({ lines: ['<?php', '$a = "x";', '', '?>'], guarded: true }, { lines: ['<?= $title', '?>'], guarded: true });
const jsxTag: fc.Arbitrary<Part> = fc.constantFrom<Part>({ lines: ['(<img', '  src={a > b ? x : y}', '  alt="hi" />)'], guarded: true }, { lines: ['(<Card', '  title="t"', '/>)'], guarded: true });
const codeLine: fc.Arbitrary<Part> = fc.constantFrom<Part>({ lines: ['<p>Hello</p>'], guarded: false }, { lines: ['  <li>Item</li>'], guarded: false }, { lines: ['const x = a < b;'], guarded: false }, { lines: [''], guarded: false });

interface Doc {
  text: string;
  eol: Eol;
  /** Offsets a block must not be inserted strictly inside: (start, end). Front matter: [start, end). */
  guards: Array<{ start: number; end: number; inclusiveStart?: boolean }>;
}

function build(parts: Part[], gaps: number[], opts: { eol: Eol; bom: boolean; finalEol: boolean; frontMatter?: string[] }): Doc {
  const { eol } = opts;
  let text = opts.bom ? '\uFEFF' : '';
  const guards: Doc['guards'] = [];
  if (opts.frontMatter) {
    text += ['---', ...opts.frontMatter, '---'].join(eol) + eol;
    guards.push({ start: 0, end: text.length, inclusiveStart: true });
  }
  parts.forEach((part, i) => {
    if (i > 0) text += eol.repeat(1 + gaps[i % gaps.length]);
    const start = text.length;
    text += part.lines.join(eol);
    if (part.guarded) guards.push({ start, end: part.open ? Number.MAX_SAFE_INTEGER : text.length });
  });
  if (opts.finalEol && parts.length > 0) text += eol;
  return { text, eol, guards };
}

const docOptions = fc.record({ eol: fc.constantFrom<Eol>('\n', '\r\n'), bom: fc.boolean(), finalEol: fc.boolean(), gaps: fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 1, maxLength: 4 }) });

const markdownDoc: fc.Arbitrary<Doc> = fc
  .record({
    parts: fc.array(fc.oneof(paragraph, heading, fence, mdTag, comment), { maxLength: 7 }),
    last: fc.option(openFence, { freq: 5 }),
    frontMatter: fc.option(fc.array(fc.constantFrom('title: Trip', 'tags: [a, b]', '# a comment', 'draft: true', ''), { maxLength: 3 }), { freq: 2 }),
    opts: docOptions,
  })
  .map(({ parts, last, frontMatter, opts }) => {
    // Markdown blocks: a paragraph directly after a tag or comment part would merge with it, so those
    // parts are always set off by a blank line (gap 1+); other gaps may be 0.
    const all = last ? [...parts, last] : parts;
    const gaps = all.map((p, i) => (i > 0 && (all[i - 1].guarded || p.guarded) ? Math.max(1, opts.gaps[i % opts.gaps.length]) : opts.gaps[i % opts.gaps.length]));
    return build(all, gaps.length ? gaps : [1], { ...opts, ...(frontMatter ? { frontMatter } : {}) });
  });

const codeDoc = (kind: 'html' | 'php' | 'jsx'): fc.Arbitrary<Doc> =>
  fc
    .record({ parts: fc.array(fc.oneof(codeLine, kind === 'html' ? htmlTag : kind === 'php' ? fc.oneof(htmlTag, phpBlock) : jsxTag), { maxLength: 8 }), opts: docOptions })
    .map(({ parts, opts }) => build(parts, opts.gaps, opts));

const block = fc.oneof(
  fc.constant('![A cat](img/cat.png)'),
  fc.constant('<img src="cat.png" alt="A cat">'),
  fc.array(textLine, { minLength: 1, maxLength: 3 }).map((ls) => ls.join('\n')),
);

const where = (len: number): fc.Arbitrary<InsertAt> =>
  fc.oneof(
    fc.integer({ min: 0, max: len }).map((offset): InsertAt => ({ at: 'cursor', offset })),
    fc.tuple(fc.integer({ min: 0, max: len }), fc.integer({ min: 0, max: len })).map(([a, b]): InsertAt => ({ at: 'below', range: { start: Math.min(a, b), end: Math.max(a, b) } })),
    fc.constant<InsertAt>({ at: 'end' }),
  );

const isBlank = (line: string): boolean => line.trim() === '';

function check(doc: Doc, kind: DocumentKind, w: InsertAt, raw: string): void {
  const { text, eol } = doc;
  const e = placeBlock(text, kind, w, raw, eol);
  // A pure insertion, the original text around it.
  assert.equal(e.start, e.end);
  assert.ok(e.start >= 0 && e.start <= text.length);
  const out = text.slice(0, e.start) + e.newText + text.slice(e.start);
  assert.equal(out.slice(0, e.start), text.slice(0, e.start));
  assert.equal(out.slice(e.start + e.newText.length), text.slice(e.start));

  // The block, in the document's EOL, with only line breaks (and indentation) around it.
  const bodyLines = raw.split('\n');
  const idx = e.newText.indexOf(bodyLines[0]);
  assert.ok(idx >= 0, 'the block is inserted');
  const pre = e.newText.slice(0, idx);
  const indent = pre.slice(pre.lastIndexOf('\n') + 1);
  assert.match(indent, /^[ \t]*$/);
  const body = bodyLines.map((l) => indent + l).join(eol).slice(indent.length);
  assert.equal(e.newText.slice(idx, idx + body.length), body, 'the block reads back in the document EOL');
  const post = e.newText.slice(idx + body.length);
  assert.ok([eol, eol + eol].includes(pre.slice(0, pre.length - indent.length)) || pre.length - indent.length === 0, JSON.stringify(pre));
  assert.ok(['', eol, eol + eol].includes(post), JSON.stringify(post));

  // On lines of its own.
  const blockStart = e.start + idx - indent.length;
  const blockEnd = e.start + idx + body.length;
  const bom = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  assert.ok(blockStart === bom || out[blockStart - 1] === '\n', 'starts a line');
  assert.ok(blockEnd === out.length || out.startsWith(eol, blockEnd), 'ends a line');

  // In Markdown, a paragraph of its own.
  if (kind === 'markdown') {
    const before = out.slice(bom, blockStart).split(/\r?\n/);
    if (blockStart > bom) assert.ok(isBlank(before[before.length - 2] ?? ''), 'a blank line above');
    const afterLines = out.slice(blockEnd).split(/\r?\n/);
    if (blockEnd + eol.length < out.length) assert.ok(isBlank(afterLines[1]), 'a blank line below');
  }

  // Never inside what the generator marked as off limits; the front matter reads the same.
  for (const g of doc.guards) {
    const inside = g.inclusiveStart ? e.start >= g.start && e.start < g.end : e.start > g.start && e.start < g.end;
    assert.ok(!inside, `inserted at ${e.start}, inside ${g.start}..${g.end}`);
  }
  assert.equal(findFrontMatter(out)?.body, findFrontMatter(text)?.body);

  // EOL style and the final newline are kept.
  if (eol === '\r\n') assert.ok(!/(^|[^\r])\n/.test(out), 'only CRLF');
  else assert.ok(!out.includes('\r'), 'only LF');
  if (text.length > bom) assert.equal(out.endsWith('\n'), text.endsWith('\n'), 'final newline kept as it was');
}

describe('[#27.2] [#27.3] any insertion at any position keeps the document structure (property)', () => {
  test('Markdown (front matter, fences, tags, comments; LF/CRLF; BOM; final newline or not)', () => {
    fc.assert(
      fc.property(markdownDoc.chain((doc) => fc.tuple(fc.constant(doc), where(doc.text.length), block)), ([doc, w, raw]) => check(doc, 'markdown', w, raw)),
      { numRuns: RUNS },
    );
  });

  for (const kind of ['html', 'php', 'jsx'] as const) {
    test(`${kind.toUpperCase()} (tags spanning lines${kind === 'php' ? ', PHP blocks' : ''}${kind === 'html' ? ', scripts, comments' : ''}; LF/CRLF)`, () => {
      fc.assert(
        fc.property(codeDoc(kind).chain((doc) => fc.tuple(fc.constant(doc), where(doc.text.length), block)), ([doc, w, raw]) => check(doc, kind, w, raw)),
        { numRuns: RUNS },
      );
    });
  }

  test('plain text: lines of their own, the text kept', () => {
    fc.assert(
      fc.property(
        fc.record({ parts: fc.array(paragraph, { maxLength: 5 }), opts: docOptions }).map(({ parts, opts }) => build(parts, opts.gaps, opts)).chain((doc) => fc.tuple(fc.constant(doc), where(doc.text.length), block)),
        ([doc, w, raw]) => check(doc, 'plain', w, raw),
      ),
      { numRuns: RUNS },
    );
  });
});
