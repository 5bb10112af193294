/**
 * [#40.5] The chat's activation part and wiring (src/chat/registerChat.ts, chatWiring.ts, chatIds.ts,
 * webviewHtml.ts) against the vscode double: the registered commands run as from the palette, the
 * sidebar view resolves as the workbench resolves it, and what reaches the page is checked.
 */
import { double } from '../../vscodeDouble'; // first: points `vscode` at the double
import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { registerChat } from '../../../../src/chat/registerChat';
import { CHAT_PANEL_VIEW_TYPE, CHAT_RETAINED, CHAT_VIEW_ID } from '../../../../src/chat/chatIds';
import { chatHtml, chatWebviewOptions } from '../../../../src/chat/webviewHtml';
import { Services } from '../../../../src/services';
import { createChatWiring } from '../../../../src/chat/chatWiring';
import { until as untilHolds } from '../world';

let services: Services;
let chat: vscode.Disposable;

beforeEach(() => {
  double.reset();
  services = new Services(double.extensionContext() as unknown as vscode.ExtensionContext);
  chat = registerChat(services);
  // The workbench resolves the sidebar view when its focus command runs the first time, and shows
  // (expands, brings its container back) the resolved view every time after.
  double.commandResult(`${CHAT_VIEW_ID}.focus`, () => {
    if (double.webviewViews.length === 0) return double.resolveWebviewView(CHAT_VIEW_ID);
    for (const v of double.webviewViews) v.setVisible(true);
    return undefined;
  });
});
afterEach(() => {
  chat.dispose();
  services.dispose();
});

const focusRuns = () => double.executed.filter((e) => e.command === `${CHAT_VIEW_ID}.focus`).length;
/** Resolves once `pred` holds (the view resolves over a few turns: its page first, the wiring's import next,
 * which on a busy machine takes more than a fixed number of turns: the shared bound decides only failure). */
const until = (pred: () => boolean): Promise<void> => untilHolds(pred);

/** Resolves once `pred` holds, polling (the chip's size is re-sent after a pause in the edits); fails after 10 s. */
async function waitFor(pred: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 500 && !pred(); i++) await new Promise((r) => setTimeout(r, 20));
  assert.ok(pred(), `never: ${what}`);
}

