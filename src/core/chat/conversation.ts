/**
 * The conversation model: what is stored in history and what becomes a chat request.
 * Pure data and functions; no I/O, no vscode.
 */
import type { ChatMessage, Usage } from '../gateway/types';
import type { WireContentPart, WireMessage } from '../gateway/toolWire';
import type { AgentRound, AgentToolCall } from '../agentLoop/agentLoop';
import { readReplyEnd, replyEndText, type ReplyEnd } from '../gateway/finishReason';
import type { ChatErrorView, MessageRole, MessageStatus } from '../../protocol/chatProtocol';

export interface StoredAttachment {
  id: string;
  kind: 'selection' | 'file' | 'image';
  label: string;
  /** Text for selection and file; base64 image bytes for image. */
  content: string;
  /** Image attachments: the type sniffed from the bytes (never from the file name). */
  mime?: string;
}

export interface StoredMessage {
  id: string;
  role: MessageRole;
  content: string;
  status: MessageStatus;
  createdAt: number;
  attachments?: StoredAttachment[];
  modelId?: string;
  usage?: Usage;
  /** Exact nanocredits as a decimal integer string (JSON has no bigint). */
  costNano?: string;
  requestId?: string;
  error?: ChatErrorView;
  /** Agent chat: the reply's tool calls, with their results, as shown in the transcript. */
  toolCalls?: AgentToolCall[];
  /** Agent chat: one entry per model round; `usage` and `costNano` above are their sums. */
  rounds?: AgentRound[];
  /** Agent-session reply: the id response feedback refers to (from the session's reply event). */
  responseId?: string;
  /** Agent-session reply: the thumb the gateway accepted for it. */
  feedback?: 'up' | 'down';
  /** The user stopped this reply (not a failure): kept as received, status `incomplete`, no error. */
  stopped?: boolean;
  /** What was going on when the user stopped it (agent chat: a tool running, an approval waiting). */
  stopNote?: string;
  /** `costNano` is an estimate (the gateway reported no usage before the stop), not the billed figure. */
  costEstimated?: boolean;
  /** The reply ended otherwise than normally (cut off by the output limit, filtered, ...): finishReason.ts. */
  finish?: ReplyEnd;
  /** What `costNano` was computed from (the cost's tooltip): the gateway's usage or an estimate, the rates' pricing_version. */
  costBasis?: string;
  /** Regenerate: the reply's other versions (see replyVersions.ts), oldest first; absent with one version. */
  versions?: ReplyVersion[];
  /** Where this (shown) version sits among `versions` (0 = before all of them); absent = after all. */
  versionAt?: number;
}

/** One earlier (or later) version of a regenerated reply: what the reply shows when it is picked. */
export type ReplyVersion = Pick<StoredMessage, 'content' | 'status' | 'createdAt' | 'modelId' | 'usage' | 'costNano' | 'requestId' | 'error' | 'stopped' | 'stopNote' | 'costEstimated' | 'costBasis' | 'finish' | 'toolCalls' | 'rounds'>;

export interface Conversation {
  /** Bumped when the stored shape changes incompatibly. */
  version: 1;
  id: string;
  title: string;
  modelId: string;
  systemPrompt: string;
  temperature?: number;
  /**
   * The reasoning effort chosen for this conversation; sent only while the model's catalog entry lists
   * it (core/gateway/reasoningEffort.ts). Absent: the model's default, nothing sent.
   */
  reasoningEffort?: string;
  /**
   * Agent chat for this conversation: on or off, the other MCP servers (ids) turned on for it, and
   * whether the gateway's knowledge-base search tool is offered (off unless turned on).
   */
  agent?: { on: boolean; servers?: string[]; kbSearch?: boolean };
  /**
   * Regenerate under way (#29.8): the reply being replaced, kept on disk until the fresh reply is saved
   * with it as its earlier versions. A conversation read while it is set (the window reloaded or closed
   * mid-regenerate) gets it back as its reply (replyVersions.ts restoreInterruptedRegenerate).
   */
  regenerating?: { after: string; previous: StoredMessage };
  /**
   * The agent session this conversation belongs to (Chat with Agent): its messages go through the
   * session's message route instead of chat completions, and its id goes with knowledge-base tool
   * calls. `agentName` is the name the agent had when the chat was opened (for the header).
   */
  agentSession?: { agentId: string; sessionId: string; agentName?: string };
  createdAt: number;
  updatedAt: number;
  messages: StoredMessage[];
}

export const UNTITLED = 'New conversation';

export function newConversation(id: string, modelId: string, now: number): Conversation {
  return { version: 1, id, title: UNTITLED, modelId, systemPrompt: '', createdAt: now, updatedAt: now, messages: [] };
}

/** A title from the first user message: one line, at most 60 characters. */
export function titleFrom(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  if (line.length === 0) return UNTITLED;
  return line.length > 60 ? `${line.slice(0, 57)}…` : line;
}

/** A user message as text: attached selections and files first (images are only named by the caller). */
export function withAttachments(m: StoredMessage): string {
  const text = (m.attachments ?? []).filter((a) => a.kind !== 'image');
  if (!text.length) return m.content;
  const parts = text.map((a) => `Attached ${a.kind === 'selection' ? 'selection' : 'file'} ${a.label}:\n\`\`\`\n${a.content}\n\`\`\``);
  return `${parts.join('\n\n')}\n\n${m.content}`;
}

/**
 * The messages sent to the gateway for the conversation as it stands. Assistant messages that failed
 * before any text are left out; incomplete ones are kept (the model sees what the user saw).
 * Assumption (spec: the request uses roles system and user; assistant in requests is not shown): earlier
 * assistant turns are sent with role `assistant`, as every OpenAI-compatible gateway accepts.
 */
