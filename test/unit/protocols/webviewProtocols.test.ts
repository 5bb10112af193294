/**
 * The usage, media and tools webview protocols (src/protocol/<view>Protocol.ts): each guard accepts every
 * well-formed message of its direction and refuses malformed ones (a required field missing or of the
 * wrong type, an unknown type, a non-object), so neither side acts on what the other never meant.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { toWireView } from '../../../src/core/usage/dashboard';
import type { AnalyticsResult } from '../../../src/core/usage/analytics';
import {
  ACTOR_TYPES,
  BUCKET_WIDTHS,
  DASHBOARD_PRESETS,
  USAGE_EXPORTS,
  isHostToUsageWebview,
  isUsageWebviewToHost,
  type HostToUsageWebview,
  type UsageWebviewToHost,
  type WireView,
} from '../../../src/protocol/usageProtocol';
import { isCompareWebviewToHost, isHostToCompareWebview, type CompareWebviewToHost, type HostToCompareWebview } from '../../../src/protocol/compareProtocol';
import { isHostToMediaWebview, isMediaWebviewToHost, type HostToMediaWebview } from '../../../src/protocol/mediaProtocol';
import { isHostToWebview as isHostToTools, isWebviewToHost as isToolsToHost, type CallView, type HostToWebview as HostToTools } from '../../../src/protocol/toolsProtocol';

const str = fc.string({ maxLength: 12 });
const num = fc.double({ noNaN: true, noDefaultInfinity: true });
const nat = fc.nat();

// ---------- usage ----------

const wireView: fc.Arbitrary<WireView> = fc.record({
  source: fc.constantFrom('gateway' as const, 'ledger' as const),
  windowStart: str,
  windowEnd: str,
  bucketWidth: fc.constantFrom(...BUCKET_WIDTHS),
  dims: fc.array(str, { maxLength: 3 }),
  total: fc.record({ credits: str, requests: nat }),
  rows: fc.array(fc.record({ dims: fc.array(str, { maxLength: 3 }), requests: nat, credits: str }), { maxLength: 3 }),
  chart: fc.record({ xs: fc.array(num, { maxLength: 4 }), series: fc.array(fc.record({ label: str, values: fc.array(num, { maxLength: 4 }), exact: fc.array(str, { maxLength: 4 }), requests: fc.array(nat, { maxLength: 4 }) }), { maxLength: 3 }) }),
});
const recon = fc.record(
  { day: str, model: str, ledger: str, ledgerRequests: nat, gateway: str, gatewayRequests: nat, diff: str, flagged: fc.boolean(), explanation: str },
  { requiredKeys: ['day', 'model', 'ledger', 'ledgerRequests', 'gateway', 'gatewayRequests', 'diff', 'flagged'] },
);
const hostToUsage: fc.Arbitrary<HostToUsageWebview> = fc.oneof(
  fc.constant({ type: 'loading' as const }),
  fc.record({ type: fc.constant('status' as const), message: str }),
  fc.record({ type: fc.constant('error' as const), message: str, param: str }, { requiredKeys: ['type', 'message'] }),
  fc.record(
    {
      type: fc.constant('data' as const),
      parts: nat,
      gateway: wireView,
      ledger: wireView,
      gatewayNote: fc.record({ message: str, credentialAction: fc.boolean(), param: str }, { requiredKeys: ['message'] }),
      skipped: nat,
      recon: fc.array(recon, { maxLength: 3 }),
    },
    { requiredKeys: ['type', 'parts', 'ledger', 'skipped', 'recon'] },
  ),
);
const usageToHost: fc.Arbitrary<UsageWebviewToHost> = fc.oneof(
  fc.record({
    type: fc.constant('query' as const),
    request: fc.record(
      { preset: fc.constantFrom(...DASHBOARD_PRESETS), start: str, end: str, width: str, authMethod: str, actorType: fc.constantFrom('', ...ACTOR_TYPES), application: str, groupBy: fc.array(str, { maxLength: 3 }), site: str },
      { requiredKeys: [] },
    ),
  }),
  fc.record({ type: fc.constant('export' as const), what: fc.constantFrom(...USAGE_EXPORTS) }),
  fc.constant({ type: 'setToken' as const }),
);

// ---------- media ----------

const hostToMedia: fc.Arbitrary<HostToMediaWebview> = fc.oneof(
  fc.record(
    {
      type: fc.constant('image' as const),
      images: fc.array(fc.record({ dataUri: str, revisedPrompt: str }, { requiredKeys: ['dataUri'] }), { minLength: 1, maxLength: 3 }),
      prompt: str,
      model: str,
      size: str,
      canInsert: fc.boolean(),
      insertLabel: str,
    },
    { requiredKeys: ['type', 'images', 'prompt', 'model', 'canInsert', 'insertLabel'] },
  ),
  fc.record({ type: fc.constant('audio' as const), dataUri: str, model: str, voice: str, characters: nat, text: str }, { requiredKeys: ['type', 'dataUri', 'model', 'characters', 'text'] }),
  fc.record({ type: fc.constant('status' as const), text: str, busy: fc.boolean() }),
);

// ---------- tools ----------

const callView: fc.Arbitrary<CallView> = fc.record({
  id: str,
  tool: str,
  args: fc.dictionary(str, fc.jsonValue(), { maxKeys: 3 }),
  startedAt: nat,
  durationMs: nat,
  requestIds: fc.array(str, { maxLength: 2 }),
});
const toolView = fc.record({ serverId: str, serverLabel: str, name: str, inputSchema: fc.dictionary(str, fc.jsonValue(), { maxKeys: 3 }), readOnly: fc.boolean() });
const hostToTools: fc.Arbitrary<HostToTools> = fc.oneof(
  fc.record({ type: fc.constant('init' as const), tool: toolView, args: fc.dictionary(str, fc.jsonValue(), { maxKeys: 2 }), history: fc.array(callView, { maxLength: 2 }) }, { requiredKeys: ['type', 'tool', 'history'] }),
  fc.record({ type: fc.constant('running' as const), args: fc.dictionary(str, fc.jsonValue(), { maxKeys: 2 }) }),
  fc.record({ type: fc.constant('invalidArgs' as const), issues: fc.array(fc.record({ path: str, message: str }), { maxLength: 3 }) }),
  fc.record({ type: fc.constant('result' as const), call: callView }),
  fc.record({ type: fc.constant('notRun' as const), reason: str }),
  fc.record({ type: fc.constant('history' as const), history: fc.array(callView, { maxLength: 2 }) }),
  fc.record({ type: fc.constant('needsUserKey' as const), text: str }, { requiredKeys: ['type'] }),
);

/** Every way to break a well-formed message: drop a required key, or give a key a value of another type. */
function breakings(m: Record<string, unknown>, required: (m: Record<string, unknown>) => string[]): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  for (const k of required(m)) {
    const { [k]: _dropped, ...rest } = m;
    out.push(rest);
    const wrong = typeof m[k] === 'string' ? 42 : typeof m[k] === 'number' ? '42' : typeof m[k] === 'boolean' ? 'yes' : Array.isArray(m[k]) ? 'list' : 7;
    out.push({ ...m, [k]: wrong });
  }
  out.push({ ...m, type: 'noSuchMessage' });
  return out;
}
const everyKey = (m: Record<string, unknown>): string[] => Object.keys(m).filter((k) => k !== 'type' && m[k] !== undefined);
const GARBAGE = [null, undefined, 'loading', 42, [], [{ type: 'loading' }], { type: 42 }];

