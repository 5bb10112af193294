/**
 * The MCP feature's façade: the only place in src/mcp and src/lm that reaches the lazily loaded chunks:
 * dist/mcp.js (MCP SDK + ajv), required on first use of the Tools view or an MCP tool, never at
 * activation. HTTP goes through the one network layer of src/services.ts (proxy, timeouts, user agent,
 * size limits, plain-http credential check), so undici is bundled once, in dist/core.js.
 *
 * The chunk is loaded by the one loader src/lazy.ts; its exports are typed from src/core/mcp/entry.ts,
 * which stays a separate esbuild entry because the MCP SDK is large and needed by fewer sessions than
 * the core chunk. Feature code imports only types from src/core/mcp modules that live in the chunk
 * (test/unit/bundle/facades.test.ts enforces it).
 */
import type { SizeLimits } from '../core/http/policy';
import { loadCoreChunk, loadEditorChunk, loadMcpChunk, type EditorModule, type McpModule } from '../lazy';
import { sharedNetwork } from '../services';

export type McpApi = McpModule;

/** Loads dist/mcp.js on first use (later calls get Node's cached module); throws if the chunk is missing. */
export function mcpApi(): McpApi {
  return loadMcpChunk();
}

/** The MCP feature's part of dist/core.js (src/core/entries/mcp.ts): tool runs, the panel controller, request export. */
export type McpCoreApi = typeof import('../core/entries/mcp');

/** Loads dist/core.js on first use; throws if the chunk is missing. Synchronous: the Tools panel builds its controller in a constructor. */
export function mcpCoreApi(): McpCoreApi {
  return loadCoreChunk().mcp;
}

/** The shared network layer's fetch (undici from the core chunk, so undici is bundled once). */
export function getProxyFetch(): (url: string | URL, init?: RequestInit) => Promise<Response> {
  return sharedNetwork().fetch;
}

/** The shared size limits (e.g. `maxJsonBytes` for one MCP response). */
export function networkLimits(): SizeLimits {
  return sharedNetwork().limits;
}

/** The pool belongs to the shared network layer and is closed with it; kept for existing callers. */
export async function disposeProxyFetch(): Promise<void> {}

/** The MCP commands' editor glue in dist/editor.js (src/mcp/mcpCommands.ts); loaded on first use. */
export function mcpCommands(): EditorModule['mcp'] {
  return loadEditorChunk().mcp;
}