export function requestMessages(conv: Conversation): ChatMessage[] {
  const out: ChatMessage[] = [];
  if (conv.systemPrompt.trim()) out.push({ role: 'system', content: conv.systemPrompt });
  for (const m of conv.messages) {
    if (m.role === 'assistant' && (m.status === 'error' || m.content.length === 0)) continue;
    out.push({ role: m.role, content: m.role === 'user' ? withAttachments(m) : m.content });
  }
  return out;
}

/**
 * The request messages on the wire (src/core/gateway/toolWire.ts): like requestMessages, but a user
 * message with image attachments becomes content parts (text, then one image_url data: URL per
 * image) when the model takes images; otherwise images are named in the text and not sent.
 */
export function wireRequestMessages(conv: Conversation, options: { imageInput: boolean }): WireMessage[] {
  const out: WireMessage[] = [];
  if (conv.systemPrompt.trim()) out.push({ role: 'system', content: conv.systemPrompt });
  for (const m of conv.messages) {
    if (m.role === 'assistant') {
      if (m.status === 'error' || m.content.length === 0) continue;
      out.push({ role: 'assistant', content: m.content });
      continue;
    }
    const images = (m.attachments ?? []).filter((a) => a.kind === 'image' && a.mime);
    const text = withAttachments(m);
    if (images.length === 0) {
      out.push({ role: 'user', content: text });
    } else if (!options.imageInput) {
      out.push({ role: 'user', content: `${images.map((a) => `(Image ${a.label} not sent: this model does not take images.)`).join('\n')}\n\n${text}` });
    } else {
      const parts: WireContentPart[] = [{ type: 'text', text }, ...images.map((a): WireContentPart => ({ type: 'image_url', image_url: { url: `data:${a.mime};base64,${a.content}` } }))];
      out.push({ role: 'user', content: parts });
    }
  }
  return out;
}

/** Whether any user message carries an image (the request then needs the wire form). */
export function hasImages(conv: Conversation): boolean {
  return conv.messages.some((m) => m.attachments?.some((a) => a.kind === 'image'));
}

/**
 * Rough token estimate used only for the context-window warning.
 * Assumption (spec: tokenisation not shown; count_tokens payload not shown): about 4 characters per
 * token plus a small per-message overhead. Errs high for code-heavy text, which is the safe side.
 */
export function estimateTokens(messages: readonly ChatMessage[]): number {
  let chars = 0;
  for (const m of messages) chars += m.content.length;
  return Math.ceil(chars / 4) + messages.length * 4;
}

export function lastIndexOfRole(conv: Conversation, role: MessageRole): number {
  for (let i = conv.messages.length - 1; i >= 0; i--) if (conv.messages[i].role === role) return i;
  return -1;
}

/** Markdown export of a conversation (user-visible text only; never metadata such as request ids). */
export function toMarkdown(conv: Conversation): string {
  const lines = [`# ${conv.title}`, '', conv.agentSession ? `Agent: ${conv.agentSession.agentName ?? conv.agentSession.agentId}` : `Model: \`${conv.modelId}\``, ''];
  if (conv.systemPrompt.trim()) lines.push('**System prompt:**', '', conv.systemPrompt, '');
  for (const m of conv.messages) {
    lines.push(m.role === 'user' ? '## You' : '## Assistant', '');
    for (const a of m.attachments ?? []) lines.push(`*Attached ${a.kind}: ${a.label}*`, '');
    for (const c of m.toolCalls ?? []) lines.push(...toolCallMarkdown(c), '');
    lines.push(m.content, '');
    if (m.feedback) lines.push(`*Feedback: ${m.feedback === 'up' ? 'thumbs up' : 'thumbs down'}*`, '');
    const end = m.role === 'assistant' ? readReplyEnd(m.finish) : undefined;
    if (end) lines.push(`*(${replyEndText(end)})*`, '');
    if (m.stopped) lines.push('*(stopped)*', '');
    else if (m.status === 'incomplete') lines.push('*(incomplete)*', '');
    if (m.status === 'error' && m.error) lines.push(`*Error: ${m.error.message}*`, '');
  }
  return lines.join('\n');
}

function fence(text: string): string {
  const longest = Math.max(2, ...Array.from(text.matchAll(/`+/g), (x) => x[0].length));
  return '`'.repeat(longest + 1);
}

/** One tool call in the Markdown export: name, status, arguments and the result's text. */
export function toolCallMarkdown(c: AgentToolCall): string[] {
  const f = fence(c.args);
  const lines = [`**Tool call: ${c.name}**${c.serverLabel ? ` (${c.serverLabel})` : ''} · ${c.status}${c.durationMs !== undefined ? ` · ${c.durationMs} ms` : ''}`, '', `${f}json`, c.args, f];
  if (c.approval?.decision) lines.push('', `*${c.approval.decision === 'approved' ? 'Approved' : 'Denied'} by the user*`);
  const texts = (c.result?.content ?? []).map((b) => (b.type === 'text' ? String((b as { text?: unknown }).text ?? '') : `[${b.type}]`)).filter((t) => t !== '');
  if (texts.length) {
    const body = texts.join('\n');
    const g = fence(body);
    lines.push('', 'Result:', '', g, body, g);
  } else if (c.result?.structuredContent !== undefined) {
    const body = JSON.stringify(c.result.structuredContent, null, 2);
    const g = fence(body);
    lines.push('', 'Result:', '', `${g}json`, body, g);
  }
  if (c.note) lines.push('', `*${c.note.replace(/\n/g, ' ')}*`);
  return lines;
}
