/**
 * The one message protocol between the chat webview (browser) and the extension host.
 *
 * Every message is declared once, as one line of `WEBVIEW_TO_HOST` or `HOST_TO_WEBVIEW` (type → its
 * fields' validators, see declare.ts); the unions, the guards and both handler maps are derived from
 * them. Both sides validate what they receive with `isWebviewToHost` / `isHostToWebview` before acting
 * on it: the webview renders untrusted model output, so the host never trusts its messages blindly, and
 * the webview ignores anything it does not recognise. The page's questions (`CHAT_REQUESTS`) carry an
 * id that the host's answer echoes (`answerChat`); the page drops an answer to a question no longer asked.
 *
 * Streaming follows the { requestId, chunk | done | error } pattern: the host answers a `send` with
 * `streamStart`, any number of `streamChunk`, then exactly one of `streamDone` or `streamError`.
 * `stop` from the webview becomes an AbortSignal on the HTTP request.
 *
 * The list of conversations travels apart from the open conversation: `conversations` (the whole
 * list, on `ready`) then `conversationsChanged` (only what a save, rename or delete changed, in any
 * window), so a message sent in one view never re-sends or rebuilds every view's list.
 *
 * Invariant: no message in either direction ever carries an API key or any other credential.
 * No DOM and no vscode here: this file is compiled for both runtimes.
 */
import { isRecord } from '../core/guards';
import { arr, bool, declareRequests, guardOf, index, int, nullable, num, oneOf, opt, shape, str, type Handlers, type MessageOf, type RequestTable, type Table } from './declare';
import { isSlashCommandId, MAX_ITEMS, MAX_QUERY, type SlashCommandId } from './chatCompose';

// ---------- shared view models ----------

export type MessageRole = 'user' | 'assistant';

/** complete: finished normally; streaming: being written; incomplete: stream broke or was stopped;
 * error: the request failed before any text arrived. */
export type MessageStatus = 'complete' | 'streaming' | 'incomplete' | 'error';

export const CHAT_ERROR_ACTIONS = ['setApiKey', 'retry', 'copyRequestId', 'switchModel'] as const;
export type ChatErrorAction = (typeof CHAT_ERROR_ACTIONS)[number];

export interface ChatErrorView {
  /** What the chat shows, already worded for people. */
  message: string;
  /** Optional second line (permission detail). */
  detail?: string;
  actions: ChatErrorAction[];
  requestId?: string;
}

export interface UsageView {
  promptTokens: number;
  completionTokens: number;
  reasoningTokens: number;
  totalTokens: number;
  /** Prompt tokens read from the prompt cache (part of promptTokens); absent when none. */
  cacheReadTokens?: number;
  /** Prompt tokens written to the prompt cache (part of promptTokens); absent when none. */
  cacheWriteTokens?: number;
}

export interface CostView {
  /** Exact nanocredits as a decimal integer string (bigint does not survive postMessage JSON). */
  nanocredits: string;
  /** Human form, e.g. "0.000123 credits". */
  display: string;
}

export interface AttachmentView {
  id: string;
  kind: 'selection' | 'file' | 'image';
  label: string;
  /** Characters of content, for the chip. */
  size: number;
  /** The estimated cost of sending it once at the model's input rate (about 4 characters per token). */
  cost?: string;
}

/**
 * One item of the `#` completion: a workspace file, a symbol or the editor's selection. Only its id
 * comes back (`addContext`): the host attaches what it offered, never a path the webview names.
 */
export interface ContextItemView {
  id: string;
  kind: 'file' | 'symbol' | 'selection';
  label: string;
  /** The folder, the symbol's file and line, or the selection's lines. */
  detail?: string;
}

/** The active editor's file, offered as an implicit attachment of the next message. */
export interface ImplicitContextView {
  label: string;
  size: number;
  /** Sent with the next message unless the user removed it. */
  included: boolean;
  cost?: string;
}

