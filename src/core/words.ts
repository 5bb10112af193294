/**
 * Counts in words (#29.13): "1 document", "3 documents", never "1 documents". English plurals only;
 * `many` for the irregular ones ("1 entry", "2 entries"). Numbers are grouped ("1,024 models").
 */
import * as l10n from './l10n';

/** A count for display, grouped the display language's way ("1,024", "1.024"). */
export function formatCount(n: number): string {
  return n.toLocaleString(l10n.displayLocale());
}

export function countOf(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}
