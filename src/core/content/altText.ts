/**
 * Turning a generated description into markup: escaping it for the syntax around it, and the one edit
 * that fills an empty alt or adds a missing one. Also classifies an image's src (remote URL, inline
 * data, local file) so the editor layer knows whether to read the workspace.
 */
import type { ImageRef, ImageSyntax } from './imageRefs';
import type { ImageSource } from './wire';

export interface OffsetEdit {
  start: number;
  end: number;
  newText: string;
}

/** Alt text is one line: newlines and runs of whitespace become single spaces. */
export function normalizeAlt(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * Escapes alt text for where it goes:
 *  - markdown: backslash-escapes `\ [ ] * _ \` < > &` (any ASCII punctuation may be escaped in
 *    CommonMark, so escaping is always safe; brackets would otherwise end the alt early);
 *  - html: character references for `& < > "` (and `'` when the value is single-quoted);
 *  - jsx: a string attribute when the text has no `"`, `\`, `{`, `}`, `&`; otherwise an expression
 *    holding a JSON string, because JSX string attributes cannot escape a quote.
 * The result for html is the attribute value without quotes; for jsx it includes quotes or braces.
 */
export function escapeAlt(text: string, syntax: ImageSyntax, quote: '"' | "'" = '"'): string {
  const t = normalizeAlt(text);
  switch (syntax) {
    case 'markdown':
      return t.replace(/[\\[\]*_`<>&]/g, (c) => `\\${c}`);
    case 'html': {
      const escaped = t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
      return quote === "'" ? escaped.replace(/'/g, '&#39;') : escaped.replace(/"/g, '&quot;');
    }
    case 'jsx':
      return /["\\{}&]/.test(t) ? `{${JSON.stringify(t)}}` : `"${t}"`;
  }
}

/**
 * The single edit that puts `altText` into `ref`: replaces the Markdown alt, replaces an existing
 * `alt=...` attribute (keeping its quote style in HTML), or inserts ` alt="..."` after `src` (or after
 * the tag name when there is no src).
 */
export function altTextEdit(ref: ImageRef, altText: string): OffsetEdit {
  if (ref.syntax === 'markdown') {
    if (ref.alt.kind !== 'present') throw new Error('A Markdown image always has an alt slot.');
    return { start: ref.alt.range.start, end: ref.alt.range.end, newText: escapeAlt(altText, 'markdown') };
  }
  const attr = ref.syntax === 'jsx' ? `alt=${escapeAlt(altText, 'jsx')}` : undefined;
  if (ref.alt.kind === 'missing') {
    return { start: ref.alt.insertAt, end: ref.alt.insertAt, newText: ` ${attr ?? `alt="${escapeAlt(altText, 'html', '"')}"`}` };
  }
  if (attr) return { start: ref.alt.range.start, end: ref.alt.range.end, newText: attr };
  const q = ref.alt.quote === "'" ? "'" : '"';
  return { start: ref.alt.range.start, end: ref.alt.range.end, newText: `alt=${q}${escapeAlt(altText, 'html', q)}${q}` };
}

/** Whether the image already has a non-empty alt (the editor then asks before replacing it). */
export function hasAlt(ref: ImageRef): boolean {
  return ref.alt.kind === 'present' && (ref.alt.text === undefined || ref.alt.text.trim() !== '');
}

// ---------------------------------------------------------------------------------------------------
// Where the image comes from

export type ClassifiedSrc =
  | { kind: 'remote'; url: string }
  | { kind: 'inline'; image: ImageSource }
  /** A workspace file. `rootRelative` for `/img/a.png` (site root), else relative to the document. */
  | { kind: 'local'; path: string; rootRelative: boolean }
  | { kind: 'unsupported'; reason: string };

const MEDIA_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  svg: 'image/svg+xml',
  bmp: 'image/bmp',
  ico: 'image/x-icon',
  tif: 'image/tiff',
  tiff: 'image/tiff',
};

export function mediaTypeForPath(path: string): string | undefined {
  const ext = /\.([A-Za-z0-9]+)$/.exec(path)?.[1]?.toLowerCase();
  return ext ? MEDIA_TYPES[ext] : undefined;
}

export function classifySrc(src: string | undefined): ClassifiedSrc {
  if (src === undefined) {
    return { kind: 'unsupported', reason: 'The image source is computed (a PHP echo or a JSX expression), so the image cannot be read.' };
  }
  const s = src.trim();
  if (!s) return { kind: 'unsupported', reason: 'The image has no source.' };
  if (/^https?:\/\//i.test(s)) return { kind: 'remote', url: s };
  if (s.startsWith('//')) return { kind: 'remote', url: `https:${s}` };
  const data = /^data:([^;,]+)?(;base64)?,(.*)$/is.exec(s);
  if (data) {
    const mediaType = data[1] ?? 'text/plain';
    if (!mediaType.startsWith('image/')) return { kind: 'unsupported', reason: `The data URI holds ${mediaType}, not an image.` };
    const base64 = data[2] ? data[3].replace(/\s+/g, '') : Buffer.from(decodeURIComponent(data[3]), 'utf8').toString('base64');
    return { kind: 'inline', image: { kind: 'bytes', mediaType, base64 } };
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(s)) return { kind: 'unsupported', reason: `Images from ${s.split(':')[0]}: sources cannot be read.` };
  let path = s.replace(/[?#].*$/, '');
  try {
    path = decodeURI(path);
  } catch {
    // Keep the raw path when it is not valid percent-encoding.
  }
  if (path.startsWith('@/') || path.startsWith('~/')) return { kind: 'local', path: path.slice(2), rootRelative: true };
  return path.startsWith('/') ? { kind: 'local', path: path.replace(/^\/+/, ''), rootRelative: true } : { kind: 'local', path, rootRelative: false };
}

/**
 * Where a root-relative path may live, in order: the workspace root, then the folders static site
 * generators serve from the site root (Next.js/Vite `public`, Hugo `static`, plain `src`).
 */
export const SITE_ROOT_FOLDERS = ['', 'public', 'static', 'src'] as const;

/** Largest local image sent inline. Assumption (spec: not shown): the gateway's request-size limit. */
export const MAX_INLINE_IMAGE_BYTES = 20 * 1024 * 1024;

/** A short excerpt of the text around an image, as context for the description. */
export function surroundingContext(text: string, ref: ImageRef, maxChars = 600): string {
  const before = text.slice(Math.max(0, ref.range.start - maxChars), ref.range.start);
  const after = text.slice(ref.range.end, ref.range.end + Math.floor(maxChars / 2));
  const strip = (s: string) => s.replace(/<[^>]*>/g, ' ').replace(/!\[[^\]]*\]\([^)]*\)/g, ' ').replace(/\s+/g, ' ').trim();
  return `${strip(before)} … ${strip(after)}`.trim().replace(/^…\s*|\s*…$/g, '');
}
