/**
 * The Knowledge and Agents views. Each level is fetched when expanded (all pages, see the core's
 * listAll) and refetched on refresh; a key without the list's permission sees one item naming the
 * scope and level instead of an empty list, and any other failure one item with the error's words.
 *
 * The views are registered at activation, so the core clients (src/core/knowledge/kbClient.ts,
 * src/core/knowledge/agentsClient.ts) are imported on the first listing, with the shared gateway client.
 */
import * as vscode from 'vscode';
import type { Agent, Session } from '../core/knowledge/agentsClient';
import { Disposable } from '../core/disposables';
import type { IGatewayClient } from '../core/gateway/api';
import type { Collection, KbDocument } from '../core/knowledge/kbClient';
import { clip, type MessageNode } from './knowledgeRows';

export type { MessageNode };

export const KNOWLEDGE_VIEW_ID = 'aiGateway.knowledge';
export const AGENTS_VIEW_ID = 'aiGateway.agents';

export type KnowledgeNode = { kind: 'collection'; collection: Collection } | { kind: 'document'; collection: Collection; document: KbDocument } | MessageNode;

export type AgentsNode = { kind: 'agent'; agent: Agent } | { kind: 'session'; agent: Agent; session: Session } | MessageNode;

function messageItem(node: MessageNode): vscode.TreeItem {
  const item = new vscode.TreeItem(node.text, vscode.TreeItemCollapsibleState.None);
  item.tooltip = node.detail ?? node.text;
  item.iconPath = new vscode.ThemeIcon(node.icon);
  item.contextValue = 'knowledgeMessage';
  if (node.command) item.command = { command: node.command, title: node.text };
  return item;
}

abstract class RefreshableTree<N> extends Disposable implements vscode.TreeDataProvider<N> {
  protected readonly changed = this._register(new vscode.EventEmitter<N | undefined>());
  readonly onDidChangeTreeData = this.changed.event;
  refresh(node?: N): void {
    this.changed.fire(node);
  }
  abstract getTreeItem(node: N): vscode.TreeItem;
  abstract getChildren(node?: N): Promise<N[]>;
}

/** Whether an API key is active: without one the views ask for a key instead of sending a request. */
export type HasKey = () => boolean;

/** The shared gateway client of the active key (services.getClient()). */
export type GetClient = () => Promise<IGatewayClient>;

const kbClient = () => import('../core/knowledge/kbClient');
const agentsClient = () => import('../core/knowledge/agentsClient');
/** The rows' words (permission, error, empty, add-a-key), loaded with the first listing rather than at activation. */
const rows = () => import('./knowledgeList');

export class KnowledgeTree extends RefreshableTree<KnowledgeNode> {
  constructor(
    private readonly getClient: GetClient,
    private readonly hasKey: HasKey,
  ) {
    super();
  }

  getTreeItem(node: KnowledgeNode): vscode.TreeItem {
    switch (node.kind) {
      case 'collection': {
        const c = node.collection;
        const item = new vscode.TreeItem(clip(c.name, 120), vscode.TreeItemCollapsibleState.Collapsed);
        item.id = `collection:${c.id}`;
        item.description = c.documentCount === undefined ? undefined : c.documentCount === 1 ? vscode.l10n.t('1 document') : vscode.l10n.t('{0} documents', c.documentCount.toLocaleString(vscode.env.language));
        item.iconPath = new vscode.ThemeIcon('library');
        item.contextValue = 'kbCollection';
        return item;
      }
      case 'document': {
        const d = node.document;
        const item = new vscode.TreeItem(clip(d.title ?? d.sourceId, 120), vscode.TreeItemCollapsibleState.None);
        item.id = `document:${node.collection.id}:${d.id}`;
        item.description = clip(d.sourceId, 120);
        item.tooltip = `${clip(d.sourceId, 300)}${d.updatedAt ? `\n${vscode.l10n.t('Updated {0}', clip(d.updatedAt, 40))}` : ''}`;
        item.iconPath = new vscode.ThemeIcon('file-text');
        item.contextValue = 'kbDocument';
        item.command = { command: 'aiGateway.knowledge.openDocument', title: vscode.l10n.t('Open Document'), arguments: [node] };
        return item;
      }
      case 'message':
        return messageItem(node);
    }
  }

