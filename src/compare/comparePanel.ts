/**
 * The Compare Models tab: a webview (src/webview/compare/main.ts, strict CSP with a nonce, built from
 * the webview kit) whose messages pass the protocol's guard (src/protocol/compareProtocol.ts) and go to
 * the vscode-free controller (src/core/compare/compareController.ts). The controller's dependencies are
 * the platform's: the shared client, the cached catalog, the budget guard, the spend ledger, the
 * token counter of the cost before sending, and the chat hand-off. Attachments are read through the
 * one checked reader of workspace files (src/core/content/workspaceFile.ts).
 */
import * as vscode from 'vscode';
import { CompareController, type CompareAttachmentText } from '../core/compare/compareController';
import { readWorkspaceFile } from '../core/content/workspaceFile';
import { isCompareWebviewToHost, type HostToCompareWebview } from '../protocol/compareProtocol';
import { continueInChat } from '../platform/chatHandoff';
import { counterFor } from '../platform/costConfirm';
import type { CompareServices } from './registerCompare';
import { loadingBody, newNonce, webviewHtml } from '../webviewKit/html';

/** Largest file that may be attached (bytes); a comparison sends it to every model. */
const MAX_ATTACHMENT_BYTES = 256 * 1024;

export class ComparePanel {
  private static current: ComparePanel | undefined;
  private readonly panel: vscode.WebviewPanel;
  private readonly controller: CompareController;

  static async show(services: CompareServices, arg?: unknown): Promise<void> {
    await services.catalog.ensureLoaded();
    if (ComparePanel.current) {
      ComparePanel.current.panel.reveal();
      return;
    }
    ComparePanel.current = new ComparePanel(services, typeof arg === 'string' ? arg : undefined);
  }

  private constructor(services: CompareServices, firstModel: string | undefined) {
    const root = vscode.Uri.joinPath(services.context.extensionUri, 'dist', 'webview');
    this.panel = vscode.window.createWebviewPanel('aiGateway.compare', vscode.l10n.t('Compare Models'), vscode.ViewColumn.Active, { enableScripts: true, retainContextWhenHidden: true, localResourceRoots: [root] });
    this.panel.iconPath = vscode.Uri.joinPath(services.context.extensionUri, 'media', 'activity.svg');
    const webview = this.panel.webview;
    webview.html = webviewHtml({
      cspSource: webview.cspSource,
      nonce: newNonce(),
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(root, 'compare.js')).toString(),
      styleUris: [webview.asWebviewUri(vscode.Uri.joinPath(root, 'compare.css')).toString()],
      title: vscode.l10n.t('Compare Models'),
      body: loadingBody(),
      l10nPage: { dir: root.fsPath, name: 'compare' },
    });
    this.controller = new CompareController({
      getClient: () => services.getClient(),
      models: () => {
        const all = services.catalog.models;
        // "Compare with…" from a model: that model first.
        return firstModel ? [...all].sort((a, b) => Number(b.id === firstModel) - Number(a.id === firstModel)) : all;
      },
      allowSend: (op) => services.budget.allowSend(op),
      record: (r) => services.spend.record(r),
      countTokens: async (model, text) => {
        const c = await counterFor(services).countWithSource(model, text, undefined, 0);
        return { tokens: c.tokens, counted: c.source === 'gateway' };
      },
      continueInChat: async (seed) => {
        await continueInChat(services, seed);
      },
      pickAttachments: () => this.pickAttachments(),
      post: (m: HostToCompareWebview) => void webview.postMessage(m),
      now: Date.now,
      log: (line) => services.log.warn(line),
    });
    const sub = webview.onDidReceiveMessage((m: unknown) => {
      if (!isCompareWebviewToHost(m)) {
        services.log.warn("Compare Models: ignored a message from the page that is not one of the compare protocol's (src/protocol/compareProtocol.ts).");
        return;
      }
      this.controller.handle(m).catch((e: unknown) => {
        const message = e instanceof Error ? e.message : String(e);
        services.log.warn(`Compare Models: ${message}`);
        void webview.postMessage({ type: 'notice', message } satisfies HostToCompareWebview);
      });
    });
    this.panel.onDidDispose(() => {
      sub.dispose();
      this.controller.dispose();
      ComparePanel.current = undefined;
    });
  }

  private async pickAttachments(): Promise<CompareAttachmentText[]> {
    const roots = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
    const picked = await vscode.window.showOpenDialog({ canSelectMany: true, openLabel: vscode.l10n.t('Attach'), title: vscode.l10n.t('Attach files to the comparison'), defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri });
    const out: CompareAttachmentText[] = [];
    for (const uri of picked ?? []) {
      try {
        const read = await readWorkspaceFile(uri.fsPath, roots, MAX_ATTACHMENT_BYTES);
        if (read.bytes.includes(0)) throw new Error(vscode.l10n.t('{0} is not a text file.', vscode.workspace.asRelativePath(uri)));
        out.push({ label: vscode.workspace.asRelativePath(uri), content: new TextDecoder().decode(read.bytes) });
      } catch (e) {
        void vscode.window.showWarningMessage(vscode.l10n.t('Not attached: {0}', e instanceof Error ? e.message : String(e)));
      }
    }
    return out;
  }
}
