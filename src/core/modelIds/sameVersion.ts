/**
 * A provider that loads its code on first use must still answer about the document as it was asked.
 * The extension host receives the editor's messages in batches: while a provider awaits its import, the
 * same batch can apply the user's next keystrokes to the document. A completion range measured on that
 * newer text, at the older position, ends past the cursor, and accepting it deletes what follows
 * (`'model' => '', 'input'` became `'model' => 'qwen/qwen-turbo'input'`). So: once the code is loaded,
 * answer at once (no await, the document cannot change); before, answer only if the document's version
 * is still the one asked about, else `stale()` (for completion, an empty incomplete list: the editor asks
 * again on the next keystroke).
 */
export function atAskedVersion<F, R>(
  doc: { readonly version: number },
  loaded: F | undefined,
  load: () => Promise<F>,
  answer: (feature: F) => R,
  stale: () => R,
): R | Promise<R> {
  if (loaded !== undefined) return answer(loaded);
  const asked = doc.version;
  return load().then((feature) => (doc.version === asked ? answer(feature) : stale()));
}
