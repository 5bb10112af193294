/**
 * [#39.7] A reply that ends otherwise than `stop` says so: the one interpretation (finishReason.ts),
 * then the chat against the local gateway's `[[finish:NAME]]` mode on both conversation routes, with
 * Continue under a cut-off reply.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { continuePrompt, FinishWatch, readReplyEnd, replyEnd, replyEndText, stopReasonAsFinish } from '../../../src/core/gateway/finishReason';
import { ChatController } from '../../../src/core/chat/chatController';
import { newConversation, toMarkdown } from '../../../src/core/chat/conversation';
import { HistoryStore } from '../../../src/core/chat/historyStore';
import { Emitter } from '../../../src/core/disposables';
import { createGatewayClient } from '../../../src/core/gateway/gatewayClient';
import type { ChatCompletionRequest } from '../../../src/core/gateway/types';
import { LOCAL_KEYS } from '../../localGateway/keys';
import { isWebviewToHost, type HostToWebview, type MessageView } from '../../../src/protocol/chatProtocol';
import { quietEditorHost, useControllerRig } from './controllerRig';

test('[#39.7] finish reasons: stop is normal; length, content_filter, refusal, unknown values and tool_calls without tools are flagged', () => {
  assert.equal(replyEnd('stop', { toolsOffered: false }), undefined);
  assert.equal(replyEnd(null, { toolsOffered: false }), undefined);
  assert.deepEqual(replyEnd('length', { toolsOffered: false }), { kind: 'length', reason: 'length', continuable: true });
  assert.deepEqual(replyEnd('content_filter', { toolsOffered: false }), { kind: 'content_filter', reason: 'content_filter', continuable: false });
  assert.deepEqual(replyEnd('refusal', { toolsOffered: true }), { kind: 'refusal', reason: 'refusal', continuable: false });
  assert.equal(replyEnd('tool_calls', { toolsOffered: true }), undefined, 'with tools offered, tool_calls is a normal end');
  assert.deepEqual(replyEnd('tool_calls', { toolsOffered: false }), { kind: 'tool_calls', reason: 'tool_calls', continuable: false });
  assert.deepEqual(replyEnd('brand_new_reason', { toolsOffered: false }), { kind: 'unknown', reason: 'brand_new_reason', continuable: true });
  assert.deepEqual(replyEnd(42, { toolsOffered: false }), { kind: 'unknown', reason: '?', continuable: true });
  assert.equal(replyEndText({ kind: 'length', reason: 'length', continuable: true }), 'Cut off: the model reached its output limit.');
  assert.match(replyEndText(replyEnd('brand_new_reason', { toolsOffered: false })!), /\(brand_new_reason\)/);
});

test('[#39.7] an unknown reason is shown bounded and as a plain identifier (server text)', () => {
  const end = replyEnd(`<img src=x onerror=alert(1)>${'a'.repeat(5000)}`, { toolsOffered: false })!;
  assert.equal(end.kind, 'unknown');
  assert.ok(end.reason.length <= 40);
  assert.match(end.reason, /^[A-Za-z0-9_.-]+$/);
  assert.equal(readReplyEnd({ kind: 'length', reason: 'length', continuable: true })?.kind, 'length');
  assert.equal(readReplyEnd({ kind: 'nope', reason: 'x', continuable: true }), undefined, 'a stored end of another shape is ignored');
  assert.equal(readReplyEnd('length'), undefined);
});

test('[#39.7] the Markdown export says a reply was cut off; a stored end of another shape says nothing', () => {
  const conv = { ...newConversation('c', 'openai/gpt-4o', 1), messages: [
    { id: 'u', role: 'user' as const, content: 'q', status: 'complete' as const, createdAt: 1 },
    { id: 'a', role: 'assistant' as const, content: 'half a sent', status: 'complete' as const, createdAt: 2, finish: { kind: 'length' as const, reason: 'length', continuable: true } },
    { id: 'b', role: 'assistant' as const, content: 'other', status: 'complete' as const, createdAt: 3, finish: 'garbage' as never },
  ] };
  const md = toMarkdown(conv);
  assert.ok(md.includes('*(Cut off: the model reached its output limit.)*'));
  assert.ok(!md.includes('undefined'));
});

test('[#39.7] the messages route: end_turn and stop_sequence are normal, max_tokens is length, refusal and unknown values stay flagged', () => {
  assert.equal(stopReasonAsFinish('end_turn'), 'stop');
  assert.equal(stopReasonAsFinish('stop_sequence'), 'stop');
  assert.equal(stopReasonAsFinish('tool_use'), 'tool_calls');
  assert.equal(stopReasonAsFinish('max_tokens'), 'length');
  assert.equal(stopReasonAsFinish('model_context_window_exceeded'), 'length');
  assert.equal(replyEnd(stopReasonAsFinish('refusal'), { toolsOffered: false })?.kind, 'refusal');
  assert.equal(replyEnd(stopReasonAsFinish('pause_turn'), { toolsOffered: false })?.kind, 'unknown');
  assert.equal(stopReasonAsFinish(null), null);
});

test('[#39.7] FinishWatch keeps the last finish reason a stream sent', () => {
  const w = new FinishWatch();
  w.see({ choices: [{ delta: { content: 'a' }, finish_reason: null }] });
  w.see({ choices: [{ delta: {}, finish_reason: 'length' }] });
  w.see({ choices: [], usage: {} });
  assert.equal(w.end({ toolsOffered: false })?.kind, 'length');
  assert.equal(new FinishWatch().end({ toolsOffered: false }), undefined);
});

const rig = useControllerRig('chat-finish-');

function harness(modelId = 'openai/gpt-4o') {
  const posted: HostToWebview[] = [];
  const requests: ChatCompletionRequest[] = [];
  const client = createGatewayClient({ baseUrl: rig.gw.url, getKey: async () => LOCAL_KEYS.userFull, userAgent: 'test' });
  const store = new HistoryStore(rig.dir);
  const controller = new ChatController({
    getClient: async () => ({
      ...client,
      streamChatCompletion: (r, o) => {
        requests.push(r);
        return client.streamChatCompletion(r, o);
      },
    }),
    models: {
      chatModels: () => rig.models.filter((m) => m.capabilities?.includes('chat') || m.capabilities?.includes('messages')),
      getModel: (id) => rig.models.find((m) => m.id === id),
      onDidChange: new Emitter<unknown>().event,
    },
    store,
    prefs: { lastModelId: () => modelId, setLastModelId: () => undefined },
    host: quietEditorHost({
      implicitContext: () => ({ key: 'file:///a.ts', label: 'a.ts', size: 12 }),
      implicitAttachment: async () => ({ id: 'imp', kind: 'file', label: 'a.ts', content: 'const a = 1;' }),
    }),
    post: (m) => void posted.push(m),
    log: { trace() {}, debug() {}, info() {}, warn() {}, error() {} },
  });
  const done = (): MessageView => {
    const d = posted.filter((m) => m.type === 'streamDone').at(-1);
    assert.ok(d?.type === 'streamDone', 'a reply finished');
    return d.message;
  };
  return { controller, posted, requests, store, done };
}

test('[#39.7] chat: a reply cut off by the output limit is shown cut off, with Continue, saved so, and Continue sends a continuation', async () => {
  const h = harness();
  try {
    await h.controller.handle({ type: 'ready' });
    await h.controller.handle({ type: 'send', text: '[[finish:length]] Tell me everything' });
    const cut = h.done();
    assert.equal(cut.status, 'complete');
    assert.deepEqual(cut.cutOff, { text: 'Cut off: the model reached its output limit.', continuable: true });
    const saved = await h.store.load(h.controller.conversationInfo.id);
    assert.equal(saved?.messages[1].finish?.kind, 'length', 'the cut is kept in history');
    assert.ok(isWebviewToHost({ type: 'continueReply', messageId: cut.id }));
    await h.controller.handle({ type: 'continueReply', messageId: cut.id });
    const next = h.done();
    assert.notEqual(next.id, cut.id);
    assert.equal(next.cutOff, undefined, 'the continuation ended normally');
    const sent = h.requests.at(-1)!;
    const last = sent.messages.at(-1)!;
    assert.equal(last.role, 'user');
    assert.equal(last.content, continuePrompt(), 'the continuation carries no attachment, not even the open file');
    assert.ok(sent.messages.some((m) => m.role === 'assistant' && m.content === cut.content), 'the model sees where it stopped');
  } finally {
    h.controller.dispose();
  }
});

test('[#39.7] chat: a messages-only model whose reply hits max_tokens is shown cut off too', async () => {
  const h = harness('anthropic/claude-sonnet-4');
  try {
    await h.controller.handle({ type: 'ready' });
    await h.controller.handle({ type: 'send', text: '[[finish:length]] Tell me everything' });
    assert.equal(h.done().cutOff?.text, 'Cut off: the model reached its output limit.');
  } finally {
    h.controller.dispose();
  }
});

test('[#39.7] chat: an unknown finish reason and tool_calls without tools are flagged; a normal reply is not; Continue on a normal reply sends nothing', async () => {
  const h = harness();
  try {
    await h.controller.handle({ type: 'ready' });
    await h.controller.handle({ type: 'send', text: '[[finish:something_new]] hi' });
    assert.deepEqual(h.done().cutOff, { text: 'The reply ended for a reason this extension does not know (something_new): it may be incomplete.', continuable: true });
    await h.controller.handle({ type: 'send', text: '[[finish:tool_calls]] hi' });
    assert.equal(h.done().cutOff?.continuable, false);
    assert.match(h.done().cutOff?.text ?? '', /no tools were offered/);
    await h.controller.handle({ type: 'send', text: '[[finish:content_filter]] hi' });
    assert.deepEqual(h.done().cutOff, { text: 'Cut off by the content filter.', continuable: false });
    await h.controller.handle({ type: 'send', text: 'a normal question' });
    const normal = h.done();
    assert.equal(normal.cutOff, undefined);
    const before = h.requests.length;
    await h.controller.handle({ type: 'continueReply', messageId: normal.id });
    assert.equal(h.requests.length, before, 'nothing was sent');
    assert.ok(h.posted.some((m) => m.type === 'notice'));
  } finally {
    h.controller.dispose();
  }
});
