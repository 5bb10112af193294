/**
 * The knowledge feature's words and small decisions, vscode-free so they are tested in plain Node:
 * what a view says when the key lacks a permission, the delete questions, search-result items, the
 * indexing summary, the read-only documents for session events and agent chat, and which workspace
 * file a picked path or a search hit is.
 *
 * Server text (names, snippets, event text) is untrusted: it only ever lands in labels, a quick pick
 * or a read-only text document, and it is cut to a bounded length here.
 */
import { describeError } from '../core/errorText';
import type { Agent, Collection, IndexPlan, ListResult, SearchHit, Session, SessionEvent } from './knowledgeApi';

export interface Permission {
  scope: string;
  level: string;
}

/** The single item a view shows instead of an empty list when the key lacks a permission. */
export function missingPermissionLabel(p: Permission): string {
  return `This API key lacks the "${p.scope}" ${p.level} permission`;
}

export function missingPermissionDetail(p: Permission): string {
  return `The gateway refused the list (403). Use a key with ${p.scope} ${p.level} access, or ask an administrator to grant it.`;
}

/** A view row that is not an item: a permission the key lacks, an error, an empty or truncated list. */
export type MessageNode = { kind: 'message'; text: string; detail?: string; icon: string; command?: string };

/** The one row a view shows with no API key: clicking it runs Add API Key (no request is sent). */
export function addKeyNode(what: string): MessageNode {
  return { kind: 'message', text: `Add an API key to see your ${what}`, detail: `Add an API key to list your ${what}.`, icon: 'key', command: 'aiGateway.addApiKey' };
}

/**
 * Runs a list and turns its outcome into view nodes: the items (or "empty"), then a note when the
 * client stopped paging; a refusal for lack of permission becomes ONE item naming scope and level,
 * any other failure one item with the error's words.
 */
export async function listNodes<T, N>(
  list: () => Promise<ListResult<T>>,
  permission: (e: unknown) => Promise<Permission | undefined>,
  toNode: (t: T) => N,
  empty: string,
): Promise<Array<N | MessageNode>> {
  try {
    const res = await list();
    const nodes: Array<N | MessageNode> = res.items.map(toNode);
    if (nodes.length === 0) nodes.push({ kind: 'message', text: empty, icon: 'info' });
    if (res.truncated) nodes.push({ kind: 'message', text: TRUNCATED_LABEL, icon: 'ellipsis' });
    return nodes;
  } catch (e) {
    const p = await permission(e).catch(() => undefined);
    if (p) return [{ kind: 'message', text: missingPermissionLabel(p), detail: missingPermissionDetail(p), icon: 'lock' }];
    return [{ kind: 'message', text: describeError(e).message, icon: 'error' }];
  }
}

/** Shown last in a list the client stopped paging through (page limit or a repeated cursor). */
export const TRUNCATED_LABEL = 'More items exist than can be listed here';

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

/** Cuts to `max` characters and flattens line breaks (labels and quick-pick rows are one line). */
export function clip(s: string, max: number): string {
  const flat = s.replace(/[\r\n\t]+/g, ' ');
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
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

/** A bounded map from document key to text: the oldest entry goes when `max` is reached. */
export class BoundedTexts {
  private readonly map = new Map<string, string>();
  constructor(private readonly max: number) {}
  set(key: string, text: string): void {
    this.map.delete(key);
    this.map.set(key, text);
    while (this.map.size > this.max) this.map.delete(this.map.keys().next().value as string);
  }
  get(key: string): string | undefined {
    return this.map.get(key);
  }
  get size(): number {
    return this.map.size;
  }
}
