/**
 * One connection to one Streamable HTTP MCP server, on the official SDK (Client +
 * StreamableHTTPClientTransport): initialize with version negotiation, notifications/initialized,
 * ping, paginated tools/list, tools/call and SSE-upgraded responses are all the SDK's work.
 *
 * What this adds: the injected fetch (proxy-aware undici in the editor, Node's fetch in tests),
 * headers resolved on every request (keys can change), X-Request-ID capture per call, one typed
 * error (McpCallError) for transport and protocol failures, and the resumption of a cut event stream
 * (MCP 2025-11-25, SEP-1699; see `resumer` below). Tool errors (isError results) are not exceptions:
 * see toolErrors.ts.
 *
 * Imported on the first MCP connection (an import() chunk): importing this file pulls in the SDK.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
// The SDK is loaded with require(), not import: esbuild then resolves the packages' "require" export
// condition, i.e. the SDK's and zod's CommonJS builds. Through "import" it bundles zod's ESM build,
// whose circular modules break when esbuild converts them to CommonJS ("$constructor is not a
// function" when the MCP chunk loads). Types still come from the typed module specifiers.
/* eslint-disable @typescript-eslint/no-require-imports */
const { Client } = require('@modelcontextprotocol/sdk/client/index.js') as typeof import('@modelcontextprotocol/sdk/client/index.js');
const { StreamableHTTPClientTransport, StreamableHTTPError } =
  require('@modelcontextprotocol/sdk/client/streamableHttp.js') as typeof import('@modelcontextprotocol/sdk/client/streamableHttp.js');
const { CallToolResultSchema, ElicitRequestSchema, EmptyResultSchema, ListToolsResultSchema, McpError } =
  require('@modelcontextprotocol/sdk/types.js') as typeof import('@modelcontextprotocol/sdk/types.js');
/* eslint-enable @typescript-eslint/no-require-imports */
type Client = import('@modelcontextprotocol/sdk/client/index.js').Client;
import { nullLogger, redactSecrets, type Logger } from '../log';
import type { CallToolResult, FetchLike, McpTool, ServerInfo } from './types';
import { isRetryableMcpRead, MAX_MCP_RESPONSE_BYTES, MCP_READ_RETRY, McpCallError, mcpGatewayEnvelope, provablyNotSent, responseTooLarge, type McpFailureReason } from './errors';
import { parseRetryAfter } from '../http/classify';
import { backoffDelay, systemClock, type Clock, type RetrySettings } from '../http/retry';
import { bodyProblemError, BodyTooLargeError, declaredLength, guardResponse, isEventStream, readBodyLimited } from './limitedBody';
import { InvalidUtf8Error } from '../http/body';
import { DEFAULT_LIMITS } from '../http/policy';
import { mayResendAfterAuth, McpSignInError, noteAuthRound, readChallenge, type AuthChallenge, type AuthRounds } from './oauth';
import { StatelessHttpError, StatelessProtocolError, StatelessRpcError, StatelessSession } from './statelessEra';

export { McpCallError, MAX_MCP_RESPONSE_BYTES } from './errors';
export type { McpFailureReason } from './errors';

export interface McpConnectionOptions {
  url: string;
  fetch: FetchLike;
  /** Resolved before every HTTP request. Values are secrets: never logged, never returned. */
  getHeaders: () => Promise<Record<string, string>>;
  clientInfo?: { name: string; version: string };
  log?: Logger;
  /** Per-request timeout (the SDK's default is 60 s; tools that run site abilities can be slower). */
  requestTimeoutMs?: number;
  /** Exact secrets to strip from log lines and error messages. */
  knownSecrets?: () => readonly string[];
  /** Largest response body read for one request (default MAX_MCP_RESPONSE_BYTES). */
  maxResponseBytes?: number;
  /** Longest single event of an event-stream answer, in characters (default: the shared network limit). */
  maxEventChars?: number;
  /** Longest wait before resuming a cut event stream, whatever `retry` the server asked for (default MAX_RESUME_WAIT_MS). */
  maxResumeWaitMs?: number;
  /** The bound of automatic retries of reads answered 503 (default MCP_READ_RETRY, errors.ts). */
  readRetry?: Partial<RetrySettings>;
  /** Time and randomness of those retries (tests). */
  clock?: Clock;
  /**
   * OAuth sign-in for a third-party server (oauth.ts McpOAuth; never for the gateway's own /v1/mcp,
   * which keeps its API key or JWT). When set, its access token is sent as Authorization, and an answer
   * 401 or 403 insufficient_scope starts a sign-in, after which the refused request is sent again
   * within oauth.ts mayResendAfterAuth's rules (#42.5).
   */
  oauth?: McpAuthLayer;
  /**
   * Answers the server's elicitation/create requests (a form or a URL to open, during a call). When
   * set, the client declares the elicitation capability (form with defaults applied, SEP-1034, and url).
   */
  elicit?: ElicitHandler;
  /**
   * The protocol era (#42.3, docs/MCP-ERAS.md). 'initialize' (the default; the gateway's /v1/mcp): the
   * initialize handshake on the SDK. 'auto' (servers the user added): server/discover at 2026-07-28
   * first; the stateless revision when the server speaks it, the initialize handshake otherwise.
   */
  era?: 'initialize' | 'auto';
}

