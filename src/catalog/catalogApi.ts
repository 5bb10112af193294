/**
 * The catalog feature's façade: the only place in src/catalog that reaches the lazily loaded chunks dist/core.js
 * and dist/editor.js.
 * Feature code calls `await catalogApi()` when a command runs and imports only types from src/core
 * modules that live in the chunk (test/unit/bundle/facades.test.ts enforces both).
 *
 * Why one loader (src/lazy.ts) and one entry module per feature (src/core/entries/catalog.ts), not one
 * hand-kept export list: esbuild cannot split a cjs bundle, so all features still share ONE chunk and
 * undici is bundled once; each feature's list sits in its own file beside its façade, so features do
 * not edit a shared list, and the façade's type is derived from that entry module, never re-declared.
 */
import { loadCoreChunk, loadEditorChunk, type EditorModule } from '../lazy';

/** What the catalog feature may call in dist/core.js (src/core/entries/catalog.ts). */
export type CatalogApi = typeof import('../core/entries/catalog');

/** Loads dist/core.js on first use (later calls get Node's cached module); rejects if the chunk is missing. */
export async function catalogApi(): Promise<CatalogApi> {
  return loadCoreChunk().catalog;
}

/** The catalog commands' editor glue in dist/editor.js (src/catalog/catalogCommands.ts); loaded on first use. */
export function catalogCommands(): EditorModule['catalog'] {
  return loadEditorChunk().catalog;
}
