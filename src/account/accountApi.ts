/**
 * The account feature's façade: the only place in src/account that reaches the lazily loaded chunk dist/core.js.
 * Feature code calls `await accountApi()` when a command runs and imports only types from src/core
 * modules that live in the chunk (test/unit/bundle/facades.test.ts enforces both).
 *
 * Why one loader (src/lazy.ts) and one entry module per feature (src/core/entries/account.ts), not one
 * hand-kept export list: esbuild cannot split a cjs bundle, so all features still share ONE chunk and
 * undici is bundled once; each feature's list sits in its own file beside its façade, so features do
 * not edit a shared list, and the façade's type is derived from that entry module, never re-declared.
 */
import { loadCoreChunk, loadEditorChunk, type EditorModule } from '../lazy';

/** What the account feature may call in dist/core.js (src/core/entries/account.ts). */
export type AccountApi = typeof import('../core/entries/account');

/** Loads dist/core.js on first use (later calls get Node's cached module); rejects if the chunk is missing. */
export async function accountApi(): Promise<AccountApi> {
  return loadCoreChunk().account;
}

/** The same, synchronously, for the account clients (src/account/accountChunk.ts); throws if the chunk is missing. */
export function accountApiNow(): AccountApi {
  return loadCoreChunk().account;
}

/** The account commands' editor glue in dist/editor.js (src/account/accountCommands.ts); loaded on first use. */
export function accountCommands(): EditorModule['account'] {
  return loadEditorChunk().account;
}
