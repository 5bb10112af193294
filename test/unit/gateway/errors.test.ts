import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { localKeyRecords } from '../../localGateway/keys';
import { isLoopback, startGateway } from '../../localGateway/server';
import { chat, envelopeOf, LOCAL_KEYS, TRACE_ID, useGateway, userSays, UUID } from './helpers';

describe('local gateway: errors, faults and control', () => {
  const gw = useGateway();

  test('[G-ERR-1] every JSON error is {error:{message,type,code,request_id}} with code mirroring the status', async () => {
    gw().faults.add({ kind: 'server_error', route: '/v1/models' });
    const cases: Array<[Promise<Response>, number, string]> = [
      [chat(gw(), { model: 'openai/gpt-5.1' }), 400, 'invalid_request_error'],
      [chat(gw(), userSays('hi'), null), 401, 'authentication_error'],
      [chat(gw(), userSays('hi'), LOCAL_KEYS.userReadOnly), 403, 'permission_error'],
      [fetch(`${gw().url}/v1/does-not-exist`), 404, 'not_found_error'],
      [fetch(`${gw().url}/v1/chat/completions`), 405, 'invalid_request_error'],
      [fetch(`${gw().url}/v1/models`), 500, 'server_error'],
    ];
    for (const [pending, status, type] of cases) {
      const res = await pending;
      assert.equal(res.status, status);
      assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
      const err = await envelopeOf(res);
      assert.equal(err.code, status);
      assert.equal(err.type, type);
      assert.ok(err.message.length > 0);
    }
  });

  test('[G-ERR-1] a wrong method on a known path is 405 with Allow', async () => {
    const res = await fetch(`${gw().url}/v1/chat/completions`, { method: 'GET' });
    assert.equal(res.status, 405);
    assert.equal(res.headers.get('allow'), 'POST');
    await res.arrayBuffer();
  });

  test('[G-ERR-2] every response carries X-Request-ID, a 32-hex trace id or a UUID, and both shapes occur', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await fetch(`${gw().url}/v1/models`);
      await res.arrayBuffer();
      ids.push(res.headers.get('x-request-id') ?? '');
    }
    const ok = await chat(gw(), userSays('hi'));
    ids.push(ok.headers.get('x-request-id') ?? '');
    await ok.arrayBuffer();
    for (const id of ids) assert.ok(TRACE_ID.test(id) || UUID.test(id), id);
    assert.ok(ids.some((id) => TRACE_ID.test(id)));
    assert.ok(ids.some((id) => UUID.test(id)));
    assert.equal(new Set(ids).size, ids.length, 'one id per request');
  });

  test('[G-ERR-2] requestIdStyle pins the shape', async () => {
    const gateway = await startGateway({ requestIdStyle: 'uuid' });
    try {
      for (let i = 0; i < 3; i++) {
        const res = await chat(gateway, userSays('hi'), null);
        assert.match(res.headers.get('x-request-id') ?? '', UUID);
        assert.match((await envelopeOf(res)).request_id, UUID);
      }
    } finally {
      await gateway.close();
    }
  });

  test('[G-ERR-3] a throttled fault answers 429 with an HTML page, before authentication, with X-Request-ID', async () => {
    gw().faults.add({ kind: 'throttled', route: '/v1/chat/completions', count: 2 });
    for (let i = 0; i < 2; i++) {
      const res = await chat(gw(), userSays('hi'), null);
      assert.equal(res.status, 429);
      assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
      assert.ok((res.headers.get('x-request-id') ?? '').length > 0);
      const body = await res.text();
      assert.throws(() => JSON.parse(body) as unknown);
    }
    const after = await chat(gw(), userSays('hi'));
    assert.equal(after.status, 200, 'count 2: the third request passes');
    await after.arrayBuffer();
  });

  test('[G-ERR-4] 503 comes with or without Retry-After, and as entitlement_unavailable', async () => {
    gw().faults.add({ kind: 'unavailable', route: '/v1/chat/completions', retryAfter: 2 });
    const withHeader = await chat(gw(), userSays('hi'));
    assert.equal(withHeader.status, 503);
    assert.equal(withHeader.headers.get('retry-after'), '2');
    assert.equal((await envelopeOf(withHeader)).code, 503);

    gw().faults.add({ kind: 'unavailable', route: '/v1/chat/completions' });
    const without = await chat(gw(), userSays('hi'));
    assert.equal(without.status, 503);
    assert.equal(without.headers.get('retry-after'), null);
    await without.arrayBuffer();

    gw().faults.add({ kind: 'entitlement_unavailable', route: '/v1/chat/completions', retryAfter: 1 });
    const ent = await chat(gw(), userSays('hi'));
    assert.equal(ent.status, 503);
    assert.equal(ent.headers.get('retry-after'), '1');
    assert.equal((await envelopeOf(ent)).type, 'entitlement_unavailable');
    assert.equal((await chat(gw(), userSays('hi'))).status, 200);
  });

  test('[G-ERR-4] faults armed through POST /__control/faults apply to the next N requests, then clear', async () => {
    const arm = await fetch(`${gw().url}/__control/faults`, { method: 'POST', body: JSON.stringify({ kind: 'unavailable', route: '/v1/models', count: 2 }) });
    assert.equal(arm.status, 200);
    const listed = (await (await fetch(`${gw().url}/__control/faults`)).json()) as { faults: Array<{ kind: string; count: number }> };
    assert.deepEqual(
      listed.faults.map((f) => [f.kind, f.count]),
      [['unavailable', 2]],
    );
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${gw().url}/v1/models`);
      statuses.push(res.status);
      await res.arrayBuffer();
    }
    assert.deepEqual(statuses, [503, 503, 200]);
    const bad = await fetch(`${gw().url}/__control/faults`, { method: 'POST', body: JSON.stringify({ kind: 'explode' }) });
    assert.equal(bad.status, 400);
    await bad.arrayBuffer();
    assert.deepEqual(gw().faults.list(), [], 'bad input arms nothing');
  });

  test('control: events are readable over HTTP and never contain a secret; reset clears them', async () => {
    await (await chat(gw(), userSays('logged'))).arrayBuffer();
    const res = await fetch(`${gw().url}/__control/events?type=request`);
    const text = await res.text();
    const { events } = JSON.parse(text) as { events: Array<{ path: string; authorization: string; keyName?: string }> };
    const last = events.filter((e) => e.path === '/v1/chat/completions').at(-1);
    assert.equal(last?.authorization, 'bearer');
    assert.equal(last?.keyName, localKeyRecords().find((k) => k.secret === LOCAL_KEYS.userFull)?.name);
    for (const secret of Object.values(LOCAL_KEYS)) assert.ok(!text.includes(secret), 'no secret in the event log');
    assert.equal((await fetch(`${gw().url}/__control/reset`, { method: 'POST' })).status, 200);
    const after = (await (await fetch(`${gw().url}/__control/events`)).json()) as { events: unknown[] };
    assert.equal(after.events.length, 0);
    const badConfig = await fetch(`${gw().url}/__control/config`, { method: 'POST', body: JSON.stringify({ chunkSize: 0 }) });
    assert.equal(badConfig.status, 400);
    await badConfig.arrayBuffer();
    assert.equal(gw().options.chunkSize, 12, 'a bad config changes nothing');
  });

  test('control: only loopback peers are served', () => {
    for (const a of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) assert.equal(isLoopback(a), true, a);
    for (const a of ['10.0.0.5', '192.168.1.2', '::ffff:10.0.0.5', undefined]) assert.equal(isLoopback(a), false, String(a));
  });

  test('[G-ERR-1] an unknown /v1 path is a 404 envelope, with or without a key', async () => {
    for (const key of [null, LOCAL_KEYS.userFull]) {
      const res = await fetch(`${gw().url}/v1/nothing/here`, { headers: key ? { Authorization: `Bearer ${key}` } : {} });
      assert.equal(res.status, 404);
      assert.equal((await envelopeOf(res)).type, 'not_found_error');
    }
  });

  test('close() ends a stalled stream instead of hanging', async () => {
    const gateway = await startGateway();
    gateway.faults.add({ kind: 'stall', afterChunks: 1 });
    const res = await chat(gateway, userSays('stall', 'openai/gpt-5.1', { stream: true }));
    const reading = res.text();
    await gateway.events.waitFor('fault', (e) => e.kind === 'stall');
    await gateway.close();
    await assert.rejects(reading);
  });
});
