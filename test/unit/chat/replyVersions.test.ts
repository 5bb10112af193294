/**
 * Regenerate keeps versions (#29.8): the bookkeeping (pure), and the controller against the local
 * gateway: regenerating twice gives "3/3", flipping shows an earlier version, what is saved keeps all
 * of them, only the shown one goes to the model, and the conversation's total counts every version.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { allVersions, MAX_VERSIONS, selectVersion, versionCosts, withEarlierVersions } from '../../../src/core/chat/replyVersions';
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
