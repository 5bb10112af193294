// The runner's MCP client (official SDK + injected fetch) against the local gateway.
import { test, describe, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { startGateway, type RunningGateway } from '../../localGateway/server';
import { LOCAL_KEYS } from '../../localGateway/keys';
import { LOCAL_ACCOUNT, LOCAL_PROJECT, mintLocalJwt } from '../../localGateway/mcpJwt';
import { McpCallError, McpConnection } from '../../../src/core/mcp/mcpClient';
import { BatchLimitError, MAX_BATCH, sendToolCallBatch } from '../../../src/core/mcp/batch';
import { classifyToolError } from '../../../src/core/mcp/toolErrors';
import type { FetchLike } from '../../../src/core/mcp/types';

let gw: RunningGateway;
before(async () => {
  gw = await startGateway();
});
after(async () => {
  await gw.close();
});
beforeEach(() => gw.reset());

interface Spy {
  fetch: FetchLike;
  calls: Array<{ method: string; body: string; headers: Record<string, string> }>;
}

function spyFetch(): Spy {
  const calls: Spy['calls'] = [];
  return {
    calls,
    fetch: async (url, init) => {
      const headers: Record<string, string> = {};
      new Headers(init?.headers).forEach((v, k) => (headers[k] = v));
      calls.push({ method: init?.method ?? 'GET', body: typeof init?.body === 'string' ? init.body : '', headers });
      return fetch(url, init);
    },
  };
}

async function connect(key: string = LOCAL_KEYS.userFull, spy = spyFetch(), extra: Record<string, string> = {}): Promise<McpConnection> {
  return McpConnection.connect({ url: `${gw.url}/v1/mcp`, fetch: spy.fetch, getHeaders: async () => ({ Authorization: `Bearer ${key}`, ...extra }) });
}

describe('McpConnection on the local gateway', () => {
  test('[G-MCP-4] [G-MCP-8] connect negotiates a version, sends notifications/initialized (202) and reads tools-only capabilities', async () => {
    const spy = spyFetch();
    const conn = await connect(LOCAL_KEYS.userFull, spy);
    try {
      assert.equal(conn.server.name, 'ai-gateway-local-mcp');
      assert.ok(['2025-11-25', '2025-06-18', '2025-03-26'].includes(conn.server.protocolVersion));
      assert.deepEqual(Object.keys(conn.server.capabilities), ['tools']);
      const posted = spy.calls.filter((c) => c.method === 'POST').map((c) => (JSON.parse(c.body) as { method: string }).method);
      assert.deepEqual(posted.slice(0, 2), ['initialize', 'notifications/initialized']);
      assert.equal(spy.calls[0].headers['content-type'], 'application/json');
      assert.match(spy.calls[0].headers.accept, /application\/json/);
      assert.match(spy.calls[0].headers.accept, /text\/event-stream/);
    } finally {
      await conn.close();
    }
  });

  test('[G-MCP-5] protocol ping resolves with the empty result', async () => {
    const conn = await connect();
    try {
      await conn.ping();
      assert.ok(gw.events.list('mcp-dispatch').some((e) => e.method === 'ping'));
    } finally {
      await conn.close();
    }
  });

  test('[G-MCP-6] listTools follows the cursor across both pages', async () => {
    const conn = await connect();
    try {
      const { tools, pages } = await conn.listTools();
      assert.equal(pages, 2);
      assert.ok(tools.find((t) => t.name === 'run_site_ability'));
      assert.ok(tools.find((t) => t.name === 'kb_get_document'));
      assert.equal(gw.events.list('mcp-dispatch').filter((e) => e.method === 'tools/list').length, 2);
    } finally {
      await conn.close();
    }
  });

  test('[G-MCP-6] a server that repeats its cursor is stopped instead of looping', async () => {
    const looping: FetchLike = async (url, init) => {
      const msg = JSON.parse(String(init?.body ?? '{}')) as { id?: number; method?: string };
      if (msg.method === 'tools/list') {
        return new Response(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: { tools: [], nextCursor: 'same' } }), { headers: { 'content-type': 'application/json' } });
      }
      return fetch(url, init);
    };
    const conn = await McpConnection.connect({ url: `${gw.url}/v1/mcp`, fetch: looping, getHeaders: async () => ({ Authorization: `Bearer ${LOCAL_KEYS.userFull}` }) });
    try {
      await assert.rejects(conn.listTools(), (e: unknown) => e instanceof McpCallError && /repeated/.test(e.message));
    } finally {
      await conn.close();
    }
  });

  test('[G-MCP-7] callTool reads an SSE-upgraded result and captures the X-Request-ID', async () => {
    const conn = await connect();
    try {
      const out = await conn.callTool('list_account_sites', {});
      assert.equal(out.result.isError, undefined);
      assert.ok(Array.isArray((out.result.structuredContent as { sites: unknown[] }).sites));
      assert.equal(out.requestIds.length, 1);
      const logged = gw.events.list('request').filter((e) => e.path === '/v1/mcp').map((e) => e.requestId);
      assert.ok(logged.includes(out.requestIds[0]));
    } finally {
      await conn.close();
    }
  });

  test('[G-MCP-13] ambiguous_outcome is returned once, never retried, and Retry is disabled with a reason', async () => {
    const conn = await connect();
    try {
      const out = await conn.callTool('run_site_ability', { site_id: 'site_blog', ability: 'demo/flaky-publish', input: { post_id: 1 } });
      const info = classifyToolError('run_site_ability', out.result);
      assert.equal(info?.code, 'ambiguous_outcome');
      assert.equal(info?.retry.allowed, false);
      assert.match(info?.retry.reason ?? '', /unknown|twice/);
      assert.equal(gw.events.list('mcp-dispatch').filter((e) => e.method === 'tools/call').length, 1);
    } finally {
      await conn.close();
    }
  });

  test('[G-MCP-12] timeout offers Retry, and the retried identical read is answered the same way', async () => {
    const conn = await connect();
    try {
      const args = { site_id: 'site_blog', ability: 'demo/slow-report' };
      const first = await conn.callTool('run_site_ability', args);
      const info = classifyToolError('run_site_ability', first.result);
      assert.equal(info?.code, 'timeout');
      assert.equal(info?.retry.allowed, true);
      assert.match(info?.message ?? '', /504/);
      assert.equal(gw.events.list('mcp-dispatch').filter((e) => e.method === 'tools/call').length, 1, 'no automatic retry');
      const retried = await conn.callTool('run_site_ability', args);
      assert.deepEqual(retried.result, first.result);
      assert.notDeepEqual(retried.requestIds, first.requestIds);
    } finally {
      await conn.close();
    }
  });

  test('[G-MCP-10] an Account key on an ability tool is explained as needing a User key', async () => {
    const conn = await connect(LOCAL_KEYS.accountFull);
    try {
      const out = await conn.callTool('search_abilities', { query: 'post' });
      const info = classifyToolError('search_abilities', out.result, 'account');
      assert.equal(info?.code, 'unauthorized');
      assert.match(info?.advice ?? '', /User key/);
    } finally {
      await conn.close();
    }
  });

  test('[G-MCP-14] an mcp-read key connects and lists, then a tool call fails as a permission error', async () => {
    const conn = await connect(LOCAL_KEYS.userMcpRead);
    try {
      await conn.listTools();
      await assert.rejects(conn.callTool('ping', {}), (e: unknown) => {
        assert.ok(e instanceof McpCallError);
        assert.equal(e.reason, 'permission');
        assert.equal(e.status, 403);
        assert.equal(e.type, 'permission_error');
        assert.ok(e.requestIds.length >= 1);
        return true;
      });
    } finally {
      await conn.close();
    }
  });

  test('a revoked key fails to connect with an authentication error that does not contain the key', async () => {
    await assert.rejects(connect(LOCAL_KEYS.revoked), (e: unknown) => {
      assert.ok(e instanceof McpCallError);
      assert.equal(e.reason, 'authentication');
      assert.ok(!e.message.includes(LOCAL_KEYS.revoked));
      return true;
    });
  });

  test('[G-MCP-15] JWT mode: the identity token plus Service-Account / Service-Project headers', async () => {
    const spy = spyFetch();
    const conn = await connect(mintLocalJwt(), spy, { 'Service-Account': LOCAL_ACCOUNT, 'Service-Project': LOCAL_PROJECT });
    try {
      const out = await conn.callTool('run_site_ability', { site_id: 'site_blog', ability: 'core/get-site-info' });
      assert.notEqual(out.result.isError, true);
      assert.equal(spy.calls.at(-1)?.headers['service-account'], LOCAL_ACCOUNT);
    } finally {
      await conn.close();
    }
  });
});

