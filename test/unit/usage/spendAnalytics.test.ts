import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compareTotalsRows, isInTotalsOrder, type AnalyticsResult, type AnalyticsRow } from '../../../src/core/usage/analytics';
import { fetchAnalytics, type FetchLike } from '../../../src/core/usage/analyticsClient';
import { bucketsCsv, csvCell, totalsCsv } from '../../../src/core/usage/csv';
import { fetchRange, mergeRows, splitWindow, RANGE_CONCURRENCY } from '../../../src/core/usage/range';
import { reconcile } from '../../../src/core/usage/reconcile';
import { GatewayError } from '../../../src/core/http/errors';
import type { Clock, RetrySettings } from '../../../src/core/http/retry';
import { SpendLedger, spendEntry } from '../../../src/core/spend/ledger';
import type { Model } from '../../../src/core/gateway/types';
import { LOCAL_PROJECT, mintLocalJwt } from '../../localGateway/mcpJwt';
import { LOCAL_KEYS, postJson, useGateway } from '../gateway/helpers';

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
const nowSec = NOW / 1000;
const DAY = 86400;
const nodeFetch: FetchLike = (url, init) => fetch(url, init);

function row(r: Partial<AnalyticsRow> & { credits_nano: bigint }): AnalyticsRow {
  return { model: 'm', operation: 'chat', requests: 1, ...r };
}

describe('[G-AN-7] totals order with constructed ties', () => {
  // Same credits, model, operation and client_id: only the later tie keys decide.
  const tied = [
    row({ credits_nano: 5n, client_id: 'c', auth_method: 'okta', actor_type: 'service', application: 'svc-agents' }),
    row({ credits_nano: 5n, client_id: 'c', auth_method: 'api_key', actor_type: 'unknown', application: 'unknown' }),
    row({ credits_nano: 5n, client_id: 'c', auth_method: 'api_key', actor_type: 'authenticated', application: 'third_party' }),
    row({ credits_nano: 5n, client_id: 'c', auth_method: 'api_key', actor_type: 'authenticated', application: 'svc-agents' }),
    row({ credits_nano: 9n, client_id: 'z', auth_method: 'unknown', actor_type: 'unknown', application: 'unknown' }),
    row({ credits_nano: 5n, client_id: 'b', auth_method: 'unknown', actor_type: 'unknown', application: 'unknown' }),
    row({ credits_nano: 5n, client_id: 'c', auth_method: 'api_key', actor_type: 'anonymous', application: 'unknown' }),
  ];
  const label = (r: AnalyticsRow): string => `${r.credits_nano}/${r.client_id}/${r.auth_method}/${r.actor_type}/${r.application}`;

  test('[G-AN-7] ties on auth_method, then actor_type, then application are ascending in that order', () => {
    assert.deepEqual([...tied].sort(compareTotalsRows).map(label), [
      '9/z/unknown/unknown/unknown',
      '5/b/unknown/unknown/unknown',
      '5/c/api_key/anonymous/unknown',
      '5/c/api_key/authenticated/svc-agents',
      '5/c/api_key/authenticated/third_party',
      '5/c/api_key/unknown/unknown',
      '5/c/okta/service/svc-agents',
    ]);
  });

  test('[G-AN-7] a server that orders actor_type before auth_method, or application before actor_type, is caught', () => {
    const actorFirst = [
      row({ credits_nano: 5n, auth_method: 'okta', actor_type: 'anonymous', application: 'unknown' }),
      row({ credits_nano: 5n, auth_method: 'api_key', actor_type: 'service', application: 'unknown' }),
    ];
    assert.equal(isInTotalsOrder(actorFirst), false);
    const applicationFirst = [
      row({ credits_nano: 5n, auth_method: 'api_key', actor_type: 'service', application: 'power-coworker' }),
      row({ credits_nano: 5n, auth_method: 'api_key', actor_type: 'anonymous', application: 'unknown' }),
    ];
    assert.equal(isInTotalsOrder(applicationFirst), false);
    const modelBeforeOperation = [row({ credits_nano: 5n, model: 'b', operation: 'a' }), row({ credits_nano: 5n, model: 'a', operation: 'b' })];
    assert.equal(isInTotalsOrder(modelBeforeOperation), false);
  });

  test('[G-AN-7] stitched rows are merged by all their dimensions and come out in the documented order', () => {
    const merged = mergeRows([
      [row({ credits_nano: 3n, auth_method: 'okta' }), row({ credits_nano: 3n, auth_method: 'api_key' })],
      [row({ credits_nano: 2n, auth_method: 'okta' }), row({ credits_nano: 5n, auth_method: 'browser_session' })],
    ]);
    assert.deepEqual(
      merged.map((r) => `${r.auth_method}:${r.credits_nano}:${r.requests}`),
      ['browser_session:5:1', 'okta:5:2', 'api_key:3:1'],
    );
  });
});

