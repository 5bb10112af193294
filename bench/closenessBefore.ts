/**
 * The model-id closeness as it was before issue 40 item 12 (a verbatim copy of src/core/modelIds/closeness.ts
 * at 480473c), kept only so that bench/modelIdDiagnostics.bench.ts can time it side by side with the
 * current matcher. Not used by the product.
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

/**
 * The closest of `candidates` to `id` within `max` edits (ties: the first in `candidates`), or
 * undefined. An exact match ignoring case counts as distance 0 and wins.
 */
export function closestId(id: string, candidates: readonly string[], max = 2): string | undefined {
  const needle = id.toLowerCase();
  let best: string | undefined;
  let bestDistance = max + 1;
  for (const c of candidates) {
    const d = boundedDistance(needle, c.toLowerCase(), max);
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
      if (d === 0) break;
    }
  }
  return best;
}