/** The part of oauth.ts McpOAuth the connection uses (tests may pass their own). */
export interface McpAuthLayer {
  authorization(): Promise<string | undefined>;
  signIn(challenge: AuthChallenge, signal?: AbortSignal): Promise<void>;
}

/** One elicitation/create request as the client hands it over (SDK-free plain data). */
export type ElicitRequest =
  | { mode: 'form'; message: string; requestedSchema: Record<string, unknown> }
  | { mode: 'url'; message: string; url: string; elicitationId: string };

/** The user's answer: accept (with content for a form), decline (said no) or cancel (dismissed). */
export type ElicitAnswer = { action: 'accept'; content?: Record<string, unknown> } | { action: 'decline' } | { action: 'cancel' };

export type ElicitHandler = (request: ElicitRequest, signal: AbortSignal) => Promise<ElicitAnswer>;

export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Extra headers for this call's HTTP requests only (e.g. an agent session's); never override the connection's own. */
  headers?: Readonly<Record<string, string>>;
  /**
   * For callTool: true only for a tool that is provably read-only (abilities.ts isReadOnlyTool). Such a
   * call answered 503 is sent again with back-off, like initialize, ping and tools/list; any other
   * tools/call (a site ability, anything not provably read-only) is never re-sent automatically.
   */
  readOnly?: boolean;
}

export interface ToolCallOutcome {
  result: CallToolResult;
  durationMs: number;
  requestIds: string[];
}

interface Trace {
  requestIds: string[];
  lastErrorBody?: string;
  lastStatus?: number;
  /** Set when a response could not be used (too large, not UTF-8, a bad or cut event); `stop` aborts the pending request at that moment. */
  failure?: McpCallError;
  stop?: AbortController;
  /** CallOptions.headers of the request this trace belongs to. */
  headers?: Readonly<Record<string, string>>;
  /** Retry-After of the last error answer, in ms, when it had one. */
  lastRetryAfterMs?: number;
  /** The signal the request runs under (the user's Stop and `stop`): it also ends a resumption wait. */
  signal?: AbortSignal;
  /** performance.now() by which the request times out: a resumption that cannot happen before it is not tried. */
  deadline?: number;
  /** The sign-ins this request went through (oauth.ts mayResendAfterAuth). */
  auth?: AuthRounds;
}

/** Error bodies are read for their message only: a short prefix is enough. */
const MAX_ERROR_BODY_BYTES = 64 * 1024;

export const MAX_TOOL_PAGES = 50;
const DEFAULT_TIMEOUT_MS = 120_000;

/**
 * Resumption of a cut event stream (MCP 2025-11-25, SEP-1699). A server may close the event stream
 * of a request before it answers, after an event with an id (and usually a `retry` field); the client
 * then waits `retry` ms and asks for the rest with GET and Last-Event-ID. The POST is never sent again.
 * The wait is bounded by MAX_RESUME_WAIT_MS (a server asking for hours gets this), cut short by the
 * call's Stop, and not started when it would end after the call's deadline; after MAX_RESUMES
 * reconnections without the answer the outcome is unknown, as for a stream that cannot be resumed.
 */
export const MAX_RESUME_WAIT_MS = 10_000;
/** The wait when the server sent no `retry` field (the SDK's first reconnection delay). */
export const DEFAULT_RESUME_WAIT_MS = 1_000;
/** Reconnections for one request, at most (a server may close the stream again after each part). */
export const MAX_RESUMES = 10;

/** How long to wait before resuming, given the server's `retry` (ms, if it sent one). */
export function resumeWaitMs(retryMs: number | undefined, max: number = MAX_RESUME_WAIT_MS): number {
  return Math.min(Math.max(0, retryMs ?? DEFAULT_RESUME_WAIT_MS), max);
}

/** Resolves true after `ms`, or false as soon as `signal` aborts (nothing is left running). */
function waitUnlessAborted(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(false);
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}


export class McpConnection {
  private readonly trace = new AsyncLocalStorage<Trace>();

  private constructor(
    private readonly options: McpConnectionOptions,
    private readonly client: Client | undefined,
    readonly server: ServerInfo,
    /** Set when the server speaks the stateless revision (2026-07-28); `client` is then unused. */
    private readonly stateless?: StatelessSession,
  ) {}

