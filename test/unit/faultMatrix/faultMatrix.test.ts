/**
 * The fault matrix: every client route (rows) against every transport fault the local gateway can
 * inject (columns). Each cell records what the server saw (request count), what the user got (error
 * class and reason), whether anything typed or received was lost, and whether an unhandled rejection
 * reached the host. The table is printed whatever happens; the test then fails naming every cell whose
 * outcome differs from the expectation written out below (never derived from the code under test).
 *
 * Cells run one after another so an unhandled rejection is attributed to the cell that caused it;
 * timeouts, retry waits and Retry-After are tiny so the whole matrix stays within seconds.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startGateway, type RunningGateway } from '../../localGateway/server';
import type { FaultSpec } from '../../localGateway/context';
import { LOCAL_KEYS } from '../../localGateway/keys';
import { HOSTING_IDS, HOSTING_USERS } from '../../localGateway/hosting';
import { LOCAL_PROJECT, mintLocalJwt } from '../../localGateway/mcpJwt';
import { createGatewayClient, type GatewayClient } from '../../../src/core/gateway/gatewayClient';
import type { ChatStream, IGatewayClient } from '../../../src/core/gateway/api';
import type { Model } from '../../../src/core/gateway/types';
import { ChatController } from '../../../src/core/chat/chatController';
import { quietEditorHost } from '../chat/controllerRig';
import { HistoryStore } from '../../../src/core/chat/historyStore';
import { Emitter } from '../../../src/core/disposables';
import type { HostToWebview } from '../../../src/protocol/chatProtocol';
import { generateAltText, summarize, suggestTaxonomy } from '../../../src/core/content/contentClient';
import { McpConnection } from '../../../src/core/mcp/mcpClient';
import { sendToolCallBatch, type BatchSendOptions } from '../../../src/core/mcp/batch';
import { HostingClient } from '../../../src/core/account/hostingClient';
import { fetchAnalytics } from '../../../src/core/usage/analyticsClient';
import { systemClock, type Clock } from '../../../src/core/http/retry';
import { isConversational } from '../../../src/core/gateway/chatRoute';

// ---------------------------------------------------------------------------------------------
// Settings: small budgets so stalls and retries cost milliseconds.
const MAX_ATTEMPTS = 2; // gateway client retry budget (first attempt included)
const RETRY = { maxAttempts: MAX_ATTEMPTS, baseDelayMs: 1, maxDelayMs: 2, maxTotalMs: 5000 };
/** The analytics row's back-off (Retry-After: 1 s) is cut to 10 ms, so its retries cost milliseconds. */
const SHORT_WAITS: Clock = { ...systemClock, sleep: (ms, signal) => systemClock.sleep(Math.min(ms, 10), signal) };
/**
 * Client timeouts per column: short only for the phase a stall column tests (first byte, or idle mid
 * body), so that outcome comes quickly; everything else far above any honest answer on a busy machine,
 * so a column whose outcome is not a timeout is never decided by one (issue 40 item 8).
 */
const GENEROUS_MS = 30_000;
const SHORT_MS = 300;
const TIMEOUTS_FOR: Partial<Record<string, TimeoutSettingsLike>> = {
  stallFirstByte: { connectMs: GENEROUS_MS, firstByteMs: SHORT_MS, idleMs: GENEROUS_MS },
  stallMidStream: { connectMs: GENEROUS_MS, firstByteMs: GENEROUS_MS, idleMs: SHORT_MS },
};
const GENEROUS_TIMEOUTS: TimeoutSettingsLike = { connectMs: GENEROUS_MS, firstByteMs: GENEROUS_MS, idleMs: GENEROUS_MS };
interface TimeoutSettingsLike {
  connectMs: number;
  firstByteMs: number;
  idleMs: number;
}
const MCP_TIMEOUT_MS = 500;
/**
 * The MCP request timeout in the columns whose outcome must NOT be a timeout (an oversized response
 * must end on its size limit, found by size): 16 MiB over loopback takes seconds on a busy machine, so
 * this is far above any honest read and only ends a hang (under CELL_DEADLINE_MS, so a hang still ends
 * as a timeout in its cell).
 */
const MCP_GENEROUS_TIMEOUT_MS = 30_000;
/** Columns whose expected outcome is the client's own timeout; every other column gets the generous one. */
const STALL_COLUMNS: ReadonlySet<string> = new Set(['stallFirstByte', 'stallMidStream']);
/**
 * The harness waits on conditions, not on a timer that happens to be long enough (issue 40 item 8: a
 * 1-second cancel lost the race against a 16 MiB answer on a busy machine). A stall lasts until the
 * client leaves (the gateway's stallMs is 0), so only the client's own timeout ends it; every client
 * has one (the gateway's, MCP's, the batch sender's, hosting's and analytics' PhaseTimer). A call still
 * running at this deadline has none that works: the harness cancels it, as a user would give up, and
 * the cell shows it ('C', "no timeout of its own"); a call that ignores even that is reported as hung.
 */
