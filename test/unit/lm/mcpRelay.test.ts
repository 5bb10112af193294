/** The MCP relay behind VS Code's gateway MCP definition, against the local gateway's /v1/mcp. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startMcpRelay, type McpRelay } from '../../../src/core/lm/mcpRelay';
import { LOCAL_KEYS } from '../../localGateway/keys';
import { startGateway, type RunningGateway } from '../../localGateway/server';

const HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };

async function rpc(url: string, body: unknown): Promise<{ status: number; json: unknown; text: string }> {
  const res = await fetch(url, { method: 'POST', headers: HEADERS, body: JSON.stringify(body) });
  const text = await res.text();
  const type = res.headers.get('content-type') ?? '';
  let json: unknown;
  if (type.includes('json')) json = JSON.parse(text);
  else if (type.includes('event-stream')) json = JSON.parse(text.split('\n').find((l) => l.startsWith('data:'))?.slice(5) ?? 'null');
  return { status: res.status, json, text };
}

describe('MCP relay for VS Code agent mode', () => {
  let gw: RunningGateway;
  let relay: McpRelay;
  let key: string | undefined = LOCAL_KEYS.userFull;

  before(async () => {
    gw = await startGateway();
    relay = await startMcpRelay({
      upstreamUrl: () => `${gw.url}/v1/mcp`,
      fetch: (url, init) => fetch(url, init),
      credentials: async () => (key ? { headers: { Authorization: `Bearer ${key}` } } : { missing: 'add an API key' }),
    });
  });
  after(async () => {
    await relay?.close();
    await gw?.close();
  });

  test('tools/list through the relay has every gateway tool but run_site_ability; the key was added by the relay', async () => {
    const direct = await fetch(`${gw.url}/v1/mcp`, { method: 'POST', headers: { ...HEADERS, Authorization: `Bearer ${LOCAL_KEYS.userFull}` }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) });
    const directText = await direct.text();
    assert.ok(directText.includes('"run_site_ability"'), 'the gateway itself lists run_site_ability');
    const r = await rpc(relay.url, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
    assert.equal(r.status, 200, r.text);
    const names = ((r.json as { result: { tools: Array<{ name: string }> } }).result.tools ?? []).map((t) => t.name);
    assert.ok(names.includes('list_site_abilities') && names.includes('ping'), names.join(', '));
    assert.ok(!names.includes('run_site_ability'), names.join(', '));
  });

  test('[G-MCP-13] a run_site_ability call is answered by the relay and never reaches the gateway', async () => {
    gw.events.clear();
    const r = await rpc(relay.url, { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'run_site_ability', arguments: { site_id: 'site_blog', ability: 'core/create-post', input: {} } } });
    assert.equal(r.status, 200);
    assert.equal((r.json as { result: { isError: boolean } }).result.isError, true);
    assert.equal(gw.events.list().length, 0, JSON.stringify(gw.events.list()));
  });

  test('other paths, other methods and missing credentials are refused', async () => {
    assert.equal((await fetch(relay.url.replace(/\/[^/]+\/mcp$/, '/guess/mcp'), { method: 'POST', headers: HEADERS, body: '{}' })).status, 404);
    assert.equal((await fetch(relay.url, { method: 'GET' })).status, 405);
    key = undefined;
    try {
      assert.equal((await rpc(relay.url, { jsonrpc: '2.0', id: 1, method: 'tools/list' })).status, 401);
    } finally {
      key = LOCAL_KEYS.userFull;
    }
  });
});

describe('[#27.9] the MCP relay forwards only what it parsed strictly and serialised itself', () => {
  let gw: RunningGateway;
  let relay: McpRelay;
  /** Every request the relay sent to the gateway, with the body as sent. */
  const upstream: string[] = [];

  before(async () => {
    gw = await startGateway();
    relay = await startMcpRelay({
      upstreamUrl: () => `${gw.url}/v1/mcp`,
      fetch: (url, init) => {
        upstream.push(String(init?.body));
        return fetch(url, init);
      },
      credentials: async () => ({ headers: { Authorization: `Bearer ${LOCAL_KEYS.userFull}` } }),
    });
  });
  after(async () => {
    await relay?.close();
    await gw?.close();
  });

  const runAbility = '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"run_site_ability","arguments":{"site_id":"site_blog","ability":"core/create-post","input":{}}}}';
  const bodies: Array<[string, Uint8Array]> = [
    ['a byte-order mark before a run_site_ability call', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(runAbility)])],
    ['duplicate keys where the first name is run_site_ability', Buffer.from('{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"run_site_ability","name":"ping","arguments":{}}}')],
    ['a duplicate method', Buffer.from('{"jsonrpc":"2.0","id":7,"method":"tools/call","method":"tools/list","params":{"name":"run_site_ability"}}')],
    ['trailing garbage after the call', Buffer.from(`${runAbility} {"x":1}`)],
    ['two messages glued together', Buffer.from(`{"jsonrpc":"2.0","id":1,"method":"ping"}${runAbility}`)],
    ['invalid UTF-8', Buffer.concat([Buffer.from('{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}}')])],
    ['a string', Buffer.from('"tools/call"')],
    ['a number', Buffer.from('42')],
    ['null', Buffer.from('null')],
    ['an empty batch', Buffer.from('[]')],
    ['a batch holding a non-object', Buffer.from('[{"jsonrpc":"2.0","id":1,"method":"ping"}, 3]')],
    ['an object without jsonrpc 2.0', Buffer.from('{"id":1,"method":"tools/call","params":{"name":"run_site_ability"}}')],
    ['an empty body', Buffer.from('')],
    ['a lone surrogate escape', Buffer.from('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"run_site_ability\\ud800"}}')],
    ['an integer past 2^53', Buffer.from('{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}')],
  ];

  for (const [what, body] of bodies) {
    test(`${what}: answered -32600 locally, nothing reaches the gateway`, async () => {
      const before = upstream.length;
      gw.events.clear();
      const res = await fetch(relay.url, { method: 'POST', headers: HEADERS, body });
      const json = (await res.json()) as { jsonrpc: string; id: unknown; error?: { code: number; message: string } };
      assert.equal(res.status, 400);
      assert.equal(json.jsonrpc, '2.0');
      assert.equal(json.id, null);
      assert.equal(json.error?.code, -32600, JSON.stringify(json));
      assert.match(json.error?.message ?? '', /did not send it to the AI Gateway/);
      assert.equal(upstream.length, before, 'no request reached the gateway');
      assert.equal(gw.events.list().length, 0, JSON.stringify(gw.events.list()));
    });
  }

  test('a strictly valid body is forwarded as the relay serialised it, not as it arrived', async () => {
    const before = upstream.length;
    const pretty = '{\n  "jsonrpc": "2.0",\n  "id": 3,\n  "method": "tools/list"\n}\n';
    const res = await fetch(relay.url, { method: 'POST', headers: HEADERS, body: pretty });
    assert.equal(res.status, 200, await res.text());
    assert.equal(upstream.length, before + 1);
    assert.equal(upstream.at(-1), '{"jsonrpc":"2.0","id":3,"method":"tools/list"}');
  });
});
