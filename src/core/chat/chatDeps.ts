/**
 * What a chat view's engine (chatController.ts and its parts) is given, and the typed map from each
 * webview message to the part that handles it. vscode-free: src/chat implements these with the editor API.
 */
import type { IGatewayClient } from '../gateway/api';
import type { Model, Usage } from '../gateway/types';
import type { Event } from '../disposables';
import type { Logger } from '../log';
import type { ChatStateView, HostToWebview, ModelOptionView, WebviewToHost } from '../../protocol/chatProtocol';
import type { Handlers } from '../../protocol/declare';
import type { StoredAttachment } from './conversation';
import type { CostBeforeSending } from '../spend/costEstimate';
import type { EstimateReason } from '../spend/charge';
import type { AgentTool, AgentToolbox, ToolCallOutcome } from '../agentLoop/agentLoop';
import type { OutcomeLedger } from '../mcp/outcomeLedger';
import type { HistoryStore } from './historyStore';
import type { LiveConversations } from './liveConversations';
import type { CostFn } from './cost';

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

/**
 * A `#` completion candidate from the editor (a workspace file, a symbol, the selection): matched on
 * `name` and `path`; `ref` is the host's own handle, never sent to the webview.
 */
export interface ContextCandidate {
  kind: 'file' | 'symbol' | 'selection';
  name: string;
  path?: string;
  label: string;
  detail?: string;
  ref: unknown;
}

/** The active editor's file, as the implicit attachment of the next message. */
export interface ImplicitContext {
  /** Tells one file from another (its URI): removing the chip holds for this file only. */
  key: string;
  label: string;
  size: number;
}

/** Editor actions the engine asks for; implemented by src/chat with the vscode API. */
export interface ChatEditorHost {
  /** `#` completion: candidates for `query` (bounded by the host; workspace files only, files.exclude respected). */
  contextCandidates?(query: string): Promise<ContextCandidate[]>;
  /** The attachment(s) for a candidate this host offered. */
  attachCandidate?(candidate: ContextCandidate): Promise<StoredAttachment[]>;
  /** The active editor's file (undefined when none). */
  implicitContext?(): ImplicitContext | undefined;
  /** The active editor's file as an attachment, when it is still the file `key`. */
  implicitAttachment?(key: string): Promise<StoredAttachment | undefined>;
  /** `/alt`, `/summary`, `/tags`: the content command on the active editor or its selection. */
  runContentCommand?(command: 'alt' | 'summary' | 'tags'): Promise<void>;
  copy(text: string): Promise<void>;
  insertCode(code: string, language: string | undefined): Promise<void>;
  newFile(code: string, language: string | undefined): Promise<void>;
  /**
   * Proposes a code block as a change, shown as a diff to accept or discard: to the file its info
   * string names (`ts:src/a.ts`, inside the workspace only), else the active editor's selection, else
   * its whole document.
   */
  applyCode?(code: string, info: string | undefined): Promise<void>;
  /** Opens through the OS; confirms first when the link is not https. */
  openLink(href: string): Promise<void>;
  setApiKey(): Promise<void>;
  pickAttachments(kind: 'selection' | 'file' | 'workspace' | 'image'): Promise<StoredAttachment[]>;
  /** The attach menu: which kind to attach, or undefined when dismissed. `image` is offered only when `withImage`. */
  pickAttachKind?(withImage?: boolean): Promise<'selection' | 'file' | 'workspace' | 'image' | undefined>;
  /** The model menu over `options` (the current one marked); the chosen id, or undefined when dismissed. */
  pickModel?(options: readonly ModelOptionView[], currentId: string | undefined): Promise<string | undefined>;
  /**
   * The reasoning-effort menu of the conversation's model: `values` from the catalog, the `current` one
   * marked, `costNote` saying how reasoning is billed. `{ value: null }`: the model's default (nothing
   * sent); undefined when dismissed.
   */
  pickReasoningEffort?(choice: { model: string; values: readonly string[]; defaultValue?: string; current: string | undefined; costNote: string }): Promise<{ value: string | null } | undefined>;
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
   * Called once per reply (per agent round) that may have been billed, for the local spend ledger: with
   * the gateway's usage, or an estimate (`estimated` says why; core/spend/charge.ts). Must not throw;
   * may return the write, which the budget guard of the next agent round waits for.
   */
  onPriced?: (reply: { model: string; usage: Usage; pricing?: Model['pricing']; requestId?: string; estimated?: EstimateReason }) => void | Promise<unknown>;
  /**
   * Cost before sending: prices what Send would send now (src/core/spend/promptCost.ts, debounced and
   * cached there, never one count per keystroke). Absent: the input shows no cost.
   */
  promptCost?: { request(model: string, text: string, extraTokens?: number): Promise<CostBeforeSending | undefined>; cancel(): void };
  /** The open conversation's title changed (or was first set): chat tabs carry it as theirs. */
  onTitle?: (title: string) => void;
  /**
   * Gives this chat's webview the workbench's keyboard back: called when a picker the page opened (model,
   * attach) has closed, which otherwise hands the keyboard to the last text editor (#30.3).
   */
  takeFocus?: () => void;
  now?: () => number;
  newId?: () => string;
  agent?: ChatAgentHost;
  /**
   * The conversations open in this window's chat views (one per window, over `store`): views showing
   * the same conversation share it live. Absent: this controller's own (tests of one view).
   */
  live?: LiveConversations;
}

/** A webview message by its type. */
export type WebviewMessage<K extends WebviewToHost['type']> = Extract<WebviewToHost, { type: K }>;

/** One handler per webview message type: the compiler refuses a map that misses one. */
export type ChatHandlers = Handlers<WebviewToHost>;

/** The handlers one part of the chat owns. */
export type HandlersFor<K extends WebviewToHost['type']> = Pick<ChatHandlers, K>;
