/**
 * The chat engine behind one chat view (sidebar view or editor tab). vscode-free: editor actions go
 * through `ChatEditorHost`, the gateway through `IGatewayClient`, the webview through `post`.
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
import type { IGatewayClient } from '../gateway/api';
import type { ChatCompletionRequest, Model, Usage } from '../gateway/types';
import { isGatewayError } from '../http/errors';
import { Disposable, type Event } from '../lifecycle';
import type { Logger } from '../log';
import type {
  AttachmentView,
  ChatErrorView,
  ChatStateView,
  ConversationView,
  CostView,
  ReplyRating,
  ErrorAction,
  HostToWebview,
  InputMode,
  MessageView,
  ModelOptionView,
  AgentStateView,
  RoundView,
  ToolCallView,
  WebviewToHost,
} from '../../shared/chatProtocol';
import {
  estimateTokens,
  lastIndexOfRole,
  newConversation,
  requestMessages,
  titleFrom,
  wireRequestMessages,
  hasImages,
  toMarkdown,
  withAttachments,
  type Conversation,
  type StoredAttachment,
  type StoredMessage,
} from './conversation';
import { toChatErrorView } from './errorView';
import { sendFeedback, sendSessionMessage } from '../agents/agentsClient';
import { asChatRequest } from '../gateway/toolWire';
import type { CostBeforeSending } from '../spend/costEstimate';
import { promptCostText } from '../spend/promptCost';
import { toolCallHeaders } from '../agent/toolbox';
import { runAgent, DEFAULT_MAX_ROUNDS, type AgentRound, type AgentTool, type AgentToolbox, type AgentToolCall, type ApprovalRequest, type ToolCallOutcome } from '../agent/agentLoop';
import type { OutcomeLedger } from '../mcp/outcomeLedger';
import type { HistoryStore } from './historyStore';
import { LiveConversations, type LiveMember, type LiveStream } from './liveConversations';
import { alternativeFor, chatModelOptions, isRemoved, temperatureToSend } from './modelOptions';
import { costView, defaultCostFn, replyCostNano, sumNano, type CostFn } from './cost';

/**
 * A state carries at most this many of the conversation's last messages, as many as the webview builds
 * when it opens one: a long conversation is not read, sent and copied whole on every state, and the
 * state that opens one stays small (its size is most of what re-opening a long conversation costs in
 * the editor's path to the webview; the webview asks for earlier ones as the user scrolls up).
 */
export const STATE_TAIL = 40;
/** The most messages one `loadEarlier` answer carries. */
export const EARLIER_BATCH = 100;

export interface ChatModelSource {
  /** Chat-capable models from the cached catalog (removed ones may be included; they are filtered). */
  chatModels(): readonly Model[];
  /** Any catalog entry by id, including removed ones. */
  getModel(id: string): Model | undefined;
  /** Models that can call tools (the catalog's modelsFor('tools')); agent mode is offered only for these. */
  toolModels?(): readonly Model[];
  /** Models that take images (modelsFor('vision')); image attachments are offered only for these. */
  visionModels?(): readonly Model[];
  onDidChange: Event<unknown>;
}

export interface ChatPreferences {
  lastModelId(): string | undefined;
  setLastModelId(id: string): void | Promise<void>;
}

/** Editor actions the engine asks for; implemented by src/chat with the vscode API. */
export interface ChatEditorHost {
  copy(text: string): Promise<void>;
  insertCode(code: string, language: string | undefined): Promise<void>;
  newFile(code: string, language: string | undefined): Promise<void>;
  /** Opens through the OS; confirms first when the link is not https. */
  openLink(href: string): Promise<void>;
  setApiKey(): Promise<void>;
  pickAttachments(kind: 'selection' | 'file' | 'workspace' | 'image'): Promise<StoredAttachment[]>;
  /** The attach menu: which kind to attach, or undefined when dismissed. `image` is offered only when `withImage`. */
  pickAttachKind?(withImage?: boolean): Promise<'selection' | 'file' | 'workspace' | 'image' | undefined>;
  /** The model menu over `options` (the current one marked); the chosen id, or undefined when dismissed. */
  pickModel?(options: readonly ModelOptionView[], currentId: string | undefined): Promise<string | undefined>;
  askTitle(current: string): Promise<string | undefined>;
  confirmDelete(title: string): Promise<boolean>;
  confirmContextOverflow(tokens: number, limit: number): Promise<boolean>;
  exportMarkdown(suggestedName: string, markdown: string): Promise<void>;
  showError(message: string): void;
}

/**
 * Agent chat's editor side (src/chat/agentHost.ts): the MCP tools, the settings and the shared
 * outcome-unknown ledger. Optional: without it the chat has no agent mode.
 */
export interface ChatAgentHost {
  /** aiGateway.chat.agent.maxRounds */
  maxRounds(): number;
  /** aiGateway.mcp.confirmReadOnlyAbilities (user setting only). */
  confirmReadOnlyAbilities(): boolean;
  ledger: OutcomeLedger;
  /**
   * The gateway's tools for the active credential plus those of the other servers in `choice.servers`
   * (ids); the knowledge-base search tool only when `choice.kbSearch`.
   */
  toolbox(servers: readonly string[], choice?: { kbSearch?: boolean }): Promise<AgentToolbox>;
  /** `headers`: extra headers for this call only (the agent session's, on knowledge-base tools). */
  callTool(tool: AgentTool, args: Record<string, unknown>, signal: AbortSignal, headers?: Readonly<Record<string, string>>): Promise<ToolCallOutcome>;
  abilityReadOnly(site: string, ability: string, signal: AbortSignal): Promise<boolean>;
  /**
   * Lets the user choose which other MCP servers agent chat may use, and whether the knowledge-base
   * search tool is on; the new choice, or undefined when dismissed.
   */
  pickServers(enabled: readonly string[], kbSearch: boolean): Promise<{ servers: string[]; kbSearch: boolean } | undefined>;
}

export interface ChatControllerDeps {
  getClient(): Promise<IGatewayClient>;
  models: ChatModelSource;
  store: HistoryStore;
  prefs: ChatPreferences;
  host: ChatEditorHost;
  post(message: HostToWebview): void;
  log: Logger;
  /** The active API key by name (never the secret), for the empty state. */
  apiKey?: () => ChatStateView['apiKey'];
  /** Defaults to core/pricing.ts usageCostNano. */
  costOf?: CostFn;
  /**
   * Asked before every request (send, edit, regenerate); false means nothing is sent and typed text
   * comes back. The editor wires the spending budget here (its guard asks the user itself).
   */
  allowSend?: () => Promise<boolean>;
  /**
   * Called once per reply (per agent round) that reported usage, for the local spend ledger. Must not
   * throw; may return the write, which the budget guard of the next agent round waits for.
   */
  onPriced?: (reply: { model: string; usage: Usage; pricing?: Model['pricing']; requestId?: string }) => void | Promise<unknown>;
  /**
   * Cost before sending: prices what Send would send now (src/core/spend/promptCost.ts, debounced and
   * cached there, never one count per keystroke). Absent: the input shows no cost.
   */
  promptCost?: { request(model: string, text: string): Promise<CostBeforeSending | undefined>; cancel(): void };
  now?: () => number;
  newId?: () => string;
  agent?: ChatAgentHost;
  /**
   * The conversations open in this window's chat views (one per window, over `store`): views showing
   * the same conversation share it live. Absent: this controller's own (tests of one view).
   */
  live?: LiveConversations;
}

