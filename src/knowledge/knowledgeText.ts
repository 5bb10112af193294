/**
 * The knowledge feature's words and small decisions, vscode-free so they are tested in plain Node:
 * what a view says when the key lacks a permission, the delete questions, search-result items, the
 * indexing summary, the read-only documents for session events and agent chat, and which workspace
 * file a picked path or a search hit is.
 *
 * Server text (names, snippets, event text) is untrusted: it only ever lands in labels, a quick pick
 * or a read-only text document, and it is cut to a bounded length here.
 */
import type { Agent, Session, SessionEvent } from '../core/knowledge/agentsClient';
import type { IndexPlan } from '../core/knowledge/indexPlan';
import type { Collection, SearchHit } from '../core/knowledge/kbClient';
import * as l10n from '../core/l10n';
import { clip } from './knowledgeRows';
import { truncatedLabel } from './knowledgeList';

export { BoundedTexts, clip, type MessageNode } from './knowledgeRows';
export { addKeyNode, listNodes, missingPermissionDetail, missingPermissionLabel, truncatedLabel, type Permission } from './knowledgeList';

/** A count for display, in the display language's digits and grouping. */
function num(n: number): string {
  return n.toLocaleString(l10n.displayLocale());
}

export function deleteCollectionQuestion(c: Pick<Collection, 'name' | 'documentCount'>): string {
  const name = clip(c.name, 200);
  if (c.documentCount === undefined) return l10n.t('Delete the collection "{0}" and all its documents? This cannot be undone.', name);
  if (c.documentCount === 1) return l10n.t('Delete the collection "{0}" and its 1 document? This cannot be undone.', name);
  return l10n.t('Delete the collection "{0}" and its {1} documents? This cannot be undone.', name, num(c.documentCount));
}

export function deleteDocumentQuestion(title: string, collection: string): string {
  return l10n.t('Delete "{0}" from the collection "{1}"?', clip(title, 200), clip(collection, 200));
}

export function deleteAgentQuestion(a: Pick<Agent, 'name'>): string {
  return l10n.t('Delete the agent "{0}" and its sessions? This cannot be undone.', clip(a.name, 200));
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
  const into = clip(collection, 200);
  if (replaced > 0) parts.push(outcome.sent === 1 ? l10n.t('Indexed 1 file into "{0}" ({1} replaced).', into, num(replaced)) : l10n.t('Indexed {0} files into "{1}" ({2} replaced).', num(outcome.sent), into, num(replaced)));
  else parts.push(outcome.sent === 1 ? l10n.t('Indexed 1 file into "{0}".', into) : l10n.t('Indexed {0} files into "{1}".', num(outcome.sent), into));
  if (plan.unchanged.length > 0) parts.push(plan.unchanged.length === 1 ? l10n.t('1 file was unchanged.') : l10n.t('{0} files were unchanged.', num(plan.unchanged.length)));
  if (plan.skipped.length > 0) {
    const byReason = new Map<string, number>();
    for (const s of plan.skipped) byReason.set(skipText(s.reason), (byReason.get(skipText(s.reason)) ?? 0) + 1);
    parts.push(l10n.t('Skipped {0}.', [...byReason].map(([why, n]) => l10n.t({ message: '{0} {1}', args: [num(n), why], comment: ['a count and why those files were skipped, e.g. "2 not text"'] })).join(', ')));
    // Files refused for leading outside the workspace are named, so the user sees which links to fix.
    const outside = plan.skipped.filter((s) => s.reason === 'outside_workspace').map((s) => clip(s.path, 120));
    if (outside.length > 0) parts.push(outside.length > 3 ? l10n.t('Not read: {0} and {1} more.', outside.slice(0, 3).join(', '), num(outside.length - 3)) : l10n.t('Not read: {0}.', outside.join(', ')));
  }
  if (outcome.cancelled) parts.push(outcome.notSent === 1 ? l10n.t('Cancelled: 1 file was not sent.') : l10n.t('Cancelled: {0} files were not sent.', num(outcome.notSent)));
  else if (outcome.failed) parts.push(outcome.notSent === 1 ? l10n.t('Stopped at an error: 1 file was not sent.') : l10n.t('Stopped at an error: {0} files were not sent.', num(outcome.notSent)));
  return parts.join(' ');
}

/** The read-only Markdown of a session's events; a moderation block shows only `moderation`. */
export function renderSessionEvents(session: Pick<Session, 'id' | 'title'>, events: readonly SessionEvent[], truncated: boolean): string {
  const lines = [`# ${l10n.t('Session {0}', clip(session.title ?? session.id, 200))}`, ''];
  if (events.length === 0) lines.push(`_${l10n.t('No events yet.')}_`, '');
  for (const e of events) {
    const who = e.role ?? e.type;
    lines.push(`## ${clip(who, 60)}${e.createdAt ? ` · ${clip(e.createdAt, 40)}` : ''}`, '', e.text ?? `_(${l10n.t('{0} event', clip(e.type, 60))})_`, '');
  }
  if (truncated) lines.push(`_${truncatedLabel()}._`, '');
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