export interface MessageView {
  id: string;
  role: MessageRole;
  content: string;
  status: MessageStatus;
  attachments?: AttachmentView[];
  usage?: UsageView;
  cost?: CostView;
  error?: ChatErrorView;
  modelId?: string;
  /** Agent chat: the tool calls of this reply, in the order they were asked for. */
  toolCalls?: ToolCallView[];
  /** Agent chat: one entry per model round (tokens and exact cost each); usage/cost above are their sum. */
  rounds?: RoundView[];
  /**
   * Agent-session replies only (Chat with Agent): present when the reply can be rated with Thumbs Up /
   * Thumbs Down; `rating` is the thumb the gateway accepted (shown pressed).
   */
  feedback?: { rating?: ReplyRating };
  /**
   * The user stopped this reply: shown quietly as "Stopped" with what arrived (status `incomplete`,
   * no error). `note` says what was going on (agent chat: a tool running, an approval waiting).
   */
  stopped?: { note?: string };
  /** `cost` (and `usage`) are an estimate: the gateway reported no usage (or none readable) before the reply ended. */
  costEstimated?: boolean;
  /** What `cost` was computed from, for its tooltip (the gateway's usage or an estimate, the pricing_version). */
  costBasis?: string;
  /** A regenerated reply: which of its versions is shown (1-based) and how many there are. */
  version?: { index: number; count: number };
  /**
   * The reply ended otherwise than normally (cut off by the output limit, filtered, an unknown reason):
   * the line shown under it, already worded; `continuable`: Continue is offered (on the last reply).
   */
  cutOff?: { text: string; continuable: boolean };
}

/** Response feedback on an agent-session reply. */
export type ReplyRating = 'up' | 'down';

export type ToolCallStatusView =
  | 'awaiting-approval'
  | 'running'
  | 'done'
  | 'error'
  | 'denied'
  | 'refused'
  | 'invalid'
  | 'outcome-unknown'
  | 'stopped'
  | 'skipped';

/** One tool call in the transcript (plain data; the result is rendered by the tool runner's safe renderer). */
export interface ToolCallView {
  id: string;
  name: string;
  serverLabel?: string;
  /** Arguments as JSON text (as the model sent them, shortened for very long ones). */
  args: string;
  status: ToolCallStatusView;
  round: number;
  /** Set when the call needs (or needed) the user's Approve; `repeat`: an identical call earlier had an unknown outcome. */
  approval?: { kind: 'ability' | 'write' | 'repeat'; site?: string; ability?: string; earlierAt?: string; earlierRequestId?: string; decision?: 'approved' | 'denied' };
  result?: { content: Array<{ type: string; [key: string]: unknown }>; structuredContent?: Record<string, unknown>; isError?: boolean; truncated?: boolean };
  errorCode?: string;
  note?: string;
  durationMs?: number;
  requestId?: string;
  retried?: boolean;
}

export interface RoundView {
  round: number;
  usage?: UsageView;
  cost?: CostView;
  requestId?: string;
  /** The round ended otherwise than normally: the words for it. */
  cutOff?: string;
  /** `cost` is an estimate (see MessageView.costEstimated). */
  costEstimated?: boolean;
  /** What `cost` was computed from, for its tooltip. */
  costBasis?: string;
}

/** The agent-mode switch of the open conversation. */
export interface AgentStateView {
  /** The model can call tools (catalog capability `tools`): the switch is offered. */
  available: boolean;
  on: boolean;
  /** Tools that will be offered (undefined while loading or when the list failed). */
  toolCount?: number;
  toolNames?: string[];
  /** Why some tools are left out (an Account key: the ability tools). */
  excluded?: string;
  /** The tool list could not be loaded. */
  error?: string;
}

export interface TemperatureView {
  min: number;
  max: number;
  /** Value currently chosen; undefined sends none (provider default). */
  value?: number;
}

export interface ModelOptionView {
  id: string;
  label: string;
  deprecated: boolean;
  /** Warning text for a deprecated model, naming the alternative when the catalog does. */
  warning?: string;
  contextWindow?: number;
  /** Absent when the model's temperature is not supported: the control is hidden. */
  temperature?: TemperatureView;
  /** "Input 2.5 credits / 1M tokens · Output 10 credits / 1M tokens", for the picker's hover; absent when unpriced. */
  rates?: string;
  /** The provider's display name ("OpenAI", not "openai"): the picker groups models by it. */
  provider?: string;
  /** Capability badges the picker shows: those of tools, vision and reasoning the model has. */
  badges?: Array<'tools' | 'vision' | 'reasoning'>;
  /** YYYY-MM-DD: deprecated since (or from) this date. */
  deprecationDate?: string;
  /** YYYY-MM-DD: removed on this date. */
  removalDate?: string;
  /** Absent when the catalog does not say the model takes a reasoning effort: the control is hidden. */
  reasoning?: ReasoningEffortView;
}

