// Hostile-server hardening of the MCP client: a tools/call or batch that may have reached the server
// is "outcome unknown" and never re-run with one click; responses have a size limit; batches have the
// same typed errors, timeout and cancel as single calls; server regular expressions are never run.
import { test, describe, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { McpCallError, McpConnection } from '../../../src/core/mcp/mcpClient';
import { sendToolCallBatch } from '../../../src/core/mcp/batch';
import { runBatchCalls } from '../../../src/core/mcp/batchRun';
import { isAmbiguousOutcome, planBatch } from '../../../src/core/mcp/batchPlan';
import { CallHistory, type HistoryEntry } from '../../../src/core/mcp/history';
import { runToolCall, type RunnerDeps } from '../../../src/core/mcp/toolRunner';
import { ToolPanelController, toCallView } from '../../../src/core/mcp/toolPanelController';
import { validateAgainstSchema } from '../../../src/core/mcp/validation';
import { describeError } from '../../../src/core/errorText';
import type { HostToWebview } from '../../../src/protocol/toolsProtocol';
import type { McpTool } from '../../../src/core/mcp/types';
import { startHostileServer, type HostileServer } from './hostileServer';

const MiB = 1024 * 1024;
const writeTool: McpTool = { name: 'update_post', inputSchema: { type: 'object' } };

let srv: HostileServer;
before(async () => {
  srv = await startHostileServer();
});
after(async () => {
  await srv.close();
});

async function connect(opts: { maxResponseBytes?: number; requestTimeoutMs?: number } = {}): Promise<McpConnection> {
  srv.mode = 'ok';
  return McpConnection.connect({ url: srv.url, fetch: (u, i) => fetch(u, i), getHeaders: async () => ({}), ...opts });
}

function memoryHistory(): { history: CallHistory; stored: () => readonly HistoryEntry[] } {
  let stored: readonly HistoryEntry[] = [];
  return { history: new CallHistory({ get: () => stored, set: async (v) => void (stored = v) }), stored: () => stored };
}

function isCallError(e: unknown): e is McpCallError {
  return e instanceof McpCallError;
}

describe('a tools/call whose connection drops after sending', () => {
  test('reaches the caller as McpCallError with outcomeUnknown, after the server read the call', async () => {
    const conn = await connect();
    try {
      srv.mode = 'drop-after-body';
      const before = srv.toolCalls;
      await assert.rejects(conn.callTool('update_post', { id: 1 }), (e: unknown) => {
        assert.ok(isCallError(e), String(e));
        assert.equal(e.reason, 'network');
        assert.equal(e.outcomeUnknown, true);
        return true;
      });
      assert.equal(srv.toolCalls, before + 1);
    } finally {
      await conn.close();
    }
  });

  test('is recorded as outcome unknown, says the change may still have happened, and Retry is refused by the host', async () => {
    const conn = await connect();
    const { history, stored } = memoryHistory();
    const deps: RunnerDeps = {
      serverId: 'hostile',
      serverLabel: 'Hostile',
      isGateway: false,
      credential: 'custom',
      connection: async () => conn,
      validate: validateAgainstSchema,
      describeError: (e) => describeError(e),
      confirmReadOnlyAbilities: true,
      confirmAbility: async () => true,
      // update_post carries no annotations: destructive by the spec's default, so it is asked about (#42.4).
      confirmDestructive: async () => true,
      history,
    };
    const posted: HostToWebview[] = [];
    const controller = new ToolPanelController({
      post: (m) => posted.push(m),
      toolView: () => ({ serverId: 'hostile', serverLabel: 'Hostile', name: writeTool.name, inputSchema: writeTool.inputSchema, readOnly: false }),
      run: (args, signal) => runToolCall(deps, writeTool, args, signal),
      history: stored,
      entry: (id) => stored().find((e) => e.id === id),
      exportRequest: async () => '',
      copy: async () => undefined,
      openLink: async () => undefined,
    });
    try {
      srv.mode = 'drop-after-body';
      await controller.handle({ type: 'run', args: { id: 1 } });
      const entry = stored()[0];
      assert.ok(entry?.failure, 'a failure is stored');
      assert.equal(entry.failure.outcomeUnknown, true);
      assert.match(entry.failure.message, /the change may still have happened/i);
      assert.ok(isAmbiguousOutcome(entry));
      const view = toCallView(entry);
      assert.equal(view.toolError?.retryAllowed, false, 'the webview gets Retry disabled');
      assert.match(view.toolError?.advice ?? '', /the change may still have happened/i);
      assert.match(view.toolError?.retryReason ?? '', /may still have happened/);
      const sent = srv.toolCalls;
      srv.mode = 'ok';
      await controller.handle({ type: 'retry', callId: entry.id });
      const last = posted.at(-1);
      assert.equal(last?.type, 'notRun');
      assert.match(last?.type === 'notRun' ? last.reason : '', /may still have happened/);
      assert.equal(srv.toolCalls, sent, 'nothing was sent again');
    } finally {
      await conn.close();
    }
  });

  test('a batch that drops after sending records every call it sent as outcome unknown', async () => {
    srv.mode = 'drop-after-body';
    const { history, stored } = memoryHistory();
    const calls = [
      { name: 'update_post', arguments: { id: 1 } },
      { name: 'update_post', arguments: { id: 2 } },
      { name: 'delete_post', arguments: { id: 3 } },
    ];
    const before = srv.toolCalls;
    const out = await runBatchCalls(calls, {
      serverId: 'hostile',
      serverLabel: 'Hostile',
      credential: 'custom',
      send: (c) => sendToolCallBatch(c, { url: srv.url, fetch: (u, i) => fetch(u, i), headers: {} }),
      record: (e) => history.add(e),
    });
    assert.equal(srv.toolCalls, before + 3, 'the server read all three calls');
    assert.ok(out.error instanceof McpCallError);
    assert.equal(out.error.outcomeUnknown, true);
    const entries = stored();
    assert.equal(entries.length, 3);
    assert.deepEqual(entries.map((e) => e.args.id).sort(), [1, 2, 3]);
    for (const e of entries) {
      assert.equal(e.failure?.outcomeUnknown, true);
      assert.match(e.failure?.message ?? '', /outcome unknown/i);
      assert.match(e.failure?.message ?? '', /the change may still have happened/i);
    }
  });

  test('Run Several Calls asks before sending an outcome-unknown call again; left out, it is not sent', async () => {
    const unknown: HistoryEntry = {
      id: 'u',
      serverId: 's',
      serverLabel: 'S',
      tool: 'update_post',
      args: { id: 1 },
      startedAt: 0,
      durationMs: 0,
      requestIds: [],
      failure: { message: 'Outcome unknown', outcomeUnknown: true },
    };
    const fine: HistoryEntry = { ...unknown, id: 'f', failure: undefined };
    const asked: string[] = [];
    const plan = await planBatch([fine, unknown], async (e) => {
      asked.push(e.id);
      return 'skip';
    });
    assert.deepEqual(asked, ['u']);
    assert.deepEqual(plan?.run.map((e) => e.id), ['f']);
  });

  test('a batch to a port nobody listens on provably never left: network error, outcome known', async () => {
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as import('node:net').AddressInfo).port;
    await new Promise<void>((r) => probe.close(() => r()));
    await assert.rejects(sendToolCallBatch([{ name: 'x', arguments: {} }], { url: `http://127.0.0.1:${port}/mcp`, fetch: (u, i) => fetch(u, i), headers: {} }), (e: unknown) => {
      assert.ok(isCallError(e));
      assert.equal(e.reason, 'network');
      assert.equal(e.outcomeUnknown, false);
      return true;
    });
  });
});

