/**
 * The chat webview's HTML shell, from the webview kit (src/webviewKit/html.ts): strict CSP, our own
 * script by nonce and our own stylesheet, no remote anything. Images only from the extension or data:
 * URIs (model output never produces <img>: the renderer turns images into placeholders).
 *
 * The page is an ES module, dist/webview/chat.js; it loads its Markdown renderer, chat-renderer.js
 * beside it, with `import()` once it is usable (src/webview/chat/rendererLoader.ts). A module that a
 * nonce'd module script imports inherits its nonce, so the CSP stays `script-src 'nonce-…'` alone; the
 * renderer is preloaded from the start (without holding the page's load event) and lies in dist/webview,
 * a local resource root.
 */
import * as vscode from 'vscode';
import { newNonce, webviewHtml } from '../webviewKit/html';
import { ChatPage } from './chatPage';

export function chatWebviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return {
    enableScripts: true,
    enableCommandUris: false,
    localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist', 'webview'), vscode.Uri.joinPath(extensionUri, 'media')],
  };
}

export function chatHtml(webview: vscode.Webview, extensionUri: vscode.Uri): string {
  return webviewHtml({
    cspSource: webview.cspSource,
    nonce: newNonce(),
    scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview', 'chat.js')).toString(),
    module: true,
    preloadModules: [webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview', 'chat-renderer.js')).toString()],
    styleUris: [webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', 'chat.css')).toString()],
    // The composer's icons: chat.css's @font-face, fetched with the script rather than after it.
    preloadFonts: [webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', 'codicons', 'codicon.ttf')).toString()],
    title: vscode.l10n.t('AI Gateway Chat'),
    body: '<div id="app"></div>',
    localImages: true,
    // Only the messages of chat.js and chat-renderer.js (src/webviewKit/l10nKeys.ts).
    l10nPage: { dir: vscode.Uri.joinPath(extensionUri, 'dist', 'webview').fsPath, name: 'chat' },
  });
}

/** Sets a chat webview's options and HTML: its page starts loading now; its messages wait in the ChatPage. */
export function startChatPage(webview: vscode.Webview, extensionUri: vscode.Uri): ChatPage {
  const page = new ChatPage(webview);
  webview.options = chatWebviewOptions(extensionUri);
  webview.html = chatHtml(webview, extensionUri);
  return page;
}
