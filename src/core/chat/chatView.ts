/**
 * One chat view's side of the engine, shared by the parts of the controller (chatController.ts): the
 * open conversation (the live one, liveConversations.ts), the view's request, its attachments, and
 * what the webview is sent (the state, a finished reply). The parts own the webview's messages; this
 * owns what they all read and write.
 *
 * Invariants kept here:
 * - Every assignment of `conv` is the live version for the other views showing the conversation.
 * - A failed history write changes nothing in memory (`commit`): the next state is built, saved, then
 *   assigned; on failure the webview gets the state again so it shows the old value.
 * - One request at a time per conversation (`canSend` claims it until the reply ends or `release`).
 */
import type { AgentStateView, ChatStateView, ConversationView, CostView, HostToWebview, InputMode, MessageView } from '../../protocol/chatProtocol';
import type { Model } from '../gateway/types';
import type { WireTool } from '../gateway/toolWire';
import { estimateTokens, newConversation, requestMessages, type Conversation, type StoredAttachment, type StoredMessage } from './conversation';
import type { LiveConversations, LiveMember, LiveStream } from './liveConversations';
import { alternativeFor, chatModelOptions, isRemoved } from './modelOptions';
import { costView, defaultCostFn, replyCostNano, sumNano } from './cost';
import { versionCosts, withEarlierVersions } from './replyVersions';
import { agentLabel, attachmentView, messageView, tabTitle } from './messageViews';
import type { ChatControllerDeps } from './chatDeps';

/**
 * A state carries at most this many of the conversation's last messages, as many as the webview builds
 * when it opens one: a long conversation is not read, sent and copied whole on every state, and the
 * state that opens one stays small (its size is most of what re-opening a long conversation costs in
 * the editor's path to the webview; the webview asks for earlier ones as the user scrolls up).
 */
export const STATE_TAIL = 40;

/** The message did not go out and the user has already been told why (a notice, a dialog, an error). */
export class NotSent extends Error {
  constructor() {
    super('not sent');
  }
}

export class ChatView {
  private _conv!: Conversation;
  private _active: LiveStream | undefined;
  attachments: StoredAttachment[] = [];
  /** Regenerate: the reply being replaced; the fresh reply keeps it (and its versions) as earlier versions. */
  replacing: StoredMessage | undefined;
  /** The file (its key) whose implicit attachment the user removed; the next file is offered again. */
  implicitRemoved: string | undefined;
  /** This view as a member of the live conversation it shows. */
  readonly member: LiveMember;
  /** The webview's first `ready` (or an explicit open) has chosen the conversation. */
  initialized = false;
  /** Whether the webview has had the full list since it last loaded (then it gets changes only). */
  listPosted = false;
  /** Whether the webview has said `ready` since the last time it may have been reloaded. */
  webviewReady = false;
  /** The user asked for the chat before its webview was ready: focus the input once it is. */
  focusPending = false;
  /** The agent part's toolbar state (absent without agent chat). */
  agentState: (() => AgentStateView) | undefined;
  /** Agent mode: the tools the next reply will offer (for the cost before sending); undefined when agent mode is off. */
  agentTools: (() => Promise<readonly WireTool[] | undefined>) | undefined;
  /** The agent part's answer to Approve/Deny of a call waiting in this view's stream. */
  answerApproval: (callId: string, approve: boolean) => boolean = () => false;

  constructor(
    readonly deps: ChatControllerDeps,
    readonly live: LiveConversations,
    readonly now: () => number,
    readonly newId: () => string,
  ) {
    this.member = {
      adopt: (conv, change) => {
        this._conv = conv;
        if (change.notice) this.deps.post({ type: 'notice', text: change.notice });
        if (!change.self && this.webviewReady) void this.postState();
      },
      post: (message) => this.deps.post(message),
      answerApproval: (callId, approve) => this.answerApproval(callId, approve),
    };
    this.conv = newConversation(this.newId(), this.defaultModelId() ?? '', this.now());
  }

  /** The open conversation: every assignment is the live version for the other views showing it. */
  get conv(): Conversation {
    return this._conv;
  }

