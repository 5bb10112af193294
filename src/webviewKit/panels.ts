/**
 * The one panel registry of the webview kit (see ./html.ts): at most one open panel per key (a tool,
 * a chat tab, a chart), revealed instead of opened twice, forgotten when it is disposed, and all
 * closed together when the feature is disposed. No `vscode` import: anything with `dispose` fits.
 */
export interface RegisteredPanel {
  dispose(): void;
}

export class PanelRegistry<K, P extends RegisteredPanel> {
  private readonly panels = new Map<K, P>();

  get(key: K): P | undefined {
    return this.panels.get(key);
  }

  /** Records `panel` under `key`; returns the function its own dispose must call to be forgotten. */
  add(key: K, panel: P): () => void {
    this.panels.set(key, panel);
    return () => {
      if (this.panels.get(key) === panel) this.panels.delete(key);
    };
  }

  get size(): number {
    return this.panels.size;
  }

  disposeAll(): void {
    for (const p of [...this.panels.values()]) p.dispose();
    this.panels.clear();
  }
}
