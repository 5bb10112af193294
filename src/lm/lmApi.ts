/**
 * The lm feature's façade: the only place in src/lm that reaches the lazily loaded chunk dist/core.js.
 * Feature code calls `await lmApi()` when a command runs and imports only types from src/core
 * modules that live in the chunk (test/unit/bundle/facades.test.ts enforces both).
 *
 * Why one loader (src/lazy.ts) and one entry module per feature (src/core/entries/lm.ts), not one
 * hand-kept export list: esbuild cannot split a cjs bundle, so all features still share ONE chunk and
 * undici is bundled once; each feature's list sits in its own file beside its façade, so features do
 * not edit a shared list, and the façade's type is derived from that entry module, never re-declared.
 */
import { loadCoreChunk, loadEditorChunk, type EditorModule } from '../lazy';

/** What the lm feature may call in dist/core.js (src/core/entries/lm.ts). */
export type LmApi = typeof import('../core/entries/lm');

/** Loads dist/core.js on first use (later calls get Node's cached module); rejects if the chunk is missing. */
export async function lmApi(): Promise<LmApi> {
  return loadCoreChunk().lm;
}

/** The language model provider's request code in dist/editor.js (src/lm/lmRequests.ts); loaded on the first request. */
export function lmRequests(): EditorModule['lm'] {
  return loadEditorChunk().lm;
}
