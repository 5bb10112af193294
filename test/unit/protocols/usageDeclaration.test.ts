/**
 * The Usage dashboard's protocol is declared once (src/protocol/usageProtocol.ts USAGE_TO_HOST,
 * HOST_TO_USAGE): both guards, both handler maps and the query request derive from it (#40.10). What
 * each guard must answer is written here by hand; each `@ts-expect-error` is a mistake that must not
 * compile (`npx tsc --noEmit -p .` fails on an unused one).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  answerUsage,
  HOST_TO_USAGE,
  isHostToUsageWebview,
  isUsageWebviewToHost,
  USAGE_TO_HOST,
  usageRequestClient,
  type HostToUsageWebview,
  type UsageHostHandlers,
  type UsagePageHandlers,
  type UsageWebviewToHost,
  type WireView,
} from '../../../src/protocol/usageProtocol';
import { checkProtocol, type Examples } from './declarationChecks';

const view: WireView = {
  source: 'ledger',
  windowStart: '2026-11-28T00:00:00Z',
  windowEnd: '2026-11-29T00:00:00Z',
  bucketWidth: '1h',
  dims: ['model'],
  total: { credits: '0.5', requests: 2 },
  rows: [{ dims: ['openai/gpt-5.1'], requests: 2, credits: '0.5' }],
  chart: { xs: [0], series: [{ label: 'openai/gpt-5.1', values: [0.5], exact: ['0.5'], requests: [2] }] },
};

const PAGE_EXAMPLES: Examples<UsageWebviewToHost> = {
  query: { type: 'query', request: { preset: 'week', groupBy: ['model'] }, rid: 4 },
  export: { type: 'export', what: 'buckets' },
  setToken: { type: 'setToken' },
};

const HOST_EXAMPLES: Examples<HostToUsageWebview> = {
  loading: { type: 'loading' },
  status: { type: 'status', message: 'Exported.' },
  error: { type: 'error', message: 'start is after end', param: 'start_time' },
  data: {
    type: 'data',
    parts: 1,
    gateway: { ...view, source: 'gateway' },
    ledger: view,
    gatewayNote: { message: 'No identity token is set.', credentialAction: true },
    skipped: 0,
    recon: [{ day: '2026-11-28', model: 'openai/gpt-5.1', ledger: '0.5', ledgerRequests: 2, gateway: '0.5', gatewayRequests: 2, diff: '0', flagged: false }],
    controls: { groupBy: ['model', 'operation'], filters: false, reason: 'The ledger records the model and the operation.' },
    rid: 4,
  },
};

checkProtocol({
  name: 'usage',
  page: { table: USAGE_TO_HOST, examples: PAGE_EXAMPLES, guard: isUsageWebviewToHost, optional: { query: ['rid'] } },
  host: { table: HOST_TO_USAGE, examples: HOST_EXAMPLES, guard: isHostToUsageWebview, optional: { error: ['param'], data: ['gateway', 'gatewayNote', 'controls', 'rid'] } },
  dispatched: [HOST_EXAMPLES.error, HOST_EXAMPLES.loading, HOST_EXAMPLES.data],
});

// ---------- what the compiler enforces ----------

const note = (): void => undefined;
const page: UsagePageHandlers = { loading: note, status: note, error: note, data: note };
const { error: _error, ...pageWithoutError } = page;
// @ts-expect-error -- the page's map misses `error`
const missingOnPage: UsagePageHandlers = pageWithoutError;
const { setToken: _setToken, ...hostWithoutSetToken } = {} as UsageHostHandlers;
// @ts-expect-error -- the host's map misses `setToken`
const missingOnHost: UsageHostHandlers = hostWithoutSetToken;
// @ts-expect-error -- `export` is a message, not a request
const notARequest = () => usageRequestClient(() => {}).send('export', { what: 'table' });
// @ts-expect-error -- a query is answered by `data`, not `status`
const wrongAnswer = () => answerUsage(PAGE_EXAMPLES.query, { type: 'status', message: 'x' });
// @ts-expect-error -- not one of the documented exports
const badExport: UsageWebviewToHost = { type: 'export', what: 'everything' };
void [missingOnPage, missingOnHost, notARequest, wrongAnswer, badExport];

test('[#40.10] usage: the answer to an older query is dropped; a refresh pushed without id is drawn', () => {
  const sent: UsageWebviewToHost[] = [];
  const requests = usageRequestClient((m) => sent.push(m));
  requests.send('query', { request: { preset: 'day' } });
  requests.send('query', { request: { preset: 'week' } });
  assert.deepEqual(sent, [{ type: 'query', request: { preset: 'day' }, rid: 1 }, { type: 'query', request: { preset: 'week' }, rid: 2 }]);
  const { rid: _rid, ...push } = HOST_EXAMPLES.data;
  const answerTo = (request: UsageWebviewToHost) => answerUsage(request as Extract<UsageWebviewToHost, { type: 'query' }>, push);
  assert.equal(requests.accept(answerTo(sent[0])), false, 'the day\'s answer after the week was asked for');
  assert.equal(requests.accept(answerTo(sent[1])), true);
  assert.equal(requests.accept(push), true, 'a refresh (no id)');
  assert.equal(requests.accept(HOST_EXAMPLES.loading), true);
});

test('[#40.10] usage: a query whose filters are not strings or whose preset is not documented is refused', () => {
  assert.equal(isUsageWebviewToHost({ type: 'query', request: { preset: 'year' } }), false);
  assert.equal(isUsageWebviewToHost({ type: 'query', request: { site: 7 } }), false);
  assert.equal(isUsageWebviewToHost({ type: 'query', request: { groupBy: [1] } }), false);
  assert.equal(isHostToUsageWebview({ ...HOST_EXAMPLES.data, ledger: { ...view, bucketWidth: '2h' } }), false);
});
