// Both protocol eras (#42.3, docs/MCP-ERAS.md): the client negotiates the stateless revision 2026-07-28
// with a server that speaks it (a local server written from the revision, statelessServer.ts: server/discover,
// per-request _meta and headers, InputRequiredResult rounds) and the initialize handshake with one that
// does not (the SDK's own stateful server). Write safety (#42.5): nothing whose outcome is unknown is
// sent again, neither by a retry nor by a multi-round-trip continuation.
import { test, describe, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { json } from './rawHttpServer';
import { startSdkServer, type SdkHttpServer } from './sdkHttpServer';
import { startStatelessServer, type SeenPost, type StatelessServer } from './statelessServer';
import { McpCallError, McpConnection, type ElicitHandler, type ElicitRequest } from '../../../src/core/mcp/mcpClient';

/** The stateless server's record of every POST (and any GET) it got: the server's own arrays, set in `before`. */
let seen: SeenPost[] = [];
let gets: string[] = [];
/** The first server/discover is refused with -32022 when set (the version retry). */
let refuseFirstDiscover = false;

const STATE = 'opaque:{"n":1}==';
const TOOLS = [
  { name: 'echo', inputSchema: { type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' }, note: { type: 'string' } } } },
  { name: 'confirm', inputSchema: { type: 'object' } },
  { name: 'cutOnContinue', inputSchema: { type: 'object' } },
  { name: 'streamCut', inputSchema: { type: 'object' } },
  { name: 'busy', inputSchema: { type: 'object' } },
  { name: 'badHeader', inputSchema: { type: 'object', properties: { n: { type: 'number', 'x-mcp-header': 'N' } } } },
  // Not a tool the protocol allows (a description must be text): left out, as the initialize era's SDK check does.
  { name: 'badDescription', description: 42, inputSchema: { type: 'object' } },
];

const FORM = { type: 'object', properties: { confirmed: { type: 'boolean' }, reason: { type: 'string', default: 'as asked' } } };
const inputRequired = (id: unknown, withState: boolean): unknown => ({
  jsonrpc: '2.0',
  id,
  result: { resultType: 'input_required', inputRequests: { ok: { method: 'elicitation/create', params: { message: 'Go on?', requestedSchema: FORM } } }, ...(withState ? { requestState: STATE } : {}) },
});

let stateless: StatelessServer;
let statelessUrl = '';
let init: SdkHttpServer;
let initUrl = '';
/** Every JSON-RPC method the initialize-era server got (the server's own array). */
let initSeen: string[] = [];

before(async () => {
  stateless = await startStatelessServer({
    serverInfo: { name: 'stateless-test', version: '7' },
    tools: TOOLS,
    refuseDiscover: () => {
      const refuse = refuseFirstDiscover;
      refuseFirstDiscover = false;
      return refuse;
    },
    call: (id, params, res, req) => {
      const name = params.name;
      const continuing = params.inputResponses !== undefined;
      if (name === 'echo') return json(res, 200, { jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: 'echoed' }] } });
      if (name === 'busy') return json(res, 503, { error: 'busy' });
      if (name === 'badContent') return json(res, 200, { jsonrpc: '2.0', id, result: { resultType: 'complete', content: [42, { type: 'text' }] } });
      if (name === 'laterType') return json(res, 200, { jsonrpc: '2.0', id, result: { resultType: 'task', taskId: 't1' } });
      if (name === 'confirm') {
        if (!continuing) return json(res, 200, inputRequired(id, true));
        return json(res, 200, { jsonrpc: '2.0', id, result: { resultType: 'complete', content: [{ type: 'text', text: 'confirmed' }] } });
      }
      if (name === 'cutOnContinue') {
        if (!continuing) return json(res, 200, inputRequired(id, false));
        // The continuation reached the server and the connection broke: its outcome is unknown.
        req.socket.destroy();
        return;
      }
      if (name === 'streamCut') {
        // An event stream with an id and a retry that ends before the answer: no resumption in this revision.
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end('id: e1\nretry: 10\ndata: \n\n');
        return;
      }
      json(res, 200, { jsonrpc: '2.0', id, error: { code: -32602, message: 'unknown tool' } });
    },
  });
  ({ seen, gets, url: statelessUrl } = stateless);

  // The initialize era: the SDK's stateful server, which refuses anything before initialize.
  init = await startSdkServer({ name: 'init-era', version: '1' }, (server) => {
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [{ name: 'hello', inputSchema: { type: 'object' } }] }));
    server.setRequestHandler(CallToolRequestSchema, async () => ({ content: [{ type: 'text', text: 'hi' }] }));
  });
  ({ methods: initSeen, url: initUrl } = init);
});