const CELL_DEADLINE_MS = 40_000;
/** After the harness's cancel at the deadline: how long the call may take to honour it before it counts as hung. */
const CANCEL_GRACE_MS = 5_000;
const LOG = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };

// ---------------------------------------------------------------------------------------------
// Columns: the faults, as armed on the local gateway (count: Infinity so retries meet it too).
type FaultId =
  | 'refused'
  | 'resetBeforeHeaders'
  | 'resetAfterBody'
  | 'stallFirstByte'
  | 'stallMidStream'
  | 'html429'
  | 'retryAfter503'
  | 'malformedJson'
  | 'truncatedEvent'
  | 'noDone'
  | 'invalidUtf8'
  | 'oversizedEvent';

const COLUMNS: Array<{ id: FaultId; label: string; spec?: Omit<FaultSpec, 'route' | 'method'> }> = [
  { id: 'refused', label: 'conn refused' },
  { id: 'resetBeforeHeaders', label: 'reset <hdrs', spec: { kind: 'reset_before_headers' } },
  { id: 'resetAfterBody', label: 'reset >body', spec: { kind: 'reset_after_body' } },
  { id: 'stallFirstByte', label: 'stall 1st byte', spec: { kind: 'stall_before_headers' } },
  { id: 'stallMidStream', label: 'stall mid', spec: { kind: 'stall_mid_body', afterChunks: 2 } },
  { id: 'html429', label: '429 HTML', spec: { kind: 'throttled' } },
  { id: 'retryAfter503', label: '503 R-After', spec: { kind: 'unavailable', retryAfter: 1 } },
  { id: 'malformedJson', label: 'bad JSON', spec: { kind: 'malformed_json' } },
  { id: 'truncatedEvent', label: 'trunc event', spec: { kind: 'truncated_event', afterChunks: 2 } },
  { id: 'noDone', label: 'no [DONE]', spec: { kind: 'no_done' } },
  { id: 'invalidUtf8', label: 'bad UTF-8', spec: { kind: 'invalid_utf8', afterChunks: 2 } },
  { id: 'oversizedEvent', label: 'oversized', spec: { kind: 'oversized_event', afterChunks: 2 } },
];

// ---------------------------------------------------------------------------------------------
// What a cell observed.
interface Observed {
  count: number;
  /** Undefined on success. */
  error?: { cls: string; reason: string; status?: number; mayHaveReachedServer?: boolean; outcomeUnknown?: boolean; partial?: boolean; phase?: string; message: string };
  /** Text of a success, when the route has one, for the "silent success" check. */
  lost: 'no' | string;
  unhandled: number;
  hung: boolean;
  /** The harness had to cancel the call (the client has no timeout of its own). */
  cancelledByHarness: boolean;
}

/** The user-facing outcome of one run of a row. */
interface RunResult {
  error?: unknown;
  /** Anything typed or received that is gone afterwards; 'no' when nothing is. */
  lost: 'no' | string;
}

interface Env {
  gw: RunningGateway;
  /** The gateway's base URL, or a closed port for the "refused" column. */
  base: () => string;
  signal: AbortSignal;
  /** Arms the column's fault for this row (called by the row after its own setup requests). */
  arm: () => void;
  /** The MCP request timeout for this column (short only where a stall must end in a timeout). */
  mcpTimeoutMs: number;
  /** The HTTP clients' timeouts for this column (TIMEOUTS_FOR). */
  timeouts: TimeoutSettingsLike;
}

interface Row {
  label: string;
  method: string;
  /** Path as the gateway logs it (the fault's route). */
  path: string;
  /** Streams (SSE) its answer. */
  sse: boolean;
  /** A billed or state-changing request: sent at most once unless it provably never arrived. */
  billed: boolean;
  run(env: Env): Promise<RunResult>;
}

// ---------------------------------------------------------------------------------------------
// Rows.
let models: Model[] = [];
let historyDir = '';

function gatewayClient(env: Env): GatewayClient {
  return createGatewayClient({
    baseUrl: env.base,
    getKey: async () => LOCAL_KEYS.userFull,
    userAgent: 'fault-matrix',
    timeouts: env.timeouts,
    retry: RETRY,
  });
}

/** Plain client-level run: nothing typed is held, and nothing is applied unless the call succeeds. */
async function clientRun(env: Env, call: (c: GatewayClient) => Promise<unknown>): Promise<RunResult> {
  const c = gatewayClient(env);
  try {
    env.arm();
    await call(c);
    return { lost: 'no' };
  } catch (error) {
    return { error, lost: 'no' };
  } finally {
    await c.dispose();
  }
}