  async getChildren(node?: KnowledgeNode): Promise<KnowledgeNode[]> {
    if (!node) {
      const { addKeyNode, listNodes } = await rows();
      if (!this.hasKey()) return [addKeyNode('collections')];
      return listNodes(async () => (await kbClient()).listCollections(await this.getClient()), async (e) => (await kbClient()).kbMissingPermission('listCollections', e), (collection): KnowledgeNode => ({ kind: 'collection', collection }), undefined);
    }
    if (node.kind === 'collection') {
      const collection = node.collection;
      const { listNodes } = await rows();
      return listNodes(async () => (await kbClient()).listDocuments(await this.getClient(), collection.id), async (e) => (await kbClient()).kbMissingPermission('listDocuments', e), (document): KnowledgeNode => ({ kind: 'document', collection, document }), vscode.l10n.t('No documents yet'));
    }
    return [];
  }
}

export class AgentsTree extends RefreshableTree<AgentsNode> {
  constructor(
    private readonly getClient: GetClient,
    private readonly hasKey: HasKey,
  ) {
    super();
  }

  getTreeItem(node: AgentsNode): vscode.TreeItem {
    switch (node.kind) {
      case 'agent': {
        const a = node.agent;
        const archived = a.status === 'archived';
        const item = new vscode.TreeItem(clip(a.name, 120), vscode.TreeItemCollapsibleState.Collapsed);
        item.id = `agent:${a.id}`;
        item.description = archived ? vscode.l10n.t('archived') : a.instructions ? clip(a.instructions, 80) : undefined;
        item.tooltip = `${clip(a.name, 200)}${a.model ? `\n${vscode.l10n.t('Model: {0}', clip(a.model, 100))}` : ''}${a.instructions ? `\n${clip(a.instructions, 500)}` : ''}`;
        item.iconPath = new vscode.ThemeIcon(archived ? 'archive' : 'hubot');
        item.contextValue = archived ? 'agent.archived' : 'agent';
        return item;
      }
      case 'session': {
        const s = node.session;
        const item = new vscode.TreeItem(clip(s.title ?? s.id, 120), vscode.TreeItemCollapsibleState.None);
        item.id = `session:${s.id}`;
        item.description = s.createdAt ? clip(s.createdAt, 40) : undefined;
        item.iconPath = new vscode.ThemeIcon('comment-discussion');
        item.contextValue = 'agentSession';
        item.command = { command: 'aiGateway.agents.openSession', title: vscode.l10n.t('Open Session Events'), arguments: [node] };
        return item;
      }
      case 'message':
        return messageItem(node);
    }
  }

  async getChildren(node?: AgentsNode): Promise<AgentsNode[]> {
    if (!node) {
      const { addKeyNode, listNodes } = await rows();
      if (!this.hasKey()) return [addKeyNode('agents')];
      return listNodes(async () => (await agentsClient()).listAgents(await this.getClient()), async (e) => (await agentsClient()).agentsMissingPermission('listAgents', e), (agent): AgentsNode => ({ kind: 'agent', agent }), undefined);
    }
    if (node.kind === 'agent') {
      const agent = node.agent;
      const { listNodes } = await rows();
      return listNodes(async () => (await agentsClient()).listSessions(await this.getClient(), agent.id), async (e) => (await agentsClient()).agentsMissingPermission('listSessions', e), (session): AgentsNode => ({ kind: 'session', agent, session }), vscode.l10n.t('No sessions yet'));
    }
    return [];
  }
}
