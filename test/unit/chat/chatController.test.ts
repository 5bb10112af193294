/**
 * The chat engine end to end in plain Node: real gateway client, real local gateway, real history
 * files. Only the editor actions and the webview are replaced by recorders.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LOCAL_KEYS } from '../../localGateway/keys';
import { useControllerRig } from './controllerRig';
import { createGatewayClient } from '../../../src/core/gateway/gatewayClient';
import type { IGatewayClient } from '../../../src/core/gateway/api';
import { ChatController, type ChatEditorHost } from '../../../src/core/chat/chatController';
import { HistoryStore, nodeHistoryFs } from '../../../src/core/chat/historyStore';
import { Emitter } from '../../../src/core/disposables';
import { PromptCostEstimator } from '../../../src/core/spend/promptCost';
import type { HostToWebview, MessageView } from '../../../src/protocol/chatProtocol';
import { messageView } from '../../../src/core/chat/messageViews';
import { toMarkdown } from '../../../src/core/chat/conversation';

const rig = useControllerRig('chat-ctl-');

interface Harness {
  controller: ChatController;
  posted: HostToWebview[];
  store: HistoryStore;
  host: ChatEditorHost & { calls: string[] };
  waitFor<T extends HostToWebview['type']>(type: T, from?: number): Promise<Extract<HostToWebview, { type: T }>>;
  requests: Array<Record<string, unknown>>;
}

function harness(opts: { key?: string; modelId?: string; store?: HistoryStore; onClient?: () => Promise<void>; host?: Partial<ChatEditorHost>; allowSend?: () => Promise<boolean>; onPriced?: ConstructorParameters<typeof ChatController>[0]['onPriced']; promptCost?: PromptCostEstimator } = {}): Harness {
  const posted: HostToWebview[] = [];
  const waiters: Array<() => void> = [];
  const store = opts.store ?? new HistoryStore(rig.dir);
  const calls: string[] = [];
  const host: ChatEditorHost & { calls: string[] } = {
    calls,
    copy: async (t) => void calls.push(`copy:${t}`),
    insertCode: async () => void calls.push('insert'),
    newFile: async () => void calls.push('newFile'),
    openLink: async (h) => void calls.push(`open:${h}`),
    setApiKey: async () => void calls.push('setApiKey'),
    pickAttachments: async () => [{ id: 'att1', kind: 'selection', label: 'a.ts:1-2', content: 'let x = 1;' }],
    askTitle: async () => 'Renamed',
    confirmDelete: async () => true,
    confirmContextOverflow: async () => false,
    exportMarkdown: async (_n, md) => void calls.push(`export:${md.length}`),
    showError: (m) => void calls.push(`error:${m}`),
    ...opts.host,
  };
  const requests: Array<Record<string, unknown>> = [];
  const client = createGatewayClient({
    baseUrl: rig.gw.url,
    getKey: async () => opts.key ?? LOCAL_KEYS.userFull,
    userAgent: 'chat-test',
    retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 1 },
  });
  const recording: IGatewayClient = {
    ...client,
    listModels: (o) => client.listModels(o),
    getModelSchema: (id, o) => client.getModelSchema(id, o),
    createChatCompletion: (r, o) => client.createChatCompletion(r, o),
    postJson: (p, b, o) => client.postJson(p, b, o),
    getJson: (p, o) => client.getJson(p, o),
    streamChatCompletion: (r, o) => {
      requests.push({ ...r });
      return client.streamChatCompletion(r, o);
    },
  };
  const changed = new Emitter<unknown>();
  let last = opts.modelId ?? 'openai/gpt-4o';
  const controller = new ChatController({
    getClient: async () => {
      await opts.onClient?.();
      return recording;
    },
    models: { chatModels: () => rig.models.filter((m) => m.capabilities?.includes('chat')), getModel: (id) => rig.models.find((m) => m.id === id), onDidChange: changed.event },
    store,
    prefs: { lastModelId: () => last, setLastModelId: (id) => void (last = id) },
    host,
    post: (m) => {
      posted.push(m);
      waiters.splice(0).forEach((w) => w());
    },
    log: { trace() {}, debug() {}, info() {}, warn() {}, error() {} },
    ...(opts.allowSend ? { allowSend: opts.allowSend } : {}),
    ...(opts.onPriced ? { onPriced: opts.onPriced } : {}),
    ...(opts.promptCost ? { promptCost: opts.promptCost } : {}),
  });
  // Safety net so a broken engine fails the test instead of hanging it; not a timing assertion.
  const waitFor = async <T extends HostToWebview['type']>(type: T, from = 0): Promise<Extract<HostToWebview, { type: T }>> => {
    const deadline = Date.now() + 15_000;
    for (;;) {
      if (Date.now() > deadline) throw new Error(`no ${type} message was posted`);
      const found = posted.slice(from).find((m) => m.type === type);
      if (found) return found as Extract<HostToWebview, { type: T }>;
      await new Promise<void>((r) => {
        waiters.push(r);
        setTimeout(r, 500);
      });
    }
  };
  return { controller, posted, store, host, waitFor, requests };
}

function text(posted: HostToWebview[]): string {
  return posted.map((m) => (m.type === 'streamChunk' ? m.text : '')).join('');
}

describe('chat controller against the local gateway', () => {
  test('[G-CHAT-1] [G-CHAT-2] [G-CHAT-3] a message streams, completes with usage and exact cost, and is in history', async () => {
    const h = harness();
    rig.gw.configure({ chunkDelayMs: 25 });
    await h.controller.handle({ type: 'ready' });
    await h.controller.handle({ type: 'send', text: 'Hello **world**' });
    const done = await h.waitFor('streamDone');
    assert.ok(h.posted.filter((m) => m.type === 'streamChunk').length > 1, 'arrived in several chunks');
    assert.equal(done.message.content, text(h.posted));
    assert.match(done.message.content, /You said: "Hello \*\*world\*\*"/);
    assert.equal(done.message.status, 'complete');
    assert.ok(done.message.usage && done.message.usage.promptTokens > 0 && done.message.usage.completionTokens > 0);
    assert.match(done.message.cost?.nanocredits ?? '', /^\d+$/);
    assert.equal(done.totalCost?.nanocredits, done.message.cost?.nanocredits);
    assert.equal(h.requests[0].stream, true);
    const [summary] = await h.store.list();
    const stored = await new HistoryStore(rig.dir).load(summary.id);
    assert.deepEqual(
      stored?.messages.map((m) => [m.role, m.status]),
      [
        ['user', 'complete'],
        ['assistant', 'complete'],
      ],
    );
    assert.equal(stored?.title, 'Hello **world**');
  });

  test('cost before sending: a draft is priced from the counted tokens and the rates, labelled when estimated; Send clears it', async () => {
    const counted: string[] = [];
    let source: 'gateway' | 'estimate' = 'gateway';
    const estimator = new PromptCostEstimator({
      count: async (_model, text) => {
        counted.push(text);
        return { tokens: 1000, source };
      },
      model: (id) => rig.models.find((m) => m.id === id),
      delayMs: 0,
    });
    const h = harness({ modelId: 'openai/gpt-4o', promptCost: estimator });
    await h.controller.handle({ type: 'ready' });
    let from = h.posted.length;
    await h.controller.handle({ type: 'draft', text: 'What is new in 6.8?' });
    // GPT-4o on the local gateway: 2.50 credits per million input tokens, 16,384 output tokens at most at 10.00.
    const exact = await h.waitFor('promptCost', from);
    assert.deepEqual(exact, { type: 'promptCost', text: 'Prompt 0.0025 credits, at most 0.16634 credits with the reply', estimate: false });
    assert.ok(counted[0]?.endsWith('What is new in 6.8?'), 'the count is of the text Send would send');

    source = 'estimate';
    from = h.posted.length;
    await h.controller.handle({ type: 'draft', text: 'What is new in 6.9?' });
    assert.deepEqual(await h.waitFor('promptCost', from), { type: 'promptCost', text: 'Prompt 0.0025 credits, at most 0.16634 credits with the reply (estimate)', estimate: true });

    from = h.posted.length;
    await h.controller.handle({ type: 'send', text: 'What is new in 6.9?' });
    assert.deepEqual(await h.waitFor('promptCost', from), { type: 'promptCost', text: '', estimate: false });
    await h.waitFor('streamDone', from);
  });

  test('cost before sending: a draft still being priced when Send arrives never shows its cost after Send cleared it', async () => {
    const estimator = new PromptCostEstimator({
      count: async () => ({ tokens: 1000, source: 'gateway' as const }),
      model: (id) => rig.models.find((m) => m.id === id),
      delayMs: 0,
    });
    const h = harness({ modelId: 'openai/gpt-4o', promptCost: estimator });
    await h.controller.handle({ type: 'ready' });
    const from = h.posted.length;
    // The webview posts the draft as the user types and Send right after; the host does not wait for the
    // draft's answer before it takes the Send.
    const draft = h.controller.handle({ type: 'draft', text: 'Give this post a better title.', rid: 7 });
    const send = h.controller.handle({ type: 'send', text: 'Give this post a better title.' });
    await Promise.all([draft, send]);
    await h.waitFor('streamDone', from);
    const costs = h.posted.slice(from).filter((m) => m.type === 'promptCost');
    assert.ok(costs.length > 0, 'Send cleared the cost');
    assert.deepEqual(costs.at(-1), { type: 'promptCost', text: '', estimate: false }, `the last cost line the view got is empty: ${JSON.stringify(costs)}`);
  });

  test('the user message is written to history before the request is sent', async () => {
    let savedBeforeRequest: string[] | undefined;
    const store = new HistoryStore(rig.dir);
    const h = harness({
      store,
      onClient: async () => {
        // Read through a second store: what is on disk, not what is in memory.
        const disk = new HistoryStore(rig.dir);
        const [s] = await disk.list();
        savedBeforeRequest = s ? (await disk.load(s.id))?.messages.map((m) => m.content) : [];
      },
    });
    await h.controller.handle({ type: 'send', text: 'persist me first' });
    await h.waitFor('streamDone');
    assert.deepEqual(savedBeforeRequest?.[0], 'persist me first');
  });

  test('a failed history write sends nothing and gives the text back to the input', async () => {
    const store = new HistoryStore(rig.dir, {
      ...nodeHistoryFs,
      writeFileDurable: async () => {
        throw new Error('EACCES: read-only disk');
      },
    });
    const h = harness({ store });
    await h.controller.handle({ type: 'send', text: 'do not lose me' });
    assert.deepEqual(
      h.posted.filter((m) => m.type === 'setInput'),
      [{ type: 'setInput', text: 'do not lose me' }],
    );
    assert.equal(h.requests.length, 0);
    assert.equal(rig.gw.events.list('chat-request').length, 0);
    assert.ok(h.host.calls.some((c) => c.startsWith('error:') && c.includes('not sent')));
  });

  test('Stop aborts the HTTP request: the gateway sees the stream closed, the text so far is kept', async () => {
    const h = harness();
    // Not awaited: handle('send') resolves when the reply ends, and Stop must arrive while it streams.
    const sending = h.controller.handle({ type: 'send', text: '[[slow]] a long answer please' });
    await h.waitFor('streamChunk');
    await h.controller.handle({ type: 'stop' });
    await sending;
    const err = await h.waitFor('streamError');
    assert.equal(h.posted.some((m) => m.type === 'streamDone'), false);
    const closed = await rig.gw.events.waitFor('client-closed-stream');
    assert.equal(closed.path, '/v1/chat/completions');
    assert.equal(err.message.status, 'incomplete');
    assert.ok(err.message.content.length > 0);
    assert.equal(h.controller.busy, false);
  });

  test('[#29.6] a stopped reply is shown as stopped, not failed: no error, no Retry, its text kept, and its cost marked as estimated', async () => {
    const h = harness();
    await h.controller.handle({ type: 'ready' });
    const sending = h.controller.handle({ type: 'send', text: '[[slow]] a long answer please' });
    await h.waitFor('streamChunk');
    await h.controller.handle({ type: 'stop' });
    await sending;
    const end = await h.waitFor('streamError');
    assert.deepEqual(end.message.stopped, {});
    assert.equal(end.message.error, undefined, 'no error box, no Retry action');
    assert.equal(end.message.status, 'incomplete');
    assert.ok(end.message.content.length > 0, 'the text received is kept');
    // The local gateway reports usage only with the last chunk: the cost shown is an estimate, and says so.
    assert.match(end.message.cost?.nanocredits ?? '', /^[1-9]\d*$/);
    assert.equal(end.message.costEstimated, true);
    // Saved that way: reopened from history, it is still stopped with its estimated cost.
    const saved = await h.store.load(h.controller.conversationInfo.id);
    const reply = saved?.messages.at(-1);
    assert.equal(reply?.stopped, true);
    assert.equal(reply?.costEstimated, true);
    assert.equal(reply?.error, undefined);
    assert.match(toMarkdown(saved!), /\*\(stopped\)\*/);
  });

  test('[#29.6] a reply stopped before the stop was kept apart (saved with the error "Stopped.") reads as stopped too', () => {
    const v = messageView({ id: 'r', role: 'assistant', content: 'half', status: 'incomplete', createdAt: 1, error: { message: 'Stopped.', actions: ['retry'] } }, false);
    assert.deepEqual(v.stopped, {});
    assert.equal(v.error, undefined);
  });

  test('a webview that reloads mid-stream gets the text so far and then the rest, without duplicates', async () => {
    const h = harness();
    rig.gw.configure({ chunkDelayMs: 30 });
    await h.controller.handle({ type: 'ready' });
    const sending = h.controller.handle({ type: 'send', text: 'reload while streaming' });
    await h.waitFor('streamChunk');
    await h.controller.handle({ type: 'ready' }); // the webview was hidden and came back
    await sending;
    const done = await h.waitFor('streamDone');
    const lastStart = h.posted.map((m) => m.type).lastIndexOf('streamStart');
    assert.ok(lastStart > h.posted.findIndex((m) => m.type === 'streamStart'), 'stream resumed with a second streamStart');
    assert.equal(text(h.posted.slice(lastStart)), done.message.content);
  });

  test('[G-AUTH-3] a revoked key shows the error inline with Set API Key, and keeps the message', async () => {
    const h = harness({ key: LOCAL_KEYS.revoked });
    await h.controller.handle({ type: 'send', text: 'hello' });
    const err = await h.waitFor('streamError');
    assert.equal(err.message.status, 'error');
    assert.match(err.message.error?.message ?? '', /invalid or revoked/);
    assert.ok(err.message.error?.actions.includes('setApiKey'));
    assert.ok(err.message.error?.requestId, 'request id shown');
    await h.controller.handle({ type: 'errorAction', action: 'setApiKey', messageId: err.message.id });
    await h.controller.handle({ type: 'errorAction', action: 'copyRequestId', messageId: err.message.id });
    assert.deepEqual(h.host.calls, ['setApiKey', `copy:${err.message.error?.requestId}`]);
    const state = await h.controller.state();
    assert.equal(state.conversation.messages[0].content, 'hello');
  });

  test('[G-CHAT-4] moderation shows exactly "Blocked by content moderation"', async () => {
    const h = harness();
    await h.controller.handle({ type: 'send', text: 'please [[moderate]]' });
    const err = await h.waitFor('streamError');
    assert.equal(err.message.error?.message, 'Blocked by content moderation');
    assert.equal(err.message.error?.detail, undefined);
  });

  test('[G-ERR-3] a 429 is retried automatically with a countdown notice', async () => {
    const h = harness();
    await h.controller.handle({ type: 'send', text: 'retry me [[fault:429]]' });
    const err = await h.waitFor('streamError');
    const countdown = h.posted.find((m): m is Extract<HostToWebview, { type: 'retryCountdown' }> => m.type === 'retryCountdown');
    assert.ok(countdown && countdown.attempt === 1 && countdown.seconds >= 1);
    assert.deepEqual(err.message.error?.actions.includes('retry'), true);
  });

  test('a broken stream keeps the text that arrived, marked incomplete, with Retry', async () => {
    const h = harness();
    await h.controller.handle({ type: 'send', text: 'break [[fault:disconnect]]' });
    const err = await h.waitFor('streamError');
    assert.equal(err.message.status, 'incomplete');
    assert.ok(err.message.content.length > 0);
    assert.ok(err.message.error?.actions.includes('retry'));
  });

  test('[G-CAT-5] a model with temperature supported:false gets no temperature', async () => {
    const h = harness({ modelId: 'openai/gpt-5.1' });
    await h.controller.handle({ type: 'setTemperature', value: 0.5 });
    await h.controller.handle({ type: 'send', text: 'hi' });
    await h.waitFor('streamDone');
    assert.equal('temperature' in h.requests[0], false);
    assert.equal(rig.gw.events.list('chat-request')[0]?.hasTemperature, false);
  });

  test('[G-CAT-6] temperature is clamped into the inclusive bounds, min defaulting to 0', async () => {
    const h = harness({ modelId: 'gemma/gemma-3-27b' });
    await h.controller.handle({ type: 'setTemperature', value: 5 });
    await h.controller.handle({ type: 'send', text: 'hi' });
    await h.waitFor('streamDone');
    assert.equal(h.requests[0].temperature, 1);
  });

  test('regenerate replaces the last reply; edit last replaces the last user message', async () => {
    const h = harness();
    await h.controller.handle({ type: 'send', text: 'first' });
    await h.waitFor('streamDone');
    let n = h.posted.length;
    await h.controller.handle({ type: 'regenerate' });
    await h.waitFor('streamDone', n);
    assert.deepEqual(
      (await h.controller.state()).conversation.messages.map((m: MessageView) => m.role),
      ['user', 'assistant'],
    );
    n = h.posted.length;
    await h.controller.handle({ type: 'editLast', text: 'second' });
    const done = await h.waitFor('streamDone', n);
    assert.match(done.message.content, /You said: "second"/);
    const msgs = (await h.controller.state()).conversation.messages;
    assert.deepEqual(
      msgs.map((m) => m.content.slice(0, 6)),
      ['second', 'You sa'],
    );
  });

  test('attachments go with the next message only, and the context estimate warns before sending', async () => {
    const h = harness();
    await h.controller.handle({ type: 'attach', kind: 'selection' });
    assert.equal((await h.controller.state()).attachments[0]?.size, 'let x = 1;'.length);
    await h.controller.handle({ type: 'send', text: 'explain' });
    await h.waitFor('streamDone');
    assert.equal(rig.gw.events.list('chat-request')[0]?.messageCount, 1);
    assert.match(JSON.stringify(h.requests[0].messages), /let x = 1;/);
    assert.deepEqual((await h.controller.state()).attachments, []);
    // A message over the context window is confirmed first; the fake host declines, so nothing is sent.
    const before = h.requests.length;
    await h.controller.handle({ type: 'send', text: 'x'.repeat(4_000_000) });
    assert.equal(h.requests.length, before);
    assert.equal(h.posted.at(-1)?.type, 'setInput');
  });

  test('[G-CAT-11] a conversation on a removed model offers to switch and does not send', async () => {
    const removed = rig.models.find((m) => m.removal_date && m.removal_date <= new Date().toISOString().slice(0, 10) && m.capabilities?.includes('chat'));
    assert.ok(removed, 'the local catalog has a removed chat model');
    const h = harness();
    await h.controller.handle({ type: 'send', text: 'hi' });
    await h.waitFor('streamDone');
    const conv = await h.store.load((await h.controller.state()).conversation.id);
    assert.ok(conv);
    await h.store.save({ ...conv, modelId: removed.id });
    await h.controller.handle({ type: 'openConversation', conversationId: conv.id });
    const state = await h.controller.state();
    assert.equal(state.conversation.removedModel?.modelId, removed.id);
    assert.ok(state.conversation.removedModel?.suggestion);
    const before = h.requests.length;
    await h.controller.handle({ type: 'send', text: 'again' });
    assert.equal(h.requests.length, before);
  });

  test('[G-AUTH-4] a key without chat write shows the scope, required and granted level', async () => {
    const h = harness({ key: LOCAL_KEYS.userReadOnly });
    await h.controller.handle({ type: 'send', text: 'hi' });
    const err = await h.waitFor('streamError');
    assert.match(err.message.error?.message ?? '', /"chat" scope at write level \(this key has read\)/);
  });

  test('history survives a reload: a new controller reopens the latest conversation; rename, export and delete work', async () => {
    const h = harness();
    await h.controller.handle({ type: 'send', text: 'remember me' });
    await h.waitFor('streamDone');
    const id = (await h.controller.state()).conversation.id;
    h.controller.dispose();

    const reloaded = harness();
    await reloaded.controller.handle({ type: 'ready' });
    const state = await reloaded.controller.state();
    assert.equal(state.conversation.id, id);
    assert.deepEqual(
      state.conversation.messages.map((m) => m.status),
      ['complete', 'complete'],
    );
    const list = reloaded.posted.find((m) => m.type === 'conversations');
    assert.equal(list?.type === 'conversations' ? list.conversations[0]?.title : undefined, 'remember me');

    await reloaded.controller.handle({ type: 'renameConversation', conversationId: id });
    assert.equal((await reloaded.store.load(id))?.title, 'Renamed');
    await reloaded.controller.handle({ type: 'exportConversation', conversationId: id });
    assert.ok(reloaded.host.calls.some((c) => c.startsWith('export:')));
    await reloaded.controller.handle({ type: 'deleteConversation', conversationId: id });
    assert.equal(await reloaded.store.load(id), undefined);
    assert.notEqual((await reloaded.controller.state()).conversation.id, id);
  });

  test('the model picker remembers the last choice for new conversations', async () => {
    const h = harness();
    await h.controller.handle({ type: 'selectModel', modelId: 'anthropic/claude-haiku-4.5' });
    await h.controller.handle({ type: 'newConversation' });
    assert.equal((await h.controller.state()).selectedModelId, 'anthropic/claude-haiku-4.5');
    await h.controller.handle({ type: 'selectModel', modelId: 'openai/gpt-image-1' });
    assert.equal((await h.controller.state()).selectedModelId, 'anthropic/claude-haiku-4.5', 'a non-chat model is refused');
  });

  test('nothing posted to the webview contains the API key', async () => {
    const h = harness();
    await h.controller.handle({ type: 'ready' });
    await h.controller.handle({ type: 'send', text: 'hi' });
    await h.waitFor('streamDone');
    const h2 = harness({ key: LOCAL_KEYS.revoked });
    await h2.controller.handle({ type: 'send', text: 'hi' });
    await h2.waitFor('streamError');
    const all = JSON.stringify([...h.posted, ...h2.posted]);
    assert.ok(!all.includes(LOCAL_KEYS.userFull) && !all.includes(LOCAL_KEYS.revoked) && !all.includes('svc_'));
  });
});