  /** The SDK client of the initialize era. */
  private sdk(): Client {
    if (!this.client) throw new McpCallError({ reason: 'protocol', message: 'No initialize-era client on this connection.' });
    return this.client;
  }

  /** Options of one stateless request: the run's signal and the call's timeout. */
  private statelessOptions(options: CallOptions, signal: AbortSignal): { signal: AbortSignal; timeoutMs: number } {
    return { signal, timeoutMs: options.timeoutMs ?? this.options.requestTimeoutMs ?? DEFAULT_TIMEOUT_MS };
  }

  /**
   * Connects and initializes. Throws McpCallError. An initialize answered 503 is tried again with
   * back-off (retryRead), each time on a fresh transport.
   */
  static async connect(options: McpConnectionOptions, signal?: AbortSignal): Promise<McpConnection> {
    return retryRead(options, signal, 'initialize', () => McpConnection.connectOnce(options, signal));
  }

  private static async connectOnce(options: McpConnectionOptions, signal?: AbortSignal): Promise<McpConnection> {
    const log = options.log ?? nullLogger;
    const secrets = (): readonly string[] => options.knownSecrets?.() ?? [];
    let traceStore: AsyncLocalStorage<Trace> | undefined;
    /** One HTTP request with the connection's and the call's headers; notes its request id and status. */
    const send = async (url: string | URL, init: RequestInit | undefined, ctx: Trace | undefined): Promise<Response> => {
      const headers: Record<string, string> = {};
      new Headers(init?.headers).forEach((v, k) => (headers[k] = v));
      for (const [k, v] of Object.entries(ctx?.headers ?? {})) headers[k.toLowerCase()] ??= v;
      for (const [k, v] of Object.entries(await options.getHeaders())) headers[k.toLowerCase()] = v;
      const bearer = await options.oauth?.authorization();
      if (bearer !== undefined) headers.authorization = bearer;
      const raw = await options.fetch(url, { ...init, headers });
      const requestId = raw.headers.get('x-request-id') ?? undefined;
      if (ctx) {
        if (requestId) ctx.requestIds.push(requestId);
        ctx.lastStatus = raw.status;
      }
      log.debug(redactSecrets(`MCP ${init?.method ?? 'GET'} ${String(url)} -> ${raw.status}${requestId ? ` (request ${requestId})` : ''}`, secrets()));
      return raw;
    };
    /**
     * The resumption of one POST's event stream (see MAX_RESUME_WAIT_MS): waits, then GETs the same
     * URL with Last-Event-ID, the POST's own headers (session id, protocol version) and the session id
     * the answer set, if any. A refused GET (405, any error status, a redirect, not an event stream)
     * cannot resume; a GET that did not connect is tried again, within MAX_RESUMES.
     */
    const resumer = (url: string | URL, init: RequestInit | undefined, answer: Response, ctx: Trace | undefined) => {
      let attempts = 0;
      return async (lastEventId: string, retryMs: number | undefined): Promise<Response | 'unresumable' | 'cancelled'> => {
        const signals = [init?.signal, ctx?.signal].filter((s): s is AbortSignal => s !== undefined && s !== null);
        const signal = signals.length > 0 ? AbortSignal.any(signals) : undefined;
        for (;;) {
          if (attempts >= MAX_RESUMES) {
            log.warn(`MCP event stream cut ${attempts} times before the answer; not resuming again.`);
            return 'unresumable';
          }
          attempts++;
          const wait = resumeWaitMs(retryMs, options.maxResumeWaitMs);
          if (ctx?.deadline !== undefined && performance.now() + wait >= ctx.deadline) {
            log.warn(`MCP event stream cut before the answer; resuming in ${wait} ms would pass the call's deadline.`);
            return 'unresumable';
          }
          log.info(`MCP event stream cut before the answer; resuming in ${wait} ms (attempt ${attempts}).`);
          if (!(await waitUnlessAborted(wait, signal))) return 'cancelled';
          const headers = new Headers(init?.headers);
          headers.delete('content-type');
          headers.delete('content-length');
          headers.set('accept', 'text/event-stream');
          headers.set('last-event-id', lastEventId);
          const session = answer.headers.get('mcp-session-id');
          if (session) headers.set('mcp-session-id', session);
          const remaining = ctx?.deadline !== undefined ? ctx.deadline - performance.now() : undefined;
          const getSignal = AbortSignal.any([...signals, ...(remaining !== undefined ? [AbortSignal.timeout(Math.max(1, Math.ceil(remaining)))] : [])]);
          let res: Response;
          try {
            res = await send(url, { method: 'GET', headers, signal: getSignal, redirect: 'manual' }, ctx);
          } catch (e) {
            if (signal?.aborted) return 'cancelled';
            log.warn(redactSecrets(`MCP resumption GET failed (${e instanceof Error ? e.message : String(e)}).`, secrets()));
            continue;
          }
          if (!res.ok || !isEventStream(res) || !res.body) {
            await res.body?.cancel().catch(() => undefined);
            log.warn(`MCP resumption GET answered ${res.status}${res.ok ? ' without an event stream' : ''}; the stream cannot be resumed.`);
            return 'unresumable';
          }
          return res;
        }
      };
    };
    /**
     * The sign-in on a 401 (or a step-up on 403 insufficient_scope) and the one re-send of the refused
     * request, within oauth.ts mayResendAfterAuth (#42.5: why a refused request provably did not run).
     * Only an answer whose status is 401/403 comes here; a request whose outcome is unknown (timeout,
     * cut stream, unreadable body, 5xx) never does, and the resumption GET (resumer) does not either.
     */
    const signInAndResend = async (url: string | URL, init: RequestInit | undefined, ctx: Trace | undefined, first: Response): Promise<Response> => {
      const oauth = options.oauth!;
      const rounds: AuthRounds = ctx ? (ctx.auth ??= { rounds: 0, signedInOn401: false }) : { rounds: 0, signedInOn401: false };
      let raw = first;
      for (;;) {
        if (raw.status !== 401 && raw.status !== 403) return raw;
        const challenge = readChallenge(raw);
        if (!mayResendAfterAuth(challenge, rounds)) return raw;
        await raw.body?.cancel().catch(() => undefined);
        noteAuthRound(challenge, rounds);
        log.info(`MCP server answered ${raw.status}${challenge.error ? ` (${challenge.error.slice(0, 40)})` : ''}; signing in.`);
        try {
          await oauth.signIn(challenge, ctx?.signal);
        } catch (e) {
          if (ctx?.signal?.aborted) throw new McpCallError({ reason: 'aborted', requestIds: ctx ? [...ctx.requestIds] : [], message: 'Cancelled.', cause: e });
          const why = e instanceof McpSignInError ? e.message : `the sign-in failed (${e instanceof Error ? e.message : String(e)})`;
          // The request was refused (401/403) and not sent again: it did not run.
          throw new McpCallError({ reason: 'authentication', status: challenge.status, requestIds: ctx ? [...ctx.requestIds] : [], message: redactSecrets(`Sign-in to the MCP server did not complete: ${why}`, secrets()), cause: e });
        }
        // The caller may have stopped, or the request's time run out, while the user signed in: then
        // nothing is sent (the refused request did not run, and no one waits for a new one).
        if (ctx?.signal?.aborted || (ctx?.deadline !== undefined && performance.now() >= ctx.deadline)) {
          throw new McpCallError({ reason: 'authentication', status: challenge.status, requestIds: ctx ? [...ctx.requestIds] : [], message: 'Signed in; the request was not sent again because it was stopped or its time ran out. Run it again.' });
        }
        raw = await send(url, init, ctx);
      }
    };
    /** The connection's fetch: headers, sign-in, request ids, the body guard; `resume` only in the initialize era. */
    const makeWrapped = (resumable: boolean): FetchLike => async (url, init) => {
      const ctx = traceStore?.getStore();
      const method = init?.method ?? 'GET';
      let raw = await send(url, init, ctx);
      if (options.oauth && (raw.status === 401 || raw.status === 403)) raw = await signInAndResend(url, init, ctx, raw);
      const requestId = raw.headers.get('x-request-id') ?? undefined;
      const limit = options.maxResponseBytes ?? MAX_MCP_RESPONSE_BYTES;
      const ids = ctx ? () => [...ctx.requestIds] : () => (requestId ? [requestId] : []);
      // The first problem with the body fails the pending request at once (through `stop`), rather
      // than leaving the SDK to wait for its timeout on an answer that cannot come.
      const failWith = (err: McpCallError): McpCallError => {
        if (ctx) {
          ctx.failure ??= err;
          ctx.stop?.abort(err);
        }
        return err;
      };
      const length = declaredLength(raw);
      if (length !== undefined && length > limit) {
        await raw.body?.cancel().catch(() => undefined);
        throw failWith(responseTooLarge(limit, ids()));
      }
      if (!raw.ok && raw.status !== 405) {
        // The SDK only needs the status of an error answer. A 429 comes from the edge with an HTML page
        // (G-ERR-3): its body is not read. Others (a 503 included: it may be the gateway's envelope,
        // errors.ts mcpGatewayEnvelope) keep a bounded prefix for the message.
        let text = '';
        if (raw.status === 429) await raw.body?.cancel().catch(() => undefined);
        else text = await readBodyLimited(raw, MAX_ERROR_BODY_BYTES, { truncate: true }).catch(() => '');
        if (ctx) {
          ctx.lastErrorBody = text;
          ctx.lastRetryAfterMs = parseRetryAfter(raw.headers.get('retry-after') ?? undefined, Date.now());
        }
        return new Response(text, { status: raw.status, statusText: raw.statusText, headers: raw.headers });
      }
      return guardResponse(raw, {
        limit,
        maxEventChars: options.maxEventChars ?? DEFAULT_LIMITS.maxEventChars,
        pendingIds: method === 'POST' ? requestIdsOf(init?.body) : new Set(),
        onFailure: (problem) => failWith(bodyProblemError(problem, ids())),
        ...(method === 'POST' && resumable ? { resume: resumer(url, init, raw, ctx) } : {}),
      });
    };
    const wrapped = makeWrapped(true);
    const clientInfo = options.clientInfo ?? { name: 'ai-gateway-vscode', version: '0.1.0' };
    // The SDK's own reconnection is off (maxRetries 0): it would reconnect after a call had failed or
    // been stopped, and wait as long as any `retry` says. A POST's stream is resumed above instead; the
    // optional standalone GET stream (server-initiated messages, which nothing here uses) is not.
    const transport = new StreamableHTTPClientTransport(new URL(options.url), {
      fetch: wrapped,
      reconnectionOptions: { maxRetries: 0, initialReconnectionDelay: DEFAULT_RESUME_WAIT_MS, maxReconnectionDelay: MAX_RESUME_WAIT_MS, reconnectionDelayGrowFactor: 1.5 },
    });
    // Elicitation (MCP 2025-11-25): declared only when someone can answer it. `applyDefaults` has the
    // SDK fill every field the user left out with its schema default before the answer goes back (SEP-1034).
    const capabilities = options.elicit ? { elicitation: { form: { applyDefaults: true }, url: {} } } : {};
    const probe = new AsyncLocalStorage<Trace>();
    traceStore = probe;
    const timeoutMs = options.requestTimeoutMs ?? DEFAULT_TIMEOUT_MS;
    const newTrace = (): Trace => {
      const t: Trace = { requestIds: [], stop: new AbortController() };
      t.signal = signal ? AbortSignal.any([signal, t.stop!.signal]) : t.stop!.signal;
      t.deadline = performance.now() + timeoutMs;
      return t;
    };
    if (options.era === 'auto') {
      // The stateless revision first (docs/MCP-ERAS.md): server/discover is a read, harmless to an older server.
      const session = new StatelessSession({
        url: options.url,
        fetch: makeWrapped(false),
        clientInfo,
        capabilities,
        ...(options.elicit ? { elicit: options.elicit } : {}),
        note: (m) => log.info(redactSecrets(m, secrets())),
      });
      const trace = newTrace();
      let found: Awaited<ReturnType<StatelessSession['discover']>>;
      try {
        found = await probe.run(trace, () => session.discover({ signal: trace.signal!, timeoutMs }));
      } catch (e) {
        throw toCallError(e, trace, secrets(), signal);
      }
      if (found !== 'initialize') {
        log.info(`MCP server ${found.name} speaks the stateless revision ${found.version}.`);
        const conn = new McpConnection(options, undefined, { name: found.name, version: found.serverVersion, protocolVersion: found.version, instructions: found.instructions, capabilities: found.capabilities }, session);
        traceStore = conn.trace;
        return conn;
      }
      log.info('MCP server does not speak the stateless revision; using the initialize handshake.');
    }
    const client = new Client(clientInfo, { capabilities });
    if (options.elicit) {
      const elicit = options.elicit;
      client.setRequestHandler(ElicitRequestSchema, async (request, extra) => {
        const p = request.params as { mode?: string; message: string; requestedSchema?: Record<string, unknown>; url?: string; elicitationId?: string };
        const req: ElicitRequest =
          p.mode === 'url'
            ? { mode: 'url', message: p.message, url: String(p.url ?? ''), elicitationId: String(p.elicitationId ?? '') }
            : { mode: 'form', message: p.message, requestedSchema: p.requestedSchema ?? { type: 'object', properties: {} } };
        const answer = await elicit(req, extra.signal);
        // A URL-mode answer never carries content; a form answer only when accepted.
        if (answer.action === 'accept') return req.mode === 'form' ? { action: 'accept', content: { ...(answer.content ?? {}) } } : { action: 'accept' };
        return { action: answer.action };
      });
    }
    const trace = newTrace();
    try {
      await probe.run(trace, () => client.connect(transport, { signal: trace.signal!, timeout: timeoutMs }));
    } catch (e) {
      await client.close().catch(() => undefined);
      throw toCallError(e, trace, secrets(), signal);
    }
    const version = client.getServerVersion();
    const server: ServerInfo = {
      name: version?.name ?? 'unknown',
      version: version?.version ?? 'unknown',
      protocolVersion: transport.protocolVersion ?? 'unknown',
      instructions: client.getInstructions(),
      capabilities: (client.getServerCapabilities() ?? {}) as Record<string, unknown>,
    };
    const conn = new McpConnection(options, client, server);
    // The fetch wrapper reads the connection's own store from now on.
    traceStore = conn.trace;
    return conn;
  }

