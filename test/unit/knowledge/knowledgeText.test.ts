/**
 * The knowledge feature's vscode-free words and decisions: the permission item, delete questions,
 * search rows and positions, workspace containment, the indexing summary, chat and event documents.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  addKeyNode,
  agentChatArg,
  BoundedTexts,
  deleteCollectionQuestion,
  hitItem,
  hitPosition,
  indexSummary,
  listNodes,
  relativeUnder,
  renderSessionEvents,
} from '../../../src/knowledge/knowledgeText';
import type { SessionEvent } from '../../../src/core/knowledge/agentsClient';
import type { IndexPlan } from '../../../src/core/knowledge/indexPlan';
import type { SearchHit } from '../../../src/core/knowledge/kbClient';

const hit: SearchHit = { documentId: 'd1', sourceId: 'docs/guide.md', title: 'Guide', score: 2, snippet: 'line one\nthe needle here', line: 7, column: 5, offset: 80 };

describe('knowledge view words', () => {
  test('a refused list becomes ONE item naming the scope and level, not an empty list', async () => {
    const refusal = new Error('403');
    const nodes = await listNodes(
      () => Promise.reject(refusal),
      async (e) => (e === refusal ? { scope: 'collections', level: 'read' } : undefined),
      (x: string) => ({ kind: 'item', x }),
      'No collections yet',
    );
    assert.equal(nodes.length, 1);
    assert.deepEqual(nodes[0], {
      kind: 'message',
      text: 'This API key lacks the "collections" read permission',
      detail: 'The gateway refused the list (403). Use a key with collections read access, or ask an administrator to grant it.',
      icon: 'lock',
    });
  });

  test('an empty list says so; a truncated list ends with a note', async () => {
    const none = async (): Promise<undefined> => undefined;
    assert.deepEqual(await listNodes(async () => ({ items: [], truncated: false }), none, (x: string) => x, 'No agents yet'), [{ kind: 'message', text: 'No agents yet', icon: 'info' }]);
    const more = await listNodes(async () => ({ items: ['a', 'b'], truncated: true }), none, (x: string) => x, 'empty');
    assert.deepEqual(more.slice(0, 2), ['a', 'b']);
    assert.equal(more.length, 3);
    assert.equal((more[2] as { text: string }).text, 'More items exist than can be listed here');
  });

  test('any other failure is one error item with the error words', async () => {
    const nodes = await listNodes(() => Promise.reject(new Error('socket hang up')), async () => undefined, (x: string) => x, 'empty');
    assert.equal(nodes.length, 1);
    assert.equal((nodes[0] as { icon: string }).icon, 'error');
    assert.match((nodes[0] as { text: string }).text, /socket hang up/);
  });

  test('with no API key the view asks for one: a single row that runs Add API Key', () => {
    const node = addKeyNode('collections');
    assert.equal(node.text, 'Add an API key to see your collections');
    assert.equal(node.command, 'aiGateway.addApiKey');
  });

  test('Delete asks naming the collection and its document count', () => {
    assert.equal(deleteCollectionQuestion({ name: 'Handbook', documentCount: 3 }), 'Delete the collection "Handbook" and its 3 documents? This cannot be undone.');
    assert.equal(deleteCollectionQuestion({ name: 'One', documentCount: 1 }), 'Delete the collection "One" and its 1 document? This cannot be undone.');
    assert.equal(deleteCollectionQuestion({ name: 'X', documentCount: undefined }), 'Delete the collection "X" and all its documents? This cannot be undone.');
  });
});

describe('search results', () => {
  test('a hit row shows title, source:line:column and the snippet on one line', () => {
    assert.deepEqual(hitItem(hit), { label: 'Guide', description: 'docs/guide.md:7:5', detail: 'line one the needle here' });
  });

  test('the 1-based wire position becomes the 0-based editor position', () => {
    assert.deepEqual(hitPosition(hit), { line: 6, character: 4 });
    assert.deepEqual(hitPosition({ line: 0, column: 0 }), { line: 0, character: 0 });
  });

  test('a server snippet is cut to a bounded length', () => {
    const long = hitItem({ ...hit, snippet: 'x'.repeat(10_000), title: 'y'.repeat(1000) });
    assert.equal(long.detail.length, 300);
    assert.equal(long.label.length, 120);
  });
});

describe('workspace containment', () => {
  test('paths below the root are relative; the root is ""', () => {
    assert.equal(relativeUnder('/home/u/ws', '/home/u/ws/docs/a.md'), 'docs/a.md');
    assert.equal(relativeUnder('/home/u/ws/', '/home/u/ws/docs'), 'docs');
    assert.equal(relativeUnder('/home/u/ws', '/home/u/ws'), '');
  });

  test('a sibling with the same prefix, a parent or a dot-dot path is outside', () => {
    assert.equal(relativeUnder('/home/u/ws', '/home/u/ws-other/a.md'), undefined);
    assert.equal(relativeUnder('/home/u/ws', '/home/u'), undefined);
    assert.equal(relativeUnder('/home/u/ws', '/home/u/ws/../secret.md'), undefined);
    assert.equal(relativeUnder('/home/u/ws', '/etc/passwd'), undefined);
  });
});

describe('indexing summary', () => {
  const plan: IndexPlan = {
    send: [
      { path: 'a.md', sourceId: 'a.md', title: 'a.md', contentType: 'text/markdown', text: 'a', contentHash: 'h1', status: 'new', documentId: undefined },
      { path: 'b.md', sourceId: 'b.md', title: 'b.md', contentType: 'text/markdown', text: 'b', contentHash: 'h2', status: 'changed', documentId: 'd2' },
      { path: 'c.txt', sourceId: 'c.txt', title: 'c.txt', contentType: 'text/plain', text: 'c', contentHash: 'h3', status: 'new', documentId: undefined },
    ],
    unchanged: [{ path: 'u.md', sourceId: 'u.md', documentId: 'd9' }],
    skipped: [
      { path: 'x.png', reason: 'type' },
      { path: 'y.png', reason: 'type' },
      { path: 'secret.md', reason: 'ignored' },
    ],
  };
  const why = (r: string): string => ({ type: 'not text', ignored: 'ignored' })[r] ?? r;

  test('counts indexed, replaced, unchanged and skipped files', () => {
    assert.equal(
      indexSummary('Docs', plan, { sent: 3, notSent: 0, cancelled: false, failed: false }, why),
      'Indexed 3 files into "Docs" (1 replaced). 1 file was unchanged. Skipped 2 not text, 1 ignored.',
    );
  });

  test('a cancelled run says how many were not sent', () => {
    assert.equal(
      indexSummary('Docs', { ...plan, unchanged: [], skipped: [] }, { sent: 1, notSent: 2, cancelled: true, failed: false }, why),
      'Indexed 1 file into "Docs". Cancelled: 2 files were not sent.',
    );
  });
});

describe('agent documents', () => {
  const events: SessionEvent[] = [
    { id: 'e1', type: 'message', role: 'user', text: 'hello', responseId: undefined, createdAt: undefined },
    { id: 'e2', type: 'message', role: 'assistant', text: 'hi there', responseId: 'resp_1', createdAt: undefined },
  ];

  test('Chat with Agent on a session: its user and assistant messages open in the chat, replies with their response ids', () => {
    const withOther: SessionEvent[] = [...events, { id: 'e3', type: 'tool', role: undefined, text: 'ignored', responseId: undefined, createdAt: undefined }];
    assert.deepEqual(agentChatArg({ id: 'agt_1', name: 'Helper' }, 'sess_2', withOther), {
      agentId: 'agt_1',
      agentName: 'Helper',
      sessionId: 'sess_2',
      events: [
        { role: 'user', text: 'hello' },
        { role: 'assistant', text: 'hi there', responseId: 'resp_1' },
      ],
    });
    assert.deepEqual(agentChatArg({ id: 'agt_1', name: 'Helper' }, 'sess_3').events, []);
  });

  test('the events document lists each event by role', () => {
    const md = renderSessionEvents({ id: 's1', title: 'First' }, events, false);
    assert.ok(md.startsWith('# Session First\n'));
    assert.ok(md.indexOf('## user') < md.indexOf('## assistant'));
    assert.ok(md.includes('hi there'));
  });
});

describe('read-only document texts', () => {
  test('keeps at most the bound; the oldest goes first', () => {
    const t = new BoundedTexts(2);
    t.set('a', '1');
    t.set('b', '2');
    t.set('a', '1b');
    t.set('c', '3');
    assert.equal(t.size, 2);
    assert.equal(t.get('b'), undefined);
    assert.equal(t.get('a'), '1b');
    assert.equal(t.get('c'), '3');
  });
});