  set conv(c: Conversation) {
    this._conv = this.live.show(this.member, c);
  }

  /** This view's request; the views showing the same conversation see it as theirs (busy, Stop). */
  get active(): LiveStream | undefined {
    return this._active;
  }

  set active(a: LiveStream | undefined) {
    this._active = a;
    this.live.setStream(this.member, a);
  }

  /** The request running on the open conversation: this view's, or another view's. */
  streaming(): LiveStream | undefined {
    return this.active ?? this.live.othersRequest(this.member)?.act;
  }

  /** Posts a reply's stream to every view showing this conversation. */
  poster(): (m: HostToWebview) => void {
    return this.live.poster(this.member);
  }

  /** Replays a running reply (to a webview that reloaded, or that opened the conversation meanwhile). */
  resumeStream(): void {
    const act = this.streaming();
    if (!act) return;
    const { requestId, message, pending } = act;
    const posted = message.content.slice(0, message.content.length - pending.length);
    this.deps.post({ type: 'streamStart', requestId, message: { ...this.messageView(message), content: '' } });
    if (posted) this.deps.post({ type: 'streamChunk', requestId, text: posted });
  }

  /** Saves a change made from `from` (compare-and-swap, merge or branch); resolves with what was saved. */
  saveLive(next: Conversation, from: Conversation): Promise<Conversation> {
    return this.live.save(next, from, this.member);
  }

  /** A fresh conversation on the default model (New Chat, a deleted open conversation). */
  fresh(): Conversation {
    return newConversation(this.newId(), this.defaultModelId() ?? '', this.now());
  }

  notice(text: string): void {
    this.deps.post({ type: 'notice', text });
  }

  // ---------- the model ----------

  defaultModelId(): string | undefined {
    const options = chatModelOptions(this.deps.models.chatModels(), this.now());
    const last = this.deps.prefs.lastModelId();
    if (last && options.some((o) => o.id === last)) return last;
    return options[0]?.id;
  }

  /**
   * A fresh conversation created before the catalog arrived (first run, new profile) has no model;
   * once models are known it takes the default, so the picker is never left empty.
   */
  adoptDefaultModel(): void {
    if (this.conv.modelId || this.conv.messages.length > 0 || this.conv.agentSession) return;
    const id = this.defaultModelId();
    if (id) this.conv = { ...this.conv, modelId: id };
  }

  currentModel(): Model | undefined {
    return this.conv.modelId ? this.deps.models.getModel(this.conv.modelId) : undefined;
  }

  imageInput(): boolean {
    const model = this.currentModel();
    return !!model && !!this.deps.models.visionModels?.().some((m) => m.id === model.id);
  }

  /** G-CAT-3: agent mode only for models the catalog lists under `tools`. */
  modelCanUseTools(model: Model | undefined = this.currentModel()): boolean {
    if (!model || !this.deps.models.toolModels) return false;
    return this.deps.models.toolModels().some((m) => m.id === model.id);
  }

  // ---------- what the webview is sent ----------

  totalCost(): CostView | undefined {
    // Every version of a regenerated reply was billed: all count.
    const parts = this.conv.messages.flatMap(versionCosts);
    return parts.length ? costView(sumNano(parts)) : undefined;
  }

  messageView(m: StoredMessage): MessageView {
    return messageView(m, !!this.conv.agentSession);
  }

  private conversationView(): ConversationView {
    const now = this.now();
    const model = this.currentModel();
    const options = chatModelOptions(this.deps.models.chatModels(), now);
    const removed = this.conv.modelId && (!model || isRemoved(model, now)) && this.conv.messages.length > 0;
    const total = this.totalCost();
    const suggestion = model ? alternativeFor(model, this.deps.models.chatModels())?.id : undefined;
    const tailFrom = Math.max(0, this.conv.messages.length - STATE_TAIL);
    return {
      id: this.conv.id,
      title: this.conv.title,
      modelId: this.conv.modelId,
      systemPrompt: this.conv.systemPrompt,
      ...(this.conv.temperature !== undefined ? { temperature: this.conv.temperature } : {}),
      ...(typeof this.conv.reasoningEffort === 'string' ? { reasoningEffort: this.conv.reasoningEffort } : {}),
      messages: this.conv.messages.slice(tailFrom).map((m) => this.messageView(m)),
      ...(tailFrom > 0 ? { earlier: tailFrom } : {}),
      ...(total ? { totalCost: total } : {}),
      ...(this.conv.agentSession ? { agentSession: { agentName: agentLabel(this.conv.agentSession) } } : {}),
      ...(removed && !this.conv.agentSession ? { removedModel: { modelId: this.conv.modelId, ...(suggestion ?? options[0]?.id ? { suggestion: suggestion ?? options[0]?.id } : {}) } } : {}),
    };
  }

