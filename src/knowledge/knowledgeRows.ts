/**
 * What activation needs of the knowledge views (they are registered then): one-line labels, the view
 * row type and the read-only documents' store. The rows' words (a permission the key lacks, an error,
 * an empty or truncated list, the add-a-key row) are in knowledgeList.ts, loaded with the first listing;
 * the rest of the feature's words are in knowledgeText.ts, loaded with the commands. vscode-free,
 * tested in plain Node.
 */

/** A view row that is not an item: a permission the key lacks, an error, an empty or truncated list. */
export type MessageNode = { kind: 'message'; text: string; detail?: string; icon: string; command?: string };

/** Cuts to `max` characters and flattens line breaks (labels and quick-pick rows are one line). */
export function clip(s: string, max: number): string {
  const flat = s.replace(/[\r\n\t]+/g, ' ');
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** A bounded map from document key to text: the oldest entry goes when `max` is reached. */
export class BoundedTexts {
  private readonly map = new Map<string, string>();
  constructor(private readonly max: number) {}
  set(key: string, text: string): void {
    this.map.delete(key);
    this.map.set(key, text);
    while (this.map.size > this.max) this.map.delete(this.map.keys().next().value as string);
  }
  get(key: string): string | undefined {
    return this.map.get(key);
  }
  get size(): number {
    return this.map.size;
  }
}
