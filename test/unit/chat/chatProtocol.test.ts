import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isHostToWebview, isWebviewToHost, type ChatStateView, type HostToWebview, type WebviewToHost } from '../../../src/protocol/chatProtocol';

const validFromWebview: WebviewToHost[] = [
  { type: 'ready' },
  { type: 'send', text: 'hi' },
  { type: 'stop' },
  { type: 'regenerate' },
  { type: 'editLast', text: 'again' },
  { type: 'selectModel', modelId: 'openai/gpt-x' },
  { type: 'setTemperature', value: 0.7 },
  { type: 'setTemperature', value: null },
  { type: 'setSystemPrompt', text: '' },
  { type: 'newConversation' },
  { type: 'openConversation', conversationId: 'abc' },
  { type: 'attach', kind: 'workspace' },
  { type: 'removeAttachment', attachmentId: 'a1' },
  { type: 'insertCode', code: 'x', language: 'ts' },
  { type: 'newFile', code: 'x' },
  { type: 'applyCode', code: 'x', language: 'md:posts/hello.md' },
  { type: 'openLink', href: 'https://example.com' },
  { type: 'errorAction', action: 'setApiKey', messageId: 'm1' },
];

test('every documented webview message passes the guard', () => {
  for (const m of validFromWebview) assert.ok(isWebviewToHost(m), JSON.stringify(m));
});

test('malformed webview messages are rejected', () => {
  const bad: unknown[] = [
    null,
    undefined,
    'send',
    [],
    {},
    { type: 'send' },
    { type: 'send', text: 42 },
    { type: 'selectModel', modelId: '' },
    { type: 'setTemperature', value: Number.NaN },
    { type: 'setTemperature', value: '0.5' },
    { type: 'attach', kind: 'everything' },
    { type: 'insertCode', code: 'x', language: 7 },
    { type: 'errorAction', action: 'deleteEverything', messageId: 'm' },
    { type: 'evalThis', code: 'alert(1)' },
  ];
  for (const m of bad) assert.equal(isWebviewToHost(m), false, JSON.stringify(m));
});

const state: ChatStateView = {
  models: [],
  selectedModelId: undefined,
  conversation: { id: 'c', title: 't', modelId: 'm', systemPrompt: '', messages: [{ id: 'm1', role: 'user', content: 'x', status: 'complete' }] },
  attachments: [],
  busy: false,
};

test('host messages: stream start, chunk, done, error and state pass the guard', () => {
  const msg = { id: 'r', role: 'assistant', content: '', status: 'streaming' } as const;
  const valid: HostToWebview[] = [
    { type: 'state', state },
    { type: 'streamStart', requestId: 'q', message: msg },
    { type: 'streamChunk', requestId: 'q', text: 'hel' },
    { type: 'streamDone', requestId: 'q', message: { ...msg, status: 'complete' }, totalCost: { nanocredits: '15', display: '0.000000015 credits' } },
    { type: 'streamError', requestId: 'q', message: { ...msg, status: 'error', error: { message: 'x', actions: ['retry'] } } },
    { type: 'retryCountdown', requestId: 'q', attempt: 1, seconds: 3 },
    { type: 'setInput', text: 'kept' },
    { type: 'setInput', text: 'kept', mode: 'send' },
    { type: 'setInput', text: 'edited', mode: 'editLast' },
    { type: 'focusInput' },
    { type: 'conversations', conversations: [{ id: 'a', title: 'A', updatedAt: 2 }] },
    { type: 'conversations', conversations: [] },
    { type: 'conversationsChanged', upserted: [{ id: 'a', title: 'A', updatedAt: 3 }], removed: ['b'] },
  ];
  for (const m of valid) assert.ok(isHostToWebview(m), JSON.stringify(m));
});

test('malformed host messages are rejected', () => {
  const bad: unknown[] = [
    { type: 'streamChunk', requestId: 'q' },
    { type: 'streamChunk', text: 'x' },
    { type: 'streamDone', requestId: 'q', message: { id: 'r', role: 'robot', content: '', status: 'complete' } },
    { type: 'streamDone', requestId: 'q', message: { id: 'r', role: 'assistant', content: '', status: 'complete' }, totalCost: { nanocredits: '1.5', display: '' } },
    { type: 'state', state: { ...state, busy: 'no' } },
    { type: 'retryCountdown', requestId: 'q', attempt: 1, seconds: Infinity },
    { type: 'setInput', text: 'x', mode: 'replaceEverything' },
    { type: 'setInput', mode: 'editLast' },
    { type: 'conversations' },
    { type: 'conversations', conversations: [{ id: 'a', title: 'A' }] },
    { type: 'conversationsChanged', upserted: [], removed: [7] },
    { type: 'conversationsChanged', upserted: [{ id: 'a', title: 3, updatedAt: 1 }], removed: [] },
    { type: 'conversationsChanged', removed: [] },
    { type: 'unknown' },
  ];
  for (const m of bad) assert.equal(isHostToWebview(m), false, JSON.stringify(m));
});