  /**
   * Runs one request with its own trace; `fn` gets the signal to pass to the SDK (user's + size limit).
   * `write`: a tools/call not provably read-only (a bare 5xx answering it leaves its outcome unknown).
   */
  private async run<T>(options: CallOptions, fn: (signal: AbortSignal) => Promise<T>, write = false): Promise<{ value: T; trace: Trace }> {
    const stop = new AbortController();
    const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
    const deadline = performance.now() + (options.timeoutMs ?? this.options.requestTimeoutMs ?? DEFAULT_TIMEOUT_MS);
    const trace: Trace = { requestIds: [], stop, signal, deadline, ...(options.headers ? { headers: options.headers } : {}) };
    try {
      const value = await this.trace.run(trace, () => fn(signal));
      return { value, trace };
    } catch (e) {
      throw toCallError(e, trace, this.options.knownSecrets?.() ?? [], options.signal, write);
    }
  }

  /** Protocol-level ping (G-MCP-5): resolves on an empty result. */
  async ping(options: CallOptions = {}): Promise<void> {
    // The stateless revision has no ping: server/discover is its liveness read.
    const stateless = this.stateless;
    await retryRead(this.options, options.signal, 'ping', () =>
      this.run(options, (signal) =>
        stateless ? stateless.request('server/discover', {}, this.statelessOptions(options, signal)) : this.sdk().request({ method: 'ping' }, EmptyResultSchema, this.requestOptions(options, signal)),
      ),
    );
  }

