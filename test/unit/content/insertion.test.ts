/**
 * Every insertion into a document keeps its structure (issue 27, items 2 and 3): one table per
 * document kind (Markdown with and without front matter, HTML, PHP, JSX) × position (start, middle,
 * end, inside front matter or a tag, no trailing newline, CRLF), run for each insertion that applies
 * there (image markup, a summary, categories and tags, a transcript), against
 * src/core/content/insertion.ts, which the editor glue of all of them calls. Plus the cases the
 * table does not reach, and hostile inputs that a scan with backtracking or rescans would not finish.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { documentKind, insertAtSelection, placeBlock, type DocumentKind, type Eol, type InsertAt } from '../../../src/core/content/insertion';
import { imageMarkup } from '../../../src/core/content/placement';
import { findFrontMatter } from '../../../src/core/content/frontMatter';

function insert(text: string, kind: DocumentKind, where: InsertAt, block: string, eol: Eol = text.includes('\r\n') ? '\r\n' : '\n'): string {
  const e = placeBlock(text, kind, where, block, eol);
  assert.equal(e.start, e.end, 'a pure insertion');
  return text.slice(0, e.start) + e.newText + text.slice(e.end);
}

/** `template` with `{B}` replaced by the block's lines, each indented as `{B}` is. */
function expected(template: string, block: string, eol: Eol): string {
  return template.replace(/^([ \t]*)\{B\}/m, (_m, indent: string) => block.split('\n').map((l) => indent + l).join(eol));
}

const crlf = (s: string): string => s.replace(/\n/g, '\r\n');
const at = (text: string, needle: string, delta = 0): InsertAt => {
  const i = text.indexOf(needle);
  assert.ok(i >= 0, needle);
  return { at: 'cursor', offset: i + delta };
};

/** The insertions of issue 27 item 3, with the document kinds each applies to. */
const BLOCKS: Array<{ name: string; kinds: DocumentKind[]; block: (kind: DocumentKind) => string }> = [
  { name: 'image', kinds: ['markdown', 'html', 'php', 'jsx'], block: (k) => imageMarkup(k === 'markdown' ? 'markdown' : k === 'jsx' ? 'jsx' : 'html', 'img/a cat.png', 'A [cat]') },
  { name: 'summary', kinds: ['markdown', 'html', 'php', 'jsx', 'plain'], block: () => 'Summary: the post in brief.\nIt has two lines.' },
  // In Markdown, terms go into the front matter (frontMatter.test.ts); elsewhere they are lines of text.
  { name: 'taxonomy', kinds: ['html', 'php', 'jsx', 'plain'], block: () => 'Categories: Travel\nTags: rome, spring' },
  { name: 'transcript', kinds: ['markdown', 'html', 'php', 'jsx', 'plain'], block: () => 'Good morning and welcome.\nToday we talk about Rome.' },
];

interface Row {
  position: string;
  text: string;
  where: (text: string) => InsertAt;
  /** The result, with {B} where the block goes. */
  want: string;
}

const MD_FM = '---\ntitle: Trip\ntags: [rome]\n---\n# Trip\n\nRome in spring is lovely,\nthe gardens bloom.\n\nLast paragraph.\n';
const MD = '# Trip\n\nRome in spring is lovely,\nthe gardens bloom.\n\nLast paragraph.\n';
const HTML = '<main>\n  <h1>Trip</h1>\n  <img src="a.png"\n       alt="A fountain">\n  <p>Last</p>\n</main>\n';
const PHP = '<?php\n$title = "Trip";\n?>\n<main>\n  <h1><?php echo $title; ?></h1>\n  <p>Last</p>\n</main>\n';
const JSX = 'export const Post = () => (\n  <main>\n    <img\n      src={hero}\n      alt="A > B"\n    />\n    <p>Last</p>\n  </main>\n);\n';
const PLAIN = 'Notes from the trip.\nMore notes.\n\nThe end.\n';

