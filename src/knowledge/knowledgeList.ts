/**
 * The knowledge views' rows (loaded with the first listing, not at activation): a permission the key
 * lacks, an error, an empty or truncated list, the add-a-key row. vscode-free, tested in plain Node.
 */
import type { ListResult } from '../core/knowledge/kbClient';
import * as l10n from '../core/l10n';
import type { MessageNode } from './knowledgeRows';

export interface Permission {
  scope: string;
  level: string;
}

/** The single item a view shows instead of an empty list when the key lacks a permission. */
export function missingPermissionLabel(p: Permission): string {
  return l10n.t({ message: 'This API key lacks the "{0}" {1} permission', args: [p.scope, p.level], comment: ['{0} is a permission scope such as kb, {1} its level such as read or write (API values, not translated)'] });
}

export function missingPermissionDetail(p: Permission): string {
  return l10n.t({ message: 'The gateway refused the list (403). Use a key with {0} {1} access, or ask an administrator to grant it.', args: [p.scope, p.level], comment: ['{0} is a permission scope, {1} its level (API values, not translated)'] });
}

/** The one row a view shows with no API key: clicking it runs Add API Key (no request is sent). */
export function addKeyNode(what: 'collections' | 'agents'): MessageNode {
  const text = what === 'collections' ? l10n.t('Add an API key to see your collections') : l10n.t('Add an API key to see your agents');
  const detail = what === 'collections' ? l10n.t('Add an API key to list your collections.') : l10n.t('Add an API key to list your agents.');
  return { kind: 'message', text, detail, icon: 'key', command: 'aiGateway.addApiKey' };
}

/**
 * Runs a list and turns its outcome into view nodes: the items (or the `empty` row; none for a view's
 * root, whose empty state is the view's welcome, contributes.viewsWelcome), then a note when the
 * client stopped paging; a refusal for lack of permission becomes ONE item naming scope and level,
 * any other failure one item with the error's words.
 */
export async function listNodes<T, N>(
  list: () => Promise<ListResult<T>>,
  permission: (e: unknown) => Promise<Permission | undefined>,
  toNode: (t: T) => N,
  empty: string | undefined,
): Promise<Array<N | MessageNode>> {
  try {
    const res = await list();
    const nodes: Array<N | MessageNode> = res.items.map(toNode);
    if (nodes.length === 0 && empty !== undefined) nodes.push({ kind: 'message', text: empty, icon: 'info' });
    if (res.truncated) nodes.push({ kind: 'message', text: truncatedLabel(), icon: 'ellipsis' });
    return nodes;
  } catch (e) {
    const p = await permission(e).catch(() => undefined);
    if (p) return [{ kind: 'message', text: missingPermissionLabel(p), detail: missingPermissionDetail(p), icon: 'lock' }];
    const { describeError } = await import('../core/errorText');
    return [{ kind: 'message', text: describeError(e).message, icon: 'error' }];
  }
}

/** Shown last in a list the client stopped paging through (page limit or a repeated cursor). */
export const truncatedLabel = (): string => l10n.t('More items exist than can be listed here');
