import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseAnalyticsResponse, recogniseAnalyticsShape, recogniseAnalyticsText } from '../../../src/core/usage/analytics';
import { fetchAnalytics } from '../../../src/core/usage/analyticsClient';
import { LOCAL_PROJECT, mintLocalJwt } from '../../localGateway/mcpJwt';
import { modesOf, resetModes } from '../../localGateway/modes';
import { useGateway } from '../gateway/helpers';

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
const nowSec = NOW / 1000;
const DAY = 86400;

/** A documented answer with the assumed names, written out here (not built by the code under test). */
const answer = (totals: string, bucket = '"start":"2026-11-21T00:00:00.000Z","credits_nano":5,"requests":1,"models":[]'): string =>
  `{"bucket_width":"1d","window_start":"2026-11-21T00:00:00.000Z","window_end":"2026-11-22T00:00:00.000Z","totals":{${totals}},"buckets":[{${bucket}}]}`;

describe('analytics answers in a shape the extension does not know (#39.11, #39.5)', () => {
  const gw = useGateway({ now: () => new Date(NOW) });
  const opts = { baseUrl: () => gw().url, getJwt: async () => mintLocalJwt(), fetch: (url: string, init: { method: string; headers: Record<string, string>; signal?: AbortSignal }) => fetch(url, init), userAgent: 'test', now: () => NOW, retry: () => ({ maxAttempts: 1 }) };
  const query = { projectId: LOCAL_PROJECT, startTime: nowSec - DAY, endTime: nowSec, bucketWidth: '1h' as const };

  test('[#39.11] another gateway\'s field names (request_count, start/end, bucket_start) are refused as unknown, never read as zeros', async () => {
    resetModes(gw().events);
    modesOf(gw().events).analytics = 'renamed';
    const e = await fetchAnalytics(opts, query).then(
      (r) => assert.fail(`read as figures: ${r.totals.requests} requests, window '${r.window_start}'`),
      (err: unknown) => err as Error,
    );
    assert.equal(e.name, 'AnalyticsShapeError');
    assert.match(e.message, /does not recognise/);
    assert.match(e.message, /not shown rather than shown as zeros/);
    assert.match(e.message, /"requests"|"window_start"|"window_end"/, 'names the field it looked for');
    resetModes(gw().events);
  });

  test('[#39.11] the assumed names are read as figures', async () => {
    resetModes(gw().events);
    const r = await fetchAnalytics(opts, query);
    assert.ok(r.totals.requests > 0);
    assert.ok(Date.parse(r.window_start) > 0 && Date.parse(r.window_end) > 0);
  });

  test('[#39.11] a missing request count, window bound or bucket start is a named problem, not 0 or empty', () => {
    const missingCount = recogniseAnalyticsText(answer('"credits_nano":5,"models":[]'));
    assert.equal(missingCount.kind, 'unrecognised');
    assert.match(missingCount.kind === 'unrecognised' ? missingCount.problems.join('|') : '', /totals has no request count "requests"/);
    const noBounds = recogniseAnalyticsText(answer('"credits_nano":5,"requests":1,"models":[]').replace('"window_start"', '"from"').replace('"window_end"', '"to"'));
    assert.equal(noBounds.kind, 'unrecognised');
    assert.match(noBounds.kind === 'unrecognised' ? noBounds.problems.join('|') : '', /window start "window_start".*"from"/);
    const noStart = recogniseAnalyticsText(answer('"credits_nano":5,"requests":1,"models":[]', '"ts":"2026-11-21T00:00:00Z","credits_nano":5,"requests":1,"models":[]'));
    assert.match(noStart.kind === 'unrecognised' ? noStart.problems.join('|') : '', /bucket start "start"/);
    const rowCount = recogniseAnalyticsText(answer('"credits_nano":5,"requests":1,"models":[{"model":"m","operation":"chat","credits_nano":5,"count":1}]'));
    assert.match(rowCount.kind === 'unrecognised' ? rowCount.problems.join('|') : '', /totals\.models\[0\] has no request count/);
    const fractional = recogniseAnalyticsText(answer('"credits_nano":5,"requests":1.5,"models":[]'));
    assert.equal(fractional.kind, 'unrecognised');
    assert.throws(() => parseAnalyticsResponse(answer('"credits_nano":5,"models":[]')), /does not recognise/);
    assert.equal(recogniseAnalyticsText(answer('"credits_nano":5,"requests":1,"models":[]')).kind, 'recognised');
  });

  test('[#39.5] credits_nano in exponent form (already rounded by the parser), fractional or unsafe is refused, never a figure', async () => {
    for (const v of ['9.007199254740993e15', '1e3', '12.0', '1.5', '"1.5"', '"1e3"', 'null', 'true']) {
      const shape = recogniseAnalyticsText(answer(`"credits_nano":${v},"requests":1,"models":[]`));
      assert.equal(shape.kind, 'unrecognised', v);
      assert.match(shape.kind === 'unrecognised' ? shape.problems.join('|') : '', /totals: "credits_nano" is not an exact integer/, v);
    }
    // An integer literal or a decimal-integer string is read exactly, beyond 2^53 too.
    for (const v of ['9007199254740993', '"9007199254740993"']) {
      const shape = recogniseAnalyticsText(answer(`"credits_nano":${v},"requests":1,"models":[]`));
      assert.equal(shape.kind === 'recognised' && shape.result.totals.credits_nano, 9007199254740993n, v);
    }
    // A parsed value that is not a safe integer is refused by the shape check too.
    const parsed = JSON.parse(answer('"credits_nano":9007199254740993,"requests":1,"models":[]')) as unknown;
    assert.equal(recogniseAnalyticsShape(parsed).kind, 'unrecognised');
    // From the local gateway in exponent form.
    resetModes(gw().events);
    modesOf(gw().events).analytics = 'unsafe_nano';
    await assert.rejects(fetchAnalytics(opts, query), /"credits_nano" is not an exact integer/);
    resetModes(gw().events);
  });
});
