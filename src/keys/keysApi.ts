/**
 * The keys feature's façade: the only place in src/keys that reaches the lazily loaded chunk dist/core.js.
 * Feature code calls `await keysApi()` when a command runs and imports only types from src/core
 * modules that live in the chunk (test/unit/bundle/facades.test.ts enforces both).
 *
 * Why one loader (src/lazy.ts) and one entry module per feature (src/core/entries/keys.ts), not one
 * hand-kept export list: esbuild cannot split a cjs bundle, so all features still share ONE chunk and
 * undici is bundled once; each feature's list sits in its own file beside its façade, so features do
 * not edit a shared list, and the façade's type is derived from that entry module, never re-declared.
 */
import { loadCoreChunk, loadEditorChunk, type EditorModule } from '../lazy';

/** What the keys feature may call in dist/core.js (src/core/entries/keys.ts). */
export type KeysApi = typeof import('../core/entries/keys');

/** Loads dist/core.js on first use (later calls get Node's cached module); rejects if the chunk is missing. */
export async function keysApi(): Promise<KeysApi> {
  return loadCoreChunk().keys;
}

/** The key commands' editor glue in dist/editor.js (src/keys/keyCommands.ts); loaded on first use. */
export function keyCommands(): EditorModule['keys'] {
  return loadEditorChunk().keys;
}
