/**
 * Where a block of text (image markup, a summary, categories and tags, a transcript) goes when it is
 * inserted into a document, so that the document keeps its structure: pure offset maths on the text,
 * with no `vscode`, so the editor glue only converts the one edit it returns into a position.
 *
 * Contract of placeBlock():
 * - The edit is a pure insertion (start === end) at the start of a line, or at the end of the text:
 *   every character of the document is kept, in order, around the block.
 * - The block stands on lines of its own. In Markdown and plain text it is also separated from the
 *   lines around it by a blank line (a paragraph of its own), except at the very start or end.
 * - It never lands inside front matter (Markdown: `---` … `---`/`...` at the start, after a BOM too),
 *   a fenced code block (``` or ~~~), an HTML tag or comment (also spanning lines), a PHP block
 *   (`<?php … ?>`), or the content of <script>, <style>, <pre>, <textarea> or <code>: it moves to after
 *   that construct, or before it when the construct is never closed (an unclosed fence or `<?php`
 *   runs to the end, where the block would still be inside it).
 * - Line breaks in the block become the document's EOL; a document without a final newline keeps
 *   having none; a Markdown block whose fence is left open gets it closed, so it cannot swallow the
 *   rest of the document.
 * - Time is linear in the length of the text (plus a binary search per move past a construct); no
 *   regular expression runs over the document.
 *
 * Heuristics, chosen to fail towards "after the construct" rather than inside it: fence lines may be
 * indented any amount (a fence in a nested list item still counts); in JSX a `<` starts a tag only
 * after `( > { } = , ? : & | ; [ !`, `return` or the start of the text (not `a < b`); in Markdown a
 * tag that meets a blank line before its `>` is not a tag.
 */
import type { OffsetEdit } from './altText';
import type { OffsetRange } from './placement';

export type DocumentKind = 'markdown' | 'html' | 'php' | 'jsx' | 'plain';
export type Eol = '\n' | '\r\n';

/**
 * Where the user asked for the block: at the cursor (an empty selection), below a range (a selection,
 * or the summarised text), or at the end of the document.
 */
export type InsertAt = { at: 'cursor'; offset: number } | { at: 'below'; range: OffsetRange } | { at: 'end' };

/** A part of the text the block must not go into; `end` is just past it (text.length when unclosed). */
export interface Construct {
  start: number;
  end: number;
  closed: boolean;
  /** Front matter: even its very start is "inside" (a block before it would un-make it). */
  frontMatter?: boolean;
}

/**
 * Where a block goes for an editor selection (offsets): at the cursor when it is empty, else below it.
 * The selection itself is never replaced: a block is added, nothing the user wrote is removed.
 */
export function insertAtSelection(start: number, end: number, active: number): InsertAt {
  return start === end ? { at: 'cursor', offset: active } : { at: 'below', range: { start: Math.min(start, end), end: Math.max(start, end) } };
}

/** The document kind for a VS Code language id. */
export function documentKind(languageId: string): DocumentKind {
  switch (languageId) {
    case 'markdown':
    case 'mdx':
      return 'markdown';
    case 'html':
      return 'html';
    case 'php':
      return 'php';
    case 'javascriptreact':
    case 'typescriptreact':
      return 'jsx';
    default:
      return 'plain';
  }
}

const RAW_ELEMENTS = new Set(['script', 'style', 'pre', 'textarea', 'code']);
const JSX_TAG_AFTER = new Set(['(', '>', '{', '}', '=', ',', '?', ':', '&', '|', ';', '[', '!']);

const isSpace = (c: number): boolean => c === 32 || c === 9;
const isLetter = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);

/** Offset of the first character after a BOM. */
function bomLength(text: string): number {
  return text.charCodeAt(0) === 0xfeff ? 1 : 0;
}

function lineStart(text: string, offset: number): number {
  // lastIndexOf clamps a negative start to 0, where it would find a leading newline.
  return offset <= 0 ? 0 : text.lastIndexOf('\n', offset - 1) + 1;
}

