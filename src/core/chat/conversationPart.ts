/**
 * The conversation a view shows, and the history: the webview's `ready` (which conversation it opens
 * with, and a running reply replayed after a reload), New Chat, opening, renaming, deleting and
 * exporting a saved conversation, and paging a long conversation's earlier messages in.
 */
import { newConversation, toMarkdown, type Conversation } from './conversation';
import { chatModelOptions } from './modelOptions';
import { answerChat, type HostToWebview } from '../../protocol/chatProtocol';
import type { HandlersFor } from './chatDeps';
import type { ChatView } from './chatView';
import type { AgentRun } from './agentRun';

/** The most messages one `loadEarlier` answer carries. */
export const EARLIER_BATCH = 100;

export class ConversationPart {
  constructor(
    private readonly view: ChatView,
    private readonly agent: AgentRun,
  ) {}

  readonly handlers: HandlersFor<'ready' | 'newConversation' | 'openConversation' | 'renameConversation' | 'deleteConversation' | 'exportConversation' | 'loadEarlier'> = {
    ready: () => this.ready(),
    newConversation: () => {
      const { view } = this;
      if (view.active) return;
      view.conv = view.fresh();
      view.attachments = [];
      return view.postState();
    },
    openConversation: async (msg) => {
      await this.open(msg.conversationId);
    },
    renameConversation: (msg) => this.rename(msg.conversationId),
    deleteConversation: (msg) => this.delete(msg.conversationId),
    exportConversation: async (msg) => {
      const { view } = this;
      const c = msg.conversationId === view.conv.id ? view.conv : await view.deps.store.load(msg.conversationId);
      if (c) await view.deps.host.exportMarkdown(`${c.title.replace(/[^\w -]+/g, '').trim() || 'conversation'}.md`, toMarkdown(c));
    },
    loadEarlier: (msg) => {
      const earlier = this.loadEarlier(msg.conversationId, msg.end);
      if (earlier) this.view.deps.post(answerChat(msg, earlier));
    },
  };

  /**
   * The first ready reopens the most recent conversation; later ones (the webview was hidden and
   * reloaded) keep the current one and resume a running stream. A reload also picks up what other
   * windows saved meanwhile (files changed on disk).
   */
  private async ready(): Promise<void> {
    const { view } = this;
    const { store } = view.deps;
    if (view.initialized) await store.refresh().catch(() => undefined);
    const conversations = await store.list().catch(() => []);
    if (!view.initialized) {
      view.initialized = true;
      const latest = conversations[0];
      const loaded = latest ? await view.live.open(latest.id) : undefined;
      if (loaded && !view.active) view.conv = loaded;
    }
    view.deps.post({ type: 'conversations', conversations });
    view.listPosted = true;
    await view.postState();
    view.webviewReady = true;
    void this.agent.ensureToolCount();
    if (view.focusPending) {
      view.focusPending = false;
      // Late: the user may have moved on while the page loaded (see HOST_TO_WEBVIEW.focusInput).
      view.deps.post({ type: 'focusInput', late: true });
    }
    view.resumeStream();
  }

  /** Sends the open conversation's messages before `end` (at most EARLIER_BATCH of them); nothing for another conversation. */
  private loadEarlier(conversationId: string, end: number): Extract<HostToWebview, { type: 'earlierMessages' }> | undefined {
    const { view } = this;
    if (conversationId !== view.conv.id) return undefined;
    const to = Math.min(end, view.conv.messages.length);
    if (to <= 0) return undefined;
    const start = Math.max(0, to - EARLIER_BATCH);
    return { type: 'earlierMessages', conversationId, start, messages: view.conv.messages.slice(start, to).map((m) => view.messageView(m)) };
  }

  /** Opens a saved conversation (history pick, move between sidebar and tab). False while a reply streams or when it is gone. */
  async open(id: string): Promise<boolean> {
    const { view } = this;
    if (view.active) return false;
    // The live one when another view shows it (with its reply still streaming, if one is).
    const c = await view.live.open(id);
    if (c) view.conv = c;
    // Chosen before the webview's first `ready`: that ready must not replace it with the most recent one.
    if (c) view.initialized = true;
    await view.postState();
    if (c) view.resumeStream();
    void this.agent.ensureToolCount();
    return c !== undefined;
  }

  async rename(id: string): Promise<void> {
    const { view } = this;
    const c = id === view.conv.id ? view.conv : await view.live.open(id);
    if (!c) return;
    const title = await view.deps.host.askTitle(c.title);
    if (title === undefined || !title.trim()) return;
    const renamed: Conversation = { ...c, title: title.trim().slice(0, 200), updatedAt: view.now() };
    if (c.id === view.conv.id) {
      if (!(await view.commit(renamed, 'Could not rename the conversation', c))) return;
    } else {
      await view.saveLive(renamed, c);
    }
    return view.postState();
  }

  async delete(id: string): Promise<void> {
    const { view } = this;
    const c = id === view.conv.id ? view.conv : await view.deps.store.load(id);
    if (!c || (view.streaming() && id === view.conv.id)) return;
    if (!(await view.deps.host.confirmDelete(c.title))) return;
    await view.deps.store.delete(id);
    if (id === view.conv.id) view.conv = view.fresh();
    return view.postState();
  }

  /** Starts a new conversation on `modelId` (the catalog's "Open in Chat"). Returns false when that model cannot chat. */
  async startWithModel(modelId: string): Promise<boolean> {
    const { view } = this;
    view.initialized = true;
    const model = view.deps.models.getModel(modelId);
    if (!model || !chatModelOptions([model], view.now()).length) {
      view.deps.host.showError(`Model ${modelId} is not available for chat.`);
      return false;
    }
    if (view.active) view.active.abort.abort();
    view.conv = newConversation(view.newId(), modelId, view.now());
    view.attachments = [];
    await view.deps.prefs.setLastModelId(modelId);
    await view.postState();
    return true;
  }
}
