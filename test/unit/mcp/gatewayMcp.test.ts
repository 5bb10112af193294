// The local gateway's POST /v1/mcp against the spec's rules, on the wire (raw fetch), so these tests
// do not depend on the runner's client. Rule ids in titles.
import { test, describe, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { startGateway, type RunningGateway } from '../../localGateway/server';
import { LOCAL_KEYS } from '../../localGateway/keys';
import { LOCAL_ACCOUNT, LOCAL_PROJECT, mintLocalJwt } from '../../localGateway/mcpJwt';
import { MCP_SESSION_HEADER } from '../../localGateway/mcp';
import { parseSseMessages } from '../../../src/core/mcp/batch';

let gw: RunningGateway;
before(async () => {
  gw = await startGateway();
});
after(async () => {
  await gw.close();
});
beforeEach(() => gw.reset());

const ACCEPT = 'application/json, text/event-stream';

interface Rpc {
  jsonrpc: string;
  id: number | string | null;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

async function post(body: unknown, opts: { key?: string; headers?: Record<string, string>; raw?: string } = {}): Promise<Response> {
  return fetch(`${gw.url}/v1/mcp`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${opts.key ?? LOCAL_KEYS.userFull}`, 'Content-Type': 'application/json', Accept: ACCEPT, ...opts.headers },
    body: opts.raw ?? JSON.stringify(body),
  });
}

/** Reads a JSON or SSE-upgraded response body as JSON-RPC. */
async function rpc(res: Response): Promise<Rpc> {
  const type = res.headers.get('content-type') ?? '';
  if (type.startsWith('text/event-stream')) return parseSseMessages(await res.text())[0] as Rpc;
  return (await res.json()) as Rpc;
}

const init = (id = 1, version = '2025-06-18') => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'test', version: '0' } },
});
const call = (name: string, args: Record<string, unknown> = {}, id: number | string = 1) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

function toolCalls(): number {
  return gw.events.list('mcp-dispatch').filter((e) => e.method === 'tools/call').length;
}

describe('/v1/mcp request checks', () => {
  test('[G-MCP-2] missing Accept gets 400 with a plain-text body', async () => {
    const res = await post(init(), { headers: { Accept: '' } });
    assert.equal(res.status, 400);
    assert.match(res.headers.get('content-type') ?? '', /^text\/plain/);
    assert.match(await res.text(), /accept/i);
  });

  test('[G-MCP-2] an Accept without text/event-stream is invalid for the transport: 400 plain text', async () => {
    const res = await post(init(), { headers: { Accept: 'application/json' } });
    assert.equal(res.status, 400);
    assert.match(res.headers.get('content-type') ?? '', /^text\/plain/);
  });

  test('[G-MCP-1] a non-JSON Content-Type is refused with 415 (assumed status) and nothing is dispatched', async () => {
    const res = await post(init(), { headers: { 'Content-Type': 'text/plain' } });
    assert.equal(res.status, 415);
    assert.match(await res.text(), /application\/json/);
    assert.equal(gw.events.list('mcp-dispatch').length, 0);
  });

  test('[G-MCP-1] JSON-RPC 2.0 over POST: application/json with a charset parameter is accepted', async () => {
    const res = await post(init(), { headers: { 'Content-Type': 'application/json; charset=utf-8' } });
    assert.equal(res.status, 200);
    assert.equal((await rpc(res)).jsonrpc, '2.0');
  });

  test('[G-MCP-1] GET is not offered (no standalone SSE stream on a stateless server): 405', async () => {
    const res = await fetch(`${gw.url}/v1/mcp`, { headers: { Authorization: `Bearer ${LOCAL_KEYS.userFull}`, Accept: 'text/event-stream' } });
    assert.equal(res.status, 405);
  });

  test('[G-MCP-3] a batch of 11 gets 400, JSON-RPC -32600 "batch exceeds maximum of 10 calls", before any message is dispatched', async () => {
    const batch = Array.from({ length: 11 }, (_, i) => call('ping', {}, i + 1));
    const res = await post(batch);
    assert.equal(res.status, 400);
    const body = (await res.json()) as Rpc;
    assert.equal(body.error?.code, -32600);
    assert.equal(body.error?.message, 'batch exceeds maximum of 10 calls');
    assert.equal(gw.events.list('mcp-dispatch').length, 0);
  });

  test('[G-MCP-3] a batch of exactly 10 is answered with 10 responses', async () => {
    const batch = Array.from({ length: 10 }, (_, i) => ({ jsonrpc: '2.0', id: i + 1, method: 'ping' }));
    const res = await post(batch);
    assert.equal(res.status, 200);
    const body = (await res.json()) as Rpc[];
    assert.deepEqual(body.map((r) => r.id).sort((a, b) => Number(a) - Number(b)), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  test('malformed JSON gets 400 plain text', async () => {
    const res = await post(undefined, { raw: '{"jsonrpc":' });
    assert.equal(res.status, 400);
    assert.match(res.headers.get('content-type') ?? '', /^text\/plain/);
  });

  test('an unsupported MCP-Protocol-Version header (a standard-header mismatch) gets a JSON-RPC error object', async () => {
    const res = await post({ jsonrpc: '2.0', id: 1, method: 'ping' }, { headers: { 'MCP-Protocol-Version': '1999-01-01' } });
    assert.equal(res.status, 400);
    const body = (await res.json()) as Rpc;
    assert.equal(body.error?.code, -32600);
  });

  test('an unknown method gets -32601', async () => {
    const body = await rpc(await post({ jsonrpc: '2.0', id: 9, method: 'resources/list' }));
    assert.equal(body.error?.code, -32601);
  });
});

describe('/v1/mcp methods', () => {
  test('[G-MCP-4] initialize answers with tools-only capabilities, server info, and the negotiated version', async () => {
    const body = await rpc(await post(init(1, '2025-06-18')));
    const result = body.result as { protocolVersion: string; capabilities: Record<string, unknown>; serverInfo: { name: string; version: string } };
    assert.equal(result.protocolVersion, '2025-06-18');
    assert.deepEqual(Object.keys(result.capabilities), ['tools']);
    assert.ok(result.serverInfo.name && result.serverInfo.version);
  });

  test('[G-MCP-4] an unknown client version is answered with a version the server supports', async () => {
    const body = await rpc(await post(init(1, '2099-01-01')));
    assert.notEqual(body.result?.protocolVersion, '2099-01-01');
    assert.equal(typeof body.result?.protocolVersion, 'string');
  });

  test('[G-MCP-4] initialize without clientInfo is invalid params', async () => {
    const body = await rpc(await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {} } }));
    assert.equal(body.error?.code, -32602);
  });

  test('[G-MCP-5] the ping method returns an empty result; the ping tool returns server name and version', async () => {
    const method = await rpc(await post({ jsonrpc: '2.0', id: 1, method: 'ping' }));
    assert.deepEqual(method.result, {});
    const tool = await rpc(await post(call('ping')));
    const sc = tool.result?.structuredContent as { name: string; version: string };
    const info = (await rpc(await post(init()))).result?.serverInfo as { name: string; version: string };
    assert.deepEqual(sc, { name: info.name, version: info.version });
  });

  test('[G-MCP-6] tools/list takes two pages, linked by an opaque cursor', async () => {
    const first = await rpc(await post({ jsonrpc: '2.0', id: 1, method: 'tools/list' }));
    const cursor = first.result?.nextCursor;
    assert.equal(typeof cursor, 'string');
    const second = await rpc(await post({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { cursor } }));
    assert.equal(second.result?.nextCursor, undefined);
    const names = [...(first.result?.tools as Array<{ name: string }>), ...(second.result?.tools as Array<{ name: string }>)].map((t) => t.name);
    for (const n of ['ping', 'list_account_sites', 'list_site_abilities', 'search_abilities', 'run_site_ability', 'kb_search']) assert.ok(names.includes(n), n);
    assert.equal(new Set(names).size, names.length);
  });

  test('[G-MCP-6] a forged cursor is invalid params', async () => {
    const body = await rpc(await post({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { cursor: 'not-a-cursor' } }));
    assert.equal(body.error?.code, -32602);
  });

  test('[G-MCP-7] tools/call results carry content blocks, structured content and the error flag', async () => {
    const okRes = await rpc(await post(call('list_account_sites')));
    assert.ok(Array.isArray(okRes.result?.content));
    assert.ok(okRes.result?.structuredContent);
    assert.notEqual(okRes.result?.isError, true);
    const bad = await rpc(await post(call('kb_search', { collection_id: 'c', query: 'q', top_k: 500 })));
    assert.equal(bad.result?.isError, true);
    assert.match(JSON.stringify(bad.result?.content), /top_k/);
  });

  test('[G-MCP-8] notifications/initialized has no id and gets 202 with no body', async () => {
    const res = await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
    assert.equal(res.status, 202);
    assert.equal(await res.text(), '');
  });

  test('[G-MCP-9] stateless: a tool call works without initialize, and no session id is issued', async () => {
    const res = await post(call('ping'));
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('mcp-session-id'), null);
    assert.equal((await rpc(res)).result?.isError, undefined);
    const initRes = await post(init());
    assert.equal(initRes.headers.get('mcp-session-id'), null);
  });

  test('a single tools/call is upgraded to SSE when the client accepts text/event-stream', async () => {
    const res = await post(call('ping'));
    assert.match(res.headers.get('content-type') ?? '', /^text\/event-stream/);
    const events = parseSseMessages(await res.text()) as Rpc[];
    assert.equal(events.length, 1);
    assert.equal(events[0].id, 1);
  });
});

describe('/v1/mcp keys and abilities', () => {
  for (const tool of ['list_site_abilities', 'search_abilities', 'run_site_ability']) {
    test(`[G-MCP-10] ${tool} with an Account key is an unauthorized tool error`, async () => {
      const args = tool === 'search_abilities' ? { query: 'post' } : tool === 'run_site_ability' ? { site_id: 'site_blog', ability: 'core/get-site-info' } : { site_id: 'site_blog' };
      const body = await rpc(await post(call(tool, args), { key: LOCAL_KEYS.accountFull }));
      assert.equal(body.result?.isError, true);
      assert.equal((body.result?.structuredContent as { error: { code: string } }).error.code, 'unauthorized');
      const asUser = await rpc(await post(call(tool, args)));
      assert.notEqual(asUser.result?.isError, true);
    });
  }

  test('[G-MCP-10] an Account key still works for ping, list_account_sites and knowledge-base tools', async () => {
    for (const [name, args] of [['ping', {}], ['list_account_sites', {}], ['kb_search', { collection_id: 'col_docs', query: 'x' }]] as const) {
      const body = await rpc(await post(call(name, args), { key: LOCAL_KEYS.accountFull }));
      assert.notEqual(body.result?.isError, true, name);
    }
  });

  test('[G-MCP-11] run_site_ability checks the person connected their CMS account to the site', async () => {
    const denied = await rpc(await post(call('run_site_ability', { site_id: 'site_shop', ability: 'core/get-site-info' })));
    assert.equal(denied.result?.isError, true);
    assert.match(JSON.stringify(denied.result?.content), /not connected/);
    const allowed = await rpc(await post(call('run_site_ability', { site_id: 'site_blog', ability: 'core/get-site-info' })));
    assert.notEqual(allowed.result?.isError, true);
  });

  test('[G-MCP-11] list_account_sites reports cms_connection_status per site', async () => {
    const body = await rpc(await post(call('list_account_sites')));
    const sites = (body.result?.structuredContent as { sites: Array<{ site_id: string; cms_connection_status: string }> }).sites;
    assert.deepEqual(Object.fromEntries(sites.map((s) => [s.site_id, s.cms_connection_status])), { site_blog: 'connected', site_shop: 'not_connected' });
  });

  test('[G-MCP-12] a timed-out read gives tool error timeout, keeping the upstream REST 504 code and message', async () => {
    const body = await rpc(await post(call('run_site_ability', { site_id: 'site_blog', ability: 'demo/slow-report' })));
    assert.equal(body.result?.isError, true);
    const text = JSON.stringify(body.result?.content);
    assert.match(text, /^\[\{"type":"text","text":"timeout:/);
    assert.match(text, /504/);
    assert.match(text, /gateway_timeout/);
  });

  test('[G-MCP-12] retrying the identical timed-out read is safe: same answer, nothing changed', async () => {
    const a = await rpc(await post(call('kb_search', { collection_id: 'col_docs', query: '[[timeout]]' })));
    const b = await rpc(await post(call('kb_search', { collection_id: 'col_docs', query: '[[timeout]]' })));
    assert.equal(a.result?.isError, true);
    assert.deepEqual(a.result, b.result);
  });

  test('[G-MCP-13] an uncertain write gives tool error ambiguous_outcome', async () => {
    const body = await rpc(await post(call('run_site_ability', { site_id: 'site_blog', ability: 'demo/flaky-publish', input: { post_id: 3 } })));
    assert.equal(body.result?.isError, true);
    assert.equal((body.result?.structuredContent as { error: { code: string } }).error.code, 'ambiguous_outcome');
  });

  test('[G-MCP-14] mcp at read authenticates (initialize, tools/list) but every tool call gets 403', async () => {
    assert.equal((await post(init(), { key: LOCAL_KEYS.userMcpRead })).status, 200);
    assert.equal((await post({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, { key: LOCAL_KEYS.userMcpRead })).status, 200);
    for (const name of ['ping', 'list_account_sites', 'kb_list_collections']) {
      const res = await post(call(name), { key: LOCAL_KEYS.userMcpRead });
      assert.equal(res.status, 403, name);
      const env = (await res.json()) as { error: { type: string; message: string } };
      assert.equal(env.error.type, 'permission_error');
      assert.match(env.error.message, /mcp/);
    }
    assert.equal(toolCalls(), 0);
  });

  test('[G-MCP-14] a key without mcp gets 403 even for initialize; a revoked key gets 401', async () => {
    assert.equal((await post(init(), { key: LOCAL_KEYS.userChatOnly })).status, 403);
    assert.equal((await post(init(), { key: LOCAL_KEYS.revoked })).status, 401);
  });

  test('[G-MCP-15] a JWT caller with matching Service-Account and Service-Project acts as the verified subject', async () => {
    const jwt = mintLocalJwt();
    const body = await rpc(await post(call('run_site_ability', { site_id: 'site_blog', ability: 'core/get-site-info' }), { key: jwt, headers: { 'Service-Account': LOCAL_ACCOUNT, 'Service-Project': LOCAL_PROJECT } }));
    assert.notEqual(body.result?.isError, true);
  });

  test('[G-MCP-15] a JWT caller without the headers gets 400; with another account 403; a forged JWT 401', async () => {
    const jwt = mintLocalJwt();
    assert.equal((await post(init(), { key: jwt })).status, 400);
    assert.equal((await post(init(), { key: jwt, headers: { 'Service-Account': 'acct_other', 'Service-Project': LOCAL_PROJECT } })).status, 403);
    const forged = mintLocalJwt({}, 'wrong-secret');
    assert.equal((await post(init(), { key: forged, headers: { 'Service-Account': LOCAL_ACCOUNT, 'Service-Project': LOCAL_PROJECT } })).status, 401);
  });

  test('[G-MCP-15] for API keys the Service-Account header is informational (a wrong value changes nothing)', async () => {
    const res = await post(call('ping'), { headers: { 'Service-Account': 'acct_other', 'Service-Project': 'proj_other' } });
    assert.equal(res.status, 200);
    assert.notEqual((await rpc(res)).result?.isError, true);
  });

  test('[G-MCP-16] the optional session header never changes the response', async () => {
    const args = { collection_id: 'col_docs', query: 'billing' };
    const plainBody = await rpc(await post(call('kb_search', args)));
    const own = await rpc(await post(call('kb_search', args), { headers: { [MCP_SESSION_HEADER]: 'sess_local_1' } }));
    const foreign = await rpc(await post(call('kb_search', args), { headers: { [MCP_SESSION_HEADER]: 'sess_someone_else' } }));
    assert.deepEqual(own, plainBody);
    assert.deepEqual(foreign, plainBody);
    const grouped = gw.events.list('mcp-session').map((e) => [e.session, e.grouped]);
    assert.deepEqual(grouped, [['sess_local_1', true], ['sess_someone_else', false]]);
  });
});

describe('/v1/mcp on loopback', () => {
  test('DNS-rebinding protection: a non-loopback Origin is refused with 403, a loopback one accepted', async () => {
    const evil = await post({ jsonrpc: '2.0', id: 1, method: 'ping' }, { headers: { Origin: 'http://evil.example' } });
    assert.equal(evil.status, 403);
    const good = await post({ jsonrpc: '2.0', id: 1, method: 'ping' }, { headers: { Origin: 'http://localhost:1234' } });
    assert.equal(good.status, 200);
    assert.equal(gw.events.list('mcp-dispatch').length, 1);
  });
});
