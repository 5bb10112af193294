import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { catalogModule } from '../../localGateway/catalog';
import { chatModule } from '../../localGateway/chat';
import { allScopes, canaryKey, keyTypeOf, localKeyRecords } from '../../localGateway/keys';
import { SCOPE_TABLE } from '../../localGateway/scopes';
import { startGateway } from '../../localGateway/server';
import { bearer, chat, envelopeOf, LOCAL_KEYS, postJson, useGateway, userSays } from './helpers';

const UNKNOWN_KEY = 'svc_pat_this_key_does_not_exist_0000';

/** A concrete request for every row of the scope table; ids filled in. */
function concrete(pattern: string): string {
  return pattern.replace('{id}', 'col_1').replace('{document_id}', 'doc_1').replace('{site_identifier}', 'site_1').replace('{session_id}', 'ses_1').replace('/*', '/events');
}

async function call(url: string, method: string, path: string, key: string | undefined): Promise<Response> {
  return fetch(`${url}${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', ...(key !== undefined ? bearer(key) : {}) },
    body: method === 'GET' || method === 'DELETE' ? undefined : '{}',
  });
}

describe('local gateway: keys and scopes', () => {
  const gw = useGateway();
  // Only catalog and chat: every other documented path is answered by the scope stubs.
  const stubs = useGateway({ modules: [catalogModule, chatModule] });

  test('[G-AUTH-1] chat without Authorization gets 401; the two catalog routes need none', async () => {
    const res = await chat(gw(), userSays('hi'), null);
    assert.equal(res.status, 401);
    await res.arrayBuffer();
    assert.equal((await fetch(`${gw().url}/v1/models`)).status, 200);
    assert.equal((await fetch(`${gw().url}/v1/models/openai/gpt-5.1/schema`)).status, 200);
    for (const entry of SCOPE_TABLE) {
      const method = entry.method === '*' ? 'GET' : entry.method;
      const r = await call(stubs().url, method, concrete(entry.pattern), undefined);
      assert.equal(r.status, 401, `${method} ${entry.pattern}`);
      await r.arrayBuffer();
    }
  });

  test('[G-AUTH-2] the prefix tells the key type: svc_pat_ is a User key, other svc_ an Account key', async () => {
    assert.equal(keyTypeOf(LOCAL_KEYS.userFull), 'user');
    assert.equal(keyTypeOf(LOCAL_KEYS.accountFull), 'account');
    assert.equal(keyTypeOf('sk-abc'), undefined);
    for (const record of localKeyRecords()) assert.equal(record.type, keyTypeOf(record.secret), record.name);
    const res = await chat(gw(), userSays('as an account'), LOCAL_KEYS.accountFull);
    assert.equal(res.status, 200);
    await res.arrayBuffer();
  });

  test('[G-AUTH-3] missing, malformed, unknown and revoked tokens get the same 401 with WWW-Authenticate and no scope', async () => {
    const variants: Array<Record<string, string>> = [{}, { Authorization: 'Basic dXNlcjpwYXNz' }, { Authorization: 'Bearer' }, bearer(UNKNOWN_KEY), bearer(LOCAL_KEYS.revoked)];
    for (const headers of variants) {
      const res = await fetch(`${gw().url}/v1/chat/completions`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(userSays('hi')) });
      assert.equal(res.status, 401, JSON.stringify(headers));
      assert.equal(res.headers.get('www-authenticate'), 'Bearer realm=ai-services');
      const err = await envelopeOf(res);
      assert.equal(err.type, 'authentication_error');
      assert.equal(err.message, 'invalid or revoked API key');
      assert.doesNotMatch(err.message, /scope|chat/);
    }
  });

  test('[G-AUTH-4] a scope level below the requirement gets 403 permission_error naming scope, required and granted level', async () => {
    const readOnly = await chat(gw(), userSays('hi'), LOCAL_KEYS.userReadOnly);
    assert.equal(readOnly.status, 403);
    const e1 = await envelopeOf(readOnly);
    assert.equal(e1.type, 'permission_error');
    assert.equal(e1.message, "insufficient permission: scope 'chat' requires write, key has read");
    const none = await postJson(stubs(), '/v1/images/generations', {}, LOCAL_KEYS.userChatOnly);
    assert.equal(none.status, 403);
    assert.equal((await envelopeOf(none)).message, "insufficient permission: scope 'image' requires write, key has none");
  });

  test('[G-AUTH-5] [#39.13] every local key has exactly the grant the permissions table allows, written out here', async () => {
    // The spec's table, literally: Full access = write on every scope; Read only = read on every scope;
    // Restricted = chat, image, speech, transcribe, mcp each write/read/none, every other scope none.
    const W = 'write';
    const R = 'read';
    const N = 'none';
    //                                  chat image speech transcribe collections documents search agents session_events mcp
    const row = (chat: string, image: string, speech: string, transcribe: string, collections: string, documents: string, search: string, agents: string, session_events: string, mcp: string) =>
      ({ chat, image, speech, transcribe, collections, documents, search, agents, session_events, mcp });
    const expected: Record<string, { permission: string; scopes: ReturnType<typeof row> }> = {
      // The fixed key, written out: LOCAL_KEYS.userFull is the canary when the canary suite runs.
      svc_pat_local_user_full_7f3a9c2e5b1d: { permission: 'full', scopes: row(W, W, W, W, W, W, W, W, W, W) },
      [LOCAL_KEYS.accountFull]: { permission: 'full', scopes: row(W, W, W, W, W, W, W, W, W, W) },
      [LOCAL_KEYS.userReadOnly]: { permission: 'read_only', scopes: row(R, R, R, R, R, R, R, R, R, R) },
      [LOCAL_KEYS.userChatOnly]: { permission: 'restricted', scopes: row(W, N, N, N, N, N, N, N, N, N) },
      [LOCAL_KEYS.userMcpRead]: { permission: 'restricted', scopes: row(W, N, N, N, N, N, N, N, N, R) },
      [LOCAL_KEYS.userMcpOnly]: { permission: 'restricted', scopes: row(N, N, N, N, N, N, N, N, N, W) },
      [LOCAL_KEYS.revoked]: { permission: 'full', scopes: row(W, W, W, W, W, W, W, W, W, W) },
    };
    const canary = canaryKey();
    if (canary !== undefined) expected[canary] = { permission: 'full', scopes: row(W, W, W, W, W, W, W, W, W, W) };
    const records = localKeyRecords();
    assert.deepEqual(
      Object.fromEntries(records.map((r) => [r.secret, { permission: r.permission, scopes: r.scopes }])),
      expected,
      'the local gateway holds exactly these keys',
    );
    // What the gateway does with them: for every row of the endpoint table, the status says allowed or refused.
    const rank: Record<string, number> = { none: 0, read: 1, write: 2 };
    for (const key of [LOCAL_KEYS.userFull, LOCAL_KEYS.accountFull, LOCAL_KEYS.userReadOnly, LOCAL_KEYS.userChatOnly, LOCAL_KEYS.userMcpRead, LOCAL_KEYS.userMcpOnly]) {
      const scopes = expected[key]!.scopes as Record<string, string>;
      for (const entry of SCOPE_TABLE) {
        for (const method of entry.method === '*' ? ['GET', 'POST'] : [entry.method]) {
          const required = entry.level === 'by-method' ? (method === 'GET' ? 'read' : 'write') : entry.level;
          const res = await call(stubs().url, method, concrete(entry.pattern), key);
          const what = `${method} ${entry.pattern} with ${key.slice(0, 24)}`;
          if ((rank[scopes[entry.scope]!] ?? 0) >= (rank[required] ?? 3)) assert.notEqual(res.status, 403, what);
          else assert.equal(res.status, 403, what);
          assert.notEqual(res.status, 401);
          await res.arrayBuffer();
        }
      }
    }
  });

  test('[G-AUTH-5] [#39.13] the gateway refuses to hold a key the permissions table does not allow', async () => {
    const base = { name: 'impossible', type: 'user' as const, revoked: false };
    const impossible = [
      { ...base, secret: 'svc_pat_x_search', permission: 'restricted' as const, scopes: { ...allScopes('none'), search: 'read' as const } },
      { ...base, secret: 'svc_pat_x_events', permission: 'restricted' as const, scopes: { ...allScopes('none'), session_events: 'write' as const } },
      { ...base, secret: 'svc_pat_x_full', permission: 'full' as const, scopes: { ...allScopes('write'), mcp: 'read' as const } },
      { ...base, secret: 'svc_pat_x_ro', permission: 'read_only' as const, scopes: { ...allScopes('read'), chat: 'write' as const } },
    ];
    for (const record of impossible) {
      assert.throws(() => gw().keys.add(record), /no such key can exist/, record.secret);
      assert.equal(gw().keys.find(record.secret), undefined);
    }
    await assert.rejects(startGateway({ keys: [impossible[0]!] }), /no such key can exist/);
    // Through the control endpoint too: only the five Restricted scopes can be set.
    for (const body of [{ permission: 'restricted', scopes: { session_events: 'write' } }, { permission: 'restricted', scopes: { search: 'read' } }, { permission: 'full', scopes: { chat: 'read' } }]) {
      const res = await fetch(`${gw().url}/__control/keys`, { method: 'POST', body: JSON.stringify({ secret: 'svc_pat_x_control', name: 'x', ...body }) });
      assert.equal(res.status, 400, JSON.stringify(body));
      await res.arrayBuffer();
    }
  });

  test('[G-AUTH-6] write implies read: a Full key passes read-only routes', async () => {
    for (const path of ['/v1/kb/collections', '/v1/agents']) {
      const res = await call(stubs().url, 'GET', path, LOCAL_KEYS.userFull);
      assert.equal(res.status, 404, path);
      assert.match((await envelopeOf(res)).message, /not implemented by the local gateway/);
    }
    const search = await postJson(stubs(), '/v1/kb/collections/c1/search', {}, LOCAL_KEYS.accountFull);
    assert.equal(search.status, 404);
    await search.arrayBuffer();
  });

  test('[G-AUTH-7] summarize and suggest-taxonomy need chat write, alt-text image write, KB search search read', async () => {
    for (const gateway of [gw(), stubs()]) {
      for (const path of ['/v1/content/summarize', '/v1/content/suggest-taxonomy']) {
        const denied = await postJson(gateway, path, { content: 'x' }, LOCAL_KEYS.userReadOnly);
        assert.equal(denied.status, 403, path);
        assert.match((await envelopeOf(denied)).message, /scope 'chat' requires write, key has read/);
        const allowed = await postJson(gateway, path, { content: 'x' }, LOCAL_KEYS.userChatOnly);
        assert.ok(![401, 403].includes(allowed.status), `${path}: ${allowed.status}`);
        await allowed.arrayBuffer();
      }
      const alt = await postJson(gateway, '/v1/images/alt-text', { image_url: 'https://example.com/a.png' }, LOCAL_KEYS.userChatOnly);
      assert.equal(alt.status, 403);
      assert.match((await envelopeOf(alt)).message, /scope 'image' requires write, key has none/);
      const search = await postJson(gateway, '/v1/kb/collections/c1/search', { query: 'x' }, LOCAL_KEYS.userReadOnly);
      assert.ok(![401, 403].includes(search.status));
      await search.arrayBuffer();
      const noSearch = await postJson(gateway, '/v1/kb/collections/c1/search', { query: 'x' }, LOCAL_KEYS.userChatOnly);
      assert.equal(noSearch.status, 403);
      assert.match((await envelopeOf(noSearch)).message, /scope 'search' requires read, key has none/);
    }
  });

  test('[G-AUTH-7] session events: a key without agents or session_events is refused naming session_events; other session routes name agents', async () => {
    // Which of the two scopes lets the call through no allowed key tells apart (scopeDecision.test.ts does).
    for (const key of [LOCAL_KEYS.userFull, LOCAL_KEYS.accountFull]) {
      const res = await call(stubs().url, 'POST', '/v1/sessions/s1/events', key);
      assert.equal(res.status, 404, key);
      await res.arrayBuffer();
    }
    const events = await call(stubs().url, 'POST', '/v1/sessions/s1/events', LOCAL_KEYS.userChatOnly);
    assert.equal(events.status, 403);
    assert.equal((await envelopeOf(events)).message, "insufficient permission: scope 'session_events' requires write, key has none");
    const session = await call(stubs().url, 'GET', '/v1/sessions/s1', LOCAL_KEYS.userChatOnly);
    assert.equal(session.status, 403);
    assert.equal((await envelopeOf(session)).message, "insufficient permission: scope 'agents' requires read, key has none");
  });

  test('[G-AUTH-8] rotation: a replacement key works side by side with the old one until the old one is revoked', async () => {
    const oldKey = 'svc_pat_rotation_old_1111';
    const newKey = 'svc_pat_rotation_new_2222';
    const add = (secret: string): Promise<Response> => fetch(`${gw().url}/__control/keys`, { method: 'POST', body: JSON.stringify({ secret, name: secret.slice(-4) }) });
    assert.equal((await add(oldKey)).status, 200);
    assert.equal((await add(newKey)).status, 200);
    for (const key of [oldKey, newKey]) assert.equal((await chat(gw(), userSays('both'), key)).status, 200);
    const revoke = await fetch(`${gw().url}/__control/keys/revoke`, { method: 'POST', body: JSON.stringify({ secret: oldKey }) });
    assert.equal(revoke.status, 200);
    assert.equal((await chat(gw(), userSays('old'), oldKey)).status, 401);
    assert.equal((await chat(gw(), userSays('new'), newKey)).status, 200);
    // There is no rotation or key-management endpoint on the gateway.
    for (const path of ['/v1/keys', '/v1/keys/rotate', '/v1/api-keys']) {
      const res = await postJson(gw(), path, {}, newKey);
      assert.equal(res.status, 404, path);
      await res.arrayBuffer();
    }
  });

  test('[G-AUTH-8] keys never expire: a key still works with the gateway clock ten years ahead', async () => {
    const gateway = await startGateway({ now: () => new Date(Date.now() + 10 * 365 * 24 * 3600 * 1000) });
    try {
      const res = await chat(gateway, userSays('later'), LOCAL_KEYS.userFull);
      assert.equal(res.status, 200);
      await res.arrayBuffer();
    } finally {
      await gateway.close();
    }
  });

  test('[G-AUTH-9] revocation is irreversible: the revoked secret cannot be added back', async () => {
    const add = await fetch(`${gw().url}/__control/keys`, { method: 'POST', body: JSON.stringify({ secret: LOCAL_KEYS.revoked, name: 'again' }) });
    assert.equal(add.status, 400);
    assert.match((await envelopeOf(add)).message, /irreversible/);
    assert.throws(() => gw().keys.add({ ...localKeyRecords()[0]!, secret: LOCAL_KEYS.revoked, revoked: false }), /irreversible/);
    assert.equal((await chat(gw(), userSays('hi'), LOCAL_KEYS.revoked)).status, 401);
  });

  test('[G-AUTH-10] entitlement_required and account_required are distinct 403s, raised only after a key authenticated', async () => {
    gw().faults.add({ kind: 'entitlement_required', route: '/v1/chat/completions' });
    const unauth = await chat(gw(), userSays('hi'), UNKNOWN_KEY);
    assert.equal(unauth.status, 401, 'a bad key is still a 401');
    await unauth.arrayBuffer();
    const ent = await chat(gw(), userSays('hi'));
    assert.equal(ent.status, 403);
    assert.equal((await envelopeOf(ent)).type, 'entitlement_required');
    gw().faults.add({ kind: 'account_required', route: '/v1/chat/completions' });
    const acc = await chat(gw(), userSays('hi'));
    assert.equal(acc.status, 403);
    const accErr = await envelopeOf(acc);
    assert.equal(accErr.type, 'account_required');
    assert.equal((await chat(gw(), userSays('hi'))).status, 200, 'each fault fired once');
  });

  test('a canary key from AI_GATEWAY_CANARY_KEY is accepted as User/Full and returned by LOCAL_KEYS.userFull', async () => {
    const saved = process.env.AI_GATEWAY_CANARY_KEY;
    process.env.AI_GATEWAY_CANARY_KEY = 'svc_pat_canary_test_5150';
    try {
      assert.equal(LOCAL_KEYS.userFull, 'svc_pat_canary_test_5150');
      const gateway = await startGateway();
      try {
        const res = await chat(gateway, userSays('canary'), 'svc_pat_canary_test_5150');
        assert.equal(res.status, 200);
        await res.arrayBuffer();
        const plain = await chat(gateway, userSays('plain'), 'svc_pat_local_user_full_7f3a9c2e5b1d');
        assert.equal(plain.status, 200, 'the well-known key keeps working');
        await plain.arrayBuffer();
      } finally {
        await gateway.close();
      }
      process.env.AI_GATEWAY_CANARY_KEY = 'not-a-user-key';
      assert.equal(LOCAL_KEYS.userFull, 'svc_pat_local_user_full_7f3a9c2e5b1d', 'a value without svc_pat_ is ignored');
    } finally {
      if (saved === undefined) delete process.env.AI_GATEWAY_CANARY_KEY;
      else process.env.AI_GATEWAY_CANARY_KEY = saved;
    }
  });
});
