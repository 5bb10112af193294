/**
 * Lazy loading of the two host chunks the tool runner needs: dist/mcp.js (MCP SDK + ajv) and the
 * proxy-aware fetch of dist/core.js (undici). Both are required on first use of the Tools view, never
 * at activation. Node caches modules, so requiring core.js here shares the instance services.ts uses.
 */
import * as vscode from 'vscode';

export type McpModule = typeof import('../core/mcp/entry');
type CoreModule = typeof import('../core/entry');

let mcpModule: McpModule | undefined;
let proxyFetch: ReturnType<CoreModule['createProxyFetch']> | undefined;

export function loadMcp(): McpModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  mcpModule ??= require('./mcp.js') as McpModule;
  return mcpModule;
}

/** The editor's proxy settings, read per request (the dispatcher is rebuilt only when they change). */
function networkSettings(): { proxy?: string; noProxy?: readonly string[]; strictSSL?: boolean } {
  const http = vscode.workspace.getConfiguration('http');
  if (http.get<string>('proxySupport') === 'off') return {};
  return { proxy: http.get<string>('proxy'), noProxy: http.get<string[]>('noProxy'), strictSSL: http.get<boolean>('proxyStrictSSL') };
}

/** undici fetch through the proxy settings, from the core chunk (so undici is bundled once). */
export function getProxyFetch(): (url: string | URL, init?: RequestInit) => Promise<Response> {
  if (!proxyFetch) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const core = require('./core.js') as CoreModule;
    proxyFetch = core.createProxyFetch(networkSettings);
  }
  return proxyFetch.fetch;
}

export async function disposeProxyFetch(): Promise<void> {
  const f = proxyFetch;
  proxyFetch = undefined;
  await f?.dispose().catch(() => undefined);
}
