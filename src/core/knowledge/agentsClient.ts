/**
 * Agents, sessions, session events and response feedback on the shared gateway client. Wire shapes
 * and routes: agentsWire.ts.
 *
 * Contract: every failure is a GatewayError. A moderation block on session events (403
 * content_policy_violation) is re-thrown with exactly MODERATION_MESSAGE and nothing from the server
 * (G-CHAT-4: the message never identifies the filter or category). A 403 permission refusal keeps the
 * scope and level (see agentsMissingPermission). Every call takes an AbortSignal; nothing is kept
 * locally, so a failed write changes nothing on this side.
 */
import type { CallOptions, IGatewayClient } from '../gateway/api';
import { GatewayError, isGatewayError } from '../http/errors';
import { hasControlChar, listAll, missingPermission, send, type ListResult } from './wireCommon';
import {
  AGENT_ROUTES,
  MCP_SESSION_HEADER,
  parseAgent,
  parseEventList,
  parseFeedback,
  parseEvent,
  parseSession,
  toAgentBody,
  toCreateSession,
  toFeedback,
  toUserMessage,
  type Agent,
  type AgentInput,
  type Feedback,
  type Rating,
  type Session,
  type SessionEvent,
} from './agentsWire';

export type { Agent, AgentInput, Feedback, Rating, Session, SessionEvent, ListResult };

export const MODERATION_MESSAGE = 'Blocked by content moderation';

/** Scope and level per operation by the spec's table; session routes also accept agents. */
export const AGENT_SCOPES = {
  listAgents: ['agents', 'read'],
  getAgent: ['agents', 'read'],
  createAgent: ['agents', 'write'],
  updateAgent: ['agents', 'write'],
  archiveAgent: ['agents', 'write'],
  deleteAgent: ['agents', 'write'],
  listSessions: ['agents', 'read'],
  createSession: ['agents', 'write'],
  listEvents: ['session_events', 'read'],
  sendMessage: ['session_events', 'write'],
  sendFeedback: ['session_events', 'write'],
} as const satisfies Record<string, readonly [string, 'read' | 'write']>;

export type AgentOperation = keyof typeof AGENT_SCOPES;

export function agentsMissingPermission(op: AgentOperation, e: unknown): { scope: string; level: string } | undefined {
  const [scope, level] = AGENT_SCOPES[op];
  return missingPermission(e, scope, level);
}

/** The moderation block as the user sees it: the fixed words, no server text. */
function moderated(e: unknown): never {
  if (isGatewayError(e) && e.reason === 'content_policy') {
    throw new GatewayError({ reason: 'content_policy', message: MODERATION_MESSAGE, status: e.status, type: e.type, requestId: e.requestId });
  }
  throw e;
}

/** True for the moderation block of a session event (the view shows its message as is). */
export function isModerationBlock(e: unknown): boolean {
  return isGatewayError(e) && e.reason === 'content_policy';
}

const MAX_NAME_CHARS = 200;
const MAX_MESSAGE_CHARS = 100_000;

function checkAgentInput(input: Partial<AgentInput>, requireName: boolean): void {
  if (input.name !== undefined || requireName) {
    const name = (input.name ?? '').trim();
    if (name === '' || name.length > MAX_NAME_CHARS || hasControlChar(name)) {
      throw new GatewayError({ reason: 'invalid_request', message: `An agent name must be 1 to ${MAX_NAME_CHARS} characters without control characters.` });
    }
  }
}

export function listAgents(client: IGatewayClient, options?: CallOptions): Promise<ListResult<Agent>> {
  return listAll(client, AGENT_ROUTES.agents().path, 'agent', parseAgent, options);
}

export async function getAgent(client: IGatewayClient, id: string, options?: CallOptions): Promise<Agent> {
  const res = await send(client, AGENT_ROUTES.agent(id), undefined, options);
  return parseAgent(res.data, res.requestId);
}