describe('chat state without rescans', () => {
  test('with 40 conversations on disk, sending a message reads no conversation file and re-sends no list, in either open view', async () => {
    const seed = new HistoryStore(rig.dir);
    for (let i = 0; i < 40; i++) {
      await seed.save({
        version: 1,
        id: `seed${i}`,
        title: `Seed ${i}`,
        modelId: 'openai/gpt-4o',
        systemPrompt: '',
        createdAt: i,
        updatedAt: i,
        messages: [{ id: `m${i}`, role: 'user', content: 'x'.repeat(200), status: 'complete', createdAt: i }],
      });
    }
    const reads: string[] = [];
    let listings = 0;
    const store = new HistoryStore(rig.dir, {
      ...nodeHistoryFs,
      readFile: (path) => {
        reads.push(path);
        return nodeHistoryFs.readFile(path);
      },
      readdir: (path) => {
        listings++;
        return nodeHistoryFs.readdir(path);
      },
    });
    const a = harness({ store });
    const b = harness({ store });
    await a.controller.handle({ type: 'ready' });
    await b.controller.handle({ type: 'ready' });
    assert.ok(reads.length >= 40, 'the first ready builds the index from the files');
    await a.controller.handle({ type: 'newConversation' });
    reads.length = 0;
    listings = 0;
    const fromA = a.posted.length;
    const fromB = b.posted.length;

    await a.controller.handle({ type: 'send', text: 'no rescans please' });
    await a.waitFor('streamDone', fromA);

    assert.deepEqual(reads, [], 'no conversation file was read');
    assert.equal(listings, 0, 'the directory was not listed');
    const sentA = a.posted.slice(fromA);
    const sentB = b.posted.slice(fromB);
    assert.equal(sentA.filter((m) => m.type === 'conversations').length + sentB.filter((m) => m.type === 'conversations').length, 0, 'no full list');
    assert.ok(sentA.filter((m) => m.type === 'state').length <= 2, `view A got ${sentA.filter((m) => m.type === 'state').length} states`);
    assert.deepEqual(
      sentB.map((m) => m.type),
      sentB.map(() => 'conversationsChanged'),
      'the other view gets only list changes',
    );
    const changed = sentB.filter((m): m is Extract<HostToWebview, { type: 'conversationsChanged' }> => m.type === 'conversationsChanged');
    assert.ok(changed.length >= 1);
    assert.equal(changed.at(-1)?.upserted[0]?.title, 'no rescans please');
    // The index agrees with the disk.
    const fresh = await new HistoryStore(rig.dir).list();
    assert.deepEqual(await store.list(), fresh);
    assert.equal(fresh.length, 41);
  });
});