const TABLE: Record<string, { kind: DocumentKind; rows: Row[] }> = {
  'Markdown with front matter': {
    kind: 'markdown',
    rows: [
      { position: 'start (line 1, where the cursor is on opening)', text: MD_FM, where: () => ({ at: 'cursor', offset: 0 }), want: '---\ntitle: Trip\ntags: [rome]\n---\n\n{B}\n\n# Trip\n\nRome in spring is lovely,\nthe gardens bloom.\n\nLast paragraph.\n' },
      { position: 'inside front matter', text: MD_FM, where: (t) => at(t, 'tags', 2), want: '---\ntitle: Trip\ntags: [rome]\n---\n\n{B}\n\n# Trip\n\nRome in spring is lovely,\nthe gardens bloom.\n\nLast paragraph.\n' },
      { position: 'on the closing ---', text: MD_FM, where: (t) => at(t, '---\n#', 3), want: '---\ntitle: Trip\ntags: [rome]\n---\n\n{B}\n\n# Trip\n\nRome in spring is lovely,\nthe gardens bloom.\n\nLast paragraph.\n' },
      { position: 'middle of a paragraph', text: MD_FM, where: (t) => at(t, 'spring'), want: '---\ntitle: Trip\ntags: [rome]\n---\n# Trip\n\nRome in spring is lovely,\nthe gardens bloom.\n\n{B}\n\nLast paragraph.\n' },
      { position: 'end', text: MD_FM, where: () => ({ at: 'end' }), want: MD_FM + '\n{B}\n' },
      { position: 'end, no trailing newline', text: MD_FM.trimEnd(), where: () => ({ at: 'end' }), want: MD_FM.trimEnd() + '\n\n{B}' },
      { position: 'start, CRLF', text: crlf(MD_FM), where: () => ({ at: 'cursor', offset: 0 }), want: crlf('---\ntitle: Trip\ntags: [rome]\n---\n\n{B}\n\n# Trip\n\nRome in spring is lovely,\nthe gardens bloom.\n\nLast paragraph.\n') },
      { position: 'middle, CRLF', text: crlf(MD_FM), where: (t) => at(t, 'bloom'), want: crlf('---\ntitle: Trip\ntags: [rome]\n---\n# Trip\n\nRome in spring is lovely,\nthe gardens bloom.\n\n{B}\n\nLast paragraph.\n') },
      { position: 'start, with a BOM and CRLF', text: '\uFEFF' + crlf(MD_FM), where: () => ({ at: 'cursor', offset: 0 }), want: '\uFEFF' + crlf('---\ntitle: Trip\ntags: [rome]\n---\n\n{B}\n\n# Trip\n\nRome in spring is lovely,\nthe gardens bloom.\n\nLast paragraph.\n') },
    ],
  },
  'Markdown without front matter': {
    kind: 'markdown',
    rows: [
      { position: 'start', text: MD, where: () => ({ at: 'cursor', offset: 0 }), want: '{B}\n\n' + MD },
      { position: 'middle of a paragraph', text: MD, where: (t) => at(t, 'lovely'), want: '# Trip\n\nRome in spring is lovely,\nthe gardens bloom.\n\n{B}\n\nLast paragraph.\n' },
      { position: 'start of the second line of a paragraph (not split)', text: MD, where: (t) => at(t, 'the gardens'), want: '# Trip\n\nRome in spring is lovely,\nthe gardens bloom.\n\n{B}\n\nLast paragraph.\n' },
      { position: 'start of a paragraph', text: MD, where: (t) => at(t, 'Rome'), want: '# Trip\n\n{B}\n\nRome in spring is lovely,\nthe gardens bloom.\n\nLast paragraph.\n' },
      { position: 'end of a heading', text: MD, where: (t) => at(t, '\n\nRome'), want: '# Trip\n\n{B}\n\nRome in spring is lovely,\nthe gardens bloom.\n\nLast paragraph.\n' },
      { position: 'end', text: MD, where: () => ({ at: 'end' }), want: MD + '\n{B}\n' },
      { position: 'end, no trailing newline', text: MD.trimEnd(), where: () => ({ at: 'end' }), want: MD.trimEnd() + '\n\n{B}' },
      { position: 'middle, CRLF', text: crlf(MD), where: (t) => at(t, 'spring'), want: crlf('# Trip\n\nRome in spring is lovely,\nthe gardens bloom.\n\n{B}\n\nLast paragraph.\n') },
      { position: 'empty document', text: '', where: () => ({ at: 'cursor', offset: 0 }), want: '{B}\n' },
    ],
  },
  HTML: {
    kind: 'html',
    rows: [
      { position: 'start', text: HTML, where: () => ({ at: 'cursor', offset: 0 }), want: '{B}\n' + HTML },
      { position: 'inside a tag spanning lines', text: HTML, where: (t) => at(t, 'alt='), want: '<main>\n  <h1>Trip</h1>\n  <img src="a.png"\n       alt="A fountain">\n  {B}\n  <p>Last</p>\n</main>\n' },
      { position: 'middle of a line', text: HTML, where: (t) => at(t, 'Trip</h1>'), want: '<main>\n  <h1>Trip</h1>\n  {B}\n  <img src="a.png"\n       alt="A fountain">\n  <p>Last</p>\n</main>\n' },
      { position: 'end', text: HTML, where: () => ({ at: 'end' }), want: HTML + '{B}\n' },
      { position: 'end, no trailing newline', text: HTML.trimEnd(), where: () => ({ at: 'end' }), want: HTML.trimEnd() + '\n{B}' },
      { position: 'inside a tag, CRLF', text: crlf(HTML), where: (t) => at(t, 'src='), want: crlf('<main>\n  <h1>Trip</h1>\n  <img src="a.png"\n       alt="A fountain">\n  {B}\n  <p>Last</p>\n</main>\n') },
    ],
  },
  PHP: {
    kind: 'php',
    rows: [
      { position: 'start (before the PHP block)', text: PHP, where: () => ({ at: 'cursor', offset: 0 }), want: '{B}\n' + PHP },
      { position: 'inside the PHP block', text: PHP, where: (t) => at(t, '$title = '), want: '<?php\n$title = "Trip";\n?>\n{B}\n<main>\n  <h1><?php echo $title; ?></h1>\n  <p>Last</p>\n</main>\n' },
      { position: 'inside an inline PHP tag', text: PHP, where: (t) => at(t, 'echo'), want: '<?php\n$title = "Trip";\n?>\n<main>\n  <h1><?php echo $title; ?></h1>\n  {B}\n  <p>Last</p>\n</main>\n' },
      { position: 'end', text: PHP, where: () => ({ at: 'end' }), want: PHP + '{B}\n' },
      { position: 'end, no trailing newline', text: PHP.trimEnd(), where: () => ({ at: 'end' }), want: PHP.trimEnd() + '\n{B}' },
      { position: 'inside the PHP block, CRLF', text: crlf(PHP), where: (t) => at(t, 'Trip";'), want: crlf('<?php\n$title = "Trip";\n?>\n{B}\n<main>\n  <h1><?php echo $title; ?></h1>\n  <p>Last</p>\n</main>\n') },
      { position: 'a PHP block never closed (before it, not inside)', text: '<?php\necho 1;\n', where: (t) => at(t, 'echo'), want: '{B}\n<?php\necho 1;\n' },
    ],
  },
  JSX: {
    kind: 'jsx',
    rows: [
      { position: 'inside a tag spanning lines (with > in a value)', text: JSX, where: (t) => at(t, 'src='), want: 'export const Post = () => (\n  <main>\n    <img\n      src={hero}\n      alt="A > B"\n    />\n    {B}\n    <p>Last</p>\n  </main>\n);\n' },
      { position: 'middle of a line', text: JSX, where: (t) => at(t, 'Last'), want: 'export const Post = () => (\n  <main>\n    <img\n      src={hero}\n      alt="A > B"\n    />\n    <p>Last</p>\n    {B}\n  </main>\n);\n' },
      { position: 'start', text: JSX, where: () => ({ at: 'cursor', offset: 0 }), want: '{B}\n' + JSX },
      { position: 'end', text: JSX, where: () => ({ at: 'end' }), want: JSX + '{B}\n' },
      { position: 'end, no trailing newline', text: JSX.trimEnd(), where: () => ({ at: 'end' }), want: JSX.trimEnd() + '\n{B}' },
      { position: 'inside a tag, CRLF', text: crlf(JSX), where: (t) => at(t, 'hero'), want: crlf('export const Post = () => (\n  <main>\n    <img\n      src={hero}\n      alt="A > B"\n    />\n    {B}\n    <p>Last</p>\n  </main>\n);\n') },
    ],
  },
  'plain text': {
    kind: 'plain',
    rows: [
      { position: 'start', text: PLAIN, where: () => ({ at: 'cursor', offset: 0 }), want: '{B}\n\n' + PLAIN },
      { position: 'middle', text: PLAIN, where: (t) => at(t, 'from'), want: 'Notes from the trip.\nMore notes.\n\n{B}\n\nThe end.\n' },
      { position: 'end, no trailing newline', text: PLAIN.trimEnd(), where: () => ({ at: 'end' }), want: PLAIN.trimEnd() + '\n\n{B}' },
      { position: 'middle, CRLF', text: crlf(PLAIN), where: (t) => at(t, 'More'), want: crlf('Notes from the trip.\nMore notes.\n\n{B}\n\nThe end.\n') },
    ],
  },
};

