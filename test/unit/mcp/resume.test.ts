// Resumption of a cut event stream (issue 32, item 1; MCP 2025-11-25, SEP-1699): a tools/call whose
// event stream closes after an event with an id is resumed with GET and Last-Event-ID after the
// server's `retry`, and never sent twice; when it cannot be resumed, the outcome is unknown as before.
import { test, describe, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { McpCallError, McpConnection, MAX_RESUME_WAIT_MS, MAX_RESUMES, resumeWaitMs, type McpConnectionOptions } from '../../../src/core/mcp/mcpClient';
import { bodyProblemError } from '../../../src/core/mcp/limitedBody';
import { startGateway, type RunningGateway } from '../../localGateway/server';
import { LOCAL_KEYS } from '../../localGateway/keys';
import { RESUMED_TEXT, startResumableServer, type ResumableServer } from './resumableServer';

/** The message of a stream that ended before its answer, unchanged by resumption. */
const CUT_MESSAGE = 'The MCP server ended the event stream before it answered. The server may still have done the work.';

let srv: ResumableServer;
before(async () => {
  srv = await startResumableServer();
});
after(async () => {
  await srv.close();
});
beforeEach(() => {
  srv.postMode = 'cut-after-id';
  srv.getMode = 'result-keep-open';
  srv.retryMs = 200;
  srv.requests = [];
});

async function connect(opts: Partial<McpConnectionOptions> = {}): Promise<McpConnection> {
  return McpConnection.connect({ url: srv.url, fetch: (u, i) => fetch(u, i), getHeaders: async () => ({ authorization: 'Bearer resume-test-key' }), ...opts });
}

function assertUnknownCut(e: unknown): true {
  assert.ok(e instanceof McpCallError, String(e));
  assert.equal(e.reason, 'protocol');
  assert.equal(e.outcomeUnknown, true);
  assert.equal(e.message, CUT_MESSAGE);
  return true;
}

describe('[#32.1] a cut event stream is resumed', () => {
  test('[#32.1] a stream cut after an event with id and retry: GET with Last-Event-ID after retry ms delivers the result; the POST was sent once', async () => {
    const conn = await connect();
    try {
      const outcome = await conn.callTool('slow_write', { id: 1 });
      assert.deepEqual(outcome.result.content, [{ type: 'text', text: RESUMED_TEXT }]);
      assert.equal(srv.toolCallPosts().length, 1, 'the POST is never sent again');
      const gets = srv.resumeGets();
      assert.equal(gets.length, 1);
      const get = gets[0];
      assert.equal(get.headers['last-event-id'], 'ev-1');
      assert.equal(get.headers['mcp-session-id'], srv.sessionId);
      assert.equal(get.headers['authorization'], 'Bearer resume-test-key', 'the connection headers go with the GET');
      assert.match(String(get.headers['accept']), /text\/event-stream/);
      const waited = get.at - srv.cutAt!;
      assert.ok(waited >= srv.retryMs - 20, `reconnected after ${waited.toFixed(0)} ms, before the server's retry of ${srv.retryMs} ms`);
      // The GET stream the server keeps open is closed once the answer is in.
      await srv.resultStreamClosed();
    } finally {
      await conn.close();
    }
  });

  test('[#32.1] a connection that breaks after an event with an id resumes too; the half event is dropped', async () => {
    srv.postMode = 'break-after-id';
    srv.retryMs = 50;
    const conn = await connect();
    try {
      const outcome = await conn.callTool('slow_write', {});
      assert.deepEqual(outcome.result.content, [{ type: 'text', text: RESUMED_TEXT }]);
      assert.equal(srv.toolCallPosts().length, 1);
      assert.equal(srv.resumeGets().length, 1);
    } finally {
      await conn.close();
    }
  });
});

describe('[#32.1] a cut event stream that cannot be resumed is outcome unknown, as before', () => {
  test('[#32.1] the GET is refused (405): outcome unknown with the same message, POST sent once', async () => {
    srv.getMode = 'refuse';
    srv.retryMs = 20;
    const conn = await connect();
    try {
      await assert.rejects(conn.callTool('slow_write', {}), assertUnknownCut);
      assert.equal(srv.toolCallPosts().length, 1);
      assert.equal(srv.resumeGets().length, 1);
    } finally {
      await conn.close();
    }
  });

  test('[#32.1] no event id: outcome unknown with the same message, and no GET', async () => {
    srv.postMode = 'cut-without-id';
    srv.retryMs = 20;
    const conn = await connect();
    try {
      await assert.rejects(conn.callTool('slow_write', {}), assertUnknownCut);
      assert.equal(srv.toolCallPosts().length, 1);
      assert.equal(srv.resumeGets().length, 0);
    } finally {
      await conn.close();
    }
  });

  test(`[#32.1] a server that cuts every continuation too: at most ${MAX_RESUMES} GETs, then outcome unknown`, async () => {
    srv.getMode = 'cut-again';
    srv.retryMs = 0;
    const conn = await connect();
    try {
      await assert.rejects(conn.callTool('slow_write', {}), assertUnknownCut);
      assert.equal(srv.toolCallPosts().length, 1);
      assert.equal(srv.resumeGets().length, MAX_RESUMES);
    } finally {
      await conn.close();
    }
  });
});

describe('[#32.1] the wait before resuming', () => {
  test('[#32.1] Stop during the retry wait: the call ends at once as cancelled, and no GET is sent', async () => {
    srv.retryMs = 1_500;
    const conn = await connect();
    try {
      const stop = new AbortController();
      const cut = srv.nextCut();
      const call = conn.callTool('slow_write', {}, { signal: stop.signal });
      const failed = assert.rejects(call, (e: unknown) => {
        assert.ok(e instanceof McpCallError, String(e));
        assert.equal(e.reason, 'aborted');
        assert.equal(e.outcomeUnknown, true);
        return true;
      });
      await cut;
      const stoppedAt = performance.now();
      stop.abort();
      await failed;
      assert.ok(performance.now() - stoppedAt < 500, 'Stop ends the call promptly');
      // Past the server's retry: still no GET (nothing was left waiting to reconnect).
      await new Promise((r) => setTimeout(r, srv.retryMs + 300));
      assert.equal(srv.resumeGets().length, 0);
      assert.equal(srv.toolCallPosts().length, 1);
    } finally {
      await conn.close();
    }
  });

  test('[#32.1] a retry of 10 hours is bounded: the wait is at most MAX_RESUME_WAIT_MS', async () => {
    const tenHours = 10 * 60 * 60 * 1000;
    srv.retryMs = tenHours;
    // With the bound lowered for the test, the GET comes after the bound, not after ten hours.
    const conn = await connect({ maxResumeWaitMs: 100 });
    try {
      const outcome = await conn.callTool('slow_write', {});
      assert.deepEqual(outcome.result.content, [{ type: 'text', text: RESUMED_TEXT }]);
      assert.equal(srv.resumeGets().length, 1);
    } finally {
      await conn.close();
    }
    // The default bound.
    assert.equal(resumeWaitMs(tenHours), MAX_RESUME_WAIT_MS);
    assert.ok(MAX_RESUME_WAIT_MS <= 30_000);
    assert.equal(resumeWaitMs(250), 250);
  });

  test("[#32.1] a wait that would end after the call's deadline is not started: outcome unknown at once, no GET", async () => {
    srv.retryMs = 10 * 60 * 60 * 1000;
    const conn = await connect();
    try {
      const started = performance.now();
      await assert.rejects(conn.callTool('slow_write', {}, { timeoutMs: 3_000 }), assertUnknownCut);
      assert.ok(performance.now() - started < 2_000, 'not left to time out');
      assert.equal(srv.resumeGets().length, 0);
    } finally {
      await conn.close();
    }
  });
});

describe("[#32.1] the local gateway's stateless /v1/mcp", () => {
  let gw: RunningGateway;
  before(async () => {
    gw = await startGateway();
  });
  after(async () => {
    await gw.close();
  });

  test('[G-MCP-9] a cut tools/call stream there still ends as outcome unknown, as before, with nothing sent twice and no GET', async () => {
    // Every request the client sends, as it leaves (the SDK's optional standalone GET after initialize has no Last-Event-ID).
    const sent: Array<{ method: string; lastEventId: string | null; rpc?: string }> = [];
    const recording: McpConnectionOptions['fetch'] = (u, i) => {
      const body = typeof i?.body === 'string' ? (JSON.parse(i.body) as { method?: string }) : undefined;
      sent.push({ method: i?.method ?? 'GET', lastEventId: new Headers(i?.headers).get('last-event-id'), rpc: body?.method });
      return fetch(u, i);
    };
    const conn = await McpConnection.connect({ url: `${gw.url}/v1/mcp`, fetch: recording, getHeaders: async () => ({ Authorization: `Bearer ${LOCAL_KEYS.userFull}` }) });
    try {
      gw.events.clear();
      gw.faults.add({ kind: 'truncated_event', route: '/v1/mcp', method: 'POST', afterChunks: 0 });
      await assert.rejects(conn.callTool('list_account_sites', {}), (e: unknown) => {
        assert.ok(e instanceof McpCallError, String(e));
        assert.equal(e.outcomeUnknown, true);
        // The gateway's events carry no id: the torn event is reported exactly as before resumption existed.
        assert.equal(e.message, bodyProblemError({ kind: 'badEvent' }, []).message);
        return true;
      });
      const dispatched = gw.events.list('mcp-dispatch').filter((e) => e.method === 'tools/call');
      assert.equal(dispatched.length, 1);
      assert.equal(sent.filter((r) => r.rpc === 'tools/call').length, 1);
      assert.deepEqual(
        sent.filter((r) => r.lastEventId !== null),
        [],
        'no resumption GET',
      );
    } finally {
      await conn.close();
    }
  });
});