/** A store on real files whose writes can be made to fail from the test. */
function flakyStore(): { store: HistoryStore; failWrites: (on: boolean) => void } {
  let fail = false;
  const store = new HistoryStore(rig.dir, {
    ...nodeHistoryFs,
    writeFileDurable: async (path, data) => {
      if (fail) throw new Error('ENOSPC: no space left on device');
      return nodeHistoryFs.writeFileDurable(path, data);
    },
  });
  return { store, failWrites: (on) => void (fail = on) };
}

function lastState(posted: HostToWebview[]): Extract<HostToWebview, { type: 'state' }>['state'] | undefined {
  for (let i = posted.length - 1; i >= 0; i--) {
    const m = posted[i];
    if (m.type === 'state') return m.state;
  }
  return undefined;
}

describe('chat controller: failed writes keep the old value', () => {
  test('regenerate, temperature, system prompt, model and rename: nothing changes in memory or on disk, and the webview gets the old state', async () => {
    const { store, failWrites } = flakyStore();
    const h = harness({ store, modelId: 'gemma/gemma-3-27b' });
    await h.controller.handle({ type: 'send', text: 'keep my reply' });
    const done = await h.waitFor('streamDone');
    const id = (await h.controller.state()).conversation.id;
    const onDisk = async () => new HistoryStore(rig.dir).load(id);
    const before = await onDisk();
    assert.ok(before);
    failWrites(true);

    // Regenerate: the reply stays (memory, disk, webview) and nothing is sent.
    let n = h.posted.length;
    await h.controller.handle({ type: 'regenerate' });
    assert.equal(h.requests.length, 1, 'no request went out');
    assert.deepEqual(
      (await h.controller.state()).conversation.messages.map((m) => m.id),
      [before.messages[0].id, done.message.id],
    );
    assert.deepEqual(lastState(h.posted.slice(n))?.conversation.messages.map((m) => m.id), [before.messages[0].id, done.message.id]);

    // Temperature, system prompt, model, title: each refused write leaves the old value and re-posts it.
    const cases: Array<{ msg: Parameters<ChatController['handle']>[0]; check: (s: Awaited<ReturnType<ChatController['state']>>) => void }> = [
      { msg: { type: 'setTemperature', value: 0.3 }, check: (s) => assert.equal(s.conversation.temperature, undefined) },
      { msg: { type: 'setSystemPrompt', text: 'Be terse.' }, check: (s) => assert.equal(s.conversation.systemPrompt, '') },
      { msg: { type: 'selectModel', modelId: 'anthropic/claude-haiku-4.5' }, check: (s) => assert.equal(s.selectedModelId, 'gemma/gemma-3-27b') },
      { msg: { type: 'renameConversation', conversationId: id }, check: (s) => assert.equal(s.conversation.title, 'keep my reply') },
    ];
    for (const c of cases) {
      n = h.posted.length;
      const errors = h.host.calls.filter((x) => x.startsWith('error:')).length;
      await h.controller.handle(c.msg);
      c.check(await h.controller.state());
      const posted = lastState(h.posted.slice(n));
      assert.ok(posted, `${c.msg.type}: the state is posted again`);
      c.check(posted);
      assert.equal(h.host.calls.filter((x) => x.startsWith('error:')).length, errors + 1, `${c.msg.type}: the user is told`);
    }
    assert.deepEqual(await onDisk(), before);

    // The next successful save writes the old values, not the refused ones.
    failWrites(false);
    n = h.posted.length;
    await h.controller.handle({ type: 'send', text: 'second' });
    await h.waitFor('streamDone', n);
    const after = await onDisk();
    assert.equal(after?.systemPrompt, '');
    assert.equal(after?.temperature, undefined);
    assert.equal(after?.modelId, 'gemma/gemma-3-27b');
    assert.equal(after?.title, 'keep my reply');
    assert.deepEqual(after?.messages.slice(0, 2).map((m) => m.id), [before.messages[0].id, done.message.id]);
  });

  test('a setting changed while a reply streams is what ends up on disk', async () => {
    const h = harness();
    const sending = h.controller.handle({ type: 'send', text: '[[slow]] change settings meanwhile' });
    await h.waitFor('streamChunk');
    await h.controller.handle({ type: 'setSystemPrompt', text: 'Answer in French.' });
    await h.controller.handle({ type: 'stop' });
    await sending;
    const id = (await h.controller.state()).conversation.id;
    const stored = await new HistoryStore(rig.dir).load(id);
    assert.equal(stored?.systemPrompt, 'Answer in French.');
    assert.equal(stored?.messages.length, 2);
  });
});

