/**
 * Finds image references in source text, by offset, for the three syntaxes content is written in:
 *  - Markdown `![alt](src "title")`, `![alt][ref]` (plus raw `<img>` tags, which Markdown allows);
 *  - HTML and PHP templates `<img src=... alt=...>` (PHP blocks `<?php ... ?>` inside attributes are
 *    skipped over, and make the value dynamic);
 *  - JSX `<img src={...} alt={...}>` (and Next.js `<Image>`).
 * A small hand-written scanner rather than a full parser: it only has to be right about image tags, and
 * must keep exact offsets so the edit that fills the alt lands in the right place.
 *
 * It runs on every Markdown and HTML file opened, even in Restricted Mode, so it is linear in the text
 * (no scan restarts from each candidate; see the notes on each pass) and bounded per document by
 * ScanLimits, reporting where it stopped instead of silently missing images.
 */

export type ImageSyntax = 'markdown' | 'html' | 'jsx';

export interface OffsetRange {
  start: number;
  end: number;
}

export type AltSlot =
  /** No alt at all (HTML/JSX). The attribute is inserted at `insertAt`. */
  | { kind: 'missing'; insertAt: number }
  | {
      kind: 'present';
      /** The alt as the reader sees it (entities decoded); '' when empty. Undefined when dynamic. */
      text: string | undefined;
      /** Markdown: the text between the brackets. HTML/JSX: the whole `alt=...` attribute. */
      range: OffsetRange;
      /** Quote of an HTML attribute value, kept when the value is replaced. */
      quote: '"' | "'" | '';
    };

export interface ImageRef {
  /** Syntax of this reference (an `<img>` inside Markdown is 'html'). */
  syntax: ImageSyntax;
  range: OffsetRange;
  /** The literal source (decoded), or undefined when it is computed (PHP echo, JSX expression). */
  src: string | undefined;
  alt: AltSlot;
  /** role="presentation"/"none" or aria-hidden="true": a decorative image, where an empty alt is right. */
  decorative: boolean;
}

/** Maps a VS Code language id to the syntax scanned, or undefined when images are not looked for. */
export function syntaxForLanguage(languageId: string): ImageSyntax | undefined {
  switch (languageId) {
    case 'markdown':
    case 'mdx':
      return 'markdown';
    case 'html':
    case 'php':
      return 'html';
    case 'javascriptreact':
    case 'typescriptreact':
      return 'jsx';
    default:
      return undefined;
  }
}

/**
 * How much one scan may do. The scanner is linear in the text it looks at, and also stops after
 * `maxChars` characters or `maxImages` references, so a generated page or a hostile file costs a
 * bounded amount of work on every keystroke; `truncated` then says where it stopped.
 */
export interface ScanLimits {
  maxChars?: number;
  maxImages?: number;
  /** Counts the scanner's steps (characters examined), for tests that check linearity. */
  meter?: { steps: number };
}

export const DEFAULT_SCAN_LIMITS = { maxChars: 1_000_000, maxImages: 2_000 } as const;

export interface ImageScan {
  refs: ImageRef[];
  /** Set when a limit stopped the scan: references past `scannedChars` (or past the count) were not looked for. */
  truncated?: { reason: 'chars' | 'images'; scannedChars: number; limit: number };
}

type Meter = { steps: number };

/**
 * Every image reference in `text`, in document order, within the limits. Code in Markdown and
 * comments in HTML are skipped.
 */
export function scanImageRefs(text: string, syntax: ImageSyntax, limits: ScanLimits = {}): ImageScan {
  const maxChars = limits.maxChars ?? DEFAULT_SCAN_LIMITS.maxChars;
  const maxImages = limits.maxImages ?? DEFAULT_SCAN_LIMITS.maxImages;
  const meter: Meter = limits.meter ?? { steps: 0 };
  let truncated: ImageScan['truncated'];
  if (text.length > maxChars) {
    text = text.slice(0, maxChars);
    truncated = { reason: 'chars', scannedChars: maxChars, limit: maxChars };
  }
  let refs: ImageRef[];
  if (syntax === 'markdown') {
    const masked = maskMarkdownCode(text, meter);
    const definitions = referenceDefinitions(masked, meter);
    refs = [...scanMarkdownImages(text, masked, definitions, meter, maxImages), ...scanTags(text, masked, 'html', meter, maxImages)];
    refs.sort((a, b) => a.range.start - b.range.start);
  } else {
    const masked = syntax === 'html' ? maskHtmlComments(text, meter) : text;
    refs = scanTags(text, masked, syntax, meter, maxImages);
  }
  if (refs.length > maxImages) {
    refs = refs.slice(0, maxImages);
    const scannedChars = refs[refs.length - 1].range.end;
    truncated = { reason: 'images', scannedChars, limit: maxImages };
  }
  return truncated ? { refs, truncated } : { refs };
}