/** The chat through the core ChatController, so typed and received text can be checked. */
async function chatThroughController(env: Env, modelId = 'openai/gpt-4o'): Promise<RunResult> {
  const posted: HostToWebview[] = [];
  const store = new HistoryStore(await mkdtemp(join(historyDir, 'c-')));
  const host = quietEditorHost({ confirmContextOverflow: async () => false });
  const client = gatewayClient(env);
  let seen: unknown;
  const spy = (s: ChatStream): ChatStream => ({
    requestId: s.requestId,
    [Symbol.asyncIterator]() {
      const it = s[Symbol.asyncIterator]();
      return {
        next: async () => {
          try {
            return await it.next();
          } catch (e) {
            seen = e;
            throw e;
          }
        },
        return: async (v?: unknown) => (it.return ? it.return(v) : { done: true, value: undefined }),
      };
    },
  });
  const recording: IGatewayClient = {
    listModels: (o) => client.listModels(o),
    getModelSchema: (id, o) => client.getModelSchema(id, o),
    createChatCompletion: (r, o) => client.createChatCompletion(r, o),
    postJson: (p, b, o) => client.postJson(p, b, o),
    getJson: (p, o) => client.getJson(p, o),
    streamChatCompletion: async (r, o) => {
      try {
        return spy(await client.streamChatCompletion(r, o));
      } catch (e) {
        seen = e;
        throw e;
      }
    },
  };
  const changed = new Emitter<unknown>();
  let last = modelId;
  const controller = new ChatController({
    getClient: async () => recording,
    models: { chatModels: () => models.filter((m) => isConversational(m)), getModel: (id) => models.find((m) => m.id === id), onDidChange: changed.event },
    store,
    prefs: { lastModelId: () => last, setLastModelId: (id) => void (last = id) },
    host,
    post: (m) => void posted.push(m),
    log: LOG,
  });
  const typed = 'Please explain fault injection in a few sentences.';
  // The user's Stop is the controller's cancel: the harness presses it when it gives up waiting.
  env.signal.addEventListener('abort', () => void controller.handle({ type: 'stop' }), { once: true });
  try {
    env.arm();
    await controller.handle({ type: 'send', text: typed });
    const received = posted.map((m) => (m.type === 'streamChunk' ? m.text : '')).join('');
    const done = posted.find((m) => m.type === 'streamDone');
    const failed = posted.find((m) => m.type === 'streamError');
    const lost: string[] = [];
    // Typed: in history as the user message, or handed back to the input box.
    const [summary] = await store.list();
    const stored = summary ? await store.load(summary.id) : undefined;
    const inHistory = stored?.messages.some((m) => m.role === 'user' && m.content === typed) ?? false;
    const restored = posted.some((m) => m.type === 'setInput' && m.text === typed);
    if (!inHistory && !restored) lost.push('typed');
    // Received: every streamed character is in the message the user keeps.
    const kept = done?.message.content ?? failed?.message.content ?? '';
    if (!kept.startsWith(received)) lost.push('received');
    if (failed !== undefined && received !== '' && failed.message.status !== 'incomplete') lost.push('not marked incomplete');
    const verdict = lost.join('+') || 'no';
    if (seen !== undefined) return { error: seen, lost: verdict };
    // No typed error reached the controller: an explicit "incomplete" marking is the other accepted
    // outcome of a cut stream; a complete-looking reply is a silent success.
    const status = done?.message.status ?? failed?.message.status;
    if (status === 'incomplete') return { error: Object.assign(new Error('the reply was marked incomplete'), { name: 'IncompleteMarking', reason: 'incomplete', partial: true }), lost: verdict };
    if (done !== undefined) return { lost: verdict };
    return { error: new Error(`the reply failed without a typed error (status ${status ?? 'none'})`), lost: verdict };
  } finally {
    controller.dispose?.();
    await client.dispose();
  }
}

/** MCP: connect on a clean line (no fault), then arm and call; refused = the fetch goes to a closed port. */
async function mcpRun(env: Env, call: (conn: McpConnection, fetch: typeof globalThis.fetch) => Promise<unknown>): Promise<RunResult> {
  const origin = env.gw.url;
  const redirecting: typeof globalThis.fetch = (url, init) => fetch(String(url).replace(origin, env.base()), init);
  const conn = await McpConnection.connect({
    url: `${origin}/v1/mcp`,
    fetch: (url, init) => redirecting(url, init),
    getHeaders: async () => ({ Authorization: `Bearer ${LOCAL_KEYS.userFull}` }),
    requestTimeoutMs: env.mcpTimeoutMs,
    log: LOG,
  });
  try {
    env.gw.events.clear();
    env.arm();
    await call(conn, redirecting);
    return { lost: 'no' };
  } catch (error) {
    return { error, lost: 'no' };
  } finally {
    await conn.close();
  }
}

