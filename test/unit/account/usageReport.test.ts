import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { markdownCell, readableUtc, parseCustomWindow, parseUsageTime, presetWindow, renderUsageReport, USAGE_PRESETS } from '../../../src/core/account/usageReport';
import { buildAnalyticsParams, MAX_WINDOW_SECONDS, type AnalyticsResult, type AnalyticsRow } from '../../../src/core/usage/analytics';
import { fetchAnalytics } from '../../../src/core/usage/analyticsClient';
import { formatCredits } from '../../../src/core/pricing';
import { LOCAL_PROJECT, mintLocalJwt } from '../../localGateway/mcpJwt';
import { useGateway } from '../gateway/helpers';

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
const nowSec = NOW / 1000;

const row = (model: string, credits: bigint, requests: number, extra: Partial<AnalyticsRow> = {}): AnalyticsRow => ({ model, operation: 'chat', credits_nano: credits, requests, ...extra });

function result(models: AnalyticsRow[], buckets: AnalyticsResult['buckets'] = []): AnalyticsResult {
  return {
    bucket_width: '1h',
    window_start: '2026-11-21T12:00:00Z',
    window_end: '2026-11-22T12:00:00Z',
    totals: { credits_nano: models.reduce((a, m) => a + m.credits_nano, 0n), requests: models.reduce((a, m) => a + m.requests, 0), models },
    buckets,
  };
}

/** Table rows of the report section that starts with `heading` (header and separator excluded). */
function tableRows(md: string, heading: string): string[] {
  const section = md.split(heading)[1].split('\n## ')[0];
  return section.split('\n').filter((l) => l.startsWith('| ') && !/^[|\s:-]+$/.test(l)).slice(1);
}