/** Every image reference in `text`, in document order (within the default limits). */
export function findImageRefs(text: string, syntax: ImageSyntax, limits?: ScanLimits): ImageRef[] {
  return scanImageRefs(text, syntax, limits).refs;
}

/** The image reference containing `offset` (a cursor just after the closing `)` or `>` counts). */
export function findImageRefAt(text: string, syntax: ImageSyntax, offset: number): ImageRef | undefined {
  return findImageRefs(text, syntax).find((r) => offset >= r.range.start && offset <= r.range.end);
}

export type AltProblem = { ref: ImageRef; problem: 'missing' | 'empty' };

/** Images whose alt is missing or empty, skipping decorative ones. Dynamic alts count as present. */
export function scanImagesNeedingAlt(text: string, syntax: ImageSyntax, limits?: ScanLimits): { problems: AltProblem[]; truncated?: ImageScan['truncated'] } {
  const scan = scanImageRefs(text, syntax, limits);
  const problems: AltProblem[] = [];
  for (const ref of scan.refs) {
    if (ref.alt.kind === 'missing') problems.push({ ref, problem: 'missing' });
    else if (ref.alt.text !== undefined && ref.alt.text.trim() === '' && !ref.decorative) problems.push({ ref, problem: 'empty' });
  }
  return scan.truncated ? { problems, truncated: scan.truncated } : { problems };
}

/** Images whose alt is missing or empty, skipping decorative ones (within the default limits). */
export function findImagesNeedingAlt(text: string, syntax: ImageSyntax, limits?: ScanLimits): AltProblem[] {
  return scanImagesNeedingAlt(text, syntax, limits).problems;
}

// ---------------------------------------------------------------------------------------------------
// Markdown
//
// Every pass below moves forward only, or scans a stretch that no other scan of the same kind
// covers (each stretch ends at a character that starts the next one), so the work is linear in the
// text. The regular expressions used are linear too: no nested or overlapping quantifiers.

/** `/\s/` for one character, without a regular expression for ASCII (the common case, per character). */
function isSpace(c: string | undefined): boolean {
  if (c === undefined) return false;
  const code = c.charCodeAt(0);
  if (code < 128) return code === 32 || (code >= 9 && code <= 13);
  return /\s/.test(c);
}
/** Characters that end an attribute name: whitespace and `= > " ' < {`. */
function endsAttrName(c: string): boolean {
  return c === '=' || c === '>' || c === '"' || c === "'" || c === '<' || c === '{' || isSpace(c);
}
const isBlankSpace = (c: string | undefined) => c === ' ' || c === '\t' || c === '\n' || c === '\r';

/** `text` with the given sorted, disjoint ranges blanked (newlines kept), built from slices. */
function blankRanges(text: string, ranges: Array<[number, number]>, meter: Meter): string {
  if (ranges.length === 0) return text;
  const parts: string[] = [];
  let at = 0;
  for (const [from, to] of ranges) {
    parts.push(text.slice(at, from), text.slice(from, to).replace(/[^\r\n]/g, ' '));
    meter.steps += to - from;
    at = to;
  }
  parts.push(text.slice(at));
  return parts.join('');
}

