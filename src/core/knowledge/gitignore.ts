/**
 * The subset of .gitignore matching that indexing needs, without regular expressions: patterns come
 * from the workspace (possibly a cloned repository), so they are matched by a two-pointer wildcard
 * walk whose cost is bounded by O(pattern length x path length) per rule, with no backtracking blow-up.
 *
 * Supported: blank lines and `#` comments, `\#` and `\!` escapes, `!` negation (last match wins),
 * trailing `/` (directories only), a leading or inner `/` anchoring the pattern to the .gitignore's
 * folder, `*`, `?`, `[abc]`, `[a-z]`, `[!x]`/`[^x]`, and `**` as a whole segment (any number of
 * folders). Not supported (treated literally or ignored): trailing-space escapes and character
 * classes like `[[:alpha:]]`. As in git, a file inside an ignored folder cannot be re-included: the
 * planner stops at the folder.
 */

/** Limits that keep a hostile .gitignore from costing more than a fixed amount. */
export const GITIGNORE_LIMITS = { maxBytes: 256 * 1024, maxRules: 5000, maxPatternChars: 1024 } as const;

type Token = { k: 'char'; c: string } | { k: 'one' } | { k: 'star' } | { k: 'set'; negated: boolean; ranges: Array<[string, string]> };

interface Rule {
  negated: boolean;
  dirOnly: boolean;
  /** Anchored rules match the whole relative path; others match the last segment only. */
  anchored: boolean;
  /** Segments; a segment of `null` is `**`. */
  segments: Array<Token[] | null>;
}

export interface GitignoreRules {
  /** Folder of the .gitignore, workspace-relative posix ('' for the root). */
  base: string;
  rules: Rule[];
}

function tokenize(segment: string): Token[] {
  const tokens: Token[] = [];
  const chars = Array.from(segment);
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i];
    if (c === '\\' && i + 1 < chars.length) {
      tokens.push({ k: 'char', c: chars[++i] });
    } else if (c === '*') {
      if (tokens.at(-1)?.k !== 'star') tokens.push({ k: 'star' });
    } else if (c === '?') {
      tokens.push({ k: 'one' });
    } else if (c === '[') {
      const close = chars.indexOf(']', i + 2);
      if (close === -1) {
        tokens.push({ k: 'char', c });
        continue;
      }
      let j = i + 1;
      const negated = chars[j] === '!' || chars[j] === '^';
      if (negated) j++;
      const ranges: Array<[string, string]> = [];
      for (; j < close; j++) {
        if (chars[j + 1] === '-' && j + 2 < close) {
          ranges.push([chars[j], chars[j + 2]]);
          j += 2;
        } else ranges.push([chars[j], chars[j]]);
      }
      tokens.push({ k: 'set', negated, ranges });
      i = close;
    } else tokens.push({ k: 'char', c });
  }
  return tokens;
}

function tokenMatches(t: Token, c: string): boolean {
  switch (t.k) {
    case 'char':
      return t.c === c;
    case 'one':
      return true;
    case 'set': {
      const inSet = t.ranges.some(([a, b]) => c >= a && c <= b);
      return inSet !== t.negated;
    }
    case 'star':
      return false;
  }
}

/** Wildcard match of one segment: greedy two pointers, remembering only the last star. */
function segmentMatches(tokens: Token[], text: string): boolean {
  const s = Array.from(text);
  let ti = 0;
  let si = 0;
  let starT = -1;
  let starS = 0;
  while (si < s.length) {
    const t = tokens[ti];
    if (t !== undefined && t.k === 'star') {
      starT = ti++;
      starS = si;
    } else if (t !== undefined && tokenMatches(t, s[si])) {
      ti++;
      si++;
    } else if (starT !== -1) {
      ti = starT + 1;
      si = ++starS;
    } else return false;
  }
  while (tokens[ti]?.k === 'star') ti++;
  return ti === tokens.length;
}

/** The same walk one level up: segments against path parts, `**` (null) as the star. */
function pathMatches(segments: Array<Token[] | null>, parts: string[]): boolean {
  let pi = 0;
  let si = 0;
  let starP = -1;
  let starS = 0;
  while (si < parts.length) {
    const p = segments[pi];
    if (p === null) {
      starP = pi++;
      starS = si;
    } else if (p !== undefined && segmentMatches(p, parts[si])) {
      pi++;
      si++;
    } else if (starP !== -1) {
      pi = starP + 1;
      si = ++starS;
    } else return false;
  }
  while (segments[pi] === null) pi++;
  return pi === segments.length;
}

export function parseGitignore(base: string, text: string): GitignoreRules {
  const rules: Rule[] = [];
  const body = text.length > GITIGNORE_LIMITS.maxBytes ? text.slice(0, GITIGNORE_LIMITS.maxBytes) : text;
  for (const raw of body.split(/\r?\n/)) {
    if (rules.length >= GITIGNORE_LIMITS.maxRules) break;
    // Length first, so the trims below only ever see short lines.
    if (raw.length > GITIGNORE_LIMITS.maxPatternChars) continue;
    let line = raw.replace(/[ \t]+$/, '');
    if (line === '' || line.startsWith('#')) continue;
    let negated = false;
    if (line.startsWith('!')) {
      negated = true;
      line = line.slice(1);
    } else if (line.startsWith('\\!') || line.startsWith('\\#')) line = line.slice(1);
    let dirOnly = false;
    if (line.endsWith('/')) {
      dirOnly = true;
      line = line.replace(/\/+$/, '');
    }
    if (line === '') continue;
    const anchored = line.includes('/');
    if (line.startsWith('/')) line = line.replace(/^\/+/, '');
    const segments = line.split('/').filter((s) => s !== '').map((s) => (s === '**' ? null : tokenize(s)));
    if (segments.length === 0) continue;
    rules.push({ negated, dirOnly, anchored, segments });
  }
  return { base, rules };
}

/**
 * The verdict of one .gitignore for `relPath` (relative to its folder, posix): true ignored, false
 * re-included by a negation, undefined when no rule matches.
 */
export function gitignoreVerdict(rules: GitignoreRules, relPath: string, isDir: boolean): boolean | undefined {
  const parts = relPath.split('/').filter((p) => p !== '');
  if (parts.length === 0) return undefined;
  let verdict: boolean | undefined;
  for (const r of rules.rules) {
    if (r.dirOnly && !isDir) continue;
    const hit = r.anchored ? pathMatches(r.segments, parts) : r.segments.length === 1 && r.segments[0] !== null && segmentMatches(r.segments[0], parts[parts.length - 1]);
    if (hit) verdict = !r.negated;
  }
  return verdict;
}

/**
 * Whether `path` (workspace-relative) is ignored by the given .gitignore files (any order; deeper
 * files take precedence, as in git). Only the entry itself is judged; callers check its folders.
 */
export function isIgnoredBy(all: readonly GitignoreRules[], path: string, isDir: boolean): boolean {
  let verdict: boolean | undefined;
  const ordered = [...all].sort((a, b) => depth(a.base) - depth(b.base));
  for (const rules of ordered) {
    const prefix = rules.base === '' ? '' : `${rules.base}/`;
    if (prefix !== '' && !path.startsWith(prefix)) continue;
    const v = gitignoreVerdict(rules, path.slice(prefix.length), isDir);
    if (v !== undefined) verdict = v;
  }
  return verdict === true;
}

function depth(base: string): number {
  return base === '' ? 0 : base.split('/').length;
}