export async function createAgent(client: IGatewayClient, input: AgentInput, options?: CallOptions): Promise<Agent> {
  checkAgentInput(input, true);
  const res = await send(client, AGENT_ROUTES.createAgent(), toAgentBody({ ...input, name: input.name.trim() }), options);
  return parseAgent(res.data, res.requestId);
}

export async function updateAgent(client: IGatewayClient, id: string, changes: Partial<AgentInput>, options?: CallOptions): Promise<Agent> {
  checkAgentInput(changes, false);
  const res = await send(client, AGENT_ROUTES.updateAgent(id), toAgentBody({ ...changes, name: changes.name?.trim() }), options);
  return parseAgent(res.data, res.requestId);
}

export async function archiveAgent(client: IGatewayClient, id: string, options?: CallOptions): Promise<Agent> {
  const res = await send(client, AGENT_ROUTES.archiveAgent(id), {}, options);
  return parseAgent(res.data, res.requestId);
}

export async function deleteAgent(client: IGatewayClient, id: string, options?: CallOptions): Promise<void> {
  await send(client, AGENT_ROUTES.deleteAgent(id), {}, options);
}

/** All sessions, or those of one agent. */
export function listSessions(client: IGatewayClient, agentId: string | undefined, options?: CallOptions): Promise<ListResult<Session>> {
  return listAll(client, AGENT_ROUTES.sessions().path, 'session', parseSession, { ...options, query: { agent_id: agentId } });
}

export async function createSession(client: IGatewayClient, agentId: string, title?: string, options?: CallOptions): Promise<Session> {
  const res = await send(client, AGENT_ROUTES.createSession(), toCreateSession(agentId, title), options);
  return parseSession(res.data, res.requestId);
}

export function listSessionEvents(client: IGatewayClient, sessionId: string, options?: CallOptions): Promise<ListResult<SessionEvent>> {
  return listAll(client, AGENT_ROUTES.events(sessionId).path, 'session event', parseEvent, options).catch(moderated);
}

/**
 * Sends a user message to the session; resolves with the events the gateway appended (the message and
 * the agent's reply). A billed call: the shared client's retry policy decides, never this code.
 */
export async function sendSessionMessage(client: IGatewayClient, sessionId: string, text: string, options?: CallOptions): Promise<SessionEvent[]> {
  if (text.trim() === '' || text.length > MAX_MESSAGE_CHARS) {
    throw new GatewayError({ reason: 'invalid_request', message: `A message needs 1 to ${MAX_MESSAGE_CHARS} characters.` });
  }
  try {
    const res = await send(client, AGENT_ROUTES.sendEvent(sessionId), toUserMessage(text), options);
    return parseEventList(res.data, res.requestId);
  } catch (e) {
    return moderated(e);
  }
}

/** Thumbs up or down on one assistant reply (session_events is enough; agents also works). */
export async function sendFeedback(client: IGatewayClient, sessionId: string, responseId: string, rating: Rating, options?: CallOptions): Promise<Feedback> {
  if (rating !== 'up' && rating !== 'down') throw new GatewayError({ reason: 'invalid_request', message: 'A rating is up or down.' });
  if (responseId === '') throw new GatewayError({ reason: 'invalid_request', message: 'The reply has no response id.' });
  try {
    const res = await send(client, AGENT_ROUTES.feedback(sessionId), toFeedback({ responseId, rating }), options);
    return parseFeedback(res.data, res.requestId);
  } catch (e) {
    return moderated(e);
  }
}

/**
 * Headers for an MCP knowledge-base tool call made for an agent session: the optional session header
 * when a session is given and its id is a plain token (so no header injection), else none. The
 * gateway only groups activity with it (G-MCP-16: it never changes the response).
 */
export function mcpSessionHeaders(sessionId: string | undefined): Record<string, string> {
  if (sessionId === undefined || !/^[A-Za-z0-9._:-]{1,128}$/.test(sessionId)) return {};
  return { [MCP_SESSION_HEADER]: sessionId };
}
