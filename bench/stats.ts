/** Order statistics for the benches: the value at quantile q (0..1) of the samples, NaN when there are none. */
export function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
}
