/**
 * The stateless MCP revision 2026-07-28 on the client side (#42.3; docs/MCP-ERAS.md): no initialize and
 * no session; every request carries the protocol version, the client's capabilities and its info in
 * `params._meta` and as headers (MCP-Protocol-Version, Mcp-Method, Mcp-Name, Mcp-Param-*); a result's
 * `resultType` says whether it is complete or an InputRequiredResult the client answers and sends again
 * (multi-round-trip requests, SEP-2322). No SSE resumption: an event stream that ends before the answer
 * ends the request.
 *
 * SDK-free. The fetch passed in is the connection's own (mcpClient.ts): headers, sign-in, request ids
 * and the body guard (byte limit, event size, UTF-8, a cut stream) are its work; this file reads one
 * guarded answer, once, linearly.
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { FetchLike, JsonSchema, McpTool } from './types';
import type { ElicitAnswer, ElicitHandler, ElicitRequest } from './mcpClient';

/** The stateless revision this client speaks. */
export const STATELESS_VERSION = '2026-07-28';
/** The versions of the stateless era this client speaks (newest first). */
export const STATELESS_VERSIONS: readonly string[] = [STATELESS_VERSION];
/** Rounds of one multi-round-trip request (InputRequiredResult answered, sent again), at most. */
export const MAX_INPUT_ROUNDS = 8;
/** Input requests in one InputRequiredResult, at most. */
export const MAX_INPUT_REQUESTS = 16;
/** Mcp-Param-* headers of one request, at most (a tool schema with more annotations is refused). */
export const MAX_PARAM_HEADERS = 32;

const META_VERSION = 'io.modelcontextprotocol/protocolVersion';
const META_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
const META_CLIENT_INFO = 'io.modelcontextprotocol/clientInfo';
const META_SERVER_INFO = 'io.modelcontextprotocol/serverInfo';

/** A stateless answer that is an HTTP error (the status, and a bounded prefix of the body). */
export class StatelessHttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
  ) {
    super(`HTTP ${status}`);
    this.name = 'StatelessHttpError';
  }
}

/** A JSON-RPC error answer (code -32001 is this client's own timeout, as in the SDK). */
export class StatelessRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'StatelessRpcError';
  }
}

/** An answer that does not follow the protocol; `answered` false when it may not be the server's last word (outcome unknown). */
export class StatelessProtocolError extends Error {
  constructor(
    message: string,
    readonly outcomeKnown: boolean,
  ) {
    super(message);
    this.name = 'StatelessProtocolError';
  }
}

export interface StatelessRequestOptions {
  signal: AbortSignal;
  timeoutMs: number;
}

export interface DiscoveredServer {
  version: string;
  name: string;
  serverVersion: string;
  capabilities: Record<string, unknown>;
  instructions?: string;
}

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `params._meta` of every request: version, capabilities (an object per capability) and client info. */
export function requestMeta(version: string, clientInfo: { name: string; version: string }, capabilities: Json): Json {
  return { [META_VERSION]: version, [META_CAPABILITIES]: capabilities, [META_CLIENT_INFO]: clientInfo };
}