/** Replaces fenced code blocks, inline code spans and HTML comments with spaces, keeping offsets. */
export function maskMarkdownCode(text: string, meter: Meter = { steps: 0 }): string {
  // Fenced blocks, line by line.
  const fences: Array<[number, number]> = [];
  const lineRe = /[^\n]*(?:\n|$)/g;
  let fence: { ch: string; len: number; start: number } | undefined;
  for (let m = lineRe.exec(text); m && m[0].length > 0; m = lineRe.exec(text)) {
    const line = m[0];
    meter.steps += line.length;
    const f = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (!fence && f) {
      fence = { ch: f[1][0], len: f[1].length, start: m.index };
    } else if (fence && f && f[1][0] === fence.ch && f[1].length >= fence.len && line.slice(f[0].length).trim() === '') {
      fences.push([fence.start, m.index + line.length]);
      fence = undefined;
    }
  }
  if (fence) fences.push([fence.start, text.length]);
  const masked = maskHtmlComments(blankRanges(text, fences, meter), meter);
  // Inline code: a run of n backticks up to the next run of exactly n. The next run of each length
  // is found with a cursor per length that only moves forward.
  const tickRe = /`+/g;
  const runs: Array<{ at: number; len: number }> = [];
  const byLength = new Map<number, number[]>();
  meter.steps += masked.length;
  for (let m = tickRe.exec(masked); m; m = tickRe.exec(masked)) {
    const same = byLength.get(m[0].length);
    if (same) same.push(runs.length);
    else byLength.set(m[0].length, [runs.length]);
    runs.push({ at: m.index, len: m[0].length });
  }
  const spans: Array<[number, number]> = [];
  const cursor = new Map<number, number>();
  for (let a = 0; a < runs.length; a++) {
    meter.steps++;
    const same = byLength.get(runs[a].len) ?? [];
    let p = cursor.get(runs[a].len) ?? 0;
    while (p < same.length && same[p] <= a) {
      meter.steps++;
      p++;
    }
    cursor.set(runs[a].len, p);
    if (p >= same.length) continue;
    const close = same[p];
    spans.push([runs[a].at, runs[close].at + runs[close].len]);
    a = close;
  }
  return blankRanges(masked, spans, meter);
}

function maskHtmlComments(text: string, meter: Meter = { steps: 0 }): string {
  meter.steps += text.length;
  return text.replace(/<!--[\s\S]*?(?:-->|$)/g, (m) => m.replace(/[^\r\n]/g, ' '));
}

function referenceDefinitions(masked: string, meter: Meter): Map<string, string> {
  meter.steps += masked.length;
  const defs = new Map<string, string>();
  const re = /^ {0,3}\[([^\]\n]+)\]:[ \t]*(?:<([^>\n]*)>|(\S+))/gm;
  for (let m = re.exec(masked); m; m = re.exec(masked)) {
    const label = normalizeLabel(m[1]);
    if (!defs.has(label)) defs.set(label, unescapeMarkdown(m[2] ?? m[3] ?? ''));
  }
  return defs;
}

function normalizeLabel(label: string): string {
  return label.trim().replace(/\s+/g, ' ').toLowerCase();
}

function unescapeMarkdown(s: string): string {
  return decodeEntities(s.replace(/\\([!-/:-@[-`{-~])/g, '$1'));
}

/** Images nested in an image's alt deeper than this are read as text (each character is in at most this many alts). */
const MAX_IMAGE_NESTING = 8;
/** CommonMark's limit on a link label. */
const MAX_LABEL_CHARS = 999;

/**
 * Where a link destination that starts right after an unescaped `(` at `open`, or at the start of a
 * whitespace-free run, ends: at the `)` that balances it, or at the first whitespace (or the end).
 * Computed for the whole text in one pass, so each image's destination costs O(1) to find.
 */
class DestinationEnds {
  private readonly afterParen = new Map<number, number>();
  private readonly fromRunStart = new Map<number, number>();

  constructor(masked: string, meter: Meter) {
    const n = masked.length;
    let stack: number[] = [];
    let runStart = 0;
    let firstUnmatched = -1;
    const endRun = (at: number) => {
      for (const p of stack) this.afterParen.set(p, at);
      stack = [];
      this.fromRunStart.set(runStart, firstUnmatched >= 0 ? firstUnmatched : at);
      firstUnmatched = -1;
    };
    for (let i = 0; i < n; i++) {
      meter.steps++;
      const c = masked[i];
      if (c === '\\') {
        i++;
        continue;
      }
      if (isSpace(c)) {
        endRun(i);
        runStart = i + 1;
      } else if (c === '(') stack.push(i);
      else if (c === ')') {
        const open = stack.pop();
        if (open !== undefined) this.afterParen.set(open, i);
        else if (firstUnmatched < 0) firstUnmatched = i;
      }
    }
    endRun(n);
  }

  /** The end of a destination starting at `from` (just after a `(`, or at the start of a run). */
  endOf(from: number, masked: string): number | undefined {
    return masked[from - 1] === '(' ? this.afterParen.get(from - 1) : this.fromRunStart.get(from);
  }
}