const CHUNK_COALESCE_MS = 16;

type ActiveRequest = LiveStream;

export class ChatController extends Disposable {
  private _conv!: Conversation;
  private _active: ActiveRequest | undefined;
  private attachments: StoredAttachment[] = [];
  private readonly live: LiveConversations;
  /** This view as a member of the live conversation it shows. */
  private readonly member: LiveMember;
  private initialized = false;
  /** Whether the webview has had the full list since it last loaded (then it gets changes only). */
  private listPosted = false;
  /** Whether the webview has said `ready` since the last time it may have been reloaded. */
  private webviewReady = false;
  /** The user asked for the chat before its webview was ready: focus the input once it is. */
  private focusPending = false;
  /** Agent chat: the tool list last loaded (for the count), and what it was loaded for. */
  private toolbox: { key: string; box?: AgentToolbox; error?: string } | undefined;
  /** Tool calls waiting for Approve/Deny in the transcript, by call id. */
  private readonly approvals = new Map<string, (approved: boolean) => void>();
  private readonly now: () => number;
  private readonly newId: () => string;

  constructor(private readonly deps: ChatControllerDeps) {
    super();
    this.now = deps.now ?? Date.now;
    this.newId = deps.newId ?? (() => randomUUID().replace(/-/g, '').slice(0, 20));
    this.live = deps.live ?? this._register(new LiveConversations(deps.store, { newId: this.newId, now: this.now, log: deps.log }));
    this.member = {
      adopt: (conv, change) => {
        this._conv = conv;
        if (change.notice) this.deps.post({ type: 'notice', text: change.notice });
        if (!change.self && this.webviewReady) void this.postState();
      },
      post: (message) => this.deps.post(message),
      answerApproval: (callId, approve) => {
        const resolve = this.approvals.get(callId);
        if (!resolve) return false;
        this.approvals.delete(callId);
        resolve(approve);
        return true;
      },
    };
    this.conv = newConversation(this.newId(), this.defaultModelId() ?? '', this.now());
    this._register(
      deps.models.onDidChange(() => {
        this.adoptDefaultModel();
        void this.postState();
      }),
    );
    // Only the list crosses for a save, rename or delete (this view's own or another's): the open
    // conversation is already up to date here, so nothing is rebuilt or re-sent for it.
    this._register(
      deps.store.onDidChange((c) => {
        if (this.listPosted) this.deps.post({ type: 'conversationsChanged', upserted: c.upserted, removed: c.removed });
      }),
    );
  }

  /** The open conversation: every assignment is the live version for the other views showing it. */
  private get conv(): Conversation {
    return this._conv;
  }

  private set conv(c: Conversation) {
    this._conv = this.live.show(this.member, c);
  }

  /** This view's request; the views showing the same conversation see it as theirs (busy, Stop). */
  private get active(): ActiveRequest | undefined {
    return this._active;
  }

  private set active(a: ActiveRequest | undefined) {
    this._active = a;
    this.live.setStream(this.member, a);
  }

  /** The request running on the open conversation: this view's, or another view's. */
  private streaming(): ActiveRequest | undefined {
    return this.active ?? this.live.othersRequest(this.member)?.act;
  }

  /** Replays a running reply (to a webview that reloaded, or that opened the conversation meanwhile). */
  private resumeStream(): void {
    const act = this.streaming();
    if (!act) return;
    const { requestId, message, pending } = act;
    const posted = message.content.slice(0, message.content.length - pending.length);
    this.deps.post({ type: 'streamStart', requestId, message: { ...this.messageView(message), content: '' } });
    if (posted) this.deps.post({ type: 'streamChunk', requestId, text: posted });
  }

  /** Saves a change made from `from` (compare-and-swap, merge or branch); resolves with what was saved. */
  private saveLive(next: Conversation, from: Conversation): Promise<Conversation> {
    return this.live.save(next, from, this.member);
  }

