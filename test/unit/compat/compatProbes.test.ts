/**
 * [#39.15] The compatibility check's probes against the local gateway: each assumption held on the
 * documented shape, not held when the gateway is armed to answer in another plausible shape
 * (test/localGateway/shapeModes.ts), and not checked (with the reason) when what it needs is missing.
 * The check only reads: its one write-shaped request is MCP initialize/tools/list, and at most one
 * messages request, sent on a zero-cost model or only after approval.
 */
import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startGateway, type RunningGateway } from '../../localGateway/server';
import { LOCAL_KEYS } from '../../localGateway/keys';
import { HOSTING_IDS, HOSTING_USERS } from '../../localGateway/hosting';
import { LOCAL_PROJECT, mintLocalJwt } from '../../localGateway/mcpJwt';
import type { Model } from '../../localGateway/wire';
import { runCompatCheck, type CompatCheckDeps } from '../../../src/core/compat/compatCheck';
import type { BilledOffer } from '../../../src/core/compat/messagesProbe';
import type { ProbeFetch } from '../../../src/core/compat/probeHttp';
import type { AssumptionId } from '../../../src/core/compat/assumptions';
import type { Finding } from '../../../src/core/compat/report';
import { HostingClient } from '../../../src/core/account/hostingClient';
import { fetchAnalytics } from '../../../src/core/usage/analyticsClient';

interface Sent {
  method: string;
  path: string;
  rpc?: string;
}

const HOSTING_PASSWORD = HOSTING_USERS.owner.password;

let gw: RunningGateway;
before(async () => {
  gw = await startGateway();
});
after(async () => {
  await gw.close();
});
afterEach(() => gw.reset());

/** Global fetch, recording every request the check sends (method, path, JSON-RPC method). */
function recordingFetch(sent: Sent[]): ProbeFetch {
  return async (url, init) => {
    let rpc: string | undefined;
    if (init.body) {
      try {
        const b = JSON.parse(init.body) as { method?: unknown };
        if (typeof b.method === 'string') rpc = b.method;
      } catch {
        /* not JSON */
      }
    }
    sent.push({ method: init.method, path: new URL(url).pathname, ...(rpc ? { rpc } : {}) });
    return fetch(url, init);
  };
}

function deps(sent: Sent[], overrides: Partial<CompatCheckDeps> = {}): CompatCheckDeps {
  return {
    gatewayUrl: gw.url,
    fetch: recordingFetch(sent),
    userAgent: 'compat-test',
    clientVersion: '0.0.0-test',
    getKey: async () => LOCAL_KEYS.userFull,
    getJwt: async () => mintLocalJwt(),
    analyticsProjectId: LOCAL_PROJECT,
    hostingUrl: `${gw.url}/hosting`,
    getHostingCredentials: async () => ({ username: 'owner', password: HOSTING_PASSWORD }),
    installId: HOSTING_IDS.installNormal,
    approve: async () => false,
    ...overrides,
  };
}

async function check(overrides: Partial<CompatCheckDeps> = {}, sent: Sent[] = []): Promise<Map<AssumptionId, Finding>> {
  const { report } = await runCompatCheck(deps(sent, overrides), new AbortController().signal);
  return new Map(report.findings.map((f) => [f.id, f]));
}

async function arm(mode: string): Promise<void> {
  const res = await fetch(`${gw.url}/__control/shapes`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ mode }) });
  assert.equal(res.status, 200, await res.text());
}

/** Arms an answer-shape mode of the local gateway (test/localGateway/modes.ts). */
async function mode(patch: Record<string, string>): Promise<void> {
  const res = await fetch(`${gw.url}/__control/modes`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(patch) });
  assert.equal(res.status, 200, await res.text());
}

