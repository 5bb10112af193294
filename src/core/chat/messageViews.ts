/**
 * What the webview is shown of stored messages: pure functions from the history's form to the
 * protocol's views (src/protocol/chatProtocol.ts). Nothing here holds a credential.
 */
import type { Usage } from '../gateway/types';
import type { AttachmentView, MessageView, RoundView, ToolCallView, UsageView } from '../../protocol/chatProtocol';
import type { AgentRound, AgentToolCall } from '../agentLoop/agentLoop';
import { UNTITLED, type Conversation, type StoredAttachment, type StoredMessage } from './conversation';
import { costView, sumNano } from './cost';
import { readReplyEnd, replyEndText } from '../gateway/finishReason';

/**
 * A message as the webview shows it. `rateable`: the open conversation is bound to an agent session,
 * so its replies that carry a response id can be rated.
 */
export function messageView(m: StoredMessage, rateable: boolean): MessageView {
  // Replies stopped before stops were kept apart were saved with the error "Stopped.": shown as stopped too.
  const stopped = m.stopped || (m.role === 'assistant' && m.status === 'incomplete' && m.error?.message === 'Stopped.');
  const count = m.versions?.length ? m.versions.length + 1 : 0;
  return {
    id: m.id,
    role: m.role,
    content: m.content,
    status: m.status,
    ...(m.attachments?.length ? { attachments: m.attachments.map(attachmentView) } : {}),
    ...(m.usage ? { usage: usageView(m.usage) } : {}),
    ...(m.costNano !== undefined ? { cost: costView(BigInt(m.costNano)) } : {}),
    ...(m.error && !stopped ? { error: m.error } : {}),
    ...(stopped ? { stopped: m.stopNote ? { note: m.stopNote } : {} } : {}),
    ...(m.costEstimated && m.costNano !== undefined ? { costEstimated: true } : {}),
    ...cutOffView(m),
    ...(m.costBasis && m.costNano !== undefined ? { costBasis: m.costBasis } : {}),
    ...(count ? { version: { index: Math.min(m.versionAt ?? count - 1, count - 1) + 1, count } } : {}),
    ...(m.modelId ? { modelId: m.modelId } : {}),
    ...(m.toolCalls?.length ? { toolCalls: m.toolCalls.map(toolCallView) } : {}),
    ...(m.rounds?.length ? { rounds: m.rounds.map(roundView) } : {}),
    // Only replies of an agent session that carry a response id can be rated.
    ...(m.role === 'assistant' && m.responseId && rateable ? { feedback: m.feedback ? { rating: m.feedback } : {} } : {}),
  };
}

/** A reply that did not end normally (finishReason.ts): the line under it, and whether Continue makes sense. */
function cutOffView(m: StoredMessage): Pick<MessageView, 'cutOff'> {
  const end = m.role === 'assistant' && m.status === 'complete' ? readReplyEnd(m.finish) : undefined;
  return end ? { cutOff: { text: replyEndText(end), continuable: end.continuable } } : {};
}

/**
 * What a chat tab is titled: the conversation's title, bounded; a new one is "New Chat", and a new
 * conversation with an agent is named after the agent.
 */
export function tabTitle(conv: Conversation): string {
  const title = conv.title.replace(/\s+/g, ' ').trim();
  if (!title || title === UNTITLED) return conv.agentSession ? `Agent: ${agentLabel(conv.agentSession)}` : 'New Chat';
  return title.length > 50 ? `${title.slice(0, 49)}…` : title;
}

/** The agent's name for the header, bounded and on one line (it is server text). */
export function agentLabel(s: NonNullable<Conversation['agentSession']>): string {
  const name = (s.agentName ?? s.agentId).replace(/\s+/g, ' ').trim();
  return name.length > 80 ? `${name.slice(0, 79)}…` : name || 'Agent';
}

export function attachmentView(a: StoredAttachment): AttachmentView {
  return { id: a.id, kind: a.kind, label: a.label, size: a.content.length };
}

/** History files are read back as they are: a result whose content is not a list is not shown. */
export function toolCallView(c: AgentToolCall): ToolCallView {
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
    ...(r.estimated && r.costNano !== undefined ? { costEstimated: true } : {}),
    ...(r.costBasis && r.costNano !== undefined ? { costBasis: r.costBasis } : {}),
    ...(r.requestId ? { requestId: r.requestId } : {}),
    ...(readReplyEnd(r.end) ? { cutOff: replyEndText(readReplyEnd(r.end)!) } : {}),
  };
}

/**
 * The reply's usage and cost: exact sums over its rounds (a round without a price leaves the cost out);
 * `estimated` when any round's figures are the client's estimate.
 */
export function sumRounds(rounds: readonly AgentRound[]): { usage?: Usage; costNano?: string; estimated?: boolean } {
  const priced = rounds.filter((r) => r.usage);
  if (priced.length === 0) return {};
  const usage: Usage = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0, completion_tokens_details: { reasoning_tokens: 0 } };
  for (const r of priced) {
    usage.prompt_tokens += r.usage!.prompt_tokens;
    usage.completion_tokens += r.usage!.completion_tokens;
    usage.total_tokens += r.usage!.total_tokens;
    usage.completion_tokens_details!.reasoning_tokens! += r.usage!.completion_tokens_details?.reasoning_tokens ?? 0;
    if (r.usage!.cache_read_tokens) usage.cache_read_tokens = (usage.cache_read_tokens ?? 0) + r.usage!.cache_read_tokens;
    if (r.usage!.cache_write_tokens) usage.cache_write_tokens = (usage.cache_write_tokens ?? 0) + r.usage!.cache_write_tokens;
  }
  const costs = priced.map((r) => r.costNano);
  return {
    usage,
    ...(costs.every((c): c is string => c !== undefined) ? { costNano: sumNano(costs as string[]).toString() } : {}),
    ...(priced.some((r) => r.estimated) ? { estimated: true } : {}),
  };
}

/** Tokens as shown: cache reads and writes (inside the prompt) only when there were any (#39.3). */
function usageView(u: Usage): UsageView {
  return {
    promptTokens: u.prompt_tokens,
    completionTokens: u.completion_tokens,
    reasoningTokens: u.completion_tokens_details?.reasoning_tokens ?? 0,
    totalTokens: u.total_tokens,
    ...(u.cache_read_tokens ? { cacheReadTokens: u.cache_read_tokens } : {}),
    ...(u.cache_write_tokens ? { cacheWriteTokens: u.cache_write_tokens } : {}),
  };
}
