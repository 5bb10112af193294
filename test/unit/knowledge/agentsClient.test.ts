/**
 * Agents, sessions, session events and feedback against the local gateway through the shared client:
 * scopes per route (G-AUTH-7, G-AUTH-6) with keys the portal can mint, feedback, the moderation block
 * (G-CHAT-4), paging, and the MCP session header (G-MCP-16).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LOCAL_KEYS } from '../../localGateway/keys';
import { isGatewayError, type GatewayError } from '../../../src/core/http/errors';
import {
  agentsMissingPermission,
  archiveAgent,
  createAgent,
  createSession,
  deleteAgent,
  getAgent,
  isModerationBlock,
  listAgents,
  listSessionEvents,
  listSessions,
  mcpSessionHeaders,
  MODERATION_MESSAGE,
  sendFeedback,
  sendSessionMessage,
  updateAgent,
} from '../../../src/core/knowledge/agentsClient';
import { parseAgent, parseEvent, parseFeedback } from '../../../src/core/knowledge/agentsWire';
import { rejection, useKbGateway } from './helpers';

const { gw, client } = useKbGateway();

async function refused(fn: () => Promise<unknown>): Promise<GatewayError> {
  const e = await rejection(fn);
  assert.ok(isGatewayError(e), String(e));
  assert.equal(e.reason, 'permission');
  return e;
}

async function agentWithReply(name: string): Promise<{ agentId: string; sessionId: string; responseId: string }> {
  const full = client(LOCAL_KEYS.userFull);
  const agent = await createAgent(full, { name, instructions: 'Be brief.' });
  const session = await createSession(full, agent.id, 'First');
  const events = await sendSessionMessage(full, session.id, 'Hello agent');
  const reply = events.find((e) => e.role === 'assistant');
  assert.ok(reply?.responseId, 'the reply carries a response id');
  return { agentId: agent.id, sessionId: session.id, responseId: reply.responseId };
}

describe('agents scopes', () => {
  test('[G-AUTH-7] agents: read to list and get, write to create, update, archive and delete', async () => {
    const full = client(LOCAL_KEYS.userFull);
    const readOnly = client(LOCAL_KEYS.userReadOnly);
    const a = await createAgent(full, { name: 'Scoped' });
    assert.ok((await listAgents(readOnly)).items.some((x) => x.id === a.id));
    assert.equal((await getAgent(readOnly, a.id)).name, 'Scoped');
    for (const write of [() => createAgent(readOnly, { name: 'x' }), () => updateAgent(readOnly, a.id, { name: 'y' }), () => archiveAgent(readOnly, a.id), () => deleteAgent(readOnly, a.id)]) {
      const e = await refused(write);
      assert.deepEqual([e.permission?.scope, e.permission?.required, e.permission?.granted], ['agents', 'write', 'read']);
    }
    const e = await refused(() => listAgents(client(LOCAL_KEYS.userChatOnly)));
    assert.deepEqual(agentsMissingPermission('listAgents', e), { scope: 'agents', level: 'read' });
    assert.equal((await getAgent(full, a.id)).status, 'active', 'refused writes changed nothing');
  });

  test('[G-AUTH-7] sessions need agents: read to list, write to create', async () => {
    const { agentId } = await agentWithReply('Sessions scope');
    const readOnly = client(LOCAL_KEYS.userReadOnly);
    assert.equal((await listSessions(readOnly, agentId)).items.length, 1);
    const e = await refused(() => createSession(readOnly, agentId));
    assert.deepEqual([e.permission?.scope, e.permission?.required], ['agents', 'write']);
    const e2 = await refused(() => listSessions(client(LOCAL_KEYS.userChatOnly), agentId));
    assert.deepEqual([e2.permission?.scope, e2.permission?.required, e2.permission?.granted], ['agents', 'read', 'none']);
  });

  test('[G-AUTH-7] [#39.13] feedback is sent with an Account key (Full access) and recorded under that key', async () => {
    // Which scope lets feedback through (session_events, or agents in its place) no key the portal mints
    // can tell apart: that rule is proven on the gateway's scope decision (test/unit/gateway/scopeDecision.test.ts).
    const { sessionId, responseId } = await agentWithReply('Feedback');
    const account = client(LOCAL_KEYS.accountFull);
    gw().events.clear();
    assert.deepEqual(await sendFeedback(account, sessionId, responseId, 'up'), { responseId, rating: 'up' });
    assert.deepEqual(await sendFeedback(account, sessionId, responseId, 'down'), { responseId, rating: 'down' });
    const sent = gw().events.list('agent-feedback');
    assert.deepEqual(sent.map((e) => [e.response_id, e.rating, e.keyName]), [
      [responseId, 'up', 'Local account (Full access)'],
      [responseId, 'down', 'Local account (Full access)'],
    ]);
  });

  test('[G-AUTH-7] feedback refused for scope names session_events with the required and granted level', async () => {
    const { sessionId, responseId } = await agentWithReply('Agents key');
    const e = await refused(() => sendFeedback(client(LOCAL_KEYS.userChatOnly), sessionId, responseId, 'up'));
    assert.deepEqual([e.permission?.scope, e.permission?.required], ['session_events', 'write']);
    assert.deepEqual(agentsMissingPermission('sendFeedback', e), { scope: 'session_events', level: 'write' });
    const e2 = await refused(() => sendFeedback(client(LOCAL_KEYS.userReadOnly), sessionId, responseId, 'down'));
    assert.deepEqual([e2.permission?.scope, e2.permission?.required, e2.permission?.granted], ['session_events', 'write', 'read']);
  });

  test('[G-AUTH-6] [#39.13] write implies read: a Full access key (write everywhere) lists session events and agents; Read only lists them too', async () => {
    const { agentId, sessionId } = await agentWithReply('Implies');
    for (const key of [LOCAL_KEYS.accountFull, LOCAL_KEYS.userReadOnly]) {
      const events = await listSessionEvents(client(key), sessionId);
      assert.deepEqual(events.items.map((e) => e.role), ['user', 'assistant']);
      assert.ok((await listAgents(client(key))).items.some((a) => a.id === agentId));
    }
  });
});

describe('agents operations', () => {
  test('[G-CHAT-4] a moderation block on a session event reads exactly "Blocked by content moderation" and stores nothing', async () => {
    const { sessionId } = await agentWithReply('Moderated');
    const full = client(LOCAL_KEYS.userFull);
    const e = await rejection(() => sendSessionMessage(full, sessionId, 'please [[moderate]] this'));
    assert.ok(isGatewayError(e));
    assert.equal(e.message, 'Blocked by content moderation');
    assert.equal(e.reason, 'content_policy');
    assert.equal(e.status, 403);
    assert.ok(isModerationBlock(e));
    assert.equal(MODERATION_MESSAGE, 'Blocked by content moderation');
    assert.equal((await listSessionEvents(full, sessionId)).items.length, 2);
  });

  test('update, archive (no new sessions) and delete an agent', async () => {
    const full = client(LOCAL_KEYS.userFull);
    const a = await createAgent(full, { name: 'Lifecycle', model: 'openai/gpt-5.1' });
    const u = await updateAgent(full, a.id, { instructions: 'Cite sources.' });
    assert.deepEqual([u.name, u.instructions, u.model], ['Lifecycle', 'Cite sources.', 'openai/gpt-5.1']);
    assert.equal((await archiveAgent(full, a.id)).status, 'archived');
    const e = await rejection(() => createSession(full, a.id));
    assert.ok(isGatewayError(e) && e.reason === 'invalid_request');
    await deleteAgent(full, a.id);
    const gone = await rejection(() => getAgent(full, a.id));
    assert.ok(isGatewayError(gone) && gone.reason === 'not_found');
  });

  test('sessions of an agent and its events page through all results', async () => {
    const full = client(LOCAL_KEYS.userFull);
    const a = await createAgent(full, { name: 'Many' });
    for (let i = 0; i < 130; i++) await createSession(full, a.id, `s${i}`);
    const s = await createSession(full, a.id, 'chatty');
    for (let i = 0; i < 60; i++) await sendSessionMessage(full, s.id, `message ${i}`);
    gw().events.clear();
    const sessions = await listSessions(full, a.id);
    assert.equal(sessions.items.length, 131);
    assert.equal(new Set(sessions.items.map((x) => x.id)).size, 131);
    const events = await listSessionEvents(full, s.id);
    assert.equal(events.items.length, 120);
    assert.equal(events.items[118]?.text, 'message 59');
    const gets = gw().events.list('request').filter((e) => e.method === 'GET');
    assert.equal(gets.length, 2 + 2, 'two pages of sessions and two of events');
  });

  test('a feedback rating for an unknown reply is refused and wrong shapes are protocol errors', async () => {
    const { sessionId } = await agentWithReply('Unknown reply');
    const e = await rejection(() => sendFeedback(client(LOCAL_KEYS.userFull), sessionId, 'resp_nope', 'up'));
    assert.ok(isGatewayError(e) && e.reason === 'not_found');
    assert.throws(() => parseFeedback({ response_id: 'r', rating: 'sideways' }, 'x'), (err: unknown) => isGatewayError(err) && err.reason === 'protocol');
    assert.throws(() => parseAgent({ id: 'a', name: 3 }, 'x'), (err: unknown) => isGatewayError(err) && err.reason === 'protocol');
    assert.deepEqual(parseEvent({ id: 'e', type: 'message', role: 'assistant', text: 'hi', response_id: 'r', unknown: [1] }, 'x'), {
      id: 'e',
      type: 'message',
      role: 'assistant',
      text: 'hi',
      responseId: 'r',
      createdAt: undefined,
    });
  });
});

describe('MCP session header', () => {
  test('the header builder names the session only for a plain token', () => {
    assert.deepEqual(mcpSessionHeaders('sess_local_1'), { 'X-Agent-Session-Id': 'sess_local_1' });
    assert.deepEqual(mcpSessionHeaders(undefined), {});
    for (const bad of ['', 'a\r\nX-Evil: 1', 'x'.repeat(129), 'has space']) assert.deepEqual(mcpSessionHeaders(bad), {}, JSON.stringify(bad));
  });

  test('[G-MCP-16] a tools/list carrying the session header gets the same response and is grouped by the gateway', async () => {
    const call = (headers: Record<string, string>) =>
      fetch(`${gw().url}/v1/mcp`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${LOCAL_KEYS.userFull}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
    gw().events.clear();
    const plain = await call({});
    const grouped = await call(mcpSessionHeaders('sess_local_1'));
    assert.equal(plain.status, 200);
    assert.equal(grouped.status, 200);
    assert.deepEqual(await grouped.json(), await plain.json());
    assert.deepEqual(gw().events.list('mcp-session').map((e) => [e.session, e.grouped]), [['sess_local_1', true]]);
  });
});
