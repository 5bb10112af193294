/**
 * Context by typing in the chat's message box, the parts both sides read: the `/` commands, where a
 * `#` or `/` completion starts in the text, and how candidates are filtered and ranked for a query.
 * Pure and linear in the input: no DOM, no vscode, no Node (compiled for the webview and the host).
 */

/** The `/` commands of the message box; each runs behaviour the extension already has. */
export const SLASH_COMMANDS = [
  { id: 'alt', description: 'Generate alt text for the image at the cursor in the editor' },
  { id: 'summary', description: 'Summarise the selection or document in the editor' },
  { id: 'tags', description: 'Suggest categories and tags for the document in the editor' },
  { id: 'new', description: 'Start a new conversation' },
  { id: 'model', description: 'Choose the model for this conversation' },
] as const;

export type SlashCommandId = (typeof SLASH_COMMANDS)[number]['id'];

export function isSlashCommandId(x: unknown): x is SlashCommandId {
  return typeof x === 'string' && SLASH_COMMANDS.some((c) => c.id === x);
}

/** A query longer than this is no completion (nobody types that after `#`); also the protocol's bound. */
export const MAX_QUERY = 120;
/** At most this many completion items cross to the webview. */
export const MAX_ITEMS = 40;

export interface Trigger {
  kind: '#' | '/';
  /** The text typed after the trigger character, up to the caret. */
  query: string;
  /** Index of the trigger character in the text. */
  start: number;
}

/**
 * The completion the caret is in, if any. `/` counts only at the very start of the message (a command
 * is the whole message); `#` at the start or after whitespace. The query runs from the trigger to the
 * caret and holds no whitespace. Looks back at most MAX_QUERY + 1 characters from the caret.
 */
export function findTrigger(text: string, caret: number): Trigger | undefined {
  const end = Math.max(0, Math.min(caret, text.length));
  const floor = Math.max(0, end - MAX_QUERY - 1);
  for (let i = end - 1; i >= floor; i--) {
    const ch = text[i];
    if (ch === ' ' || ch === '\n' || ch === '\t' || ch === '\r') return undefined;
    if (ch === '#' || ch === '/') {
      const before = i === 0 ? '' : text[i - 1];
      if (ch === '/' && i !== 0) continue; // a path like src/a.ts, or a slash mid-message
      if (ch === '#' && before !== '' && !/\s/.test(before)) continue; // "C#", "a#b"
      return { kind: ch, query: text.slice(i + 1, end), start: i };
    }
  }
  return undefined;
}

/** What a candidate is matched on: its name (the file's base name, the symbol) and a longer path. */
export interface Rankable {
  name: string;
  path?: string;
}

/**
 * How well `query` matches (higher is better), or -1 for no match. Case-insensitive: the name equal to
 * the query, then starting with it, then containing it, then the path containing it, then the query's
 * characters in order in the name or path (fuzzy). Linear in the lengths.
 */
export function matchScore(query: string, c: Rankable): number {
  const q = query.toLowerCase();
  if (!q) return 1;
  const name = c.name.toLowerCase();
  const path = (c.path ?? '').toLowerCase();
  if (name === q) return 100;
  if (name.startsWith(q)) return 80;
  const at = name.indexOf(q);
  if (at >= 0) return 60 - Math.min(at, 20) / 2;
  if (path.includes(q)) return 40;
  if (inOrder(q, name)) return 20;
  if (inOrder(q, path)) return 10;
  return -1;
}

function inOrder(q: string, s: string): boolean {
  let j = 0;
  for (let i = 0; i < s.length && j < q.length; i++) if (s[i] === q[j]) j++;
  return j === q.length;
}

/**
 * The candidates matching `query`, best first, at most `limit`. Ties keep a shorter path first (a file
 * near the root before a deep one), then the candidates' own order (stable).
 */
export function rankCandidates<T extends Rankable>(query: string, candidates: readonly T[], limit = MAX_ITEMS): T[] {
  const scored: Array<{ c: T; s: number; i: number }> = [];
  candidates.forEach((c, i) => {
    const s = matchScore(query.slice(0, MAX_QUERY), c);
    if (s >= 0) scored.push({ c, s, i });
  });
  scored.sort((a, b) => b.s - a.s || (a.c.path ?? a.c.name).length - (b.c.path ?? b.c.name).length || a.i - b.i);
  return scored.slice(0, Math.max(0, limit)).map((x) => x.c);
}

/** The `/` commands matching what was typed after `/`, in their order (a prefix first). */
export function slashMatches(query: string): Array<(typeof SLASH_COMMANDS)[number]> {
  const scored = SLASH_COMMANDS.map((c, i) => ({ c, s: matchScore(query.slice(0, MAX_QUERY), { name: c.id }), i })).filter((x) => x.s >= 0);
  return scored.sort((a, b) => b.s - a.s || a.i - b.i).map((x) => x.c);
}
