import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ANALYTICS_WIRE,
  AnalyticsQueryError,
  buildAnalyticsParams,
  compareTotalsRows,
  isInTotalsOrder,
  parseAnalyticsResponse,
  type AnalyticsRow,
} from '../../../src/core/usage/analytics';
import { fetchAnalytics, type FetchLike } from '../../../src/core/usage/analyticsClient';
import { GatewayError } from '../../../src/core/http/errors';
import { LOCAL_ACCOUNT, LOCAL_PROJECT, mintLocalJwt } from '../../localGateway/mcpJwt';
import { LOCAL_KEYS, useGateway } from '../gateway/helpers';

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
const nowSec = NOW / 1000;
const HOUR = 3600;
const DAY = 86400;

const nodeFetch: FetchLike = (url, init) => fetch(url, init);

describe('analytics query rules (client side)', () => {
  test('[G-AN-2] bucket_width defaults to 1d and each width has its maximum window', () => {
    assert.equal(buildAnalyticsParams({ projectId: 'p', startTime: nowSec - DAY }, nowSec).get('bucket_width'), '1d');
    assert.doesNotThrow(() => buildAnalyticsParams({ projectId: 'p', startTime: nowSec - 24 * HOUR, bucketWidth: '10m' }, nowSec));
    assert.throws(() => buildAnalyticsParams({ projectId: 'p', startTime: nowSec - 24 * HOUR - 1, bucketWidth: '10m' }, nowSec), /at most 1 day/);
    assert.doesNotThrow(() => buildAnalyticsParams({ projectId: 'p', startTime: nowSec - 7 * DAY, bucketWidth: '1h' }, nowSec));
    assert.throws(() => buildAnalyticsParams({ projectId: 'p', startTime: nowSec - 7 * DAY - 1, bucketWidth: '1h' }, nowSec), /7 days/);
    assert.doesNotThrow(() => buildAnalyticsParams({ projectId: 'p', startTime: nowSec - 30 * DAY }, nowSec));
    assert.throws(() => buildAnalyticsParams({ projectId: 'p', startTime: nowSec - 30 * DAY - 1 }, nowSec), /30 days/);
    assert.throws(() => buildAnalyticsParams({ projectId: 'p', startTime: nowSec - DAY, bucketWidth: '5m' as '1h' }, nowSec), AnalyticsQueryError);
  });

  test('[G-AN-3] end is exclusive and defaults to now; an end at or before start is refused', () => {
    const p = buildAnalyticsParams({ projectId: 'p', startTime: nowSec - HOUR }, nowSec);
    assert.equal(p.get(ANALYTICS_WIRE.endTimeParam), null, 'omitted end means now on the server');
    assert.throws(() => buildAnalyticsParams({ projectId: 'p', startTime: nowSec, endTime: nowSec }, nowSec), /after start_time/);
  });

  test('[G-AN-4] filters take only the documented values; omitted means all', () => {
    const p = buildAnalyticsParams({ projectId: 'p', startTime: nowSec - HOUR, authMethod: 'okta', actorType: 'service', application: 'svc-agents' }, nowSec);
    assert.equal(p.get('auth_method'), 'okta');
    assert.equal(p.get('actor_type'), 'service');
    assert.equal(p.get('application'), 'svc-agents');
    assert.equal(buildAnalyticsParams({ projectId: 'p', startTime: nowSec - HOUR }, nowSec).get('auth_method'), null);
    assert.throws(() => buildAnalyticsParams({ projectId: 'p', startTime: nowSec - HOUR, authMethod: 'password' as 'okta' }, nowSec), /auth_method/);
    assert.throws(() => buildAnalyticsParams({ projectId: 'p', startTime: nowSec - HOUR, application: 'vscode' as 'unknown' }, nowSec), /application/);
  });

  test('[G-AN-5] group_by is drawn from the documented dimensions', () => {
    const p = buildAnalyticsParams({ projectId: 'p', startTime: nowSec - HOUR, groupBy: ['site_id', 'model', 'site_id'] }, nowSec);
    assert.equal(p.get('group_by'), 'site_id,model');
    assert.throws(() => buildAnalyticsParams({ projectId: 'p', startTime: nowSec - HOUR, groupBy: ['region' as 'model'] }, nowSec), /region/);
  });

  test('[G-AN-8] the site filter cannot select usage without a registered site (empty client_id)', () => {
    assert.throws(() => buildAnalyticsParams({ projectId: 'p', startTime: nowSec - HOUR, siteClientId: '' }, nowSec), /registered site/);
    assert.equal(buildAnalyticsParams({ projectId: 'p', startTime: nowSec - HOUR, siteClientId: 'cl_1' }, nowSec).get(ANALYTICS_WIRE.siteFilterParam), 'cl_1');
  });

  test('[G-AN-6] credits_nano beyond 2^53 is read exactly as bigint', () => {
    const body = `{"bucket_width":"1d","window_start":"2026-11-21T00:00:00Z","window_end":"2026-11-22T00:00:00Z","totals":{"credits_nano":9007199254740993,"requests":2,"models":[{"model":"m","operation":"chat","credits_nano":9007199254740993,"requests":2}]},"buckets":[]}`;
    const r = parseAnalyticsResponse(body);
    assert.equal(r.totals.credits_nano, 9007199254740993n);
    assert.equal(r.totals.models[0].credits_nano, 9007199254740993n);
    assert.notEqual(BigInt(Number('9007199254740993')), 9007199254740993n, 'a double would have lost the last digit');
    assert.throws(() => parseAnalyticsResponse(body.replace('9007199254740993,"requests":2,"models"', '1.5,"requests":2,"models"')), /integer/);
  });

  test('[G-AN-7] totals order: credits descending, ties ascending by model, operation, client_id, auth_method, actor_type, application', () => {
    const row = (credits: bigint, model: string, operation = 'chat', client_id = ''): AnalyticsRow => ({ credits_nano: credits, model, operation, client_id, requests: 1 });
    const rows = [row(5n, 'b'), row(9n, 'z'), row(5n, 'a', 'image'), row(5n, 'a', 'chat', 'x'), row(5n, 'a', 'chat', '')];
    const sorted = [...rows].sort(compareTotalsRows);
    assert.deepEqual(sorted.map((r) => `${r.credits_nano}/${r.model}/${r.operation}/${r.client_id}`), ['9/z/chat/', '5/a/chat/', '5/a/chat/x', '5/a/image/', '5/b/chat/']);
    assert.ok(isInTotalsOrder(sorted));
    assert.ok(!isInTotalsOrder(rows));
  });
});

