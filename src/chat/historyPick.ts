/**
 * Conversation History: a quick pick over the saved conversations, newest first, with their dates,
 * filtered by title as the user types and, a moment later, by the text of the messages too (read on
 * demand from the history store, bounded: see HistoryStore.searchText). Each row has inline Rename
 * and Delete buttons; Delete asks first (the controller's confirmDelete). Choosing a row opens it in
 * the chat the picker was opened from.
 */
import * as vscode from 'vscode';
import type { ChatController } from '../core/chat/chatController';
import type { HistoryStore } from '../core/chat/historyStore';
import { displayLocale } from '../core/l10n';

interface Item extends vscode.QuickPickItem {
  id: string;
}

const RENAME: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('edit'), tooltip: vscode.l10n.t('Rename') };
const DELETE: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('trash'), tooltip: vscode.l10n.t('Delete') };
/** Text search waits for a pause in typing, so each keystroke does not read history files. */
const SEARCH_PAUSE_MS = 250;

function when(updatedAt: number): string {
  const d = new Date(updatedAt);
  const today = new Date();
  return d.toDateString() === today.toDateString()
    ? d.toLocaleTimeString(displayLocale(), { hour: '2-digit', minute: '2-digit' })
    : d.toLocaleDateString(displayLocale(), { year: 'numeric', month: 'short', day: 'numeric' });
}

export async function showHistory(store: HistoryStore, controller: ChatController): Promise<void> {
  const qp = vscode.window.createQuickPick<Item>();
  qp.title = vscode.l10n.t('Conversation History');
  qp.placeholder = vscode.l10n.t('Search conversations by title or text');
  qp.matchOnDescription = false;
  qp.matchOnDetail = true;
  qp.busy = true;
  let snippets = new Map<string, string>();
  let searchTimer: ReturnType<typeof setTimeout> | undefined;
  let searchSeq = 0;

  const render = async (): Promise<void> => {
    const current = controller.conversationInfo.id;
    const summaries = await store.list();
    qp.items = summaries.map((c) => {
      const snippet = snippets.get(c.id);
      return {
        id: c.id,
        label: c.title,
        description: c.id === current ? vscode.l10n.t({ message: 'current · {0}', args: [when(c.updatedAt)], comment: ['the conversation open in this chat; {0} is when it was last changed'] }) : when(c.updatedAt),
        ...(snippet ? { detail: snippet, alwaysShow: true } : {}),
        buttons: [RENAME, DELETE],
      };
    });
    qp.busy = false;
  };

  const sub = store.onDidChange(() => void render());
  qp.onDidChangeValue((value) => {
    if (searchTimer) clearTimeout(searchTimer);
    const seq = ++searchSeq;
    if (!value.trim()) {
      snippets = new Map();
      void render();
      return;
    }
    searchTimer = setTimeout(() => {
      qp.busy = true;
      void store.searchText(value).then(
        (hits) => {
          if (seq !== searchSeq) return;
          snippets = new Map(hits.map((h) => [h.id, h.snippet]));
          void render();
        },
        () => (qp.busy = false),
      );
    }, SEARCH_PAUSE_MS);
  });
  let inAction = false;
  qp.onDidTriggerItemButton(async ({ item, button }) => {
    // The picker hides while the input box or the confirmation is up, and comes back afterwards.
    inAction = true;
    try {
      if (button === RENAME) await controller.rename(item.id);
      else if (button === DELETE) await controller.deleteConversation(item.id);
      await render();
    } finally {
      inAction = false;
    }
    qp.show();
  });
  qp.onDidAccept(async () => {
    const picked = qp.selectedItems[0];
    // The conversation is posted to the chat before the picker closes: closing it keeps the
    // workbench busy, and a state posted after that waited behind it (measured: tens of ms).
    if (picked) await controller.openConversation(picked.id).catch(() => false);
    qp.hide();
  });
  qp.onDidHide(() => {
    if (inAction) return;
    if (searchTimer) clearTimeout(searchTimer);
    sub.dispose();
    qp.dispose();
  });
  qp.show();
  await render();
}