describe('usage report view model', () => {
  test('[G-AN-2] each preset is the largest window its bucket width allows, ending now, and passes the client rules', () => {
    assert.deepEqual(
      USAGE_PRESETS.map((p) => p.bucketWidth),
      ['10m', '1h', '1d'],
    );
    for (const p of USAGE_PRESETS) {
      const w = presetWindow(p, NOW + 999);
      assert.equal(w.endTime, nowSec + 1, 'the end is whole seconds, exclusive, just after the current second');
      assert.equal(w.endTime - w.startTime, MAX_WINDOW_SECONDS[p.bucketWidth]);
      assert.doesNotThrow(() => buildAnalyticsParams({ projectId: 'p', ...w }, nowSec));
    }
  });

  test('[G-AN-3] a preset window holds a reply recorded earlier in the current second (the end is exclusive)', () => {
    // A reply recorded at 12:00:00.400 and a dashboard query at 12:00:00.900 (the usage journey's race).
    const recordedSec = Math.floor((NOW + 400) / 1000);
    for (const p of USAGE_PRESETS) {
      const w = presetWindow(p, NOW + 900);
      assert.ok(recordedSec >= w.startTime && recordedSec < w.endTime, `${p.label}: [${w.startTime}, ${w.endTime}) holds ${recordedSec}`);
    }
  });

  test('[G-AN-2] [G-AN-3] custom windows: absolute and relative times, empty end is now, too long or reversed is refused', () => {
    assert.deepEqual(parseUsageTime('2026-11-20', NOW), { seconds: Date.UTC(2026, 10, 20) / 1000 });
    assert.deepEqual(parseUsageTime('2026-11-20 08:30', NOW), { seconds: Date.UTC(2026, 10, 20, 8, 30) / 1000 });
    assert.deepEqual(parseUsageTime('2026-11-20T08:30+01:00', NOW), { seconds: Date.UTC(2026, 10, 20, 7, 30) / 1000 });
    assert.deepEqual(parseUsageTime('-6h', NOW), { seconds: nowSec - 6 * 3600 });
    assert.ok('error' in parseUsageTime('yesterday', NOW));
    assert.ok('error' in parseUsageTime('2026-02-31', NOW));
    assert.deepEqual(parseCustomWindow('-3d', '', '1h', NOW), { startTime: nowSec - 3 * 86400, endTime: nowSec, bucketWidth: '1h' });
    const tooLong = parseCustomWindow('-8d', '', '1h', NOW);
    assert.ok('error' in tooLong && /at most 7 days/.test(tooLong.error), JSON.stringify(tooLong));
    const reversed = parseCustomWindow('-1h', '-2h', '10m', NOW);
    assert.ok('error' in reversed && /after start_time/.test(reversed.error));
    const badEnd = parseCustomWindow('-1h', 'soon', '10m', NOW);
    assert.ok('error' in badEnd && badEnd.error.startsWith('End:'));
  });

  test('[G-AN-6] totals and rows are exact from bigint nanocredits, beyond 2^53', () => {
    const big = 9_007_199_254_740_993n; // 2^53 + 1: a double would print ...992
    const md = renderUsageReport({ projectId: 'proj_1', query: {}, result: result([row('openai/gpt-5.1', big, 3), row('qwen/qwen3-max', 1n, 1)]), fetchedAtMs: NOW });
    assert.ok(md.includes(`**${formatCredits(big + 1n)}**`), md);
    // Shown for the display language (#30.2): English groups thousands; every digit is kept.
    assert.ok(md.includes('**9,007,199.254740994 credits** in 4 requests.'), md);
    const rows = tableRows(md, '## Totals');
    assert.deepEqual(rows, ['| openai/gpt-5.1 | Chat | 9007199.254740993 | 3 |', '| qwen/qwen3-max | Chat | 0.000000001 | 1 |']);
  });

  test('[G-AN-7] rows keep the documented order; a server that breaks it is named and the rows are sorted', () => {
    const inOrder = [row('b', 9n, 1), row('a', 5n, 1), row('c', 5n, 1)];
    const md = renderUsageReport({ projectId: 'p', query: {}, result: result(inOrder), fetchedAtMs: NOW });
    assert.deepEqual(tableRows(md, '## Totals').map((r) => r.split(' | ')[0]), ['| b', '| a', '| c']);
    assert.ok(!md.includes('out of the documented order'));
    const shuffled = renderUsageReport({ projectId: 'p', query: {}, result: result([row('c', 5n, 1), row('b', 9n, 1), row('a', 5n, 1)]), fetchedAtMs: NOW });
    assert.deepEqual(tableRows(shuffled, '## Totals').map((r) => r.split(' | ')[0]), ['| b', '| a', '| c']);
    assert.ok(shuffled.includes('out of the documented order'));
  });

  test('[G-AN-5] [G-AN-8] columns follow group_by; an empty client_id reads as usage without a registered site', () => {
    const md = renderUsageReport({
      projectId: 'p',
      query: { groupBy: ['client_id', 'model'] },
      result: result([row('m', 7n, 2, { client_id: 'cl_site_blog' }), row('m', 3n, 1, { client_id: '' })]),
      fetchedAtMs: NOW,
    });
    assert.ok(md.includes('| Site | Model | Credits | Requests |'), md);
    const rows = tableRows(md, '## Totals');
    assert.equal(rows[0], '| cl\\_site\\_blog | m | 0.000000007 | 2 |');
    assert.equal(rows[1], '| *(no registered site)* | m | 0.000000003 | 1 |');
  });

  test('per-bucket totals list non-empty buckets and count the empty ones', () => {
    const buckets = [
      { start: '2026-11-22T10:00:00Z', credits_nano: 0n, requests: 0, models: [] },
      { start: '2026-11-22T11:00:00Z', credits_nano: 1_500_000_000n, requests: 12_345, models: [] },
    ];
    const md = renderUsageReport({ projectId: 'p', query: {}, result: result([row('m', 1_500_000_000n, 12_345)], buckets), fetchedAtMs: NOW });
    assert.deepEqual(tableRows(md, '## Per bucket'), ['| 2026-11-22 11:00 | 1.5 | 12,345 |']);
    assert.ok(md.includes('1 empty bucket of 1 hour not shown.'));
    const none = renderUsageReport({ projectId: 'p', query: {}, result: result([]), fetchedAtMs: NOW });
    assert.ok(none.includes('No usage in this window.') && none.includes('No bucket has usage.'));
  });

  test('[#41.10] times read as people write them (no milliseconds) and operation ids as words', () => {
    assert.equal(readableUtc('2026-11-22T11:00:00.000Z'), '2026-11-22 11:00');
    assert.equal(readableUtc('2026-11-22T11:00:07.250Z'), '2026-11-22 11:00:07');
    assert.equal(readableUtc('yesterday'), 'yesterday');
    const md = renderUsageReport({
      projectId: 'p',
      query: {},
      result: result([row('openai/gpt-image-1', 5n, 1, { operation: 'image' }), row('m', 3n, 1, { operation: 'chat-panel' }), row('n', 2n, 1, { operation: 'brand-new-op' })]),
      fetchedAtMs: NOW + 123,
    });
    assert.match(md, /^- Window: 2026-11-21 12:00 to 2026-11-22 12:00 \(UTC;/m);
    assert.match(md, /^- Fetched: 2026-11-22 12:00 UTC$/m);
    assert.doesNotMatch(md, /\d{2}:\d{2}:\d{2}\.\d{3}/, 'no time with milliseconds');
    assert.deepEqual(tableRows(md, '## Totals').map((l) => l.split(' | ')[1]), ['Image generation', 'AI Gateway Chat', 'brand-new-op'], 'an unknown id is shown as sent');
  });

  test('server text cannot inject markup or break a table row', () => {
    assert.equal(markdownCell('a|b<script>x</script>\n[l](u)'), 'a\\|b\\<script\\>x\\</script\\> \\[l\\](u)');
    const md = renderUsageReport({ projectId: 'p', query: {}, result: result([row('evil|<img src=x>', 1n, 1)]), fetchedAtMs: NOW });
    const rows = tableRows(md, '## Totals');
    assert.equal(rows.length, 1);
    assert.ok(!/(?<!\\)</.test(rows[0]), 'every < is escaped');
    assert.equal(rows[0].split(/(?<!\\)\|/).length, 6, 'four cells: the pipe in the model name is escaped');
  });
});

describe('usage report from the local gateway', () => {
  const gw = useGateway({ now: () => new Date(NOW) });

  test('[G-AN-6] [G-AN-7] a real 7-day report: exact total equals the sum of its rows and of its buckets', async () => {
    const w = presetWindow(USAGE_PRESETS[1], NOW);
    const query = { projectId: LOCAL_PROJECT, ...w };
    const r = await fetchAnalytics({ baseUrl: () => gw().url, getJwt: async () => mintLocalJwt(), fetch: (url, init) => fetch(url, init), userAgent: 'test', now: () => NOW }, query);
    const md = renderUsageReport({ projectId: LOCAL_PROJECT, query, result: r, fetchedAtMs: NOW });
    assert.ok(r.totals.credits_nano > BigInt(Number.MAX_SAFE_INTEGER));
    assert.ok(md.includes(`**${formatCredits(r.totals.credits_nano)}**`));
    const credit = (line: string) => {
      const cells = line.split(' | ');
      const [int, frac = ''] = cells[cells.length - 2].split('.');
      return BigInt(int) * 1_000_000_000n + BigInt(frac.padEnd(9, '0'));
    };
    const rows = tableRows(md, '## Totals');
    assert.equal(rows.length, r.totals.models.length);
    assert.equal(rows.map(credit).reduce((a, b) => a + b, 0n), r.totals.credits_nano);
    assert.equal(tableRows(md, '## Per bucket').map(credit).reduce((a, b) => a + b, 0n), r.totals.credits_nano);
    assert.ok(!md.includes('out of the documented order'));
  });
});