  /**
   * All tools, following `nextCursor` until the server stops sending one (G-MCP-6). Stops with an
   * error on a repeated cursor or after MAX_TOOL_PAGES pages, so a broken server cannot loop us.
   */
  async listTools(options: CallOptions & { maxPages?: number } = {}): Promise<{ tools: McpTool[]; pages: number }> {
    const tools: McpTool[] = [];
    const seen = new Set<string>();
    let cursor: string | undefined;
    let pages = 0;
    const max = options.maxPages ?? MAX_TOOL_PAGES;
    do {
      const params = cursor === undefined ? undefined : { cursor };
      // client.request, not client.listTools: listTools caches output validators, and then the SDK
      // throws on a structuredContent mismatch. We want to show such a result and flag it instead.
      const stateless = this.stateless;
      const { value } = await retryRead(this.options, options.signal, 'tools/list', () =>
        this.run(options, (signal): Promise<{ tools: unknown[]; nextCursor?: string }> =>
          stateless
            ? stateless.listToolsPage(cursor, this.statelessOptions(options, signal)).then((page) => ({ ...page, tools: page.tools.filter(isWellFormedTool) }))
            : this.sdk().request({ method: 'tools/list', params }, ListToolsResultSchema, this.requestOptions(options, signal)),
        ),
      );
      pages++;
      for (const t of value.tools) tools.push(t as McpTool);
      cursor = value.nextCursor;
      if (cursor !== undefined) {
        if (seen.has(cursor)) throw new McpCallError({ reason: 'protocol', message: 'The server repeated a tools/list cursor; stopped paging.' });
        seen.add(cursor);
        if (pages >= max) throw new McpCallError({ reason: 'protocol', message: `The server kept paging tools/list past ${max} pages; stopped.` });
      }
    } while (cursor !== undefined);
    return { tools, pages };
  }

