/**
 * The "Tools" view: servers -> tools with descriptions. Tools the active credential cannot use are
 * marked "needs a User key" (Account key on the gateway's ability tools, G-MCP-10).
 */
import * as vscode from 'vscode';
import { Disposable } from '../core/disposables';
import type { McpTool } from '../core/mcp/types';
import { SetupNeededError, type McpService } from '../platform/mcpService';
import type { ServerEntry } from '../platform/mcpServers';
import { serverInstructions, toolHints, type ToolHints } from '../core/mcp/toolShow';

/** Longest server instructions in a tooltip (characters). */
export const TOOLTIP_INSTRUCTIONS_CHARS = 1000;

/** The annotations a tool's server gives it, in words (#42.4): read-only, destructive, idempotent, open world. */
export function hintWords(h: ToolHints): string[] {
  const out: string[] = [];
  if (h.readOnly) out.push(vscode.l10n.t('read-only'));
  if (h.destructive) out.push(vscode.l10n.t('destructive'));
  if (h.idempotent) out.push(vscode.l10n.t('idempotent'));
  if (h.openWorld) out.push(vscode.l10n.t('open world'));
  return out;
}

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
        const hints = toolHints(node.tool);
        const words = hintWords(hints);
        const item = new vscode.TreeItem(node.tool.name, vscode.TreeItemCollapsibleState.None);
        item.id = `tool:${node.server.id}:${node.tool.name}`;
        const summary = (node.tool.description ?? '').split('\n')[0];
        const shown = hints.destructive ? `${vscode.l10n.t('destructive')} · ${summary}` : summary;
        item.description = needs ? vscode.l10n.t('needs a User key · {0}', shown) : shown;
        const md = new vscode.MarkdownString();
        md.appendMarkdown('**');
        md.appendText(hints.title ?? node.tool.name);
        md.appendMarkdown('**\n\n');
        if (words.length) md.appendMarkdown(`${hints.destructive ? '$(warning) ' : ''}${words.join(' · ')}\n\n`);
        if (needs) md.appendMarkdown(`$(warning) ${needs}\n\n`);
        md.appendText(node.tool.description ?? '');
        md.supportThemeIcons = true;
        item.tooltip = md;
        // Codicons only: a server's icons are drawn (data: URIs) in the tool's own page, never loaded here.
        item.iconPath = new vscode.ThemeIcon(needs ? 'warning' : hints.readOnly ? 'eye' : hints.destructive ? 'flame' : 'tools');
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

  /** The server's tooltip, built on hover: its address, the credential, and its instructions from initialize (#42.4). */
  resolveTreeItem(item: vscode.TreeItem, node: ToolsNode): vscode.TreeItem {
    if (node.kind === 'server') item.tooltip = this.serverTooltip(node.server);
    return item;
  }

  serverTooltip(server: ServerEntry): string | vscode.MarkdownString {
    const base = `${server.label}\n${server.url}\n${vscode.l10n.t('Credential: {0}', this.service.credential(server))}`;
    // Untrusted text: appended as plain text (never Markdown, never a link or a command), bounded.
    const instructions = serverInstructions(this.service.instructions(server.id), TOOLTIP_INSTRUCTIONS_CHARS);
    if (!instructions) return base;
    const md = new vscode.MarkdownString();
    md.appendText(base);
    md.appendMarkdown(`\n\n**${vscode.l10n.t('Server instructions')}**\n\n`);
    md.appendText(instructions);
    return md;
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
