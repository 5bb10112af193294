/**
 * The one set of shape guards for data that arrives untyped: JSON from a server, a webview's message,
 * a file read from disk. Dependency-free (no vscode, no Node, no DOM), so src/core, src/protocol and the
 * webviews all use these rather than writing their own.
 */

/** A plain JSON-like object: not null, not an array. */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** An array whose every element passes `item`. */
export function isArrayOf<T>(v: unknown, item: (x: unknown) => x is T): v is T[] {
  return Array.isArray(v) && v.every(item);
}

export function isString(v: unknown): v is string {
  return typeof v === 'string';
}

/** A finite number (NaN and ±Infinity are not numbers a message can carry through JSON). */
export function isFiniteNumber(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v);
}

/** Absent, or passes `guard`: for optional fields. */
export function isOptional<T>(v: unknown, guard: (x: unknown) => x is T): v is T | undefined {
  return v === undefined || guard(v);
}

/** One of the listed string literals. */
export function isOneOf<const T extends string>(v: unknown, values: readonly T[]): v is T {
  return typeof v === 'string' && (values as readonly string[]).includes(v);
}
