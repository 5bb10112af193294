/**
 * The chat protocol is declared once (src/protocol/chatProtocol.ts WEBVIEW_TO_HOST, HOST_TO_WEBVIEW,
 * CHAT_REQUESTS); the guards both ways and the request/response primitive are derived from it (#40.10).
 * The malformed shapes below are generated from the declaration (every field missing, every field of
 * the wrong type), but what the guard must answer is written here by hand.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  answerChat,
  chatRequestClient,
  HOST_TO_WEBVIEW,
  isHostToWebview,
  isWebviewToHost,
  WEBVIEW_TO_HOST,
  type ChatStateView,
  type HostToWebview,
  type MessageView,
  type WebviewToHost,
} from '../../../src/protocol/chatProtocol';
import { MAX_ITEMS, MAX_QUERY } from '../../../src/protocol/chatCompose';
import { SessionChat } from '../../../src/core/chat/sessionChat';
import { ConversationPart } from '../../../src/core/chat/conversationPart';
import type { ChatView } from '../../../src/core/chat/chatView';
import type { AgentRun } from '../../../src/core/chat/agentRun';
import { checkDeclaration } from './declarationChecks';

const reply: MessageView = { id: 'r1', role: 'assistant', content: 'hi', status: 'complete' };
const state: ChatStateView = {
  models: [],
  selectedModelId: undefined,
  conversation: { id: 'c', title: 't', modelId: 'm', systemPrompt: '', messages: [reply] },
  attachments: [],
  busy: false,
};

/** One well-formed example of every webview message, every field present (optional ones too). */
const WEBVIEW_EXAMPLES: { [K in WebviewToHost['type']]: Extract<WebviewToHost, { type: K }> } = {
  ready: { type: 'ready' },
  send: { type: 'send', text: 'hi' },
  stop: { type: 'stop' },
  regenerate: { type: 'regenerate' },
  editLast: { type: 'editLast', text: 'again' },
  selectModel: { type: 'selectModel', modelId: 'openai/gpt-x' },
  setTemperature: { type: 'setTemperature', value: 0.5 },
  setSystemPrompt: { type: 'setSystemPrompt', text: 'be brief' },
  newConversation: { type: 'newConversation' },
  openConversation: { type: 'openConversation', conversationId: 'c' },
  renameConversation: { type: 'renameConversation', conversationId: 'c' },
  deleteConversation: { type: 'deleteConversation', conversationId: 'c' },
  exportConversation: { type: 'exportConversation', conversationId: 'c' },
  attach: { type: 'attach', kind: 'file' },
  draft: { type: 'draft', text: 'how much?', rid: 3 },
  setAgent: { type: 'setAgent', on: true },
  agentTools: { type: 'agentTools' },
  toolApproval: { type: 'toolApproval', callId: 'call1', approve: false },
  attachMenu: { type: 'attachMenu' },
  pickModel: { type: 'pickModel' },
  setApiKey: { type: 'setApiKey' },
  removeAttachment: { type: 'removeAttachment', attachmentId: 'a1' },
  copy: { type: 'copy', text: 'x' },
  insertCode: { type: 'insertCode', code: 'x', language: 'ts' },
  newFile: { type: 'newFile', code: 'x', language: 'ts' },
  applyCode: { type: 'applyCode', code: 'x', language: 'ts' },
  openLink: { type: 'openLink', href: 'https://example.com' },
  errorAction: { type: 'errorAction', action: 'retry', messageId: 'r1' },
  rateReply: { type: 'rateReply', messageId: 'r1', rating: 'up', rid: 4 },
  loadEarlier: { type: 'loadEarlier', conversationId: 'c', end: 40, rid: 5 },
  contextQuery: { type: 'contextQuery', query: 'main', seq: 6 },
  addContext: { type: 'addContext', itemId: '6-0' },
  slashCommand: { type: 'slashCommand', command: 'new' },
  showVersion: { type: 'showVersion', messageId: 'r1', index: 2 },
  implicitContext: { type: 'implicitContext', include: false },
  continueReply: { type: 'continueReply', messageId: 'r1' },
};

