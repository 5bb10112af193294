/**
 * The chat engine behind one chat view (sidebar view or editor tab). vscode-free: editor actions go
 * through `ChatEditorHost`, the gateway through `IGatewayClient`, the webview through `post`.
 *
 * Each webview message has one handler, in the part of the chat that owns it, reached through a typed
 * map keyed by the protocol's message type (`ChatHandlers`, chatDeps.ts):
 * - conversationPart.ts: the conversation shown and the history (ready, new, open, rename, delete,
 *   export, paging earlier messages in);
 * - replyStream.ts: Send, Edit, Regenerate, Stop, error actions, and streaming a plain reply;
 * - agentRun.ts: agent mode, its tools, Approve/Deny and an agent-mode reply (the tool loop);
 * - sessionChat.ts: a conversation bound to an agent session, and rating its replies;
 * - costPart.ts: the prompt's cost before sending, and pricing replies for the spend ledger;
 * - settingsPart.ts: the model and its settings, the system prompt, attachments, the editor's actions;
 * - composerPart.ts: context by typing (`#` items, `/` commands, the active file as implicit attachment).
 * What they share (the open conversation, the view's request, the state posted) is chatView.ts.
 *
 * Invariants:
 * - The user's message is saved to history before the request is sent; if that save fails nothing is
 *   sent and the text goes back into the input.
 * - One request at a time per view; `stop` aborts the HTTP request through its AbortSignal.
 * - Streamed text that arrived is never dropped: a broken or stopped stream keeps it, marked incomplete.
 * - Nothing posted to the webview holds a credential.
 * - A failed history write changes nothing in memory: the next state is built, saved, then assigned;
 *   on failure the webview gets the state again so it shows the old value.
 * - Text the webview cleared optimistically comes back (setInput, in its send/edit mode) whenever the
 *   message does not go out, whatever the reason.
 * - Views showing one conversation share it live (liveConversations.ts): a change in one reaches the
 *   others, a reply streams into all of them, one request at a time per conversation, and every
 *   save is a compare-and-swap that merges or branches, never overwriting a turn it did not see.
 */
import { randomUUID } from 'node:crypto';
import { Disposable } from '../disposables';
import type { ChatStateView, WebviewToHost } from '../../protocol/chatProtocol';
import { LiveConversations } from './liveConversations';
import type { ChatControllerDeps, ChatHandlers } from './chatDeps';
import { ChatView } from './chatView';
import { ConversationPart } from './conversationPart';
import { ReplyStream } from './replyStream';
import { AgentRun } from './agentRun';
import { SessionChat } from './sessionChat';
import { CostPart } from './costPart';
import { SettingsPart } from './settingsPart';
import { ComposerPart } from './composerPart';

export type { ChatAgentHost, ChatControllerDeps, ChatEditorHost, ChatModelSource, ChatPreferences, ContextCandidate, ImplicitContext } from './chatDeps';
export { STATE_TAIL } from './chatView';
export { EARLIER_BATCH } from './conversationPart';
export { sumRounds } from './messageViews';

export class ChatController extends Disposable {
  private readonly view: ChatView;
  private readonly conversation: ConversationPart;
  private readonly agent: AgentRun;
  private readonly session: SessionChat;
  /** Every webview message type to the one handler that owns it (the compiler checks none is missing). */
  private readonly handlers: ChatHandlers;

  constructor(deps: ChatControllerDeps) {
    super();
    const now = deps.now ?? Date.now;
    const newId = deps.newId ?? (() => randomUUID().replace(/-/g, '').slice(0, 20));
    const live = deps.live ?? this._register(new LiveConversations(deps.store, { newId, now, log: deps.log }));
    const view = (this.view = new ChatView(deps, live, now, newId));
    const cost = new CostPart(view);
    this.agent = new AgentRun(view, cost);
    this.session = new SessionChat(view);
    const settings = new SettingsPart(view, this.agent);
    this.conversation = new ConversationPart(view, this.agent);
    const stream = new ReplyStream(view, { cost, agent: this.agent, session: this.session, settings });
    const composer = new ComposerPart(view, {
      newConversation: async () => {
        await this.conversation.handlers.newConversation({ type: 'newConversation' });
      },
      pickModel: async () => {
        await settings.handlers.pickModel({ type: 'pickModel' });
      },
    });
    this.handlers = {
      ...this.conversation.handlers,
      ...stream.handlers,
      ...this.agent.handlers,
      ...this.session.handlers,
      ...cost.handlers,
      ...settings.handlers,
      ...composer.handlers,
    };
    this._register(
      deps.models.onDidChange(() => {
        view.adoptDefaultModel();
        void view.postState();
      }),
    );
    // Only the list crosses for a save, rename or delete (this view's own or another's): the open
    // conversation is already up to date here, so nothing is rebuilt or re-sent for it.
    this._register(
      deps.store.onDidChange((c) => {
        if (view.listPosted) deps.post({ type: 'conversationsChanged', upserted: c.upserted, removed: c.removed });
      }),
    );
  }

  /** Entry point for every message from the webview; anything not matching the protocol is ignored by the caller. */
  async handle(msg: WebviewToHost): Promise<void> {
    try {
      const handler = this.handlers[msg.type] as (m: WebviewToHost) => Promise<void> | void;
      await handler(msg);
    } catch (e) {
      this.view.deps.log.error(`Chat: ${msg.type} failed: ${e instanceof Error ? e.message : String(e)}`);
      this.view.deps.host.showError(`Chat: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  state(): Promise<ChatStateView> {
    return this.view.state();
  }

  /**
   * Asks the webview to focus its input: at once if it is loaded, else right after its `ready`. Only
   * for user-initiated opens (commands); a view that loads on its own must not take the keyboard.
   */
  focusInput(): void {
    if (this.view.webviewReady) this.view.deps.post({ type: 'focusInput' });
    else this.view.focusPending = true;
  }

  /** The open conversation's id and whether it is saved (has messages), for the view title actions. */
  get conversationInfo(): { id: string; saved: boolean } {
    const { conv } = this.view;
    return { id: conv.id, saved: conv.messages.length > 0 };
  }

  /** Opens a saved conversation (history pick, move between sidebar and tab). False while a reply streams or when it is gone. */
  openConversation(id: string): Promise<boolean> {
    return this.conversation.open(id);
  }

  /** Re-sends the state, e.g. when the active API key changed (the empty state names it; the tool list depends on it). */
  refresh(): void {
    this.agent.forgetToolbox();
    if (this.view.webviewReady) void this.view.postState().then(() => this.agent.ensureToolCount());
  }

  /** Re-sends the state only (the active editor changed: the implicit attachment follows it). */
  refreshState(): void {
    if (this.view.webviewReady) void this.view.postState();
  }

  rename(id: string): Promise<void> {
    return this.conversation.rename(id);
  }

  deleteConversation(id: string): Promise<void> {
    return this.conversation.delete(id);
  }

  /** Opens a new conversation bound to an agent session (Chat with Agent); see SessionChat.open. */
  openAgentSession(arg: unknown): Promise<boolean> {
    return this.session.open(arg);
  }

  /** Starts a new conversation on `modelId` (the catalog's "Open in Chat"). Returns false when that model cannot chat. */
  startWithModel(modelId: string): Promise<boolean> {
    return this.conversation.startWithModel(modelId);
  }

  /** For tests and the e2e harness: whether a request is in flight. */
  get busy(): boolean {
    return this.view.active !== undefined;
  }

  override dispose(): void {
    this.view.close();
    super.dispose();
  }
}