describe('chat controller: typed text is never lost', () => {
  test('a context-overflow confirmation that throws gives the text back and reports the error', async () => {
    const h = harness({
      host: {
        confirmContextOverflow: async () => {
          throw new Error('dialog closed by the window');
        },
      },
    });
    const big = 'y'.repeat(4_000_000);
    await h.controller.handle({ type: 'send', text: big });
    assert.deepEqual(
      h.posted.filter((m) => m.type === 'setInput'),
      [{ type: 'setInput', text: big }],
    );
    assert.equal(h.requests.length, 0);
    assert.ok(h.host.calls.some((c) => c.startsWith('error:') && c.includes('dialog closed by the window')));
  });

  test('a failed edit comes back in edit mode, and re-sending it replaces the last message', async () => {
    const { store, failWrites } = flakyStore();
    const h = harness({ store });
    await h.controller.handle({ type: 'send', text: 'original' });
    await h.waitFor('streamDone');
    failWrites(true);
    await h.controller.handle({ type: 'editLast', text: 'edited' });
    assert.deepEqual(
      h.posted.filter((m) => m.type === 'setInput'),
      [{ type: 'setInput', text: 'edited', mode: 'editLast' }],
    );
    assert.equal(h.requests.length, 1);
    failWrites(false);
    const n = h.posted.length;
    await h.controller.handle({ type: 'editLast', text: 'edited' });
    await h.waitFor('streamDone', n);
    assert.deepEqual(
      (await h.controller.state()).conversation.messages.map((m) => [m.role, m.content.slice(0, 6)]),
      [
        ['user', 'edited'],
        ['assistant', 'You sa'],
      ],
    );
  });

  test('an edit refused because the model is unavailable also comes back in edit mode', async () => {
    const h = harness();
    await h.controller.handle({ type: 'send', text: 'hello' });
    await h.waitFor('streamDone');
    const conv = await h.store.load((await h.controller.state()).conversation.id);
    assert.ok(conv);
    await h.store.save({ ...conv, modelId: 'nobody/no-such-model' });
    await h.controller.handle({ type: 'openConversation', conversationId: conv.id });
    await h.controller.handle({ type: 'editLast', text: 'hello again' });
    assert.deepEqual(h.posted.filter((m) => m.type === 'setInput').at(-1), { type: 'setInput', text: 'hello again', mode: 'editLast' });
  });
});