/** Offset of the next line's start, or text.length on the last line. */
function nextLineStart(text: string, offset: number): number {
  const nl = text.indexOf('\n', offset);
  return nl < 0 ? text.length : nl + 1;
}

/** End of the line's content (before `\r\n` or `\n`). */
function lineContentEnd(text: string, start: number): number {
  let nl = text.indexOf('\n', start);
  if (nl < 0) nl = text.length;
  return nl > start && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
}

/** True when the line starting at `start` holds only spaces and tabs (and its EOL). */
function isBlankLine(text: string, start: number): boolean {
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) return true;
    if (!isSpace(c) && c !== 13) return false;
  }
  return true;
}

/** A fence opening at the line start `start`: its character and length, else undefined. */
function fenceOpen(text: string, start: number): { char: number; len: number } | undefined {
  let i = start;
  while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  const c = text.charCodeAt(i);
  if (c !== 96 && c !== 126) return undefined;
  let j = i;
  while (j < text.length && text.charCodeAt(j) === c) j++;
  if (j - i < 3) return undefined;
  if (c === 96) {
    // A backtick fence's info string has no backtick (else it is inline code).
    const end = lineContentEnd(text, start);
    for (let k = j; k < end; k++) if (text.charCodeAt(k) === 96) return undefined;
  }
  return { char: c, len: j - i };
}

function isFenceClose(text: string, start: number, fence: { char: number; len: number }): boolean {
  let i = start;
  while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  let j = i;
  while (j < text.length && text.charCodeAt(j) === fence.char) j++;
  if (j - i < fence.len) return false;
  const end = lineContentEnd(text, start);
  for (let k = j; k < end; k++) if (!isSpace(text.charCodeAt(k))) return false;
  return true;
}

/** `# ` … `###### ` (or a bare run of #) at the line start: a Markdown heading, a block of its own. */
function isHeading(text: string, start: number): boolean {
  let i = start;
  let n = 0;
  while (i < text.length && isSpace(text.charCodeAt(i)) && n < 3) {
    i++;
    n++;
  }
  let h = 0;
  while (i + h < text.length && text.charCodeAt(i + h) === 35) h++;
  if (h < 1 || h > 6) return false;
  const c = text.charCodeAt(i + h);
  return i + h >= text.length || isSpace(c) || c === 10 || c === 13;
}

/** The end (start of the line after the closing line) of front matter at the start of `text`. */
function frontMatterEnd(text: string): number | undefined {
  const b = bomLength(text);
  if (!text.startsWith('---', b)) return undefined;
  const first = lineContentEnd(text, b);
  for (let k = b + 3; k < first; k++) if (!isSpace(text.charCodeAt(k))) return undefined;
  if (first >= text.length) return undefined;
  for (let ls = nextLineStart(text, first); ls < text.length; ls = nextLineStart(text, ls)) {
    if (text.startsWith('---', ls) || text.startsWith('...', ls)) {
      const end = lineContentEnd(text, ls);
      let ok = true;
      for (let k = ls + 3; k < end; k++) if (!isSpace(text.charCodeAt(k))) ok = false;
      if (ok) return nextLineStart(text, ls);
    }
  }
  return undefined;
}

/** Case-insensitive ASCII comparison of `text` at `at` with a lower-case `word`. */
function matchesLower(text: string, at: number, word: string): boolean {
  if (at + word.length > text.length) return false;
  for (let k = 0; k < word.length; k++) if ((text.charCodeAt(at + k) | 32) !== word.charCodeAt(k)) return false;
  return true;
}

/**
 * The constructs of `text` a block must stay out of, in order and not overlapping. One forward pass;
 * every search resumes where the previous one stopped.
 */
