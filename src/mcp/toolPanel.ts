/**
 * One webview panel per tool: the run form, results and that tool's history. The host owns every
 * decision with consequences (validation, confirmation, retry policy, export, opening links); the
 * webview renders and asks. Strict CSP with a nonce; images only as data: URIs from results.
 */
import * as vscode from 'vscode';
import { randomBytes } from 'node:crypto';
import { Disposable } from '../core/lifecycle';
import type { HistoryEntry } from '../core/mcp/history';
import type { McpTool } from '../core/mcp/types';
import { isWebviewToHost, type CallView, type HostToWebview, type ToolView, type WebviewToHost } from '../shared/toolsProtocol';
import type { McpService } from './mcpService';
import type { ServerEntry } from './servers';

export function toCallView(e: HistoryEntry): CallView {
  return {
    id: e.id,
    tool: e.tool,
    args: e.args,
    startedAt: e.startedAt,
    durationMs: e.durationMs,
    requestIds: e.requestIds,
    result: e.result,
    toolError: e.toolError && {
      code: e.toolError.code,
      message: e.toolError.message,
      advice: e.toolError.advice,
      retryAllowed: e.toolError.retry.allowed,
      retryReason: e.toolError.retry.reason,
    },
    failure: e.failure,
    outputValidation: e.outputValidation,
    truncated: e.truncated,
  };
}

export class ToolPanel extends Disposable {
  private static readonly panels = new Map<string, ToolPanel>();
  private running: AbortController | undefined;
  private pendingLoad: string | undefined;

  static show(extensionUri: vscode.Uri, service: McpService, server: ServerEntry, tool: McpTool, loadCallId?: string): ToolPanel {
    const key = `${server.id}/${tool.name}`;
    const existing = ToolPanel.panels.get(key);
    if (existing) {
      existing.panel.reveal();
      if (loadCallId) existing.load(loadCallId);
      return existing;
    }
    const panel = new ToolPanel(extensionUri, service, server, tool, loadCallId);
    ToolPanel.panels.set(key, panel);
    panel._register({ dispose: () => ToolPanel.panels.delete(key) });
    return panel;
  }

  static disposeAll(): void {
    for (const p of [...ToolPanel.panels.values()]) p.dispose();
  }

  private readonly panel: vscode.WebviewPanel;

  private constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly service: McpService,
    private readonly server: ServerEntry,
    private readonly tool: McpTool,
    loadCallId: string | undefined,
  ) {
    super();
    this.pendingLoad = loadCallId;
    const root = vscode.Uri.joinPath(extensionUri, 'dist', 'webview');
    this.panel = vscode.window.createWebviewPanel('aiGateway.toolRunner', `Tool: ${tool.name}`, vscode.ViewColumn.Active, {
      enableScripts: true,
      retainContextWhenHidden: true,
      localResourceRoots: [root],
    });
    this.panel.webview.html = this.html();
    this._register(this.panel.onDidDispose(() => this.dispose()));
    this._register(this.panel.webview.onDidReceiveMessage((m: unknown) => void this.onMessage(m)));
    this._register(service.onDidChangeHistory(() => this.post({ type: 'history', history: this.history() })));
    this._register({ dispose: () => this.running?.abort() });
  }

  override dispose(): void {
    super.dispose();
    this.panel.dispose();
  }

  private post(message: HostToWebview): void {
    void this.panel.webview.postMessage(message);
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

  private history(): CallView[] {
    return this.service.history
      .list()
      .filter((e) => e.serverId === this.server.id && e.tool === this.tool.name)
      .slice(0, 50)
      .map(toCallView);
  }

  private load(callId: string): void {
    const entry = this.service.history.get(callId);
    if (!entry) return;
    this.post({ type: 'init', tool: this.toolView(), args: entry.args, history: this.history() });
    this.post({ type: 'result', call: toCallView(entry) });
  }

  private async onMessage(raw: unknown): Promise<void> {
    if (!isWebviewToHost(raw)) return;
    const m: WebviewToHost = raw;
    switch (m.type) {
      case 'ready':
        this.post({ type: 'init', tool: this.toolView(), history: this.history() });
        if (this.pendingLoad) this.load(this.pendingLoad);
        this.pendingLoad = undefined;
        return;
      case 'run':
        return this.run(m.args);
      case 'cancel':
        this.running?.abort();
        return;
      case 'retry': {
        const entry = this.service.history.get(m.callId);
        if (!entry) return;
        // The webview disables the button too; the host is the one that enforces it (G-MCP-13).
        if (entry.toolError && !entry.toolError.retry.allowed) {
          this.post({ type: 'notRun', reason: entry.toolError.retry.reason });
          return;
        }
        return this.run(entry.args);
      }
      case 'load':
        this.load(m.callId);
        return;
      case 'copy': {
        const text = await this.service.exportRequest(this.server, this.tool.name, m.args, m.format);
        await vscode.env.clipboard.writeText(text);
        void vscode.window.showInformationMessage(m.format === 'curl' ? 'Copied as curl (token redacted: set $AI_GATEWAY_TOKEN).' : 'Copied as JSON-RPC request.');
        return;
      }
      case 'copyText':
        await vscode.env.clipboard.writeText(m.text);
        return;
      case 'openLink':
        return this.openLink(m.uri);
    }
  }

  private async run(args: Record<string, unknown>): Promise<void> {
    if (this.running) {
      this.post({ type: 'notRun', reason: 'A call of this tool is still running.' });
      return;
    }
    const abort = new AbortController();
    this.running = abort;
    this.post({ type: 'running', args });
    try {
      const out = await this.service.run(this.server, this.tool, args, abort.signal);
      if (out.kind === 'invalid') this.post({ type: 'invalidArgs', issues: out.issues });
      else if (out.kind === 'notRun') this.post({ type: 'notRun', reason: out.reason });
      else this.post({ type: 'result', call: toCallView(out.entry) });
    } catch (e) {
      this.post({ type: 'notRun', reason: e instanceof Error ? e.message : String(e) });
    } finally {
      this.running = undefined;
    }
  }

  private async openLink(uri: string): Promise<void> {
    let parsed: vscode.Uri;
    try {
      parsed = vscode.Uri.parse(uri, true);
    } catch {
      return;
    }
    if (parsed.scheme !== 'https' && parsed.scheme !== 'http') {
      void vscode.window.showInformationMessage(`This resource (${uri}) is not a web link; copy it to use it with its server.`, 'Copy').then((pick) => {
        if (pick) void vscode.env.clipboard.writeText(uri);
      });
      return;
    }
    const open = 'Open';
    const pick = await vscode.window.showInformationMessage(`Open ${uri} in the browser?`, { modal: true, detail: 'The link came from a tool result.' }, open);
    if (pick === open) await vscode.env.openExternal(parsed);
  }

  private html(): string {
    const webview = this.panel.webview;
    const nonce = randomBytes(18).toString('base64url');
    const script = webview.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview', 'tools.js'));
    const style = webview.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview', 'tools.css'));
    const csp = [
      `default-src 'none'`,
      `script-src 'nonce-${nonce}'`,
      `style-src ${webview.cspSource} 'nonce-${nonce}'`,
      // Images from results arrive as base64 content blocks: data: only, never remote.
      `img-src data:`,
      `font-src ${webview.cspSource}`,
    ].join('; ');
    return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${style.toString()}" nonce="${nonce}">
<title>Tool: ${escapeHtml(this.tool.name)}</title>
</head>
<body>
<main id="app" aria-live="polite"><p>Loading…</p></main>
<script nonce="${nonce}" src="${script.toString()}"></script>
</body>
</html>`;
  }
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