  async callTool(name: string, args: Record<string, unknown>, options: CallOptions = {}): Promise<ToolCallOutcome> {
    const started = performance.now();
    const stateless = this.stateless;
    // Stateless: one call, its input rounds included (statelessEra.ts call): a continuation follows only a
    // complete InputRequiredResult, and nothing whose outcome is unknown is sent again.
    const once = () =>
      this.run(options, (signal): Promise<unknown> =>
        stateless
          ? stateless.callTool(name, args, this.statelessOptions(options, signal)).then(asCallToolResult)
          : this.sdk().request({ method: 'tools/call', params: { name, arguments: args } }, CallToolResultSchema, this.requestOptions(options, signal)),
        options.readOnly !== true,
      );
    // A write is sent once: only a provably read-only tool is tried again on a 503.
    const { value, trace } = options.readOnly === true ? await retryRead(this.options, options.signal, `tools/call ${name}`, once) : await once();
    return { result: value as CallToolResult, durationMs: Math.round(performance.now() - started), requestIds: trace.requestIds };
  }

  async close(): Promise<void> {
    await this.client?.close().catch(() => undefined);
  }

  private requestOptions(options: CallOptions, signal: AbortSignal): { signal: AbortSignal; timeout: number } {
    return { signal, timeout: options.timeoutMs ?? this.options.requestTimeoutMs ?? DEFAULT_TIMEOUT_MS };
  }
}