test('agent-session feedback: rateReply from the webview passes only with a message id and up or down', () => {
  assert.ok(isWebviewToHost({ type: 'rateReply', messageId: 'm1', rating: 'up' }));
  assert.ok(isWebviewToHost({ type: 'rateReply', messageId: 'm1', rating: 'down' }));
  const bad: unknown[] = [
    { type: 'rateReply', messageId: 'm1' },
    { type: 'rateReply', messageId: 'm1', rating: 'sideways' },
    { type: 'rateReply', messageId: 'm1', rating: null },
    { type: 'rateReply', rating: 'up' },
    { type: 'rateReply', messageId: 7, rating: 'up' },
  ];
  for (const m of bad) assert.equal(isWebviewToHost(m), false, JSON.stringify(m));
});

test('agent-session feedback: replyRating, rateable replies and the agent header pass the guard; malformed ones do not', () => {
  const reply = { id: 'r', role: 'assistant', content: 'hi', status: 'complete' } as const;
  const valid: HostToWebview[] = [
    { type: 'replyRating', messageId: 'r', rating: 'up' },
    { type: 'replyRating', messageId: 'r', rating: null, error: 'Feedback not sent: no permission.' },
    { type: 'streamDone', requestId: 'q', message: { ...reply, feedback: {} } },
    { type: 'streamDone', requestId: 'q', message: { ...reply, feedback: { rating: 'down' } } },
    { type: 'state', state: { ...state, conversation: { ...state.conversation, agentSession: { agentName: 'Helper' }, messages: [{ ...reply, feedback: { rating: 'up' } }] } } },
  ];
  for (const m of valid) assert.ok(isHostToWebview(m), JSON.stringify(m));
  const bad: unknown[] = [
    { type: 'replyRating', messageId: 'r' },
    { type: 'replyRating', messageId: 'r', rating: 'meh' },
    { type: 'replyRating', messageId: 'r', rating: 'up', error: 42 },
    { type: 'replyRating', rating: 'up' },
    { type: 'streamDone', requestId: 'q', message: { ...reply, feedback: 'up' } },
    { type: 'streamDone', requestId: 'q', message: { ...reply, feedback: { rating: 'sideways' } } },
    { type: 'state', state: { ...state, conversation: { ...state.conversation, agentSession: { agentName: 3 } } } },
    { type: 'state', state: { ...state, conversation: { ...state.conversation, agentSession: 'Helper' } } },
  ];
  for (const m of bad) assert.equal(isHostToWebview(m), false, JSON.stringify(m));
});

test('a long conversation in parts: loadEarlier, earlierMessages and a state with `earlier` pass; malformed ones do not', () => {
  assert.ok(isWebviewToHost({ type: 'loadEarlier', conversationId: 'c', end: 140 }));
  for (const bad of [
    { type: 'loadEarlier', conversationId: 'c' },
    { type: 'loadEarlier', conversationId: 'c', end: -1 },
    { type: 'loadEarlier', conversationId: 'c', end: 1.5 },
    { type: 'loadEarlier', conversationId: 'c', end: '140' },
    { type: 'loadEarlier', end: 140 },
  ]) assert.equal(isWebviewToHost(bad), false, JSON.stringify(bad));
  const msg = { id: 'm0', role: 'user', content: 'hi', status: 'complete' } as const;
  assert.ok(isHostToWebview({ type: 'earlierMessages', conversationId: 'c', start: 40, messages: [msg] }));
  assert.ok(isHostToWebview({ type: 'state', state: { ...state, conversation: { ...state.conversation, earlier: 440 } } }));
  for (const bad of [
    { type: 'earlierMessages', conversationId: 'c', start: -2, messages: [msg] },
    { type: 'earlierMessages', conversationId: 'c', start: 0, messages: [{ ...msg, role: 'system' }] },
    { type: 'earlierMessages', conversationId: 'c', messages: [msg] },
    { type: 'earlierMessages', start: 0, messages: [] },
    { type: 'state', state: { ...state, conversation: { ...state.conversation, earlier: -1 } } },
    { type: 'state', state: { ...state, conversation: { ...state.conversation, earlier: 'many' } } },
  ]) assert.equal(isHostToWebview(bad), false, JSON.stringify(bad));
});
