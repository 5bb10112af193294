// Elicitation (MCP 2025-11-25): a server asks the user through the client during a tools/call. The
// server here is the SDK's own (Server + Streamable HTTP transport, one session), so the request
// travels as the spec has it: on the call's event stream, answered with a POST.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { CallToolRequestSchema, ElicitResultSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { startSdkServer, type SdkHttpServer } from './sdkHttpServer';
import { McpConnection, type ElicitHandler, type ElicitRequest } from '../../../src/core/mcp/mcpClient';

let server: SdkHttpServer;
let url = '';
/** What the server got back from the client, per call. */
const answers: unknown[] = [];
const SCHEMA = {
  type: 'object',
  properties: {
    name: { type: 'string', default: 'Ada' },
    count: { type: 'integer', default: 3 },
    ok: { type: 'boolean', default: true },
    color: { type: 'string', enum: ['red', 'blue'], default: 'blue' },
  },
  required: [],
} as const;

before(async () => {
  server = await startSdkServer({ name: 'elicit-test', version: '1' }, (s) => {
    s.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [{ name: 'ask', inputSchema: { type: 'object' } }, { name: 'askUrl', inputSchema: { type: 'object' } }] }));
    s.setRequestHandler(CallToolRequestSchema, async (r) => {
      const params =
        r.params.name === 'askUrl'
          ? { mode: 'url' as const, message: 'Connect your account', url: 'https://auth.example.com/connect?x=1', elicitationId: 'e-1' }
          : { message: 'Who are you?', requestedSchema: SCHEMA };
      const answer = await s.request({ method: 'elicitation/create', params }, ElicitResultSchema);
      answers.push(answer);
      return { content: [{ type: 'text', text: JSON.stringify(answer) }] };
    });
  });
  url = server.url;
});

after(() => server.close());

async function withConn(elicit: ElicitHandler | undefined, fn: (c: McpConnection) => Promise<void>): Promise<void> {
  const conn = await McpConnection.connect({ url, fetch: (u, i) => fetch(u, i), getHeaders: async () => ({}), requestTimeoutMs: 10_000, ...(elicit ? { elicit } : {}) });
  try {
    await fn(conn);
  } finally {
    await conn.close();
  }
}

describe('elicitation', () => {
  test('[#42.2] the client declares form and url elicitation only when it can answer; a form accepted with no field filled sends every default (SEP-1034)', async () => {
    const seen: ElicitRequest[] = [];
    await withConn(
      async (r) => {
        seen.push(r);
        return { action: 'accept', content: { name: 'Grace' } };
      },
      async (c) => {
        answers.length = 0;
        await c.callTool('ask', {});
      },
    );
    assert.equal(seen[0]?.mode, 'form');
    assert.equal(seen[0]?.message, 'Who are you?');
    assert.deepEqual(answers[0], { action: 'accept', content: { name: 'Grace', count: 3, ok: true, color: 'blue' } });
  });

  test('[#42.2] decline and cancel go back as the user chose, without content', async () => {
    for (const action of ['decline', 'cancel'] as const) {
      answers.length = 0;
      await withConn(async () => ({ action }), (c) => c.callTool('ask', {}).then(() => undefined));
      assert.deepEqual(answers[0], { action });
    }
  });

  test('[#42.2] a URL-mode request reaches the handler with its URL; an accept carries no content', async () => {
    const seen: ElicitRequest[] = [];
    answers.length = 0;
    await withConn(
      async (r) => {
        seen.push(r);
        return { action: 'accept', content: { smuggled: 'x' } };
      },
      (c) => c.callTool('askUrl', {}).then(() => undefined),
    );
    assert.deepEqual(seen[0], { mode: 'url', message: 'Connect your account', url: 'https://auth.example.com/connect?x=1', elicitationId: 'e-1' });
    assert.deepEqual(answers[0], { action: 'accept' });
  });

  test('[#42.2] without a handler the capability is not declared and the server cannot ask', async () => {
    answers.length = 0;
    await withConn(undefined, async (c) => {
      // The server's request fails on the client (method not found), so its tool fails.
      await assert.rejects(c.callTool('ask', {}), /-32601/);
    });
    assert.equal(answers.length, 0);
  });
});
