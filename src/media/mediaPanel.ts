/**
 * One webview panel per media result (image preview, read-aloud player), from the webview kit: its
 * shell and CSP (images and, for the player, audio from data: URIs only), its script and stylesheet
 * from dist/webview. The host keeps the bytes; the page only shows them and asks for actions.
 */
import * as vscode from 'vscode';
import { Disposable } from '../core/disposables';
import type { Logger } from '../core/log';
import { isMediaWebviewToHost, type HostToMediaWebview, type MediaHostHandlers } from '../protocol/mediaProtocol';
import { dispatch } from '../protocol/declare';
import { loadingBody, newNonce, webviewHtml } from '../webviewKit/html';
import { PanelRegistry } from '../webviewKit/panels';

export type MediaPage = 'mediaImage' | 'mediaAudio';

export class MediaPanel extends Disposable {
  static readonly panels = new PanelRegistry<number, MediaPanel>();
  private static next = 0;

  private readonly panel: vscode.WebviewPanel;
  private ready = false;
  private disposed = false;
  private pending: HostToMediaWebview[] = [];

  constructor(
    extensionUri: vscode.Uri,
    page: MediaPage,
    title: string,
    first: HostToMediaWebview,
    /** The page's actions (save, insert, discard), given this panel. */
    actions: (panel: MediaPanel) => MediaHostHandlers,
    log: Pick<Logger, 'warn'>,
  ) {
    super();
    const root = vscode.Uri.joinPath(extensionUri, 'dist', 'webview');
    this.panel = vscode.window.createWebviewPanel(page === 'mediaImage' ? 'aiGateway.imagePreview' : 'aiGateway.readAloud', title, vscode.ViewColumn.Beside, {
      enableScripts: true,
      retainContextWhenHidden: true,
      localResourceRoots: [root],
    });
    const webview = this.panel.webview;
    webview.html = webviewHtml({
      cspSource: webview.cspSource,
      nonce: newNonce(),
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(root, `${page}.js`)).toString(),
      styleUris: [webview.asWebviewUri(vscode.Uri.joinPath(root, `${page}.css`)).toString()],
      title,
      dataMedia: page === 'mediaAudio',
      body: loadingBody(),
      l10nPage: { dir: root.fsPath, name: page },
    });
    this.pending.push(first);
    const handlers = actions(this);
    this._register({ dispose: MediaPanel.panels.add(MediaPanel.next++, this) });
    this._register(this.panel.onDidDispose(() => this.dispose()));
    this._register(
      webview.onDidReceiveMessage((m: unknown) => {
        if (!isMediaWebviewToHost(m)) {
          log.warn(`${title}: ignored a message from the page that is not one of the media protocol's (src/protocol/mediaProtocol.ts).`);
          return;
        }
        if (m.type === 'ready') {
          this.ready = true;
          for (const p of this.pending.splice(0)) void webview.postMessage(p);
          return;
        }
        void dispatch(handlers, m);
      }),
    );
  }

  post(m: HostToMediaWebview): void {
    if (this.ready) void this.panel.webview.postMessage(m);
    else this.pending.push(m);
  }

  status(text: string, busy = false): void {
    this.post({ type: 'status', text, busy });
  }

  override dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    super.dispose();
    this.panel.dispose();
  }
}
