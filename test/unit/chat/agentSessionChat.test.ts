/**
 * Chat with Agent through the chat controller: a conversation bound to an agent session, with the real
 * gateway client, the real local gateway (its agents routes) and real history files; the webview and
 * the editor are recorders. Replies come from the session's message route, Thumbs Up / Thumbs Down
 * send response feedback, a moderation block shows only the
 * fixed words, and a conversation re-opened from history continues the same session.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LOCAL_KEYS } from '../../localGateway/keys';
import { quietEditorHost, useControllerRig } from './controllerRig';
import { createGatewayClient } from '../../../src/core/gateway/gatewayClient';
import { createAgent, createSession, listSessionEvents, listSessions } from '../../../src/core/knowledge/agentsClient';
import { ChatController } from '../../../src/core/chat/chatController';
import { HistoryStore } from '../../../src/core/chat/historyStore';
import { Emitter } from '../../../src/core/disposables';
import type { ChatStateView, HostToWebview, MessageView } from '../../../src/protocol/chatProtocol';

const rig = useControllerRig('agent-session-chat-');

const clientFor = (key: string) => createGatewayClient({ baseUrl: rig.gw.url, getKey: async () => key, userAgent: 'agent-session-test', retry: { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 1 } });

/** An agent named Helper and a fresh session of it, made with a Full-access key. */
async function helperSession(): Promise<{ agentId: string; sessionId: string }> {
  const full = clientFor(LOCAL_KEYS.userFull);
  const agent = await createAgent(full, { name: 'Helper', instructions: 'Be brief.' });
  const session = await createSession(full, agent.id);
  return { agentId: agent.id, sessionId: session.id };
}

function harness(store = new HistoryStore(rig.dir)) {
  const posted: HostToWebview[] = [];
  const errors: string[] = [];
  let key: string = LOCAL_KEYS.userFull;
  const host = quietEditorHost({ showError: (m: string) => void errors.push(m) });
  const controller = new ChatController({
    // The active key is read per call, as the extension's services do: switching keys takes effect at once.
    getClient: async () => clientFor(key),
    models: {
      chatModels: () => rig.models.filter((m) => m.capabilities?.includes('chat')),
      getModel: (id) => rig.models.find((m) => m.id === id),
      onDidChange: new Emitter<unknown>().event,
    },
    store,
    prefs: { lastModelId: () => 'openai/gpt-4.1', setLastModelId: () => {} },
    host,
    post: (m) => void posted.push(m),
    log: { trace() {}, debug() {}, info() {}, warn() {}, error() {} },
  });
  const lastState = (): ChatStateView => {
    const s = posted.filter((m): m is Extract<HostToWebview, { type: 'state' }> => m.type === 'state').at(-1);
    assert.ok(s, 'a state was posted');
    return s.state;
  };
  const ends = () => posted.filter((m): m is Extract<HostToWebview, { type: 'streamDone' | 'streamError' }> => m.type === 'streamDone' || m.type === 'streamError');
  const ratings = () => posted.filter((m): m is Extract<HostToWebview, { type: 'replyRating' }> => m.type === 'replyRating');
  return { controller, posted, errors, store, lastState, ends, ratings, useKey: (k: string) => void (key = k) };
}

const chatCompletions = () => rig.gw.events.list('request').filter((e) => String(e.path).startsWith('/v1/chat/completions')).length;

