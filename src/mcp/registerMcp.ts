/**
 * The MCP tool runner feature. At activation: the "Tools" view and its service; the commands are
 * stubs whose bodies (mcpCommands.ts: tool panels, servers, JWT mode, history, batch re-runs) are in
 * dist/editor.js, loaded on the first call. The SDK and ajv load on first use (dist/mcp.js).
 */
import * as vscode from 'vscode';
import { registerCommand, registerLazyCommands } from '../commands';
import { DisposableStore } from '../core/lifecycle';
import type { Services } from '../services';
import { disposeProxyFetch, mcpCommands } from './mcpApi';
import { McpService } from './mcpService';
import { TOOLS_VIEW_ID, ToolsTreeProvider } from './toolsTree';

export function registerMcp(services: Services): vscode.Disposable {
  const store = new DisposableStore();
  const service = store.add(new McpService(services));
  const tree = store.add(new ToolsTreeProvider(service));
  store.add(vscode.window.createTreeView(TOOLS_VIEW_ID, { treeDataProvider: tree, showCollapseAll: true }));
  store.add({ dispose: () => void disposeProxyFetch() });
  store.add(registerCommand('aiGateway.mcp.refresh', () => service.refresh()));
  store.add(
    registerLazyCommands(
      [
        'aiGateway.mcp.pingServer',
        'aiGateway.mcp.openTool',
        'aiGateway.mcp.addServer',
        'aiGateway.mcp.removeServer',
        'aiGateway.mcp.setJwt',
        'aiGateway.mcp.clearJwt',
        'aiGateway.mcp.openSettings',
        'aiGateway.mcp.showHistory',
        'aiGateway.mcp.clearHistory',
        'aiGateway.mcp.runBatch',
      ],
      (register) => mcpCommands().registerMcpCommands(services, service, register),
    ),
  );
  return store;
}