const HOST_EXAMPLES: { [K in HostToWebview['type']]: Extract<HostToWebview, { type: K }> } = {
  state: { type: 'state', state },
  conversations: { type: 'conversations', conversations: [{ id: 'c', title: 't', updatedAt: 1 }] },
  conversationsChanged: { type: 'conversationsChanged', upserted: [{ id: 'c', title: 't', updatedAt: 2 }], removed: ['d'] },
  streamStart: { type: 'streamStart', requestId: 'q', message: reply },
  streamChunk: { type: 'streamChunk', requestId: 'q', text: 'he' },
  streamDone: { type: 'streamDone', requestId: 'q', message: reply, totalCost: { nanocredits: '15', display: '0.000000015 credits' } },
  streamError: { type: 'streamError', requestId: 'q', message: reply },
  retryCountdown: { type: 'retryCountdown', requestId: 'q', attempt: 1, seconds: 2 },
  toolCall: { type: 'toolCall', requestId: 'q', call: { id: 'call1', name: 'search', args: '{}', status: 'running', round: 1 } },
  setInput: { type: 'setInput', text: 'kept', mode: 'editLast' },
  focusInput: { type: 'focusInput' },
  promptCost: { type: 'promptCost', text: '0.1 credits', estimate: true, rid: 3 },
  replyRating: { type: 'replyRating', messageId: 'r1', rating: null, error: 'Feedback not sent.', rid: 4 },
  earlierMessages: { type: 'earlierMessages', conversationId: 'c', start: 0, messages: [reply], rid: 5 },
  contextItems: { type: 'contextItems', seq: 6, items: [{ id: '6-0', kind: 'file', label: 'main.ts', detail: 'src' }] },
  notice: { type: 'notice', text: 'Saved.' },
};

/** The fields of each message that may be left out (everything else is required), written by hand. */
const OPTIONAL: Record<string, string[]> = {
  draft: ['rid'],
  insertCode: ['language'],
  newFile: ['language'],
  applyCode: ['language'],
  rateReply: ['rid'],
  loadEarlier: ['rid'],
  streamDone: ['totalCost'],
  setInput: ['mode'],
  promptCost: ['rid'],
  replyRating: ['error', 'rid'],
  earlierMessages: ['rid'],
};

checkDeclaration({ name: 'webview → host', table: WEBVIEW_TO_HOST, examples: WEBVIEW_EXAMPLES, guard: isWebviewToHost, optional: OPTIONAL });
checkDeclaration({ name: 'host → webview', table: HOST_TO_WEBVIEW, examples: HOST_EXAMPLES, guard: isHostToWebview, optional: OPTIONAL });

test('[#40.10] webview → host: the bounds of today are kept (oversize and empty strings, out-of-range numbers)', () => {
  const bad: unknown[] = [
    { type: 'contextQuery', query: 'q'.repeat(MAX_QUERY + 1), seq: 1 },
    { type: 'contextQuery', query: 'q', seq: -1 },
    { type: 'contextQuery', query: 'q', seq: 1.5 },
    { type: 'addContext', itemId: '' },
    { type: 'addContext', itemId: 'i'.repeat(65) },
    { type: 'continueReply', messageId: '' },
    { type: 'continueReply', messageId: 'm'.repeat(65) },
    { type: 'showVersion', messageId: 'r1', index: 0 },
    { type: 'showVersion', messageId: 'r1', index: 101 },
    { type: 'selectModel', modelId: '' },
    { type: 'setTemperature', value: Number.POSITIVE_INFINITY },
    { type: 'slashCommand', command: 'rm -rf' },
    { type: 'loadEarlier', conversationId: 'c', end: 40, rid: -2 },
    { type: 'rateReply', messageId: 'r1', rating: 'up', rid: '4' },
  ];
  for (const m of bad) assert.equal(isWebviewToHost(m), false, JSON.stringify(m).slice(0, 80));
  const good: unknown[] = [
    { type: 'contextQuery', query: 'q'.repeat(MAX_QUERY), seq: 0 },
    { type: 'addContext', itemId: 'i'.repeat(64) },
    { type: 'showVersion', messageId: 'r1', index: 100 },
    { type: 'setTemperature', value: null },
  ];
  for (const m of good) assert.equal(isWebviewToHost(m), true, JSON.stringify(m).slice(0, 80));
});

