/**
 * Chat feature, activation part: the "Chat" webview view in the AI Gateway sidebar, "Open Chat in
 * Editor" (a webview panel, restored after a reload), `aiGateway.chat.openWithModel` (used by the
 * catalog's "Open in Chat") and the view and tab title actions.
 *
 * Only the registrations are here. The controller, the history store, the agent loop and the editor
 * host (src/chat/chatWiring.ts) are imported when a chat view or tab resolves or a chat command runs
 * for the first time.
 */
import * as vscode from 'vscode';
import { registerFeatureCommands } from '../platform/commands';
import { DisposableStore } from '../core/disposables';
import type { Services } from '../services';
import type { ChatWiring } from './chatWiring';
import { CHAT_PANEL_VIEW_TYPE, CHAT_RETAINED, CHAT_VIEW_ID } from './chatIds';
import { nextTurn, type ChatPage } from './chatPage';
import { startChatPage } from './webviewHtml';

export { CHAT_VIEW_ID } from './chatIds';

/** What the chat feature uses of the services (src/services.ts composes them; only extension.ts passes the whole). */
export type ChatServices = Pick<Services, 'accountSecrets' | 'budget' | 'catalog' | 'config' | 'context' | 'getClient' | 'keys' | 'log' | 'own' | 'spend'>;

export function registerChat(services: ChatServices): vscode.Disposable {
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
  let loading: Promise<ChatWiring> | undefined;
  let disposed = false;
  const chat = (): Promise<ChatWiring> =>
    (loading ??= import('./chatWiring').then(({ createChatWiring }) => {
      wiring = createChatWiring(services, () => lastEditor);
      if (disposed) wiring.dispose();
      return wiring;
    }));
  bag.add({
    dispose: () => {
      disposed = true;
      wiring?.dispose();
    },
  });

  // The page starts loading first; the chat's code (its chunk, on the first open in a window) is
  // imported a turn later, once the HTML has left for the webview, so the two happen side by side.
  const startThenWire = async (webview: vscode.Webview, wire: (w: ChatWiring, page: ChatPage) => void): Promise<void> => {
    const page = startChatPage(webview, services.context.extensionUri);
    if (!wiring) await nextTurn();
    wire(wiring ?? (await chat()), page);
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
  bag.add(registerFeatureCommands('chat', async (register) => (await chat()).registerChatCommands(register)));
  return bag;
}