const ROWS: Row[] = [
  { label: 'chat streamed (controller)', method: 'POST', path: '/v1/chat/completions', sse: true, billed: true, run: chatThroughController },
  {
    label: 'chat whole',
    method: 'POST',
    path: '/v1/chat/completions',
    sse: false,
    billed: true,
    run: (env) => clientRun(env, (c) => c.createChatCompletion({ model: 'openai/gpt-4o', messages: [{ role: 'user', content: 'hello' }] }, { signal: env.signal })),
  },
  // The messages route (issue 33): the chat with a messages-only model, and a whole reply.
  { label: 'messages streamed (controller)', method: 'POST', path: '/v1/messages', sse: true, billed: true, run: (env) => chatThroughController(env, 'anthropic/claude-sonnet-4') },
  {
    label: 'messages whole',
    method: 'POST',
    path: '/v1/messages',
    sse: false,
    billed: true,
    run: (env) => clientRun(env, (c) => c.createMessage({ model: 'anthropic/claude-sonnet-4', max_tokens: 100, messages: [{ role: 'user', content: 'hello' }] }, { signal: env.signal })),
  },
  { label: 'catalog', method: 'GET', path: '/v1/models', sse: false, billed: false, run: (env) => clientRun(env, (c) => c.listModels({ signal: env.signal })) },
  {
    label: 'alt text',
    method: 'POST',
    path: '/v1/images/alt-text',
    sse: false,
    billed: true,
    run: (env) => clientRun(env, (c) => generateAltText({ client: c, log: LOG, model: undefined, signal: env.signal }, { image: { kind: 'url', url: 'https://img.example.test/a.png' } })),
  },
  {
    label: 'summary',
    method: 'POST',
    path: '/v1/content/summarize',
    sse: false,
    billed: true,
    run: (env) => clientRun(env, (c) => summarize({ client: c, log: LOG, model: undefined, signal: env.signal }, { text: 'A paragraph to summarise, long enough.' })),
  },
  {
    label: 'taxonomy',
    method: 'POST',
    path: '/v1/content/suggest-taxonomy',
    sse: false,
    billed: true,
    run: (env) => clientRun(env, (c) => suggestTaxonomy({ client: c, log: LOG, model: undefined, signal: env.signal }, { text: 'A post about gardening and tomatoes.' })),
  },
  {
    label: 'MCP tools/call',
    method: 'POST',
    path: '/v1/mcp',
    // The local gateway upgrades a single tools/call to one SSE event (Streamable HTTP).
    sse: true,
    billed: true,
    run: (env) => mcpRun(env, (conn) => conn.callTool('list_account_sites', {}, { signal: env.signal })),
  },
  {
    label: 'MCP batch',
    method: 'POST',
    path: '/v1/mcp',
    sse: false,
    billed: true,
    run: (env) =>
      mcpRun(env, (conn, f) =>
        sendToolCallBatch(
          [
            { name: 'list_account_sites', arguments: {} },
            { name: 'search_abilities', arguments: { query: 'post' } },
          ],
          // timeoutMs: the same per-request timeout as single calls (CallOptions.timeoutMs).
          {
            url: `${env.gw.url}/v1/mcp`,
            fetch: (u, i) => f(u, i),
            headers: { Authorization: `Bearer ${LOCAL_KEYS.userFull}` },
            protocolVersion: conn.server.protocolVersion,
            signal: env.signal,
            timeoutMs: env.mcpTimeoutMs,
          } as BatchSendOptions,
        ),
      ),
  },
  {
    label: 'hosting PUT',
    method: 'PUT',
    path: `/hosting/v1/installs/${HOSTING_IDS.installNormal}/cache_exclusions`,
    sse: false,
    billed: true,
    run: async (env) => {
      const c = new HostingClient({
        baseUrl: () => `${env.base()}/hosting`,
        getCredentials: async () => ({ username: 'owner', password: HOSTING_USERS.owner.password }),
        fetch: (url, init) => fetch(url, init),
        userAgent: 'fault-matrix',
        // The same timeouts as the gateway client's rows (the editor passes the shared Network's).
        timeouts: () => env.timeouts,
      });
      try {
        env.arm();
        await c.putCacheExclusions(HOSTING_IDS.installNormal, [{ type: 'url path', value: '^/cart' }], env.signal);
        return { lost: 'no' };
      } catch (error) {
        return { error, lost: 'no' };
      }
    },
  },
  {
    label: 'analytics GET',
    method: 'GET',
    path: '/v1/analytics',
    sse: false,
    billed: false,
    run: async (env) => {
      try {
        env.arm();
        await fetchAnalytics(
          { baseUrl: env.base, getJwt: async () => mintLocalJwt(), fetch: (url, init) => fetch(url, init), userAgent: 'fault-matrix', timeouts: () => env.timeouts, retry: () => RETRY, clock: SHORT_WAITS },
          { projectId: LOCAL_PROJECT, startTime: Math.floor(Date.now() / 1000) - 86_400 },
          env.signal,
        );
        return { lost: 'no' };
      } catch (error) {
        return { error, lost: 'no' };
      }
    },
  },
];

