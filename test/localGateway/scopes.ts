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
import type { GatewayContext, Handler, Req, Res, RouteModule, Scope } from './context';

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

/**
 * Session events and feedback accept session_events or agents at the required level. Checked without
 * writing a response first, so only one envelope is ever sent; a 403 names session_events.
 */
function authorizeSessionEvents(req: Req, res: Res, ctx: GatewayContext, level: 'read' | 'write'): boolean {
  const key = ctx.authenticate(req, res);
  if (key === undefined) return false;
  const rank = { none: 0, read: 1, write: 2 } as const;
  if (rank[key.scopes.session_events] >= rank[level] || rank[key.scopes.agents] >= rank[level]) return true;
  ctx.sendError(res, 403, 'permission_error', `insufficient permission: scope 'session_events' requires ${level}, key has ${key.scopes.session_events}`);
  return false;
}

export const scopeStubModule: RouteModule = {
  name: 'scope-stubs',
  register(route) {
    for (const entry of SCOPE_TABLE) {
      const handler: Handler = (req, res, ctx) => {
        const level = levelFor(req.method, entry.level);
        const ok = entry.scope === 'session_events' ? authorizeSessionEvents(req, res, ctx, level) : ctx.authorize(req, res, entry.scope, level) !== undefined;
        if (!ok) return;
        // Drain the body so keep-alive connections stay usable.
        req.resume();
        ctx.sendError(res, 404, 'not_found_error', `${req.method ?? 'GET'} ${entry.pattern} is not implemented by the local gateway`);
      };
      route(entry.method, entry.pattern, handler);
    }
  },
};
