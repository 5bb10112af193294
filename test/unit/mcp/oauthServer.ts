// A local MCP server that requires OAuth, with its own authorization server on the same port
// (protected-resource metadata, RFC 8414 metadata, dynamic registration, an authorization endpoint
// that redirects at once with a code, a token endpoint checking PKCE S256, refresh). Written from the
// MCP 2025-11-25 authorization spec and RFC 6750/7636/9728; imports nothing from src/.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';

export interface OAuthServerOptions {
  /** Scope tools/call needs (403 insufficient_scope without it). */
  callScope?: string;
  /** Never grant callScope, whatever is asked (a step-up that cannot succeed). */
  neverGrantCallScope?: boolean;
  /** tools/call answers with an event stream cut after a priming event (the answer never comes on it). */
  cutCallStream?: boolean;
  /** tools/call answers 500 (after running the tool). */
  callFails500?: boolean;
  /** Appended to every access and refresh token (a journey searches files for its tokens: `at-1` alone could match other text). */
  tokenTag?: string;
  /** The loopback address to listen on (default 127.0.0.1; '::1' for an address code-server does not rewrite to its /proxy/<port>). */
  host?: '127.0.0.1' | '::1';
}

export interface OAuthTestServer {
  url: string;
  mcpUrl: string;
  counts: { authorize: number; codeGrants: number; refreshGrants: number; registrations: number; toolRuns: number; callPosts: number; resumeGets: number };
  /** Access tokens the resource server accepts now (revoke one to simulate expiry). */
  valid: Map<string, string[]>;
  lastChallengeMethod?: string;
  pkceOk: boolean[];
  close(): Promise<void>;
}

function body(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let s = '';
    req.on('data', (c: Buffer) => (s += c.toString('utf8')));
    req.on('end', () => resolve(s));
  });
}

function json(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(value));
}