describe('response size limit', () => {
  test('a tools/call answer larger than the limit (Content-Length) ends in a protocol McpCallError naming the limit', async () => {
    const conn = await connect({ maxResponseBytes: 1 * MiB });
    try {
      srv.mode = 'huge-json';
      srv.size = 3 * MiB;
      await assert.rejects(conn.callTool('big', {}), (e: unknown) => {
        assert.ok(isCallError(e), String(e));
        assert.equal(e.reason, 'protocol');
        assert.match(e.message, /1 MiB limit/);
        return true;
      });
    } finally {
      await conn.close();
    }
  });

  test('a chunked tools/call answer larger than the limit stops reading at the limit', async () => {
    const conn = await connect({ maxResponseBytes: 1 * MiB });
    try {
      srv.mode = 'huge-json-chunked';
      srv.size = 8 * MiB;
      srv.written = 0;
      await assert.rejects(conn.callTool('big', {}), (e: unknown) => {
        assert.ok(isCallError(e), String(e));
        assert.equal(e.reason, 'protocol');
        assert.match(e.message, /1 MiB limit/);
        return true;
      });
    } finally {
      await conn.close();
    }
  });

  test('an endless SSE answer ends at the limit with a protocol McpCallError, not at the request timeout', { timeout: 30_000 }, async () => {
    // The request timeout is far beyond the test's: only the size limit can end this call in time.
    const conn = await connect({ maxResponseBytes: 1 * MiB, requestTimeoutMs: 600_000 });
    try {
      srv.mode = 'endless-sse';
      await assert.rejects(conn.callTool('stream', {}), (e: unknown) => {
        assert.ok(isCallError(e), String(e));
        assert.equal(e.reason, 'protocol');
        assert.match(e.message, /1 MiB limit/);
        assert.equal(e.outcomeUnknown, true);
        return true;
      });
    } finally {
      await conn.close();
    }
  });

  test('a batch answer larger than the limit ends in a protocol McpCallError naming the limit', { timeout: 30_000 }, async () => {
    srv.mode = 'endless-sse';
    await assert.rejects(sendToolCallBatch([{ name: 'a', arguments: {} }], { url: srv.url, fetch: (u, i) => fetch(u, i), headers: {}, maxResponseBytes: 1 * MiB, timeoutMs: 600_000 }), (e: unknown) => {
      assert.ok(isCallError(e), String(e));
      assert.equal(e.reason, 'protocol');
      assert.match(e.message, /1 MiB limit/);
      return true;
    });
  });
});