function checkGuard<T>(name: string, guard: (x: unknown) => boolean, good: fc.Arbitrary<T>, required: (m: Record<string, unknown>) => string[]): void {
  test(`${name} accepts every well-formed message (also after a JSON round trip)`, () => {
    fc.assert(fc.property(good, (m) => guard(m) && guard(JSON.parse(JSON.stringify(m)))));
  });
  test(`${name} refuses a message with a required field missing or of the wrong type, an unknown type, or no object`, () => {
    fc.assert(
      fc.property(good, (m) => {
        for (const bad of breakings(m as Record<string, unknown>, required)) assert.equal(guard(bad), false, JSON.stringify(bad));
      }),
    );
    for (const g of GARBAGE) assert.equal(guard(g), false, String(g));
  });
}

describe('usage protocol', () => {
  checkGuard('isHostToUsageWebview', isHostToUsageWebview, hostToUsage, (m) => (m.type === 'data' ? ['parts', 'ledger', 'skipped', 'recon'] : m.type === 'error' || m.type === 'status' ? ['message'] : []));
  checkGuard('isUsageWebviewToHost', isUsageWebviewToHost, usageToHost, (m) => (m.type === 'query' ? ['request'] : m.type === 'export' ? ['what'] : []));

  test('the host\'s own view of a real answer passes the page\'s guard', () => {
    const result: AnalyticsResult = {
      bucket_width: '1h',
      window_start: '2026-11-22T00:00:00Z',
      window_end: '2026-11-22T02:00:00Z',
      totals: { credits_nano: 3_000_000_000n, requests: 3, models: [{ model: 'm1', operation: 'chat', credits_nano: 3_000_000_000n, requests: 3 }] },
      buckets: [{ start: '2026-11-22T00:00:00Z', credits_nano: 3_000_000_000n, requests: 3, models: [{ model: 'm1', operation: 'chat', credits_nano: 3_000_000_000n, requests: 3 }] }],
    };
    const ledger = toWireView(result, 'ledger', ['model', 'operation']);
    assert.ok(isHostToUsageWebview(JSON.parse(JSON.stringify({ type: 'data', parts: 1, ledger, skipped: 0, recon: [] }))));
  });

  test('a query whose filters are not strings, or an export of something else, is refused', () => {
    assert.equal(isUsageWebviewToHost({ type: 'query', request: { groupBy: ['model', 3] } }), false);
    assert.equal(isUsageWebviewToHost({ type: 'query', request: { preset: 'year' } }), false);
    assert.equal(isUsageWebviewToHost({ type: 'query', request: { site: { toString: 'x' } } }), false);
    assert.equal(isUsageWebviewToHost({ type: 'export', what: '../../etc/passwd' }), false);
    assert.equal(isHostToUsageWebview({ type: 'data', parts: 1, ledger: { source: 'ledger' }, skipped: 0, recon: [] }), false);
  });
});