/**
 * Runs a read (`what`: initialize, ping, tools/list, a read-only tools/call) and sends it again while it
 * is answered 503 (errors.ts isRetryableMcpRead), with exponential back-off (full jitter) or the server's
 * Retry-After, within MCP_READ_RETRY's attempts and total time. Past the bound the last error goes up
 * with the number of attempts added; a cancel during a wait ends it as 'aborted'.
 */
async function retryRead<T>(options: McpConnectionOptions, signal: AbortSignal | undefined, what: string, fn: () => Promise<T>): Promise<T> {
  const settings: RetrySettings = { ...MCP_READ_RETRY, ...options.readRetry };
  const clock = options.clock ?? systemClock;
  const log = options.log ?? nullLogger;
  const started = clock.now();
  const ids: string[] = [];
  for (let n = 1; ; n++) {
    try {
      return await fn();
    } catch (e) {
      if (!isRetryableMcpRead(e)) throw e;
      const err = e as McpCallError;
      for (const id of err.requestIds) if (!ids.includes(id)) ids.push(id);
      const delayMs = backoffDelay(n, settings, () => clock.random(), err.retryAfterMs);
      const last = n >= settings.maxAttempts || signal?.aborted === true || clock.now() + delayMs - started > settings.maxTotalMs;
      if (last) {
        if (n === 1) throw err;
        throw new McpCallError({
          reason: err.reason,
          status: err.status,
          code: err.code,
          type: err.type,
          requestIds: [...ids],
          cause: err,
          message: `${err.message} (tried ${n} times)`,
        });
      }
      log.info(`MCP ${what} answered HTTP 503; trying again in ${delayMs} ms (attempt ${n + 1} of ${settings.maxAttempts}).`);
      try {
        await clock.sleep(delayMs, signal);
      } catch (cause) {
        throw new McpCallError({ reason: 'aborted', requestIds: [...ids], message: 'Cancelled.', cause });
      }
    }
  }
}

/**
 * `write`: the request is a tools/call not provably read-only. A bare 5xx answering it (a body without an
 * error message of the server's: neither the gateway's envelope nor a JSON-RPC error, e.g. a proxy's 502 or
 * 504 page, or a server that failed after the tool started) says nothing about whether the tool ran, so its
 * outcome is unknown (#42.5), in both eras (a stateless JSON-RPC error is a StatelessRpcError, an answer).
 */