  /** The estimated cost of sending `chars` characters once at the model's input rate (about 4 per token). */
  chipCost(chars: number): string | undefined {
    const model = this.currentModel();
    if (!model?.pricing || this.conv.agentSession) return undefined;
    const tokens = Math.ceil(chars / 4);
    const nano = replyCostNano(this.deps.costOf ?? defaultCostFn, model, { prompt_tokens: tokens, completion_tokens: 0, total_tokens: tokens });
    return nano === undefined ? undefined : `≈${costView(nano).display}`;
  }

  /** The implicit attachment as the webview shows it: the active editor's file, unless it is attached already. */
  private implicitView(): ChatStateView['implicit'] {
    const imp = this.deps.host.implicitContext?.();
    if (!imp || this.attachments.some((a) => a.kind === 'file' && a.label === imp.label)) return undefined;
    const cost = this.chipCost(imp.size);
    return { label: imp.label, size: imp.size, included: imp.key !== this.implicitRemoved, ...(cost ? { cost } : {}) };
  }

  /** The implicit attachment to send with the next message (the active file, unless removed or attached already). */
  async implicitToSend(): Promise<StoredAttachment | undefined> {
    const imp = this.deps.host.implicitContext?.();
    if (!imp || imp.key === this.implicitRemoved || !this.deps.host.implicitAttachment) return undefined;
    if (this.attachments.some((a) => a.kind === 'file' && a.label === imp.label)) return undefined;
    return this.deps.host.implicitAttachment(imp.key);
  }

  async state(): Promise<ChatStateView> {
    const now = this.now();
    const model = this.currentModel();
    const draft = requestMessages({ ...this.conv, messages: [...this.conv.messages, this.draftUserMessage('')] });
    const implicit = this.implicitView();
    return {
      models: chatModelOptions(this.deps.models.chatModels(), now, this.conv.temperature),
      selectedModelId: this.conv.modelId || undefined,
      conversation: this.conversationView(),
      attachments: this.attachments.map((a) => {
        const cost = a.kind === 'image' ? undefined : this.chipCost(a.content.length);
        return { ...attachmentView(a), ...(cost ? { cost } : {}) };
      }),
      ...(implicit ? { implicit } : {}),
      busy: this.active !== undefined || this.live.othersRequest(this.member) !== undefined,
      contextEstimate: { tokens: estimateTokens(draft) + (implicit?.included ? Math.ceil(implicit.size / 4) : 0), ...(model?.context_window ? { limit: model.context_window } : {}) },
      ...(this.deps.apiKey ? { apiKey: this.deps.apiKey() } : {}),
      ...(this.deps.agent && this.agentState ? { agent: this.agentState() } : {}),
      ...(this.imageInput() ? { imageInput: true } : {}),
    };
  }

  async postState(): Promise<void> {
    this.deps.post({ type: 'state', state: await this.state() });
    this.noteTitle();
  }

  private shownTitle: string | undefined;

  /** Tells the editor (onTitle) when the title its tab should carry changed. */
  noteTitle(): void {
    const title = tabTitle(this.conv);
    if (title === this.shownTitle) return;
    this.shownTitle = title;
    this.deps.onTitle?.(title);
  }

  restoreInput(text: string, mode: InputMode): void {
    this.deps.post(mode === 'editLast' ? { type: 'setInput', text, mode } : { type: 'setInput', text });
  }