describe('media protocol', () => {
  checkGuard('isHostToMediaWebview', isHostToMediaWebview, hostToMedia, (m) =>
    m.type === 'image' ? ['images', 'prompt', 'model', 'canInsert', 'insertLabel'] : m.type === 'audio' ? ['dataUri', 'model', 'characters', 'text'] : ['text', 'busy'],
  );

  test('an image message whose images are not {dataUri} objects is refused', () => {
    const ok = { type: 'image', images: [{ dataUri: 'data:image/png;base64,AA' }], prompt: 'p', model: 'm', canInsert: false, insertLabel: 'Insert' };
    assert.ok(isHostToMediaWebview(ok));
    assert.equal(isHostToMediaWebview({ ...ok, images: ['data:image/png;base64,AA'] }), false);
    assert.equal(isHostToMediaWebview({ ...ok, images: [{ dataUri: 1 }] }), false);
    assert.equal(isMediaWebviewToHost({ type: 'save', index: -1 }), false);
  });
});

describe('tools protocol', () => {
  checkGuard('isHostToWebview (tools)', isHostToTools, hostToTools, (m) => (m.type === 'needsUserKey' ? [] : everyKey(m).filter((k) => !(m.type === 'init' && k === 'args'))));

  test('the webview-to-host guard still refuses what it refused', () => {
    assert.ok(isToolsToHost({ type: 'run', args: {} }));
    assert.equal(isToolsToHost({ type: 'run', args: [] }), false);
    assert.equal(isToolsToHost({ type: 'copy', format: 'wget', args: {} }), false);
  });
});

