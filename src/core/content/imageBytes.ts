/**
 * What a file really is, by its first bytes: only PNG, JPEG, GIF, WebP, AVIF and SVG are ever sent
 * as an image, whatever the file's extension or a data: URI's declared type says. SVG is text, so it
 * counts only when it decodes as UTF-8 and its root element is <svg>; the prolog before the root
 * (XML declaration, comments, doctype) is looked at up to a fixed bound, never the whole file twice.
 */

export type SniffedImageType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp' | 'image/avif' | 'image/svg+xml';

/** The kinds accepted, in words, for messages. */
export const ACCEPTED_IMAGE_KINDS = 'PNG, JPEG, GIF, WebP, AVIF or SVG';

/** How far into an SVG file its root element may start (after declaration, comments and doctype). */
const SVG_PROLOG_LIMIT = 64 * 1024;

function startsWith(bytes: Uint8Array, sig: readonly number[], at = 0): boolean {
  if (bytes.length < at + sig.length) return false;
  for (let i = 0; i < sig.length; i++) if (bytes[at + i] !== sig[i]) return false;
  return true;
}

function ascii(bytes: Uint8Array, from: number, to: number): string {
  return String.fromCharCode(...bytes.subarray(from, Math.min(to, bytes.length)));
}

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG = [0xff, 0xd8, 0xff];

/** The image type the bytes hold, or undefined when they are not one of the accepted kinds. */
export function sniffImageType(bytes: Uint8Array): SniffedImageType | undefined {
  if (startsWith(bytes, PNG)) return 'image/png';
  if (startsWith(bytes, JPEG)) return 'image/jpeg';
  const head = ascii(bytes, 0, 12);
  if (head.startsWith('GIF87a') || head.startsWith('GIF89a')) return 'image/gif';
  if (head.startsWith('RIFF') && head.slice(8, 12) === 'WEBP') return 'image/webp';
  if (isAvif(bytes)) return 'image/avif';
  if (isSvg(bytes)) return 'image/svg+xml';
  return undefined;
}

/** An ISO-BMFF `ftyp` box first, whose major or a compatible brand is avif/avis. */
function isAvif(bytes: Uint8Array): boolean {
  if (bytes.length < 16 || ascii(bytes, 4, 8) !== 'ftyp') return false;
  const size = ((bytes[0] << 24) | (bytes[1] << 16) | (bytes[2] << 8) | bytes[3]) >>> 0;
  if (size < 16 || size > bytes.length || size > 4096) return false;
  const isBrand = (at: number) => {
    const b = ascii(bytes, at, at + 4);
    return b === 'avif' || b === 'avis';
  };
  if (isBrand(8)) return true;
  for (let at = 16; at + 4 <= size; at += 4) if (isBrand(at)) return true;
  return false;
}

const WS = /[ \t\r\n]/;

/**
 * UTF-8 text whose first element, after an optional BOM, XML declaration, processing instructions,
 * comments and a doctype, is `<svg`, and which ends with `</svg>` (or is a single self-closing root).
 */
function isSvg(bytes: Uint8Array): boolean {
  // A quick reject before decoding: SVG text starts with '<', whitespace or a BOM.
  const first = bytes[0];
  if (first !== 0x3c && first !== 0xef && first !== 0x20 && first !== 0x09 && first !== 0x0a && first !== 0x0d) return false;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return false;
  }
  if (text.includes('\u0000')) return false;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const limit = Math.min(text.length, SVG_PROLOG_LIMIT);
  for (;;) {
    while (i < limit && WS.test(text[i])) i++;
    if (i >= limit) return false;
    if (text.startsWith('<?', i)) {
      const close = text.indexOf('?>', i + 2);
      if (close < 0 || close > limit) return false;
      i = close + 2;
    } else if (text.startsWith('<!--', i)) {
      const close = text.indexOf('-->', i + 4);
      if (close < 0 || close > limit) return false;
      i = close + 3;
    } else if (text.startsWith('<!DOCTYPE', i) || text.startsWith('<!doctype', i)) {
      // A doctype may carry an internal subset in brackets, which can hold '>'.
      let k = i + 9;
      let inSubset = false;
      for (; k < limit; k++) {
        const c = text[k];
        if (c === '[') inSubset = true;
        else if (c === ']') inSubset = false;
        else if (c === '>' && !inSubset) break;
      }
      if (k >= limit) return false;
      i = k + 1;
    } else break;
  }
  if (!text.startsWith('<svg', i) || !/[\s/>]/.test(text[i + 4] ?? '')) return false;
  // The root must close: strip trailing whitespace and comments, then expect </svg>.
  let end = text.length;
  for (;;) {
    while (end > i && WS.test(text[end - 1])) end--;
    if (end - 3 > i && text.startsWith('-->', end - 3)) {
      const open = text.lastIndexOf('<!--', end - 3);
      if (open <= i) return false;
      end = open;
    } else break;
  }
  const tail = text.slice(Math.max(i, end - 16), end);
  if (/<\/svg\s*>$/.test(tail)) return true;
  // A self-closing root: its first '>' ends the document and is preceded by '/'.
  const rootEnd = text.indexOf('>', i);
  return rootEnd === end - 1 && text[rootEnd - 1] === '/';
}
