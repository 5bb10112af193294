/**
 * [#39.9] A 503 on /v1/mcp against the local gateway: reads (initialize, ping, tools/list, a read-only
 * tools/call) are sent again with back-off within a bound, Retry-After honoured within it; a write is never
 * re-sent; the gateway's error envelope gives the message and request id, any other body the status words.
 */
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startGateway, type RunningGateway } from '../../localGateway/server';
import { LOCAL_KEYS } from '../../localGateway/keys';
import { McpCallError, McpConnection, type McpConnectionOptions } from '../../../src/core/mcp/mcpClient';
import { mcpGatewayEnvelope } from '../../../src/core/mcp/errors';
import { isReadOnlyTool } from '../../../src/core/mcp/abilities';
import type { Clock } from '../../../src/core/http/retry';
import { runToolCall, type RunnerDeps } from '../../../src/core/mcp/toolRunner';
import { validateAgainstSchema } from '../../../src/core/mcp/validation';
import { describeError } from '../../../src/core/errorText';
import { CallHistory, type HistoryEntry } from '../../../src/core/mcp/history';

let gw: RunningGateway;
before(async () => {
  gw = await startGateway();
});
after(async () => {
  await gw.close();
});
beforeEach(() => gw.reset());

/** Time that moves only when the client waits; every wait is recorded. */
function fakeClock(): Clock & { waits: number[] } {
  let t = 1_000_000;
  const waits: number[] = [];
  return {
    waits,
    now: () => t,
    random: () => 0.5,
    sleep: async (ms) => {
      waits.push(ms);
      t += ms;
    },
  };
}

function connect(clock: Clock, extra: Partial<McpConnectionOptions> = {}): Promise<McpConnection> {
  return McpConnection.connect({ url: `${gw.url}/v1/mcp`, fetch: (u, i) => fetch(u, i), getHeaders: async () => ({ Authorization: `Bearer ${LOCAL_KEYS.userFull}` }), clock, ...extra });
}

async function failure(p: Promise<unknown>): Promise<McpCallError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof McpCallError, String(e));
    return e;
  }
  throw new Error('expected a failure');
}

const faults = (kind: string): number => gw.events.list('fault').filter((e) => e.kind === kind).length;
const ENVELOPE_MESSAGE = 'the entitlement service is temporarily unavailable; retry shortly';

describe('503 on /v1/mcp', () => {
  test('[#39.9] initialize answered 503 (entitlement_unavailable) twice is tried again with back-off and connects', async () => {
    gw.faults.add({ kind: 'entitlement_unavailable', route: '/v1/mcp', count: 2 });
    const clock = fakeClock();
    const conn = await connect(clock);
    try {
      assert.equal(conn.server.name, 'ai-gateway-local-mcp');
      assert.equal(faults('entitlement_unavailable'), 2);
      // Exponential back-off with full jitter (random 0.5): half of 500 ms, then half of 1000 ms.
      assert.deepEqual(clock.waits, [250, 500]);
    } finally {
      await conn.close();
    }
  });

  test('[#39.9] past the bound the envelope message, its type and request id are shown, with the attempts', async () => {
    gw.faults.add({ kind: 'entitlement_unavailable', route: '/v1/mcp', count: 50 });
    const clock = fakeClock();
    const e = await failure(connect(clock));
    assert.equal(faults('entitlement_unavailable'), 4, 'four attempts, no more');
    assert.equal(e.status, 503);
    assert.equal(e.type, 'entitlement_unavailable');
    const rid = gw.events.list('fault').at(-1)?.requestId as string;
    assert.ok(rid);
    assert.equal(e.message, `HTTP 503 (entitlement_unavailable): ${ENVELOPE_MESSAGE} (request ${rid}) (tried 4 times)`);
    assert.ok(e.requestIds.includes(rid));
    assert.doesNotMatch(e.message, /unavailable for now/);
  });

  test('[#39.9] Retry-After is honoured within the bound; one beyond it ends the retries at once', async () => {
    gw.faults.add({ kind: 'entitlement_unavailable', route: '/v1/mcp', count: 1, retryAfter: 3 });
    const clock = fakeClock();
    const conn = await connect(clock);
    await conn.close();
    assert.deepEqual(clock.waits, [3000]);

    gw.reset();
    gw.faults.add({ kind: 'entitlement_unavailable', route: '/v1/mcp', count: 1, retryAfter: 3600 });
    const clock2 = fakeClock();
    const e = await failure(connect(clock2));
    assert.deepEqual(clock2.waits, [], 'an hour is past the 20 s bound: not waited for');
    assert.equal(faults('entitlement_unavailable'), 1);
    assert.match(e.message, /^HTTP 503 \(entitlement_unavailable\): the entitlement service/);
  });

  test('[#39.9] tools/list, ping and a read-only tool call are retried; a site ability call is sent once', async () => {
    const clock = fakeClock();
    const conn = await connect(clock);
    try {
      gw.faults.add({ kind: 'entitlement_unavailable', route: '/v1/mcp', count: 1 });
      const { tools } = await conn.listTools();
      gw.faults.add({ kind: 'entitlement_unavailable', route: '/v1/mcp', count: 1 });
      await conn.ping();
      const ping = tools.find((t) => t.name === 'ping')!;
      assert.equal(isReadOnlyTool(ping), true);
      gw.faults.add({ kind: 'entitlement_unavailable', route: '/v1/mcp', count: 1 });
      const out = await conn.callTool('ping', {}, { readOnly: isReadOnlyTool(ping) });
      assert.equal(out.result.isError ?? false, false);
      assert.equal(faults('entitlement_unavailable'), 3);

      const run = tools.find((t) => t.name === 'run_site_ability')!;
      assert.equal(isReadOnlyTool(run), false, 'a site ability is never provably read-only');
      gw.events.clear();
      gw.faults.add({ kind: 'entitlement_unavailable', route: '/v1/mcp', count: 5 });
      const e = await failure(conn.callTool('run_site_ability', { site_id: 'x', ability: 'core/create-post', input: {} }, { readOnly: isReadOnlyTool(run) }));
      assert.equal(faults('entitlement_unavailable'), 1, 'the write was sent once');
      assert.equal(gw.events.list('mcp-dispatch').length, 0, 'and never reached a tool');
      assert.match(e.message, /^HTTP 503 \(entitlement_unavailable\): the entitlement service is temporarily unavailable; retry shortly \(request [^)]+\)$/);
      assert.equal(e.outcomeUnknown, false, 'a 503 answer is an answer: nothing ran');
    } finally {
      gw.faults.clear();
      await conn.close();
    }
  });

  test('[#39.9] a 503 whose body is not the envelope (an HTML page) keeps the status words, and a read is still retried', async () => {
    gw.faults.add({ kind: 'unavailable_html', route: '/v1/mcp', count: 50 });
    const e = await failure(connect(fakeClock()));
    assert.equal(faults('unavailable_html'), 4);
    assert.equal(e.message, 'HTTP 503: the service is unavailable for now; try again later. (tried 4 times)');
    assert.doesNotMatch(e.message, /<html|Temporarily/);
  });
});

