/**
 * Regenerate keeps versions (#29.8): the bookkeeping (pure), and the controller against the local
 * gateway: regenerating twice gives "3/3", flipping shows an earlier version, what is saved keeps all
 * of them, only the shown one goes to the model, and the conversation's total counts every version.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { allVersions, MAX_VERSIONS, restoreInterruptedRegenerate, selectVersion, versionCosts, withEarlierVersions } from '../../../src/core/chat/replyVersions';
import type { StoredMessage } from '../../../src/core/chat/conversation';
import { messageView } from '../../../src/core/chat/messageViews';
import { ChatController } from '../../../src/core/chat/chatController';
import { HistoryStore } from '../../../src/core/chat/historyStore';
import { Emitter } from '../../../src/core/disposables';
import { createGatewayClient } from '../../../src/core/gateway/gatewayClient';
import { LOCAL_KEYS } from '../../localGateway/keys';
import type { HostToWebview, MessageView } from '../../../src/protocol/chatProtocol';
import { isWebviewToHost } from '../../../src/protocol/chatProtocol';
import { quietEditorHost, useControllerRig } from './controllerRig';

const reply = (content: string, extra: Partial<StoredMessage> = {}): StoredMessage => ({ id: 'r', role: 'assistant', content, status: 'complete', createdAt: 1, ...extra });

test('[#29.8] version bookkeeping: a regenerated reply keeps the earlier ones; flipping shows one and keeps the rest in order', () => {
  const v1 = reply('one', { costNano: '10' });
  const carried = withEarlierVersions(v1);
  const v2 = { ...reply('two', { id: 'r2', costNano: '20' }), ...carried };
  assert.deepEqual(messageView(v2, false).version, { index: 2, count: 2 });
  const v3 = { ...reply('three', { id: 'r3', costNano: '30' }), ...withEarlierVersions(v2) };
  assert.deepEqual(
    allVersions(v3).map((v) => v.content),
    ['one', 'two', 'three'],
  );
  assert.deepEqual(messageView(v3, false).version, { index: 3, count: 3 });
  const first = selectVersion(v3, 0)!;
  assert.equal(first.content, 'one');
  assert.equal(first.costNano, '10');
  assert.equal(first.id, 'r3', 'the message keeps its id');
  assert.deepEqual(messageView(first, false).version, { index: 1, count: 3 });
  assert.deepEqual(
    allVersions(first).map((v) => v.content),
    ['one', 'two', 'three'],
  );
  const back = selectVersion(first, 2)!;
  assert.equal(back.content, 'three');
  assert.deepEqual(versionCosts(back).sort(), ['10', '20', '30']);
  assert.equal(selectVersion(back, 3), undefined, 'no fourth version');
  assert.equal(selectVersion(reply('only'), 0), undefined, 'a single version has nothing to flip to');
  assert.deepEqual(withEarlierVersions({ ...v1, role: 'user' }), {}, 'a user message is no earlier reply');
});

test('[#29.8] versions are bounded: the oldest go first', () => {
  let m = reply('v0');
  for (let i = 1; i < MAX_VERSIONS + 5; i++) m = { ...reply(`v${i}`), ...withEarlierVersions(m) };
  const all = allVersions(m);
  assert.equal(all.length, MAX_VERSIONS);
  assert.equal(all.at(-1)?.content, `v${MAX_VERSIONS + 4}`);
});

test('[#29.8] a stopped version keeps its stop (not an error) when flipped to', () => {
  const stopped = reply('half', { status: 'incomplete', stopped: true, costNano: '5', costEstimated: true });
  const next = { ...reply('full'), ...withEarlierVersions(stopped) };
  const shown = selectVersion(next, 0)!;
  const view = messageView(shown, false);
  assert.deepEqual(view.stopped, {});
  assert.equal(view.costEstimated, true);
  const again = selectVersion(shown, 1)!;
  assert.equal(again.stopped, undefined, 'the other version has no stop of its own');
  assert.equal(again.costEstimated, undefined);
});

const rig = useControllerRig('chat-versions-');

test('[#29.8] regenerate twice gives 3 versions; ‹ shows an earlier one, saved; only the shown version is sent; the total counts all', async () => {
  const posted: HostToWebview[] = [];
  const requests: Array<{ messages: Array<{ role: string; content: string }> }> = [];
  const client = createGatewayClient({ baseUrl: rig.gw.url, getKey: async () => LOCAL_KEYS.userFull, userAgent: 'test' });
  const store = new HistoryStore(rig.dir);
  const c = new ChatController({
    getClient: async () => ({
      ...client,
      streamChatCompletion: (r, o) => {
        requests.push(r as never);
        return client.streamChatCompletion(r, o);
      },
    }),
    models: { chatModels: () => rig.models.filter((m) => m.capabilities?.includes('chat')), getModel: (id) => rig.models.find((m) => m.id === id), onDidChange: new Emitter<unknown>().event },
    store,
    prefs: { lastModelId: () => 'openai/gpt-4o', setLastModelId: () => undefined },
    host: quietEditorHost(),
    post: (m) => void posted.push(m),
    log: { trace() {}, debug() {}, info() {}, warn() {}, error() {} },
  });
  const lastReply = (): MessageView => {
    const s = posted.filter((m) => m.type === 'state').at(-1);
    assert.ok(s?.type === 'state');
    return s.state.conversation.messages.at(-1)!;
  };
  try {
    await c.handle({ type: 'ready' });
    await c.handle({ type: 'send', text: 'hello' });
    const first = lastReply().content;
    const firstRequest = (await store.load(c.conversationInfo.id))?.messages[1].requestId;
    assert.ok(firstRequest);
    await c.handle({ type: 'regenerate' });
    await c.handle({ type: 'regenerate' });
    const r = lastReply();
    assert.deepEqual(r.version, { index: 3, count: 3 });
    assert.ok(isWebviewToHost({ type: 'showVersion', messageId: r.id, index: 1 }));
    await c.handle({ type: 'showVersion', messageId: r.id, index: 1 });
    assert.deepEqual(lastReply().version, { index: 1, count: 3 });
    assert.equal(lastReply().content, first);
    const saved = await store.load(c.conversationInfo.id);
    assert.equal(saved?.messages.length, 2, 'one question, one reply with its versions');
    assert.equal(saved?.messages[1].versions?.length, 2);
    assert.equal(saved?.messages[1].versionAt, 0);
    assert.equal(saved?.regenerating, undefined, 'the finished Regenerate leaves no marker');
    assert.equal(saved?.messages[1].requestId, firstRequest, 'the first reply is the one shown and saved');
    // Each version was billed: the conversation's total is their sum.
    const total = posted.filter((m) => m.type === 'state').at(-1);
    assert.ok(total?.type === 'state');
    const each = [saved!.messages[1].costNano, ...saved!.messages[1].versions!.map((v) => v.costNano)].map((x) => BigInt(x ?? '0'));
    assert.equal(total.state.conversation.totalCost?.nanocredits, each.reduce((a, b) => a + b, 0n).toString());
    // The next message sends the shown version only.
    await c.handle({ type: 'send', text: 'again' });
    const sent = requests.at(-1)!.messages.filter((m) => m.role === 'assistant');
    assert.deepEqual(
      sent.map((m) => m.content),
      [first],
    );
  } finally {
    c.dispose();
  }
});

test('[#29.8] a Regenerate cut short by a reload loses nothing: the saved history still has the replaced reply with every version', async () => {
  const client = createGatewayClient({ baseUrl: rig.gw.url, getKey: async () => LOCAL_KEYS.userFull, userAgent: 'test' });
  let hang = false;
  let requested = false;
  const controller = (posted: HostToWebview[]) =>
    new ChatController({
      getClient: async () => ({
        ...client,
        // The window reloads while the regenerated reply is on its way: its request never answers.
        streamChatCompletion: (r, o) => {
          if (!hang) return client.streamChatCompletion(r, o);
          requested = true;
          return new Promise<never>(() => undefined);
        },
      }),
      models: { chatModels: () => rig.models.filter((m) => m.capabilities?.includes('chat')), getModel: (id) => rig.models.find((m) => m.id === id), onDidChange: new Emitter<unknown>().event },
      store: new HistoryStore(rig.dir),
      prefs: { lastModelId: () => 'openai/gpt-4o', setLastModelId: () => undefined },
      host: quietEditorHost(),
      post: (m) => void posted.push(m),
      log: { trace() {}, debug() {}, info() {}, warn() {}, error() {} },
    });
  const before = controller([]);
  const after: HostToWebview[] = [];
  const reloaded = controller(after);
  try {
    await before.handle({ type: 'ready' });
    await before.handle({ type: 'send', text: 'hello' });
    await before.handle({ type: 'regenerate' });
    const id = before.conversationInfo.id;
    const store = new HistoryStore(rig.dir);
    const replyBefore = (await store.load(id))!.messages[1];
    assert.equal(replyBefore.versions?.length, 1);
    hang = true;
    void before.handle({ type: 'regenerate' });
    // Its history write is done once the request is on its way; then the window reloads.
    while (!requested) await new Promise((r) => setTimeout(r, 5));
    const onDisk = await store.load(id);
    assert.ok(onDisk);
    assert.deepEqual(restoreInterruptedRegenerate(onDisk).messages, [onDisk.messages[0], replyBefore], 'the history holds the reply with both versions');
    await reloaded.handle({ type: 'ready' });
    assert.equal(await reloaded.openConversation(id), true);
    const state = after.filter((m) => m.type === 'state').at(-1);
    assert.ok(state?.type === 'state');
    assert.deepEqual(state.state.conversation.messages.at(-1)?.version, { index: 2, count: 2 });
  } finally {
    before.dispose();
    reloaded.dispose();
  }
});

test('[#29.8] an interrupted Regenerate\'s marker: the replaced reply comes back only after its own question; a malformed or stale marker is dropped; versions stay bounded', () => {
  const user: StoredMessage = { id: 'u1', role: 'user', content: 'q', status: 'complete', createdAt: 1 };
  const conv = { version: 1 as const, id: 'c', title: 't', modelId: 'm', systemPrompt: '', createdAt: 1, updatedAt: 1, messages: [user] };
  const many = { ...reply('now'), versions: Array.from({ length: 30 }, (_, i) => ({ content: `v${i}`, status: 'complete' as const, createdAt: i })), versionAt: 30 };
  const restored = restoreInterruptedRegenerate({ ...conv, regenerating: { after: 'u1', previous: many } });
  assert.equal(restored.regenerating, undefined);
  assert.equal(restored.messages.length, 2);
  assert.equal(restored.messages[1].versions?.length, MAX_VERSIONS - 1);
  assert.equal(restored.messages[1].versionAt, MAX_VERSIONS - 1);
  // Stale (another message came after), malformed, or absent: nothing added, the marker dropped.
  assert.deepEqual(restoreInterruptedRegenerate({ ...conv, regenerating: { after: 'other', previous: many } }).messages, [user]);
  assert.deepEqual(restoreInterruptedRegenerate({ ...conv, regenerating: { after: 'u1', previous: { role: 'user' } } } as never).messages, [user]);
  assert.equal(restoreInterruptedRegenerate({ ...conv, regenerating: null } as never).regenerating, undefined);
  assert.equal(restoreInterruptedRegenerate(conv), conv);
});
