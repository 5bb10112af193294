/**
 * Messages between the Compare Models tab's host (src/compare/comparePanel.ts, driving the vscode-free
 * src/core/compare/compareController.ts) and its webview (src/webview/compare/main.ts): one union per
 * direction with a `type` discriminant, a guard for each. No vscode, no DOM, no Node.
 *
 * A comparison is a `run` (its id on every message of it) with one column per model, in the order the
 * page chose. Credits cross as exact decimal strings ("0.000123 credits"), never as numbers.
 */
import { isArrayOf, isFiniteNumber, isOneOf, isOptional, isRecord, isString } from '../core/guards';

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

export type HostToCompareWebview =
  | { type: 'init'; models: CompareModelOption[]; selected: string[]; systemPrompt: string; attachments: CompareAttachment[] }
  | { type: 'attachments'; attachments: CompareAttachment[] }
  /** The cost before sending of the whole comparison and of each model, or why there is none. */
  | { type: 'estimate'; total?: string; perModel: Array<{ model: string; text: string }>; counted: boolean; note?: string }
  | { type: 'started'; runId: number; columns: Array<{ model: string; label: string }> }
  | { type: 'delta'; runId: number; column: number; text: string }
  /** `cutOff`: the reply ended otherwise than normally (cut off by the output limit, ...), already worded. */
  | { type: 'columnDone'; runId: number; column: number; status: ColumnStatus; stats: ColumnStats; error?: string; cutOff?: string }
  | { type: 'runDone'; runId: number; totalCredits?: string }
  | { type: 'notice'; message: string };

export type CompareWebviewToHost =
  | { type: 'ready' }
  | { type: 'estimate'; models: string[]; prompt: string; systemPrompt: string; effort?: string }
  /** `effort`: the reasoning effort chosen for the comparison, sent to each model that lists it (#43.3). */
  | { type: 'send'; models: string[]; prompt: string; systemPrompt: string; effort?: string }
  | { type: 'stop' }
  | { type: 'attach' }
  | { type: 'removeAttachment'; index: number }
  | { type: 'continueInChat'; runId: number; column: number }
  | { type: 'openLink'; href: string };

const isIndex = (v: unknown): v is number => isFiniteNumber(v) && Number.isInteger(v) && v >= 0 && v < 1_000_000;
const isText = (v: unknown): v is string => isString(v) && v.length <= MAX_COMPARE_TEXT;
const isModelList = (v: unknown): v is string[] => isArrayOf(v, (m): m is string => isString(m) && m.length > 0 && m.length <= 256) && v.length <= MAX_COMPARE_MODELS;

export function isCompareWebviewToHost(m: unknown): m is CompareWebviewToHost {
  if (!isRecord(m) || !isString(m.type)) return false;
  switch (m.type) {
    case 'ready':
    case 'stop':
    case 'attach':
      return true;
    case 'estimate':
    case 'send':
      return isModelList(m.models) && isText(m.prompt) && isText(m.systemPrompt) && isOptional(m.effort, (e): e is string => isString(e) && e.length > 0 && e.length <= MAX_EFFORT_CHARS);
    case 'removeAttachment':
      return isIndex(m.index);
    case 'continueInChat':
      return isIndex(m.runId) && isIndex(m.column);
    case 'openLink':
      return isString(m.href) && m.href.length <= 4096;
    default:
      return false;
  }
}

const isReasoning = (v: unknown): boolean => isRecord(v) && (isArrayOf(v.values, isString) || isString(v.unknown));
const isOption = (v: unknown): v is CompareModelOption =>
  isRecord(v) && isString(v.id) && isString(v.label) && typeof v.deprecated === 'boolean' && isString(v.rates) && (v.reasoning === undefined || isReasoning(v.reasoning));
const isAttachment = (v: unknown): v is CompareAttachment => isRecord(v) && isString(v.label) && isIndex(v.chars);
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

export function isHostToCompareWebview(m: unknown): m is HostToCompareWebview {
  if (!isRecord(m) || !isString(m.type)) return false;
  switch (m.type) {
    case 'init':
      return isArrayOf(m.models, isOption) && isArrayOf(m.selected, isString) && isString(m.systemPrompt) && isArrayOf(m.attachments, isAttachment);
    case 'attachments':
      return isArrayOf(m.attachments, isAttachment);
    case 'estimate':
      return isArrayOf(m.perModel, (p): p is { model: string; text: string } => isRecord(p) && isString(p.model) && isString(p.text)) && typeof m.counted === 'boolean' && isOptional(m.total, isString) && isOptional(m.note, isString);
    case 'started':
      return isIndex(m.runId) && isArrayOf(m.columns, (c): c is { model: string; label: string } => isRecord(c) && isString(c.model) && isString(c.label));
    case 'delta':
      return isIndex(m.runId) && isIndex(m.column) && isString(m.text);
    case 'columnDone':
      return isIndex(m.runId) && isIndex(m.column) && isOneOf(m.status, ['streaming', 'done', 'stopped', 'error'] as const) && isStats(m.stats) && isOptional(m.error, isString) && isOptional(m.cutOff, isString);
    case 'runDone':
      return isIndex(m.runId) && isOptional(m.totalCredits, isString);
    case 'notice':
      return isString(m.message);
    default:
      return false;
  }
}
