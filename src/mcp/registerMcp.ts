/**
 * The MCP tool runner feature. At activation: the "Tools" view over the platform's McpService; the
 * commands' bodies (mcpCommands.ts: tool panels, servers, JWT mode, history, batch re-runs) are
 * imported on the first call. The SDK and ajv are imported on the first connection.
 */
import * as vscode from 'vscode';
import { registerFeatureCommands } from '../platform/commands';
import { DisposableStore } from '../core/disposables';
import type { Services } from '../services';
import { McpService } from '../platform/mcpService';
import { TOOLS_VIEW_ID, ToolsTreeProvider } from './toolsTree';

/** What the tool runner uses: McpService's deps, the identity token's store and the extension's folder (mcpCommands.ts). */
export type McpServices = Pick<Services, 'accountSecrets' | 'context' | 'keys' | 'log'>;

export function registerMcp(services: McpServices): vscode.Disposable {
  const store = new DisposableStore();
  const service = store.add(new McpService(services));
  const tree = store.add(new ToolsTreeProvider(service));
  store.add(vscode.window.createTreeView(TOOLS_VIEW_ID, { treeDataProvider: tree, showCollapseAll: true }));
  store.add(
    registerFeatureCommands('mcp', async (register) => (await import('./mcpCommands')).registerMcpCommands(services, service, register), {
      'aiGateway.mcp.refresh': () => service.refresh(),
    }),
  );
  return store;
}