// ---------------------------------------------------------------------------------------------
// Expectations, written out per the rules (billed POSTs at most once unless provably never sent;
// GETs may retry within the budget; typed errors with the right reason; nothing lost; no unhandled
// rejection). A cell is 'n/a' when the fault cannot occur on that route:
// - truncated event, no [DONE]: only event streams have events; the JSON routes have none.
// - no [DONE]: MCP's event stream has no [DONE] sentinel, so the MCP tools/call cell is n/a too.
// - oversized event: the issue bounds one SSE event and one MCP response; the other JSON routes have
//   no documented limit to expect, so they are n/a (their cells would assert an invented number).
// "stall mid-stream" applies to every route: on a JSON route it is a body that stops half way.
interface Expect {
  /** Exact count, or [min, max]. */
  count: number | [number, number];
  /** Accepted reasons (first is the rule's; others are the module's own vocabulary for the same). */
  reasons: string[];
  /** Error classes accepted. */
  classes: string[];
  mayHaveReachedServer?: true;
  partial?: true;
  phase?: string;
  /** The error message must match (e.g. it names the limit). */
  message?: RegExp;
  /** The error message must not match (e.g. an HTML page was parsed into it). */
  notMessage?: RegExp;
}

const NA = 'n/a' as const;
type Cell = Expect | typeof NA;

const GW = ['GatewayError'];
const MCP = ['McpCallError'];
const HOST = ['HostingError'];
const HTML = /<html|<h1|doctype/i;
const NAMES_LIMIT = /limit|too large|exceed|\d+\s*(bytes|[KM]i?B)/i;

function billedColumns(classes: string[], over: Partial<Record<FaultId, Cell>> = {}): Record<FaultId, Cell> {
  return {
    refused: { count: 0, reasons: ['network'], classes },
    resetBeforeHeaders: { count: 1, reasons: ['network'], classes, mayHaveReachedServer: true },
    resetAfterBody: { count: 1, reasons: ['network'], classes, mayHaveReachedServer: true },
    stallFirstByte: { count: 1, reasons: ['timeout'], classes, phase: 'firstByte' },
    stallMidStream: { count: 1, reasons: ['timeout'], classes, phase: 'idle', partial: true },
    html429: { count: [1, MAX_ATTEMPTS], reasons: ['throttled'], classes, notMessage: HTML },
    retryAfter503: { count: MAX_ATTEMPTS, reasons: ['unavailable'], classes },
    malformedJson: { count: 1, reasons: ['protocol'], classes },
    truncatedEvent: NA,
    noDone: NA,
    invalidUtf8: { count: 1, reasons: ['protocol'], classes },
    oversizedEvent: NA,
    ...over,
  };
}

function getColumns(classes: string[], over: Partial<Record<FaultId, Cell>> = {}): Record<FaultId, Cell> {
  return billedColumns(classes, {
    resetBeforeHeaders: { count: [1, MAX_ATTEMPTS], reasons: ['network'], classes },
    resetAfterBody: { count: [1, MAX_ATTEMPTS], reasons: ['network'], classes },
    stallFirstByte: { count: [1, MAX_ATTEMPTS], reasons: ['timeout'], classes, phase: 'firstByte' },
    stallMidStream: { count: [1, MAX_ATTEMPTS], reasons: ['timeout'], classes, phase: 'idle' },
    malformedJson: { count: [1, MAX_ATTEMPTS], reasons: ['protocol'], classes },
    invalidUtf8: { count: [1, MAX_ATTEMPTS], reasons: ['protocol'], classes },
    ...over,
  });
}

const streamed = (classes: string[]): Partial<Record<FaultId, Cell>> => ({
  truncatedEvent: { count: 1, reasons: ['protocol'], classes, partial: true },
  // "A typed error or an incomplete marking, never a silent success."
  noDone: { count: 1, reasons: ['protocol', 'incomplete'], classes: [...classes, 'IncompleteMarking'], partial: true },
  oversizedEvent: { count: 1, reasons: ['protocol'], classes, message: NAMES_LIMIT },
});

