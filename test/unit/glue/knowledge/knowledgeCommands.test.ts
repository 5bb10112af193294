/**
 * [#40.2] [#40.5] The knowledge feature's glue against the vscode double and the local gateway: the views
 * (src/knowledge/trees.ts), the read-only documents (knowledgeDocs.ts, knowledgeRows.ts), activation
 * (registerKnowledge.ts) and the commands' bodies (knowledgeCommands.ts), run the way a user runs them:
 * the registered command, the input box / quick pick / modal answered, then what the gateway holds and
 * what the editor shows.
 */
import { double } from '../../vscodeDouble'; // first: points `vscode` at the double
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { startGateway, type RunningGateway } from '../../../localGateway/server';
import { LOCAL_KEYS } from '../../../localGateway/keys';
import { createGatewayClient, type GatewayClient } from '../../../../src/core/gateway/gatewayClient';
import * as kb from '../../../../src/core/knowledge/kbClient';
import * as agents from '../../../../src/core/knowledge/agentsClient';
import { registerKnowledge } from '../../../../src/knowledge/registerKnowledge';
import { AgentsTree, KnowledgeTree, type AgentsNode, type KnowledgeNode } from '../../../../src/knowledge/trees';
import { KNOWLEDGE_SCHEME, ReadOnlyDocuments } from '../../../../src/knowledge/knowledgeDocs';
import { BoundedTexts, clip } from '../../../../src/knowledge/knowledgeRows';
import { chatWithAgentCommand, createAgentCommand, renameCollectionCommand, updateAgentCommand, type KnowledgeContext } from '../../../../src/knowledge/knowledgeCommands';

let gw: RunningGateway;
const clients: GatewayClient[] = [];
const clientFor = (key: string): GatewayClient => {
  const c = createGatewayClient({ baseUrl: () => gw.url, getKey: async () => key, userAgent: 'glue-test', env: {}, retry: { maxAttempts: 1 } });
  clients.push(c);
  return c;
};
before(async () => {
  gw = await startGateway();
});
after(async () => {
  await Promise.all(clients.map((c) => c.dispose()));
  await gw.close();
});

/** What registerKnowledge needs of the Services: the gateway client and the active key. */
function fakeServices(key: string | undefined = LOCAL_KEYS.userFull): { services: never; changeKey: () => void } {
  const listeners: Array<() => void> = [];
  const client = key === undefined ? undefined : clientFor(key);
  const services = {
    getClient: async () => {
      if (!client) throw new Error('no key');
      return client;
    },
    keys: {
      active: key,
      onDidChange: (l: () => void) => {
        listeners.push(l);
        return new vscode.Disposable(() => undefined);
      },
    },
  };
  return { services: services as never, changeKey: () => listeners.forEach((l) => l()) };
}

/** Activation as the extension does it; returns the view providers the editor was given. */
function activate(key?: string): { kbTree: KnowledgeTree; agentsTree: AgentsTree; dispose: () => void; changeKey: () => void } {
  const { services, changeKey } = fakeServices(key);
  const d = registerKnowledge(services);
  const views = new Map(double.treeViews.map((v) => [v.id, v.options.treeDataProvider]));
  return { kbTree: views.get('aiGateway.knowledge') as KnowledgeTree, agentsTree: views.get('aiGateway.agents') as AgentsTree, dispose: () => d.dispose(), changeKey };
}

const run = (id: string, ...args: unknown[]) => vscode.commands.executeCommand(id, ...args);
const names = async (): Promise<string[]> => (await kb.listCollections(clientFor(LOCAL_KEYS.userFull))).items.map((c) => c.name);
const fresh = (what: string): string => `${what} ${Math.random().toString(36).slice(2, 8)}`;

/** Counts the view's refreshes (onDidChangeTreeData). */
function refreshes(tree: { onDidChangeTreeData: vscode.Event<unknown> }): { count: number } {
  const c = { count: 0 };
  tree.onDidChangeTreeData(() => c.count++);
  return c;
}

beforeEach(() => double.reset());

