/**
 * Finds image references in source text, by offset, for the three syntaxes content is written in:
 *  - Markdown `![alt](src "title")`, `![alt][ref]` (plus raw `<img>` tags, which Markdown allows);
 *  - HTML and PHP templates `<img src=... alt=...>` (PHP blocks `<?php ... ?>` inside attributes are
 *    skipped over, and make the value dynamic);
 *  - JSX `<img src={...} alt={...}>` (and Next.js `<Image>`).
 * A small hand-written scanner rather than a full parser: it only has to be right about image tags, and
 * must keep exact offsets so the edit that fills the alt lands in the right place.
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

/** Every image reference in `text`, in document order. Code in Markdown and comments in HTML are skipped. */
export function findImageRefs(text: string, syntax: ImageSyntax): ImageRef[] {
  const refs: ImageRef[] = [];
  if (syntax === 'markdown') {
    const masked = maskMarkdownCode(text);
    const definitions = referenceDefinitions(masked);
    for (let i = masked.indexOf('!['); i >= 0; i = masked.indexOf('![', i + 2)) {
      if (isEscaped(masked, i)) continue;
      const ref = scanMarkdownImage(text, masked, i, definitions);
      if (ref) refs.push(ref);
    }
    refs.push(...scanTags(text, masked, 'html'));
    refs.sort((a, b) => a.range.start - b.range.start);
  } else {
    const masked = syntax === 'html' ? maskHtmlComments(text) : text;
    refs.push(...scanTags(text, masked, syntax));
  }
  return refs;
}

/** The image reference containing `offset` (a cursor just after the closing `)` or `>` counts). */
export function findImageRefAt(text: string, syntax: ImageSyntax, offset: number): ImageRef | undefined {
  return findImageRefs(text, syntax).find((r) => offset >= r.range.start && offset <= r.range.end);
}