test('[#40.10] host → webview: at most MAX_ITEMS context items; a rating is up, down or null', () => {
  const item = { id: 'i', kind: 'file', label: 'a' };
  assert.equal(isHostToWebview({ type: 'contextItems', seq: 1, items: Array.from({ length: MAX_ITEMS }, () => item) }), true);
  assert.equal(isHostToWebview({ type: 'contextItems', seq: 1, items: Array.from({ length: MAX_ITEMS + 1 }, () => item) }), false);
  assert.equal(isHostToWebview({ type: 'replyRating', messageId: 'r1', rating: 'sideways' }), false);
  assert.equal(isHostToWebview({ type: 'promptCost', text: '', estimate: false, rid: 1.5 }), false);
});

// ---------- request / response ----------

function client() {
  const sent: WebviewToHost[] = [];
  return { sent, requests: chatRequestClient((m) => sent.push(m)) };
}

test('[#40.10] a request goes out with a fresh id in its declared field; its answer is taken once, then dropped', () => {
  const { sent, requests } = client();
  requests.send('loadEarlier', { conversationId: 'c', end: 40 });
  requests.send('contextQuery', { query: 'ma' });
  assert.deepEqual(sent, [
    { type: 'loadEarlier', conversationId: 'c', end: 40, rid: 1 },
    { type: 'contextQuery', query: 'ma', seq: 2 },
  ]);
  const earlier: HostToWebview = { type: 'earlierMessages', conversationId: 'c', start: 0, messages: [], rid: 1 };
  assert.equal(requests.accept(earlier), true);
  assert.equal(requests.accept(earlier), false, 'a second answer to the same request is stale');
  assert.equal(requests.accept({ type: 'contextItems', seq: 2, items: [] }), true);
  assert.equal(requests.waiting, 0);
});

test('[#40.10] an answer with an unknown id, or an id of another kind of request, is dropped', () => {
  const { requests } = client();
  requests.send('rateReply', { messageId: 'r1', rating: 'up' }); // rid 1
  assert.equal(requests.accept({ type: 'replyRating', messageId: 'r1', rating: 'up', rid: 99 }), false, 'never asked');
  assert.equal(requests.accept({ type: 'earlierMessages', conversationId: 'c', start: 0, messages: [], rid: 1 }), false, 'id 1 waits for a rating');
  assert.equal(requests.accept({ type: 'contextItems', seq: 1, items: [] }), false);
  assert.equal(requests.accept({ type: 'replyRating', messageId: 'r1', rating: 'up', rid: 1 }), true);
});

test('[#40.10] a newer `#` query or draft makes the older one stale; ratings of two replies both wait', () => {
  const { requests } = client();
  const q1 = requests.send('contextQuery', { query: 'm' });
  const q2 = requests.send('contextQuery', { query: 'ma' });
  const d1 = requests.send('draft', { text: 'a' });
  const d2 = requests.send('draft', { text: 'ab' });
  const r1 = requests.send('rateReply', { messageId: 'r1', rating: 'up' });
  const r2 = requests.send('rateReply', { messageId: 'r2', rating: 'down' });
  assert.equal(requests.accept({ type: 'contextItems', seq: q1, items: [] }), false);
  assert.equal(requests.accept({ type: 'promptCost', text: '1 credit', estimate: false, rid: d1 }), false);
  assert.equal(requests.accept({ type: 'contextItems', seq: q2, items: [] }), true);
  assert.equal(requests.accept({ type: 'promptCost', text: '2 credits', estimate: false, rid: d2 }), true);
  assert.equal(requests.accept({ type: 'replyRating', messageId: 'r2', rating: 'down', rid: r2 }), true);
  assert.equal(requests.accept({ type: 'replyRating', messageId: 'r1', rating: 'up', rid: r1 }), true);
});