/** Does the product itself (Edit Cache Exclusions' client) accept the current exclusions read? */
async function productAcceptsExclusions(): Promise<boolean> {
  const client = new HostingClient({ baseUrl: () => `${gw.url}/hosting`, getCredentials: async () => ({ username: 'owner', password: HOSTING_PASSWORD }), fetch: (u, i) => fetch(u, i), userAgent: 'compat-test' });
  return client.getCacheExclusions(HOSTING_IDS.installNormal).then(
    () => true,
    (e: Error) => (assert.equal(e.name, 'ExclusionsReadUnrecognisedError', e.message), false),
  );
}

/** Does the product itself (the usage dashboard's client) accept the current analytics answer? */
async function productAcceptsAnalytics(): Promise<boolean> {
  const nowSec = Math.floor(Date.now() / 1000);
  return fetchAnalytics({ baseUrl: () => gw.url, getJwt: async () => mintLocalJwt(), fetch: (u, i) => fetch(u, i), userAgent: 'compat-test' }, { projectId: LOCAL_PROJECT, startTime: nowSec - 86_400, bucketWidth: '1d' }).then(
    () => true,
    (e: Error) => (assert.equal(e.name, 'AnalyticsShapeError', e.message), false),
  );
}

const FREE_MESSAGES_MODEL: Model = {
  id: 'local/free-messages',
  object: 'model',
  owned_by: 'Local',
  provider: 'anthropic',
  display_name: 'Free messages model',
  capabilities: ['messages'],
  pricing: { input_per_million: '0', output_per_million: '0', pricing_version: '2025-11-01', unit: 'credits' },
} as Model;

describe('[#39.15] compatibility probes on the documented shapes', () => {
  test('[#39.15] every assumption holds against the local gateway when everything is configured and a zero-cost model exists', async () => {
    gw.configure({ extraModels: [FREE_MESSAGES_MODEL] });
    let asked = 0;
    const f = await check({ approve: async () => (asked++, true) });
    for (const [id, finding] of f) assert.equal(finding.verdict, 'held', `${id}: ${finding.found}`);
    assert.equal(f.size, 11);
    assert.equal(asked, 0, 'a zero-cost model needs no approval');
    assert.match(f.get('catalog.envelope')!.found, /"list" with \d+ models/);
    assert.match(f.get('mcp.toolsList')!.found, /^\d+ tools$/);
    assert.match(f.get('hosting.exclusionsRead')!.found, /3 entries/);
  });
});

describe('[#39.15] catalog probes: held, not held', () => {
  test('[#39.15] a bare array instead of {object, data} is reported as not held, with the raw answer', async () => {
    await arm('catalog_bare_array');
    const f = await check();
    assert.equal(f.get('catalog.envelope')!.verdict, 'not_held');
    assert.match(f.get('catalog.envelope')!.found, /an array of \d+ items/);
    assert.ok(f.get('catalog.envelope')!.raw?.startsWith('[{'));
    // The other catalog checks still read the models they found.
    assert.equal(f.get('catalog.pricingStrings')!.verdict, 'held');
  });

  test('[#39.15] rates as JSON numbers are reported as not held, naming a model and field', async () => {
    await arm('catalog_numeric_pricing');
    const f = await check();
    assert.equal(f.get('catalog.pricingStrings')!.verdict, 'not_held');
    assert.match(f.get('catalog.pricingStrings')!.found, /input_per_million = [\d.]+ \(number\)/);
    assert.equal(f.get('catalog.envelope')!.verdict, 'held');
  });

  test('[#39.15] pricing without pricing_version is reported as not held', async () => {
    await arm('catalog_no_pricing_version');
    const f = await check();
    assert.equal(f.get('catalog.pricingVersion')!.verdict, 'not_held');
    assert.match(f.get('catalog.pricingVersion')!.found, /have no pricing_version/);
  });

  test('[#39.15] an undocumented capability value is reported as not held, naming it', async () => {
    gw.configure({ extraModels: [{ ...FREE_MESSAGES_MODEL, id: 'local/telepath', capabilities: ['chat', 'telepathy'] } as Model] });
    const f = await check();
    assert.equal(f.get('catalog.capabilities')!.verdict, 'not_held');
    assert.match(f.get('catalog.capabilities')!.found, /telepathy \(local\/telepath\)/);
  });
});