describe('[#27.2] [#27.3] every insertion keeps the document structure: document kind × position × insertion', () => {
  for (const [docName, { kind, rows }] of Object.entries(TABLE)) {
    for (const { name, kinds, block } of BLOCKS) {
      if (!kinds.includes(kind)) continue;
      test(`${docName}: ${name} at ${rows.map((r) => r.position).join('; ')}`, () => {
        for (const row of rows) {
          const eol: Eol = row.text.includes('\r\n') ? '\r\n' : '\n';
          const b = block(kind);
          assert.equal(insert(row.text, kind, row.where(row.text), b, eol), expected(row.want, b, eol), `${docName}, ${row.position}`);
        }
      });
    }
  }
});

describe('[#27.2] Generate Image → Insert at line 1 of a post with front matter', () => {
  test('the markup goes after the front matter, on its own line with blank lines around, and the front matter still reads', () => {
    const post = '---\ntitle: "Trip to Rome"\n---\n\n# Trip to Rome\n\nRome in spring is lovely.\n';
    const out = insert(post, 'markdown', { at: 'cursor', offset: 0 }, '![A fountain](fountain.png)');
    assert.equal(out, '---\ntitle: "Trip to Rome"\n---\n\n![A fountain](fountain.png)\n\n# Trip to Rome\n\nRome in spring is lovely.\n');
    assert.equal(findFrontMatter(out)?.body, 'title: "Trip to Rome"\n');
  });

  test('never inside a fenced code block (``` or ~~~, also holding --- and blank lines): after it', () => {
    const doc = 'Intro.\n\n~~~yaml\n---\na: 1\n\n---\n~~~\nAfter.\n';
    assert.equal(insert(doc, 'markdown', at(doc, 'a: 1'), 'IMG'), 'Intro.\n\n~~~yaml\n---\na: 1\n\n---\n~~~\n\nIMG\n\nAfter.\n');
    const ticks = '```\ncode\n```';
    assert.equal(insert(ticks, 'markdown', at(ticks, 'code', 2), 'IMG'), '```\ncode\n```\n\nIMG');
  });

  test('a fence never closed runs to the end, so the block goes before it', () => {
    const doc = 'Intro.\n```js\nlet a;\n';
    assert.equal(insert(doc, 'markdown', at(doc, 'let'), 'IMG'), 'Intro.\n\nIMG\n\n```js\nlet a;\n');
    assert.equal(insert(doc, 'markdown', { at: 'end' }, 'IMG'), 'Intro.\n\nIMG\n\n```js\nlet a;\n');
  });

  test('never inside an HTML tag, comment or <pre> in Markdown: after it', () => {
    const tag = 'Look: <img src="a.png"\n  alt="x > y"> here\nand more.\n\nNext.\n';
    assert.equal(insert(tag, 'markdown', at(tag, 'alt'), 'IMG'), 'Look: <img src="a.png"\n  alt="x > y"> here\nand more.\n\nIMG\n\nNext.\n');
    const comment = '<!-- draft\n\nnotes -->\nText.\n';
    assert.equal(insert(comment, 'markdown', at(comment, 'notes'), 'IMG'), '<!-- draft\n\nnotes -->\nText.\n\nIMG\n');
    const pre = '<pre>\nline\n\nline\n</pre>\n';
    assert.equal(insert(pre, 'markdown', at(pre, 'line'), 'IMG'), '<pre>\nline\n\nline\n</pre>\n\nIMG\n');
  });

  test('HTML: never inside <script> or <style> content', () => {
    const doc = '<body>\n<script>\nif (a < b) {}\n</script>\n</body>\n';
    assert.equal(insert(doc, 'html', at(doc, 'if'), '<img>'), '<body>\n<script>\nif (a < b) {}\n</script>\n<img>\n</body>\n');
  });

  test('JSX: a comparison is not a tag', () => {
    const doc = 'const ok = a < b;\nconst x = <p>Hi</p>;\n';
    assert.equal(insert(doc, 'jsx', at(doc, 'ok'), '<img />'), 'const ok = a < b;\n<img />\nconst x = <p>Hi</p>;\n');
  });
});

