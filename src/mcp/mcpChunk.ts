/**
 * Lazy loading of the host chunk the tool runner needs: dist/mcp.js (MCP SDK + ajv), required on first
 * use of the Tools view, never at activation. HTTP goes through the one network layer of
 * src/services.ts (proxy, timeouts, user agent, size limits, plain-http credential check).
 */
import type { SizeLimits } from '../core/http/policy';
import { sharedNetwork } from '../services';

export type McpModule = typeof import('../core/mcp/entry');

let mcpModule: McpModule | undefined;

export function loadMcp(): McpModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  mcpModule ??= require('./mcp.js') as McpModule;
  return mcpModule;
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