  /** Entry point for every message from the webview; anything not matching the protocol is ignored by the caller. */
  async handle(msg: WebviewToHost): Promise<void> {
    try {
      await this.dispatch(msg);
    } catch (e) {
      this.deps.log.error(`Chat: ${msg.type} failed: ${e instanceof Error ? e.message : String(e)}`);
      this.deps.host.showError(`Chat: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  private async dispatch(msg: WebviewToHost): Promise<void> {
    switch (msg.type) {
      case 'ready': {
        // The first ready reopens the most recent conversation; later ones (the webview was hidden and
        // reloaded) keep the current one and resume a running stream.
        // A reload also picks up what other windows saved meanwhile (files changed on disk).
        if (this.initialized) await this.deps.store.refresh().catch(() => undefined);
        const conversations = await this.deps.store.list().catch(() => []);
        if (!this.initialized) {
          this.initialized = true;
          const latest = conversations[0];
          const loaded = latest ? await this.live.open(latest.id) : undefined;
          if (loaded && !this.active) this.conv = loaded;
        }
        this.deps.post({ type: 'conversations', conversations });
        this.listPosted = true;
        await this.postState();
        this.webviewReady = true;
        void this.ensureToolCount();
        if (this.focusPending) {
          this.focusPending = false;
          this.deps.post({ type: 'focusInput' });
        }
        this.resumeStream();
        return;
      }
      case 'draft':
        return this.onDraft(msg.text);
      case 'send':
        this.clearPromptCost();
        return this.send(msg.text);
      case 'stop':
        this.streaming()?.abort.abort();
        return;
      case 'setAgent':
        return this.setAgent(msg.on);
      case 'agentTools':
        return this.pickAgentServers();
      case 'toolApproval': {
        const resolve = this.approvals.get(msg.callId);
        if (resolve) {
          this.approvals.delete(msg.callId);
          resolve(msg.approve);
        } else this.live.answerApproval(this.member, msg.callId, msg.approve);
        return;
      }
      case 'regenerate':
        return this.regenerate();
      case 'editLast':
        return this.editLast(msg.text);
      case 'selectModel':
        return this.selectModel(msg.modelId);
      case 'setTemperature': {
        const next: Conversation = { ...this.conv };
        if (msg.value === null) delete next.temperature;
        else next.temperature = msg.value;
        await this.commit(next);
        return;
      }
      case 'setSystemPrompt':
        await this.commit({ ...this.conv, systemPrompt: msg.text });
        return;
      case 'newConversation':
        if (this.active) return;
        this.conv = newConversation(this.newId(), this.defaultModelId() ?? '', this.now());
        this.attachments = [];
        return this.postState();
      case 'openConversation':
        await this.openConversation(msg.conversationId);
        return;
      case 'renameConversation':
        return this.rename(msg.conversationId);
      case 'deleteConversation':
        return this.deleteConversation(msg.conversationId);
      case 'exportConversation': {
        const c = msg.conversationId === this.conv.id ? this.conv : await this.deps.store.load(msg.conversationId);
        if (c) await this.deps.host.exportMarkdown(`${c.title.replace(/[^\w -]+/g, '').trim() || 'conversation'}.md`, toMarkdown(c));
        return;
      }
      case 'attach':
        return this.attach(msg.kind);
      case 'attachMenu': {
        const kind = await this.deps.host.pickAttachKind?.(this.imageInput());
        return kind ? this.attach(kind) : undefined;
      }
      case 'pickModel': {
        const id = await this.deps.host.pickModel?.(chatModelOptions(this.deps.models.chatModels(), this.now(), this.conv.temperature), this.conv.modelId || undefined);
        return id ? this.selectModel(id) : undefined;
      }
      case 'setApiKey':
        return this.deps.host.setApiKey();
      case 'removeAttachment':
        this.attachments = this.attachments.filter((a) => a.id !== msg.attachmentId);
        return this.postState();
      case 'copy':
        return this.deps.host.copy(msg.text);
      case 'insertCode':
        return this.deps.host.insertCode(msg.code, msg.language);
      case 'newFile':
        return this.deps.host.newFile(msg.code, msg.language);
      case 'openLink':
        return this.deps.host.openLink(msg.href);
      case 'errorAction':
        return this.errorAction(msg.action, msg.messageId);
      case 'rateReply':
        return this.rateReply(msg.messageId, msg.rating);
      case 'loadEarlier':
        return this.loadEarlier(msg.conversationId, msg.end);
    }
  }

  /** Sends the open conversation's messages before `end` (at most EARLIER_BATCH of them); nothing for another conversation. */
  private loadEarlier(conversationId: string, end: number): void {
    if (conversationId !== this.conv.id) return;
    const to = Math.min(end, this.conv.messages.length);
    if (to <= 0) return;
    const start = Math.max(0, to - EARLIER_BATCH);
    this.deps.post({ type: 'earlierMessages', conversationId, start, messages: this.conv.messages.slice(start, to).map((m) => this.messageView(m)) });
  }

  // ---------- state ----------

  private defaultModelId(): string | undefined {
    const options = chatModelOptions(this.deps.models.chatModels(), this.now());
    const last = this.deps.prefs.lastModelId();
    if (last && options.some((o) => o.id === last)) return last;
    return options[0]?.id;
  }

  /**
   * A fresh conversation created before the catalog arrived (first run, new profile) has no model;
   * once models are known it takes the default, so the picker is never left empty.
   */
  private adoptDefaultModel(): void {
    if (this.conv.modelId || this.conv.messages.length > 0 || this.conv.agentSession) return;
    const id = this.defaultModelId();
    if (id) this.conv = { ...this.conv, modelId: id };
  }

  private currentModel(): Model | undefined {
    return this.conv.modelId ? this.deps.models.getModel(this.conv.modelId) : undefined;
  }

  private totalCost(): CostView | undefined {
    const parts = this.conv.messages.map((m) => m.costNano).filter((x): x is string => x !== undefined);
    return parts.length ? costView(sumNano(parts)) : undefined;
  }

  private messageView(m: StoredMessage): MessageView {
    return {
      id: m.id,
      role: m.role,
      content: m.content,
      status: m.status,
      ...(m.attachments?.length ? { attachments: m.attachments.map(attachmentView) } : {}),
      ...(m.usage ? { usage: usageView(m.usage) } : {}),
      ...(m.costNano !== undefined ? { cost: costView(BigInt(m.costNano)) } : {}),
      ...(m.error ? { error: m.error } : {}),
      ...(m.modelId ? { modelId: m.modelId } : {}),
      ...(m.toolCalls?.length ? { toolCalls: m.toolCalls.map(toolCallView) } : {}),
      ...(m.rounds?.length ? { rounds: m.rounds.map(roundView) } : {}),
      // Only replies of an agent session that carry a response id can be rated.
      ...(m.role === 'assistant' && m.responseId && this.conv.agentSession ? { feedback: m.feedback ? { rating: m.feedback } : {} } : {}),
    };
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
      messages: this.conv.messages.slice(tailFrom).map((m) => this.messageView(m)),
      ...(tailFrom > 0 ? { earlier: tailFrom } : {}),
      ...(total ? { totalCost: total } : {}),
      ...(this.conv.agentSession ? { agentSession: { agentName: agentLabel(this.conv.agentSession) } } : {}),
      ...(removed && !this.conv.agentSession ? { removedModel: { modelId: this.conv.modelId, ...(suggestion ?? options[0]?.id ? { suggestion: suggestion ?? options[0]?.id } : {}) } } : {}),
    };
  }

  async state(): Promise<ChatStateView> {
    const now = this.now();
    const model = this.currentModel();
    const draft = requestMessages({ ...this.conv, messages: [...this.conv.messages, this.draftUserMessage('')] });
    return {
      models: chatModelOptions(this.deps.models.chatModels(), now, this.conv.temperature),
      selectedModelId: this.conv.modelId || undefined,
      conversation: this.conversationView(),
      attachments: this.attachments.map(attachmentView),
      busy: this.active !== undefined || this.live.othersRequest(this.member) !== undefined,
      contextEstimate: { tokens: estimateTokens(draft), ...(model?.context_window ? { limit: model.context_window } : {}) },
      ...(this.deps.apiKey ? { apiKey: this.deps.apiKey() } : {}),
      ...(this.deps.agent ? { agent: this.agentState() } : {}),
      ...(this.imageInput() ? { imageInput: true } : {}),
    };
  }

  // ---------- agent chat ----------

  /** G-CAT-3: agent mode only for models the catalog lists under `tools`. */
  private modelCanUseTools(model: Model | undefined): boolean {
    if (!model || !this.deps.models.toolModels) return false;
    return this.deps.models.toolModels().some((m) => m.id === model.id);
  }

  private imageInput(): boolean {
    const model = this.currentModel();
    return !!model && !!this.deps.models.visionModels?.().some((m) => m.id === model.id);
  }

  private agentOn(): boolean {
    return !!this.deps.agent && this.conv.agent?.on === true && this.modelCanUseTools(this.currentModel());
  }

  private agentState(): AgentStateView {
    const available = this.modelCanUseTools(this.currentModel());
    const on = available && this.conv.agent?.on === true;
    const box = this.toolbox?.key === this.toolboxKey() ? this.toolbox : undefined;
    return {
      available,
      on,
      ...(box?.box ? { toolCount: box.box.tools.length, toolNames: box.box.tools.map((t) => t.name) } : {}),
      ...(box?.box?.excluded ? { excluded: box.box.excluded.reason } : {}),
      ...(box?.error ? { error: box.error } : {}),
    };
  }

  private toolboxKey(): string {
    return JSON.stringify([this.conv.agent?.servers ?? [], this.conv.agent?.kbSearch === true]);
  }

  /** Loads the tool list (for the count and for a send); a failure is kept for the toolbar and thrown. */
  private async loadToolbox(): Promise<AgentToolbox> {
    const key = this.toolboxKey();
    try {
      const box = await this.deps.agent!.toolbox(this.conv.agent?.servers ?? [], { kbSearch: this.conv.agent?.kbSearch === true });
      this.toolbox = { key, box };
      return box;
    } catch (e) {
      this.toolbox = { key, error: e instanceof Error ? e.message : String(e) };
      throw e;
    }
  }

  private async setAgent(on: boolean): Promise<void> {
    if (!this.deps.agent) return;
    if (on && !this.modelCanUseTools(this.currentModel())) {
      this.deps.post({ type: 'notice', text: 'This model cannot call tools. Choose a model with tool calling for agent mode.' });
      return this.postState();
    }
    if (!(await this.commit({ ...this.conv, agent: { ...this.conv.agent, on } }, 'Could not save the agent-mode choice'))) return;
    await this.postState();
    if (on) {
      await this.loadToolbox().catch(() => undefined);
      await this.postState();
    }
  }

  private async pickAgentServers(): Promise<void> {
    if (!this.deps.agent) return;
    const picked = await this.deps.agent.pickServers(this.conv.agent?.servers ?? [], this.conv.agent?.kbSearch === true);
    if (picked === undefined) return;
    const agent = { on: this.conv.agent?.on ?? false, servers: picked.servers, ...(picked.kbSearch ? { kbSearch: true } : {}) };
    if (!(await this.commit({ ...this.conv, agent }, 'Could not save the agent tools choice'))) return;
    await this.postState();
    await this.loadToolbox().catch(() => undefined);
    await this.postState();
  }

  /** Waits for Approve/Deny of `request.call` in the transcript; Stop (the signal) counts as Deny. */
  private askApproval(request: ApprovalRequest, signal: AbortSignal): Promise<boolean> {
    return new Promise<boolean>((resolve) => {
      const id = request.call.id;
      const done = (v: boolean) => {
        signal.removeEventListener('abort', onAbort);
        this.approvals.delete(id);
        resolve(v);
      };
      const onAbort = () => done(false);
      if (signal.aborted) return resolve(false);
      signal.addEventListener('abort', onAbort, { once: true });
      this.approvals.set(id, done);
    });
  }

  private async postState(): Promise<void> {
    this.deps.post({ type: 'state', state: await this.state() });
  }

  /**
   * Makes `next` the current conversation: saved first when it has messages (an empty one is not on
   * disk yet), assigned only once saved. On failure the in-memory state is unchanged and the webview is
   * sent it again, so a control the user just moved snaps back to the stored value. Returns whether it
   * was applied.
   */
  private async commit(next: Conversation, failure = 'Could not save the change to chat history', from: Conversation = this.conv): Promise<boolean> {
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

  /**
   * Asks the webview to focus its input: at once if it is loaded, else right after its `ready`. Only
   * for user-initiated opens (commands); a view that loads on its own must not take the keyboard.
   */
  focusInput(): void {
    if (this.webviewReady) this.deps.post({ type: 'focusInput' });
    else this.focusPending = true;
  }

  private restoreInput(text: string, mode: InputMode): void {
    this.deps.post(mode === 'editLast' ? { type: 'setInput', text, mode } : { type: 'setInput', text });
  }

  private async selectModel(modelId: string): Promise<void> {
    const model = this.deps.models.getModel(modelId);
    if (!model || isRemoved(model, this.now()) || !chatModelOptions([model], this.now()).length) {
      this.deps.post({ type: 'notice', text: `Model ${modelId} is not available for chat.` });
      return this.postState();
    }
    if (!(await this.commit({ ...this.conv, modelId }, 'Could not save the model choice to chat history'))) return;
    await this.deps.prefs.setLastModelId(modelId);
    await this.postState();
    // Agent mode stays on across a model change; a tools model needs its tool count.
    await this.ensureToolCount();
  }

  private async attach(kind: 'selection' | 'file' | 'workspace' | 'image'): Promise<void> {
    if (kind === 'image' && !this.imageInput()) {
      this.deps.post({ type: 'notice', text: 'This model does not take images. Choose a model with image input to attach images.' });
      return;
    }
    const picked = await this.deps.host.pickAttachments(kind);
    this.attachments.push(...picked);
    return this.postState();
  }

  /** The open conversation's id and whether it is saved (has messages), for the view title actions. */
  get conversationInfo(): { id: string; saved: boolean } {
    return { id: this.conv.id, saved: this.conv.messages.length > 0 };
  }

  /** Opens a saved conversation (history pick, move between sidebar and tab). False while a reply streams or when it is gone. */
  async openConversation(id: string): Promise<boolean> {
    if (this.active) return false;
    // The live one when another view shows it (with its reply still streaming, if one is).
    const c = await this.live.open(id);
    if (c) this.conv = c;
    // Chosen before the webview's first `ready`: that ready must not replace it with the most recent one.
    if (c) this.initialized = true;
    await this.postState();
    if (c) this.resumeStream();
    void this.ensureToolCount();
    return c !== undefined;
  }

  /** Re-sends the state, e.g. when the active API key changed (the empty state names it; the tool list depends on it). */
  refresh(): void {
    this.toolbox = undefined;
    if (this.webviewReady) void this.postState().then(() => this.ensureToolCount());
  }

  /** In agent mode, loads the tool list once for the toolbar's count (and the Account-key note). */
  private async ensureToolCount(): Promise<void> {
    if (!this.agentOn() || this.toolbox?.key === this.toolboxKey()) return;
    await this.loadToolbox().catch(() => undefined);
    await this.postState();
  }

  async rename(id: string): Promise<void> {
    const c = id === this.conv.id ? this.conv : await this.live.open(id);
    if (!c) return;
    const title = await this.deps.host.askTitle(c.title);
    if (title === undefined || !title.trim()) return;
    const renamed: Conversation = { ...c, title: title.trim().slice(0, 200), updatedAt: this.now() };
    if (c.id === this.conv.id) {
      if (!(await this.commit(renamed, 'Could not rename the conversation', c))) return;
    } else {
      await this.saveLive(renamed, c);
    }
    return this.postState();
  }

  async deleteConversation(id: string): Promise<void> {
    const c = id === this.conv.id ? this.conv : await this.deps.store.load(id);
    if (!c || (this.streaming() && id === this.conv.id)) return;
    if (!(await this.deps.host.confirmDelete(c.title))) return;
    await this.deps.store.delete(id);
    if (id === this.conv.id) this.conv = newConversation(this.newId(), this.defaultModelId() ?? '', this.now());
    return this.postState();
  }

  // ---------- sending ----------

  private draftUserMessage(text: string): StoredMessage {
    return {
      id: this.newId(),
      role: 'user',
      content: text,
      status: 'complete',
      createdAt: this.now(),
      ...(this.attachments.length ? { attachments: [...this.attachments] } : {}),
    };
  }

  /** Checks that a request can go out; posts the reason and returns false otherwise. */
  /** The budget guard; a guard that fails lets the send through (it must never cost the user's text). */
  private async allowed(): Promise<boolean> {
    if (!this.deps.allowSend) return true;
    try {
      return await this.deps.allowSend();
    } catch (e) {
      this.deps.log.warn(`Budget check failed, sending anyway: ${e instanceof Error ? e.message : String(e)}`);
      return true;
    }
  }

  /** Whether a request can go out now; true also reserves the conversation (live.claim) until it ends or `release`. */
  private canSend(): boolean {
    if (this.active) return false;
    if (!this.live.claim(this.member)) {
      this.deps.post({ type: 'notice', text: 'A reply to this conversation is on its way (here or in another chat view). Send again when it is done.' });
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
      this.deps.post({
        type: 'notice',
        text: model ? `Model ${model.id} has been removed. Choose another model.` : 'Choose a chat model first.',
      });
      return false;
    }
    return true;
  }

  /** Prices the conversation as Send would send it with `text` as the next message. */
  private async onDraft(text: string): Promise<void> {
    const estimator = this.deps.promptCost;
    if (!estimator) return;
    if (!text.trim() || !this.conv.modelId) return this.clearPromptCost();
    const messages = requestMessages({ ...this.conv, messages: [...this.conv.messages, this.draftUserMessage(text)] });
    const prompt = messages.map((m) => m.content).join('\n\n');
    const cost = await estimator.request(this.conv.modelId, prompt);
    // Undefined: superseded by a newer draft (which answers itself), or no usable rate.
    if (cost) this.deps.post({ type: 'promptCost', text: promptCostText(cost), estimate: !cost.counted });
  }

  private clearPromptCost(): void {
    if (!this.deps.promptCost) return;
    this.deps.promptCost.cancel();
    this.deps.post({ type: 'promptCost', text: '', estimate: false });
  }

  private async send(text: string): Promise<void> {
    if (!text.trim()) return;
    let next: Conversation;
    try {
      if (!(await this.allowed())) throw new NotSent();
      next = await this.prepareSend(text);
    } catch (e) {
      // Nothing was sent (a dialog failed, the history write failed, ...): give the text back so
      // nothing the user typed is lost, whatever went wrong before the request.
      this.live.release(this.member);
      this.restoreInput(text, 'send');
      if (!(e instanceof NotSent)) this.deps.host.showError(`Could not send the message: ${e instanceof Error ? e.message : String(e)}`);
      return;
    }
    this.conv = next;
    this.attachments = [];
    await this.runRequest();
  }

  /** Everything before the request: checks, confirmation and the history write. Throws NotSent after telling the user why. */
  private async prepareSend(text: string): Promise<Conversation> {
    if (!this.canSend()) throw new NotSent();
    const user = this.draftUserMessage(text);
    const from = this.conv;
    let next: Conversation = { ...from, messages: [...from.messages, user] };
    const limit = this.currentModel()?.context_window;
    const tokens = estimateTokens(requestMessages(next));
    if (limit && tokens > limit && !(await this.deps.host.confirmContextOverflow(tokens, limit))) throw new NotSent();
    if (this.conv.messages.length === 0 && this.conv.title === newConversation('', '', 0).title) next.title = titleFrom(text);
    next.updatedAt = this.now();
    try {
      next = await this.saveLive(next, from);
    } catch (e) {
      this.deps.host.showError(`Could not save the message to chat history, so it was not sent: ${e instanceof Error ? e.message : String(e)}`);
      throw new NotSent();
    }
    return next;
  }

  /** Drops the reply after the last user message and asks again. */
  private async regenerate(): Promise<void> {
    if (!this.canSend()) return;
    const lastUser = lastIndexOfRole(this.conv, 'user');
    // Saved before it replaces this.conv: if the write fails, memory, disk and the UI keep the old reply.
    if (lastUser < 0 || !(await this.allowed()) || !(await this.commit({ ...this.conv, messages: this.conv.messages.slice(0, lastUser + 1) }, 'Could not save the conversation, so nothing was regenerated'))) {
      this.live.release(this.member);
      return;
    }
    await this.runRequest();
  }

  private async editLast(text: string): Promise<void> {
    if (!text.trim()) return;
    if (lastIndexOfRole(this.conv, 'user') < 0) return this.send(text);
    let next: Conversation;
    try {
      if (!this.canSend()) throw new NotSent();
      if (!(await this.allowed())) throw new NotSent();
      const from = this.conv;
      const lastUser = lastIndexOfRole(from, 'user');
      const edited: StoredMessage = { ...from.messages[lastUser], content: text, createdAt: this.now() };
      next = await this.saveLive({ ...from, messages: [...from.messages.slice(0, lastUser), edited], updatedAt: this.now() }, from);
    } catch (e) {
      // Back in edit mode, so Enter replaces the last message again instead of adding a second copy.
      this.live.release(this.member);
      this.restoreInput(text, 'editLast');
      if (!(e instanceof NotSent)) this.deps.host.showError(`Could not save the edited message: ${e instanceof Error ? e.message : String(e)}`);
      return;
    }
    this.conv = next;
    await this.runRequest();
  }

  private async errorAction(action: ErrorAction, messageId: string): Promise<void> {
    const m = this.conv.messages.find((x) => x.id === messageId);
    switch (action) {
      case 'setApiKey':
        return this.deps.host.setApiKey();
      case 'copyRequestId':
        if (m?.requestId) await this.deps.host.copy(m.requestId);
        return;
      case 'retry':
        return this.regenerate();
      case 'switchModel': {
        const options = chatModelOptions(this.deps.models.chatModels(), this.now());
        const model = this.currentModel();
        const target = (model && alternativeFor(model, this.deps.models.chatModels())?.id) ?? options[0]?.id;
        if (target) return this.selectModel(target);
        return;
      }
    }
  }

  /** Streams a reply to the conversation as it stands (its last message is the user's). */
  private async runRequest(): Promise<void> {
    // Agent mode runs the tool loop here (a session-bound conversation's knowledge-base calls then carry
    // the session header); otherwise a conversation bound to an agent session asks the session's agent.
    if (this.agentOn()) return this.runAgentRequest();
    if (this.conv.agentSession) return this.runSessionRequest(this.conv.agentSession);
    const model = this.currentModel();
    const requestId = this.newId();
    const reply: StoredMessage = { id: this.newId(), role: 'assistant', content: '', status: 'streaming', createdAt: this.now(), modelId: this.conv.modelId };
    const abort = new AbortController();
    const act: ActiveRequest = { requestId, abort, message: reply, pending: '' };
    this.active = act;
    // Images travel as content parts (the wire module's form); text-only conversations keep the plain shape.
    const request: ChatCompletionRequest = hasImages(this.conv)
      ? asChatRequest({ model: this.conv.modelId, messages: wireRequestMessages(this.conv, { imageInput: this.imageInput() }), stream: true, stream_options: { include_usage: true } })
      : {
          model: this.conv.modelId,
          messages: requestMessages(this.conv),
          stream: true,
          stream_options: { include_usage: true },
        };
    const temperature = temperatureToSend(model, this.conv.temperature);
    if (temperature !== undefined) request.temperature = temperature;

    this.conv = { ...this.conv, messages: [...this.conv.messages, reply] };
    // The conversation this reply belongs to, even if the view switches conversations meanwhile.
    const conv = this.conv;
    // The reply streams into every view showing this conversation.
    const post = this.live.poster(this.member);
    await this.postState();
    post({ type: 'streamStart', requestId, message: this.messageView(reply) });

    let usage: Usage | undefined;
    // Chunks are coalesced for up to one frame before crossing to the webview: fewer messages over the
    // webview IPC, and the webview paints at most once per frame anyway.
    let flushTimer: ReturnType<typeof setTimeout> | undefined;
    let firstSent = false;
    const flush = () => {
      if (flushTimer !== undefined) clearTimeout(flushTimer);
      flushTimer = undefined;
      if (act.pending) post({ type: 'streamChunk', requestId, text: act.pending });
      act.pending = '';
    };
    try {
      const client = await this.deps.getClient();
      const stream = await client.streamChatCompletion(request, {
        signal: abort.signal,
        onRetry: (n) => post({ type: 'retryCountdown', requestId, attempt: n.attempt, seconds: Math.max(1, Math.ceil(n.delayMs / 1000)) }),
      });
      reply.requestId = stream.requestId;
      for await (const chunk of stream) {
        const text = chunk.choices[0]?.delta?.content;
        if (text) {
          reply.content += text;
          act.pending += text;
          // The first text crosses at once (it is what the user waits for); the rest is coalesced.
          if (!firstSent) {
            firstSent = true;
            flush();
          } else flushTimer ??= setTimeout(flush, CHUNK_COALESCE_MS);
        }
        if (chunk.usage) usage = chunk.usage;
      }
      reply.status = 'complete';
    } catch (e) {
      const stopped = abort.signal.aborted || (isGatewayError(e) && e.reason === 'aborted');
      if (isGatewayError(e) && e.requestId) reply.requestId = e.requestId;
      if (stopped) {
        // The user's choice, not a failure: kept as incomplete even when nothing had arrived yet.
        reply.status = 'incomplete';
        reply.error = { message: 'Stopped.', actions: ['retry'] };
      } else {
        reply.status = reply.content ? 'incomplete' : 'error';
        reply.error = toChatErrorView(e, reply.content.length > 0);
        this.deps.log.warn(`Chat request failed: ${isGatewayError(e) ? `${e.reason}${e.status ? ` ${e.status}` : ''}` : 'unexpected error'}${reply.requestId ? ` (request id ${reply.requestId})` : ''}`);
      }
    } finally {
      flush();
      this.active = undefined;
    }
    if (usage) {
      reply.usage = usage;
      const nano = model ? replyCostNano(this.deps.costOf ?? defaultCostFn, model, usage) : undefined;
      if (nano !== undefined) reply.costNano = nano.toString();
      try {
        void this.deps.onPriced?.({ model: reply.modelId ?? this.conv.modelId, usage, ...(model?.pricing ? { pricing: model.pricing } : {}), ...(reply.requestId ? { requestId: reply.requestId } : {}) });
      } catch (e) {
        this.deps.log.warn(`Spend ledger: could not record a chat reply: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    await this.finishReply(conv, reply, requestId, post);
  }

  /**
   * An agent-mode reply: the loop of src/core/agent runs the rounds and the tool calls; this posts the
   * text and each call as they change, prices and records every round (onPriced), and saves the reply
   * with its calls and rounds. One `streamStart` ... `streamDone`/`streamError` per reply, as for chat.
   */
  private async runAgentRequest(): Promise<void> {
    const model = this.currentModel()!;
    const agent = this.deps.agent!;
    const requestId = this.newId();
    const reply: StoredMessage = { id: this.newId(), role: 'assistant', content: '', status: 'streaming', createdAt: this.now(), modelId: this.conv.modelId, toolCalls: [], rounds: [] };
    const abort = new AbortController();
    const act: ActiveRequest = { requestId, abort, message: reply, pending: '' };
    this.active = act;
    const messages = wireRequestMessages(this.conv, { imageInput: this.imageInput() });
    this.conv = { ...this.conv, messages: [...this.conv.messages, reply] };
    const conv = this.conv;
    // Knowledge-base tool calls of a conversation bound to an agent session are grouped with it (G-MCP-16).
    const sessionId = conv.agentSession?.sessionId;
    const post = this.live.poster(this.member);
    await this.postState();
    post({ type: 'streamStart', requestId, message: this.messageView(reply) });

    let flushTimer: ReturnType<typeof setTimeout> | undefined;
    const flush = () => {
      if (flushTimer !== undefined) clearTimeout(flushTimer);
      flushTimer = undefined;
      if (act.pending) post({ type: 'streamChunk', requestId, text: act.pending });
      act.pending = '';
    };
    const costOf = this.deps.costOf ?? defaultCostFn;
    let failure: unknown;
    let outcome: Awaited<ReturnType<typeof runAgent>> | undefined;
    try {
      const box = await this.loadToolbox();
      const client = await this.deps.getClient();
      const temperature = temperatureToSend(model, this.conv.temperature);
      outcome = await runAgent(
        messages,
        {
          client,
          model,
          priceOf: (usage) => replyCostNano(costOf, model, usage),
          toolbox: box,
          ledger: agent.ledger,
          maxRounds: agent.maxRounds() || DEFAULT_MAX_ROUNDS,
          confirmReadOnlyAbilities: agent.confirmReadOnlyAbilities(),
          callTool: (tool, args, signal) => agent.callTool(tool, args, signal, toolCallHeaders(tool, sessionId)),
          abilityReadOnly: (site, ability, signal) => agent.abilityReadOnly(site, ability, signal),
          approve: (request, signal) => this.askApproval(request, signal),
          ...(temperature !== undefined ? { temperature } : {}),
          onText: (text) => {
            reply.content += text;
            act.pending += text;
            flushTimer ??= setTimeout(flush, CHUNK_COALESCE_MS);
          },
          onCall: (call) => {
            flush();
            if (!reply.toolCalls!.includes(call)) reply.toolCalls!.push(call);
            post({ type: 'toolCall', requestId, call: toolCallView(call) });
          },
          onRound: (round) => {
            reply.rounds!.push(round);
            if (!round.usage) return;
            try {
              return this.deps.onPriced?.({ model: model.id, usage: round.usage, ...(model.pricing ? { pricing: model.pricing } : {}), ...(round.requestId ? { requestId: round.requestId } : {}) });
            } catch (e) {
              this.deps.log.warn(`Spend ledger: could not record an agent round: ${e instanceof Error ? e.message : String(e)}`);
            }
          },
          // The budget guard before every billed round, not once per turn (the turn's first round was
          // checked by the send); the rounds so far are in the ledger when it reads it.
          allowRound: () => this.allowed(),
          onRequestId: (id) => (reply.requestId = id),
          onRetry: (n) => post({ type: 'retryCountdown', requestId, attempt: n.attempt, seconds: Math.max(1, Math.ceil(n.delayMs / 1000)) }),
          now: this.now,
        },
        abort.signal,
      );
    } catch (e) {
      failure = e; // the tool list or the client could not be had: nothing was sent
    } finally {
      flush();
      this.active = undefined;
      for (const resolve of [...this.approvals.values()]) resolve(false);
    }
    const sum = sumRounds(reply.rounds ?? []);
    if (sum.usage) reply.usage = sum.usage;
    if (sum.costNano !== undefined) reply.costNano = sum.costNano;
    if (outcome?.status === 'complete') reply.status = 'complete';
    else if (outcome?.status === 'stopped') {
      reply.status = 'incomplete';
      const d = outcome.stoppedDuring;
      const what =
        d?.phase === 'tool'
          ? `Stopped while the tool ${d.tool ?? ''} ran.`
          : d?.phase === 'approval'
            ? `Stopped while ${d.tool ?? 'a tool call'} waited for approval; it was not sent.`
            : 'Stopped while waiting for the model.';
      reply.error = { message: what, actions: ['retry'] };
    } else if (outcome?.status === 'budget') {
      reply.status = 'incomplete';
      reply.error = { message: `Stopped before round ${outcome.refusedRound ?? ''}: the spending budget is used up, so nothing more was sent.`, actions: ['retry'] };
    } else if (outcome?.status === 'round-limit') {
      reply.status = 'incomplete';
      reply.error = { message: `Stopped after ${agent.maxRounds() || DEFAULT_MAX_ROUNDS} rounds (aiGateway.chat.agent.maxRounds): the model still wanted to call tools.`, actions: ['retry'] };
    } else {
      const e = outcome?.error ?? failure;
      if (isGatewayError(e) && e.requestId) reply.requestId = e.requestId;
      const partial = reply.content.length > 0 || (reply.toolCalls?.length ?? 0) > 0;
      reply.status = partial ? 'incomplete' : 'error';
      reply.error = isGatewayError(e) ? toChatErrorView(e, partial) : { message: `Agent chat failed: ${e instanceof Error ? e.message : String(e)}`, actions: ['retry'] };
      this.deps.log.warn(`Agent chat failed: ${isGatewayError(e) ? `${e.reason}${e.status ? ` ${e.status}` : ''}` : 'tool list or client unavailable'}${reply.requestId ? ` (request id ${reply.requestId})` : ''}`);
    }
    await this.finishReply(conv, reply, requestId, post);
  }

  /**
   * A reply in a conversation bound to an agent session: the last user message goes to the session's
   * message route (never chat completions) and the agent's reply event becomes the reply, with its
   * response id for feedback. The same streamStart ... streamDone/streamError as a chat reply, so it
   * renders like one. A moderation block shows only the fixed words (G-CHAT-4, via toChatErrorView).
   */
  private async runSessionRequest(session: NonNullable<Conversation['agentSession']>): Promise<void> {
    const user = this.conv.messages[lastIndexOfRole(this.conv, 'user')];
    const requestId = this.newId();
    const reply: StoredMessage = { id: this.newId(), role: 'assistant', content: '', status: 'streaming', createdAt: this.now() };
    const abort = new AbortController();
    this.active = { requestId, abort, message: reply, pending: '' };
    this.conv = { ...this.conv, messages: [...this.conv.messages, reply] };
    const conv = this.conv;
    const post = this.live.poster(this.member);
    await this.postState();
    post({ type: 'streamStart', requestId, message: this.messageView(reply) });
    try {
      const client = await this.deps.getClient();
      const events = await sendSessionMessage(client, session.sessionId, withAttachments(user), {
        signal: abort.signal,
        onRetry: (n) => post({ type: 'retryCountdown', requestId, attempt: n.attempt, seconds: Math.max(1, Math.ceil(n.delayMs / 1000)) }),
      });
      const answer = [...events].reverse().find((e) => e.role === 'assistant');
      reply.content = answer?.text ?? '';
      if (answer?.responseId) reply.responseId = answer.responseId;
      if (reply.content) post({ type: 'streamChunk', requestId, text: reply.content });
      reply.status = 'complete';
    } catch (e) {
      if (isGatewayError(e) && e.requestId) reply.requestId = e.requestId;
      if (abort.signal.aborted || (isGatewayError(e) && e.reason === 'aborted')) {
        reply.status = 'incomplete';
        reply.error = { message: 'Stopped.', actions: ['retry'] };
      } else {
        reply.status = 'error';
        reply.error = sessionErrorView(e);
        this.deps.log.warn(`Agent session message failed: ${isGatewayError(e) ? `${e.reason}${e.status ? ` ${e.status}` : ''}` : 'unexpected error'}${reply.requestId ? ` (request id ${reply.requestId})` : ''}`);
      }
    } finally {
      this.active = undefined;
    }
    await this.finishReply(conv, reply, requestId, post);
  }

  /**
   * Thumbs Up / Thumbs Down on an agent-session reply: sends response feedback for its response id,
   * then saves the rating with the message. A failed send changes nothing and says why in the
   * reply's footer; the webview keeps the thumb it had.
   */
  private async rateReply(messageId: string, rating: ReplyRating): Promise<void> {
    const conv = this.conv;
    const m = conv.messages.find((x) => x.id === messageId);
    const session = conv.agentSession;
    if (!session || !m || m.role !== 'assistant' || !m.responseId) {
      this.deps.post({ type: 'replyRating', messageId, rating: m?.feedback ?? null, error: 'This reply cannot be rated.' });
      return;
    }
    if (m.feedback === rating) {
      this.deps.post({ type: 'replyRating', messageId, rating });
      return;
    }
    try {
      await sendFeedback(await this.deps.getClient(), session.sessionId, m.responseId, rating);
    } catch (e) {
      const view = sessionErrorView(e);
      this.deps.log.warn(`Agent feedback failed: ${isGatewayError(e) ? `${e.reason}${e.status ? ` ${e.status}` : ''}` : 'unexpected error'}`);
      this.deps.post({ type: 'replyRating', messageId, rating: m.feedback ?? null, error: `Feedback not sent: ${view.message}${view.detail ? ` (${view.detail})` : ''}` });
      return;
    }
    // The gateway has it: the rating is saved with the message (a failed write is reported, the thumb stays).
    const rated = { ...m, feedback: rating };
    const next: Conversation = { ...conv, messages: conv.messages.map((x) => (x === m ? rated : x)), updatedAt: this.now() };
    let saved: Conversation | undefined;
    try {
      saved = await this.saveLive(next, conv);
    } catch (e) {
      this.deps.host.showError(`The feedback was sent but could not be saved to chat history: ${e instanceof Error ? e.message : String(e)}`);
    }
    if (saved && this.conv === saved) {
      // Already the live version (a merge kept what was added meanwhile).
    } else if (this.conv.id === conv.id) {
      // Replaced in the current messages (a reply may have been added meanwhile), not the older snapshot.
      this.conv = { ...this.conv, messages: this.conv.messages.map((x) => (x.id === messageId ? { ...x, feedback: rating } : x)) };
    }
    this.deps.post({ type: 'replyRating', messageId, rating });
  }

  /**
   * Opens a new conversation bound to an agent session (Chat with Agent on an agent or a session).
   * `arg` comes through a command, so it is checked here: {agentId, agentName, sessionId} and,
   * optionally, `events` — the session's earlier messages ({role, text, responseId?}) shown as the
   * start of the conversation. False when `arg` is not one or a reply is streaming.
   */
  async openAgentSession(arg: unknown): Promise<boolean> {
    const binding = agentSessionArg(arg);
    if (!binding || this.active) return false;
    this.initialized = true;
    const conv = newConversation(this.newId(), '', this.now());
    conv.title = `Chat with ${binding.agentName}`;
    conv.agentSession = { agentId: binding.agentId, sessionId: binding.sessionId, agentName: binding.agentName };
    conv.messages = binding.events.map((e): StoredMessage => ({
      id: this.newId(),
      role: e.role,
      content: e.text,
      status: 'complete',
      createdAt: this.now(),
      ...(e.responseId ? { responseId: e.responseId } : {}),
    }));
    this.conv = conv;
    this.attachments = [];
    await this.postState();
    return true;
  }

  /** Saves the conversation with its finished reply, then tells the webview how the reply ended. */
  private async finishReply(conv: Conversation, reply: StoredMessage, requestId: string, post: (m: HostToWebview) => void): Promise<void> {
    // A setting changed while the reply streamed (commit() replaced this.conv, sharing its messages
    // array, so the reply is in both; a merge or a branch keeps the reply object too): save the newer
    // object, or the old setting would overwrite it.
    const toSave = this.conv.messages.includes(reply) ? this.conv : conv;
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

  /** Starts a new conversation on `modelId` (the catalog's "Open in Chat"). Returns false when that model cannot chat. */
  async startWithModel(modelId: string): Promise<boolean> {
    this.initialized = true;
    const model = this.deps.models.getModel(modelId);
    if (!model || !chatModelOptions([model], this.now()).length) {
      this.deps.host.showError(`Model ${modelId} is not available for chat.`);
      return false;
    }
    if (this.active) this.active.abort.abort();
    this.conv = newConversation(this.newId(), modelId, this.now());
    this.attachments = [];
    await this.deps.prefs.setLastModelId(modelId);
    await this.postState();
    return true;
  }

  /** For tests and the e2e harness: whether a request is in flight. */
  get busy(): boolean {
    return this.active !== undefined;
  }

  override dispose(): void {
    this.active?.abort.abort();
    this.live.leave(this.member);
    super.dispose();
  }
}

/** The agent's name for the header, bounded and on one line (it is server text). */
function agentLabel(s: NonNullable<Conversation['agentSession']>): string {
  const name = (s.agentName ?? s.agentId).replace(/\s+/g, ' ').trim();
  return name.length > 80 ? `${name.slice(0, 79)}…` : name || 'Agent';
}

const MAX_SEEDED_EVENTS = 500;
const MAX_ARG_CHARS = 1024 * 1024;

/** The checked argument of openAgentSession; undefined for anything else. */
function agentSessionArg(x: unknown): { agentId: string; agentName: string; sessionId: string; events: Array<{ role: 'user' | 'assistant'; text: string; responseId?: string }> } | undefined {
  if (typeof x !== 'object' || x === null) return undefined;
  const o = x as Record<string, unknown>;
  const id = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= 200;
  if (!id(o.agentId) || !id(o.sessionId) || typeof o.agentName !== 'string' || o.agentName.length > 1000) return undefined;
  const events: Array<{ role: 'user' | 'assistant'; text: string; responseId?: string }> = [];
  if (o.events !== undefined) {
    if (!Array.isArray(o.events)) return undefined;
    let chars = 0;
    for (const e of o.events.slice(-MAX_SEEDED_EVENTS)) {
      if (typeof e !== 'object' || e === null) continue;
      const r = e as Record<string, unknown>;
      if ((r.role !== 'user' && r.role !== 'assistant') || typeof r.text !== 'string' || r.text === '') continue;
      chars += r.text.length;
      if (chars > MAX_ARG_CHARS) break;
      events.push({ role: r.role, text: r.text, ...(r.role === 'assistant' && id(r.responseId) ? { responseId: r.responseId } : {}) });
    }
  }
  return { agentId: o.agentId, agentName: o.agentName.trim() || o.agentId, sessionId: o.sessionId, events };
}

/** An agent-session failure as the chat shows it: a missing session is not a model to switch. */
function sessionErrorView(e: unknown): ChatErrorView {
  const view = toChatErrorView(e);
  if (isGatewayError(e) && e.reason === 'not_found') return { ...view, message: 'The gateway does not know this agent session or reply (404).', actions: view.actions.filter((a) => a !== 'switchModel') };
  return view;
}

/** The message did not go out and the user has already been told why (a notice, a dialog, an error). */
class NotSent extends Error {
  constructor() {
    super('not sent');
  }
}

function attachmentView(a: StoredAttachment): AttachmentView {
  return { id: a.id, kind: a.kind, label: a.label, size: a.content.length };
}

/** History files are read back as they are: a result whose content is not a list is not shown. */
function toolCallView(c: AgentToolCall): ToolCallView {
  const { result, ...rest } = c;
  return {
    ...rest,
    ...(c.approval ? { approval: { ...c.approval } } : {}),
    ...(result && Array.isArray(result.content) ? { result: { ...result, content: result.content.filter((b) => typeof b === 'object' && b !== null && typeof b.type === 'string') } } : {}),
  };
}

function roundView(r: AgentRound): RoundView {
  return {
    round: r.round,
    ...(r.usage ? { usage: usageView(r.usage) } : {}),
    ...(r.costNano !== undefined ? { cost: costView(BigInt(r.costNano)) } : {}),
    ...(r.requestId ? { requestId: r.requestId } : {}),
  };
}

/** The reply's usage and cost: exact sums over its rounds (a round without a price leaves the cost out). */
export function sumRounds(rounds: readonly AgentRound[]): { usage?: Usage; costNano?: string } {
  const priced = rounds.filter((r) => r.usage);
  if (priced.length === 0) return {};
  const usage: Usage = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0, completion_tokens_details: { reasoning_tokens: 0 } };
  for (const r of priced) {
    usage.prompt_tokens += r.usage!.prompt_tokens;
    usage.completion_tokens += r.usage!.completion_tokens;
    usage.total_tokens += r.usage!.total_tokens;
    usage.completion_tokens_details!.reasoning_tokens! += r.usage!.completion_tokens_details?.reasoning_tokens ?? 0;
  }
  const costs = priced.map((r) => r.costNano);
  return { usage, ...(costs.every((c): c is string => c !== undefined) ? { costNano: sumNano(costs as string[]).toString() } : {}) };
}

function usageView(u: Usage) {
  return {
    promptTokens: u.prompt_tokens,
    completionTokens: u.completion_tokens,
    reasoningTokens: u.completion_tokens_details?.reasoning_tokens ?? 0,
    totalTokens: u.total_tokens,
  };
}
