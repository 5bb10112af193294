/**
 * Agents wire shapes: routes, request bodies and response parsers. The spec gives the route families
 * (/v1/agents, /v1/sessions, session events and response feedback under /v1/sessions/{session_id})
 * and their scopes, but no payloads, per-route methods or sub-routes: EVERYTHING marked ASSUMED here
 * is an assumption kept in this one file. Paging shape and the GET/POST-only rule: ../kb/wireCommon.ts.
 *
 * ASSUMED routes:
 *   GET  /v1/agents                                    list                agents read
 *   POST /v1/agents              {name, instructions?, model?}  create     agents write
 *   GET  /v1/agents/{id}                               get                 agents read
 *   POST /v1/agents/{id}         {name?, instructions?, model?} update     agents write
 *   POST /v1/agents/{id}/archive                       archive             agents write
 *   POST /v1/agents/{id}/delete                        delete              agents write
 *   GET  /v1/sessions?agent_id=                        list                agents read
 *   POST /v1/sessions            {agent_id, title?}    create              agents write
 *   GET  /v1/sessions/{sid}/events                     list events         session_events (or agents) read
 *   POST /v1/sessions/{sid}/events {role:'user', text} send a message      session_events (or agents) write
 *        -> {data: [the user event, the assistant reply event]}
 *   POST /v1/sessions/{sid}/feedback {response_id, rating:'up'|'down'}     session_events (or agents) write
 *
 * ASSUMED objects (unknown fields ignored; a wrong type is a protocol error):
 *   agent    {id, name, instructions?, model?, status: 'active'|'archived', created_at?}
 *   session  {id, agent_id, title?, created_at?}
 *   event    {id, session_id?, type, role?, text?, response_id?, created_at?}
 *   feedback {id?, response_id, rating}
 *
 * ASSUMED (spec: "optional session header", name not shown): the MCP header naming the agent session
 * of a knowledge-base tool call is `X-Agent-Session-Id`.
 */
import { asObject, optStr, protocolError, seg, str, type WireRoute } from './wireCommon';

export const AGENT_ROUTES = {
  agents: (): WireRoute => ({ method: 'GET', path: '/v1/agents' }),
  createAgent: (): WireRoute => ({ method: 'POST', path: '/v1/agents' }),
  agent: (id: string): WireRoute => ({ method: 'GET', path: `/v1/agents/${seg(id)}` }),
  updateAgent: (id: string): WireRoute => ({ method: 'POST', path: `/v1/agents/${seg(id)}` }),
  archiveAgent: (id: string): WireRoute => ({ method: 'POST', path: `/v1/agents/${seg(id)}/archive` }),
  deleteAgent: (id: string): WireRoute => ({ method: 'POST', path: `/v1/agents/${seg(id)}/delete` }),
  sessions: (): WireRoute => ({ method: 'GET', path: '/v1/sessions' }),
  createSession: (): WireRoute => ({ method: 'POST', path: '/v1/sessions' }),
  events: (sessionId: string): WireRoute => ({ method: 'GET', path: `/v1/sessions/${seg(sessionId)}/events` }),
  sendEvent: (sessionId: string): WireRoute => ({ method: 'POST', path: `/v1/sessions/${seg(sessionId)}/events` }),
  feedback: (sessionId: string): WireRoute => ({ method: 'POST', path: `/v1/sessions/${seg(sessionId)}/feedback` }),
} as const;

/** ASSUMED header name (see the header comment). */
export const MCP_SESSION_HEADER = 'X-Agent-Session-Id';

export interface Agent {
  id: string;
  name: string;
  instructions: string | undefined;
  model: string | undefined;
  /** 'active' or 'archived'; any other value the server sends is kept as is. */
  status: string;
  createdAt: string | undefined;
}

export interface AgentInput {
  name: string;
  instructions?: string;
  model?: string;
}

export interface Session {
  id: string;
  agentId: string;
  title: string | undefined;
  createdAt: string | undefined;
}

export interface SessionEvent {
  id: string;
  type: string;
  role: string | undefined;
  text: string | undefined;
  /** Set on assistant replies: the id feedback refers to. */
  responseId: string | undefined;
  createdAt: string | undefined;
}

export type Rating = 'up' | 'down';

export interface Feedback {
  responseId: string;
  rating: Rating;
}

/** Longest event text kept from a server answer. */
const MAX_EVENT_TEXT_CHARS = 1024 * 1024;

export function toAgentBody(input: Partial<AgentInput>): unknown {
  const body: Record<string, string> = {};
  if (input.name !== undefined) body.name = input.name;
  if (input.instructions !== undefined) body.instructions = input.instructions;
  if (input.model !== undefined) body.model = input.model;
  return body;
}
export function toCreateSession(agentId: string, title?: string): unknown {
  return title === undefined ? { agent_id: agentId } : { agent_id: agentId, title };
}
export function toUserMessage(text: string): unknown {
  return { role: 'user', text };
}
export function toFeedback(f: Feedback): unknown {
  return { response_id: f.responseId, rating: f.rating };
}

export function parseAgent(v: unknown, requestId: string | undefined): Agent {
  const what = 'an agent';
  const o = asObject(v, what, requestId);
  return {
    id: str(o, 'id', what, requestId),
    name: str(o, 'name', what, requestId),
    instructions: optStr(o, 'instructions', what, requestId),
    model: optStr(o, 'model', what, requestId),
    status: optStr(o, 'status', what, requestId) ?? 'active',
    createdAt: optStr(o, 'created_at', what, requestId),
  };
}

export function parseSession(v: unknown, requestId: string | undefined): Session {
  const what = 'a session';
  const o = asObject(v, what, requestId);
  return { id: str(o, 'id', what, requestId), agentId: str(o, 'agent_id', what, requestId), title: optStr(o, 'title', what, requestId), createdAt: optStr(o, 'created_at', what, requestId) };
}

export function parseEvent(v: unknown, requestId: string | undefined): SessionEvent {
  const what = 'a session event';
  const o = asObject(v, what, requestId);
  const text = optStr(o, 'text', what, requestId);
  if (text !== undefined && text.length > MAX_EVENT_TEXT_CHARS) throw protocolError(what, requestId);
  return {
    id: str(o, 'id', what, requestId),
    type: str(o, 'type', what, requestId),
    role: optStr(o, 'role', what, requestId),
    text,
    responseId: optStr(o, 'response_id', what, requestId),
    createdAt: optStr(o, 'created_at', what, requestId),
  };
}

export function parseEventList(data: unknown, requestId: string | undefined): SessionEvent[] {
  const o = asObject(data, 'session events', requestId);
  if (!Array.isArray(o.data)) throw protocolError('session events', requestId);
  return o.data.map((e) => parseEvent(e, requestId));
}

export function parseFeedback(v: unknown, requestId: string | undefined): Feedback {
  const what = 'a feedback answer';
  const o = asObject(v, what, requestId);
  const rating = str(o, 'rating', what, requestId);
  if (rating !== 'up' && rating !== 'down') throw protocolError(what, requestId);
  return { responseId: str(o, 'response_id', what, requestId), rating };
}