/** Visible ASCII without leading or trailing whitespace: sent as is; anything else is Base64-wrapped. */
const PLAIN_VALUE = /^(?:[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?)?$/;

/**
 * A header value as SEP-2243 encodes it: booleans and integers as their JSON text, a string as is when
 * it is plain visible ASCII without edge whitespace, otherwise `=?base64?<UTF-8 Base64>?=`. Undefined
 * for null, absent, or a value of another type (nothing is sent).
 */
export function encodeHeaderValue(value: unknown): string | undefined {
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : undefined;
  if (typeof value !== 'string') return undefined;
  if (PLAIN_VALUE.test(value) && !/^=\?base64\?.*\?=$/i.test(value)) return value;
  return `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}

/** The standard headers of one request: Mcp-Method always, Mcp-Name for the methods that name something. */
export function standardHeaders(method: string, params: Json | undefined): Record<string, string> {
  const headers: Record<string, string> = { 'mcp-method': method };
  const name = method === 'tools/call' || method === 'prompts/get' ? params?.name : method === 'resources/read' ? params?.uri : undefined;
  if (typeof name === 'string') {
    const encoded = encodeHeaderValue(name);
    if (encoded !== undefined) headers['mcp-name'] = encoded;
  }
  return headers;
}

/** An HTTP header name token (RFC 9110 tchar): what an x-mcp-header may be. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const HEADER_TYPES = new Set(['string', 'integer', 'boolean']);

/** The x-mcp-header annotations of a tool's input schema: property name -> header name. */
function annotations(schema: JsonSchema | undefined): Array<{ property: string; header: unknown; type: unknown }> {
  const props = isObject(schema) && isObject(schema.properties) ? schema.properties : {};
  const out: Array<{ property: string; header: unknown; type: unknown }> = [];
  for (const [property, s] of Object.entries(props)) {
    if (isObject(s) && Object.hasOwn(s, 'x-mcp-header')) out.push({ property, header: s['x-mcp-header'], type: s.type });
  }
  return out;
}

/**
 * Why a tool's `x-mcp-header` annotations are invalid (SEP-2243), or undefined when they are fine: a
 * header name must be a non-empty HTTP token, on a string, integer or boolean parameter, and unique
 * (case-insensitively) within the tool. A tool with an invalid one is left out of the tool list.
 */
export function invalidHeaderAnnotation(tool: Pick<McpTool, 'inputSchema'>): string | undefined {
  const seen = new Set<string>();
  const list = annotations(tool.inputSchema);
  if (list.length > MAX_PARAM_HEADERS) return `more than ${MAX_PARAM_HEADERS} x-mcp-header parameters`;
  for (const { property, header, type } of list) {
    if (typeof header !== 'string' || header === '') return `parameter ${property}: x-mcp-header is empty or not a string`;
    if (!TOKEN.test(header)) return `parameter ${property}: x-mcp-header is not a valid header name`;
    if (typeof type !== 'string' || !HEADER_TYPES.has(type)) return `parameter ${property}: x-mcp-header on a parameter that is not a string, integer or boolean`;
    const key = header.toLowerCase();
    if (seen.has(key)) return `parameter ${property}: x-mcp-header ${header} is used twice`;
    seen.add(key);
  }
  return undefined;
}

/** The Mcp-Param-* headers of a tools/call: each annotated parameter with a value (null or absent: none). */
export function paramHeaders(inputSchema: JsonSchema | undefined, args: Json): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const { property, header } of annotations(inputSchema)) {
    if (typeof header !== 'string' || !TOKEN.test(header) || !Object.hasOwn(args, property)) continue;
    const value = encodeHeaderValue(args[property]);
    if (value !== undefined) headers[`mcp-param-${header.toLowerCase()}`] = value;
  }
  return headers;
}

/** SEP-1034: an accepted form answer gets every top-level default the user left out. */
export function withDefaults(schema: Json, content: Json): Json {
  const out: Json = { ...content };
  const props = isObject(schema.properties) ? schema.properties : {};
  for (const [k, s] of Object.entries(props)) {
    if (!Object.hasOwn(out, k) && isObject(s) && Object.hasOwn(s, 'default')) out[k] = s.default;
  }
  return out;
}

function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

export interface StatelessSessionOptions {
  url: string;
  /** The connection's fetch (headers, sign-in, request ids, body guard; no resumption). */
  fetch: FetchLike;
  clientInfo: { name: string; version: string };
  capabilities: Json;
  elicit?: ElicitHandler;
  /** Notes (a tool left out, an input round). */
  note?: (message: string) => void;
}

/** One server spoken to in the stateless era. Holds no protocol state besides the version and the listed tools' schemas. */
export class StatelessSession {
  private nextId = 1;
  /** Input schemas of the tools listed, for their Mcp-Param-* headers. */
  private readonly schemas = new Map<string, JsonSchema>();
  version = STATELESS_VERSION;

  constructor(private readonly options: StatelessSessionOptions) {}

  /**
   * One POST: one JSON-RPC request, its answer read once (JSON, or an event stream up to the answer).
   * Answers the JSON-RPC message, or throws StatelessHttpError (an error status; its body is parsed by
   * the caller when it needs the JSON-RPC error inside), a network error, or the abort/timeout.
   */
  async exchange(method: string, params: Json | undefined, opts: StatelessRequestOptions, extraHeaders: Record<string, string> = {}): Promise<{ status: number; message: Json | undefined }> {
    const id = this.nextId++;
    const body = JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...(params ?? {}), _meta: requestMeta(this.version, this.options.clientInfo, this.options.capabilities) } });
    const timer = new AbortController();
    const timeout = setTimeout(() => timer.abort(new StatelessRpcError(-32001, 'Request timed out')), opts.timeoutMs);
    const signal = AbortSignal.any([opts.signal, timer.signal]);
    try {
      const res = await this.options.fetch(this.options.url, {
        method: 'POST',
        headers: {
          ...extraHeaders,
          ...standardHeaders(method, params),
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': this.version,
        },
        body,
        signal,
      });
      const message = await readAnswer(res, id, signal);
      return { status: res.status, message };
    } catch (e) {
      if (timer.signal.aborted && !opts.signal.aborted) throw new StatelessRpcError(-32001, 'Request timed out');
      throw e;
    } finally {
      clearTimeout(timeout);
    }
  }

  /** One request, one round: the result, or StatelessHttpError / StatelessRpcError / StatelessProtocolError. */
  async request(method: string, params: Json | undefined, opts: StatelessRequestOptions, extraHeaders?: Record<string, string>): Promise<Json> {
    const { status, message } = await this.exchange(method, params, opts, extraHeaders);
    if (message && isObject(message.error)) {
      const err = message.error;
      throw new StatelessRpcError(typeof err.code === 'number' ? err.code : -32603, typeof err.message === 'string' ? err.message.slice(0, 500) : 'error', err.data);
    }
    if (status < 200 || status >= 300) throw new StatelessHttpError(status, '');
    if (!message || !isObject(message.result)) throw new StatelessProtocolError(`The server's answer to ${method} carried no result.`, false);
    return message.result;
  }

  /**
   * A request that may need input (SEP-2322): while the result is an InputRequiredResult, every input
   * request is answered and the request is sent again, with a new id, its `inputResponses`, and the
   * `requestState` exactly as received (none when none came). A continuation is sent only after such a
   * complete answer; whatever stops a round (an error, an unknown outcome, a cancel) goes up at once and
   * nothing is sent again. At most MAX_INPUT_ROUNDS rounds.
   */
  async call(method: string, params: Json, opts: StatelessRequestOptions, extraHeaders?: Record<string, string>): Promise<Json> {
    let next: Json = params;
    for (let round = 1; ; round++) {
      const result = await this.request(method, next, opts, extraHeaders);
      const type = result.resultType ?? 'complete';
      if (type === 'complete') return result;
      // A tools/call the server answered with a type this client does not know was taken by the server: what it
      // did is unknown, so the call is never offered again as if it had failed cleanly (#42.5).
      if (type !== 'input_required') throw new StatelessProtocolError(`The server answered ${method} with a result of unknown type ${JSON.stringify(String(type).slice(0, 40))}.`, method !== 'tools/call');
      if (round >= MAX_INPUT_ROUNDS) throw new StatelessProtocolError(`The server asked for input ${round} times for one ${method}; stopped (at most ${MAX_INPUT_ROUNDS}).`, true);
      const requests = result.inputRequests;
      if (!isObject(requests)) throw new StatelessProtocolError(`The server asked for input without input requests.`, true);
      const keys = Object.keys(requests);
      if (keys.length === 0 || keys.length > MAX_INPUT_REQUESTS) throw new StatelessProtocolError(`The server asked for ${keys.length} inputs at once (1 to ${MAX_INPUT_REQUESTS}).`, true);
      if (result.requestState !== undefined && typeof result.requestState !== 'string') throw new StatelessProtocolError('The server sent a requestState that is not a string.', true);
      const inputResponses: Json = {};
      for (const key of keys) inputResponses[key] = await this.answerInput(requests[key], opts.signal);
      this.options.note?.(`MCP ${method}: answered ${keys.length} input request(s), sending round ${round + 1}.`);
      // Built from the caller's own params each time: nothing from another request, and no stale state.
      const { inputResponses: _drop, requestState: _state, ...own } = params;
      next = { ...own, inputResponses, ...(typeof result.requestState === 'string' ? { requestState: result.requestState } : {}) };
    }
  }

  /** One input request answered: elicitation through the handler; anything else this client does not offer. */
  private async answerInput(request: unknown, signal: AbortSignal): Promise<Json> {
    if (!isObject(request) || request.method !== 'elicitation/create' || !isObject(request.params)) {
      const what = isObject(request) && typeof request.method === 'string' ? request.method.slice(0, 60) : 'an unknown request';
      throw new StatelessProtocolError(`The server asked for ${what}, which this client does not offer.`, true);
    }
    const elicit = this.options.elicit;
    if (!elicit) throw new StatelessProtocolError('The server asked for input (elicitation), which this connection does not offer.', true);
    const p = request.params;
    const message = typeof p.message === 'string' ? p.message : '';
    const req: ElicitRequest =
      p.mode === 'url'
        ? { mode: 'url', message, url: String(p.url ?? ''), elicitationId: String(p.elicitationId ?? '') }
        : { mode: 'form', message, requestedSchema: isObject(p.requestedSchema) ? p.requestedSchema : { type: 'object', properties: {} } };
    if (signal.aborted) throw abortError(signal);
    const answer: ElicitAnswer = await elicit(req, signal);
    if (signal.aborted) throw abortError(signal);
    if (answer.action !== 'accept') return { action: answer.action };
    return req.mode === 'form' ? { action: 'accept', content: withDefaults(req.requestedSchema, { ...(answer.content ?? {}) }) } : { action: 'accept' };
  }

  /** tools/list, one page; tools with invalid x-mcp-header annotations are left out (SEP-2243). */
  async listToolsPage(cursor: string | undefined, opts: StatelessRequestOptions): Promise<{ tools: McpTool[]; nextCursor?: string }> {
    const result = await this.call('tools/list', cursor === undefined ? {} : { cursor }, opts);
    if (!Array.isArray(result.tools)) throw new StatelessProtocolError('The server answered tools/list without a tools array.', true);
    const tools: McpTool[] = [];
    for (const t of result.tools) {
      if (!isObject(t) || typeof t.name !== 'string' || !isObject(t.inputSchema)) continue;
      const tool = t as unknown as McpTool;
      const invalid = invalidHeaderAnnotation(tool);
      if (invalid) {
        this.options.note?.(`MCP tool ${tool.name.slice(0, 80)} left out: ${invalid}.`);
        continue;
      }
      this.schemas.set(tool.name, tool.inputSchema);
      tools.push(tool);
    }
    return { tools, ...(typeof result.nextCursor === 'string' ? { nextCursor: result.nextCursor } : {}) };
  }

  /** tools/call with its Mcp-Param-* headers (from the listed schema), multi-round. */
  async callTool(name: string, args: Json, opts: StatelessRequestOptions): Promise<Json> {
    return this.call('tools/call', { name, arguments: args }, opts, paramHeaders(this.schemas.get(name), args));
  }

  /**
   * server/discover at this client's version: the server's description when it speaks the stateless
   * era, 'initialize' when its answer says it does not. A -32022 naming a version this client speaks
   * is tried once more with that version. Throws only when there is no answer to judge (the network,
   * the timeout, 401/403, 429, 5xx).
   */
  async discover(opts: StatelessRequestOptions): Promise<DiscoveredServer | 'initialize'> {
    for (let attempt = 0; attempt < 2; attempt++) {
      let status: number;
      let message: Json | undefined;
      try {
        ({ status, message } = await this.exchange('server/discover', {}, opts));
      } catch (e) {
        if (e instanceof StatelessProtocolError && e.outcomeKnown) return 'initialize';
        throw e;
      }
      if (status === 401 || status === 403 || status === 429 || status >= 500) throw new StatelessHttpError(status, '');
      const error = message && isObject(message.error) ? message.error : undefined;
      if (error && error.code === -32022 && attempt === 0 && isObject(error.data) && Array.isArray(error.data.supported)) {
        const supported = error.data.supported;
        const pick = STATELESS_VERSIONS.find((v) => supported.includes(v));
        if (pick === undefined) return 'initialize';
        this.version = pick;
        continue;
      }
      const result = message && isObject(message.result) ? message.result : undefined;
      if (status < 200 || status >= 300 || !result || !Array.isArray(result.supportedVersions)) return 'initialize';
      const versions = result.supportedVersions;
      const pick = versions.includes(this.version) ? this.version : STATELESS_VERSIONS.find((v) => versions.includes(v));
      if (pick === undefined) return 'initialize';
      this.version = pick;
      const meta = isObject(result._meta) ? result._meta : {};
      const info = isObject(result.serverInfo) ? result.serverInfo : isObject(meta[META_SERVER_INFO]) ? meta[META_SERVER_INFO] : {};
      return {
        version: pick,
        name: typeof info.name === 'string' ? info.name : 'unknown',
        serverVersion: typeof info.version === 'string' ? info.version : 'unknown',
        capabilities: isObject(result.capabilities) ? result.capabilities : {},
        ...(typeof result.instructions === 'string' ? { instructions: result.instructions } : {}),
      };
    }
    return 'initialize';
  }
}