/**
 * The reasoning-effort control of a model (core/gateway/reasoningEffort.ts reads the catalog): the
 * values it takes, or `unknown` naming the catalog parameter in a form this version does not read
 * (the control says so and nothing is sent).
 */
export type ReasoningEffortView = { values: string[]; defaultValue?: string } | { unknown: string };

export interface ConversationSummaryView {
  id: string;
  title: string;
  updatedAt: number;
}

export interface ConversationView {
  id: string;
  title: string;
  modelId: string;
  systemPrompt: string;
  temperature?: number;
  /** The reasoning effort chosen (absent: the model's default, nothing sent). */
  reasoningEffort?: string;
  /**
   * The conversation's last messages (all of them when `earlier` is absent). A long conversation sends
   * only its end; the webview asks for the ones before with `loadEarlier` when the user scrolls up.
   */
  messages: MessageView[];
  /** How many messages come before `messages` (their indexes in the conversation start here). */
  earlier?: number;
  totalCost?: CostView;
  /** Set when the conversation's model has been removed: the UI offers to switch. */
  removedModel?: { modelId: string; suggestion?: string };
  /**
   * Set for a conversation bound to an agent session (Chat with Agent): messages go to the agent, not
   * to a model, so the header names the agent and the model and agent-mode controls are hidden.
   */
  agentSession?: { agentName: string };
}

export interface ChatStateView {
  models: ModelOptionView[];
  selectedModelId: string | undefined;
  conversation: ConversationView;
  attachments: AttachmentView[];
  busy: boolean;
  /** Context-window estimate for the next send. */
  contextEstimate?: { tokens: number; limit?: number };
  /**
   * The active API key by name only (never the secret), for the empty state; `none` offers Add API Key.
   * Absent when the host does not say (tests).
   */
  apiKey?: { kind: 'ok'; name: string } | { kind: 'none' } | { kind: 'missing-secret'; name: string };
  /** Agent chat; absent when the host has no agent support. */
  agent?: AgentStateView;
  /** The model accepts images (catalog capability `vision`): the attach menu offers Image…. */
  imageInput?: boolean;
  /** The active editor's file as an implicit attachment; absent when no file is open or the host has none. */
  implicit?: ImplicitContextView;
}

// ---------- webview -> host ----------

const rating = oneOf<ReplyRating>('up', 'down');
/** A request's id (declared in CHAT_REQUESTS): the page's client sets it, the host's answer echoes it. */
const rid = opt(index);
const code = { code: str(), language: opt(str()) };

/**
 * Every message the webview sends, once: type → fields (src/protocol/declare.ts). The union type, the
 * host's guard and its exhaustive handler map (chatDeps.ts ChatHandlers) are derived from this table.
 */
