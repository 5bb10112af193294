/**
 * The VS Code-like chat's host side: history text search (bounded), the model menu's rates, the
 * toolbar's menus (model, attach) and Add API Key going through the host, the active key's name in
 * the state, and a conversation opened before the webview loads staying open.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChatController, type ChatEditorHost } from '../../../src/core/chat/chatController';
import { HistoryStore, nodeHistoryFs } from '../../../src/core/chat/historyStore';
import { newConversation, type Conversation } from '../../../src/core/chat/conversation';
import { rateSummary } from '../../../src/core/chat/modelOptions';
import { Emitter } from '../../../src/core/disposables';
import type { Model } from '../../../src/core/gateway/types';
import { isWebviewToHost, type HostToWebview, type ModelOptionView } from '../../../src/protocol/chatProtocol';

async function withDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'chat-look-'));
  try {
    await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function conv(id: string, title: string, text: string, updatedAt: number): Conversation {
  const c = newConversation(id, 'm/a', 1);
  c.title = title;
  c.updatedAt = updatedAt;
  c.messages.push({ id: `${id}-m`, role: 'user', content: text, status: 'complete', createdAt: 1 });
  return c;
}

const MODELS = [
  { id: 'm/a', object: 'model', owned_by: 'x', provider: 'openai', display_name: 'Model A', capabilities: ['chat'], pricing: { input_per_million: '2.5', output_per_million: '10', pricing_version: 'v1' } },
  { id: 'm/b', object: 'model', owned_by: 'x', provider: 'openai', display_name: 'Model B', capabilities: ['chat'] },
] as Model[];

function controller(dir: string, host: Partial<ChatEditorHost>, extra: { apiKey?: () => { kind: 'none' } | { kind: 'ok'; name: string } } = {}) {
  const posted: HostToWebview[] = [];
  const store = new HistoryStore(dir);
  const calls: string[] = [];
  const fullHost: ChatEditorHost = {
    copy: async () => undefined,
    insertCode: async () => undefined,
    newFile: async () => undefined,
    openLink: async () => undefined,
    setApiKey: async () => void calls.push('setApiKey'),
    pickAttachments: async (kind) => {
      calls.push(`pickAttachments:${kind}`);
      return [{ id: 'att', kind: 'file', label: 'a.ts', content: 'x' }];
    },
    askTitle: async () => undefined,
    confirmDelete: async () => false,
    confirmContextOverflow: async () => false,
    exportMarkdown: async () => undefined,
    showError: (m) => void calls.push(`error:${m}`),
    ...host,
  };
  const c = new ChatController({
    getClient: async () => {
      throw new Error('no request in these tests');
    },
    models: { chatModels: () => MODELS, getModel: (id) => MODELS.find((m) => m.id === id), onDidChange: new Emitter<unknown>().event },
    store,
    prefs: { lastModelId: () => 'm/a', setLastModelId: () => undefined },
    host: fullHost,
    post: (m) => void posted.push(m),
    log: { trace() {}, debug() {}, info() {}, warn() {}, error() {} },
    ...(extra.apiKey ? { apiKey: extra.apiKey } : {}),
  });
  const lastState = () => {
    const s = posted.filter((m) => m.type === 'state').at(-1);
    assert.ok(s && s.type === 'state', 'a state was posted');
    return s.state;
  };
  return { c, posted, store, calls, lastState };
}

test('history text search finds conversations by the text of their messages, newest first, with a snippet', async () => {
  await withDir(async (dir) => {
    const store = new HistoryStore(dir);
    await store.save(conv('a', 'Alpha', 'How do I parse JSON in Rust?', 10));
    await store.save(conv('b', 'Beta', 'Nothing to see here', 20));
    await store.save(conv('c', 'Gamma', 'Streaming json with serde', 30));
    const hits = await store.searchText('JSON');
    assert.deepEqual(
      hits.map((h) => h.id),
      ['c', 'a'],
    );
    assert.match(hits[1].snippet, /parse JSON in Rust/);
    assert.deepEqual(await store.searchText('   '), []);
    assert.deepEqual(await store.searchText('no such words'), []);
  });
});

test('history text search is bounded: it reads at most maxFiles of the most recent conversations and stops at maxMatches', async () => {
  await withDir(async (dir) => {
    const writer = new HistoryStore(dir);
    for (let i = 0; i < 12; i++) await writer.save(conv(`c${i}`, `T${i}`, `needle ${i}`, 100 + i));
    const read: string[] = [];
    const store = new HistoryStore(dir, {
      ...nodeHistoryFs,
      readFile: async (p) => {
        read.push(p);
        return nodeHistoryFs.readFile(p);
      },
    });
    await store.list(); // the index scan reads every file once; count only the search's reads
    read.length = 0;
    const hits = await store.searchText('needle', { maxFiles: 5, maxMatches: 50 });
    assert.deepEqual(
      hits.map((h) => h.id),
      ['c11', 'c10', 'c9', 'c8', 'c7'],
    );
    assert.equal(read.length, 5);
    read.length = 0;
    const few = await store.searchText('needle', { maxFiles: 100, maxMatches: 2 });
    assert.equal(few.length, 2);
    assert.equal(read.length, 2, 'stops reading once it has maxMatches');
  });
});

test('[G-CAT-8] the model menu shows the input and output rates exactly as the gateway wrote them', () => {
  assert.equal(rateSummary(MODELS[0]), 'Input 2.5 credits / 1M tokens · Output 10 credits / 1M tokens');
  assert.equal(rateSummary(MODELS[1]), undefined);
});

test('the model button asks the host for a model (a quick pick over the chat options) and selects the pick', async () => {
  await withDir(async (dir) => {
    let offered: readonly ModelOptionView[] = [];
    let current: string | undefined;
    const h = controller(dir, {
      pickModel: async (options, cur) => {
        offered = options;
        current = cur;
        return 'm/b';
      },
    });
    await h.c.handle({ type: 'ready' });
    await h.c.handle({ type: 'pickModel' });
    assert.deepEqual(
      offered.map((o) => [o.id, o.rates]),
      [
        ['m/a', 'Input 2.5 credits / 1M tokens · Output 10 credits / 1M tokens'],
        ['m/b', undefined],
      ],
    );
    assert.equal(current, 'm/a');
    assert.equal(h.lastState().selectedModelId, 'm/b');
  });
});

test('a dismissed model menu changes nothing', async () => {
  await withDir(async (dir) => {
    const h = controller(dir, { pickModel: async () => undefined });
    await h.c.handle({ type: 'ready' });
    const before = h.posted.length;
    await h.c.handle({ type: 'pickModel' });
    assert.equal(h.posted.length, before);
  });
});

test('the attach button asks the host which kind, then attaches that kind; Add API Key goes to the host', async () => {
  await withDir(async (dir) => {
    const h = controller(dir, { pickAttachKind: async () => 'file' });
    await h.c.handle({ type: 'ready' });
    await h.c.handle({ type: 'attachMenu' });
    assert.deepEqual(h.calls, ['pickAttachments:file']);
    assert.deepEqual(
      h.lastState().attachments.map((a) => a.label),
      ['a.ts'],
    );
    await h.c.handle({ type: 'setApiKey' });
    assert.deepEqual(h.calls, ['pickAttachments:file', 'setApiKey']);
  });
});

test('the state names the active key (never its secret) for the empty state, and says when there is none', async () => {
  await withDir(async (dir) => {
    let key: { kind: 'none' } | { kind: 'ok'; name: string } = { kind: 'none' };
    const h = controller(dir, {}, { apiKey: () => key });
    await h.c.handle({ type: 'ready' });
    assert.deepEqual(h.lastState().apiKey, { kind: 'none' });
    key = { kind: 'ok', name: 'work' };
    h.c.refresh();
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(h.lastState().apiKey, { kind: 'ok', name: 'work' });
  });
});

test('a conversation opened before the webview loads (Open in Editor, Move to Sidebar) stays open on its first ready', async () => {
  await withDir(async (dir) => {
    const seed = new HistoryStore(dir);
    await seed.save(conv('older', 'Older', 'moved chat', 10));
    await seed.save(conv('newer', 'Newer', 'most recent chat', 20));
    const h = controller(dir, {});
    assert.equal(await h.c.openConversation('older'), true);
    await h.c.handle({ type: 'ready' });
    assert.equal(h.lastState().conversation.id, 'older');
    assert.deepEqual(h.c.conversationInfo, { id: 'older', saved: true });
  });
});

test('the new toolbar messages pass the protocol guard; malformed ones do not', () => {
  for (const type of ['attachMenu', 'pickModel', 'setApiKey']) assert.equal(isWebviewToHost({ type }), true, type);
  assert.equal(isWebviewToHost({ type: 'pickModels' }), false);
  assert.equal(isWebviewToHost({ type: 'attach', kind: 'image' }), true);
  assert.equal(isWebviewToHost({ type: 'attach', kind: 'camera' }), false);
  assert.equal(isWebviewToHost({ type: 'setAgent', on: 'yes' }), false);
  assert.equal(isWebviewToHost({ type: 'toolApproval', callId: 'c1', approve: true }), true);
  assert.equal(isWebviewToHost({ type: 'toolApproval', callId: 'c1' }), false);
});

test('a long conversation: the state carries its last 60 messages and how many come before; loadEarlier answers the ones before, 100 at most', async () => {
  await withDir(async (dir) => {
    const seed = new HistoryStore(dir);
    const long = newConversation('long', 'm/a', 1);
    long.title = 'Long';
    for (let k = 0; k < 250; k++) long.messages.push({ id: `m${k}`, role: k % 2 === 0 ? 'user' : 'assistant', content: `message ${k}`, status: 'complete', createdAt: k + 1 });
    await seed.save(long);
    const short = conv('short', 'Short', 'two', 300);
    await seed.save(short);
    const h = controller(dir, {});
    await h.c.handle({ type: 'ready' });
    assert.equal(h.lastState().conversation.earlier, undefined, 'a short conversation is sent whole');
    assert.equal(await h.c.openConversation('long'), true);
    const c = h.lastState().conversation;
    assert.equal(c.earlier, 210);
    assert.deepEqual(c.messages.map((m) => m.id), Array.from({ length: 40 }, (_, i) => `m${210 + i}`));

    await h.c.handle({ type: 'loadEarlier', conversationId: 'long', end: 210 });
    let answer = h.posted.at(-1);
    assert.ok(answer?.type === 'earlierMessages');
    assert.equal(answer.start, 110);
    assert.deepEqual(answer.messages.map((m) => m.id), Array.from({ length: 100 }, (_, i) => `m${110 + i}`));
    await h.c.handle({ type: 'loadEarlier', conversationId: 'long', end: 110 });
    answer = h.posted.at(-1);
    assert.ok(answer?.type === 'earlierMessages');
    assert.equal(answer.start, 10);
    assert.equal(answer.messages.length, 100);
    await h.c.handle({ type: 'loadEarlier', conversationId: 'long', end: 10 });
    answer = h.posted.at(-1);
    assert.ok(answer?.type === 'earlierMessages');
    assert.equal(answer.start, 0);
    assert.equal(answer.messages.length, 10);

    // Another conversation's id, or nothing before: no answer. An end past the list is cut to it.
    const before = h.posted.length;
    await h.c.handle({ type: 'loadEarlier', conversationId: 'short', end: 10 });
    await h.c.handle({ type: 'loadEarlier', conversationId: 'long', end: 0 });
    assert.equal(h.posted.length, before);
    await h.c.handle({ type: 'loadEarlier', conversationId: 'long', end: 1_000_000 });
    answer = h.posted.at(-1);
    assert.ok(answer?.type === 'earlierMessages');
    assert.deepEqual([answer.start, answer.messages.length, answer.messages.at(-1)?.id], [150, 100, 'm249']);
  });
});
