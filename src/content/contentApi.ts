/**
 * The content feature's façade: the only place in src/content that reaches the lazily loaded chunk dist/core.js.
 * Feature code calls `await contentApi()` when a command runs and imports only types from src/core
 * modules that live in the chunk (test/unit/bundle/facades.test.ts enforces both).
 *
 * Why one loader (src/lazy.ts) and one entry module per feature (src/core/entries/content.ts), not one
 * hand-kept export list: esbuild cannot split a cjs bundle, so all features still share ONE chunk and
 * undici is bundled once; each feature's list sits in its own file beside its façade, so features do
 * not edit a shared list, and the façade's type is derived from that entry module, never re-declared.
 */
import { loadCoreChunk, loadEditorChunk, type EditorModule } from '../lazy';

/** What the content feature may call in dist/core.js (src/core/entries/content.ts). */
export type ContentApi = typeof import('../core/entries/content');

/** Loads dist/core.js on first use (later calls get Node's cached module); rejects if the chunk is missing. */
export async function contentApi(): Promise<ContentApi> {
  return loadCoreChunk().content;
}

/** The content commands' editor glue in dist/editor.js (src/content/contentCommands.ts); loaded on first use. */
export function contentCommands(): EditorModule['content'] {
  return loadEditorChunk().content;
}