const EXPECTED: Record<string, Record<FaultId, Cell>> = {
  'chat streamed (controller)': billedColumns(GW, streamed(GW)),
  'chat whole': billedColumns(GW, { stallMidStream: { count: 1, reasons: ['timeout'], classes: GW, phase: 'idle' } }),
  'messages streamed (controller)': billedColumns(GW, streamed(GW)),
  'messages whole': billedColumns(GW, { stallMidStream: { count: 1, reasons: ['timeout'], classes: GW, phase: 'idle' } }),
  catalog: getColumns(GW),
  'alt text': billedColumns(GW, { stallMidStream: { count: 1, reasons: ['timeout'], classes: GW, phase: 'idle' } }),
  summary: billedColumns(GW, { stallMidStream: { count: 1, reasons: ['timeout'], classes: GW, phase: 'idle' } }),
  taxonomy: billedColumns(GW, { stallMidStream: { count: 1, reasons: ['timeout'], classes: GW, phase: 'idle' } }),
  // MCP: McpCallError; an HTTP 429/503 may keep the module's reason 'http' (status checked in the text).
  'MCP tools/call': billedColumns(MCP, {
    stallFirstByte: { count: 1, reasons: ['timeout'], classes: MCP },
    stallMidStream: { count: 1, reasons: ['timeout'], classes: MCP },
    html429: { count: [1, MAX_ATTEMPTS], reasons: ['throttled', 'http'], classes: MCP, notMessage: HTML },
    retryAfter503: { count: [1, MAX_ATTEMPTS], reasons: ['unavailable', 'http'], classes: MCP },
    truncatedEvent: { count: 1, reasons: ['protocol'], classes: MCP },
    oversizedEvent: { count: 1, reasons: ['protocol'], classes: MCP, message: NAMES_LIMIT },
  }),
  'MCP batch': billedColumns(MCP, {
    stallFirstByte: { count: 1, reasons: ['timeout'], classes: MCP },
    stallMidStream: { count: 1, reasons: ['timeout'], classes: MCP },
    html429: { count: [1, MAX_ATTEMPTS], reasons: ['throttled', 'http'], classes: MCP, notMessage: HTML },
    retryAfter503: { count: [1, MAX_ATTEMPTS], reasons: ['unavailable', 'http'], classes: MCP },
    oversizedEvent: { count: 1, reasons: ['protocol'], classes: MCP, message: NAMES_LIMIT },
  }),
  // Hosting writes are never retried automatically (a 503'd PUT may have been applied): count 1.
  'hosting PUT': billedColumns(HOST, {
    stallFirstByte: { count: 1, reasons: ['timeout'], classes: HOST },
    stallMidStream: { count: 1, reasons: ['timeout'], classes: HOST },
    html429: { count: 1, reasons: ['throttled'], classes: HOST, notMessage: HTML },
    retryAfter503: { count: 1, reasons: ['unavailable'], classes: HOST },
  }),
  // Analytics retries by the same settings as the gateway client (withRetry): a 503 is asked MAX_ATTEMPTS times.
  'analytics GET': getColumns(GW, {
    stallFirstByte: { count: [1, MAX_ATTEMPTS], reasons: ['timeout'], classes: GW },
    stallMidStream: { count: [1, MAX_ATTEMPTS], reasons: ['timeout'], classes: GW },
  }),
};

// ---------------------------------------------------------------------------------------------
// Harness.
let unhandled = 0;
const onUnhandled = (): void => void unhandled++;
let gw: RunningGateway;
let deadPort = 0;

function describeError(e: unknown): Observed['error'] {
  if (!(e instanceof Error)) return { cls: typeof e, reason: '-', message: String(e) };
  const x = e as Error & Record<string, unknown>;
  return {
    cls: e.name,
    reason: typeof x.reason === 'string' ? x.reason : '-',
    status: typeof x.status === 'number' ? x.status : undefined,
    mayHaveReachedServer: typeof x.mayHaveReachedServer === 'boolean' ? x.mayHaveReachedServer : undefined,
    outcomeUnknown: typeof x.outcomeUnknown === 'boolean' ? x.outcomeUnknown : undefined,
    partial: typeof x.partial === 'boolean' ? x.partial : undefined,
    phase: typeof x.timeoutPhase === 'string' ? x.timeoutPhase : undefined,
    message: e.message,
  };
}

/**
 * Lets late rejections surface, and waits until the gateway logged (on socket close) every request a
 * fault fired on: each firing pushes a 'fault' event on arrival, each request a 'request' event when
 * it ends. Bounded, so a request the client never closes cannot hang the matrix.
 */
async function settle(row: Row): Promise<void> {
  for (let i = 0; i < 3; i++) await new Promise<void>((r) => setImmediate(r));
  const arrived = (): number => gw.events.list('fault').filter((e) => e.path === row.path).length;
  const logged = (): number => gw.events.list('request').filter((e) => e.method === row.method && e.path === row.path).length;
  for (let waited = 0; logged() < arrived() && waited < 3000; waited += 10) await new Promise<void>((r) => setTimeout(r, 10));
  await new Promise<void>((r) => setTimeout(r, 10));
}