describe('[#39.15] schema route probe', () => {
  test('[#39.15] an OpenAPI document instead of a JSON Schema with properties is not held', async () => {
    await arm('schema_openapi');
    const f = await check();
    assert.equal(f.get('schema.jsonSchema')!.verdict, 'not_held');
    assert.match(f.get('schema.jsonSchema')!.found, /openapi/);
  });

  test('[#39.15] without a catalog to pick a model from, the schema is not checked', async () => {
    await fetch(`${gw.url}/__control/faults`, { method: 'POST', body: JSON.stringify({ kind: 'server_error', route: '/v1/models' }) });
    const f = await check();
    assert.equal(f.get('catalog.envelope')!.verdict, 'no_answer');
    assert.match(f.get('catalog.envelope')!.found, /HTTP 500/);
    assert.equal(f.get('schema.jsonSchema')!.verdict, 'not_checked');
  });
});

describe('[#39.15] analytics probe', () => {
  test('[#39.15] without an identity token analytics is "not checked: needs an identity token", and nothing is sent there', async () => {
    const sent: Sent[] = [];
    const f = await check({ getJwt: async () => undefined }, sent);
    assert.equal(f.get('analytics.fields')!.verdict, 'not_checked');
    assert.match(f.get('analytics.fields')!.found, /needs an identity token/);
    assert.ok(!sent.some((s) => s.path === '/v1/analytics'));
  });

  test('[#39.15] renamed request count, window and bucket start are reported as not held, naming them', async () => {
    await arm('analytics_renamed_fields');
    const f = await check();
    const a = f.get('analytics.fields')!;
    assert.equal(a.verdict, 'not_held');
    for (const name of ['"window_start"', '"window_end"', 'totals has no request count "requests"', 'buckets[0] has no bucket start "start"']) assert.ok(a.found.includes(name), `${name} in ${a.found}`);
    assert.match(a.found, /its fields: .*"window"/);
  });

  test('[#39.15] [#39.11] credits_nano as an exponent-form number (digits already lost) is not held, as the dashboard refuses it', async () => {
    await mode({ analytics: 'unsafe_nano' });
    const a = (await check()).get('analytics.fields')!;
    assert.equal(a.verdict, 'not_held');
    assert.match(a.found, /"credits_nano" is not an exact integer/);
    assert.ok(a.raw?.includes('e15') || a.raw?.includes('e+15'), a.raw?.slice(0, 200));
    assert.equal(await productAcceptsAnalytics(), false);
  });

  test('[#39.15] [#39.11] the probe holds exactly where the dashboard accepts: assumed held, renamed and unsafe_nano not held', async () => {
    for (const [m, held] of [
      ['assumed', true],
      ['renamed', false],
      ['unsafe_nano', false],
    ] as const) {
      await mode({ analytics: m });
      assert.equal((await check()).get('analytics.fields')!.verdict, held ? 'held' : 'not_held', m);
      assert.equal(await productAcceptsAnalytics(), held, m);
    }
  });
});

