/**
 * "Did you mean …": the catalog id closest to a mistyped one, by edit distance (insert, delete,
 * substitute, swap two neighbours), compared case-insensitively.
 *
 * Diagnostics ask this for every unknown quoted id of a document on each pass (issue 40 item 12: a file
 * of thousands of distinct near-misses against a catalog of hundreds), so the work is bounded three ways:
 *  - banded: only the cells within `max` of the diagonal are computed (Ukkonen), and a comparison stops
 *    as soon as a whole row exceeds `max` (no suggestion can come out of it any more);
 *  - shared: the catalog is sorted once (IdMatcher), so candidates with a common prefix share the rows of
 *    that prefix, and a prefix already beyond `max` rules out every candidate under it at once. One lookup
 *    computes at most (2·max+1) cells per character of the catalog, and in practice far fewer;
 *  - cached: each answer is kept per id (a bounded, least-recently-used cache), so the pass after an edit
 *    only compares the ids that are new.
 */

/** The edit distance of `a` and `b` when it is at most `max`, otherwise `max + 1`. */
export function boundedDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const n = a.length;
  const m = b.length;
  const INF = max + 1;
  // Three rows of the optimal-string-alignment table, cells outside the band are INF.
  let prev2 = new Array<number>(m + 1).fill(INF);
  let prev = new Array<number>(m + 1).fill(INF);
  let cur = new Array<number>(m + 1).fill(INF);
  for (let j = 0; j <= Math.min(m, max); j++) prev[j] = j;
  for (let i = 1; i <= n; i++) {
    cur.fill(INF);
    if (i <= max) cur[0] = i;
    const lo = Math.max(1, i - max);
    const hi = Math.min(m, i + max);
    let rowMin = cur[0];
    for (let j = lo; j <= hi; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && a.charCodeAt(i - 1) === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === b.charCodeAt(j - 1)) v = Math.min(v, prev2[j - 2] + 1);
      cur[j] = Math.min(v, INF);
      if (cur[j] < rowMin) rowMin = cur[j];
    }
    if (rowMin > max) return INF;
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return Math.min(prev[m], INF);
}

/** Answers kept per matcher: far more than the distinct ids of any real workspace, and a few hundred KB at most. */
export const CLOSEST_CACHE_SIZE = 10_000;

/**
 * The closest catalog id to any id, for one catalog: built once per catalog (CatalogIndex holds one).
 * `cells` counts the distance-table cells computed since it was built (a measure of work that tests
 * bound, never a time).
 */
export class IdMatcher {
  /** The distinct lower-cased candidates, sorted; `order[k]` is the index in `candidates` of the first with that spelling. */
  private readonly sorted: string[];
  private readonly order: Int32Array;
  /** lcp[k]: the length of the common prefix of sorted[k - 1] and sorted[k] (0 for the first). */
  private readonly lcp: Int32Array;
  private readonly exact = new Map<string, number>();
  private readonly cache = new Map<string, string | null>();
  /** Rows of the banded table, (2·max+1) cells each, row i at i·(2·max+1): the rows of a shared prefix stay valid. */
  private readonly rows: Int32Array;
  /** Number of cells of the table computed so far (all lookups). */
  cells = 0;

  constructor(
    readonly candidates: readonly string[],
    readonly max = 2,
    private readonly cacheSize = CLOSEST_CACHE_SIZE,
  ) {
    candidates.forEach((c, i) => {
      const lower = c.toLowerCase();
      if (!this.exact.has(lower)) this.exact.set(lower, i);
    });
    this.sorted = [...this.exact.keys()].sort();
    this.order = Int32Array.from(this.sorted, (s) => this.exact.get(s) ?? 0);
    this.lcp = new Int32Array(this.sorted.length);
    let longest = 0;
    for (let k = 0; k < this.sorted.length; k++) {
      const s = this.sorted[k];
      longest = Math.max(longest, s.length);
      if (k === 0) continue;
      const p = this.sorted[k - 1];
      let l = 0;
      while (l < s.length && l < p.length && s.charCodeAt(l) === p.charCodeAt(l)) l++;
      this.lcp[k] = l;
    }
    this.rows = new Int32Array((longest + 1) * (2 * max + 1));
  }