/**
 * The JSON-RPC answer with this id: the JSON body, or the event stream read event by event until the
 * answer (then the rest is not read). Server requests and notifications on the stream are passed over
 * (the stateless era has no server-initiated requests). An error status's body (already bounded by the
 * connection) is parsed when it is JSON-RPC. A stream that ends without the answer: outcome unknown.
 */
async function readAnswer(res: Response, id: number, signal: AbortSignal): Promise<Json | undefined> {
  const type = (res.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
  if (type === 'text/event-stream' && res.ok) {
    if (!res.body) throw new StatelessProtocolError('The server answered with an empty event stream.', false);
    let found: Json | undefined;
    const parser = createParser({
      onEvent: (ev: EventSourceMessage) => {
        if (found || ev.data === '') return;
        let msg: unknown;
        try {
          msg = JSON.parse(ev.data);
        } catch {
          return;
        }
        if (isObject(msg) && msg.id === id && (Object.hasOwn(msg, 'result') || Object.hasOwn(msg, 'error'))) found = msg;
      },
    });
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    try {
      while (!found) {
        if (signal.aborted) throw abortError(signal);
        const { value, done } = await reader.read();
        if (done) break;
        parser.feed(value);
      }
    } finally {
      await reader.cancel().catch(() => undefined);
    }
    if (!found) throw new StatelessProtocolError('The event stream ended before the answer (the stateless revision does not resume streams).', false);
    return found;
  }
  const text = await res.text();
  if (text.trim() === '') {
    if (res.ok) throw new StatelessProtocolError('The server answered with an empty body.', false);
    return undefined;
  }
  let msg: unknown;
  try {
    msg = JSON.parse(text);
  } catch {
    if (res.ok) throw new StatelessProtocolError('The server answered with a body that is not JSON.', false);
    return undefined;
  }
  if (!isObject(msg)) {
    if (res.ok) throw new StatelessProtocolError('The server answered with a JSON body that is not a JSON-RPC message.', false);
    return undefined;
  }
  if (res.ok && msg.id !== id) throw new StatelessProtocolError('The server answered another request than the one sent.', false);
  return msg;
}
