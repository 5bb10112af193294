/**
 * The knowledge feature's calls against the local gateway, to the core clients (src/core/knowledge/*,
 * src/core/knowledge/agentsClient.ts) as the views (src/knowledge/trees.ts) and the commands
 * (src/knowledge/knowledgeCommands.ts) make them: the views' permission item, index -> search -> the
 * hit's workspace path and line, the moderation block, and feedback.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LOCAL_KEYS } from '../../localGateway/keys';
import * as agents from '../../../src/core/knowledge/agentsClient';
import { planIndexing, workspacePathOfSource, type PlanReader } from '../../../src/core/knowledge/indexPlan';
import * as kb from '../../../src/core/knowledge/kbClient';
import { listNodes } from '../../../src/knowledge/knowledgeText';
import { useKbGateway } from './helpers';

const { gw, client } = useKbGateway();

/** A tiny in-memory workspace: path -> text; folders implied. */
function memory(files: Record<string, string>): PlanReader & { reads: string[] } {
  const reads: string[] = [];
  const enc = new TextEncoder();
  const isFolder = (p: string): boolean => p === '' || Object.keys(files).some((f) => f.startsWith(`${p}/`));
  return {
    reads,
    async stat(p) {
      if (p in files) return { kind: 'file', size: enc.encode(files[p]).byteLength };
      return isFolder(p) ? { kind: 'folder', size: 0 } : undefined;
    },
    async list(folder) {
      const prefix = folder === '' ? '' : `${folder}/`;
      const names = new Map<string, 'file' | 'folder'>();
      for (const f of Object.keys(files)) {
        if (!f.startsWith(prefix)) continue;
        const rest = f.slice(prefix.length);
        const i = rest.indexOf('/');
        names.set(i === -1 ? rest : rest.slice(0, i), i === -1 ? 'file' : 'folder');
      }
      return [...names].map(([name, kind]) => ({ name, kind }));
    },
    async read(p) {
      reads.push(p);
      return enc.encode(files[p]);
    },
  };
}

describe('knowledge calls', () => {
  test('[G-AUTH-7] [#39.13] a Restricted key (collections none) sees one item naming collections read in the Knowledge view', async () => {
    const c = client(LOCAL_KEYS.userChatOnly);
    const nodes = await listNodes(async () => kb.listCollections(c), async (e) => kb.kbMissingPermission('listCollections', e), (col) => col, 'empty');
    assert.deepEqual(nodes.map((n) => ('text' in n ? n.text : 'item')), ['This API key lacks the "collections" read permission']);
  });

  test('[G-AUTH-7] [#39.13] a Restricted key (agents none) sees one item naming agents read in the Agents view', async () => {
    const c = client(LOCAL_KEYS.userMcpOnly);
    const nodes = await listNodes(async () => agents.listAgents(c), async (e) => agents.agentsMissingPermission('listAgents', e), (a) => a, 'empty');
    assert.deepEqual(nodes.map((n) => ('text' in n ? n.text : 'item')), ['This API key lacks the "agents" read permission']);
  });

  test('index a folder (ignored file skipped, changed file replaced), then search finds the source path and line', async () => {
    const c = client(LOCAL_KEYS.userFull);
    const col = await kb.createCollection(c, 'Handbook');
    const files = { '.gitignore': 'private/\n', 'docs/a.md': '# A\n\nnothing here\n', 'docs/b.md': 'first\nsecond\nthe zebra line\n', 'private/secret.md': 'zebra secret', 'notes.md': 'not picked zebra' };
    const reader = memory(files);
    const plan = await planIndexing(['docs', 'private'], reader, { existing: [] });
    assert.deepEqual(plan.send.map((d) => d.sourceId).sort(), ['docs/a.md', 'docs/b.md']);
    assert.deepEqual(plan.skipped.map((s) => s.reason), ['ignored']);
    assert.match(plan.skipped[0].path, /^private(\/secret\.md)?$/);
    assert.ok(!reader.reads.includes('notes.md') && !reader.reads.includes('private/secret.md'), 'files not picked or ignored are never read');
    const run = await kb.indexDocuments(c, col.id, plan.send, {});
    assert.equal(run.indexed.length, 2);

    // b.md changes: re-indexing sends only it, as a replacement of its document.
    files['docs/b.md'] = 'first\nsecond\nthird\n  a zebra moved\n';
    const existing = (await kb.listDocuments(c, col.id)).items.map((d) => ({ documentId: d.id, sourceId: d.sourceId, contentHash: d.contentHash }));
    const again = await planIndexing(['docs'], memory(files), { existing });
    assert.deepEqual(again.send.map((d) => [d.sourceId, d.status]), [['docs/b.md', 'changed']]);
    await kb.indexDocuments(c, col.id, again.send, {});
    assert.equal((await kb.listDocuments(c, col.id)).items.length, 2);

    const hits = await kb.searchCollection(c, col.id, 'zebra');
    assert.equal(hits.length, 1);
    assert.equal(workspacePathOfSource(hits[0].sourceId), 'docs/b.md');
    assert.deepEqual([hits[0].line, hits[0].column], [4, 5]);
    assert.equal(workspacePathOfSource('../outside.md'), undefined);
  });

  test('[G-CHAT-4] a moderated message reads only "Blocked by content moderation"', async () => {
    const c = client(LOCAL_KEYS.userFull);
    const agent = await agents.createAgent(c, { name: 'Mod' });
    const session = await agents.createSession(c, agent.id, undefined);
    const e = await agents.sendSessionMessage(c, session.id, 'please [[moderate]] this').then(
      () => assert.fail('expected a block'),
      (err: unknown) => err,
    );
    assert.equal(agents.isModerationBlock(e), true);
    assert.equal((e as Error).message, 'Blocked by content moderation');
    assert.equal(agents.MODERATION_MESSAGE, 'Blocked by content moderation');
  });

  test('[#39.13] feedback on a reply is sent with an Account key and the gateway records it under that key', async () => {
    const owner = client(LOCAL_KEYS.userFull);
    const agent = await agents.createAgent(owner, { name: 'Helper' });
    const session = await agents.createSession(owner, agent.id, 'chat');
    const account = client(LOCAL_KEYS.accountFull);
    const events = await agents.sendSessionMessage(account, session.id, 'hello');
    const reply = events.find((e) => e.role === 'assistant');
    assert.ok(reply?.responseId);
    gw().events.clear();
    await agents.sendFeedback(account, session.id, reply.responseId, 'down');
    const seen = gw().events.list('agent-feedback');
    assert.deepEqual(seen.map((e) => [e.response_id, e.rating, e.keyName]), [[reply.responseId, 'down', 'Local account (Full access)']]);
  });
});
