/**
 * Line diffs for proposed changes (chat Apply, the content commands, Rewrite Selection): the hunks
 * between a document's text and a proposed text, applying any subset of them, and moving them onto a
 * document the user edited meanwhile. Pure; no `vscode`.
 *
 * Contract:
 * - Lines keep their terminators (`\n` or `\r\n`), and the last line may have none, so applying every
 *   hunk to the old text gives exactly the new text, CRLF and a missing final newline included.
 * - A hunk is one run of changed lines with no unchanged line inside it: accepting or rejecting one
 *   never touches another, and their edits never overlap.
 * - Work is bounded: common leading and trailing lines are set aside first (linear), then Myers'
 *   O(ND) diff runs up to MAX_EDIT_DISTANCE; past that the changed middle becomes one hunk.
 */
import * as l10n from '../l10n';

/** A replacement of the text range [start, end) of the old text by `newText`. */
export interface TextEdit {
  start: number;
  end: number;
  newText: string;
}

export interface Hunk extends TextEdit {
  /** 0-based line index in the old text where the hunk starts, and how many old lines it replaces. */
  oldLine: number;
  oldCount: number;
  /** 0-based line index in the new text, and how many lines it puts there. */
  newLine: number;
  newCount: number;
  /** The replaced text (old lines, terminators kept). */
  oldText: string;
}

export type Eol = '\n' | '\r\n';

/** Past this many inserted plus deleted lines the middle is one hunk (memory grows with its square). */
export const MAX_EDIT_DISTANCE = 1500;

/** The lines of `text`, each with its terminator; the last one without when the text has no final newline. */
export function splitLines(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
    out.push(text.slice(start, nl + 1));
    start = nl + 1;
  }
  if (start < text.length) out.push(text.slice(start));
  return out;
}

/** `text` with every line break made `eol` (lone `\r` included). */
export function withEol(text: string, eol: Eol): string {
  return text.replace(/\r\n|\r|\n/g, eol);
}

/** The document's line break: the first one found, `\n` when there is none. */
export function eolOf(text: string): Eol {
  const nl = text.indexOf('\n');
  return nl > 0 && text.charCodeAt(nl - 1) === 13 ? '\r\n' : '\n';
}

/** Pairs (oldIndex, newIndex) of equal lines in order: the longest common subsequence Myers finds, or undefined past `maxD`. */
function myersMatches(a: Int32Array, b: Int32Array, maxD: number): Array<[number, number]> | undefined {
  const n = a.length;
  const m = b.length;
  const max = Math.min(n + m, maxD);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  let found = -1;
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice(offset - d - 1, offset + d + 2));
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1] < v[offset + k + 1]) ? v[offset + k + 1] : v[offset + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        found = d;
        break;
      }
    }
    if (found >= 0) break;
  }
  if (found < 0) return undefined;
  // Walk back through the saved frontiers; trace[d] holds v[-d-1 .. d+1] before round d.
  const pairs: Array<[number, number]> = [];
  let x = n;
  let y = m;
  for (let d = found; d > 0; d--) {
    const prev = trace[d];
    const at = (k: number): number => prev[k + d + 1];
    const k = x - y;
    const down = k === -d || (k !== d && at(k - 1) < at(k + 1));
    const prevK = down ? k + 1 : k - 1;
    const prevX = at(prevK);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      x--;
      y--;
      pairs.push([x, y]);
    }
    x = prevX;
    y = prevY;
  }
  while (x > 0 && y > 0) {
    x--;
    y--;
    pairs.push([x, y]);
  }
  return pairs.reverse();
}

/**
 * The hunks that turn `oldText` into `newText`, in order. Both texts should use the same line breaks
 * (see withEol) or every line differs.
 */
