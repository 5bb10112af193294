/**
 * Agents, sessions, session events and response feedback of the local gateway, in memory per gateway
 * instance. Shapes (not shown in the spec; written here independently of the client):
 *   GET  /v1/agents?limit&cursor                          -> page of agents
 *   POST /v1/agents {name, instructions?, model?}         -> 201 agent
 *   GET  /v1/agents/{id}                                  -> agent
 *   POST /v1/agents/{id} {name?, instructions?, model?}   -> agent (updated)
 *   POST /v1/agents/{id}/archive                          -> agent with status 'archived'
 *   POST /v1/agents/{id}/delete                           -> {id, deleted:true} (its sessions go too)
 *   GET  /v1/sessions?agent_id&limit&cursor               -> page of sessions
 *   POST /v1/sessions {agent_id, title?}                  -> 201 session (400 for an archived agent)
 *   GET  /v1/sessions/{sid}/events?limit&cursor           -> page of events
 *   POST /v1/sessions/{sid}/events {role:'user', text}    -> 201 {data:[user event, assistant event]}
 *   POST /v1/sessions/{sid}/feedback {response_id, rating:'up'|'down'} -> {id, response_id, rating}
 * agent = {id, name, instructions, model, status, created_at}; session = {id, agent_id, title,
 * created_at}; event = {id, session_id, type:'message', role, text, response_id? (assistant), created_at}.
 *
 * Scopes: agents and sessions by SCOPE_TABLE; events and feedback accept session_events OR agents at
 * the level the method needs, and a refusal names session_events (as the scope-table stubs do).
 * Moderation (G-CHAT-4): with options.moderation, `[[moderate]]` in a message's text answers 403
 * content_policy_violation with a message that names no filter or category; nothing is stored.
 * Events: `session-event` {session, role}, `agent-feedback` {session, response_id, rating, keyName}.
 */
import type { GatewayContext, Req, Res, RouteModule } from './context';
import { GatewayHttpError } from './context';
import { guard, invalid, notFound, page, queryOf, record } from './kb';
import { levelFor } from './scopes';

interface AgentRec {
  id: string;
  name: string;
  instructions: string;
  model: string | null;
  status: 'active' | 'archived';
  created_at: string;
}
interface SessionRec {
  id: string;
  agent_id: string;
  title: string | null;
  created_at: string;
  events: EventRec[];
  feedback: Map<string, 'up' | 'down'>;
}
interface EventRec {
  id: string;
  session_id: string;
  type: 'message';
  role: 'user' | 'assistant';
  text: string;
  response_id?: string;
  created_at: string;
}

const MAX_MESSAGE_CHARS = 100_000;

/** session_events or agents at `level` (scopes.ts decides); the 403 names session_events. */
function authorizeSessionRoute(req: Req, res: Res, ctx: GatewayContext): { keyName: string } | undefined {
  const key = ctx.authorize(req, res, 'session_events', levelFor(req.method, 'by-method'));
  return key === undefined ? undefined : { keyName: key.name };
}

