/**
 * Finding model ids (`<owner>/<model>`) in any text: source code, JSON, YAML, `.env`, Markdown.
 *
 * One left-to-right pass over the characters, no regular expression over the document, so the cost is
 * linear in the text scanned (test/unit/modelIds/idScanner.property.test.ts counts it). Bounded: at most
 * `maxChars` characters are read and at most `maxTokens` tokens reported; the result says when a limit
 * stopped the scan. A token is a maximal run of id characters holding exactly one `/` with something on
 * each side; runs with more than one `/` (paths, URLs) or longer than `maxTokenChars` are not ids.
 *
 * `standalone` marks a token that is a whole value: the whole content of a quoted string or code span
 * ("openai/gpt-4o", 'x', `x`), or the whole value after `:` or `=` on its line (YAML, `.env`). Only those
 * are judged as possibly mistyped ids ("Did you mean …"); a known id is recognised anywhere.
 */

export interface IdToken {
  /** UTF-16 offsets into the text, end exclusive. */
  start: number;
  end: number;
  text: string;
  standalone: boolean;
}

export interface ScanLimits {
  maxChars: number;
  maxTokens: number;
  maxTokenChars: number;
}

export const DEFAULT_ID_SCAN_LIMITS: ScanLimits = { maxChars: 2_000_000, maxTokens: 5_000, maxTokenChars: 128 };

export interface IdScan {
  tokens: IdToken[];
  /** Set when a limit stopped the scan: which one, and how far it got. */
  truncated?: { reason: 'chars' | 'tokens'; scannedChars: number };
  /** Characters examined (each at most a bounded number of times): for the linear-time property. */
  steps: number;
}

/** Characters a model id is made of: ASCII letters and digits, `.`, `_`, `:`, `-` and the one `/`. */
export function isIdChar(code: number): boolean {
  return (
    (code >= 48 && code <= 57) || // 0-9
    (code >= 65 && code <= 90) || // A-Z
    (code >= 97 && code <= 122) || // a-z
    code === 46 || // .
    code === 95 || // _
    code === 58 || // :
    code === 45 || // -
    code === 47 // /
  );
}

function isAlnum(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

const QUOTES = new Set([34, 39, 96]); // " ' `

/** True for a run that is shaped like `<owner>/<model>`: one slash, alnum first on each side. */
export function isIdShaped(s: string): boolean {
  const slash = s.indexOf('/');
  if (slash <= 0 || slash === s.length - 1 || s.indexOf('/', slash + 1) !== -1) return false;
  return isAlnum(s.charCodeAt(0)) && isAlnum(s.charCodeAt(slash + 1));
}

/** Whether the run [start, end) is a whole value: see the module comment. Looks only at its own line. */
function isStandalone(text: string, start: number, end: number, limit: number): boolean {
  const before = start > 0 ? text.charCodeAt(start - 1) : -1;
  const after = end < limit ? text.charCodeAt(end) : -1;
  if (QUOTES.has(before)) return after === before;
  // A bare value: after `:` or `=` (spaces between), and only spaces or a `#` comment after it.
  let i = start - 1;
  let spaces = 0;
  while (i >= 0 && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9) && spaces < 64) {
    i--;
    spaces++;
  }
  const sep = i >= 0 ? text.charCodeAt(i) : -1;
  if (sep !== 58 && sep !== 61) return false;
  let j = end;
  let trailing = 0;
  while (j < limit && (text.charCodeAt(j) === 32 || text.charCodeAt(j) === 9) && trailing < 64) {
    j++;
    trailing++;
  }
  const next = j < limit ? text.charCodeAt(j) : -1;
  return next === -1 || next === 10 || next === 13 || next === 35;
}

export function scanModelIds(text: string, limits: ScanLimits = DEFAULT_ID_SCAN_LIMITS): IdScan {
  const tokens: IdToken[] = [];
  const limit = Math.min(text.length, limits.maxChars);
  let steps = 0;
  let i = 0;
  while (i < limit) {
    steps++;
    if (!isIdChar(text.charCodeAt(i))) {
      i++;
      continue;
    }
    const runStart = i;
    let slashes = 0;
    while (i < limit && isIdChar(text.charCodeAt(i))) {
      if (text.charCodeAt(i) === 47) slashes++;
      i++;
      steps++;
    }
    let start = runStart;
    let end = i;
    // Sentence punctuation around an id is not part of it ("use openai/gpt-5.1.").
    while (end > start && (text.charCodeAt(end - 1) === 46 || text.charCodeAt(end - 1) === 58)) {
      end--;
      steps++;
    }
    while (start < end && !isAlnum(text.charCodeAt(start))) {
      start++;
      steps++;
    }
    if (slashes !== 1 || end - start > limits.maxTokenChars || end - start < 3) continue;
    // Part of a longer path or URL: `a/b/c` split by a character outside the run (e.g. `@`) is not an id.
    if (runStart > 0 && text.charCodeAt(runStart - 1) === 64) continue;
    const s = text.slice(start, end);
    if (!isIdShaped(s)) continue;
    if (tokens.length >= limits.maxTokens) return { tokens, truncated: { reason: 'tokens', scannedChars: start }, steps };
    tokens.push({ start, end, text: s, standalone: isStandalone(text, start, end, limit) });
  }
  const out: IdScan = { tokens, steps };
  if (limit < text.length) out.truncated = { reason: 'chars', scannedChars: limit };
  return out;
}
