/**
 * What the workspace-wide "Replace in the workspace…" needs beyond the scanner, vscode-free: which files
 * a repository's .gitignore files leave out (src/core/knowledge/gitignore.ts judges one entry; a file inside an
 * ignored folder is ignored, as in git), which files are worth reading, and offsets turned into line and
 * character for files that are not open.
 */
import { isIgnoredBy, type GitignoreRules } from '../knowledge/gitignore';

/** Limits of one workspace search: a generated tree or a huge repository costs at most this. */
export const WORKSPACE_REPLACE_LIMITS = { maxFiles: 20_000, maxFileBytes: 2 * 1024 * 1024, binarySniffBytes: 8192 } as const;

/** True when `relPath` (posix, relative to its workspace folder) or one of its folders is ignored. */
export function ignoredByGitignore(rules: readonly GitignoreRules[], relPath: string): boolean {
  if (rules.length === 0) return false;
  const parts = relPath.split('/').filter((p) => p !== '');
  for (let i = 1; i < parts.length; i++) {
    if (isIgnoredBy(rules, parts.slice(0, i).join('/'), true)) return true;
  }
  return isIgnoredBy(rules, parts.join('/'), false);
}

/** The folder of a `.gitignore` file, relative to its workspace folder ('' for the root). */
export function gitignoreBase(relPathOfGitignore: string): string {
  const slash = relPathOfGitignore.lastIndexOf('/');
  return slash === -1 ? '' : relPathOfGitignore.slice(0, slash);
}

/** True for bytes that look like a binary file (a NUL in the first few KB), which is never edited. */
export function looksBinary(bytes: Uint8Array, sniff: number = WORKSPACE_REPLACE_LIMITS.binarySniffBytes): boolean {
  const n = Math.min(bytes.length, sniff);
  for (let i = 0; i < n; i++) if (bytes[i] === 0) return true;
  return false;
}

/** Offsets of every line's first character ("\n", "\r\n" and "\r" end a line, as in the editor). */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) starts.push(i + 1);
    else if (c === 13) {
      if (text.charCodeAt(i + 1) === 10) i++;
      starts.push(i + 1);
    }
  }
  return starts;
}

/** Line and character (UTF-16) of `offset`, by binary search over `lineStarts`. */
export function positionAt(starts: readonly number[], offset: number): { line: number; character: number } {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo, character: offset - starts[lo] };
}
