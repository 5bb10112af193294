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
import { serverInstructions, toolHints, toolIcon } from '../core/mcp/toolShow';
import { judgeToolLink } from '../core/mcp/toolLink';

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
  /** The server's instructions from initialize (untrusted), read once the connection answers (#42.4). */
  private instructions: string | undefined;

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
    const instructionsRead = service.instructions(server.id).then((text) => void (this.instructions = text));
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
      webview.onDidReceiveMessage(async (m: unknown) => {
        // The page's first message waits for the server's instructions (already known once its tools were listed).
        if (isWebviewToHost(m) && m.type === 'ready') await instructionsRead;
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
    const hints = toolHints(this.tool, this.server.kind === 'gateway');
    const icon = toolIcon(this.tool);
    const instructions = serverInstructions(this.instructions);
    return {
      serverId: this.server.id,
      serverLabel: this.server.label,
      name: this.tool.name,
      title: hints.title,
      description: this.tool.description,
      inputSchema: this.tool.inputSchema,
      outputSchema: this.tool.outputSchema,
      readOnly: hints.readOnly,
      hints: { readOnly: hints.readOnly, destructive: hints.destructive, idempotent: hints.idempotent, openWorld: hints.openWorld },
      ...(icon ? { icon } : {}),
      ...(instructions ? { serverInstructions: instructions } : {}),
      needsUserKey: this.service.needsUserKey(this.server, this.tool.name),
    };
  }
}

/**
 * A link from a tool result or description (#42.4, src/core/mcp/toolLink.ts): http(s) opens in the
 * browser only after the user confirms its host (Don't Open the default), with a warning when it points
 * at this computer, a private network or plain http; other schemes are offered for copying; a link with
 * credentials is refused.
 */
export async function openLink(uri: string): Promise<void> {
  const verdict = judgeToolLink(uri);
  if (verdict.kind === 'refuse') {
    void vscode.window.showWarningMessage(vscode.l10n.t('Not opening this link: {0}.', verdict.reason));
    return;
  }
  if (verdict.kind === 'copy') {
    const pick = await vscode.window.showInformationMessage(vscode.l10n.t('This resource ({0}) is not a web link; copy it to use it with its server.', verdict.uri.slice(0, 300)), vscode.l10n.t('Copy'));
    if (pick) await vscode.env.clipboard.writeText(verdict.uri);
    return;
  }
  const open = vscode.l10n.t({ message: 'Open', comment: ['verb, a button'] });
  const detail = [verdict.url.href.slice(0, 500), verdict.warning, vscode.l10n.t('The link came from a tool result.')].filter(Boolean).join('\n\n');
  if (await confirmRisky({ severity: verdict.warning ? 'warning' : 'info', message: vscode.l10n.t('Open a link to {0} in the browser?', verdict.host), detail, safe: vscode.l10n.t("Don't Open"), action: open })) {
    await vscode.env.openExternal(vscode.Uri.parse(verdict.url.href, true));
  }
}
