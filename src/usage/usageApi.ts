/**
 * The usage feature's façade: the only place in src/usage that reaches the lazily loaded chunk dist/core.js
 * (see src/content/contentApi.ts for why one loader and one entry module per feature).
 */
import { loadCoreChunk } from '../lazy';

/** What the usage feature may call in dist/core.js (src/core/entries/usage.ts). */
export type UsageApi = typeof import('../core/entries/usage');

/** Loads dist/core.js on first use (later calls get Node's cached module); rejects if the chunk is missing. */
export async function usageApi(): Promise<UsageApi> {
  return loadCoreChunk().usage;
}