describe('long ranges from several documented windows', () => {
  const gw = useGateway({ now: () => new Date(NOW) });
  const opts = { baseUrl: () => gw().url, getJwt: async () => mintLocalJwt(), fetch: nodeFetch, userAgent: 'test', now: () => NOW };

  test('[G-AN-2] [G-AN-3] a 45-day range is two documented 1d windows, end of one = start of the next', () => {
    assert.deepEqual(splitWindow(nowSec - 45 * DAY, nowSec, '1d'), [
      { startTime: nowSec - 45 * DAY, endTime: nowSec - 15 * DAY },
      { startTime: nowSec - 15 * DAY, endTime: nowSec },
    ]);
    assert.throws(() => splitWindow(nowSec - 365 * DAY, nowSec, '10m'), /more than 60 requests/);
  });

  test('[G-AN-2] [G-AN-3] stitched 10-minute buckets over 2 days (unaligned start) equal one hourly answer: no gap, no double count', async () => {
    const start = nowSec - 2 * DAY - 7 * 60; // not on a bucket boundary: one bucket is cut between the parts
    const query = { projectId: LOCAL_PROJECT, startTime: start, endTime: nowSec, groupBy: ['model' as const] };
    const stitched = await fetchRange({ ...query, bucketWidth: '10m' }, { fetchOne: (q, s) => fetchAnalytics(opts, q, s) });
    const hourly = await fetchAnalytics(opts, { ...query, endTime: nowSec, bucketWidth: '1h' });
    assert.equal(stitched.totals.requests, hourly.totals.requests);
    assert.equal(stitched.totals.credits_nano, hourly.totals.credits_nano);
    assert.deepEqual(
      stitched.totals.models.map((m) => [m.model, m.credits_nano, m.requests]),
      hourly.totals.models.map((m) => [m.model, m.credits_nano, m.requests]),
    );
    const starts = stitched.buckets.map((b) => b.start);
    assert.equal(new Set(starts).size, starts.length, 'each bucket once');
    assert.equal(stitched.buckets.reduce((a, b) => a + b.credits_nano, 0n), hourly.totals.credits_nano);
  });

  test('at most RANGE_CONCURRENCY parts in flight; each part\'s retries are reported with the part; a refusal ends the range', async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    const reported: Array<[number, number]> = [];
    const empty = (s: number, e: number): AnalyticsResult => ({ bucket_width: '10m', window_start: new Date(s * 1000).toISOString(), window_end: new Date(e * 1000).toISOString(), totals: { credits_nano: 1n, requests: 1, models: [] }, buckets: [] });
    const result = await fetchRange(
      { projectId: 'p', startTime: 0, endTime: 10 * DAY, bucketWidth: '10m' },
      {
        fetchOne: async (q, _signal, onRetry) => {
          inFlight++;
          maxInFlight = Math.max(maxInFlight, inFlight);
          await new Promise((r) => setImmediate(r));
          inFlight--;
          // The client retries (analyticsClient.ts); the range only passes its callback on.
          if (q.startTime === 0) onRetry?.({ attempt: 1, delayMs: 250, error: new GatewayError({ reason: 'unavailable', status: 503, message: 'down' }) });
          return empty(q.startTime, q.endTime ?? 0);
        },
        onRetry: (part, info) => reported.push([part.startTime, info.delayMs]),
      },
    );
    assert.equal(result.totals.requests, 10);
    assert.deepEqual(reported, [[0, 250]]);
    assert.equal(maxInFlight, RANGE_CONCURRENCY);
    await assert.rejects(
      fetchRange({ projectId: 'p', startTime: 0, endTime: DAY, bucketWidth: '10m' }, { fetchOne: async () => Promise.reject(new GatewayError({ reason: 'invalid_request', status: 400, message: 'bad end_time' })) }),
      /bad end_time/,
    );
  });
});