describe('[#39.15] cache exclusions read probe (GET only)', () => {
  test('[#39.15] without hosting credentials or an install the read is not checked', async () => {
    let f = await check({ getHostingCredentials: async () => undefined });
    assert.equal(f.get('hosting.exclusionsRead')!.verdict, 'not_checked');
    assert.match(f.get('hosting.exclusionsRead')!.found, /credentials/);
    f = await check({ installId: undefined });
    assert.equal(f.get('hosting.exclusionsRead')!.verdict, 'not_checked');
    assert.match(f.get('hosting.exclusionsRead')!.found, /install/);
  });

  test('[#39.15] a paged {items, next_cursor} envelope is not held, and no PUT is ever sent', async () => {
    await arm('exclusions_paged_items');
    const sent: Sent[] = [];
    const f = await check({}, sent);
    assert.equal(f.get('hosting.exclusionsRead')!.verdict, 'not_held');
    assert.match(f.get('hosting.exclusionsRead')!.found, /items, next_cursor/);
    assert.deepEqual(sent.filter((s) => s.path.includes('cache_exclusions')).map((s) => s.method), ['GET']);
    assert.equal(gw.events.list('request').filter((e) => e.method === 'PUT').length, 0);
  });

  test('[#39.15] [#39.6] a Link rel="next" header (one page of several) is not held', async () => {
    await mode({ exclusionsRead: 'link' });
    const e = (await check()).get('hosting.exclusionsRead')!;
    assert.equal(e.verdict, 'not_held');
    assert.match(e.found, /rel="next"/);
  });

  test('[#39.15] [#39.6] the probe holds exactly where Edit Cache Exclusions accepts: results held; data, bare, exclusions, paged, link not held', async () => {
    for (const [m, held] of [
      ['results', true],
      ['data', false],
      ['bare', false],
      ['exclusions', false],
      ['paged', false],
      ['link', false],
    ] as const) {
      await mode({ exclusionsRead: m });
      const sent: Sent[] = [];
      const e = (await check({}, sent)).get('hosting.exclusionsRead')!;
      assert.equal(e.verdict, held ? 'held' : 'not_held', `${m}: ${e.found}`);
      if (!held) assert.ok(e.raw && e.raw.length > 0, m);
      assert.deepEqual(sent.filter((s) => s.path.includes('cache_exclusions')).map((s) => s.method), ['GET'], m);
      assert.equal(await productAcceptsExclusions(), held, m);
    }
    assert.equal(gw.events.list('request').filter((e) => e.method === 'PUT').length, 0);
  });
});

describe('[#39.15] MCP probe: initialize and tools/list', () => {
  test('[#39.15] tools under another name than "tools" is not held', async () => {
    await arm('mcp_tools_as_items');
    const f = await check();
    assert.equal(f.get('mcp.initialize')!.verdict, 'held');
    assert.equal(f.get('mcp.toolsList')!.verdict, 'not_held');
    assert.match(f.get('mcp.toolsList')!.found, /fields .*items, without a tools list/);
  });

  test('[#39.15] an initialize without a tools capability is not held', async () => {
    await arm('mcp_no_tools_capability');
    const f = await check();
    assert.equal(f.get('mcp.initialize')!.verdict, 'not_held');
    assert.match(f.get('mcp.initialize')!.found, /capabilities\.tools/);
  });

  test('[#39.15] without an API key MCP and the messages stream are not checked', async () => {
    const sent: Sent[] = [];
    const f = await check({ getKey: async () => undefined }, sent);
    for (const id of ['mcp.initialize', 'mcp.toolsList', 'messages.stream', 'messages.usage'] as const) assert.equal(f.get(id)!.verdict, 'not_checked', id);
    assert.deepEqual(sent.filter((s) => s.method !== 'GET'), []);
  });

  test('[#39.15] a 503 with the gateway envelope is reported with its message and request id', async () => {
    await fetch(`${gw.url}/__control/faults`, { method: 'POST', body: JSON.stringify({ kind: 'unavailable', route: '/v1/mcp' }) });
    const f = await check();
    const i = f.get('mcp.initialize')!;
    assert.equal(i.verdict, 'no_answer');
    assert.match(i.found, /^HTTP 503: a required dependency is temporarily unavailable/);
    assert.ok(i.requestId && i.requestId.length >= 32);
  });

  test('[#39.15] a 5xx body that is not the gateway envelope is not taken for its word, as the Tools view does not (status only)', async () => {
    const base = recordingFetch([]);
    const edge: ProbeFetch = async (url, init) =>
      new URL(url).pathname === '/v1/mcp' ? new Response(JSON.stringify({ message: 'edge proxy says all is fine' }), { status: 502, headers: { 'Content-Type': 'application/json' } }) : base(url, init);
    const f = await check({ fetch: edge });
    const i = f.get('mcp.initialize')!;
    assert.equal(i.verdict, 'no_answer');
    assert.equal(i.found, 'HTTP 502');
    assert.ok(i.raw?.includes('edge proxy'));
  });
});