/** Images whose alt is missing or empty, skipping decorative ones. Dynamic alts count as present. */
export function findImagesNeedingAlt(text: string, syntax: ImageSyntax): Array<{ ref: ImageRef; problem: 'missing' | 'empty' }> {
  const out: Array<{ ref: ImageRef; problem: 'missing' | 'empty' }> = [];
  for (const ref of findImageRefs(text, syntax)) {
    if (ref.alt.kind === 'missing') out.push({ ref, problem: 'missing' });
    else if (ref.alt.text !== undefined && ref.alt.text.trim() === '' && !ref.decorative) out.push({ ref, problem: 'empty' });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Markdown

function isEscaped(text: string, i: number): boolean {
  let n = 0;
  for (let j = i - 1; j >= 0 && text[j] === '\\'; j--) n++;
  return n % 2 === 1;
}

/** Replaces fenced code blocks, inline code spans and HTML comments with spaces, keeping offsets. */
export function maskMarkdownCode(text: string): string {
  const chars = text.split('');
  const blank = (from: number, to: number) => {
    for (let k = from; k < to; k++) if (chars[k] !== '\n' && chars[k] !== '\r') chars[k] = ' ';
  };
  // Fenced blocks, line by line.
  const lineRe = /[^\n]*(?:\n|$)/g;
  let fence: { ch: string; len: number; start: number } | undefined;
  for (let m = lineRe.exec(text); m && m[0].length > 0; m = lineRe.exec(text)) {
    const line = m[0];
    const f = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (!fence && f) {
      fence = { ch: f[1][0], len: f[1].length, start: m.index };
    } else if (fence && f && f[1][0] === fence.ch && f[1].length >= fence.len && line.slice(f[0].length).trim() === '') {
      blank(fence.start, m.index + line.length);
      fence = undefined;
    }
  }
  if (fence) blank(fence.start, text.length);
  let masked = chars.join('');
  masked = maskHtmlComments(masked);
  // Inline code: a run of n backticks up to the next run of exactly n.
  const out = masked.split('');
  const tickRe = /`+/g;
  const runs: Array<{ at: number; len: number }> = [];
  for (let m = tickRe.exec(masked); m; m = tickRe.exec(masked)) runs.push({ at: m.index, len: m[0].length });
  for (let a = 0; a < runs.length; a++) {
    const close = runs.findIndex((r, b) => b > a && r.len === runs[a].len);
    if (close < 0) continue;
    for (let k = runs[a].at; k < runs[close].at + runs[close].len; k++) if (out[k] !== '\n' && out[k] !== '\r') out[k] = ' ';
    a = close;
  }
  return out.join('');
}

function maskHtmlComments(text: string): string {
  return text.replace(/<!--[\s\S]*?(?:-->|$)/g, (m) => m.replace(/[^\r\n]/g, ' '));
}

function referenceDefinitions(masked: string): Map<string, string> {
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

function scanMarkdownImage(text: string, masked: string, start: number, definitions: Map<string, string>): ImageRef | undefined {
  // Alt: from after `![` to the matching `]`, allowing nested brackets and backslash escapes.
  let depth = 0;
  let i = start + 2;
  for (; i < masked.length; i++) {
    const c = masked[i];
    if (c === '\\') {
      i++;
      continue;
    }
    // Link text cannot span a blank line.
    if (c === '\n' && /^[ \t]*\r?\n/.test(masked.slice(i + 1, i + 80))) return undefined;
    if (c === '[') depth++;
    else if (c === ']') {
      if (depth === 0) break;
      depth--;
    }
  }
  if (i >= masked.length) return undefined;
  const altRange = { start: start + 2, end: i };
  const rawAlt = text.slice(altRange.start, altRange.end);
  const alt: AltSlot = { kind: 'present', text: unescapeMarkdown(rawAlt), range: altRange, quote: '' };
  let j = i + 1;
  if (masked[j] === '(') {
    j++;
    while (j < masked.length && /[ \t\n\r]/.test(masked[j])) j++;
    let src: string;
    if (masked[j] === '<') {
      const close = masked.indexOf('>', j);
      if (close < 0 || masked.slice(j, close).includes('\n')) return undefined;
      src = text.slice(j + 1, close);
      j = close + 1;
    } else {
      const from = j;
      let parens = 0;
      for (; j < masked.length; j++) {
        const c = masked[j];
        if (c === '\\') {
          j++;
          continue;
        }
        if (/\s/.test(c)) break;
        if (c === '(') parens++;
        else if (c === ')') {
          if (parens === 0) break;
          parens--;
        }
      }
      src = text.slice(from, j);
    }
    while (j < masked.length && /[ \t\n\r]/.test(masked[j])) j++;
    const opener = masked[j];
    if (opener === '"' || opener === "'" || opener === '(') {
      const closer = opener === '(' ? ')' : opener;
      let k = j + 1;
      for (; k < masked.length && masked[k] !== closer; k++) if (masked[k] === '\\') k++;
      if (k >= masked.length) return undefined;
      j = k + 1;
      while (j < masked.length && /[ \t\n\r]/.test(masked[j])) j++;
    }
    if (masked[j] !== ')') return undefined;
    return { syntax: 'markdown', range: { start, end: j + 1 }, src: unescapeMarkdown(src), alt, decorative: false };
  }
  if (masked[j] === '[') {
    const close = masked.indexOf(']', j + 1);
    if (close < 0) return undefined;
    const label = text.slice(j + 1, close);
    const key = normalizeLabel(label === '' ? rawAlt : label);
    if (!definitions.has(key)) return undefined;
    return { syntax: 'markdown', range: { start, end: close + 1 }, src: definitions.get(key), alt, decorative: false };
  }
  return undefined;
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

function scanTags(text: string, masked: string, syntax: 'html' | 'jsx'): ImageRef[] {
  const refs: ImageRef[] = [];
  const tagRe = syntax === 'jsx' ? /<(img|Image)(?=[\s/>])/g : /<img(?=[\s/>])/gi;
  for (let m = tagRe.exec(masked); m; m = tagRe.exec(masked)) {
    const parsed = scanAttributes(text, m.index + m[0].length, syntax);
    if (!parsed) continue;
    refs.push(tagToRef(m.index, m.index + m[0].length, parsed, syntax));
    tagRe.lastIndex = parsed.end;
  }
  return refs;
}

/** Reads attributes up to the tag's closing `>`; undefined when the tag never closes. */
function scanAttributes(text: string, from: number, syntax: 'html' | 'jsx'): { attrs: Attr[]; end: number } | undefined {
  const attrs: Attr[] = [];
  let i = from;
  const n = text.length;
  while (i < n) {
    while (i < n && /\s/.test(text[i])) i++;
    if (i >= n) return undefined;
    if (text[i] === '>') return { attrs, end: i + 1 };
    if (text.startsWith('/>', i)) return { attrs, end: i + 2 };
    if (text.startsWith('<?', i)) {
      const close = text.indexOf('?>', i + 2);
      if (close < 0) return undefined;
      i = close + 2;
      continue;
    }
    if (text[i] === '{') {
      const close = skipBraces(text, i);
      if (close < 0) return undefined;
      i = close;
      continue;
    }
    const nameStart = i;
    while (i < n && !/[\s=>"'<{]/.test(text[i]) && !text.startsWith('/>', i)) i++;
    if (i === nameStart) {
      i++; // stray character such as a lone quote: step over it
      continue;
    }
    const name = text.slice(nameStart, i);
    let j = i;
    while (j < n && /\s/.test(text[j])) j++;
    if (text[j] !== '=') {
      attrs.push({ name, range: { start: nameStart, end: i }, raw: undefined, quote: '' });
      continue;
    }
    j++;
    while (j < n && /\s/.test(text[j])) j++;
    const q = text[j];
    if (q === '"' || q === "'") {
      let k = j + 1;
      while (k < n && text[k] !== q) {
        if (text.startsWith('<?', k)) {
          const close = text.indexOf('?>', k + 2);
          if (close < 0) return undefined;
          k = close + 2;
        } else k++;
      }
      if (k >= n) return undefined;
      attrs.push({ name, range: { start: nameStart, end: k + 1 }, raw: text.slice(j + 1, k), quote: q });
      i = k + 1;
    } else if (q === '{' && syntax === 'jsx') {
      const close = skipBraces(text, j);
      if (close < 0) return undefined;
      attrs.push({ name, range: { start: nameStart, end: close }, raw: text.slice(j + 1, close - 1), quote: '{' });
      i = close;
    } else {
      let k = j;
      while (k < n && !/[\s>]/.test(text[k])) {
        if (text.startsWith('<?', k)) {
          const close = text.indexOf('?>', k + 2);
          if (close < 0) return undefined;
          k = close + 2;
        } else k++;
      }
      attrs.push({ name, range: { start: nameStart, end: k }, raw: text.slice(j, k), quote: '' });
      i = k;
    }
  }
  return undefined;
}

/** From an opening `{`, the offset just past its matching `}`, skipping JS strings; -1 if unclosed. */
function skipBraces(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === '"' || c === "'" || c === '`') {
      for (i++; i < text.length && text[i] !== c; i++) if (text[i] === '\\') i++;
    } else if (c === '{') depth++;
    else if (c === '}') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

function tagToRef(start: number, nameEnd: number, parsed: { attrs: Attr[]; end: number }, syntax: 'html' | 'jsx'): ImageRef {
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
