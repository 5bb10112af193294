/**
 * Messages between the Compare Models tab's host (src/compare/comparePanel.ts, driving the vscode-free
 * src/core/compare/compareController.ts) and its webview (src/webview/compare/main.ts). Each message is
 * declared once (COMPARE_TO_HOST, HOST_TO_COMPARE; src/protocol/declare.ts): the unions, both guards and
 * both handler maps derive from it; the estimate before sending is a declared request (COMPARE_REQUESTS).
 * No vscode, no DOM, no Node.
 *
 * A comparison is a `run` (its id on every message of it) with one column per model, in the order the
 * page chose. Credits cross as exact decimal strings ("0.000123 credits"), never as numbers.
 */
import { isArrayOf, isFiniteNumber, isOptional, isRecord, isString } from '../core/guards';
import { arr, bool, declareRequests, guardOf, index, int, oneOf, opt, shape, str, type Handlers, type MessageOf, type RequestTable, type Table } from './declare';

export const MIN_COMPARE_MODELS = 2;
export const MAX_COMPARE_MODELS = 4;
/** Longest prompt or system prompt the page may send (characters): a bound, not a product limit. */
export const MAX_COMPARE_TEXT = 200_000;

export interface CompareModelOption {
  id: string;
  label: string;
  deprecated: boolean;
  /** "input 2.5 credits / 1M tokens, output 10 credits / 1M tokens" */
  rates: string;
  /**
   * The reasoning efforts the model takes (#43.3, core/gateway/reasoningEffort.ts), or `unknown` naming
   * the catalog parameter in a form this version does not read; absent when it takes none.
   */
  reasoning?: { values: string[] } | { unknown: string };
}

/** Longest reasoning-effort value the page may send (the host sends only a value the model lists). */
export const MAX_EFFORT_CHARS = 24;

export interface CompareAttachment {
  label: string;
  chars: number;
}

export interface ColumnStats {
  /** Milliseconds from sending to the first text. */
  ttftMs?: number;
  totalMs: number;
  promptTokens?: number;
  completionTokens?: number;
  /** Reasoning tokens, when the reply reports them (G-CHAT-3: counted in total_tokens). */
  reasoningTokens?: number;
  totalTokens?: number;
  /** Prompt tokens read from / written to the prompt cache (part of promptTokens), when there were any. */
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
  /** Exact, e.g. "0.000043 credits"; absent when the reply carried no usage or the model has no rates. */
  credits?: string;
  /** `credits` is an estimate (stopped or cut before the gateway reported usage, or usage it could not read). */
  creditsEstimated?: boolean;
  /** What `credits` was computed from, for its tooltip. */
  costBasis?: string;
}

export type ColumnStatus = 'streaming' | 'done' | 'stopped' | 'error';

const runId = int({ min: 0, max: 999_999 });
const column = int({ min: 0, max: 999_999 });
const text = str({ max: MAX_COMPARE_TEXT });
const modelList = arr(str({ min: 1, max: 256 }), MAX_COMPARE_MODELS);
const effort = opt(str({ min: 1, max: MAX_EFFORT_CHARS }));
/** A request's id (declared in COMPARE_REQUESTS): the page's client sets it, the host's answer echoes it. */
const rid = opt(index);

/**
 * Every message the page sends, once (src/protocol/declare.ts): the union, the host's guard and the
 * controller's exhaustive handler map (CompareHostHandlers) derive from it.
 */
export const COMPARE_TO_HOST = {
  ready: {},
  /** The cost before sending (request: answered by the host's `estimate` with the same `rid`). */
  estimate: { models: modelList, prompt: text, systemPrompt: text, effort, rid },
  /** `effort`: the reasoning effort chosen for the comparison, sent to each model that lists it (#43.3). */
  send: { models: modelList, prompt: text, systemPrompt: text, effort },
  stop: {},
  attach: {},
  removeAttachment: { index: int({ min: 0, max: 999_999 }) },
  continueInChat: { runId, column },
  openLink: { href: str({ max: 4096 }) },
} satisfies Table;