export const WEBVIEW_TO_HOST = {
  ready: {},
  send: { text: str() },
  stop: {},
  regenerate: {},
  editLast: { text: str() },
  selectModel: { modelId: str({ min: 1 }) },
  setTemperature: { value: nullable(num) },
  setSystemPrompt: { text: str() },
  newConversation: {},
  openConversation: { conversationId: str() },
  renameConversation: { conversationId: str() },
  deleteConversation: { conversationId: str() },
  exportConversation: { conversationId: str() },
  attach: { kind: oneOf('selection', 'file', 'workspace', 'image') },
  /** The input's text changed (send mode): the host answers with the prompt's cost, debounced (request). */
  draft: { text: str(), rid },
  /** Agent mode on or off for the open conversation. */
  setAgent: { on: bool },
  /** The tool count button: the host offers the other MCP servers to turn on for agent chat. */
  agentTools: {},
  /** Approve or Deny of a tool call waiting in the transcript. */
  toolApproval: { callId: str(), approve: bool },
  /** The attach button: the host offers the kinds in a menu (quick pick). */
  attachMenu: {},
  /** The model button: the host offers the chat models in a quick pick (badges and rates there). */
  pickModel: {},
  /** The reasoning-effort button (beside the model): the host offers the model's values in a quick pick. */
  pickReasoningEffort: {},
  /** The empty state's Add API Key button. */
  setApiKey: {},
  removeAttachment: { attachmentId: str() },
  copy: { text: str() },
  insertCode: code,
  newFile: code,
  /** A code block's Apply: proposed as a diff to the file it names (inside the workspace) or the active editor. */
  applyCode: code,
  openLink: { href: str() },
  errorAction: { action: oneOf(...CHAT_ERROR_ACTIONS), messageId: str() },
  /** Thumbs Up / Thumbs Down on an agent-session reply: the host sends response feedback (request). */
  rateReply: { messageId: str(), rating, rid },
  /** The messages of the open conversation before index `end` (the first one the webview has) (request). */
  loadEarlier: { conversationId: str(), end: index, rid },
  /** `#` typed in the message box: the items matching `query` (request; `seq` is its id). */
  contextQuery: { query: str({ max: MAX_QUERY }), seq: index },
  /** A `#` completion item picked: the host attaches it (by the id it gave). */
  addContext: { itemId: str({ min: 1, max: 64 }) },
  /** A `/` command picked in the message box. */
  slashCommand: { command: shape<SlashCommandId>(isSlashCommandId) },
  /** ‹ › on a regenerated reply: show its version `index` (1-based, oldest first). */
  showVersion: { messageId: str(), index: int({ min: 1, max: 100 }) },
  /** The implicit attachment (the active editor's file) removed (false) or put back (true). */
  implicitContext: { include: bool },
  /** Continue under a cut-off reply (the last one): the host asks the model to go on from there. */
  continueReply: { messageId: str({ min: 1, max: 64 }) },
} satisfies Table;

export type WebviewToHost = MessageOf<typeof WEBVIEW_TO_HOST>;

// ---------- host -> webview ----------

/** What Enter does with the input: append a new user message, or replace the last one. */
export type InputMode = 'send' | 'editLast';

/** Every message the host sends, once: the union type, the webview's guard and its handler map come from it. */
export const HOST_TO_WEBVIEW = {
  state: { state: shape(isStateView) },
  /** Every saved conversation, newest first: replaces the webview's list. */
  conversations: { conversations: arr(shape(isSummaryView)) },
  /** Conversations saved or renamed (`upserted`) and deleted (`removed`) since the last list message. */
  conversationsChanged: { upserted: arr(shape(isSummaryView)), removed: arr(str()) },
  streamStart: { requestId: str(), message: shape(isMessageView) },
  streamChunk: { requestId: str(), text: str() },
  streamDone: { requestId: str(), message: shape(isMessageView), totalCost: opt(shape(isCostView)) },
  streamError: { requestId: str(), message: shape(isMessageView) },
  retryCountdown: { requestId: str(), attempt: num, seconds: num },
  /** A tool call of the streaming reply was added or changed (agent chat). */
  toolCall: { requestId: str(), call: shape(isToolCallView) },
  /**
   * Put text back into the input (failed send, failed edit). `mode: 'editLast'` restores edit mode
   * too, so Enter re-sends it as an edit instead of appending a duplicate user turn. Absent = 'send'.
   */
  setInput: { text: str(), mode: opt(oneOf<InputMode>('send', 'editLast')) },
  /**
   * Move the keyboard focus to the message input. Sent only when the user asked for the chat (Open
   * Chat in Editor, Open Chat with Model, New Conversation): the webview never focuses itself on load,
   * which would steal the keyboard from the editor or close an open QuickPick. `late`: asked before the
   * page was ready and sent once it is, maybe seconds after the ask; the user may be typing elsewhere by
   * then (the sidebar chat, the editor), so the page takes the keyboard only if it has it (or gets it next).
   */
  focusInput: { late: opt(bool) },
  /**
   * The cost of sending the current input (empty text: nothing to show); `estimate` when not counted
   * exactly. The answer to `draft` (with its `rid`), or a push without one (cleared after Send).
   */
  promptCost: { text: str(), estimate: bool, rid },
  /**
   * The answer to `rateReply`: the thumb now pressed on that reply (null: none), and `error` when the
   * feedback could not be sent (the thumb is then left as it was).
   */
  replyRating: { messageId: str(), rating: nullable(rating), error: opt(str()), rid },
  /** The answer to `loadEarlier`: the conversation's messages from index `start`, up to the `end` asked for. */
  earlierMessages: { conversationId: str(), start: index, messages: arr(shape(isMessageView)), rid },
  /** The answer to `contextQuery` (at most MAX_ITEMS, best first). */
  contextItems: { seq: index, items: arr(shape(isContextItem), MAX_ITEMS) },
  notice: { text: str() },
} satisfies Table;