describe('[#40.5] the chat view and its commands (src/chat/chatWiring.ts, registerChat.ts)', () => {
  test('[#40.5] Open Chat resolves the sidebar view through its focus command, and its input gets the keyboard once the page is ready', async () => {
    await vscode.commands.executeCommand('aiGateway.chat.open');
    assert.equal(focusRuns(), 1);
    assert.equal(double.webviewViews.length, 1);
    const view = double.webviewViews[0];
    assert.equal(view.viewType, CHAT_VIEW_ID);
    // The page asks for its state; the pending focus goes out with it.
    view.webview.send({ type: 'ready' });
    await until(() => view.webview.posted.some((m) => (m as { type: string }).type === 'focusInput'));
    assert.ok(view.webview.posted.some((m) => (m as { type: string }).type === 'state'));
  });

  test('[#41.1] once the view has been shown and then hidden (Explorer shown), Open Chat runs the view\'s focus command again and focuses the input', async () => {
    await vscode.commands.executeCommand('aiGateway.chat.open');
    assert.equal(focusRuns(), 1);
    const view = double.webviewViews[0];
    view.webview.send({ type: 'ready' });
    const focusPosts = () => view.webview.posted.filter((m) => (m as { type: string }).type === 'focusInput').length;
    await until(() => focusPosts() === 1);
    view.setVisible(false); // the side bar shows the Explorer (or the view was collapsed)
    await vscode.commands.executeCommand('aiGateway.chat.open');
    assert.equal(focusRuns(), 2);
    // Focused, not merely shown: the command ran without { preserveFocus }.
    assert.deepEqual(double.executed.filter((e) => e.command === `${CHAT_VIEW_ID}.focus`).at(-1)?.args, []);
    assert.equal(view.visible, true);
    assert.equal(focusPosts(), 2);
    // The same view and page: the view was not resolved again.
    assert.equal(double.webviewViews.length, 1);
  });

  test('[#41.1] Conversation History on a hidden, resolved view shows it unfocused (the QuickPick keeps the keyboard)', async () => {
    await vscode.commands.executeCommand('aiGateway.chat.open');
    const view = double.webviewViews[0];
    view.webview.send({ type: 'ready' });
    await until(() => view.webview.posted.some((m) => (m as { type: string }).type === 'state'));
    view.setVisible(false);
    await vscode.commands.executeCommand('aiGateway.chat.history');
    assert.deepEqual(double.executed.filter((e) => e.command === `${CHAT_VIEW_ID}.focus`).at(-1)?.args, [{ preserveFocus: true }]);
    assert.equal(view.visible, true);
  });

  test('[#41.11] the implicit file chip\'s size follows the document: an edit, then Undo, and the size is the file\'s again', async () => {
    double.setWorkspaceFolders(['/work']);
    const before = '# Hello\n\n' + 'word '.repeat(224); // 1,129 characters: "1.1k chars"
    const doc = double.openDocument(before, { uri: vscode.Uri.file('/work/posts/hello.md'), languageId: 'markdown' });
    double.setActiveEditor(doc);
    await vscode.commands.executeCommand('aiGateway.chat.open');
    const view = double.webviewViews[0];
    view.webview.send({ type: 'ready' });
    const lastSize = () => view.webview.posted.filter((m) => (m as { type: string }).type === 'state').map((m) => (m as { state: { implicit?: { size: number } } }).state.implicit?.size).at(-1);
    // The page's answer to `ready` (its state, then the focus Open Chat asked for) has gone out: from here on,
    // only an edit can send the state again.
    await waitFor(() => view.webview.posted.some((m) => (m as { type: string }).type === 'focusInput'), 'the page ready');
    assert.equal(lastSize(), before.length);
    doc.setText(`${before}\n\nA second paragraph the model wrote, undone next.`);
    await waitFor(() => lastSize() === before.length + 50, 'the chip with the edited size');
    doc.setText(before); // Undo
    await waitFor(() => lastSize() === before.length, 'the chip back at the file\'s size after Undo');
  });

  test('[#40.5] Open Chat in Editor opens a chat tab beside, kept while hidden, with the chat page', async () => {
    await vscode.commands.executeCommand('aiGateway.chat.openInEditor');
    assert.equal(double.webviewPanels.length, 1);
    const panel = double.webviewPanels[0];
    assert.equal(panel.viewType, CHAT_PANEL_VIEW_TYPE);
    assert.equal(panel.viewColumn, vscode.ViewColumn.Beside);
    assert.equal(panel.options.retainContextWhenHidden, CHAT_RETAINED);
    assert.match(String(panel.webview.html), /<div id="app"><\/div>/);
    assert.equal((panel.webview.options as vscode.WebviewOptions).enableCommandUris, false);
  });

  test('[#40.5] Move Chat to Sidebar refuses while the tab\'s reply is streaming? no: an idle tab moves and closes', async () => {
    await vscode.commands.executeCommand('aiGateway.chat.openInEditor');
    const panel = double.webviewPanels[0];
    await vscode.commands.executeCommand('aiGateway.chat.moveToSidebar');
    assert.equal(panel.disposed, true);
    assert.equal(double.webviewViews.length, 1);
  });

  test('[#40.5] Stop Chat Reply with no chat open does nothing and shows nothing', async () => {
    await vscode.commands.executeCommand('aiGateway.chat.stop');
    assert.equal(double.messages.length, 0);
    assert.equal(double.webviewPanels.length, 0);
  });

  test('[#40.5] the wiring on its own: New Chat in a tab with no tab open does nothing', async () => {
    const wiring = createChatWiring(services, () => undefined);
    const handlers = new Map<string, (...a: unknown[]) => unknown>();
    const d = wiring.registerChatCommands((id, fn) => (handlers.set(id, fn), new vscode.Disposable(() => handlers.delete(id))));
    assert.ok(handlers.has('aiGateway.chat.open') && handlers.has('aiGateway.chat.moveToSidebar'));
    await handlers.get('aiGateway.chat.tab.newConversation')!();
    assert.equal(double.webviewPanels.length, 0);
    assert.equal(double.messages.length, 0);
    d.dispose();
    assert.equal(handlers.size, 0);
    wiring.dispose();
  });

  test('[#40.5] Chat Accessibility Help: a modal with the chat\'s keys', async () => {
    await vscode.commands.executeCommand('aiGateway.chat.accessibilityHelp');
    const [m] = double.messages;
    assert.equal(m.options.modal, true);
    assert.ok((m.options.detail ?? '').length > 20);
  });
});

describe('[#40.5] the chat page shell (src/chat/webviewHtml.ts)', () => {
  const webview = () => {
    const panel = vscode.window.createWebviewPanel('t', 't', vscode.ViewColumn.One, {});
    return panel.webview;
  };

  test('[#40.5] a strict CSP: default-src none, scripts by nonce only, no remote host anywhere', () => {
    const wv = webview();
    const html = chatHtml(wv, vscode.Uri.file('/ext'));
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1];
    assert.ok(csp, 'a CSP meta tag');
    assert.match(csp, /default-src 'none'/);
    const nonce = /script-src 'nonce-([^']+)'/.exec(csp)?.[1];
    assert.ok(nonce, 'script-src by nonce');
    assert.doesNotMatch(csp, /script-src[^;]*(unsafe-inline|unsafe-eval|https?:)/);
    for (const tag of html.match(/<script\b[^>]*>/g) ?? []) assert.ok(tag.includes(`nonce="${nonce}"`), `script without the nonce: ${tag}`);
    // Only the webview's own resource origin: nothing is loaded from the network.
    assert.doesNotMatch(html.replaceAll(wv.cspSource, ''), /https?:\/\//);
  });

  test('[#40.5] each page gets a fresh nonce', () => {
    const wv = webview();
    const n = (h: string) => /nonce-([^']+)'/.exec(h)?.[1];
    assert.notEqual(n(chatHtml(wv, vscode.Uri.file('/ext'))), n(chatHtml(wv, vscode.Uri.file('/ext'))));
  });

  test('[#40.5] scripts on, command URIs off, resources only from dist/webview and media', () => {
    const o = chatWebviewOptions(vscode.Uri.file('/ext'));
    assert.equal(o.enableScripts, true);
    assert.equal(o.enableCommandUris, false);
    assert.deepEqual(o.localResourceRoots?.map((u) => u.path), ['/ext/dist/webview', '/ext/media']);
  });
});