describe('chat controller: focus only when asked', () => {
  test('a webview that loads on its own gets no focusInput; a requested focus waits for ready and is sent once', async () => {
    const h = harness();
    await h.controller.handle({ type: 'ready' });
    assert.equal(h.posted.some((m) => m.type === 'focusInput'), false, 'loading alone never takes the keyboard');

    const h2 = harness();
    h2.controller.focusInput(); // e.g. Open Chat in Editor, before the webview has loaded
    assert.equal(h2.posted.some((m) => m.type === 'focusInput'), false, 'not before the webview can receive it');
    await h2.controller.handle({ type: 'ready' });
    const types = h2.posted.map((m) => m.type);
    assert.deepEqual(types.filter((t) => t === 'focusInput'), ['focusInput']);
    assert.ok(types.indexOf('focusInput') > types.indexOf('state'), 'after the first state, so the input exists');
    // [#40.8] Sent late (the user may be typing elsewhere by now): marked so, the page decides.
    assert.deepEqual(h2.posted.find((m) => m.type === 'focusInput'), { type: 'focusInput', late: true });
    await h2.controller.handle({ type: 'ready' });
    assert.equal(h2.posted.filter((m) => m.type === 'focusInput').length, 1, 'a later reload does not focus again');

    // Loaded (the chat keeps its webview while hidden): sent at once.
    h2.controller.focusInput();
    assert.deepEqual(h2.posted.at(-1), { type: 'focusInput' }, 'asked now: not late');
  });
});