describe('[G-AN-9] the analytics client retries by the user\'s retry settings (aiGateway.retry.*)', () => {
  const gw = useGateway({ now: () => new Date(NOW) });
  const waits: number[] = [];
  const clock: Clock = { now: () => 0, random: () => 0.5, sleep: async (ms) => void waits.push(ms) };
  let sent = 0;
  const requests = (): number => sent;
  const countingFetch: FetchLike = (url, init) => {
    sent++;
    return fetch(url, init);
  };
  const query = { projectId: LOCAL_PROJECT, startTime: nowSec - DAY };
  const opts = (retry: Partial<RetrySettings>) => ({ baseUrl: () => gw().url, getJwt: async () => mintLocalJwt(), fetch: countingFetch, userAgent: 'test', now: () => NOW, clock, retry: () => retry });

  test('a 503 is retried with back-off up to the configured maxAttempts, no more', async () => {
    for (const maxAttempts of [1, 2, 5]) {
      waits.length = 0;
      const before = requests();
      gw().faults.add({ kind: 'unavailable', route: '/v1/analytics', count: Infinity });
      const infos: number[] = [];
      const e = await fetchAnalytics(opts({ maxAttempts, baseDelayMs: 100, maxDelayMs: 1000 }), query, undefined, { onRetry: (i) => infos.push(i.attempt) }).catch((x: unknown) => x);
      gw().faults.clear();
      assert.ok(e instanceof GatewayError && e.status === 503, String(e));
      assert.equal(requests() - before, maxAttempts, `maxAttempts ${maxAttempts}`);
      assert.deepEqual(infos, Array.from({ length: maxAttempts - 1 }, (_, k) => k + 1));
      assert.equal(waits.length, maxAttempts - 1);
    }
  });

  test('after two 503s the third attempt\'s answer is returned; a refusal (403) is not retried', async () => {
    gw().faults.add({ kind: 'unavailable', route: '/v1/analytics', count: 2 });
    let before = requests();
    const r = await fetchAnalytics(opts({ maxAttempts: 4 }), query);
    assert.ok(r.totals.requests >= 0);
    assert.equal(requests() - before, 3);
    before = requests();
    const other = { ...opts({ maxAttempts: 4 }), getJwt: async () => mintLocalJwt({ account: 'acct_other' }) };
    await assert.rejects(fetchAnalytics(other, query), (e: unknown) => e instanceof GatewayError && e.status === 403);
    assert.equal(requests() - before, 1);
  });
});