export function findConstructs(text: string, kind: DocumentKind): Construct[] {
  const out: Construct[] = [];
  if (kind === 'plain') return out;
  const md = kind === 'markdown';
  const n = text.length;
  let i = bomLength(text);
  if (md) {
    const fm = frontMatterEnd(text);
    if (fm !== undefined) {
      out.push({ start: 0, end: fm, closed: true, frontMatter: true });
      i = fm;
    }
  }
  let atLineStart = true;
  let prevSignificant = -1; // index of the last non-whitespace character outside constructs (JSX)
  while (i < n) {
    if (md && atLineStart) {
      const fence = fenceOpen(text, i);
      if (fence) {
        const start = i;
        let ls = nextLineStart(text, i);
        let closed = false;
        while (ls < n) {
          const following = nextLineStart(text, ls);
          if (isFenceClose(text, ls, fence)) {
            closed = true;
            ls = following;
            break;
          }
          ls = following;
        }
        out.push({ start, end: closed ? ls : n, closed });
        if (!closed) return out;
        i = ls;
        continue;
      }
    }
    const c = text.charCodeAt(i);
    if (c === 10) {
      atLineStart = true;
      i++;
      continue;
    }
    atLineStart = false;
    if (c !== 60 /* < */) {
      if (!isSpace(c) && c !== 13) prevSignificant = i;
      i++;
      continue;
    }
    const construct = constructAt(text, i, kind, prevSignificant);
    if (!construct) {
      prevSignificant = i;
      i++;
      continue;
    }
    if ('skipTo' in construct) {
      // Not a tag after all (Markdown: a blank line came first): resume where the scan stopped.
      i = construct.skipTo;
      atLineStart = i === 0 || text.charCodeAt(i - 1) === 10;
      continue;
    }
    out.push(construct);
    if (!construct.closed) return out;
    i = construct.end;
    prevSignificant = i - 1;
    atLineStart = text.charCodeAt(i - 1) === 10;
  }
  return out;
}

/**
 * The construct starting with the `<` at `p`: a Construct, `{ skipTo }` when it turned out not to be
 * one (resume there), `null` when `<` starts nothing.
 */
function constructAt(text: string, p: number, kind: DocumentKind, prevSignificant: number): Construct | { skipTo: number } | null {
  const n = text.length;
  const next = text.charCodeAt(p + 1);
  const closeAt = (token: string, from: number): Construct => {
    const k = text.indexOf(token, from);
    return k < 0 ? { start: p, end: n, closed: false } : { start: p, end: k + token.length, closed: true };
  };
  if (text.startsWith('<!--', p)) return closeAt('-->', p + 4);
  if (next === 63 /* ? */ && kind !== 'jsx') return closeAt('?>', p + 2);
  if (text.startsWith('<![CDATA[', p) && kind !== 'jsx') return closeAt(']]>', p + 9);
  if (kind === 'jsx') {
    if (prevSignificant >= 0) {
      const prev = text[prevSignificant];
      const afterReturn = prevSignificant >= 5 && text.startsWith('return', prevSignificant - 5) && !/[\w$]/.test(text[prevSignificant - 6] ?? ' ');
      if (!JSX_TAG_AFTER.has(prev) && !afterReturn) return null;
    }
    if (!(isLetter(next) || next === 62 /* <> */ || (next === 47 && (isLetter(text.charCodeAt(p + 2)) || text.charCodeAt(p + 2) === 62)))) return null;
  } else if (!(isLetter(next) || (next === 47 && isLetter(text.charCodeAt(p + 2))) || (next === 33 && isLetter(text.charCodeAt(p + 2))))) {
    return null;
  }
  return tagAt(text, p, kind);
}