describe('chat controller: spend budget and ledger hooks', () => {
  test('a budget guard that refuses sends nothing, and the typed text comes back to the input', async () => {
    let asked = 0;
    const h = harness({ allowSend: async () => (asked++, false) });
    await h.controller.handle({ type: 'ready' });
    await h.controller.handle({ type: 'send', text: 'over budget' });
    assert.equal(asked, 1);
    assert.equal(h.requests.length, 0, 'no request reached the gateway');
    assert.ok(h.posted.some((m) => m.type === 'setInput' && m.text === 'over budget'), 'the text is given back');
  });

  test('each priced reply is reported once with the model, its usage and the catalog rates', async () => {
    const priced: Array<{ model: string; usage: unknown; pricing?: unknown }> = [];
    const h = harness({ allowSend: async () => true, onPriced: (r) => void priced.push(r) });
    await h.controller.handle({ type: 'ready' });
    await h.controller.handle({ type: 'send', text: 'Hello' });
    await h.waitFor('streamDone');
    assert.equal(priced.length, 1);
    assert.equal(priced[0].model, 'openai/gpt-4o');
    assert.ok(priced[0].usage && typeof (priced[0].usage as { total_tokens?: unknown }).total_tokens === 'number', 'usage from the gateway');
    assert.deepEqual(priced[0].pricing, rig.models.find((m) => m.id === 'openai/gpt-4o')?.pricing);
  });
});
