// OAuth sign-in of the MCP client (src/core/mcp/oauth.ts on the SDK's auth()) against a local server
// that requires OAuth (oauthServer.ts): PKCE, refresh, step-up, and the write-safety rules of #42.5.
import { test, describe, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { McpCallError, McpConnection } from '../../../src/core/mcp/mcpClient';
import { MAX_AUTH_ROUNDS, mayResendAfterAuth, McpOAuth, type AuthChallenge, type McpOAuthHost, type McpOAuthRecord } from '../../../src/core/mcp/oauth';
import { startOAuthServer, type OAuthServerOptions, type OAuthTestServer } from './oauthServer';

let srv: OAuthTestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

interface Harness {
  oauth: McpOAuth;
  saved: () => McpOAuthRecord | undefined;
  authorizeUrls: URL[];
}

/** The host as the conformance driver does it: "the user" follows the redirect at once. */
function host(server: OAuthTestServer, over: Partial<McpOAuthHost> = {}, initial?: McpOAuthRecord): Harness {
  let record = initial;
  const authorizeUrls: URL[] = [];
  const oauth = new McpOAuth(server.mcpUrl, {
    redirectUrl: 'http://127.0.0.1:1/callback',
    clientName: 'test',
    store: {
      load: async () => record,
      save: async (r) => {
        record = structuredClone(r);
      },
      clear: async () => {
        record = undefined;
      },
    },
    authorize: async (url) => {
      authorizeUrls.push(url);
      const res = await fetch(url, { redirect: 'manual' });
      await res.body?.cancel();
      return new URL(res.headers.get('location') ?? '');
    },
    ...over,
  });
  return { oauth, saved: () => record, authorizeUrls };
}

async function start(opts: OAuthServerOptions = {}): Promise<OAuthTestServer> {
  srv = await startOAuthServer(opts);
  return srv;
}

function connect(server: OAuthTestServer, oauth: McpOAuth, timeoutMs = 10_000): Promise<McpConnection> {
  return McpConnection.connect({ url: server.mcpUrl, fetch: (u, i) => fetch(u, i), getHeaders: async () => ({}), oauth, requestTimeoutMs: timeoutMs, maxResumeWaitMs: 20 });
}

describe('MCP OAuth sign-in', () => {
  test('[#42.1] a 401 starts discovery, dynamic registration and PKCE (S256); the token is stored with its issuer and sent', async () => {
    const s = await start();
    const h = host(s);
    const conn = await connect(s, h.oauth);
    try {
      const { tools } = await conn.listTools();
      assert.deepEqual(tools.map((t) => t.name), ['write']);
      assert.equal(s.counts.registrations, 1);
      assert.equal(s.counts.authorize, 1);
      assert.equal(s.lastChallengeMethod, 'S256');
      assert.deepEqual(s.pkceOk, [true]);
      assert.equal(h.authorizeUrls[0].origin, s.url);
      assert.equal(h.authorizeUrls[0].searchParams.get('resource'), s.mcpUrl);
      const rec = h.saved();
      assert.match(rec?.tokens?.access_token ?? '', /^at-/);
      assert.equal((rec?.tokens as { issuer?: string } | undefined)?.issuer?.replace(/\/$/, ''), s.url);
    } finally {
      await conn.close();
    }
  });

  test('[#42.1] a stored token is used without signing in again; Sign Out forgets it', async () => {
    const s = await start();
    const first = host(s);
    await (await connect(s, first.oauth)).close();
    const again = host(s, {}, first.saved());
    const conn = await connect(s, again.oauth);
    await conn.close();
    assert.equal(s.counts.authorize, 1);
    await again.oauth.signOut();
    assert.equal(again.saved(), undefined);
    assert.equal(await again.oauth.authorization(), undefined);
  });

  test('[#42.1] [#42.5] an expired token on a tools/call: refreshed (no new authorization), the refused call sent once more, the tool ran once', async () => {
    const s = await start();
    const h = host(s);
    const conn = await connect(s, h.oauth);
    try {
      await conn.listTools();
      s.valid.clear(); // every token expires
      const { result } = await conn.callTool('write', {});
      assert.equal((result.content[0] as { text: string }).text, 'ran 1');
      assert.equal(s.counts.refreshGrants, 1);
      assert.equal(s.counts.authorize, 1);
      assert.equal(s.counts.callPosts, 2, 'the 401 answer, then the one re-send');
      assert.equal(s.counts.toolRuns, 1);
    } finally {
      await conn.close();
    }
  });

  test('[#42.1] [#42.5] step-up on 403 insufficient_scope asks for the scope in the challenge; the refused call runs once', async () => {
    const s = await start({ callScope: 'write' });
    const h = host(s);
    const conn = await connect(s, h.oauth);
    try {
      await conn.callTool('write', {});
      assert.equal(s.counts.authorize, 2);
      assert.deepEqual(h.authorizeUrls[1].searchParams.get('scope')?.split(' ').sort(), ['read', 'write']);
      assert.equal(s.counts.toolRuns, 1);
      assert.equal(s.counts.callPosts, 2);
    } finally {
      await conn.close();
    }
  });

  test('[#42.5] a step-up that never succeeds stops after one: no loop of authorizations, the tool never ran, a permission error', async () => {
    const s = await start({ callScope: 'write', neverGrantCallScope: true });
    const h = host(s);
    const conn = await connect(s, h.oauth);
    try {
      await assert.rejects(conn.callTool('write', {}), (e: unknown) => e instanceof McpCallError && e.reason === 'permission' && e.status === 403 && !e.outcomeUnknown);
      assert.equal(s.counts.authorize, 2, 'the first sign-in, one step-up');
      assert.equal(s.counts.callPosts, 2);
      assert.equal(s.counts.toolRuns, 0);
    } finally {
      await conn.close();
    }
  });

  test('[#42.5] a tools/call whose stream was cut is never re-sent: the resumption answered 401 leaves the outcome unknown, no sign-in, one POST', async () => {
    const s = await start({ cutCallStream: true });
    const h = host(s);
    const conn = await connect(s, h.oauth);
    try {
      await conn.listTools();
      await assert.rejects(conn.callTool('write', {}), (e: unknown) => e instanceof McpCallError && e.outcomeUnknown);
      assert.equal(s.counts.callPosts, 1);
      assert.equal(s.counts.toolRuns, 1);
      assert.equal(s.counts.authorize, 1, 'no sign-in for the resumption');
      assert.equal(s.counts.refreshGrants, 0);
    } finally {
      await conn.close();
    }
  });

  test('[#42.5] a tools/call answered 500 is not re-sent and starts no sign-in', async () => {
    const s = await start({ callFails500: true });
    const h = host(s);
    const conn = await connect(s, h.oauth);
    try {
      await assert.rejects(conn.callTool('write', {}), (e: unknown) => e instanceof McpCallError && e.status === 500);
      assert.equal(s.counts.callPosts, 1);
      assert.equal(s.counts.authorize, 1);
    } finally {
      await conn.close();
    }
  });

  test('[#42.5] a declined sign-in sends nothing more: an authentication error, outcome known (the request was refused)', async () => {
    const s = await start();
    const h = host(s, {
      authorize: async () => {
        throw new Error('the user declined');
      },
    });
    await assert.rejects(connect(s, h.oauth), (e: unknown) => e instanceof McpCallError && e.reason === 'authentication' && !e.outcomeUnknown);
    assert.equal(s.counts.codeGrants, 0);
  });

  test('[#42.1] a redirect whose state does not match this sign-in is refused before any token request', async () => {
    const s = await start();
    const h = host(s, {
      authorize: async (url) => {
        const res = await fetch(url, { redirect: 'manual' });
        await res.body?.cancel();
        const back = new URL(res.headers.get('location') ?? '');
        back.searchParams.set('state', 'forged');
        return back;
      },
    });
    await assert.rejects(connect(s, h.oauth), (e: unknown) => e instanceof McpCallError && /did not match/.test(e.message));
    assert.equal(s.counts.codeGrants, 0);
    assert.equal(h.saved()?.tokens, undefined);
  });
});

describe('mayResendAfterAuth (#42.5)', () => {
  const c401: AuthChallenge = { status: 401, bearer: true, raw: 'Bearer error="invalid_token"' };
  const c403: AuthChallenge = { status: 403, bearer: true, error: 'insufficient_scope', raw: 'Bearer error="insufficient_scope", scope="a b"' };
  test('[#42.5] one sign-in on 401 per request; a step-up only for a Bearer insufficient_scope, not twice for the same challenge; MAX_AUTH_ROUNDS in all', () => {
    assert.equal(mayResendAfterAuth(c401, { rounds: 0, signedInOn401: false }), true);
    assert.equal(mayResendAfterAuth(c401, { rounds: 1, signedInOn401: true }), false);
    assert.equal(mayResendAfterAuth(c403, { rounds: 1, signedInOn401: true }), true);
    assert.equal(mayResendAfterAuth(c403, { rounds: 1, signedInOn401: false, lastStepUpChallenge: c403.raw }), false);
    assert.equal(mayResendAfterAuth({ ...c403, error: 'invalid_token' }, { rounds: 0, signedInOn401: false }), false);
    assert.equal(mayResendAfterAuth({ ...c403, bearer: false }, { rounds: 0, signedInOn401: false }), false);
    assert.equal(mayResendAfterAuth({ status: 500, bearer: false }, { rounds: 0, signedInOn401: false }), false);
    assert.equal(mayResendAfterAuth({ ...c403, raw: 'other' }, { rounds: MAX_AUTH_ROUNDS, signedInOn401: true }), false);
  });
});

describe('[#42.1] where a sign-in may send requests', () => {
  test('[#42.1] a server on the public internet cannot point discovery at this computer or a private network: nothing is fetched there, the sign-in fails', async () => {
    const fetched: string[] = [];
    let authorized = 0;
    const oauth = new McpOAuth('https://mcp.example.com/mcp', {
      redirectUrl: 'http://127.0.0.1:1/callback',
      clientName: 'test',
      store: { load: async () => undefined, save: async () => undefined, clear: async () => undefined },
      fetch: async (u) => {
        fetched.push(String(u));
        return new Response('not found', { status: 404 });
      },
      authorize: async () => {
        authorized++;
        throw new Error('not reached');
      },
    });
    for (const named of ['http://127.0.0.1:9/.well-known/oauth-protected-resource', 'https://192.168.1.1/.well-known/oauth-protected-resource', 'https://localhost/.well-known/oauth-protected-resource']) {
      await assert.rejects(oauth.signIn({ status: 401, resourceMetadataUrl: new URL(named) }));
    }
    assert.ok(fetched.length > 0, 'the server\'s own origin was asked');
    assert.deepEqual(fetched.filter((u) => !u.startsWith('https://mcp.example.com/')), [], fetched.join('\n'));
    assert.equal(authorized, 0);
  });
});