describe('batches', () => {
  test('[G-MCP-3] a run of 11 calls is refused before anything is sent', async () => {
    const spy = spyFetch();
    const calls = Array.from({ length: MAX_BATCH + 1 }, () => ({ name: 'ping', arguments: {} }));
    await assert.rejects(sendToolCallBatch(calls, { url: `${gw.url}/v1/mcp`, fetch: spy.fetch, headers: { Authorization: `Bearer ${LOCAL_KEYS.userFull}` } }), (e: unknown) => {
      assert.ok(e instanceof BatchLimitError);
      assert.match(e.message, /at most 10/);
      return true;
    });
    assert.equal(spy.calls.length, 0);
    assert.equal(gw.events.list('request').filter((e) => e.path === '/v1/mcp').length, 0);
  });

  test('[G-MCP-3] a run of 10 goes out as one batch and every answer is matched to its call', async () => {
    const spy = spyFetch();
    const calls = Array.from({ length: 10 }, (_, i) => ({ name: 'kb_search', arguments: { collection_id: 'col_docs', query: `q${i}` } }));
    const out = await sendToolCallBatch(calls, { url: `${gw.url}/v1/mcp`, fetch: spy.fetch, headers: { Authorization: `Bearer ${LOCAL_KEYS.userFull}` } });
    assert.equal(spy.calls.length, 1);
    assert.equal(out.responses.length, 10);
    out.responses.forEach((r, i) => assert.match(JSON.stringify(r?.result), new RegExp(`q${i}`)));
    assert.ok(out.requestId);
  });
});
