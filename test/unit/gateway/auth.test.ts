import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { catalogModule } from '../../localGateway/catalog';
import { chatModule } from '../../localGateway/chat';
import type { Scope } from '../../localGateway/context';
import { allScopes, keyTypeOf, localKeyRecords } from '../../localGateway/keys';
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

  test('[G-AUTH-5] Full writes everywhere, Read only reads everywhere, Restricted only where set', async () => {
    const records = localKeyRecords();
    const level = (secret: string, scope: Scope): string => records.find((r) => r.secret === secret)?.scopes[scope] ?? 'missing';
    const rank = { none: 0, read: 1, write: 2 } as Record<string, number>;
    for (const key of [LOCAL_KEYS.userFull, LOCAL_KEYS.accountFull, LOCAL_KEYS.userReadOnly, LOCAL_KEYS.userChatOnly, LOCAL_KEYS.userMcpRead]) {
      for (const entry of SCOPE_TABLE) {
        for (const method of entry.method === '*' ? ['GET', 'POST'] : [entry.method]) {
          const required = entry.level === 'by-method' ? (method === 'GET' ? 'read' : 'write') : entry.level;
          const granted = entry.scope === 'session_events' ? Math.max(rank[level(key, 'session_events')] ?? 0, rank[level(key, 'agents')] ?? 0) : (rank[level(key, entry.scope)] ?? 0);
          const res = await call(stubs().url, method, concrete(entry.pattern), key);
          const allowed = granted >= (rank[required] ?? 3);
          if (allowed) assert.notEqual(res.status, 403, `${method} ${entry.pattern} with ${key.slice(0, 20)}`);
          else assert.equal(res.status, 403, `${method} ${entry.pattern} with ${key.slice(0, 20)}`);
          assert.notEqual(res.status, 401);
          await res.arrayBuffer();
        }
      }
    }
    // The records themselves follow the documented permission model.
    assert.deepEqual(records.find((r) => r.secret === LOCAL_KEYS.userReadOnly)?.scopes, allScopes('read'));
    const chatOnly = records.find((r) => r.secret === LOCAL_KEYS.userChatOnly)?.scopes;
    assert.equal(chatOnly?.chat, 'write');
    assert.equal(chatOnly?.collections, 'none');
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

  test('[G-AUTH-7] session events accept session_events or agents; other session routes need agents', async () => {
    const agentsOnly = 'svc_pat_local_agents_only_0001';
    const eventsOnly = 'svc_pat_local_events_only_0002';
    const gateway = await startGateway({
      modules: [],
      keys: [
        { secret: agentsOnly, name: 'agents', type: 'user', permission: 'restricted', scopes: { ...allScopes('none'), agents: 'write' }, revoked: false },
        { secret: eventsOnly, name: 'events', type: 'user', permission: 'restricted', scopes: { ...allScopes('none'), session_events: 'write' }, revoked: false },
      ],
    });
    try {
      for (const key of [agentsOnly, eventsOnly]) {
        const res = await call(gateway.url, 'POST', '/v1/sessions/s1/events', key);
        assert.equal(res.status, 404, key);
        await res.arrayBuffer();
      }
      const session = await call(gateway.url, 'GET', '/v1/sessions/s1', eventsOnly);
      assert.equal(session.status, 403);
      assert.match((await envelopeOf(session)).message, /scope 'agents'/);
    } finally {
      await gateway.close();
    }
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
