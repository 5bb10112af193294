/**
 * Chat feature, activation part: the "Chat" webview view in the AI Gateway sidebar, "Open Chat in
 * Editor" (a webview panel, restored after a reload), `aiGateway.chat.openWithModel` (used by the
 * catalog's "Open in Chat") and the view and tab title actions.
 *
 * Only the registrations are here. The controller, the history store, the agent loop and the editor
 * host are in dist/editor.js (src/chat/chatWiring.ts), reached through the façade src/chat/chatApi.ts
 * when a chat view or tab resolves or a chat command runs for the first time.
 */
import * as vscode from 'vscode';
import { registerLazyCommands } from '../commands';
import { DisposableStore } from '../core/lifecycle';
import type { Services } from '../services';
import { chatWiring, type ChatWiring } from './chatApi';
import { CHAT_PANEL_VIEW_TYPE, CHAT_RETAINED, CHAT_VIEW_ID } from './chatIds';
import { nextTurn, type ChatPage } from './chatPage';
import { startChatPage } from './webviewHtml';

export { CHAT_VIEW_ID } from './chatIds';

export function registerChat(services: Services): vscode.Disposable {
  const bag = new DisposableStore();
  // The text editor the user was in before moving to the chat (a chat tab clears activeTextEditor):
  // tracked from activation on, so "Insert Code" behaves the same before and after the chat is loaded.
  let lastEditor = vscode.window.activeTextEditor;
  bag.add(
    vscode.window.onDidChangeActiveTextEditor((e) => {
      if (e) lastEditor = e;
    }),
  );
  let wiring: ChatWiring | undefined;
  const chat = (): ChatWiring => (wiring ??= chatWiring(services, () => lastEditor));
  bag.add({ dispose: () => wiring?.dispose() });

  // The page starts loading first; the chat's code (dist/editor.js, on the first open in a window) is
  // loaded a turn later, once the HTML has left for the webview, so the two happen side by side.
  const startThenWire = async (webview: vscode.Webview, wire: (w: ChatWiring, page: ChatPage) => void): Promise<void> => {
    const page = startChatPage(webview, services.context.extensionUri);
    if (!wiring) await nextTurn();
    wire(chat(), page);
  };
  bag.add(
    vscode.window.registerWebviewViewProvider(
      CHAT_VIEW_ID,
      { resolveWebviewView: (view) => startThenWire(view.webview, (w, page) => w.resolveView(view, page)) },
      { webviewOptions: { retainContextWhenHidden: CHAT_RETAINED } },
    ),
  );
  // Chat tabs come back after a window reload (activation event onWebviewPanel:aiGateway.chatPanel).
  bag.add(
    vscode.window.registerWebviewPanelSerializer(CHAT_PANEL_VIEW_TYPE, {
      deserializeWebviewPanel: (panel) => startThenWire(panel.webview, (w, page) => w.restorePanel(panel, page)),
    }),
  );
  bag.add(
    registerLazyCommands(
      [
        'aiGateway.chat.openInEditor',
        'aiGateway.chat.openWithModel',
        'aiGateway.chat.openAgentSession',
        'aiGateway.chat.newConversation',
        'aiGateway.chat.history',
        'aiGateway.chat.export',
        'aiGateway.chat.moveToEditor',
        'aiGateway.chat.tab.newConversation',
        'aiGateway.chat.tab.history',
        'aiGateway.chat.tab.export',
        'aiGateway.chat.moveToSidebar',
      ],
      (registerCommand) => chat().registerChatCommands(registerCommand),
    ),
  );
  return bag;
}
