/**
 * Issue 27 item 1: one conversation in two places. Two chat controllers (the sidebar view and an
 * editor tab) in one window, or in two windows (two HistoryStores over one folder), against the real
 * local gateway and real history files; the webviews are recorders.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { LOCAL_KEYS } from '../../localGateway/keys';
import { useControllerRig, quietEditorHost } from './controllerRig';
import { createGatewayClient } from '../../../src/core/gateway/gatewayClient';
import { ChatController } from '../../../src/core/chat/chatController';
import { HistoryStore } from '../../../src/core/chat/historyStore';
import { LiveConversations } from '../../../src/core/chat/liveConversations';
import { Emitter } from '../../../src/core/disposables';
import type { HostToWebview } from '../../../src/protocol/chatProtocol';

const rig = useControllerRig('chat-two-');

interface View {
  controller: ChatController;
  posted: HostToWebview[];
  /** Resolves with the first message after index `from` that `match` accepts (a safety net fails a hang). */
  waitFor<T extends HostToWebview['type']>(type: T, from?: number, match?: (m: Extract<HostToWebview, { type: T }>) => boolean): Promise<Extract<HostToWebview, { type: T }>>;
}

/** One chat view (sidebar or tab). Views of one window share `store` and `live`, as chatWiring does. */
function view(store: HistoryStore, live: LiveConversations | undefined): View {
  const posted: HostToWebview[] = [];
  const waiters: Array<() => void> = [];
  const client = createGatewayClient({ baseUrl: rig.gw.url, getKey: async () => LOCAL_KEYS.userFull, userAgent: 'chat-two-test', retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 1 } });
  const controller = new ChatController({
    getClient: async () => client,
    models: { chatModels: () => rig.models.filter((m) => m.capabilities?.includes('chat')), getModel: (id) => rig.models.find((m) => m.id === id), onDidChange: new Emitter<unknown>().event },
    store,
    ...(live ? { live } : {}),
    prefs: { lastModelId: () => 'openai/gpt-4o', setLastModelId: () => {} },
    host: quietEditorHost(),
    post: (m) => {
      posted.push(m);
      waiters.splice(0).forEach((w) => w());
    },
    log: { trace() {}, debug() {}, info() {}, warn() {}, error() {} },
  });
  const waitFor = async <T extends HostToWebview['type']>(type: T, from = 0, match: (m: Extract<HostToWebview, { type: T }>) => boolean = () => true): Promise<Extract<HostToWebview, { type: T }>> => {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const found = posted.slice(from).find((m): m is Extract<HostToWebview, { type: T }> => m.type === type && match(m as Extract<HostToWebview, { type: T }>));
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no ${type} message was posted`);
      await new Promise<void>((r) => {
        waiters.push(r);
        setTimeout(r, 500);
      });
    }
  };
  return { controller, posted, waitFor };
}

/** Sends `text` in `v` and waits for that reply's end; returns the reply's request id. */
async function sendAndWait(v: View, text: string): Promise<string> {
  const from = v.posted.length;
  await v.controller.handle({ type: 'send', text });
  const start = await v.waitFor('streamStart', from);
  await v.waitFor('streamDone', from, (m) => m.requestId === start.requestId);
  return start.requestId;
}

const userTurns = (c: { messages: Array<{ role: string; content: string }> } | undefined) => (c?.messages ?? []).filter((m) => m.role === 'user').map((m) => m.content);
const lastState = (v: View) => v.posted.filter((m): m is Extract<HostToWebview, { type: 'state' }> => m.type === 'state').at(-1)!.state;

describe('one conversation in two places', () => {
  test('[#27.1] the sidebar and a tab on one conversation: both get every turn, a reply streams into both, the file holds all turns', async () => {
    const store = new HistoryStore(rig.dir);
    const live = new LiveConversations(store);
    const sidebar = view(store, live);
    await sidebar.controller.handle({ type: 'ready' });
    await sendAndWait(sidebar, 'one from the sidebar');
    // Open Chat in Editor: a new tab, whose first ready opens the most recent conversation.
    const tab = view(store, live);
    await tab.controller.handle({ type: 'ready' });
    const id = sidebar.controller.conversationInfo.id;
    assert.equal(tab.controller.conversationInfo.id, id, 'the tab shows the same conversation');

    rig.gw.configure({ chunkDelayMs: 10 });
    const sidebarFrom = sidebar.posted.length;
    const tabRequest = await sendAndWait(tab, 'two from the tab');
    // The sidebar saw the tab's turn as it happened: the reply's start, its text and its end.
    const seen = sidebar.posted.slice(sidebarFrom);
    assert.ok(seen.some((m) => m.type === 'streamStart' && m.requestId === tabRequest), 'the sidebar got the stream start');
    const chunks = seen.filter((m) => m.type === 'streamChunk' && m.requestId === tabRequest).map((m) => (m.type === 'streamChunk' ? m.text : ''));
    const done = await sidebar.waitFor('streamDone', sidebarFrom, (m) => m.requestId === tabRequest);
    assert.ok(chunks.length > 0 && chunks.join('') === done.message.content, 'the reply streamed into the sidebar chunk by chunk');
    assert.deepEqual(userTurns(lastState(sidebar).conversation), ['one from the sidebar', 'two from the tab']);
    assert.equal(lastState(sidebar).busy, false);
    // Nothing was put into the sidebar's input: its draft is its own.
    assert.equal(seen.filter((m) => m.type === 'setInput').length, 0);

    await sendAndWait(sidebar, 'three from the sidebar');
    assert.deepEqual(userTurns(lastState(tab).conversation), ['one from the sidebar', 'two from the tab', 'three from the sidebar']);
    const saved = await new HistoryStore(rig.dir).load(id);
    assert.deepEqual(
      saved?.messages.map((m) => [m.role, m.role === 'user' ? m.content : m.status]),
      [
        ['user', 'one from the sidebar'],
        ['assistant', 'complete'],
        ['user', 'two from the tab'],
        ['assistant', 'complete'],
        ['user', 'three from the sidebar'],
        ['assistant', 'complete'],
      ],
    );
    sidebar.controller.dispose();
    tab.controller.dispose();
    live.dispose();
  });

  test('[#27.1] while the tab streams, the sidebar shows it busy, cannot start a second request (its text comes back), and its Stop stops the reply', async () => {
    const store = new HistoryStore(rig.dir);
    const live = new LiveConversations(store);
    const sidebar = view(store, live);
    await sidebar.controller.handle({ type: 'ready' });
    await sendAndWait(sidebar, 'first');
    const tab = view(store, live);
    await tab.controller.handle({ type: 'ready' });
    rig.gw.configure({ chunkDelayMs: 60 });
    const tabFrom = tab.posted.length;
    const sidebarFrom = sidebar.posted.length;
    void tab.controller.handle({ type: 'send', text: 'a long answer please' });
    const start = await tab.waitFor('streamStart', tabFrom);
    await sidebar.waitFor('streamChunk', sidebarFrom, (m) => m.requestId === start.requestId);
    assert.equal((await sidebar.controller.state()).busy, true, 'the sidebar shows the reply as running');

    const before = sidebar.posted.length;
    await sidebar.controller.handle({ type: 'send', text: 'typed meanwhile' });
    assert.deepEqual(sidebar.posted.slice(before).find((m) => m.type === 'setInput'), { type: 'setInput', text: 'typed meanwhile' });
    assert.ok(sidebar.posted.slice(before).some((m) => m.type === 'notice'), 'the sidebar says why');
    assert.equal(tab.posted.slice(tabFrom).filter((m) => m.type === 'streamStart').length, 1, 'no second request');

    await sidebar.controller.handle({ type: 'stop' });
    const end = await tab.waitFor('streamError', tabFrom, (m) => m.requestId === start.requestId);
    assert.equal(end.message.status, 'incomplete');
    await sidebar.waitFor('streamError', sidebarFrom, (m) => m.requestId === start.requestId);
    const saved = await new HistoryStore(rig.dir).load(sidebar.controller.conversationInfo.id);
    assert.deepEqual(userTurns(saved), ['first', 'a long answer please']);
    assert.equal(saved?.messages.at(-1)?.status, 'incomplete');
    sidebar.controller.dispose();
    tab.controller.dispose();
    live.dispose();
  });

  test('[#27.1] a tab opened while the sidebar streams shows the reply so far and its end', async () => {
    const store = new HistoryStore(rig.dir);
    const live = new LiveConversations(store);
    const sidebar = view(store, live);
    await sidebar.controller.handle({ type: 'ready' });
    await sendAndWait(sidebar, 'first');
    rig.gw.configure({ chunkDelayMs: 40 });
    const from = sidebar.posted.length;
    void sidebar.controller.handle({ type: 'send', text: 'second, streaming' });
    const start = await sidebar.waitFor('streamStart', from);
    await sidebar.waitFor('streamChunk', from, (m) => m.requestId === start.requestId);
    const tab = view(store, live);
    await tab.controller.handle({ type: 'ready' });
    await tab.controller.handle({ type: 'openConversation', conversationId: sidebar.controller.conversationInfo.id });
    assert.ok(tab.posted.some((m) => m.type === 'streamStart' && m.requestId === start.requestId), 'the tab joins the running reply');
    const done = await tab.waitFor('streamDone', 0, (m) => m.requestId === start.requestId);
    const sidebarDone = await sidebar.waitFor('streamDone', from, (m) => m.requestId === start.requestId);
    assert.equal(done.message.content, sidebarDone.message.content);
    // A streamStart replaces what the webview had of the reply (the tab's ready joined it, then the open did again).
    const lastStart = tab.posted.map((m) => m.type === 'streamStart' && m.requestId === start.requestId).lastIndexOf(true);
    const text = tab.posted.slice(lastStart).filter((m) => m.type === 'streamChunk' && m.requestId === start.requestId).map((m) => (m.type === 'streamChunk' ? m.text : '')).join('');
    assert.equal(text, done.message.content, 'the tab got the text so far, then the rest');
    sidebar.controller.dispose();
    tab.controller.dispose();
    live.dispose();
  });
});

describe('one conversation in two windows', () => {
  test('[#27.1] turns the other window appended are adopted, not overwritten; its save reaches this window live', async () => {
    const store1 = new HistoryStore(rig.dir);
    const store2 = new HistoryStore(rig.dir);
    const w1 = view(store1, new LiveConversations(store1));
    const w2 = view(store2, new LiveConversations(store2));
    await w1.controller.handle({ type: 'ready' });
    await sendAndWait(w1, 'one in window 1');
    await w2.controller.handle({ type: 'ready' });
    const id = w1.controller.conversationInfo.id;
    assert.equal(w2.controller.conversationInfo.id, id);
    await sendAndWait(w1, 'two in window 1');
    // Window 2 has not re-read the file: its send must not overwrite window 1's second turn.
    await sendAndWait(w2, 'three in window 2');
    const saved = await new HistoryStore(rig.dir).load(id);
    assert.deepEqual(userTurns(saved), ['one in window 1', 'two in window 1', 'three in window 2']);
    assert.equal(saved?.messages.length, 6);
    assert.deepEqual(userTurns(lastState(w2).conversation), ['one in window 1', 'two in window 1', 'three in window 2']);
    // Window 1's file watcher sees window 2's write: its view takes it, with nothing unsaved here.
    const from = w1.posted.length;
    await store1.refreshFile(id);
    const update = await w1.waitFor('state', from, (m) => m.state.conversation.messages.length === 6);
    assert.deepEqual(userTurns(update.state.conversation), ['one in window 1', 'two in window 1', 'three in window 2']);
    w1.controller.dispose();
    w2.controller.dispose();
  });

  test('[#27.1] replies in both windows at once: this window goes on in a named branch and says so; nothing is lost', async () => {
    const store1 = new HistoryStore(rig.dir);
    const store2 = new HistoryStore(rig.dir);
    const w1 = view(store1, new LiveConversations(store1));
    const w2 = view(store2, new LiveConversations(store2));
    await w1.controller.handle({ type: 'ready' });
    await sendAndWait(w1, 'start');
    await w2.controller.handle({ type: 'ready' });
    const id = w1.controller.conversationInfo.id;
    rig.gw.configure({ chunkDelayMs: 30 });
    // Both windows send before either reply ends.
    const f1 = w1.posted.length;
    const f2 = w2.posted.length;
    await Promise.all([w1.controller.handle({ type: 'send', text: 'from window 1' }), w2.controller.handle({ type: 'send', text: 'from window 2' })]);
    await Promise.all([w1.waitFor('streamDone', f1), w2.waitFor('streamDone', f2)]);
    const files = (await readdir(rig.dir)).filter((n) => n.endsWith('.json'));
    const fresh = new HistoryStore(rig.dir);
    const all = await Promise.all(files.map((n) => fresh.load(n.slice(0, -5))));
    const branch = all.find((c) => c && c.id !== id);
    assert.ok(branch, 'one window saved its version as a new conversation');
    assert.match(branch.title, /\(branch\)$/);
    const everyTurn = all.flatMap((c) => userTurns(c));
    assert.ok(everyTurn.includes('from window 1') && everyTurn.includes('from window 2'), 'both turns are kept');
    for (const c of all) assert.ok(c && c.messages.every((m) => m.status === 'complete'), 'every reply is saved complete');
    const moved = [w1, w2].find((w) => w.controller.conversationInfo.id === branch.id);
    assert.ok(moved, 'the window whose turn conflicted now shows the branch');
    assert.ok(moved.posted.some((m) => m.type === 'notice' && /branch/.test(m.text)), 'and says so in the view');
    w1.controller.dispose();
    w2.controller.dispose();
  });
});
