/**
 * Knowledge bases, agents and sessions from the editor. At activation: the Knowledge and Agents views
 * and the read-only document provider; the commands' bodies (knowledgeCommands.ts) are imported on
 * the first call. The views import the core clients on their first listing; the commands' module
 * imports them statically (it is a chunk already).
 */
import * as vscode from 'vscode';
import { registerFeatureCommands } from '../platform/commands';
import { DisposableStore } from '../core/disposables';
import type { Services } from '../services';
import { KNOWLEDGE_SCHEME, ReadOnlyDocuments } from './knowledgeDocs';
import { AGENTS_VIEW_ID, AgentsTree, KNOWLEDGE_VIEW_ID, KnowledgeTree } from './trees';

/** What the knowledge feature uses of the services (src/services.ts composes them; only extension.ts passes the whole). */
export type KnowledgeServices = Pick<Services, 'getClient' | 'keys'>;

export function registerKnowledge(services: KnowledgeServices): vscode.Disposable {
  const store = new DisposableStore();
  const getClient = () => services.getClient();
  const docs = store.add(new ReadOnlyDocuments());
  store.add(vscode.workspace.registerTextDocumentContentProvider(KNOWLEDGE_SCHEME, docs));
  const hasKey = () => services.keys.active !== undefined;
  const kbTree = store.add(new KnowledgeTree(getClient, hasKey));
  const agentsTree = store.add(new AgentsTree(getClient, hasKey));
  store.add(vscode.window.createTreeView(KNOWLEDGE_VIEW_ID, { treeDataProvider: kbTree, showCollapseAll: true }));
  store.add(vscode.window.createTreeView(AGENTS_VIEW_ID, { treeDataProvider: agentsTree, showCollapseAll: true }));
  // The key decides what the views may list.
  store.add(
    services.keys.onDidChange(() => {
      kbTree.refresh();
      agentsTree.refresh();
    }),
  );
  // Refreshing a view needs nothing more; the other commands' bodies are imported on the first call.
  store.add(
    registerFeatureCommands('knowledge', async (register) => (await import('./knowledgeCommands')).registerKnowledgeCommands({ getClient, docs, kbTree, agentsTree }, register), {
      'aiGateway.knowledge.refresh': () => kbTree.refresh(),
      'aiGateway.agents.refresh': () => agentsTree.refresh(),
    }),
  );
  return store;
}
