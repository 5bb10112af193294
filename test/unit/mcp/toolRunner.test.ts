// The run pipeline (validate -> confirm -> call -> classify -> history) against the local gateway.
import { test, describe, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { startGateway, type RunningGateway } from '../../localGateway/server';
import { LOCAL_KEYS } from '../../localGateway/keys';
import { McpConnection } from '../../../src/core/mcp/mcpClient';
import { validateAgainstSchema } from '../../../src/core/mcp/validation';
import { describeError } from '../../../src/core/errorText';
import { CallHistory, type HistoryEntry } from '../../../src/core/mcp/history';
import { runToolCall, type AbilityConfirmation, type RunnerDeps } from '../../../src/core/mcp/toolRunner';
import { ToolPanelController } from '../../../src/core/mcp/toolPanelController';
import type { HostToWebview } from '../../../src/protocol/toolsProtocol';
import type { McpTool } from '../../../src/core/mcp/types';

let gw: RunningGateway;
let conn: McpConnection;
let tools: McpTool[];
before(async () => {
  gw = await startGateway();
  conn = await McpConnection.connect({ url: `${gw.url}/v1/mcp`, fetch: (u, i) => fetch(u, i), getHeaders: async () => ({ Authorization: `Bearer ${LOCAL_KEYS.userFull}` }) });
  tools = (await conn.listTools()).tools;
});
after(async () => {
  await conn.close();
  await gw.close();
});
beforeEach(() => gw.reset());

const tool = (name: string): McpTool => {
  const t = tools.find((x) => x.name === name);
  assert.ok(t, name);
  return t;
};
const toolCalls = (): string[] => gw.events.list('mcp-dispatch').filter((e) => e.method === 'tools/call').map((e) => String(e.tool));

function deps(overrides: Partial<RunnerDeps> = {}): RunnerDeps & { confirmations: AbilityConfirmation[]; stored: HistoryEntry[] } {
  const confirmations: AbilityConfirmation[] = [];
  let stored: readonly HistoryEntry[] = [];
  const d = {
    serverId: 'gateway',
    serverLabel: 'AI Gateway',
    isGateway: true,
    credential: 'user' as const,
    connection: async () => conn,
    validate: validateAgainstSchema,
    describeError: (e: unknown) => describeError(e),
    confirmReadOnlyAbilities: true,
    confirmAbility: async (c: AbilityConfirmation) => {
      confirmations.push(c);
      return true;
    },
    history: new CallHistory({ get: () => stored, set: async (v) => void (stored = v) }),
    confirmations,
    get stored() {
      return [...stored];
    },
    ...overrides,
  };
  return d;
}

describe('runToolCall', () => {
  test('invalid arguments are refused before anything is sent', async () => {
    const d = deps();
    const out = await runToolCall(d, tool('kb_search'), { collection_id: 'c', query: 'q', top_k: 99 });
    assert.equal(out.kind, 'invalid');
    assert.deepEqual(toolCalls(), []);
    assert.equal(d.stored.length, 0);
  });

  test('run_site_ability asks first, showing site, ability and arguments; declining sends nothing', async () => {
    const d = deps({ confirmAbility: async () => false });
    const out = await runToolCall(d, tool('run_site_ability'), { site_id: 'site_blog', ability: 'core/create-post', input: { title: 'Hi' } });
    assert.equal(out.kind, 'notRun');
    assert.deepEqual(toolCalls(), []);
    const d2 = deps();
    const ok = await runToolCall(d2, tool('run_site_ability'), { site_id: 'site_blog', ability: 'core/create-post', input: { title: 'Hi' } });
    assert.equal(ok.kind, 'done');
    assert.equal(d2.confirmations.length, 1);
    assert.equal(d2.confirmations[0].site, 'site_blog');
    assert.equal(d2.confirmations[0].ability, 'core/create-post');
    assert.match(d2.confirmations[0].detail, /"title": "Hi"/);
  });

  test('with the confirmation relaxed, only abilities the server marks read-only skip it', async () => {
    const d = deps({ confirmReadOnlyAbilities: false });
    await runToolCall(d, tool('run_site_ability'), { site_id: 'site_blog', ability: 'core/get-post', input: { id: 1 } });
    assert.equal(d.confirmations.length, 0);
    await runToolCall(d, tool('run_site_ability'), { site_id: 'site_blog', ability: 'core/create-post', input: { title: 'x' } });
    assert.equal(d.confirmations.length, 1);
  });

  test('[G-MCP-7] a result is stored with duration, request ids and the output-schema verdict', async () => {
    const d = deps();
    const out = await runToolCall(d, tool('list_account_sites'), {});
    assert.equal(out.kind, 'done');
    const entry = d.stored[0];
    assert.equal(entry.outputValidation?.valid, true);
    assert.equal(entry.requestIds.length, 1);
    assert.ok(entry.durationMs >= 0);
    assert.deepEqual(entry.args, {});
  });

  test('[G-MCP-14] a transport failure is stored with its request id and an explanation', async () => {
    const readConn = await McpConnection.connect({ url: `${gw.url}/v1/mcp`, fetch: (u, i) => fetch(u, i), getHeaders: async () => ({ Authorization: `Bearer ${LOCAL_KEYS.userMcpRead}` }) });
    try {
      const d = deps({ connection: async () => readConn });
      await runToolCall(d, tool('ping'), {});
      assert.match(d.stored[0].failure?.message ?? '', /need mcp at write/);
      assert.equal(d.stored[0].failure?.status, 403);
      assert.equal(d.stored[0].requestIds.length, 1);
    } finally {
      await readConn.close();
    }
  });
});

describe('ToolPanelController', () => {
  test('[G-MCP-13] a Retry of ambiguous_outcome is refused by the host, not only disabled in the webview', async () => {
    const d = deps();
    const posted: HostToWebview[] = [];
    const t = tool('run_site_ability');
    const controller = new ToolPanelController({
      post: (m) => posted.push(m),
      toolView: () => ({ serverId: 'gateway', serverLabel: 'AI Gateway', name: t.name, inputSchema: t.inputSchema, readOnly: false }),
      run: (args, signal) => runToolCall(d, t, args, signal),
      history: () => d.stored,
      entry: (id) => d.stored.find((e) => e.id === id),
      exportRequest: async () => '',
      copy: async () => undefined,
      openLink: async () => undefined,
    });
    await controller.handle({ type: 'run', args: { site_id: 'site_blog', ability: 'demo/flaky-publish', input: { post_id: 1 } } });
    const result = posted.find((m) => m.type === 'result');
    assert.ok(result && result.type === 'result');
    assert.equal(result.call.toolError?.retryAllowed, false);
    await controller.handle({ type: 'retry', callId: result.call.id });
    assert.equal(posted.at(-1)?.type, 'notRun');
    assert.deepEqual(toolCalls(), ['run_site_ability']);
  });
});