  /**
   * Makes `next` the current conversation: saved first when it has messages (an empty one is not on
   * disk yet), assigned only once saved. On failure the in-memory state is unchanged and the webview is
   * sent it again, so a control the user just moved snaps back to the stored value. Returns whether it
   * was applied.
   */
  async commit(next: Conversation, failure = 'Could not save the change to chat history', from: Conversation = this.conv): Promise<boolean> {
    if (next.messages.length > 0) {
      next = { ...next, updatedAt: this.now() };
      try {
        next = await this.saveLive(next, from);
      } catch (e) {
        this.deps.host.showError(`${failure}: ${e instanceof Error ? e.message : String(e)}`);
        await this.postState();
        return false;
      }
    }
    this.conv = next;
    return true;
  }

  // ---------- before and after a request ----------

  draftUserMessage(text: string, implicit?: StoredAttachment): StoredMessage {
    const attachments = implicit ? [implicit, ...this.attachments] : this.attachments;
    return {
      id: this.newId(),
      role: 'user',
      content: text,
      status: 'complete',
      createdAt: this.now(),
      ...(attachments.length ? { attachments: [...attachments] } : {}),
    };
  }

  /** A user message with no attachment at all (a continuation). */
  bareUserMessage(text: string): StoredMessage {
    return { id: this.newId(), role: 'user', content: text, status: 'complete', createdAt: this.now() };
  }

  /** The budget guard; a guard that fails lets the send through (it must never cost the user's text). */
  async allowed(): Promise<boolean> {
    if (!this.deps.allowSend) return true;
    try {
      return await this.deps.allowSend();
    } catch (e) {
      this.deps.log.warn(`Budget check failed, sending anyway: ${e instanceof Error ? e.message : String(e)}`);
      return true;
    }
  }

  /** Whether a request can go out now; true also reserves the conversation (live.claim) until it ends or `release`. */
  canSend(): boolean {
    if (this.active) return false;
    if (!this.live.claim(this.member)) {
      this.notice('A reply to this conversation is on its way (here or in another chat view). Send again when it is done.');
      return false;
    }
    if (!this.canSendModel()) {
      this.live.release(this.member);
      return false;
    }
    return true;
  }

  private canSendModel(): boolean {
    // An agent session answers with its own agent: no model of ours is involved.
    if (this.conv.agentSession) return true;
    const model = this.currentModel();
    if (!model || isRemoved(model, this.now())) {
      this.notice(model ? `Model ${model.id} has been removed. Choose another model.` : 'Choose a chat model first.');
      return false;
    }
    return true;
  }

  /** Gives up the claim of `canSend` when nothing went out. */
  release(): void {
    this.live.release(this.member);
  }

  /** Saves the conversation with its finished reply, then tells the webview how the reply ended. */
  async finishReply(conv: Conversation, reply: StoredMessage, requestId: string, post: (m: HostToWebview) => void): Promise<void> {
    // A setting changed while the reply streamed (commit() replaced this.conv, sharing its messages
    // array, so the reply is in both; a merge or a branch keeps the reply object too): save the newer
    // object, or the old setting would overwrite it.
    const toSave = this.conv.messages.includes(reply) ? this.conv : conv;
    // A regenerated reply keeps the one it replaced as its earlier versions (#29.8).
    if (this.replacing) Object.assign(reply, withEarlierVersions(this.replacing));
    this.replacing = undefined;
    delete toSave.regenerating;
    toSave.updatedAt = this.now();
    try {
      await this.saveLive(toSave, toSave);
    } catch (e) {
      this.deps.host.showError(`Could not save the reply to chat history: ${e instanceof Error ? e.message : String(e)}`);
    }
    const view = this.messageView(reply);
    if (reply.status === 'complete') {
      const totalCost = this.totalCost();
      post({ type: 'streamDone', requestId, message: view, ...(totalCost ? { totalCost } : {}) });
    } else {
      post({ type: 'streamError', requestId, message: view });
    }
    await this.postState();
    // The other views showing it: the reply's end changes their state too (busy, totals).
    this.live.touch(this.member);
  }

  /** Stops this view's request and leaves the live conversation (the view is closing). */
  close(): void {
    this.active?.abort.abort();
    this.live.leave(this.member);
  }
}