/** A start or end tag from its `<`: to its `>`, past quoted values (and JSX braces). */
function tagAt(text: string, p: number, kind: DocumentKind): Construct | { skipTo: number } {
  const n = text.length;
  const md = kind === 'markdown';
  let nameStart = p + 1;
  const isEnd = text.charCodeAt(nameStart) === 47;
  if (isEnd) nameStart++;
  let nameEnd = nameStart;
  while (nameEnd < n && (isLetter(text.charCodeAt(nameEnd)) || (text.charCodeAt(nameEnd) >= 48 && text.charCodeAt(nameEnd) <= 57))) nameEnd++;
  let quote = 0;
  let braces = 0;
  let lastSignificant = 0;
  for (let i = nameEnd; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 && md && isBlankLine(text, i + 1)) return { skipTo: i }; // not a tag in Markdown
    if (quote) {
      if (c === quote) quote = 0;
      continue;
    }
    if (kind === 'jsx' && (c === 123 || c === 125)) {
      braces += c === 123 ? 1 : braces > 0 ? -1 : 0;
      continue;
    }
    if (braces > 0) continue;
    if ((c === 34 || c === 39) && lastSignificant === 61 /* = */) {
      quote = c;
      continue;
    }
    if (c === 62 /* > */) {
      const end = i + 1;
      const name = text.slice(nameStart, nameEnd).toLowerCase();
      if (!isEnd && lastSignificant !== 47 && kind !== 'jsx' && RAW_ELEMENTS.has(name)) return rawElementEnd(text, p, end, name);
      return { start: p, end, closed: true };
    }
    if (!isSpace(c) && c !== 10 && c !== 13) lastSignificant = c;
  }
  return md ? { skipTo: n } : { start: p, end: n, closed: false };
}

/** A raw-text element's construct: from its start tag to just past `</name…>`. */
function rawElementEnd(text: string, p: number, from: number, name: string): Construct {
  for (let k = text.indexOf('</', from); k >= 0; k = text.indexOf('</', k + 2)) {
    if (matchesLower(text, k + 2, name)) {
      const gt = text.indexOf('>', k + 2 + name.length);
      return gt < 0 ? { start: p, end: text.length, closed: false } : { start: p, end: gt + 1, closed: true };
    }
  }
  return { start: p, end: text.length, closed: false };
}