describe('batch errors are typed, with timeout and cancel', () => {
  const send = (extra: Partial<Parameters<typeof sendToolCallBatch>[1]> = {}) =>
    sendToolCallBatch([{ name: 'a', arguments: {} }, { name: 'b', arguments: {} }], { url: srv.url, fetch: (u, i) => fetch(u, i), headers: {}, ...extra });

  test('a body that is not JSON is a protocol McpCallError, not a SyntaxError', async () => {
    srv.mode = 'raw';
    srv.raw = { type: 'application/json', body: '{"jsonrpc": "2.0", "id": 1, "res', status: 200 };
    await assert.rejects(send(), (e: unknown) => {
      assert.ok(isCallError(e), `got ${String(e)}`);
      assert.equal(e.reason, 'protocol');
      return true;
    });
  });

  test('[null] is a protocol McpCallError, not a TypeError', async () => {
    srv.mode = 'raw';
    srv.raw = { type: 'application/json', body: '[null]', status: 200 };
    await assert.rejects(send(), (e: unknown) => {
      assert.ok(isCallError(e), `got ${String(e)}`);
      assert.equal(e.reason, 'protocol');
      return true;
    });
  });

  test('an SSE event that is not JSON is a protocol McpCallError', async () => {
    srv.mode = 'raw';
    srv.raw = { type: 'text/event-stream', body: 'data: {nope\n\n', status: 200 };
    await assert.rejects(send(), (e: unknown) => isCallError(e) && e.reason === 'protocol');
  });

  test('an HTML error page is an http McpCallError with the status', async () => {
    srv.mode = 'raw';
    srv.raw = { type: 'text/html', body: '<html>busy</html>', status: 429 };
    await assert.rejects(send(), (e: unknown) => isCallError(e) && e.reason === 'http' && e.status === 429);
  });

  test('[#42.5] a batch answered with a bare 502 page leaves every call\'s outcome unknown; a 500 with the server\'s own error message, and a 429, do not', async () => {
    srv.mode = 'raw';
    srv.raw = { type: 'text/html', body: '<html>Bad Gateway</html>', status: 502 };
    await assert.rejects(send(), (e: unknown) => isCallError(e) && e.reason === 'http' && e.status === 502 && e.outcomeUnknown === true);
    srv.raw = { type: 'application/json', body: '{"error":{"message":"refused","type":"server_error"}}', status: 500 };
    await assert.rejects(send(), (e: unknown) => isCallError(e) && e.status === 500 && e.outcomeUnknown === false);
    srv.raw = { type: 'text/html', body: '<html>busy</html>', status: 429 };
    await assert.rejects(send(), (e: unknown) => isCallError(e) && e.status === 429 && e.outcomeUnknown === false);
  });

  test('a stalled batch times out with a timeout McpCallError whose outcome is unknown', { timeout: 30_000 }, async () => {
    srv.mode = 'stall';
    await assert.rejects(send({ timeoutMs: 300 }), (e: unknown) => {
      assert.ok(isCallError(e), String(e));
      assert.equal(e.reason, 'timeout');
      assert.equal(e.outcomeUnknown, true);
      return true;
    });
  });

  test('Cancel aborts a running batch with an aborted McpCallError', { timeout: 30_000 }, async () => {
    srv.mode = 'stall';
    const abort = new AbortController();
    const received = srv.nextToolCall();
    const pending = send({ signal: abort.signal, timeoutMs: 600_000 });
    await received;
    abort.abort();
    await assert.rejects(pending, (e: unknown) => isCallError(e) && e.reason === 'aborted' && e.outcomeUnknown);
  });
});