describe('Chat with Agent in the chat controller', () => {
  test('the reply comes from the session message route, is named for the agent, rateable, and saved with its session', async () => {
    const { agentId, sessionId } = await helperSession();
    const h = harness();
    assert.equal(await h.controller.openAgentSession({ agentId, agentName: 'Helper', sessionId }), true);
    await h.controller.handle({ type: 'ready' });
    const opened = h.lastState().conversation;
    assert.equal(opened.title, 'Chat with Helper');
    assert.deepEqual(opened.agentSession, { agentName: 'Helper' });
    assert.equal(opened.messages.length, 0, 'ready did not replace the agent conversation with the most recent one');

    await h.controller.handle({ type: 'send', text: 'hello agent' });
    const end = h.ends().at(-1);
    assert.equal(end?.type, 'streamDone');
    assert.equal(end.message.role, 'assistant');
    assert.equal(end.message.content, 'Helper (local) received: hello agent');
    assert.deepEqual(end.message.feedback, {}, 'the reply offers Thumbs Up / Thumbs Down, none pressed');
    assert.deepEqual(
      h.posted.filter((m) => m.type === 'streamChunk').map((m) => (m as { text: string }).text),
      ['Helper (local) received: hello agent'],
      'the reply crosses like a streamed one',
    );
    assert.equal(chatCompletions(), 0, 'no chat completion was requested');
    assert.equal(rig.gw.events.list('session-event').length, 1);

    const saved = await h.store.load(opened.id);
    assert.ok(saved);
    assert.equal(saved.agentSession?.sessionId, sessionId);
    assert.equal(saved.agentSession?.agentId, agentId);
    assert.deepEqual(
      saved.messages.map((m) => [m.role, m.content]),
      [
        ['user', 'hello agent'],
        ['assistant', 'Helper (local) received: hello agent'],
      ],
    );
    const events = await listSessionEvents(clientFor(LOCAL_KEYS.userFull), sessionId);
    assert.equal(saved.messages[1].responseId, events.items[1].responseId, 'the saved reply keeps the response id feedback refers to');
  });

  test('[G-AUTH-7] [#39.13] Thumbs Up with an Account key reaches the gateway; the thumb is pressed and saved with the reply', async () => {
    const { agentId, sessionId } = await helperSession();
    const h = harness();
    await h.controller.openAgentSession({ agentId, agentName: 'Helper', sessionId });
    await h.controller.handle({ type: 'send', text: 'rate me' });
    const reply = h.ends().at(-1)!.message;

    h.useKey(LOCAL_KEYS.accountFull);
    await h.controller.handle({ type: 'rateReply', messageId: reply.id, rating: 'up' });
    assert.deepEqual(h.ratings().at(-1), { type: 'replyRating', messageId: reply.id, rating: 'up' });
    const sent = rig.gw.events.list('agent-feedback');
    assert.equal(sent.length, 1);
    assert.equal(sent[0].rating, 'up');
    assert.equal(sent[0].session, sessionId);
    assert.equal(sent[0].keyName, 'Local account (Full access)');
    const saved = await h.store.load(h.controller.conversationInfo.id);
    assert.equal(saved?.messages[1].feedback, 'up');
    assert.equal(sent[0].response_id, saved?.messages[1].responseId);

    // The state the webview gets from now on shows it pressed; a second Up sends nothing more.
    await h.controller.handle({ type: 'ready' });
    assert.deepEqual(h.lastState().conversation.messages[1].feedback, { rating: 'up' });
    await h.controller.handle({ type: 'rateReply', messageId: reply.id, rating: 'up' });
    assert.equal(rig.gw.events.list('agent-feedback').length, 1);

    // Changing one's mind sends Thumbs Down.
    await h.controller.handle({ type: 'rateReply', messageId: reply.id, rating: 'down' });
    assert.equal(rig.gw.events.list('agent-feedback').at(-1)?.rating, 'down');
    assert.equal((await h.store.load(h.controller.conversationInfo.id))?.messages[1].feedback, 'down');
  });

  test('[G-AUTH-4] a refused feedback leaves the thumb unpressed, says why with the scope, and saves nothing', async () => {
    const { agentId, sessionId } = await helperSession();
    const h = harness();
    await h.controller.openAgentSession({ agentId, agentName: 'Helper', sessionId });
    await h.controller.handle({ type: 'send', text: 'hello' });
    const reply = h.ends().at(-1)!.message;

    h.useKey(LOCAL_KEYS.userChatOnly);
    await h.controller.handle({ type: 'rateReply', messageId: reply.id, rating: 'down' });
    const answer = h.ratings().at(-1);
    assert.equal(answer?.rating, null, 'no thumb pressed');
    assert.match(answer?.error ?? '', /^Feedback not sent: This API key lacks the "session_events" scope/);
    assert.equal(rig.gw.events.list('agent-feedback').length, 0);
    assert.equal((await h.store.load(h.controller.conversationInfo.id))?.messages[1].feedback, undefined);
  });

  test('[G-CHAT-4] a moderation block from the session route shows only "Blocked by content moderation"', async () => {
    const { agentId, sessionId } = await helperSession();
    const h = harness();
    await h.controller.openAgentSession({ agentId, agentName: 'Helper', sessionId });
    await h.controller.handle({ type: 'send', text: 'please [[moderate]] this' });
    const end = h.ends().at(-1);
    assert.equal(end?.type, 'streamError');
    assert.equal(end.message.error?.message, 'Blocked by content moderation');
    assert.equal(end.message.error?.detail, undefined);
    assert.equal(end.message.content, '');
    assert.equal(end.message.feedback, undefined, 'a blocked message has no reply to rate');
    // Nothing of the server's own words reaches the webview.
    assert.doesNotMatch(JSON.stringify(h.posted), /content policy|content_policy_violation/i);
  });

  test('a conversation re-opened from history continues the same agent session', async () => {
    const { agentId, sessionId } = await helperSession();
    const first = harness();
    await first.controller.openAgentSession({ agentId, agentName: 'Helper', sessionId });
    await first.controller.handle({ type: 'send', text: 'first message' });
    const id = first.controller.conversationInfo.id;
    first.controller.dispose();

    const later = harness(new HistoryStore(rig.dir));
    await later.controller.handle({ type: 'ready' });
    assert.equal(await later.controller.openConversation(id), true);
    assert.deepEqual(later.lastState().conversation.agentSession, { agentName: 'Helper' });
    await later.controller.handle({ type: 'send', text: 'second message' });
    assert.equal(later.ends().at(-1)?.message.content, 'Helper (local) received: second message');

    const full = clientFor(LOCAL_KEYS.userFull);
    assert.deepEqual(
      (await listSessionEvents(full, sessionId)).items.map((e) => e.text),
      ['first message', 'Helper (local) received: first message', 'second message', 'Helper (local) received: second message'],
      'both messages went to the one session',
    );
    assert.equal((await listSessions(full, agentId)).items.length, 1, 'no new session was created');
    assert.equal(chatCompletions(), 0);
  });

  test("Chat with Agent on an existing session shows its messages; the earlier reply offers the thumbs; a malformed argument opens nothing", async () => {
    const h = harness();
    assert.equal(await h.controller.openAgentSession({ agentId: 7, agentName: 'x', sessionId: 's' }), false);
    assert.equal(await h.controller.openAgentSession(null), false);
    assert.equal(h.posted.length, 0);

    const { agentId, sessionId } = await helperSession();
    const opened = await h.controller.openAgentSession({
      agentId,
      agentName: 'Helper',
      sessionId,
      events: [
        { role: 'user', text: 'earlier' },
        { role: 'assistant', text: 'earlier reply', responseId: 'resp_old' },
        { role: 'system', text: 'not a chat message' },
      ],
    });
    assert.equal(opened, true);
    const messages: MessageView[] = h.lastState().conversation.messages;
    assert.deepEqual(
      messages.map((m) => [m.role, m.content, m.feedback]),
      [
        ['user', 'earlier', undefined],
        ['assistant', 'earlier reply', {}],
      ],
    );
  });

  test('Thumbs are only on agent-session replies: a plain chat reply offers none and a rating of it sends nothing', async () => {
    const h = harness();
    await h.controller.handle({ type: 'ready' });
    await h.controller.handle({ type: 'send', text: 'plain chat' });
    const end = h.ends().at(-1);
    assert.equal(end?.type, 'streamDone');
    assert.equal(end.message.feedback, undefined);
    assert.equal(h.lastState().conversation.agentSession, undefined);
    await h.controller.handle({ type: 'rateReply', messageId: end.message.id, rating: 'up' });
    assert.deepEqual(h.ratings().at(-1), { type: 'replyRating', messageId: end.message.id, rating: null, error: 'This reply cannot be rated.' });
    assert.equal(rig.gw.events.list('agent-feedback').length, 0);
    assert.equal(rig.gw.events.list('session-event').length, 0);
  });
});