describe('[#39.15] messages stream probe', () => {
  test('[#39.15] on priced models only: the user is asked with the estimated cost, and declining sends nothing', async () => {
    const offers: BilledOffer[] = [];
    const sent: Sent[] = [];
    const f = await check({ approve: async (o) => (offers.push(o), false) }, sent);
    assert.equal(offers.length, 1);
    assert.ok(offers[0].estimateNano > 0n);
    assert.equal(offers[0].maxTokens, 16);
    assert.equal(f.get('messages.stream')!.verdict, 'not_checked');
    assert.match(f.get('messages.stream')!.found, /not approved/);
    assert.ok(!sent.some((s) => s.path === '/v1/messages'));
  });

  test('[#39.15] after approval one request is sent, and its usage is returned for the spend ledger', async () => {
    const sent: Sent[] = [];
    const { report, billed } = await runCompatCheck(deps(sent, { approve: async () => true }), new AbortController().signal);
    assert.equal(sent.filter((s) => s.path === '/v1/messages').length, 1);
    assert.equal(report.findings.find((x) => x.id === 'messages.stream')!.verdict, 'held');
    assert.ok(billed && billed.estimated === undefined && billed.usage.completion_tokens! > 0);
    assert.equal(report.requests.filter((r) => r.billed).length, 1);
  });

  test('[#39.15] a stream that ends without message_stop is not held', async () => {
    gw.configure({ extraModels: [FREE_MESSAGES_MODEL] });
    await fetch(`${gw.url}/__control/faults`, { method: 'POST', body: JSON.stringify({ kind: 'no_done', route: '/v1/messages' }) });
    const f = await check();
    assert.equal(f.get('messages.stream')!.verdict, 'not_held');
    assert.match(f.get('messages.stream')!.found, /message_stop at the end/);
  });
});

describe('[#39.15] the check only reads', () => {
  test('[#39.15] no probe sends PUT, PATCH or DELETE; the only POSTs are MCP initialize/tools/list and the one approved messages request', async () => {
    const sent: Sent[] = [];
    await check({ approve: async () => true }, sent);
    const writes = sent.filter((s) => s.method !== 'GET');
    assert.ok(writes.length >= 3, JSON.stringify(sent));
    for (const w of writes) {
      const allowed = (w.path === '/v1/mcp' && (w.rpc === 'initialize' || w.rpc === 'tools/list')) || (w.path === '/v1/messages' && w.rpc === undefined);
      assert.ok(allowed, `unexpected ${w.method} ${w.path} ${w.rpc ?? ''}`);
    }
    assert.equal(writes.filter((w) => w.path === '/v1/messages').length, 1);
    // What the gateway itself saw agrees: no PUT, no tools/call.
    assert.equal(gw.events.list('request').filter((e) => e.method !== 'GET' && e.method !== 'POST').length, 0);
    assert.equal(gw.events.list('mcp-dispatch').filter((e) => e.method === 'tools/call').length, 0);
  });

  test('[#39.15] cancelling stops before the next request and reports the rest as not checked', async () => {
    const controller = new AbortController();
    const sent: Sent[] = [];
    const { report } = await runCompatCheck(deps(sent, { onStep: (_s, i) => i === 2 && controller.abort() }), controller.signal);
    assert.equal(report.cancelled, true);
    assert.equal(report.findings.length, 11);
    assert.ok(!sent.some((s) => s.path === '/v1/analytics' || s.path === '/v1/mcp'));
    assert.match(report.findings.find((f) => f.id === 'mcp.toolsList')!.found, /cancelled/);
  });
});