describe('server regular expressions are not run on the host', () => {
  test('an output schema pattern is not run, and the result says the value was not checked against it', () => {
    const r = validateAgainstSchema({ type: 'object', properties: { id: { type: 'string', pattern: '^[0-9]+$' } } }, { id: 'letters' });
    assert.equal(r.valid, true);
    assert.match(r.unchecked ?? '', /regular expressions/);
    assert.match(r.unchecked ?? '', /\/properties\/id\/pattern/);
  });

  test('patternProperties are not run, and additionalProperties beside them does not give false errors', () => {
    const r = validateAgainstSchema({ type: 'object', patternProperties: { '^x_': { type: 'number' } }, additionalProperties: false }, { x_a: 'not a number' });
    assert.equal(r.valid, true);
    assert.match(r.unchecked ?? '', /patternProperties/);
  });

  test('a property named "pattern" is still checked (only the keyword is dropped)', () => {
    const r = validateAgainstSchema({ type: 'object', properties: { pattern: { type: 'string' } }, required: ['pattern'] }, { pattern: 5 });
    assert.equal(r.valid, false);
    assert.equal(r.unchecked, undefined);
  });

  test('^(a+)+$ against a long value finishes (run in a child process that is killed if it hangs)', { timeout: 60_000 }, () => {
    // Run apart so a catastrophic backtrack on the old code fails this test instead of freezing the runner.
    const script = `
      const m = await import(${JSON.stringify(pathToFileURL(resolve(__dirname, '../../../src/core/mcp/validation.ts')).href)});
      const validateAgainstSchema = m.validateAgainstSchema ?? m.default.validateAgainstSchema;
      const schema = { type: 'object', properties: { v: { type: 'string', pattern: '^(a+)+$' } } };
      const r = validateAgainstSchema(schema, { v: 'a'.repeat(100000) + '!' });
      console.log(JSON.stringify({ valid: r.valid, unchecked: r.unchecked ?? null }));`;
    const out = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 30_000 });
    assert.equal(out.signal, null, 'the validation did not finish: killed');
    assert.equal(out.status, 0, out.stderr);
    const r = JSON.parse(out.stdout.trim().split('\n').at(-1) ?? '{}') as { valid: boolean; unchecked: string | null };
    assert.equal(r.valid, true);
    assert.match(r.unchecked ?? '', /not checked/i);
  });
});