describe('503 in the tool runner', () => {
  function runnerDeps(conn: McpConnection): RunnerDeps & { stored: () => readonly HistoryEntry[] } {
    let stored: readonly HistoryEntry[] = [];
    return {
      serverId: 'gateway',
      serverLabel: 'AI Gateway',
      isGateway: true,
      credential: 'user',
      connection: async () => conn,
      validate: validateAgainstSchema,
      describeError: (e: unknown) => describeError(e),
      // Always confirm: no list_site_abilities read before the call.
      confirmReadOnlyAbilities: true,
      confirmAbility: async () => true,
      history: new CallHistory({ get: () => stored, set: async (v) => void (stored = v) }),
      stored: () => stored,
    };
  }

  test('[#39.9] the runner retries a read-only tool past a 503, and shows a write\'s 503 with the envelope message and request id, sent once', async () => {
    const conn = await connect(fakeClock());
    try {
      const { tools } = await conn.listTools();
      const d = runnerDeps(conn);
      gw.faults.add({ kind: 'entitlement_unavailable', route: '/v1/mcp', count: 1 });
      await runToolCall(d, tools.find((t) => t.name === 'list_account_sites')!, {});
      assert.equal(d.stored()[0]?.failure, undefined, 'the read succeeded on its second attempt');
      assert.equal(faults('entitlement_unavailable'), 1);

      gw.events.clear();
      gw.faults.add({ kind: 'entitlement_unavailable', route: '/v1/mcp', count: 5 });
      await runToolCall(d, tools.find((t) => t.name === 'run_site_ability')!, { site_id: 'site_1', ability: 'core/create-post', input: { title: 'x' } });
      const failed = d.stored()[0]?.failure;
      const rid = gw.events.list('fault').at(-1)?.requestId as string;
      assert.equal(faults('entitlement_unavailable'), 1, 'the write was not re-sent');
      assert.equal(failed?.message, `HTTP 503 (entitlement_unavailable): ${ENVELOPE_MESSAGE} (request ${rid})`);
      assert.equal(failed?.outcomeUnknown, undefined, 'a 503 answer means nothing ran');
      assert.ok(d.stored()[0]?.requestIds.includes(rid));
    } finally {
      gw.faults.clear();
      await conn.close();
    }
  });
});

describe('the gateway error envelope on MCP', () => {
  test('[#39.9] mcpGatewayEnvelope reads the documented envelope and nothing else', () => {
    assert.deepEqual(mcpGatewayEnvelope('{"error":{"message":"m","type":"entitlement_unavailable","code":503,"request_id":"r1"}}'), {
      message: 'm',
      type: 'entitlement_unavailable',
      requestId: 'r1',
    });
    for (const body of ['<html>503</html>', 'Service Unavailable', '{"message":"m"}', '{"error":"m"}', '{"error":{"type":"x"}}', '', 'x'.repeat(70_000)]) {
      assert.equal(mcpGatewayEnvelope(body), undefined, body.slice(0, 30));
    }
  });
});