function scanMarkdownImages(text: string, masked: string, definitions: Map<string, string>, meter: Meter, maxImages: number): ImageRef[] {
  const refs: ImageRef[] = [];
  const stack: Array<{ at: number; image: boolean }> = [];
  let imagesOpen = 0;
  let lastBang = -2;
  let destinations: DestinationEnds | undefined;
  // What follows a destination that ends at a given offset: the same for every image whose
  // destination ends there, so it is parsed once.
  const afterDestination = new Map<number, number>();
  const n = masked.length;
  for (let i = 0; i < n && refs.length <= maxImages; i++) {
    meter.steps++;
    const c = masked[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (c === '!') lastBang = i;
    else if (c === '\n') {
      // Link text cannot span a blank line.
      let k = i + 1;
      while (k < n && (masked[k] === ' ' || masked[k] === '\t')) k++;
      meter.steps += k - i;
      if (masked[k] === '\n' || (masked[k] === '\r' && masked[k + 1] === '\n')) {
        stack.length = 0;
        imagesOpen = 0;
      }
    } else if (c === '[') {
      const image = lastBang === i - 1 && imagesOpen < MAX_IMAGE_NESTING;
      if (image) imagesOpen++;
      stack.push({ at: i, image });
    } else if (c === ']') {
      const open = stack.pop();
      if (!open?.image) continue;
      imagesOpen--;
      const ref = markdownImageTail(text, masked, open.at - 1, i, definitions, meter, afterDestination, () => (destinations ??= new DestinationEnds(masked, meter)));
      if (ref) {
        refs.push(ref);
        i = ref.range.end - 1;
      }
    }
  }
  return refs;
}

/** The image whose alt is `[start+2, altEnd)`, when a destination or a known reference follows. */
function markdownImageTail(
  text: string,
  masked: string,
  start: number,
  altEnd: number,
  definitions: Map<string, string>,
  meter: Meter,
  afterDestination: Map<number, number>,
  destinations: () => DestinationEnds,
): ImageRef | undefined {
  const n = masked.length;
  const altRange = { start: start + 2, end: altEnd };
  const rawAlt = text.slice(altRange.start, altRange.end);
  meter.steps += rawAlt.length;
  const alt: AltSlot = { kind: 'present', text: unescapeMarkdown(rawAlt), range: altRange, quote: '' };
  let j = altEnd + 1;
  if (masked[j] === '(') {
    j++;
    const from = j;
    while (j < n && isBlankSpace(masked[j])) j++;
    meter.steps += j - from;
    // The source is sliced only once the image is known to close: a failed attempt must not copy text.
    let srcRange: OffsetRange;
    if (masked[j] === '<') {
      // Stops at '<' and at a newline too, so two of these scans never cover the same text.
      let close = j + 1;
      while (close < n && masked[close] !== '>' && masked[close] !== '<' && masked[close] !== '\n') close++;
      meter.steps += close - j;
      if (masked[close] !== '>') return undefined;
      srcRange = { start: j + 1, end: close };
      j = close + 1;
    } else {
      const end = destinations().endOf(j, masked) ?? n;
      srcRange = { start: j, end };
      j = end;
    }
    let after = afterDestination.get(j);
    if (after === undefined) {
      after = closeAfterDestination(masked, j, meter);
      afterDestination.set(j, after);
    }
    if (after < 0) return undefined;
    meter.steps += srcRange.end - srcRange.start;
    return { syntax: 'markdown', range: { start, end: after }, src: unescapeMarkdown(text.slice(srcRange.start, srcRange.end)), alt, decorative: false };
  }
  if (masked[j] === '[') {
    // Stops at '[' too (a label cannot hold an unescaped bracket), so label scans never overlap.
    let close = j + 1;
    while (close < n && close - j <= MAX_LABEL_CHARS + 1 && masked[close] !== ']' && masked[close] !== '[') close++;
    meter.steps += close - j;
    if (masked[close] !== ']' || close - j > MAX_LABEL_CHARS + 1) return undefined;
    const label = text.slice(j + 1, close);
    const key = normalizeLabel(label === '' ? rawAlt : label);
    if (!definitions.has(key)) return undefined;
    return { syntax: 'markdown', range: { start, end: close + 1 }, src: definitions.get(key), alt, decorative: false };
  }
  return undefined;
}

/** From the end of a destination: optional title, then `)`. The offset after `)`, or -1. */
function closeAfterDestination(masked: string, from: number, meter: Meter): number {
  const n = masked.length;
  let j = from;
  while (j < n && isBlankSpace(masked[j])) j++;
  meter.steps += j - from;
  const opener = masked[j];
  if (opener === '"' || opener === "'" || opener === '(') {
    const closer = opener === '(' ? ')' : opener;
    let k = j + 1;
    // A title in parentheses cannot hold an unescaped '(' either: stopping there keeps scans apart.
    for (; k < n && masked[k] !== closer && !(opener === '(' && masked[k] === '('); k++) if (masked[k] === '\\') k++;
    meter.steps += k - j;
    if (k >= n || masked[k] !== closer) return -1;
    j = k + 1;
    const t = j;
    while (j < n && isBlankSpace(masked[j])) j++;
    meter.steps += j - t;
  }
  return masked[j] === ')' ? j + 1 : -1;
}

// ---------------------------------------------------------------------------------------------------
// HTML, PHP and JSX tags

interface Attr {
  name: string;
  range: OffsetRange;
  /** Raw value text without quotes or braces; undefined for a bare attribute (`<img alt>`). */
  raw: string | undefined;
  quote: '"' | "'" | '' | '{';
}

function scanTags(text: string, masked: string, syntax: 'html' | 'jsx', meter: Meter, maxImages: number): ImageRef[] {
  const refs: ImageRef[] = [];
  const tagRe = syntax === 'jsx' ? /<(img|Image)(?=[\s/>])/g : /<img(?=[\s/>])/gi;
  meter.steps += masked.length;
  for (let m = tagRe.exec(masked); m && refs.length <= maxImages; m = tagRe.exec(masked)) {
    const parsed = scanAttributes(text, m.index + m[0].length, syntax, meter);
    // A tag that never closes runs to the end of the text, as in a browser: nothing after it is a
    // tag, so the scan stops (looking again from the next `<img` is what made it quadratic).
    if (!parsed) break;
    refs.push(tagToRef(m.index, m.index + m[0].length, parsed, syntax, meter));
    tagRe.lastIndex = parsed.end;
  }
  return refs;
}

/** Reads attributes up to the tag's closing `>`; undefined when the tag never closes. */
function scanAttributes(text: string, from: number, syntax: 'html' | 'jsx', meter: Meter): { attrs: Attr[]; end: number } | undefined {
  const attrs: Attr[] = [];
  let i = from;
  const n = text.length;
  const skipPhp = (at: number) => {
    const close = text.indexOf('?>', at + 2);
    meter.steps += (close < 0 ? n : close + 2) - at;
    return close < 0 ? -1 : close + 2;
  };
  while (i < n) {
    const s0 = i;
    while (i < n && isSpace(text[i])) i++;
    meter.steps += i - s0 + 1;
    if (i >= n) return undefined;
    if (text[i] === '>') return { attrs, end: i + 1 };
    if (text.startsWith('/>', i)) return { attrs, end: i + 2 };
    if (text.startsWith('<?', i)) {
      i = skipPhp(i);
      if (i < 0) return undefined;
      continue;
    }
    if (text[i] === '{') {
      const close = skipBraces(text, i, meter);
      if (close < 0) return undefined;
      i = close;
      continue;
    }
    const nameStart = i;
    while (i < n && !endsAttrName(text[i]) && !(text[i] === '/' && text[i + 1] === '>')) i++;
    meter.steps += i - nameStart;
    if (i === nameStart) {
      i++; // stray character such as a lone quote: step over it
      continue;
    }
    const name = text.slice(nameStart, i);
    let j = i;
    while (j < n && isSpace(text[j])) j++;
    meter.steps += j - i;
    if (text[j] !== '=') {
      attrs.push({ name, range: { start: nameStart, end: i }, raw: undefined, quote: '' });
      continue;
    }
    j++;
    const v0 = j;
    while (j < n && isSpace(text[j])) j++;
    meter.steps += j - v0;
    const q = text[j];
    if (q === '"' || q === "'") {
      let k = j + 1;
      while (k < n && text[k] !== q) {
        meter.steps++;
        if (text.startsWith('<?', k)) {
          k = skipPhp(k);
          if (k < 0) return undefined;
        } else k++;
      }
      if (k >= n) return undefined;
      attrs.push({ name, range: { start: nameStart, end: k + 1 }, raw: text.slice(j + 1, k), quote: q });
      i = k + 1;
    } else if (q === '{' && syntax === 'jsx') {
      const close = skipBraces(text, j, meter);
      if (close < 0) return undefined;
      attrs.push({ name, range: { start: nameStart, end: close }, raw: text.slice(j + 1, close - 1), quote: '{' });
      i = close;
    } else {
      let k = j;
      while (k < n && text[k] !== '>' && !isSpace(text[k])) {
        meter.steps++;
        if (text.startsWith('<?', k)) {
          k = skipPhp(k);
          if (k < 0) return undefined;
        } else k++;
      }
      attrs.push({ name, range: { start: nameStart, end: k }, raw: text.slice(j, k), quote: '' });
      i = k;
    }
  }
  return undefined;
}

/** From an opening `{`, the offset just past its matching `}`, skipping JS strings; -1 if unclosed. */
function skipBraces(text: string, open: number, meter: Meter): number {
  let depth = 0;
  let i = open;
  for (; i < text.length; i++) {
    const c = text[i];
    if (c === '"' || c === "'" || c === '`') {
      for (i++; i < text.length && text[i] !== c; i++) if (text[i] === '\\') i++;
    } else if (c === '{') depth++;
    else if (c === '}') {
      depth--;
      if (depth === 0) {
        meter.steps += i + 1 - open;
        return i + 1;
      }
    }
  }
  meter.steps += i - open;
  return -1;
}

function tagToRef(start: number, nameEnd: number, parsed: { attrs: Attr[]; end: number }, syntax: 'html' | 'jsx', meter: Meter): ImageRef {
  meter.steps += parsed.attrs.length * 4;
  const find = (name: string) => parsed.attrs.find((a) => (syntax === 'jsx' ? a.name === name : a.name.toLowerCase() === name));
  const srcAttr = find('src');
  const altAttr = find('alt');
  const role = attrLiteral(find('role'))?.toLowerCase();
  const hidden = attrLiteral(find('aria-hidden'))?.toLowerCase();
  const alt: AltSlot = altAttr
    ? { kind: 'present', text: altAttr.raw === undefined ? '' : attrLiteral(altAttr), range: altAttr.range, quote: altAttr.quote === '{' ? '' : altAttr.quote }
    : { kind: 'missing', insertAt: srcAttr ? srcAttr.range.end : nameEnd };
  return {
    syntax,
    range: { start, end: parsed.end },
    src: srcAttr ? attrLiteral(srcAttr) : undefined,
    alt,
    decorative: role === 'presentation' || role === 'none' || hidden === 'true',
  };
}

/** The literal value of an attribute, or undefined when it is computed (PHP block, JSX expression). */
function attrLiteral(attr: Attr | undefined): string | undefined {
  if (!attr || attr.raw === undefined) return undefined;
  if (attr.quote === '{') return jsStringLiteral(attr.raw.trim());
  if (attr.raw.includes('<?') || attr.raw.includes('{{')) return undefined;
  // HTML and JSX string attributes both decode character references.
  return decodeEntities(attr.raw);
}

/** The value of a JS string literal expression (quotes, or a template without `${`); else undefined. */
function jsStringLiteral(expr: string): string | undefined {
  const m = /^(["'])((?:\\.|(?!\1)[^\\\n])*)\1$/.exec(expr) ?? /^(`)((?:\\.|[^\\`$]|\$(?!\{))*)`$/.exec(expr);
  if (!m) return undefined;
  return m[2].replace(/\\(u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|.)/g, (_, e: string) => {
    if (e.startsWith('u{')) return String.fromCodePoint(parseInt(e.slice(2, -1), 16));
    if (e[0] === 'u' && e.length === 5) return String.fromCharCode(parseInt(e.slice(1), 16));
    if (e[0] === 'x' && e.length === 3) return String.fromCharCode(parseInt(e.slice(1), 16));
    return ({ n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', v: '\v', '0': '\0' } as Record<string, string>)[e] ?? e;
  });
}

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

export function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/g, (whole, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED_ENTITIES[body.toLowerCase()] ?? whole;
  });
}

/**
 * In JSX, `src={logo}` usually names an import (`import logo from './logo.png'`) or a require. Returns
 * that module path, so the image can still be found on disk; undefined when the name is not one.
 */
export function resolveJsxImportedSrc(text: string, ref: ImageRef): string | undefined {
  if (ref.syntax !== 'jsx' || ref.src !== undefined) return undefined;
  const tag = text.slice(ref.range.start, ref.range.end);
  const m = /\bsrc\s*=\s*\{\s*([A-Za-z_$][\w$]*)(?:\.src)?\s*\}/.exec(tag);
  if (!m) return undefined;
  const name = m[1].replace(/\$/g, '\\$');
  const imp = new RegExp(`import\\s+${name}\\s+from\\s+(["'])([^"'\\n]+)\\1`).exec(text);
  if (imp) return imp[2];
  const req = new RegExp(`(?:const|let|var)\\s+${name}\\s*=\\s*require\\(\\s*(["'])([^"'\\n]+)\\1\\s*\\)`).exec(text);
  return req ? req[2] : undefined;
}