export async function startOAuthServer(opts: OAuthServerOptions = {}): Promise<OAuthTestServer> {
  const counts = { authorize: 0, codeGrants: 0, refreshGrants: 0, registrations: 0, toolRuns: 0, callPosts: 0, resumeGets: 0 };
  const valid = new Map<string, string[]>();
  const codes = new Map<string, { challenge: string; scope: string[] }>();
  const refresh = new Map<string, string[]>();
  const pkceOk: boolean[] = [];
  let n = 0;
  let base = '';
  const state: OAuthTestServer = { url: '', mcpUrl: '', counts, valid, pkceOk, close: async () => undefined };
  const prm = () => `${base}/.well-known/oauth-protected-resource/mcp`;

  const server = createServer((req, res) => {
    void (async () => {
      const u = new URL(req.url ?? '/', base);
      if (req.method === 'GET' && u.pathname === '/.well-known/oauth-protected-resource/mcp') {
        return json(res, 200, { resource: `${base}/mcp`, authorization_servers: [base], ...(opts.callScope ? { scopes_supported: ['read'] } : {}) });
      }
      if (req.method === 'GET' && u.pathname === '/.well-known/oauth-authorization-server') {
        return json(res, 200, {
          issuer: base,
          authorization_endpoint: `${base}/authorize`,
          token_endpoint: `${base}/token`,
          registration_endpoint: `${base}/register`,
          response_types_supported: ['code'],
          grant_types_supported: ['authorization_code', 'refresh_token'],
          code_challenge_methods_supported: ['S256'],
          token_endpoint_auth_methods_supported: ['none'],
        });
      }
      if (req.method === 'POST' && u.pathname === '/register') {
        counts.registrations++;
        const b = JSON.parse(await body(req)) as Record<string, unknown>;
        return json(res, 201, { ...b, client_id: `client-${counts.registrations}`, token_endpoint_auth_method: 'none' });
      }
      if (req.method === 'GET' && u.pathname === '/authorize') {
        counts.authorize++;
        state.lastChallengeMethod = u.searchParams.get('code_challenge_method') ?? undefined;
        const code = `code-${++n}`;
        const scope = (u.searchParams.get('scope') ?? '').split(' ').filter((s) => s !== '' && !(opts.neverGrantCallScope && s === opts.callScope));
        codes.set(code, { challenge: u.searchParams.get('code_challenge') ?? '', scope });
        const back = new URL(u.searchParams.get('redirect_uri') ?? '');
        back.searchParams.set('code', code);
        const st = u.searchParams.get('state');
        if (st) back.searchParams.set('state', st);
        res.writeHead(302, { location: back.toString() });
        return res.end();
      }
      if (req.method === 'POST' && u.pathname === '/token') {
        const p = new URLSearchParams(await body(req));
        let scope: string[];
        if (p.get('grant_type') === 'authorization_code') {
          const c = codes.get(p.get('code') ?? '');
          codes.delete(p.get('code') ?? '');
          if (!c) return json(res, 400, { error: 'invalid_grant' });
          const ok = createHash('sha256').update(p.get('code_verifier') ?? '').digest('base64url') === c.challenge;
          pkceOk.push(ok);
          if (!ok) return json(res, 400, { error: 'invalid_grant' });
          counts.codeGrants++;
          scope = c.scope;
        } else if (p.get('grant_type') === 'refresh_token') {
          const s = refresh.get(p.get('refresh_token') ?? '');
          if (!s) return json(res, 400, { error: 'invalid_grant' });
          counts.refreshGrants++;
          scope = s;
        } else return json(res, 400, { error: 'unsupported_grant_type' });
        const at = `at-${++n}${opts.tokenTag ?? ''}`;
        const rt = `rt-${n}${opts.tokenTag ?? ''}`;
        valid.set(at, scope);
        refresh.set(rt, scope);
        return json(res, 200, { access_token: at, token_type: 'Bearer', expires_in: 3600, refresh_token: rt, ...(scope.length ? { scope: scope.join(' ') } : {}) });
      }
      if (u.pathname !== '/mcp') return json(res, 404, { error: 'not found' });
      // The resource server: the token is checked before anything else of the request.
      const auth = req.headers.authorization ?? '';
      const token = auth.startsWith('Bearer ') ? auth.slice(7) : '';
      const scopes = valid.get(token);
      const text = req.method === 'POST' ? await body(req) : '';
      const msg = (text ? JSON.parse(text) : {}) as { id?: number; method: string };
      if (msg.method === 'tools/call') counts.callPosts++;
      if (!scopes) {
        return json(res, 401, { error: 'invalid_token' }, { 'www-authenticate': `Bearer error="invalid_token", resource_metadata="${prm()}"` });
      }
      if (req.method === 'GET') {
        counts.resumeGets++;
        res.writeHead(405);
        return res.end();
      }
      if (msg.id === undefined) {
        res.writeHead(202);
        return res.end();
      }
      if (msg.method === 'initialize') return json(res, 200, { jsonrpc: '2.0', id: msg.id, result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'oauth-test', version: '1' } } });
      if (msg.method === 'tools/list') return json(res, 200, { jsonrpc: '2.0', id: msg.id, result: { tools: [{ name: 'write', inputSchema: { type: 'object' } }] } });
      if (msg.method === 'tools/call') {
        if (opts.callScope && !scopes.includes(opts.callScope)) {
          return json(res, 403, { error: 'insufficient_scope' }, { 'www-authenticate': `Bearer error="insufficient_scope", scope="read ${opts.callScope}", resource_metadata="${prm()}"` });
        }
        counts.toolRuns++;
        if (opts.callFails500) return json(res, 500, { error: 'boom' });
        if (opts.cutCallStream) {
          // Expire the token, then cut the stream: the resumption GET is answered 401.
          valid.delete(token);
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          res.write('id: e1\nretry: 10\ndata: \n\n');
          return res.end();
        }
        return json(res, 200, { jsonrpc: '2.0', id: msg.id, result: { content: [{ type: 'text', text: `ran ${counts.toolRuns}` }] } });
      }
      return json(res, 200, { jsonrpc: '2.0', id: msg.id, result: {} });
    })();
  });
  const host = opts.host ?? '127.0.0.1';
  await new Promise<void>((r) => server.listen(0, host, r));
  base = `http://${host.includes(':') ? `[${host}]` : host}:${(server.address() as AddressInfo).port}`;
  state.url = base;
  state.mcpUrl = `${base}/mcp`;
  state.close = () =>
    new Promise((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
  return state;
}