/** The construct that has `at` strictly inside it (front matter: from its first character). */
function constructContaining(constructs: Construct[], at: number): Construct | undefined {
  let lo = 0;
  let hi = constructs.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (constructs[mid].start <= at) {
      found = mid;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  if (found < 0) return undefined;
  const r = constructs[found];
  // An unclosed construct runs to the end: the end of the text is inside it too.
  if ((at < r.end || (!r.closed && at === r.end)) && (at > r.start || r.frontMatter)) return r;
  return undefined;
}

const paragraphs = (kind: DocumentKind): boolean => kind === 'markdown' || kind === 'plain';

/**
 * Where a block goes "after" the line holding `q`: the next line for HTML, PHP and JSX; for Markdown
 * and plain text, the end of the paragraph (the next blank line, heading or fence, else the end).
 */
function after(text: string, kind: DocumentKind, q: number): number {
  if (q >= text.length) return text.length;
  let ls = nextLineStart(text, q);
  const md = kind === 'markdown';
  if (!paragraphs(kind) || (md && isHeading(text, lineStart(text, q)))) return ls;
  while (ls < text.length && !isBlankLine(text, ls) && !(md && (isHeading(text, ls) || fenceOpen(text, ls)))) ls = nextLineStart(text, ls);
  return ls;
}

/** The line start (or text end) where the block goes, before moving out of constructs. */
function requestedLine(text: string, kind: DocumentKind, where: InsertAt, constructs: Construct[]): number {
  const n = text.length;
  const b = bomLength(text);
  if (where.at === 'end') return n;
  if (where.at === 'below') {
    const start = Math.max(0, Math.min(where.range.start, n));
    let q = Math.max(start, Math.min(where.range.end, n));
    // A whole-line selection ends at the next line's start: it is "below" its last selected line.
    if (q > start && text.charCodeAt(q - 1) === 10) q--;
    const ls = Math.max(lineStart(text, q), b);
    return isBlankLine(text, ls) ? ls : after(text, kind, q);
  }
  const p = Math.max(b, Math.min(where.offset, n));
  const ls = Math.max(lineStart(text, p), b);
  if (isBlankLine(text, ls)) return ls;
  let first = ls;
  while (first < n && isSpace(text.charCodeAt(first))) first++;
  if (p > first) return after(text, kind, p);
  // At the start of a line: before it, unless that would split a paragraph.
  if (!paragraphs(kind) || ls === b) return ls;
  const prev = lineStart(text, ls - 1);
  const md = kind === 'markdown';
  const startsBlock = isBlankLine(text, prev) || (md && (isHeading(text, ls) || fenceOpen(text, ls) !== undefined || constructs.some((r) => r.end === ls && (r.frontMatter || r.start === lineStart(text, r.start)))));
  return startsBlock ? ls : after(text, kind, ls);
}

/**
 * Indentation of the nearest non-blank line above `at` (HTML, PHP, JSX); for a line inside a tag that
 * spans lines, of the line where that tag starts.
 */
function indentAbove(text: string, at: number, floor: number, constructs: Construct[]): string {
  let ls = at;
  while (ls > floor) {
    ls = lineStart(text, ls - 1);
    if (!isBlankLine(text, ls)) {
      const r = constructContaining(constructs, ls);
      if (r) ls = lineStart(text, r.start);
      let k = ls;
      while (k < text.length && isSpace(text.charCodeAt(k))) k++;
      return text.slice(ls, k);
    }
  }
  return '';
}

/** The block's lines in `eol`, without blank lines around it; a Markdown fence it leaves open is closed. */
function normaliseBlock(block: string, kind: DocumentKind, eol: Eol): string {
  const lines = block.split(/\r\n|\r|\n/);
  let a = 0;
  let z = lines.length;
  while (a < z && lines[a].trim() === '') a++;
  while (z > a && lines[z - 1].trim() === '') z--;
  const kept = lines.slice(a, z);
  if (kept.length > 0) kept[kept.length - 1] = kept[kept.length - 1].trimEnd();
  if (kind === 'markdown') {
    const probe = kept.join('\n');
    const open = findConstructs(probe, 'markdown').find((r) => !r.closed);
    const fence = open && fenceOpen(probe, open.start);
    if (fence) kept.push(String.fromCharCode(fence.char).repeat(fence.len));
  }
  return kept.join(eol);
}

/**
 * The one edit that inserts `block` into `text` (a document of `kind` whose line ends are `eol`) at
 * `where`, keeping the document's structure (see the header for the contract).
 */
export function placeBlock(text: string, kind: DocumentKind, where: InsertAt, block: string, eol: Eol): OffsetEdit {
  const n = text.length;
  const b = bomLength(text);
  const constructs = findConstructs(text, kind);
  let at = requestedLine(text, kind, where, constructs);
  // Out of any construct: after it when it closes, else before it (and before anything that holds that).
  let backwards = false;
  for (let r = constructContaining(constructs, at); r; r = constructContaining(constructs, at)) {
    // Front matter always closes, and nothing found after it reaches back into it.
    if (r.frontMatter) {
      at = r.end;
      break;
    }
    if (r.closed && !backwards) {
      at = r.end === n || text.charCodeAt(r.end - 1) === 10 ? r.end : after(text, kind, r.end);
    } else {
      backwards = true;
      at = Math.max(lineStart(text, r.start), b);
    }
  }
  at = Math.max(at, b);

  const body0 = normaliseBlock(block, kind, eol);
  const indent = paragraphs(kind) ? '' : indentAbove(text, at, b, constructs);
  const body = indent ? body0.split(eol).map((l) => (l ? indent + l : l)).join(eol) : body0;

  const blankLines = paragraphs(kind);
  const openLast = at === n && n > b && text.charCodeAt(n - 1) !== 10; // last line without its EOL
  let before = openLast ? eol : '';
  let afterText = '';
  if (blankLines && at > b) {
    const prevBlank = openLast ? isBlankLine(text, lineStart(text, n)) : isBlankLine(text, lineStart(text, at - 1));
    if (!prevBlank) before += eol;
  }
  if (at < n) {
    afterText = eol;
    if (blankLines && !isBlankLine(text, at)) afterText += eol;
  } else if (!openLast) {
    afterText = eol;
  }
  return { start: at, end: at, newText: before + body + afterText };
}
