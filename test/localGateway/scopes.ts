/**
 * Fallback routes for every path of the spec's "Endpoints known by scope" table (G-AUTH-7). They
 * authenticate and check the scope exactly like the real gateway; once authorised they answer 404
 * `not implemented by the local gateway`, because payloads are not shown in the spec. Route modules
 * that implement a path (content, MCP, ...) are registered first and win.
 *
 * Assumption (spec: "exact per-route methods and paths ... not shown"): GET reads, every other method
 * writes; item routes are `{collection}/{id}`; session events and feedback are any path below
 * /v1/sessions/{session_id}/ (events, feedback, ...).
 */
import type { Handler, Level, RouteModule, Scope } from './context';

export const SCOPE_TABLE: ReadonlyArray<{ method: string; pattern: string; scope: Scope; level: 'read' | 'write' | 'by-method' }> = [
  { method: 'POST', pattern: '/v1/chat/completions', scope: 'chat', level: 'write' },
  { method: 'POST', pattern: '/v1/messages', scope: 'chat', level: 'write' },
  { method: 'POST', pattern: '/v1/messages/count_tokens', scope: 'chat', level: 'write' },
  { method: 'POST', pattern: '/v1/content/summarize', scope: 'chat', level: 'write' },
  { method: 'POST', pattern: '/v1/content/suggest-taxonomy', scope: 'chat', level: 'write' },
  { method: 'POST', pattern: '/v1/images/generations', scope: 'image', level: 'write' },
  { method: 'POST', pattern: '/v1/images/alt-text', scope: 'image', level: 'write' },
  { method: 'POST', pattern: '/v1/audio/speech', scope: 'speech', level: 'write' },
  { method: 'POST', pattern: '/v1/audio/transcriptions', scope: 'transcribe', level: 'write' },
  { method: 'POST', pattern: '/v1/kb/collections/{id}/search', scope: 'search', level: 'read' },
  { method: '*', pattern: '/v1/kb/collections/{id}/documents', scope: 'documents', level: 'by-method' },
  { method: '*', pattern: '/v1/kb/collections/{id}/documents/{document_id}', scope: 'documents', level: 'by-method' },
  { method: '*', pattern: '/v1/kb/collections/{id}/documents/{document_id}/delete', scope: 'documents', level: 'by-method' },
  { method: '*', pattern: '/v1/kb/collections', scope: 'collections', level: 'by-method' },
  { method: '*', pattern: '/v1/kb/collections/{id}', scope: 'collections', level: 'by-method' },
  { method: '*', pattern: '/v1/kb/collections/{id}/delete', scope: 'collections', level: 'by-method' },
  { method: '*', pattern: '/v1/sites/{site_identifier}', scope: 'collections', level: 'by-method' },
  { method: '*', pattern: '/v1/agents', scope: 'agents', level: 'by-method' },
  { method: '*', pattern: '/v1/agents/{id}', scope: 'agents', level: 'by-method' },
  { method: '*', pattern: '/v1/agents/{id}/archive', scope: 'agents', level: 'by-method' },
  { method: '*', pattern: '/v1/agents/{id}/delete', scope: 'agents', level: 'by-method' },
  { method: '*', pattern: '/v1/sessions', scope: 'agents', level: 'by-method' },
  { method: '*', pattern: '/v1/sessions/{session_id}', scope: 'agents', level: 'by-method' },
  // session_events is accepted in place of agents on these routes only.
  { method: '*', pattern: '/v1/sessions/{session_id}/*', scope: 'session_events', level: 'by-method' },
  { method: 'POST', pattern: '/v1/mcp', scope: 'mcp', level: 'write' },
];

export function levelFor(method: string | undefined, level: 'read' | 'write' | 'by-method'): 'read' | 'write' {
  if (level !== 'by-method') return level;
  const m = (method ?? 'GET').toUpperCase();
  return m === 'GET' || m === 'HEAD' ? 'read' : 'write';
}

const RANK: Readonly<Record<Level, number>> = { none: 0, read: 1, write: 2 };

export type ScopeDecision = { allowed: true } | { allowed: false; status: 403; type: 'permission_error'; message: string };

/**
 * The gateway's scope decision, with no request around it (unit tests call it directly with grants no
 * key can have, to reach rules no allowed key reaches). Write implies read (G-AUTH-6). On session
 * events and feedback (`scope` session_events) the agents scope is accepted in place of session_events
 * (G-AUTH-7); the refusal names the scope the route asks for, the required and the granted level (G-AUTH-4).
 */
export function decideScope(scopes: Readonly<Record<Scope, Level>>, scope: Scope, level: 'read' | 'write'): ScopeDecision {
  const granted = scopes[scope] ?? 'none';
  if (RANK[granted] >= RANK[level]) return { allowed: true };
  if (scope === 'session_events' && RANK[scopes.agents ?? 'none'] >= RANK[level]) return { allowed: true };
  return { allowed: false, status: 403, type: 'permission_error', message: `insufficient permission: scope '${scope}' requires ${level}, key has ${granted}` };
}

export const scopeStubModule: RouteModule = {
  name: 'scope-stubs',
  register(route) {
    for (const entry of SCOPE_TABLE) {
      const handler: Handler = (req, res, ctx) => {
        const level = levelFor(req.method, entry.level);
        if (ctx.authorize(req, res, entry.scope, level) === undefined) return;
        // Drain the body so keep-alive connections stay usable.
        req.resume();
        ctx.sendError(res, 404, 'not_found_error', `${req.method ?? 'GET'} ${entry.pattern} is not implemented by the local gateway`);
      };
      route(entry.method, entry.pattern, handler);
    }
  },
};