// ---------- compare ----------

const idx = fc.nat({ max: 999_999 });
const stats = fc.record({ ttftMs: num, totalMs: num, promptTokens: nat, completionTokens: nat, reasoningTokens: nat, totalTokens: nat, credits: str }, { requiredKeys: ['totalMs'] });
const hostToCompare: fc.Arbitrary<HostToCompareWebview> = fc.oneof(
  fc.record({
    type: fc.constant('init' as const),
    models: fc.array(fc.record({ id: str, label: str, deprecated: fc.boolean(), rates: str }), { maxLength: 3 }),
    selected: fc.array(str, { maxLength: 3 }),
    systemPrompt: str,
    attachments: fc.array(fc.record({ label: str, chars: idx }), { maxLength: 2 }),
  }),
  fc.record({ type: fc.constant('attachments' as const), attachments: fc.array(fc.record({ label: str, chars: idx }), { maxLength: 2 }) }),
  fc.record({ type: fc.constant('estimate' as const), total: str, perModel: fc.array(fc.record({ model: str, text: str }), { maxLength: 3 }), counted: fc.boolean(), note: str }, { requiredKeys: ['type', 'perModel', 'counted'] }),
  fc.record({ type: fc.constant('started' as const), runId: idx, columns: fc.array(fc.record({ model: str, label: str }), { maxLength: 4 }) }),
  fc.record({ type: fc.constant('delta' as const), runId: idx, column: idx, text: str }),
  fc.record({ type: fc.constant('columnDone' as const), runId: idx, column: idx, status: fc.constantFrom('streaming' as const, 'done' as const, 'stopped' as const, 'error' as const), stats, error: str }, { requiredKeys: ['type', 'runId', 'column', 'status', 'stats'] }),
  fc.record({ type: fc.constant('runDone' as const), runId: idx, totalCredits: str }, { requiredKeys: ['type', 'runId'] }),
  fc.record({ type: fc.constant('notice' as const), message: str }),
);
const models = fc.array(fc.string({ minLength: 1, maxLength: 12 }), { maxLength: 4 });
const compareToHost: fc.Arbitrary<CompareWebviewToHost> = fc.oneof(
  fc.constant({ type: 'ready' as const }),
  fc.constant({ type: 'stop' as const }),
  fc.constant({ type: 'attach' as const }),
  fc.record({ type: fc.constant('estimate' as const), models, prompt: str, systemPrompt: str }),
  fc.record({ type: fc.constant('send' as const), models, prompt: str, systemPrompt: str }),
  fc.record({ type: fc.constant('removeAttachment' as const), index: idx }),
  fc.record({ type: fc.constant('continueInChat' as const), runId: idx, column: idx }),
  fc.record({ type: fc.constant('openLink' as const), href: str }),
);

describe('[#31.5] compare protocol', () => {
  checkGuard('isHostToCompareWebview', isHostToCompareWebview, hostToCompare, (m) => everyKey(m).filter((k) => !['total', 'note', 'error', 'totalCredits'].includes(k)));
  checkGuard('isCompareWebviewToHost', isCompareWebviewToHost, compareToHost, everyKey);

  test('[#31.5] more than four models, a negative column or an oversized prompt is refused', () => {
    assert.equal(isCompareWebviewToHost({ type: 'send', models: ['a', 'b', 'c', 'd', 'e'], prompt: 'x', systemPrompt: '' }), false);
    assert.equal(isCompareWebviewToHost({ type: 'continueInChat', runId: 1, column: -1 }), false);
    assert.equal(isCompareWebviewToHost({ type: 'send', models: ['a', 'b'], prompt: 'x'.repeat(200_001), systemPrompt: '' }), false);
  });
});