/** `deadlineMs`: CELL_DEADLINE_MS, shorter only for the harness's own canaries (which never settle by themselves). */
async function runCell(row: Row, col: (typeof COLUMNS)[number], deadlineMs = CELL_DEADLINE_MS): Promise<Observed> {
  gw.reset();
  // A stall ends when the client leaves (or the gateway closes): only the client's own timeout ends it.
  gw.configure({ stallMs: 0 });
  const before = unhandled;
  const controller = new AbortController();
  let cancelledByHarness = false;
  let armed = false;
  const env: Env = {
    gw,
    // Setup requests (MCP initialize) go to the real gateway; only the call under test is refused.
    base: () => (col.id === 'refused' && armed ? `http://127.0.0.1:${deadPort}` : gw.url),
    signal: controller.signal,
    mcpTimeoutMs: STALL_COLUMNS.has(col.id) ? MCP_TIMEOUT_MS : MCP_GENEROUS_TIMEOUT_MS,
    timeouts: TIMEOUTS_FOR[col.id] ?? GENEROUS_TIMEOUTS,
    arm: () => {
      armed = true;
      gw.events.clear();
      if (col.spec) gw.faults.add({ ...col.spec, route: row.path, method: row.method, count: Infinity });
    },
  };
  let hung = false;
  // A row whose setup throws is a failing cell, not a crashed matrix.
  const call = row.run(env).catch((error: unknown) => ({ error: new Error(`setup failed: ${error instanceof Error ? error.message : String(error)}`), lost: 'no' as const }));
  const within = async (ms: number): Promise<RunResult | undefined> => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      return await Promise.race([call, new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)))]);
    } finally {
      clearTimeout(timer);
    }
  };
  let result = await within(deadlineMs);
  if (result === undefined) {
    // Still waiting at the deadline: the client has no timeout of its own that works.
    cancelledByHarness = true;
    controller.abort();
    result = await within(CANCEL_GRACE_MS);
  }
  if (result === undefined) {
    hung = true;
    result = { error: new Error('the call never settled'), lost: 'unknown' };
  }
  await settle(row);
  gw.faults.clear();
  const count = gw.events.list('request').filter((e) => e.method === row.method && e.path === row.path).length;
  return {
    count,
    error: result.error === undefined ? undefined : describeError(result.error),
    lost: result.lost,
    unhandled: unhandled - before,
    hung,
    cancelledByHarness,
  };
}

function countOk(expected: Expect['count'], got: number): boolean {
  return typeof expected === 'number' ? got === expected : got >= expected[0] && got <= expected[1];
}

/** Why a cell differs from its expectation; empty when it matches. */
function problems(exp: Expect, got: Observed): string[] {
  const out: string[] = [];
  if (!countOk(exp.count, got.count)) out.push(`server saw ${got.count} request(s), expected ${typeof exp.count === 'number' ? exp.count : exp.count.join('..')}`);
  if (got.hung) out.push('never settled');
  else if (got.cancelledByHarness) out.push('no timeout of its own (cancelled by the test)');
  const e = got.error;
  if (e === undefined) out.push('silent success');
  else {
    if (!exp.classes.includes(e.cls)) out.push(`error class ${e.cls}, expected ${exp.classes.join('|')}`);
    if (!exp.reasons.includes(e.reason)) out.push(`reason ${e.reason}, expected ${exp.reasons.join('|')}`);
    if (exp.mayHaveReachedServer && e.mayHaveReachedServer !== true && e.outcomeUnknown !== true) out.push('not marked "may have reached the server"');
    if (exp.partial && e.partial !== true) out.push('not marked partial');
    if (exp.phase !== undefined && e.phase !== exp.phase) out.push(`timeout phase ${e.phase ?? '-'}, expected ${exp.phase}`);
    if (exp.message && !exp.message.test(e.message)) out.push('message does not name the limit');
    if (exp.notMessage && exp.notMessage.test(e.message)) out.push('HTML body parsed into the message');
  }
  if (got.lost !== 'no') out.push(`lost: ${got.lost}`);
  if (got.unhandled > 0) out.push(`${got.unhandled} unhandled rejection(s)`);
  return out;
}

function cellText(got: Observed | undefined): string {
  if (got === undefined) return NA;
  const e = got.error;
  const what = got.hung ? 'HUNG' : e === undefined ? 'OK' : `${e.cls.replace('Error', '')}:${e.reason}${e.phase ? `/${e.phase}` : ''}`;
  const marks = [e?.mayHaveReachedServer || e?.outcomeUnknown ? 'M' : '', e?.partial ? 'P' : '', got.cancelledByHarness ? 'C' : ''].join('');
  return `n=${got.count} ${what}${marks ? ` [${marks}]` : ''} lost=${got.lost === 'no' ? 'no' : 'YES'} ur=${got.unhandled}`;
}

before(async () => {
  process.on('unhandledRejection', onUnhandled);
  historyDir = await mkdtemp(join(tmpdir(), 'fault-matrix-'));
  gw = await startGateway();
  const c = createGatewayClient({ baseUrl: gw.url, getKey: async () => undefined, userAgent: 'fault-matrix' });
  models = (await c.listModels()).data.data;
  await c.dispose();
  // A port nobody listens on: bound, then released.
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', () => r()));
  deadPort = (probe.address() as { port: number }).port;
  await new Promise<void>((r) => probe.close(() => r()));
});

