/**
 * One webview panel per tool: the run form, results and that tool's history. The message logic is
 * ToolPanelController (src/core/mcp); this file only wires it to a WebviewPanel and to editor UI
 * (clipboard, opening links after confirmation).
 */
import * as vscode from 'vscode';
import { confirmRisky } from '../platform/safeDialog';
import { markStepDone } from '../platform/walkthroughProgress';
import { Disposable } from '../core/disposables';
import { ToolPanelController } from '../core/mcp/toolPanelController';
import type { McpTool } from '../core/mcp/types';
import { isWebviewToHost, type HostToWebview, type ToolView } from '../protocol/toolsProtocol';
import type { McpService } from '../platform/mcpService';
import type { ServerEntry } from '../platform/mcpServers';
import { newNonce } from '../webviewKit/html';
import { PanelRegistry } from '../webviewKit/panels';
import { toolsHtml } from './toolsHtml';

export class ToolPanel extends Disposable {
  private static readonly panels = new PanelRegistry<string, ToolPanel>();

  static show(extensionUri: vscode.Uri, service: McpService, server: ServerEntry, tool: McpTool, loadCallId?: string): ToolPanel {
    const key = `${server.id}/${tool.name}`;
    const existing = ToolPanel.panels.get(key);
    if (existing) {
      existing.panel.reveal();
      if (loadCallId) existing.controller.load(loadCallId);
      return existing;
    }
    const panel = new ToolPanel(extensionUri, service, server, tool, loadCallId);
    panel._register({ dispose: ToolPanel.panels.add(key, panel) });
    return panel;
  }

  static disposeAll(): void {
    ToolPanel.panels.disposeAll();
  }

  private readonly panel: vscode.WebviewPanel;
  private readonly controller: ToolPanelController;

  private constructor(
    extensionUri: vscode.Uri,
    private readonly service: McpService,
    private readonly server: ServerEntry,
    private readonly tool: McpTool,
    loadCallId: string | undefined,
  ) {
    super();
    const root = vscode.Uri.joinPath(extensionUri, 'dist', 'webview');
    this.panel = vscode.window.createWebviewPanel('aiGateway.toolRunner', vscode.l10n.t('Tool: {0}', tool.name), vscode.ViewColumn.Active, {
      enableScripts: true,
      retainContextWhenHidden: true,
      localResourceRoots: [root],
    });
    const webview = this.panel.webview;
    this.controller = new ToolPanelController(
      {
        post: (m) => void webview.postMessage(m),
        toolView: () => this.toolView(),
        run: (args, signal) => service.run(server, tool, args, signal).then((r) => (markStepDone('runTool'), r)),
        history: () => service.history.list().filter((e) => e.serverId === server.id && e.tool === tool.name),
        entry: (id) => service.history.get(id),
        exportRequest: (args, format) => service.exportRequest(server, tool.name, args, format),
        copy: async (text, what) => {
          await vscode.env.clipboard.writeText(text);
          if (what === 'curl') void vscode.window.showInformationMessage(vscode.l10n.t('Copied as curl (token redacted: set {0}).', '$AI_GATEWAY_TOKEN'));
          else if (what === 'jsonrpc') void vscode.window.showInformationMessage(vscode.l10n.t('Copied as JSON-RPC request.'));
        },
        openLink: (uri) => openLink(uri),
        // The site details command belongs to the @gateway feature; features meet through command ids.
        showSiteDetails: async (siteId) => void (await vscode.commands.executeCommand('aiGateway.participant.showSiteDetails', siteId)),
      },
      loadCallId,
    );
    webview.html = toolsHtml({
      cspSource: webview.cspSource,
      nonce: newNonce(),
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(root, 'tools.js')).toString(),
      styleUri: webview.asWebviewUri(vscode.Uri.joinPath(root, 'tools.css')).toString(),
      title: vscode.l10n.t('Tool: {0}', tool.name),
      l10nDir: root.fsPath,
    });
    this._register(this.panel.onDidDispose(() => this.dispose()));
    this._register(
      webview.onDidReceiveMessage((m: unknown) => {
        if (isWebviewToHost(m)) void this.controller.handle(m);
        else service.log.warn(`Tool ${tool.name}: ignored a message from the page that is not one of the tools protocol's (src/protocol/toolsProtocol.ts).`);
      }),
    );
    this._register(service.onDidChangeHistory(() => this.controller.refreshHistory()));
    // Switching between a User and an Account key updates the "needs a User key" note in place.
    this._register(service.onDidChange(() => void webview.postMessage({ type: 'needsUserKey', text: this.toolView().needsUserKey } satisfies HostToWebview)));
    this._register({ dispose: () => this.controller.cancel() });
  }

  override dispose(): void {
    super.dispose();
    this.panel.dispose();
  }

  private toolView(): ToolView {
    return {
      serverId: this.server.id,
      serverLabel: this.server.label,
      name: this.tool.name,
      title: this.tool.title,
      description: this.tool.description,
      inputSchema: this.tool.inputSchema,
      outputSchema: this.tool.outputSchema,
      readOnly: this.tool.annotations?.readOnlyHint === true,
      needsUserKey: this.service.needsUserKey(this.server, this.tool.name),
    };
  }
}

/** Web links open in the browser after a confirmation; other schemes (kb://, file:) are offered for copying. */
async function openLink(uri: string): Promise<void> {
  let parsed: vscode.Uri;
  try {
    parsed = vscode.Uri.parse(uri, true);
  } catch {
    return;
  }
  if (parsed.scheme !== 'https' && parsed.scheme !== 'http') {
    const pick = await vscode.window.showInformationMessage(vscode.l10n.t('This resource ({0}) is not a web link; copy it to use it with its server.', uri), vscode.l10n.t('Copy'));
    if (pick) await vscode.env.clipboard.writeText(uri);
    return;
  }
  const open = vscode.l10n.t({ message: 'Open', comment: ['verb, a button'] });
  if (await confirmRisky({ severity: 'info', message: vscode.l10n.t('Open {0} in the browser?', uri), detail: vscode.l10n.t('The link came from a tool result.'), safe: vscode.l10n.t("Don't Open"), action: open })) await vscode.env.openExternal(parsed);
}
