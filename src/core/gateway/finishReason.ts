/**
 * How a reply ended: the ONE place the client interprets a reply's finish reason (chat completions'
 * `finish_reason`, and the messages route's `stop_reason` once messagesWire.ts has read it). Every
 * surface that shows a reply (the chat, agent rounds, Compare, VS Code's chat through the provider, the
 * content commands) asks `replyEnd` and shows `replyEndText` when it answers something.
 *
 * Assumption (spec: "finish_reason values other than stop: not shown"; the spec shows only `stop` for a
 * normal end):
 * - `stop` is the normal end. A reply whose stream reached its end (`[DONE]`, `message_stop`) without
 *   any finish reason is taken as finished too (a broken stream is an error of its own).
 * - `length`: the output limit cut the reply off. It can be continued.
 * - `content_filter`: the provider's filter cut it off. Not continued.
 * - `tool_calls`: normal when tools were offered; without tools the reply is flagged (it ended asking
 *   for something nobody will run).
 * - any other value is unknown: flagged with its name (bounded, letters only), and it can be continued.
 * - The messages route (stopReasonAsFinish): `end_turn` and `stop_sequence` are `stop`, `tool_use` is
 *   `tool_calls`, `max_tokens` and `model_context_window_exceeded` are `length`, `refusal` is a refusal
 *   (flagged, not continued); anything else passes through and is unknown.
 * When a gateway answers otherwise than assumed, the reply is shown as it arrived with a line saying how
 * it ended, and nothing that would use it silently does (content commands ask before using it).
 */
import * as l10n from '../l10n';

export type ReplyEndKind = 'length' | 'content_filter' | 'refusal' | 'tool_calls' | 'unknown';

/** A reply that did not end normally: how it ended, the reason as sent (bounded), and whether Continue makes sense. */
export interface ReplyEnd {
  kind: ReplyEndKind;
  /** The finish reason as the gateway sent it: at most MAX_REASON_CHARS of letters, digits, `_`, `-`, `.`. */
  reason: string;
  continuable: boolean;
}

export const MAX_REASON_CHARS = 40;

/** The chat-completion finish_reason for a messages-route stop_reason (null when there is none). */
export function stopReasonAsFinish(stopReason: string | null | undefined): string | null {
  switch (stopReason) {
    case undefined:
    case null:
      return null;
    case 'end_turn':
    case 'stop_sequence':
      return 'stop';
    case 'tool_use':
      return 'tool_calls';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    default:
      return stopReason;
  }
}

/** The reason as it may be shown: server text, so bounded and reduced to a plain identifier. */
function shownReason(reason: string): string {
  const plain = reason.slice(0, 200).replace(/[^A-Za-z0-9_.-]/g, '');
  return plain.slice(0, MAX_REASON_CHARS) || '?';
}

/**
 * How a reply ended, or undefined when it ended normally. `toolsOffered`: the request carried tools
 * (then `tool_calls` is a normal end).
 */
export function replyEnd(finishReason: unknown, options: { toolsOffered: boolean }): ReplyEnd | undefined {
  if (finishReason === undefined || finishReason === null || finishReason === 'stop') return undefined;
  if (typeof finishReason !== 'string') return { kind: 'unknown', reason: '?', continuable: true };
  switch (finishReason) {
    case 'length':
      return { kind: 'length', reason: finishReason, continuable: true };
    case 'content_filter':
      return { kind: 'content_filter', reason: finishReason, continuable: false };
    case 'refusal':
      return { kind: 'refusal', reason: finishReason, continuable: false };
    case 'tool_calls':
      return options.toolsOffered ? undefined : { kind: 'tool_calls', reason: finishReason, continuable: false };
    default:
      return { kind: 'unknown', reason: shownReason(finishReason), continuable: true };
  }
}

/** A stored end read back from history (or anything else): only a well-formed one survives. */
export function readReplyEnd(x: unknown): ReplyEnd | undefined {
  if (typeof x !== 'object' || x === null) return undefined;
  const v = x as Partial<ReplyEnd>;
  const kinds: readonly string[] = ['length', 'content_filter', 'refusal', 'tool_calls', 'unknown'];
  if (typeof v.kind !== 'string' || !kinds.includes(v.kind) || typeof v.reason !== 'string' || typeof v.continuable !== 'boolean') return undefined;
  return { kind: v.kind as ReplyEndKind, reason: shownReason(v.reason), continuable: v.continuable };
}

/** The line shown under (or after) a reply that did not end normally. */
export function replyEndText(end: ReplyEnd): string {
  switch (end.kind) {
    case 'length':
      return l10n.t('Cut off: the model reached its output limit.');
    case 'content_filter':
      return l10n.t('Cut off by the content filter.');
    case 'refusal':
      return l10n.t('The model declined to answer.');
    case 'tool_calls':
      return l10n.t('The reply ended asking for a tool, but no tools were offered: it may be incomplete.');
    case 'unknown':
      return l10n.t('The reply ended for a reason this extension does not know ({0}): it may be incomplete.', end.reason);
  }
}

/** What the chat sends to have a cut-off reply continued (a user turn; the cut-off reply stays as it is). */
export function continuePrompt(): string {
  return l10n.t('Continue exactly where your previous reply stopped, without repeating what you already wrote.');
}

/**
 * Watches a stream's finish reasons as they pass: the last one seen wins (a stream sends it on its
 * final chunk). For the callers that read chunks themselves.
 */
export class FinishWatch {
  private last: unknown;

  /** Reads the finish reason of a chat-completion chunk or completion (first choice). */
  see(chunkOrCompletion: unknown): void {
    const choice = (chunkOrCompletion as { choices?: unknown } | null)?.choices;
    if (!Array.isArray(choice) || choice.length === 0) return;
    const r = (choice[0] as { finish_reason?: unknown } | null)?.finish_reason;
    if (r !== undefined && r !== null) this.last = r;
  }

  end(options: { toolsOffered: boolean }): ReplyEnd | undefined {
    return replyEnd(this.last, options);
  }
}