describe('[#40.5] knowledge views and commands (src/knowledge)', () => {
  test('[#40.5] activation registers the Knowledge and Agents views and the read-only document scheme; Refresh works without loading the commands', async () => {
    const { kbTree, dispose } = activate();
    assert.deepEqual(double.treeViews.map((v) => v.id), ['aiGateway.knowledge', 'aiGateway.agents']);
    assert.ok(kbTree instanceof KnowledgeTree);
    const n = refreshes(kbTree);
    await run('aiGateway.knowledge.refresh');
    assert.equal(n.count, 1);
    // The provider answers for a document it no longer holds with words, not an empty tab.
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.from({ scheme: KNOWLEDGE_SCHEME, path: '/document/x/y/gone' }));
    assert.match(doc.getText(), /no longer available/);
    dispose();
  });

  test('[G-AUTH-7] without a key the views ask for one and send nothing; with a Restricted key the row names the missing permission', async () => {
    let asked = 0;
    const none = new KnowledgeTree(async () => {
      asked++;
      throw new Error('no request without a key');
    }, () => false);
    const rows = await none.getChildren();
    assert.equal(asked, 0, 'no client is asked for');
    assert.equal(rows.length, 1);
    const item = none.getTreeItem(rows[0]);
    assert.equal(item.label, 'Add an API key to see your collections');
    assert.deepEqual(item.command, { command: 'aiGateway.addApiKey', title: 'Add an API key to see your collections' });
    const restricted = new AgentsTree(async () => clientFor(LOCAL_KEYS.userMcpOnly), () => true);
    const [row] = await restricted.getChildren();
    assert.equal(restricted.getTreeItem(row).label, 'This API key lacks the "agents" read permission');
  });

  test('[#40.5] Create Collection: the name typed is created on the gateway and the view refreshes; an empty name is refused and nothing is sent', async () => {
    const { kbTree, dispose } = activate();
    const n = refreshes(kbTree);
    const name = fresh('Handbook');
    double.answer('   ');
    await run('aiGateway.knowledge.createCollection');
    assert.equal(double.inputBoxes[0].validation, 'Enter a name');
    assert.equal(n.count, 0);
    double.answer(name);
    await run('aiGateway.knowledge.createCollection');
    assert.ok((await names()).includes(name));
    assert.equal(n.count, 1);
    // The view lists it, with its document count.
    const rows = await kbTree.getChildren();
    const row = rows.find((r) => r.kind === 'collection' && r.collection.name === name)!;
    const item = kbTree.getTreeItem(row);
    assert.equal(item.label, name);
    assert.equal(item.contextValue, 'kbCollection');
    dispose();
  });

  test('[#40.5] Delete Collection: a modal whose default is Keep Collection; dismissing keeps it, Delete removes it', async () => {
    const { kbTree, dispose } = activate();
    const c = await kb.createCollection(clientFor(LOCAL_KEYS.userFull), fresh('Old notes'));
    const node: KnowledgeNode = { kind: 'collection', collection: c };
    await run('aiGateway.knowledge.deleteCollection', node);
    const [asked] = double.messages;
    assert.equal(asked.options.modal, true);
    assert.equal(asked.defaultTitle, 'Keep Collection');
    assert.deepEqual(asked.titles, ['Keep Collection', 'Delete']);
    assert.ok((await names()).includes(c.name), 'nothing deleted without Delete');
    const n = refreshes(kbTree);
    double.answer('Delete');
    await run('aiGateway.knowledge.deleteCollection', node);
    assert.ok(!(await names()).includes(c.name));
    assert.equal(n.count, 1);
    dispose();
  });

  test('[#40.2] Rename Collection through the narrow context: the same name sends nothing; a new one renames', async () => {
    const client = clientFor(LOCAL_KEYS.userFull);
    const c = await kb.createCollection(client, fresh('Drafts'));
    let refreshed = 0;
    const ctx = { getClient: async () => client, kbTree: { refresh: () => void refreshed++ } };
    double.answer(c.name);
    await renameCollectionCommand(ctx, { kind: 'collection', collection: c });
    assert.equal(double.inputBoxes[0].options.value, c.name, 'the box starts with the current name');
    assert.equal(refreshed, 0);
    const renamed = fresh('Published');
    double.answer(renamed);
    await renameCollectionCommand(ctx, { kind: 'collection', collection: c });
    assert.ok((await names()).includes(renamed));
    assert.equal(refreshed, 1);
  });

  test('[G-AUTH-7] a key that may not write collections: Create Collection shows the failure with its context, and nothing is created', async () => {
    const { dispose } = activate(LOCAL_KEYS.userReadOnly);
    const name = fresh('Nope');
    double.answer(name);
    await run('aiGateway.knowledge.createCollection');
    const shown = double.messages.at(-1)!;
    assert.equal(shown.severity, 'error');
    assert.match(shown.message, /^Creating the collection failed: /);
    assert.ok(!(await names()).includes(name));
    dispose();
  });

  describe('index a workspace folder, search it, open the hit', () => {
    let root: string;
    before(() => {
      root = realpathSync(mkdtempSync(join(tmpdir(), 'glue-kb-')));
      writeFileSync(join(root, 'guide.md'), '# Guide\n\nIntro.\n\nThe quokka lives on Rottnest Island.\n');
      writeFileSync(join(root, '.env'), 'SECRET=1\n');
    });
    after(() => rmSync(root, { recursive: true, force: true }));

    test('[#40.5] Index Workspace into Collection…: the picked collection gets the folder’s files (a secret file is skipped); Search opens the hit in the workspace file at its line', async () => {
      const { kbTree, dispose } = activate();
      const client = clientFor(LOCAL_KEYS.userFull);
      const c = await kb.createCollection(client, fresh('Workspace'));
      double.setWorkspaceFolders([root]);
      double.writeFile(join(root, 'guide.md'), '# Guide\n\nIntro.\n\nThe quokka lives on Rottnest Island.\n');
      const n = refreshes(kbTree);
      double.answer(clip(c.name, 120));
      await run('aiGateway.knowledge.indexWorkspace');
      assert.deepEqual(double.executed.map((e) => e.command), ['aiGateway.knowledge.indexWorkspace', 'aiGateway.knowledge.indexInto']);
      assert.ok(double.quickPicks[0].labels.includes('$(add) New Collection…'), 'a new collection can be made from the pick');
      const docs = (await kb.listDocuments(client, c.id)).items.map((d) => d.sourceId);
      assert.deepEqual(docs, ['guide.md']);
      assert.equal(n.count, 1);
      assert.equal(double.messages.at(-1)!.severity, 'info');
      assert.equal(double.progress.find((p) => p.title?.startsWith('Indexing into'))?.cancellable, true);

      double.answer('quokka');
      double.answer((s) => (s.kind === 'quickPick' ? (s.items[0] as { label: string }).label : undefined));
      await run('aiGateway.knowledge.search', { kind: 'collection', collection: c });
      const opened = double.shownDocuments.at(-1)!;
      assert.equal(opened.uri.fsPath, join(root, 'guide.md'));
      const sel = (opened.options as { selection: vscode.Range }).selection;
      assert.equal(sel.start.line, 4, 'the hit’s line');
      dispose();
    });

    test('[#40.5] Search with no match says so and opens nothing', async () => {
      const { dispose } = activate();
      const c = await kb.createCollection(clientFor(LOCAL_KEYS.userFull), fresh('Empty'));
      double.answer('zebra');
      await run('aiGateway.knowledge.search', { kind: 'collection', collection: c });
      assert.match(double.messages.at(-1)!.message, /^Nothing in ".*" matches "zebra"\.$/);
      assert.equal(double.shownDocuments.length, 0);
      dispose();
    });

    test('[#40.5] Index into Collection… on a file outside the workspace folders sends nothing', async () => {
      const { dispose } = activate();
      double.setWorkspaceFolders([root]);
      await run('aiGateway.knowledge.indexInto', vscode.Uri.file('/etc/hosts'));
      assert.match(double.messages[0].message, /nothing was sent/);
      assert.equal(double.quickPicks.length, 0, 'no collection is asked for');
      dispose();
    });
  });

  test('[#40.5] Open Document: the collection’s copy opens read-only in the knowledge scheme, with its text and language', async () => {
    const { dispose } = activate();
    const client = clientFor(LOCAL_KEYS.userFull);
    const c = await kb.createCollection(client, fresh('Copies'));
    const d = await kb.indexDocument(client, c.id, { sourceId: 'notes/a.md', title: 'Notes A', text: '# A\n\nbody', contentType: 'text/markdown', contentHash: 'sha256:a' });
    await run('aiGateway.knowledge.openDocument', { kind: 'document', collection: c, document: d });
    const opened = double.shownDocuments.at(-1)!;
    assert.equal(opened.uri.scheme, KNOWLEDGE_SCHEME);
    const doc = double.documents.find((x) => x.uri.toString() === opened.uri.toString())!;
    assert.match(doc.getText(), /# A/);
    assert.equal(doc.languageId, 'markdown');
    dispose();
  });

  test('[#40.2] Create Agent: name then instructions in two steps; Escape at step 2 creates nothing; both answered creates it and refreshes the view', async () => {
    const client = clientFor(LOCAL_KEYS.userFull);
    let refreshed = 0;
    const ctx = { getClient: async () => client, agentsTree: { refresh: () => void refreshed++ } };
    const name = fresh('Helper');
    double.answer(name);
    await createAgentCommand(ctx);
    assert.deepEqual(double.inputBoxes.map((b) => [b.options.title, b.options.step, b.options.totalSteps]), [
      ['Create Agent: name', 1, 2],
      ['Create Agent: instructions', 2, 2],
    ]);
    assert.ok(!(await agents.listAgents(client)).items.some((a) => a.name === name));
    double.answer(name, 'Be brief.');
    await createAgentCommand(ctx);
    const made = (await agents.listAgents(client)).items.find((a) => a.name === name);
    assert.equal(made?.instructions, 'Be brief.');
    assert.equal(refreshed, 1);

    // Update with nothing changed sends nothing.
    double.answer(name, 'Be brief.');
    await updateAgentCommand(ctx, { kind: 'agent', agent: made! });
    assert.equal(refreshed, 1);
  });

  test('[#40.5] Delete Agent: the modal’s default keeps it; Delete deletes it', async () => {
    const { agentsTree, dispose } = activate();
    const client = clientFor(LOCAL_KEYS.userFull);
    const a = await agents.createAgent(client, { name: fresh('Temp') });
    const node: AgentsNode = { kind: 'agent', agent: a };
    await run('aiGateway.agents.delete', node);
    assert.equal(double.messages[0].defaultTitle, 'Keep Agent');
    assert.ok((await agents.listAgents(client)).items.some((x) => x.id === a.id));
    const n = refreshes(agentsTree);
    double.answer('Delete');
    await run('aiGateway.agents.delete', node);
    assert.ok(!(await agents.listAgents(client)).items.some((x) => x.id === a.id));
    assert.equal(n.count, 1);
    dispose();
  });

  test('[#40.5] Chat with Agent from the palette: archived agents are not offered; the picked one gets a new session and the chat tab opens bound to it', async () => {
    const client = clientFor(LOCAL_KEYS.userFull);
    const live = await agents.createAgent(client, { name: fresh('Live') });
    const old = await agents.createAgent(client, { name: fresh('Old') });
    await agents.archiveAgent(client, old.id);
    let refreshed = 0;
    const ctx: Pick<KnowledgeContext, 'getClient' | 'agentsTree'> = { getClient: async () => client, agentsTree: { refresh: () => void refreshed++ } };
    double.answer(live.name);
    await chatWithAgentCommand(ctx);
    assert.ok(double.quickPicks[0].labels.includes(live.name));
    assert.ok(!double.quickPicks[0].labels.includes(old.name));
    const openChat = double.executed.find((e) => e.command === 'aiGateway.chat.openAgentSession');
    assert.ok(openChat, 'the chat tab is opened');
    const arg = openChat.args[0] as { agentId?: string; sessionId?: string };
    assert.equal(arg.agentId, live.id);
    const sessions = (await agents.listSessions(client, live.id)).items;
    assert.deepEqual(sessions.map((s) => s.id), [arg.sessionId]);
    assert.equal(refreshed, 1);
  });

  test('knowledgeRows / knowledgeDocs: labels are one bounded line; the document store keeps the newest 50', () => {
    assert.equal(clip('a\nb\tc', 10), 'a b c');
    assert.equal(clip('abcdef', 4), 'abc…');
    const texts = new BoundedTexts(2);
    texts.set('a', '1');
    texts.set('b', '2');
    texts.set('c', '3');
    assert.equal(texts.get('a'), undefined);
    assert.equal(texts.size, 2);
    const docs = new ReadOnlyDocuments();
    const uris = Array.from({ length: 51 }, (_, i) => vscode.Uri.from({ scheme: KNOWLEDGE_SCHEME, path: `/d/${i}` }));
    uris.forEach((u, i) => docs.set(u, `text ${i}`));
    assert.match(docs.provideTextDocumentContent(uris[0]), /no longer available/);
    assert.equal(docs.provideTextDocumentContent(uris[50]), 'text 50');
    docs.dispose();
  });
});