describe('[#27.3] Insert Below of a summary', () => {
  test('a whole-document summary is a separate paragraph, with or without a trailing newline', () => {
    const doc = '# Trip\n\nRome in spring is lovely.';
    assert.equal(insert(doc, 'markdown', { at: 'end' }, 'Summary: Rome.'), '# Trip\n\nRome in spring is lovely.\n\nSummary: Rome.');
    assert.equal(insert(`${doc}\n`, 'markdown', { at: 'end' }, 'Summary: Rome.'), '# Trip\n\nRome in spring is lovely.\n\nSummary: Rome.\n');
    assert.equal(insert(crlf(`${doc}\n`), 'markdown', { at: 'end' }, 'Summary: Rome.', '\r\n'), '# Trip\r\n\r\nRome in spring is lovely.\r\n\r\nSummary: Rome.\r\n');
  });

  test('below a selection: after the paragraph it ends in, never splitting it (also for whole-line selections)', () => {
    const doc = 'A\nB\nC\n\nD\n';
    assert.equal(insert(doc, 'markdown', { at: 'below', range: { start: 0, end: 4 } }, 'S'), 'A\nB\nC\n\nS\n\nD\n');
    assert.equal(insert(doc, 'markdown', { at: 'below', range: { start: 0, end: 1 } }, 'S'), 'A\nB\nC\n\nS\n\nD\n');
    assert.equal(insert(doc, 'html', { at: 'below', range: { start: 0, end: 4 } }, 'S'), 'A\nB\nS\nC\n\nD\n');
  });

  test('the summary in the document EOL, trimmed, and a fence it leaves open is closed', () => {
    const doc = 'Para.\r\n';
    assert.equal(insert(doc, 'markdown', { at: 'end' }, '\n\nOne\ntwo  \n\n', '\r\n'), 'Para.\r\n\r\nOne\r\ntwo\r\n');
    assert.equal(insert('Para.\n\nNext.\n', 'markdown', { at: 'below', range: { start: 0, end: 5 } }, 'Code:\n```\nx'), 'Para.\n\nCode:\n```\nx\n```\n\nNext.\n');
  });

  test('an existing blank line is reused, not doubled', () => {
    assert.equal(insert('Para.\n\n', 'markdown', { at: 'end' }, 'S'), 'Para.\n\nS\n');
    assert.equal(insert('A\n\n\nB\n', 'markdown', { at: 'cursor', offset: 3 }, 'S'), 'A\n\nS\n\nB\n');
  });
});

