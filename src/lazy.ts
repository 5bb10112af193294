/**
 * The one loader of the lazily loaded host chunks (see esbuild.mjs):
 * - dist/core.js (src/core/entry.ts): undici, the network layer, the gateway client and the
 *   command-time logic of each feature, one namespace per feature (src/core/entries/*.ts);
 * - dist/mcp.js (src/core/mcp/entry.ts): the MCP SDK and ajv;
 * - dist/editor.js (src/editorChunk.ts): command-time editor glue (the bodies of commands: input
 *   boxes, quick picks, notifications), registered at activation as stubs (src/commands.ts
 *   registerLazyCommands) that load it on the first call.
 * esbuild marks './core.js', './mcp.js' and './editor.js' external, so these stay runtime requires next to
 * dist/extension.js and their code stays out of the activation bundle. The first call loads the chunk,
 * later ones get Node's cached module; a missing chunk throws.
 *
 * Only the feature façades (src/<feature>/<feature>Api.ts) and src/services.ts call this; feature code
 * imports its façade (test/unit/bundle/facades.test.ts fails otherwise).
 */

/** What dist/core.js exports. Type-only: the chunk itself is loaded by loadCoreChunk(). */
export type CoreModule = typeof import('./core/entry');
/** What dist/mcp.js exports. Type-only: the chunk itself is loaded by loadMcpChunk(). */
export type McpModule = typeof import('./core/mcp/entry');
/** What dist/editor.js exports. Type-only: the chunk itself is loaded by loadEditorChunk(). */
export type EditorModule = typeof import('./editorChunk');

let coreModule: CoreModule | undefined;
let mcpModule: McpModule | undefined;
let editorModule: EditorModule | undefined;

export function loadCoreChunk(): CoreModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  coreModule ??= require('./core.js') as CoreModule;
  return coreModule;
}

export function loadMcpChunk(): McpModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  mcpModule ??= require('./mcp.js') as McpModule;
  return mcpModule;
}

export function loadEditorChunk(): EditorModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  editorModule ??= require('./editor.js') as EditorModule;
  return editorModule;
}
