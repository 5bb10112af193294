/**
 * Per-document debouncing for checks that run as the user types (alt-text and model-id diagnostics):
 * `schedule(doc)` runs `run(doc)` once that document has had no change for `delayMs`; each document
 * has its own timer, keyed by its URI. It also remembers, per document, whether a check's limit note
 * was logged (`firstNote`), so the log says it once per document, not per keystroke. Structural (a document only needs a `uri`), so a test can hand
 * it plain objects and this module never loads `vscode`.
 */
export interface DocumentLike {
  readonly uri: { toString(): string };
}

export class PerDocumentDebounce<D extends DocumentLike> {
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly noted = new Set<string>();

  constructor(
    private readonly delayMs: number,
    private readonly run: (doc: D) => void,
  ) {}

  /** (Re)starts the document's timer; the latest document object is the one run with. */
  schedule(doc: D): void {
    const key = doc.uri.toString();
    clearTimeout(this.timers.get(key));
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        this.run(doc);
      }, this.delayMs),
    );
  }

  /** Drops the document's pending run and its note (it closed). */
  forget(uri: { toString(): string }): void {
    const key = uri.toString();
    clearTimeout(this.timers.get(key));
    this.timers.delete(key);
    this.noted.delete(key);
  }

  /**
   * Whether to log a note about this run of the document's check (e.g. "stopped at its size limit"):
   * true the first time `applies` holds, false while it keeps holding; once it no longer holds, the
   * next time it does is a first time again.
   */
  firstNote(uri: { toString(): string }, applies: boolean): boolean {
    const key = uri.toString();
    if (!applies) {
      this.noted.delete(key);
      return false;
    }
    if (this.noted.has(key)) return false;
    this.noted.add(key);
    return true;
  }

  /** How many documents wait for their run. */
  get pending(): number {
    return this.timers.size;
  }

  dispose(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    this.noted.clear();
  }
}