test('[#40.10] a cancelled request\'s answer is dropped; a push (an answer type without id) and other messages pass', () => {
  const { requests } = client();
  const id = requests.send('loadEarlier', { conversationId: 'c', end: 10 });
  requests.cancel('loadEarlier');
  assert.equal(requests.accept({ type: 'earlierMessages', conversationId: 'c', start: 0, messages: [], rid: id }), false);
  assert.equal(requests.accept({ type: 'promptCost', text: '', estimate: false }), true, 'the cost cleared after Send is a push');
  assert.equal(requests.accept({ type: 'notice', text: 'x' }), true);
});

test('[#40.10] the pending map is bounded: beyond 64 waiting requests the oldest is forgotten', () => {
  const { requests } = client();
  const first = requests.send('rateReply', { messageId: 'm0', rating: 'up' });
  for (let i = 1; i <= 64; i++) requests.send('rateReply', { messageId: `m${i}`, rating: 'up' });
  assert.equal(requests.waiting, 64);
  assert.equal(requests.accept({ type: 'replyRating', messageId: 'm0', rating: 'up', rid: first }), false);
  assert.equal(requests.accept({ type: 'replyRating', messageId: 'm1', rating: 'up', rid: first + 1 }), true);
});

test('[#40.10] the host answers with the request\'s id copied (none when the request had none)', () => {
  assert.deepEqual(answerChat({ type: 'loadEarlier', conversationId: 'c', end: 4, rid: 9 }, { type: 'earlierMessages', conversationId: 'c', start: 0, messages: [] }), {
    type: 'earlierMessages',
    conversationId: 'c',
    start: 0,
    messages: [],
    rid: 9,
  });
  assert.deepEqual(answerChat({ type: 'draft', text: '' }, { type: 'promptCost', text: '', estimate: false }), { type: 'promptCost', text: '', estimate: false });
  // A mismatched pair does not compile; at run time it throws rather than answer the wrong question.
  assert.throws(() => answerChat({ type: 'draft', text: '' } as never, { type: 'notice', text: 'x' } as never));
});

test('[#40.10] the chat parts answer their requests with the id: a rating that cannot be sent, earlier messages', async () => {
  const posted: HostToWebview[] = [];
  const messages = [
    { id: 'u1', role: 'user', content: 'a', createdAt: 1 },
    { id: 'r1', role: 'assistant', content: 'b', createdAt: 2 },
  ];
  const view = { conv: { id: 'c', messages }, deps: { post: (m: HostToWebview) => posted.push(m) }, messageView: (m: { id: string }) => ({ id: m.id }) } as unknown as ChatView;
  await new SessionChat(view).handlers.rateReply({ type: 'rateReply', messageId: 'r1', rating: 'up', rid: 12 });
  await new ConversationPart(view, {} as AgentRun).handlers.loadEarlier({ type: 'loadEarlier', conversationId: 'c', end: 2, rid: 13 });
  await new ConversationPart(view, {} as AgentRun).handlers.loadEarlier({ type: 'loadEarlier', conversationId: 'other', end: 2, rid: 14 });
  assert.deepEqual(posted, [
    { type: 'replyRating', messageId: 'r1', rating: null, error: 'This reply cannot be rated.', rid: 12 },
    { type: 'earlierMessages', conversationId: 'c', start: 0, messages: [{ id: 'u1' }, { id: 'r1' }], rid: 13 },
  ]);
});
