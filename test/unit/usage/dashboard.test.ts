import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ledgerGroupBy, ledgerResult, resolveRequest, toWireView } from '../../../src/core/usage/dashboard';
import { spendEntry } from '../../../src/core/spend/ledger';
import { bucketsCsv, totalsCsv } from '../../../src/core/usage/csv';

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
const nowSec = NOW / 1000;

describe('usage dashboard requests', () => {
  test('[G-AN-2] presets: 24 h by 10 minutes, 7 days by hour, 30 days by day, each one documented window', () => {
    assert.deepEqual(resolveRequest({ preset: 'day' }, NOW), { startTime: nowSec + 1 - 86400, endTime: nowSec + 1, bucketWidth: '10m', groupBy: ['model', 'operation'], parts: 1 });
    assert.deepEqual(resolveRequest({ preset: 'week' }, NOW), { startTime: nowSec + 1 - 7 * 86400, endTime: nowSec + 1, bucketWidth: '1h', groupBy: ['model', 'operation'], parts: 1 });
    assert.deepEqual(resolveRequest({ preset: 'month' }, NOW), { startTime: nowSec + 1 - 30 * 86400, endTime: nowSec + 1, bucketWidth: '1d', groupBy: ['model', 'operation'], parts: 1 });
  });

  test('[G-AN-2] [G-AN-3] a custom window beyond the maximum becomes several documented windows; errors name the parameter', () => {
    const r = resolveRequest({ start: '-45d', width: '1d' }, NOW);
    assert.ok(!('error' in r));
    assert.equal(r.parts, 2);
    assert.deepEqual(resolveRequest({ start: '-1d', end: '-2d', width: '1h' }, NOW), { error: 'The end must be after the start (start inclusive, end exclusive).', param: 'end_time' });
    assert.equal((resolveRequest({ start: '-1d', width: '2h' }, NOW) as { param: string }).param, 'bucket_width');
    assert.equal((resolveRequest({ start: 'yesterday', width: '1h' }, NOW) as { param: string }).param, 'start_time');
    assert.equal((resolveRequest({ start: '-400d', width: '10m' }, NOW) as { param: string }).param, 'bucket_width');
  });

  test('[G-AN-4] [G-AN-5] filters take only documented values; group_by is a de-duplicated multi-select', () => {
    assert.deepEqual((resolveRequest({ preset: 'day', authMethod: 'password' }, NOW) as { param: string }).param, 'auth_method');
    assert.deepEqual((resolveRequest({ preset: 'day', actorType: 'robot' }, NOW) as { param: string }).param, 'actor_type');
    assert.deepEqual((resolveRequest({ preset: 'day', application: 'x' }, NOW) as { param: string }).param, 'application');
    assert.deepEqual((resolveRequest({ preset: 'day', groupBy: ['model', 'tenant'] }, NOW) as { param: string }).param, 'group_by');
    const ok = resolveRequest({ preset: 'day', authMethod: 'api_key', actorType: 'service', application: 'third_party', groupBy: ['application', 'model', 'application'], site: ' cl_site_blog ' }, NOW);
    assert.deepEqual(ok, { startTime: nowSec + 1 - 86400, endTime: nowSec + 1, bucketWidth: '10m', authMethod: 'api_key', actorType: 'service', application: 'third_party', groupBy: ['application', 'model'], site: 'cl_site_blog', parts: 1 });
  });

  test('the ledger as a chart: buckets by width, stacked by model, exact credits for the tooltip', () => {
    const usage = { prompt_tokens: 1000, completion_tokens: 333, total_tokens: 1333 };
    const pricing = { input_per_million: '0.15', output_per_million: '0.6', pricing_version: 'v1', unit: 'credits' };
    const at = (iso: string, model: string) => spendEntry({ model, operation: 'chat', usage, pricing, now: new Date(iso) });
    const read = { entries: [at('2026-11-22T10:05:00Z', 'a'), at('2026-11-22T10:59:59Z', 'b'), at('2026-11-22T11:00:00Z', 'a'), at('2026-11-22T12:00:00Z', 'a')], summaries: [], skipped: 0 };
    const view = toWireView(ledgerResult(read, { startTime: nowSec - 3 * 3600, endTime: nowSec, bucketWidth: '1h' }), 'ledger', ['model']);
    assert.deepEqual(view.chart.xs, [Date.UTC(2026, 10, 22, 10) / 1000, Date.UTC(2026, 10, 22, 11) / 1000]);
    assert.deepEqual(
      view.chart.series.map((s) => [s.label, s.exact, s.requests]),
      [
        ['a', ['0.0003498', '0.0003498'], [1, 1]],
        ['b', ['0.0003498', '0'], [1, 0]],
      ],
    );
    assert.deepEqual(view.total, { credits: '0.0010494', requests: 3 });
  });

  test('[#41.7] the ledger honours a grouping by its own dimensions: model, operation, or both in the order chosen', () => {
    assert.deepEqual(ledgerGroupBy(['site_id', 'operation', 'auth_method']), ['operation']);
    assert.deepEqual(ledgerGroupBy(['operation', 'model']), ['operation', 'model']);
    assert.deepEqual(ledgerGroupBy(['client_id']), ['model', 'operation'], 'none of its own: model and operation');
    assert.deepEqual(ledgerGroupBy([]), ['model', 'operation']);

    // Each entry: 1000 prompt tokens at 0.15/M + 333 completion at 0.6/M = 0.00015 + 0.0001998 = 0.0003498 credits.
    const usage = { prompt_tokens: 1000, completion_tokens: 333, total_tokens: 1333 };
    const pricing = { input_per_million: '0.15', output_per_million: '0.6', pricing_version: 'v1', unit: 'credits' };
    const at = (iso: string, model: string, operation: string, estimated?: 'stopped') => spendEntry({ model, operation, usage, pricing, now: new Date(iso), ...(estimated ? { estimated } : {}) });
    const read = {
      entries: [at('2026-11-22T10:05:00Z', 'a', 'chat-panel'), at('2026-11-22T10:10:00Z', 'a', 'rewrite'), at('2026-11-22T10:15:00Z', 'b', 'chat-panel'), at('2026-11-22T11:05:00Z', 'b', 'chat-panel', 'stopped')],
      summaries: [],
      skipped: 0,
    };
    const window = { startTime: nowSec - 3 * 3600, endTime: nowSec, bucketWidth: '1h' as const };
    const rows = (dims: ReturnType<typeof ledgerGroupBy>) => toWireView(ledgerResult(read, window, dims), 'ledger', dims).rows.map((r) => [...r.dims, r.requests, r.credits]);

    assert.deepEqual(rows(['operation']), [
      ['chat-panel', 2, '0.0006996'],
      ['chat-panel (estimated)', 1, '0.0003498'],
      ['rewrite', 1, '0.0003498'],
    ]);
    assert.deepEqual(rows(['model']), [
      ['a', 2, '0.0006996'],
      ['b', 1, '0.0003498'],
      ['b (estimated)', 1, '0.0003498'],
    ]);
    // Columns in the order chosen; rows in the documented totals order (credits, then model, then operation).
    assert.deepEqual(rows(['operation', 'model']), [
      ['chat-panel', 'a', 1, '0.0003498'],
      ['rewrite', 'a', 1, '0.0003498'],
      ['chat-panel', 'b', 1, '0.0003498'],
      ['chat-panel (estimated)', 'b', 1, '0.0003498'],
    ]);
    // The chart stacks by the first dimension chosen, its series named in words [#41.10].
    assert.deepEqual(toWireView(ledgerResult(read, window, ['operation']), 'ledger', ['operation']).chart.series.map((s) => [s.label, s.requests]), [
      ['AI Gateway Chat', [2, 0]],
      ['AI Gateway Chat (estimated)', [0, 1]],
      ['Rewrite Selection', [1, 0]],
    ]);
  });

  test('[#41.10] the CSV keeps the operation id for scripts and adds its words in operation_name; ledger times carry no milliseconds', () => {
    const usage = { prompt_tokens: 1000, completion_tokens: 333, total_tokens: 1333 };
    const pricing = { input_per_million: '0.15', output_per_million: '0.6', pricing_version: 'v1', unit: 'credits' };
    const read = { entries: [spendEntry({ model: 'a', operation: 'image-generation', usage, pricing, now: new Date('2026-11-22T10:05:00.123Z') })], summaries: [], skipped: 0 };
    const result = ledgerResult(read, { startTime: nowSec - 3 * 3600, endTime: nowSec, bucketWidth: '1h' });
    assert.equal(totalsCsv(result, ['model', 'operation']), 'model,operation,operation_name,requests,credits,credits_nano\r\na,image-generation,Image generation,1,0.0003498,349800\r\n');
    assert.equal(bucketsCsv(result, ['operation']), 'bucket_start,operation,operation_name,requests,credits,credits_nano\r\n2026-11-22T10:00:00Z,image-generation,Image generation,1,0.0003498,349800\r\n');
    assert.equal(result.window_start, '2026-11-22T09:00:00Z');
  });
});