  /** The closest candidate within `max` edits (ties: the first in `candidates`), or undefined; exact ignoring case wins. */
  closest(id: string): string | undefined {
    const cached = this.cache.get(id);
    if (cached !== undefined) {
      // Least recently used goes first: a hit moves to the end.
      this.cache.delete(id);
      this.cache.set(id, cached);
      return cached ?? undefined;
    }
    const at = this.search(id.toLowerCase());
    const answer = at < 0 ? null : this.candidates[at];
    if (this.cache.size >= this.cacheSize) {
      const oldest = this.cache.keys().next();
      if (!oldest.done) this.cache.delete(oldest.value);
    }
    this.cache.set(id, answer);
    return answer ?? undefined;
  }

  /** Whether `id`'s answer is cached (a lookup of it computes nothing). */
  has(id: string): boolean {
    return this.cache.has(id);
  }

  /** The index in `candidates` of the closest, or -1. */
  private search(a: string): number {
    const exact = this.exact.get(a);
    if (exact !== undefined) return exact;
    const max = this.max;
    const W = 2 * max + 1;
    const INF = max + 1;
    const n = a.length;
    const rows = this.rows;
    const sorted = this.sorted;
    // Row 0: D[0][j] = j for j in [0, max]; cell o of row i is column j = i - max + o.
    for (let o = 0; o < W; o++) rows[o] = o < max ? INF : o - max <= n ? o - max : INF;
    let computed = 0; // rows 0..computed hold the current candidate's prefix
    let deadAt = Number.POSITIVE_INFINITY; // the first row of that prefix over max, if any
    let best = -1;
    let bestDistance = INF;
    let cells = 0;
    for (let k = 0; k < sorted.length; k++) {
      const L = this.lcp[k];
      if (deadAt <= L) continue; // the prefix shared with the previous candidate is already too far
      deadAt = Number.POSITIVE_INFINITY;
      if (computed > L) computed = L;
      const b = sorted[k];
      const m = b.length;
      if (m - n > max || n - m > max) continue;
      for (let i = computed + 1; i <= m; i++) {
        const base = i * W;
        const up = base - W;
        const up2 = base - 2 * W;
        const bc = b.charCodeAt(i - 1);
        const bp = i > 1 ? b.charCodeAt(i - 2) : -1;
        let rowMin = INF;
        for (let o = 0; o < W; o++) {
          const j = i - max + o;
          let v = INF;
          if (j === 0) v = i <= max ? i : INF;
          else if (j > 0 && j <= n) {
            const ac = a.charCodeAt(j - 1);
            v = rows[up + o] + (ac === bc ? 0 : 1); // D[i-1][j-1]
            if (o + 1 < W && rows[up + o + 1] + 1 < v) v = rows[up + o + 1] + 1; // D[i-1][j]
            if (o > 0 && rows[base + o - 1] + 1 < v) v = rows[base + o - 1] + 1; // D[i][j-1]
            if (i > 1 && j > 1 && bc === a.charCodeAt(j - 2) && bp === ac && rows[up2 + o] + 1 < v) v = rows[up2 + o] + 1; // swap
            if (v > INF) v = INF;
            cells++;
          }
          rows[base + o] = v;
          if (v < rowMin) rowMin = v;
        }
        if (rowMin > max) {
          deadAt = i;
          computed = i;
          break;
        }
        computed = i;
      }
      if (deadAt !== Number.POSITIVE_INFINITY) continue;
      const d = rows[m * W + (n - m + max)];
      if (d < bestDistance || (d === bestDistance && d <= max && this.order[k] < best)) {
        best = this.order[k];
        bestDistance = d;
      }
    }
    this.cells += cells;
    return bestDistance <= max ? best : -1;
  }
}

const matchers = new WeakMap<readonly string[], Map<number, IdMatcher>>();

/** The matcher of a candidate list (built on first use, kept as long as the list is). */
export function idMatcher(candidates: readonly string[], max = 2): IdMatcher {
  let byMax = matchers.get(candidates);
  if (!byMax) matchers.set(candidates, (byMax = new Map()));
  let m = byMax.get(max);
  if (!m) byMax.set(max, (m = new IdMatcher(candidates, max)));
  return m;
}

/**
 * The closest of `candidates` to `id` within `max` edits (ties: the first in `candidates`), or
 * undefined. An exact match ignoring case counts as distance 0 and wins.
 */
export function closestId(id: string, candidates: readonly string[], max = 2): string | undefined {
  return idMatcher(candidates, max).closest(id);
}
