/**
 * Fitting a replacement text (a chat code block, a model's rewrite) into the place it replaces, so a
 * proposal changes only what it means to: the document's line breaks, the original's final newline or
 * lack of one, and no code fence the model wrapped its answer in. Pure; no `vscode`.
 */
import { withEol, type Eol } from './lineDiff';

/** At most this long a path named in a code block's info string. */
const MAX_PATH = 260;

/**
 * The language and file a code block's info string names: `ts:src/a.ts` and `src/a.ts` name a file
 * (relative, checked against the workspace by the caller), `ts` only a language. `info` is the first
 * word of the fence's info string, as the chat's Markdown renderer keeps it.
 */
export function codeBlockTarget(info: string | undefined): { language?: string; path?: string } {
  const word = (info ?? '').trim();
  if (!word) return {};
  const colon = word.indexOf(':');
  const [lang, rest] = colon > 0 ? [word.slice(0, colon), word.slice(colon + 1)] : ['', word];
  const looksLikePath = rest.includes('/') || /^[\w.-]+\.[A-Za-z0-9]+$/.test(rest);
  if (colon > 0 ? rest.length > 0 : looksLikePath) {
    if (rest.length > MAX_PATH || /[\0\r\n]/.test(rest) || /^[a-z][a-z0-9+.-]*:\/\//i.test(rest)) return lang ? { language: lang } : {};
    const ext = /\.([A-Za-z0-9]+)$/.exec(rest)?.[1];
    return { language: lang || ext, path: rest };
  }
  return { language: word };
}

/** `replacement` in the document's line breaks, ending with a line break exactly when `original` did. */
export function fitReplacement(original: string, replacement: string, eol: Eol): string {
  const body = withEol(replacement, eol).replace(/(?:\r\n|\n)+$/, '');
  return /\n$/.test(original) ? body + eol : body;
}

/** The model's answer without one code fence around all of it (unless the original text was itself fenced). */
export function unwrapFence(answer: string, original: string): string {
  if (/^\s*(```|~~~)/.test(original)) return answer;
  const m = /^\s*(```|~~~)[^\n]*\n([\s\S]*?)\n?\1\s*$/.exec(answer);
  return m ? m[2] : answer;
}
