/**
 * The conversation model: what is stored in history and what becomes a chat request.
 * Pure data and functions; no I/O, no vscode.
 */
import type { ChatMessage, Usage } from '../gateway/types';
import type { ChatErrorView, MessageRole, MessageStatus } from '../../shared/chatProtocol';

export interface StoredAttachment {
  id: string;
  kind: 'selection' | 'file';
  label: string;
  content: string;
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
}

export interface Conversation {
  /** Bumped when the stored shape changes incompatibly. */
  version: 1;
  id: string;
  title: string;
  modelId: string;
  systemPrompt: string;
  temperature?: number;
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

function withAttachments(m: StoredMessage): string {
  if (!m.attachments?.length) return m.content;
  const parts = m.attachments.map((a) => `Attached ${a.kind === 'selection' ? 'selection' : 'file'} ${a.label}:\n\`\`\`\n${a.content}\n\`\`\``);
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
  const lines = [`# ${conv.title}`, '', `Model: \`${conv.modelId}\``, ''];
  if (conv.systemPrompt.trim()) lines.push('**System prompt:**', '', conv.systemPrompt, '');
  for (const m of conv.messages) {
    lines.push(m.role === 'user' ? '## You' : '## Assistant', '');
    for (const a of m.attachments ?? []) lines.push(`*Attached ${a.kind}: ${a.label}*`, '');
    lines.push(m.content, '');
    if (m.status === 'incomplete') lines.push('*(incomplete)*', '');
    if (m.status === 'error' && m.error) lines.push(`*Error: ${m.error.message}*`, '');
  }
  return lines.join('\n');
}