function toCallError(e: unknown, trace: Trace, secrets: readonly string[], userSignal?: AbortSignal, write = false): McpCallError {
  const clean = (s: string): string => redactSecrets(s, secrets);
  const requestIds = [...trace.requestIds];
  // The body check aborted the request: whatever the SDK made of that, the reason is the body's.
  if (trace.failure) return new McpCallError({ reason: 'protocol', message: trace.failure.message, requestIds, outcomeUnknown: true, cause: e });
  if (e instanceof McpCallError) return e;
  if (e instanceof BodyTooLargeError) return responseTooLarge(e.limit, requestIds);
  if (e instanceof InvalidUtf8Error) return bodyProblemError({ kind: 'invalidUtf8' }, requestIds);
  // The SDK turns an aborted signal into a -32001 "timeout"; a cancel by the user is not a timeout.
  if (userSignal?.aborted) return new McpCallError({ reason: 'aborted', requestIds, message: 'Cancelled.', cause: e, outcomeUnknown: true });
  if (e instanceof StatelessProtocolError) return new McpCallError({ reason: 'protocol', requestIds, message: clean(e.message), cause: e, outcomeUnknown: !e.outcomeKnown });
  if (e instanceof StatelessRpcError) {
    const reason: McpFailureReason = e.code === -32001 ? 'timeout' : 'jsonrpc';
    return new McpCallError({ reason, code: e.code, requestIds, message: clean(e.message), cause: e, outcomeUnknown: reason === 'timeout' });
  }
  if (e instanceof StreamableHTTPError || e instanceof StatelessHttpError) {
    const code = e instanceof StatelessHttpError ? e.status : e.code;
    const status = typeof code === 'number' && code > 0 ? code : trace.lastStatus;
    // The SDK's own message repeats the body; only the body we chose to keep (never a 429 page) is used.
    const env = mcpGatewayEnvelope(trace.lastErrorBody);
    const serverError = status !== undefined && status >= 500;
    // A 5xx body that is not the gateway's envelope is not shown (spec: not shown): the status words stand.
    let message = serverError && !env ? statusOnlyMessage(status, undefined) : statusOnlyMessage(status, trace.lastErrorBody);
    const type = env?.type;
    if (env) {
      message = env.message;
      if (env.requestId && !requestIds.includes(env.requestId)) requestIds.push(env.requestId);
    }
    // A server error in the envelope names its request id, for a report to the gateway's operators.
    const rid = serverError && env ? (env.requestId ?? requestIds[0]) : undefined;
    const reason: McpFailureReason = status === 401 ? 'authentication' : status === 403 ? 'permission' : status === undefined || status < 0 ? 'protocol' : 'http';
    const text = `HTTP ${status ?? '?'}${serverError && type ? ` (${type})` : ''}: ${message.trim().slice(0, 500)}${rid ? ` (request ${rid})` : ''}`;
    const bare = write && serverError && !env;
    return new McpCallError({
      reason,
      status,
      type,
      requestIds,
      message: clean(text),
      cause: e,
      outcomeUnknown: bare,
      ...(trace.lastRetryAfterMs !== undefined ? { retryAfterMs: trace.lastRetryAfterMs } : {}),
    });
  }
  if (e instanceof McpError) {
    // -32001 is the SDK's own request timeout.
    const reason: McpFailureReason = e.code === -32001 ? 'timeout' : 'jsonrpc';
    // A JSON-RPC error is an answer (the server refused the call); a timeout is not.
    return new McpCallError({ reason, code: e.code, requestIds, message: clean(e.message), cause: e, outcomeUnknown: reason === 'timeout' });
  }
  if (e instanceof Error && (e.name === 'AbortError' || /aborted/i.test(e.message))) {
    return new McpCallError({ reason: 'aborted', requestIds, message: 'Cancelled.', cause: e, outcomeUnknown: true });
  }
  if (e instanceof TypeError || (e instanceof Error && /ECONNREFUSED|ENOTFOUND|ECONNRESET|fetch failed|socket|terminated/i.test(e.message))) {
    const detail = e.cause instanceof Error ? `${e.message}: ${e.cause.message}` : e.message;
    const notSent = provablyNotSent(e);
    return new McpCallError({
      reason: 'network',
      requestIds,
      message: clean(notSent ? `Could not reach the MCP server (${detail}).` : `The connection to the MCP server broke (${detail}).`),
      cause: e,
      outcomeUnknown: !notSent,
    });
  }
  return new McpCallError({ reason: 'protocol', requestIds, message: clean(e instanceof Error ? e.message : String(e)), cause: e, outcomeUnknown: true });
}


/** A stateless tools/call result as the runner's CallToolResult (content always an array). */
/**
 * A stateless-era answer checked as the SDK checks the initialize era's (CallToolResultSchema): a result
 * whose content is not what the protocol allows is an error, and since the server took the call, its
 * outcome is unknown (never offered as a clean failure to re-run).
 */
function asCallToolResult(result: Record<string, unknown>): CallToolResult {
  const { resultType: _type, ...rest } = result;
  const parsed = CallToolResultSchema.safeParse({ ...rest, content: rest.content ?? [] });
  if (!parsed.success) throw new StatelessProtocolError('The server answered tools/call with a result that is not a valid tool result.', false);
  return parsed.data as CallToolResult;
}

/** A stateless-era tools/list entry checked as the SDK checks the initialize era's (a malformed one is left out). */
function isWellFormedTool(tool: unknown): boolean {
  return ListToolsResultSchema.safeParse({ tools: [tool] }).success;
}

/** The JSON-RPC request ids in a POST body (requests expect an answer; notifications do not). */
function requestIdsOf(body: unknown): Set<string | number> {
  const ids = new Set<string | number>();
  if (typeof body !== 'string') return ids;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return ids;
  }
  for (const m of Array.isArray(parsed) ? parsed : [parsed]) {
    if (typeof m !== 'object' || m === null) continue;
    const { id, method } = m as { id?: unknown; method?: unknown };
    if (typeof method === 'string' && (typeof id === 'string' || typeof id === 'number')) ids.add(id);
  }
  return ids;
}

/** The McpCallError for a response body that could not be used. The request was sent: outcome unknown. */

/** Message text for an HTTP error: the kept body (a JSON envelope's message is preferred later), or the status alone. */
function statusOnlyMessage(status: number | undefined, body: string | undefined): string {
  const text = body?.trim() ?? '';
  // An HTML page (an edge or proxy error) says nothing the status does not.
  if (text !== '' && !/^<(!doctype|html|head|body)\b/i.test(text)) return text;
  if (status === 429) return 'too many requests; wait a moment and try again.';
  if (status === 503) return 'the service is unavailable for now; try again later.';
  return 'the server refused the request.';
}