after(async () => {
  process.off('unhandledRejection', onUnhandled);
  await gw?.close();
  await rm(historyDir, { recursive: true, force: true });
});

test('[G-ERR-3] [G-ERR-4] [G-CHAT-2] [#33.4] fault matrix: every route against every gateway fault (typed error, billed POSTs at most once, nothing lost, no unhandled rejection)', async () => {
  const failures: string[] = [];
  const table: string[][] = [];
  for (const row of ROWS) {
    const line = [`${row.label}  (${row.method} ${row.path}${row.sse ? ', event stream' : ''}${row.billed ? ', billed/state-changing: at most once' : ', may retry'})`];
    for (const col of COLUMNS) {
      const exp = EXPECTED[row.label][col.id];
      if (exp === NA) {
        line.push(NA);
        continue;
      }
      const got = await runCell(row, col);
      line.push(cellText(got));
      const why = problems(exp, got);
      if (why.length > 0) failures.push(`${row.label} × ${col.label}: ${why.join('; ')}${got.error ? ` [${got.error.cls}: ${got.error.message.slice(0, 120)}]` : ''}`);
    }
    table.push(line);
  }
  // Transposed print: one block per row keeps the lines readable in a terminal.
  const out: string[] = ['', 'FAULT MATRIX  (n = requests the server saw; M = marked "may have reached the server"/outcome unknown; P = partial; C = cancelled by the test, no own timeout; ur = unhandled rejections)'];
  const width = Math.max(...COLUMNS.map((c) => c.label.length));
  for (const line of table) {
    out.push(`  ${line[0]}`);
    COLUMNS.forEach((c, i) => out.push(`    ${c.label.padEnd(width)}  ${line[i + 1]}`));
  }
  out.push('', `${failures.length} failing cell(s)${failures.length ? ':' : ''}`, ...failures.map((f) => `  - ${f}`), '');
  console.log(out.join('\n'));
  assert.deepEqual(failures, [], `fault matrix: ${failures.length} cell(s) differ from the rules`);
});

test('the matrix harness catches what it checks for: a repeated POST, a silent success, lost text', async () => {
  // A stand-in "client" that sends the billed POST twice, swallows the damaged answer and drops the
  // typed text: every check of the cell must flag it. (An unhandled rejection cannot be staged here:
  // node:test fails the running test on one by itself, which is the same verdict.)
  const canary: Row = {
    label: 'canary',
    method: 'POST',
    path: '/v1/chat/completions',
    sse: false,
    billed: true,
    run: async (env) => {
      env.arm();
      for (let i = 0; i < 2; i++) {
        await fetch(`${env.base()}/v1/chat/completions`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${LOCAL_KEYS.userFull}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ model: 'openai/gpt-4o', messages: [{ role: 'user', content: 'hi' }] }),
        }).then((r) => r.text());
      }
      return { lost: 'typed' };
    },
  };
  const col = COLUMNS.find((c) => c.id === 'malformedJson');
  assert.ok(col);
  const got = await runCell(canary, col);
  assert.equal(got.count, 2);
  assert.equal(got.unhandled, 0);
  assert.deepEqual(problems({ count: 1, reasons: ['protocol'], classes: GW }, got), ['server saw 2 request(s), expected 1', 'silent success', 'lost: typed']);
});

test('[#40.8] the matrix harness catches a client with no timeout of its own: the stall never ends by itself, the harness cancels at the deadline', async () => {
  // A stand-in "client" with no timeout: it waits on the stalled answer until the harness gives up
  // (the deadline is short here only because this canary can never settle by itself).
  const canary: Row = {
    label: 'canary without a timeout',
    method: 'POST',
    path: '/v1/chat/completions',
    sse: false,
    billed: true,
    run: async (env) => {
      env.arm();
      try {
        await fetch(`${env.base()}/v1/chat/completions`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${LOCAL_KEYS.userFull}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ model: 'openai/gpt-4o', messages: [{ role: 'user', content: 'hi' }] }),
          signal: env.signal,
        }).then((r) => r.text());
        return { lost: 'no' };
      } catch (error) {
        return { error, lost: 'no' };
      }
    },
  };
  const col = COLUMNS.find((c) => c.id === 'stallFirstByte');
  assert.ok(col);
  const got = await runCell(canary, col, 500);
  assert.equal(got.cancelledByHarness, true);
  assert.equal(got.hung, false, 'the canary honours the cancel');
  assert.ok(problems({ count: 1, reasons: ['timeout'], classes: GW }, got).includes('no timeout of its own (cancelled by the test)'));
  assert.match(cellText(got), /C/);
});