describe('analytics against the local gateway', () => {
  const gw = useGateway({ now: () => new Date(NOW) });
  const client = (token: string | undefined) => ({ baseUrl: () => gw().url, getJwt: async () => token, fetch: nodeFetch, userAgent: 'test', now: () => NOW });

  test('[G-AN-1] an API key is refused locally and by the gateway; a JWT is accepted', async () => {
    await assert.rejects(fetchAnalytics(client(LOCAL_KEYS.userFull), { projectId: LOCAL_PROJECT, startTime: nowSec - DAY }), (e: unknown) => e instanceof GatewayError && /identity-provider/.test(e.message));
    const res = await fetch(`${gw().url}/v1/analytics?project_id=${LOCAL_PROJECT}&start_time=${nowSec - DAY}`, { headers: { Authorization: `Bearer ${LOCAL_KEYS.userFull}` } });
    assert.equal(res.status, 403);
    const noAuth = await fetch(`${gw().url}/v1/analytics?project_id=${LOCAL_PROJECT}&start_time=${nowSec - DAY}`);
    assert.equal(noAuth.status, 401);
    const ok = await fetchAnalytics(client(mintLocalJwt()), { projectId: LOCAL_PROJECT, startTime: nowSec - DAY });
    assert.equal(ok.bucket_width, '1d');
    assert.ok(ok.totals.requests > 0);
  });

  test('[G-AN-2] [G-AN-9] the gateway answers 400 for a window over the maximum and for an unknown width', async () => {
    const jwt = mintLocalJwt();
    const over = await fetch(`${gw().url}/v1/analytics?project_id=${LOCAL_PROJECT}&start_time=${nowSec - DAY - 1}&bucket_width=10m`, { headers: { Authorization: `Bearer ${jwt}` } });
    assert.equal(over.status, 400);
    assert.equal(((await over.json()) as { error: { type: string } }).error.type, 'invalid_request_error');
    const width = await fetch(`${gw().url}/v1/analytics?project_id=${LOCAL_PROJECT}&start_time=${nowSec - DAY}&bucket_width=2h`, { headers: { Authorization: `Bearer ${jwt}` } });
    assert.equal(width.status, 400);
  });

  test('[G-AN-3] start inclusive, end exclusive: adjacent windows partition the requests', async () => {
    const c = client(mintLocalJwt());
    const start = nowSec - 6 * HOUR;
    const mid = nowSec - 3 * HOUR; // the large record sits exactly here
    const whole = await fetchAnalytics(c, { projectId: LOCAL_PROJECT, startTime: start, endTime: nowSec, bucketWidth: '1h' });
    const first = await fetchAnalytics(c, { projectId: LOCAL_PROJECT, startTime: start, endTime: mid, bucketWidth: '1h' });
    const second = await fetchAnalytics(c, { projectId: LOCAL_PROJECT, startTime: mid, endTime: nowSec, bucketWidth: '1h' });
    assert.equal(first.totals.requests + second.totals.requests, whole.totals.requests);
    assert.equal(first.totals.credits_nano + second.totals.credits_nano, whole.totals.credits_nano);
    assert.ok(second.totals.credits_nano > 9_007_199_254_740_992n, 'the record at the boundary belongs to the later window');
  });

  test('[G-AN-6] [G-AN-7] exact totals beyond 2^53, rows in the documented order, buckets add up', async () => {
    const r = await fetchAnalytics(client(mintLocalJwt()), { projectId: LOCAL_PROJECT, startTime: nowSec - 7 * DAY, bucketWidth: '1h' });
    assert.ok(r.totals.credits_nano > BigInt(Number.MAX_SAFE_INTEGER));
    assert.equal(r.buckets.reduce((acc, b) => acc + b.credits_nano, 0n), r.totals.credits_nano);
    assert.equal(r.totals.models.reduce((acc, m) => acc + m.credits_nano, 0n), r.totals.credits_nano);
    assert.ok(isInTotalsOrder(r.totals.models));
  });

  test('[G-AN-4] [G-AN-5] [G-AN-8] filters narrow, group_by adds dimensions, empty client_id is direct traffic', async () => {
    const c = client(mintLocalJwt());
    const base = { projectId: LOCAL_PROJECT, startTime: nowSec - 2 * DAY };
    const all = await fetchAnalytics(c, base);
    const okta = await fetchAnalytics(c, { ...base, authMethod: 'okta' });
    assert.ok(okta.totals.requests > 0 && okta.totals.requests < all.totals.requests);
    const bySite = await fetchAnalytics(c, { ...base, groupBy: ['client_id'] });
    const clientIds = new Set(bySite.totals.models.map((m) => m.client_id));
    assert.ok(clientIds.has(''), 'usage without a registered site shows with an empty client_id');
    assert.ok(clientIds.has('cl_site_blog'));
    const defaultRows = all.totals.models;
    assert.ok(defaultRows.every((m) => m.client_id === undefined && m.model !== '' && m.operation !== ''), 'default grouping is model and operation');
    const blog = await fetchAnalytics(c, { ...base, siteClientId: 'cl_site_blog' });
    assert.ok(blog.totals.requests < all.totals.requests);
    const emptySite = await fetch(`${gw().url}/v1/analytics?project_id=${LOCAL_PROJECT}&start_time=${base.startTime}&${ANALYTICS_WIRE.siteFilterParam}=`, { headers: { Authorization: `Bearer ${mintLocalJwt()}` } });
    assert.equal(emptySite.status, 400);
  });

  test('[G-AN-9] 403 for another account and 503 when a dependency is down', async () => {
    const other = await fetchAnalytics(client(mintLocalJwt({ account: 'acct_other' })), { projectId: LOCAL_PROJECT, startTime: nowSec - DAY }).catch((e: unknown) => e);
    assert.ok(other instanceof GatewayError && other.status === 403 && other.reason === 'permission');
    gw().faults.add({ kind: 'unavailable', route: '/v1/analytics' });
    // One attempt (retries are the client's policy, tested in spendAnalytics.test.ts): the gateway's own answer.
    const down = await fetchAnalytics({ ...client(mintLocalJwt()), retry: () => ({ maxAttempts: 1 }) }, { projectId: LOCAL_PROJECT, startTime: nowSec - DAY }).catch((e: unknown) => e);
    assert.ok(down instanceof GatewayError && down.status === 503 && down.reason === 'unavailable');
    assert.equal(LOCAL_ACCOUNT, 'acct_local_1');
  });
});
