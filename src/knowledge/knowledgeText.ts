/**
 * The knowledge feature's words and small decisions, vscode-free so they are tested in plain Node:
 * what a view says when the key lacks a permission, the delete questions, search-result items, the
 * indexing summary, the read-only documents for session events and agent chat, and which workspace
 * file a picked path or a search hit is.
 *
 * Server text (names, snippets, event text) is untrusted: it only ever lands in labels, a quick pick
 * or a read-only text document, and it is cut to a bounded length here.
 */
import type { Agent, Session, SessionEvent } from '../core/agents/agentsClient';
import type { IndexPlan } from '../core/kb/indexPlan';
import type { Collection, SearchHit } from '../core/kb/kbClient';
import { clip, TRUNCATED_LABEL } from './knowledgeRows';

export { addKeyNode, BoundedTexts, clip, listNodes, missingPermissionDetail, missingPermissionLabel, TRUNCATED_LABEL, type MessageNode, type Permission } from './knowledgeRows';

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

export function deleteCollectionQuestion(c: Pick<Collection, 'name' | 'documentCount'>): string {
  const docs = c.documentCount === undefined ? 'all its documents' : `its ${plural(c.documentCount, 'document', 'documents')}`;
  return `Delete the collection "${clip(c.name, 200)}" and ${docs}? This cannot be undone.`;
}

export function deleteDocumentQuestion(title: string, collection: string): string {
  return `Delete "${clip(title, 200)}" from the collection "${clip(collection, 200)}"?`;
}

export function deleteAgentQuestion(a: Pick<Agent, 'name'>): string {
  return `Delete the agent "${clip(a.name, 200)}" and its sessions? This cannot be undone.`;
}

export interface HitItem {
  label: string;
  description: string;
  detail: string;
}

/** A quick-pick row for a search hit: title, where it matched, and the snippet. */
export function hitItem(hit: SearchHit): HitItem {
  return {
    label: clip(hit.title ?? hit.sourceId, 120),
    description: `${clip(hit.sourceId, 120)}:${hit.line}:${hit.column}`,
    detail: clip(hit.snippet, 300),
  };
}

/** Zero-based editor position of a hit (the wire's line and column are 1-based). */
export function hitPosition(hit: Pick<SearchHit, 'line' | 'column'>): { line: number; character: number } {
  return { line: Math.max(0, hit.line - 1), character: Math.max(0, hit.column - 1) };
}

/**
 * The workspace-relative posix path of `path` below `root` (both URI paths, '/'-separated), '' for
 * the root itself, undefined when it is outside. Case-sensitive on purpose: a refusal is safer than a
 * wrong match.
 */
export function relativeUnder(root: string, path: string): string | undefined {
  const r = root.endsWith('/') ? root.slice(0, -1) : root;
  if (path === r || path === `${r}/`) return '';
  if (!path.startsWith(`${r}/`)) return undefined;
  const rest = path.slice(r.length + 1).replace(/\/+$/, '');
  if (rest.split('/').some((p) => p === '' || p === '.' || p === '..')) return undefined;
  return rest;
}

export interface IndexOutcome {
  sent: number;
  notSent: number;
  cancelled: boolean;
  failed: boolean;
}

/** One sentence after an indexing run. `skipText` phrases a skip reason. */
export function indexSummary(collection: string, plan: IndexPlan, outcome: IndexOutcome, skipText: (reason: IndexPlan['skipped'][number]['reason']) => string): string {
  const parts: string[] = [];
  const replaced = plan.send.slice(0, outcome.sent).filter((d) => d.status === 'changed').length;
  parts.push(`Indexed ${plural(outcome.sent, 'file', 'files')} into "${clip(collection, 200)}"${replaced > 0 ? ` (${replaced} replaced)` : ''}.`);
  if (plan.unchanged.length > 0) parts.push(`${plural(plan.unchanged.length, 'file was', 'files were')} unchanged.`);
  if (plan.skipped.length > 0) {
    const byReason = new Map<string, number>();
    for (const s of plan.skipped) byReason.set(skipText(s.reason), (byReason.get(skipText(s.reason)) ?? 0) + 1);
    parts.push(`Skipped ${[...byReason].map(([why, n]) => `${n} ${why}`).join(', ')}.`);
    // Files refused for leading outside the workspace are named, so the user sees which links to fix.
    const outside = plan.skipped.filter((s) => s.reason === 'outside_workspace').map((s) => clip(s.path, 120));
    if (outside.length > 0) parts.push(`Not read: ${outside.slice(0, 3).join(', ')}${outside.length > 3 ? ` and ${outside.length - 3} more` : ''}.`);
  }
  if (outcome.cancelled) parts.push(`Cancelled: ${plural(outcome.notSent, 'file was', 'files were')} not sent.`);
  else if (outcome.failed) parts.push(`Stopped at an error: ${plural(outcome.notSent, 'file was', 'files were')} not sent.`);
  return parts.join(' ');
}

/** The read-only Markdown of a session's events; a moderation block shows only `moderation`. */
export function renderSessionEvents(session: Pick<Session, 'id' | 'title'>, events: readonly SessionEvent[], truncated: boolean): string {
  const lines = [`# Session ${clip(session.title ?? session.id, 200)}`, ''];
  if (events.length === 0) lines.push('_No events yet._', '');
  for (const e of events) {
    const who = e.role ?? e.type;
    lines.push(`## ${clip(who, 60)}${e.createdAt ? ` · ${clip(e.createdAt, 40)}` : ''}`, '', e.text ?? `_(${clip(e.type, 60)} event)_`, '');
  }
  if (truncated) lines.push(`_${TRUNCATED_LABEL}._`, '');
  return lines.join('\n');
}

/**
 * The argument of aiGateway.chat.openAgentSession (the chat feature checks it again): the agent, the
 * session and, when it already has some, the session's messages to show first (user and assistant
 * events with text; the assistant's response id is what its feedback refers to).
 */
export function agentChatArg(agent: Pick<Agent, 'id' | 'name'>, sessionId: string, events: readonly SessionEvent[] = []): {
  agentId: string;
  agentName: string;
  sessionId: string;
  events: Array<{ role: 'user' | 'assistant'; text: string; responseId?: string }>;
} {
  const messages: Array<{ role: 'user' | 'assistant'; text: string; responseId?: string }> = [];
  for (const e of events) {
    if ((e.role !== 'user' && e.role !== 'assistant') || !e.text) continue;
    messages.push({ role: e.role, text: e.text, ...(e.role === 'assistant' && e.responseId ? { responseId: e.responseId } : {}) });
  }
  return { agentId: agent.id, agentName: clip(agent.name, 200), sessionId, events: messages };
}