describe('reconciliation against what the local gateway served', () => {
  const gw = useGateway({ now: () => new Date(NOW) });
  const opts = { baseUrl: () => gw().url, getJwt: async () => mintLocalJwt(), fetch: nodeFetch, userAgent: 'test', now: () => NOW };

  async function serve(ledger: SpendLedger, model: Model, text: string): Promise<void> {
    const res = await postJson(gw(), '/v1/chat/completions', { model: model.id, messages: [{ role: 'user', content: text }] }, LOCAL_KEYS.userFull);
    assert.equal(res.status, 200);
    const body = (await res.json()) as { usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number } };
    await ledger.append(spendEntry({ model: model.id, operation: 'chat', usage: body.usage, pricing: model.pricing, now: new Date(NOW) }));
  }

  test('analytics sum the served requests; the ledger matches; an injected billing difference is flagged with an explanation', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'recon-'));
    try {
      const ledger = new SpendLedger({ dir });
      const control = (body: unknown): Promise<Response> => fetch(`${gw().url}/__control/billing`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
      assert.equal((await control({ history: false })).status, 200);
      const models = ((await (await fetch(`${gw().url}/v1/models`, { headers: { Authorization: `Bearer ${LOCAL_KEYS.userFull}` } })).json()) as { data: Model[] }).data;
      const model = models.find((m) => m.id === 'openai/gpt-5.1');
      assert.ok(model?.pricing);
      await serve(ledger, model, 'hello there');
      await serve(ledger, model, 'a second, longer question about spend');
      const query = { projectId: LOCAL_PROJECT, startTime: nowSec - DAY, endTime: nowSec + 60, bucketWidth: '1d' as const, authMethod: 'api_key' as const, groupBy: ['model' as const] };
      const versions = new Map([[model.id, model.pricing.pricing_version]]);
      const first = await fetchAnalytics(opts, query);
      assert.equal(first.totals.requests, 2, 'analytics count exactly the two served requests');
      const clean = reconcile(await ledger.read(), first, versions);
      assert.equal(clean.length, 1);
      assert.equal(clean[0].flagged, false);
      assert.equal(clean[0].diffNano, 0n);
      assert.equal(clean[0].ledgerNano, first.totals.credits_nano);

      assert.equal((await control({ extraNanoPerRequest: '1000' })).status, 200);
      await serve(ledger, model, 'a third one');
      const billed = reconcile(await ledger.read(), await fetchAnalytics(opts, query), versions);
      assert.equal(billed[0].diffNano, 1000n);
      assert.equal(billed[0].flagged, true);
      assert.match(billed[0].explanation ?? '', /billed these requests differently/);

      const repriced = reconcile(await ledger.read(), await fetchAnalytics(opts, query), new Map([[model.id, 'a-later-version']]));
      assert.match(repriced[0].explanation ?? '', /Repricing: local replies were priced at pricing_version .*, the catalog is now at a-later-version/);
      const missing = reconcile({ entries: [], summaries: [] }, await fetchAnalytics(opts, query), versions);
      assert.match(missing[0].explanation ?? '', /^No local record/);
      assert.equal((await control({ extraNanoPerRequest: '1.5' })).status, 400);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('CSV export', () => {
  test('cells that a spreadsheet would run as a formula are defused; numbers stay numbers', () => {
    assert.equal(csvCell('=HYPERLINK("http://x")'), `"'=HYPERLINK(""http://x"")"`);
    assert.equal(csvCell('+1+2'), `"'+1+2"`);
    assert.equal(csvCell('-cmd'), `"'-cmd"`);
    assert.equal(csvCell('@SUM(A1)'), `"'@SUM(A1)"`);
    assert.equal(csvCell('\tx'), `"'\tx"`);
    assert.equal(csvCell('-0.5'), '-0.5');
    assert.equal(csvCell('a,b'), '"a,b"');
    assert.equal(csvCell('openai/gpt-5.1'), 'openai/gpt-5.1');
  });

  test('[G-AN-6] table and buckets: exact credits and nanocredits, documented order kept', () => {
    const result: AnalyticsResult = {
      bucket_width: '1h',
      window_start: '2026-11-22T00:00:00.000Z',
      window_end: '2026-11-22T02:00:00.000Z',
      totals: {
        credits_nano: 9_007_199_254_740_995n,
        requests: 3,
        models: [row({ model: '=evil', credits_nano: 9_007_199_254_740_993n, requests: 1 }), row({ model: 'a', credits_nano: 2n, requests: 2 })],
      },
      buckets: [{ start: '2026-11-22T00:00:00.000Z', credits_nano: 9_007_199_254_740_995n, requests: 3, models: [row({ model: 'a', credits_nano: 2n, requests: 2 })] }],
    };
    assert.equal(totalsCsv(result, ['model']), `model,requests,credits,credits_nano\r\n"'=evil",1,9007199.254740993,9007199254740993\r\na,2,0.000000002,2\r\n`);
    assert.equal(bucketsCsv(result, ['model']), `bucket_start,model,requests,credits,credits_nano\r\n2026-11-22T00:00:00.000Z,a,2,0.000000002,2\r\n`);
  });
});