export type HostToWebview = MessageOf<typeof HOST_TO_WEBVIEW>;

/** The request/response pairs: the page sends through a RequestClient, the host answers with `answerChat`. */
export const CHAT_REQUESTS = {
  contextQuery: { response: 'contextItems', id: 'seq', latestOnly: true },
  loadEarlier: { response: 'earlierMessages', id: 'rid' },
  draft: { response: 'promptCost', id: 'rid', latestOnly: true },
  rateReply: { response: 'replyRating', id: 'rid' },
} as const satisfies RequestTable<WebviewToHost, HostToWebview>;

const chatRequests = declareRequests<WebviewToHost, HostToWebview>()(CHAT_REQUESTS);
/** The answer to a chat request (`rid`/`seq` copied from it); the compiler checks the pair. */
export const answerChat = chatRequests.answer;
/** The page's client of the chat requests (one per page). */
export const chatRequestClient = chatRequests.client;

/** One handler per host message, for the webview: a missing one is a compile error. */
export type HostHandlers = Handlers<HostToWebview, void>;

// ---------- guards ----------

type Obj = Record<string, unknown>;

const isObj = (x: unknown): x is Obj => isRecord(x);
const isStr = (x: unknown): x is string => typeof x === 'string';
const isOptStr = (x: unknown): boolean => x === undefined || isStr(x);
const isRating = rating;

export function isErrorAction(x: unknown): x is ChatErrorAction {
  return isStr(x) && (CHAT_ERROR_ACTIONS as readonly string[]).includes(x);
}

/** Validates a message from the webview (treated as untrusted): derived from WEBVIEW_TO_HOST. */
export const isWebviewToHost: (x: unknown) => x is WebviewToHost = guardOf(WEBVIEW_TO_HOST);

/** Validates a message from the host: derived from HOST_TO_WEBVIEW. */
export const isHostToWebview: (x: unknown) => x is HostToWebview = guardOf(HOST_TO_WEBVIEW);

function isContextItem(x: unknown): x is ContextItemView {
  return isObj(x) && isStr(x.id) && (x.kind === 'file' || x.kind === 'symbol' || x.kind === 'selection') && isStr(x.label) && isOptStr(x.detail);
}

function isMessageView(x: unknown): x is MessageView {
  return (
    isObj(x) &&
    isStr(x.id) &&
    (x.role === 'user' || x.role === 'assistant') &&
    isStr(x.content) &&
    (x.status === 'complete' || x.status === 'streaming' || x.status === 'incomplete' || x.status === 'error') &&
    (x.toolCalls === undefined || (Array.isArray(x.toolCalls) && x.toolCalls.every(isToolCallView))) &&
    (x.cutOff === undefined || (isObj(x.cutOff) && isStr(x.cutOff.text) && typeof x.cutOff.continuable === 'boolean')) &&
    (x.feedback === undefined || (isObj(x.feedback) && (x.feedback.rating === undefined || isRating(x.feedback.rating))))
  );
}

function isToolCallView(x: unknown): x is ToolCallView {
  return isObj(x) && isStr(x.id) && isStr(x.name) && isStr(x.args) && isStr(x.status) && num(x.round);
}

function isCostView(x: unknown): x is CostView {
  return isObj(x) && isStr(x.nanocredits) && /^-?\d+$/.test(x.nanocredits) && isStr(x.display);
}

function isSummaryView(x: unknown): x is ConversationSummaryView {
  return isObj(x) && isStr(x.id) && isStr(x.title) && num(x.updatedAt);
}

function isStateView(x: unknown): x is ChatStateView {
  if (!isObj(x) || !Array.isArray(x.models) || !Array.isArray(x.attachments)) return false;
  if (typeof x.busy !== 'boolean' || !isOptStr(x.selectedModelId)) return false;
  const c = x.conversation;
  return (
    isObj(c) &&
    isStr(c.id) &&
    isStr(c.title) &&
    Array.isArray(c.messages) &&
    c.messages.every(isMessageView) &&
    (c.earlier === undefined || index(c.earlier)) &&
    (c.agentSession === undefined || (isObj(c.agentSession) && isStr(c.agentSession.agentName)))
  );
}