export function diffLines(oldText: string, newText: string, maxEditDistance = MAX_EDIT_DISTANCE): Hunk[] {
  if (oldText === newText) return [];
  const a = splitLines(oldText);
  const b = splitLines(newText);
  const offsets = new Array<number>(a.length + 1);
  offsets[0] = 0;
  for (let i = 0; i < a.length; i++) offsets[i + 1] = offsets[i] + a[i].length;

  let pre = 0;
  while (pre < a.length && pre < b.length && a[pre] === b[pre]) pre++;
  let suf = 0;
  while (suf < a.length - pre && suf < b.length - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf]) suf++;

  const ids = new Map<string, number>();
  const intern = (lines: string[], from: number, to: number): Int32Array => {
    const out = new Int32Array(to - from);
    for (let i = from; i < to; i++) {
      let id = ids.get(lines[i]);
      if (id === undefined) ids.set(lines[i], (id = ids.size));
      out[i - from] = id;
    }
    return out;
  };
  const midA = intern(a, pre, a.length - suf);
  const midB = intern(b, pre, b.length - suf);
  const matches = myersMatches(midA, midB, maxEditDistance) ?? [];

  const hunks: Hunk[] = [];
  const push = (oldFrom: number, oldTo: number, newFrom: number, newTo: number): void => {
    if (oldFrom === oldTo && newFrom === newTo) return;
    const start = offsets[oldFrom];
    const end = offsets[oldTo];
    hunks.push({
      start,
      end,
      newText: b.slice(newFrom, newTo).join(''),
      oldText: oldText.slice(start, end),
      oldLine: oldFrom,
      oldCount: oldTo - oldFrom,
      newLine: newFrom,
      newCount: newTo - newFrom,
    });
  };
  let i = 0;
  let j = 0;
  for (const [x, y] of matches) {
    push(pre + i, pre + x, pre + j, pre + y);
    i = x + 1;
    j = y + 1;
  }
  push(pre + i, pre + midA.length, pre + j, pre + midB.length);
  return hunks;
}

/** The edits of the chosen hunks (all when `chosen` is omitted), in order and not overlapping. */
export function chosenEdits(hunks: readonly Hunk[], chosen?: ReadonlySet<number>): TextEdit[] {
  return hunks.filter((_, i) => !chosen || chosen.has(i)).map((h) => ({ start: h.start, end: h.end, newText: h.newText }));
}

/** `text` with non-overlapping, ordered edits applied. */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  let out = '';
  let at = 0;
  for (const e of edits) {
    if (e.start < at || e.end < e.start || e.end > text.length) throw new RangeError('Edits overlap or fall outside the text.');
    out += text.slice(at, e.start) + e.newText;
    at = e.end;
  }
  return out + text.slice(at);
}

/**
 * The edits of `hunks` (made against `base`) moved onto `current`, the document as it is now: each
 * shifted past what the user changed before it. Undefined when the user changed lines a hunk touches
 * (or right next to an insertion point), so the caller refuses instead of guessing.
 */
export function rebaseEdits(base: string, current: string, edits: readonly TextEdit[]): TextEdit[] | undefined {
  if (base === current) return edits.map((e) => ({ ...e }));
  const theirs = diffLines(base, current);
  const out: TextEdit[] = [];
  for (const e of edits) {
    let shift = 0;
    for (const t of theirs) {
      const overlaps = t.start < e.end && e.start < t.end;
      const touches = t.start === e.start || t.end === e.start || t.start === e.end;
      if (overlaps || touches) return undefined;
      if (t.end <= e.start) shift += t.newText.length - (t.end - t.start);
    }
    out.push({ start: e.start + shift, end: e.end + shift, newText: e.newText });
  }
  return out;
}

/** A short description of a hunk for a picker: where it is and what it does. */
export function describeHunk(h: Hunk): { label: string; detail: string } {
  const lines = (n: number): string => (n === 1 ? l10n.t('1 line') : l10n.t('{0} lines', n));
  const first = h.oldLine + 1;
  const what =
    h.oldCount === 0
      ? l10n.t('add {0}', lines(h.newCount))
      : h.newCount === 0
        ? l10n.t('remove {0}', lines(h.oldCount))
        : l10n.t('replace {0} with {1}', lines(h.oldCount), lines(h.newCount));
  const where = h.oldCount === 0 ? l10n.t('After line {0}', h.oldLine) : h.oldCount === 1 ? l10n.t('Line {0}', first) : l10n.t('Lines {0}–{1}', first, h.oldLine + h.oldCount);
  const preview = (s: string): string => {
    const t = s.replace(/\s+/g, ' ').trim();
    return t.length > 80 ? `${t.slice(0, 79)}…` : t;
  };
  const parts = [h.oldCount > 0 ? `− ${preview(h.oldText)}` : '', h.newCount > 0 ? `+ ${preview(h.newText)}` : ''].filter(Boolean);
  return { label: `${where}: ${what}`, detail: parts.join('   ') };
}