function optionalText(b: Record<string, unknown>, field: string, max: number): string | undefined {
  const v = b[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string' || v.length > max) throw invalid(`'${field}' must be a string of at most ${max} characters`);
  return v;
}

export const agentsModule: RouteModule = {
  name: 'agents',
  register(route, ctx) {
    const agents = new Map<string, AgentRec>();
    const sessions = new Map<string, SessionRec>();
    let nextId = 1;
    const now = (): string => ctx.options.now().toISOString();
    const agentOf = (id: string): AgentRec => {
      const a = agents.get(id);
      if (a === undefined) throw notFound('agent');
      return a;
    };
    const sessionOf = (id: string): SessionRec => {
      const s = sessions.get(id);
      if (s === undefined) throw notFound('session');
      return s;
    };
    const sessionView = (s: SessionRec) => ({ id: s.id, agent_id: s.agent_id, title: s.title, created_at: s.created_at });

    const A = '/v1/agents';
    const A1 = '/v1/agents/{id}';
    const AARC = '/v1/agents/{id}/archive';
    const ADEL = '/v1/agents/{id}/delete';
    const S = '/v1/sessions';

    route('GET', A, (req, res) => {
      if (!guard(req, res, ctx, A)) return;
      ctx.sendJson(res, 200, page(req, [...agents.values()]));
    });
    route('POST', A, async (req, res) => {
      if (!guard(req, res, ctx, A)) return;
      const b = record(await ctx.readJson(req));
      const name = optionalText(b, 'name', 200);
      if (name === undefined || name.trim() === '') throw invalid("'name' is required");
      const a: AgentRec = { id: `agt_${nextId++}`, name: name.trim(), instructions: optionalText(b, 'instructions', 20_000) ?? '', model: optionalText(b, 'model', 200) ?? null, status: 'active', created_at: now() };
      agents.set(a.id, a);
      ctx.sendJson(res, 201, a);
    });
    route('GET', A1, (req, res, _c, p) => {
      if (!guard(req, res, ctx, A1)) return;
      ctx.sendJson(res, 200, agentOf(p.id));
    });
    route('POST', A1, async (req, res, _c, p) => {
      if (!guard(req, res, ctx, A1)) return;
      const b = record(await ctx.readJson(req));
      const a = agentOf(p.id);
      const name = optionalText(b, 'name', 200);
      if (name !== undefined && name.trim() === '') throw invalid("'name' must not be empty");
      const instructions = optionalText(b, 'instructions', 20_000);
      const model = optionalText(b, 'model', 200);
      if (name !== undefined) a.name = name.trim();
      if (instructions !== undefined) a.instructions = instructions;
      if (model !== undefined) a.model = model;
      ctx.sendJson(res, 200, a);
    });
    route('POST', AARC, (req, res, _c, p) => {
      if (!guard(req, res, ctx, AARC)) return;
      req.resume();
      const a = agentOf(p.id);
      a.status = 'archived';
      ctx.sendJson(res, 200, a);
    });
    route('POST', ADEL, (req, res, _c, p) => {
      if (!guard(req, res, ctx, ADEL)) return;
      req.resume();
      agentOf(p.id);
      agents.delete(p.id);
      for (const [id, s] of sessions) if (s.agent_id === p.id) sessions.delete(id);
      ctx.sendJson(res, 200, { id: p.id, deleted: true });
    });

    route('GET', S, (req, res) => {
      if (!guard(req, res, ctx, S)) return;
      const agentId = queryOf(req).get('agent_id');
      const list = [...sessions.values()].filter((s) => agentId === null || s.agent_id === agentId).map(sessionView);
      ctx.sendJson(res, 200, page(req, list));
    });
    route('POST', S, async (req, res) => {
      if (!guard(req, res, ctx, S)) return;
      const b = record(await ctx.readJson(req));
      const agentId = optionalText(b, 'agent_id', 200);
      if (agentId === undefined) throw invalid("'agent_id' is required");
      const a = agentOf(agentId);
      if (a.status === 'archived') throw invalid(`agent '${a.id}' is archived`);
      const s: SessionRec = { id: `sess_${nextId++}`, agent_id: a.id, title: optionalText(b, 'title', 200) ?? null, created_at: now(), events: [], feedback: new Map() };
      sessions.set(s.id, s);
      ctx.sendJson(res, 201, sessionView(s));
    });

    route('GET', '/v1/sessions/{session_id}/events', (req, res, _c, p) => {
      if (authorizeSessionRoute(req, res, ctx) === undefined) return;
      ctx.sendJson(res, 200, page(req, sessionOf(p.session_id).events));
    });
    route('POST', '/v1/sessions/{session_id}/events', async (req, res, _c, p) => {
      if (authorizeSessionRoute(req, res, ctx) === undefined) return;
      const b = record(await ctx.readJson(req));
      const s = sessionOf(p.session_id);
      if (b.role !== 'user') throw invalid("'role' must be 'user'");
      const text = b.text;
      if (typeof text !== 'string' || text.trim() === '' || text.length > MAX_MESSAGE_CHARS) throw invalid(`'text' must be a non-empty string of at most ${MAX_MESSAGE_CHARS} characters`);
      if (ctx.options.moderation && text.includes('[[moderate]]')) {
        throw new GatewayHttpError(403, 'content_policy_violation', 'the request was blocked by the content policy');
      }
      const agent = agents.get(s.agent_id);
      if (agent === undefined || agent.status === 'archived') throw invalid('the agent of this session is archived or deleted');
      const at = now();
      const user: EventRec = { id: `evt_${nextId++}`, session_id: s.id, type: 'message', role: 'user', text, created_at: at };
      const flat = text.replace(/\s+/g, ' ').trim();
      const reply: EventRec = {
        id: `evt_${nextId++}`,
        session_id: s.id,
        type: 'message',
        role: 'assistant',
        text: `${agent.name} (local) received: ${Array.from(flat).slice(0, 80).join('')}`,
        response_id: `resp_${nextId++}`,
        created_at: at,
      };
      s.events.push(user, reply);
      ctx.events.push({ type: 'session-event', session: s.id, role: 'user' });
      ctx.sendJson(res, 201, { data: [user, reply] });
    });
    route('POST', '/v1/sessions/{session_id}/feedback', async (req, res, _c, p) => {
      const who = authorizeSessionRoute(req, res, ctx);
      if (who === undefined) return;
      const b = record(await ctx.readJson(req));
      const s = sessionOf(p.session_id);
      const responseId = b.response_id;
      if (typeof responseId !== 'string') throw invalid("'response_id' is required");
      if (b.rating !== 'up' && b.rating !== 'down') throw invalid("'rating' must be 'up' or 'down'");
      if (!s.events.some((e) => e.response_id === responseId)) throw notFound('response');
      s.feedback.set(responseId, b.rating);
      ctx.events.push({ type: 'agent-feedback', session: s.id, response_id: responseId, rating: b.rating, keyName: who.keyName });
      ctx.sendJson(res, 200, { id: `fb_${responseId}`, response_id: responseId, rating: b.rating });
    });
  },
};