after(async () => {
  await stateless.close();
  await init.close();
});

beforeEach(() => {
  seen.length = 0;
  gets.length = 0;
  initSeen.length = 0;
  refuseFirstDiscover = false;
});

const asked: ElicitRequest[] = [];
const accept: ElicitHandler = async (request) => {
  asked.push(request);
  return { action: 'accept', content: { confirmed: true } };
};

async function connect(url: string, era: 'auto' | 'initialize' | undefined, elicit?: ElicitHandler): Promise<McpConnection> {
  return McpConnection.connect({
    url,
    fetch: (u, i) => fetch(u, i),
    getHeaders: async () => ({}),
    requestTimeoutMs: 10_000,
    clientInfo: { name: 'eras-test', version: '1.2.3' },
    readRetry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 2 },
    ...(era ? { era } : {}),
    ...(elicit ? { elicit } : {}),
  });
}

const calls = (name: string): SeenPost[] => seen.filter((s) => s.body.method === 'tools/call' && s.body.params?.name === name);

describe('MCP protocol eras', () => {
  test('[#42.3] a server of the stateless revision gets 2026-07-28: no initialize, version, capabilities and client info in every request\'s _meta and MCP-Protocol-Version, Mcp-Method on every POST', async () => {
    const conn = await connect(statelessUrl, 'auto', accept);
    try {
      assert.equal(conn.server.protocolVersion, '2026-07-28');
      assert.equal(conn.server.name, 'stateless-test');
      assert.equal(conn.server.version, '7');
      await conn.listTools();
      await conn.callTool('echo', { region: 'eu west', note: 'n' });
    } finally {
      await conn.close();
    }
    assert.deepEqual(
      seen.map((s) => s.body.method),
      ['server/discover', 'tools/list', 'tools/call'],
    );
    for (const s of seen) {
      const meta = s.body.params?._meta as Record<string, unknown>;
      assert.equal(meta['io.modelcontextprotocol/protocolVersion'], '2026-07-28');
      assert.equal(s.headers['mcp-protocol-version'], '2026-07-28');
      assert.deepEqual(meta['io.modelcontextprotocol/clientInfo'], { name: 'eras-test', version: '1.2.3' });
      assert.deepEqual(meta['io.modelcontextprotocol/clientCapabilities'], { elicitation: { form: { applyDefaults: true }, url: {} } });
      assert.equal(s.headers['mcp-method'], s.body.method);
      assert.equal(s.headers['mcp-session-id'], undefined);
    }
  });

  test('[#42.3] tools/call carries Mcp-Name and an Mcp-Param header for each x-mcp-header parameter (none for the others); a tool with an invalid x-mcp-header is left out of the list', async () => {
    const conn = await connect(statelessUrl, 'auto');
    try {
      const { tools } = await conn.listTools();
      assert.deepEqual(
        tools.map((t) => t.name),
        ['echo', 'confirm', 'cutOnContinue', 'streamCut', 'busy'],
      );
      await conn.callTool('echo', { region: 'eu west', note: 'plain' });
      await conn.callTool('echo', { region: ' padded', note: 'x' });
    } finally {
      await conn.close();
    }
    const [first, second] = calls('echo');
    assert.equal(first.headers['mcp-name'], 'echo');
    assert.equal(first.headers['mcp-param-region'], 'eu west');
    assert.equal(first.headers['mcp-param-note'], undefined);
    assert.equal(second.headers['mcp-param-region'], `=?base64?${Buffer.from(' padded').toString('base64')}?=`);
  });

  test('[#42.3] a first server/discover refused with -32022 naming 2026-07-28 is sent once more with it', async () => {
    refuseFirstDiscover = true;
    const conn = await connect(statelessUrl, 'auto');
    await conn.close();
    assert.equal(conn.server.protocolVersion, '2026-07-28');
    assert.deepEqual(
      seen.map((s) => s.body.method),
      ['server/discover', 'server/discover'],
    );
  });

  test('[#42.3] an InputRequiredResult is answered through the elicitation handler (defaults filled in) and sent again with a new id and the requestState exactly as received', async () => {
    asked.length = 0;
    const conn = await connect(statelessUrl, 'auto', accept);
    let text = '';
    try {
      await conn.listTools();
      const { result } = await conn.callTool('confirm', {});
      text = result.content.map((c) => (c.type === 'text' ? String(c.text) : '')).join('');
    } finally {
      await conn.close();
    }
    assert.equal(text, 'confirmed');
    assert.deepEqual(asked, [{ mode: 'form', message: 'Go on?', requestedSchema: FORM }]);
    const [initial, continuation] = calls('confirm');
    assert.notEqual(continuation.body.id, initial.body.id);
    assert.equal(initial.body.params?.requestState, undefined);
    assert.equal(continuation.body.params?.requestState, STATE);
    assert.deepEqual(continuation.body.params?.inputResponses, { ok: { action: 'accept', content: { confirmed: true, reason: 'as asked' } } });
    assert.deepEqual(continuation.body.params?.arguments, {});
  });

  test('[#42.3] [#42.5] a continuation whose outcome is unknown is not sent again: two tools/call POSTs, an outcome-unknown error', async () => {
    const conn = await connect(statelessUrl, 'auto', accept);
    try {
      await assert.rejects(conn.callTool('cutOnContinue', {}), (e: unknown) => e instanceof McpCallError && e.outcomeUnknown === true);
    } finally {
      await conn.close();
    }
    const sent = calls('cutOnContinue');
    assert.equal(sent.length, 2);
    assert.equal(sent[0].body.params?.inputResponses, undefined);
    assert.notEqual(sent[1].body.params?.inputResponses, undefined);
    assert.equal(sent[1].body.params?.requestState, undefined);
  });

  test('[#42.3] [#42.5] a tools/call answered with a result type the client does not know is an unknown outcome (the server took the call), sent once', async () => {
    const conn = await connect(statelessUrl, 'auto');
    try {
      await assert.rejects(conn.callTool('laterType', {}), (e: unknown) => e instanceof McpCallError && e.outcomeUnknown === true);
    } finally {
      await conn.close();
    }
    assert.equal(calls('laterType').length, 1);
  });

  test('[#42.3] [#42.5] a tools/call result that is not a valid tool result is an error with an unknown outcome (the server took the call), not content handed to the page', async () => {
    const conn = await connect(statelessUrl, 'auto');
    try {
      await assert.rejects(conn.callTool('badContent', {}), (e: unknown) => e instanceof McpCallError && e.outcomeUnknown === true);
    } finally {
      await conn.close();
    }
    assert.equal(calls('badContent').length, 1);
  });

  test('[#42.3] [#42.5] an event stream that ends before the answer is not resumed (no GET) and the call is not sent again', async () => {
    const conn = await connect(statelessUrl, 'auto');
    try {
      await assert.rejects(conn.callTool('streamCut', {}), (e: unknown) => e instanceof McpCallError && e.outcomeUnknown === true);
    } finally {
      await conn.close();
    }
    assert.equal(calls('streamCut').length, 1);
    assert.deepEqual(gets, []);
  });

  test('[#42.3] [#42.5] a write answered 503 is sent once; a provably read-only one is tried again', async () => {
    const conn = await connect(statelessUrl, 'auto');
    try {
      await assert.rejects(conn.callTool('busy', {}), (e: unknown) => e instanceof McpCallError && e.status === 503);
      assert.equal(calls('busy').length, 1);
      await assert.rejects(conn.callTool('busy', {}, { readOnly: true }), (e: unknown) => e instanceof McpCallError && e.status === 503);
      assert.equal(calls('busy').length, 1 + 3);
    } finally {
      await conn.close();
    }
  });

  test('[#42.3] a server of the initialize era (the SDK\'s stateful server) is talked to with initialize after its refused server/discover', async () => {
    const conn = await connect(initUrl, 'auto');
    try {
      assert.equal(conn.server.protocolVersion, '2025-11-25');
      assert.equal(conn.server.name, 'init-era');
      const { tools } = await conn.listTools();
      assert.deepEqual(
        tools.map((t) => t.name),
        ['hello'],
      );
      const { result } = await conn.callTool('hello', {});
      assert.deepEqual(result.content, [{ type: 'text', text: 'hi' }]);
    } finally {
      await conn.close();
    }
    assert.deepEqual(initSeen.slice(0, 3), ['server/discover', 'initialize', 'notifications/initialized']);
  });

  test('[#42.3] the default era (the gateway\'s) sends no server/discover: initialize first', async () => {
    const conn = await connect(initUrl, undefined);
    await conn.close();
    assert.equal(initSeen[0], 'initialize');
    assert.ok(!initSeen.includes('server/discover'));
  });
});
