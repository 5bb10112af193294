/**
 * The "Tools" view: servers -> tools with descriptions. Tools the active credential cannot use are
 * marked "needs a User key" (Account key on the gateway's ability tools, G-MCP-10).
 */
import * as vscode from 'vscode';
import { Disposable } from '../core/disposables';
import type { McpTool } from '../core/mcp/types';
import { isDestructiveTool } from '../core/mcp/abilityKeys';
import { SetupNeededError, type McpService } from '../platform/mcpService';
import type { ServerEntry } from '../platform/mcpServers';

export type ToolsNode =
  | { kind: 'server'; server: ServerEntry }
  | { kind: 'tool'; server: ServerEntry; tool: McpTool }
  | { kind: 'message'; server: ServerEntry; text: string; detail?: string; action?: { title: string; command: string } };

export const TOOLS_VIEW_ID = 'aiGateway.tools';

export class ToolsTreeProvider extends Disposable implements vscode.TreeDataProvider<ToolsNode> {
  private readonly _onDidChangeTreeData = this._register(new vscode.EventEmitter<ToolsNode | undefined>());
  readonly onDidChangeTreeData = this._onDidChangeTreeData.event;

  constructor(private readonly service: McpService) {
    super();
    this._register(service.onDidChange(() => this._onDidChangeTreeData.fire(undefined)));
  }

  refresh(): void {
    this._onDidChangeTreeData.fire(undefined);
  }

  getTreeItem(node: ToolsNode): vscode.TreeItem {
    switch (node.kind) {
      case 'server': {
        const item = new vscode.TreeItem(node.server.label, node.server.kind === 'gateway' ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed);
        item.id = `server:${node.server.id}`;
        item.description = node.server.url;
        // Left undefined: resolveTreeItem fills it on hover, when the server's instructions are known.
        item.tooltip = undefined;
        item.iconPath = new vscode.ThemeIcon(node.server.kind === 'gateway' ? 'cloud' : 'server');
        item.contextValue = node.server.kind === 'gateway' ? 'mcpServer.gateway' : 'mcpServer.custom';
        return item;
      }
      case 'tool': {
        const needs = this.service.needsUserKey(node.server, node.tool.name);
        // As in toolHints.ts (not imported: activation stays small): a real `true` marks read-only; destructive unless marked otherwise.
        const ro = node.tool.annotations?.readOnlyHint === true;
        const destructive = isDestructiveTool(node.tool, node.server.kind === 'gateway');
        const item = new vscode.TreeItem(node.tool.name, vscode.TreeItemCollapsibleState.None);
        item.id = `tool:${node.server.id}:${node.tool.name}`;
        const summary = (node.tool.description ?? '').split('\n')[0];
        const shown = destructive ? (summary ? `${vscode.l10n.t('destructive')} · ${summary}` : vscode.l10n.t('destructive')) : summary;
        item.description = needs ? vscode.l10n.t('needs a User key · {0}', shown) : shown;
        // The tooltip is built on hover (resolveTreeItem).
        // Codicons only: a server's icons are drawn (data: URIs) in the tool's own page, never loaded here.
        item.iconPath = new vscode.ThemeIcon(needs ? 'warning' : ro ? 'eye' : destructive ? 'flame' : 'tools');
        item.contextValue = 'mcpTool';
        item.command = { command: 'aiGateway.mcp.openTool', title: vscode.l10n.t('Open Tool'), arguments: [node] };
        item.accessibilityInformation = { label: needs ? vscode.l10n.t('{0}, needs a User key: {1}', node.tool.name, shown) : `${node.tool.name}: ${shown}` };
        return item;
      }
      case 'message': {
        const item = new vscode.TreeItem(node.text, vscode.TreeItemCollapsibleState.None);
        item.tooltip = node.detail ?? node.text;
        item.iconPath = new vscode.ThemeIcon('info');
        if (node.action) item.command = { command: node.action.command, title: node.action.title };
        return item;
      }
    }
  }

  /**
   * Tooltips, built on hover in a module loaded then (toolsTreeText.ts): a tool's title, its annotations
   * in words and description; a server's address, credential and instructions from initialize (#42.4).
   */
  async resolveTreeItem(item: vscode.TreeItem, node: ToolsNode): Promise<vscode.TreeItem> {
    const t = await import('./toolsTreeText');
    if (node.kind === 'server') item.tooltip = t.serverTooltip(node.server, this.service.credential(node.server), await this.service.instructions(node.server.id));
    if (node.kind === 'tool') item.tooltip = t.toolTooltip(node.tool, this.service.needsUserKey(node.server, node.tool.name), node.server.kind === 'gateway');
    return item;
  }

  async getChildren(node?: ToolsNode): Promise<ToolsNode[]> {
    if (!node) return this.service.servers().map((server) => ({ kind: 'server', server }));
    if (node.kind !== 'server') return [];
    try {
      const tools = await this.service.tools(node.server);
      if (tools.length === 0) return [{ kind: 'message', server: node.server, text: vscode.l10n.t('This server offers no tools.') }];
      return tools.map((tool) => ({ kind: 'tool', server: node.server, tool }));
    } catch (e) {
      if (e instanceof SetupNeededError) return [{ kind: 'message', server: node.server, text: e.message, action: e.action }];
      const message = e instanceof Error ? e.message : String(e);
      return [{ kind: 'message', server: node.server, text: vscode.l10n.t('Could not list tools: {0}', message.split('\n')[0]), detail: message, action: { title: vscode.l10n.t('Retry'), command: 'aiGateway.mcp.refresh' } }];
    }
  }
}