describe('editor glue helpers', () => {
  test('a selection is never replaced: empty means at the cursor, else below it', () => {
    assert.deepEqual(insertAtSelection(4, 4, 4), { at: 'cursor', offset: 4 });
    assert.deepEqual(insertAtSelection(2, 9, 2), { at: 'below', range: { start: 2, end: 9 } });
  });

  test('language ids map to document kinds', () => {
    assert.deepEqual(['markdown', 'mdx', 'html', 'php', 'javascriptreact', 'typescriptreact', 'plaintext', 'python'].map(documentKind), ['markdown', 'markdown', 'html', 'php', 'jsx', 'jsx', 'plain', 'plain']);
  });
});

describe('[#27.3] placement is linear on hostile input', () => {
  // A scan that backtracks or starts again at each `<` or line takes minutes on these; a linear one
  // takes milliseconds. Each runs at the start, the middle and the end.
  const N = 400_000;
  const FAMILIES: Array<[string, DocumentKind, string]> = [
    ['unclosed tags', 'html', '<a '.repeat(N / 3)],
    ['unclosed tags between blank lines', 'markdown', '<a b\n\n'.repeat(N / 6)],
    ['unclosed quotes', 'html', '<a b="'.repeat(N / 6)],
    ['unclosed comments', 'markdown', '<!--'.repeat(N / 4)],
    ['PHP opens', 'php', '<?'.repeat(N / 2)],
    ['raw elements never closed', 'html', '<pre></p>'.repeat(N / 9)],
    ['fence openers', 'markdown', '```\n'.repeat(N / 4)],
    ['fence openers with backticks in the info', 'markdown', '``` a`\n'.repeat(N / 7)],
    ['front matter never closed', 'markdown', '---\n' + 'a: b\n'.repeat(N / 5)],
    ['blank lines', 'markdown', '\n'.repeat(N)],
    ['one long paragraph', 'markdown', 'word\n'.repeat(N / 5)],
    ['JSX braces', 'jsx', '(<a b={'.repeat(N / 8)],
    ['spaces', 'html', ' '.repeat(N)],
  ];
  for (const [name, kind, text] of FAMILIES) {
    test(`${name} (${kind}, ${text.length} chars)`, { timeout: 20_000 }, () => {
      for (const where of [{ at: 'cursor', offset: 0 }, { at: 'cursor', offset: text.length >> 1 }, { at: 'end' }] as InsertAt[]) {
        const e = placeBlock(text, kind, where, 'X', '\n');
        assert.ok(e.start >= 0 && e.start <= text.length);
      }
    });
  }
});