const isReasoning = (v: unknown): boolean => isRecord(v) && (isArrayOf(v.values, isString) || isString(v.unknown));
const isOption = (v: unknown): v is CompareModelOption =>
  isRecord(v) && isString(v.id) && isString(v.label) && typeof v.deprecated === 'boolean' && isString(v.rates) && (v.reasoning === undefined || isReasoning(v.reasoning));
const isAttachment = (v: unknown): v is CompareAttachment => isRecord(v) && isString(v.label) && Number.isSafeInteger(v.chars) && (v.chars as number) >= 0 && (v.chars as number) < 1_000_000;
const isStats = (v: unknown): v is ColumnStats =>
  isRecord(v) &&
  isFiniteNumber(v.totalMs) &&
  isOptional(v.ttftMs, isFiniteNumber) &&
  isOptional(v.promptTokens, isFiniteNumber) &&
  isOptional(v.completionTokens, isFiniteNumber) &&
  isOptional(v.reasoningTokens, isFiniteNumber) &&
  isOptional(v.totalTokens, isFiniteNumber) &&
  isOptional(v.cacheReadTokens, isFiniteNumber) &&
  isOptional(v.cacheWriteTokens, isFiniteNumber) &&
  isOptional(v.credits, isString) &&
  isOptional(v.creditsEstimated, (x): x is boolean => typeof x === 'boolean') &&
  isOptional(v.costBasis, isString);
const isModelText = (p: unknown): p is { model: string; text: string } => isRecord(p) && isString(p.model) && isString(p.text);
const isColumnHead = (c: unknown): c is { model: string; label: string } => isRecord(c) && isString(c.model) && isString(c.label);
const attachments = arr(shape(isAttachment));

/**
 * Every message the host sends, once: the union, the page's guard and its exhaustive handler map
 * (ComparePageHandlers) derive from it.
 */
export const HOST_TO_COMPARE = {
  init: { models: arr(shape(isOption)), selected: arr(str()), systemPrompt: str(), attachments },
  attachments: { attachments },
  /** The cost before sending of the whole comparison and of each model, or why there is none; the answer to the page's `estimate`. */
  estimate: { total: opt(str()), perModel: arr(shape(isModelText)), counted: bool, note: opt(str()), rid },
  started: { runId, columns: arr(shape(isColumnHead)) },
  delta: { runId, column, text: str() },
  /** `cutOff`: the reply ended otherwise than normally (cut off by the output limit, ...), already worded. */
  columnDone: { runId, column, status: oneOf<ColumnStatus>('streaming', 'done', 'stopped', 'error'), stats: shape(isStats), error: opt(str()), cutOff: opt(str()) },
  runDone: { runId, totalCredits: opt(str()) },
  notice: { message: str() },
} satisfies Table;

export type CompareWebviewToHost = MessageOf<typeof COMPARE_TO_HOST>;
export type HostToCompareWebview = MessageOf<typeof HOST_TO_COMPARE>;

/** One handler per page message, for the host (the controller): a missing one is a compile error. */
export type CompareHostHandlers = Handlers<CompareWebviewToHost, void | Promise<void>>;
/** One handler per host message, for the page: a missing one is a compile error. */
export type ComparePageHandlers = Handlers<HostToCompareWebview, void>;

/** The request/response pairs: the page sends through `compareRequestClient`, the host answers with `answerCompare`. */
export const COMPARE_REQUESTS = {
  estimate: { response: 'estimate', id: 'rid', latestOnly: true },
} as const satisfies RequestTable<CompareWebviewToHost, HostToCompareWebview>;

const compareRequests = declareRequests<CompareWebviewToHost, HostToCompareWebview>()(COMPARE_REQUESTS);
/** The answer to a compare request (its `rid` copied); the compiler checks the pair. */
export const answerCompare = compareRequests.answer;
/** The page's client of the compare requests (one per page): an answer to an older one than the last asked is dropped. */
export const compareRequestClient = compareRequests.client;

/** Guard for what the host receives (the page is a separate trust zone): derived from COMPARE_TO_HOST. */
export const isCompareWebviewToHost: (m: unknown) => m is CompareWebviewToHost = guardOf(COMPARE_TO_HOST);

/** Guard for what the page receives: derived from HOST_TO_COMPARE. */
export const isHostToCompareWebview: (m: unknown) => m is HostToCompareWebview = guardOf(HOST_TO_COMPARE);
