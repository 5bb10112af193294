/**
 * JSON-RPC batches for "run several". The gateway takes at most 10 messages per batch (spec limits;
 * G-MCP-3); the SDK does not batch, so this small sender posts the array itself.
 *
 * Contract: a run of more than MAX_BATCH calls is refused before anything is sent (BatchLimitError).
 * Every other failure is an McpCallError, as for single calls: the same timeout, cancel and response
 * size limit, and `outcomeUnknown` whenever the batch may have reached the server. The response is
 * parsed in one pass (linear in its size), whatever the server sends.
 */
import { MAX_MCP_RESPONSE_BYTES, McpCallError, provablyNotSent, responseTooLarge } from './errors';
import { bodyProblemError, BodyTooLargeError, guardResponse, readBodyLimited } from './limitedBody';
import { DEFAULT_LIMITS } from '../http/policy';
import { InvalidUtf8Error } from '../http/body';
import type { FetchLike } from './types';
import { isRecord } from '../guards';

export const MAX_BATCH = 10;

export class BatchLimitError extends Error {
  constructor(readonly count: number) {
    super(`Cannot run ${count} calls at once: the gateway accepts at most ${MAX_BATCH} calls per batch. Select ${MAX_BATCH} or fewer and run again.`);
    this.name = 'BatchLimitError';
  }
}

export interface BatchCall {
  name: string;
  arguments: Record<string, unknown>;
}

export interface JsonRpcRequest {
  jsonrpc: '2.0';
  id: number | string;
  method: string;
  params?: Record<string, unknown>;
}

export interface JsonRpcResponse {
  jsonrpc: '2.0';
  id: number | string | null;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

export function assertWithinBatchLimit(count: number): void {
  if (count > MAX_BATCH) throw new BatchLimitError(count);
  if (count < 1) throw new Error('Nothing to run: the batch is empty.');
}

export function buildToolCallBatch(calls: readonly BatchCall[], firstId = 1): JsonRpcRequest[] {
  assertWithinBatchLimit(calls.length);
  return calls.map((c, i) => ({ jsonrpc: '2.0', id: firstId + i, method: 'tools/call', params: { name: c.name, arguments: c.arguments } }));
}

export interface BatchResult {
  status: number;
  requestId: string | undefined;
  /** Responses in the order of the calls (matched by id, whatever order the server used). */
  responses: Array<JsonRpcResponse | undefined>;
}

export interface BatchSendOptions {
  url: string;
  fetch: FetchLike;
  headers: Record<string, string>;
  protocolVersion?: string;
  /** Cancel: aborts the request; the batch then fails with reason 'aborted'. */
  signal?: AbortSignal;
  /** Whole request, headers and body (default DEFAULT_BATCH_TIMEOUT_MS, as for single calls). */
  timeoutMs?: number;
  /** Longest single event of an event-stream answer, in characters (default: the shared network limit). */
  maxEventChars?: number;
  /** Largest response body read (default MAX_MCP_RESPONSE_BYTES). */
  maxResponseBytes?: number;
}

export const DEFAULT_BATCH_TIMEOUT_MS = 120_000;
/** Text of an error answer kept for the message. */
const MAX_MESSAGE_CHARS = 300;

export async function sendToolCallBatch(calls: readonly BatchCall[], options: BatchSendOptions): Promise<BatchResult> {
  const batch = buildToolCallBatch(calls);
  const headers: Record<string, string> = {
    ...options.headers,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
  };
  if (options.protocolVersion) headers['mcp-protocol-version'] = options.protocolVersion;
  const timeoutMs = options.timeoutMs ?? DEFAULT_BATCH_TIMEOUT_MS;
  const limit = options.maxResponseBytes ?? MAX_MCP_RESPONSE_BYTES;
  const timer = new AbortController();
  const timeout = setTimeout(() => timer.abort(), timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timer.signal]) : timer.signal;
  let requestId: string | undefined;
  const fail = (e: unknown, sent: boolean): McpCallError => {
    const requestIds = requestId ? [requestId] : [];
    if (e instanceof McpCallError) return e;
    if (e instanceof BodyTooLargeError) return responseTooLarge(e.limit, requestIds);
    if (e instanceof InvalidUtf8Error) {
      return new McpCallError({ reason: 'protocol', message: 'The MCP server answered the batch with a body that is not valid UTF-8; it was not used.', requestIds, outcomeUnknown: true, cause: e });
    }
    if (options.signal?.aborted) return new McpCallError({ reason: 'aborted', message: 'Cancelled.', requestIds, outcomeUnknown: true, cause: e });
    if (timer.signal.aborted) {
      return new McpCallError({ reason: 'timeout', message: `The batch got no complete answer within ${formatDuration(timeoutMs)}.`, requestIds, outcomeUnknown: true, cause: e });
    }
    const notSent = !sent && provablyNotSent(e);
    const detail = e instanceof Error ? (e.cause instanceof Error ? `${e.message}: ${e.cause.message}` : e.message) : String(e);
    return new McpCallError({
      reason: 'network',
      message: notSent ? `Could not reach the MCP server (${detail}).` : `The connection to the MCP server broke (${detail}).`,
      requestIds,
      outcomeUnknown: !notSent,
      cause: e,
    });
  };
  try {
    let res: Response;
    try {
      res = await options.fetch(options.url, { method: 'POST', headers, body: JSON.stringify(batch), signal });
    } catch (e) {
      throw fail(e, false);
    }
    requestId = res.headers.get('x-request-id') ?? undefined;
    // Checked as it arrives (each event's size, UTF-8, the byte limit), so an oversized or broken
    // answer fails at once with a protocol error rather than at the batch timeout.
    if (res.ok) {
      const ids = new Set<string | number>(batch.map((m) => m.id));
      res = guardResponse(res, {
        limit,
        maxEventChars: options.maxEventChars ?? DEFAULT_LIMITS.maxEventChars,
        pendingIds: ids,
        onFailure: (problem) => bodyProblemError(problem, requestId ? [requestId] : []),
      });
    }
    let text: string;
    try {
      text = await readBodyLimited(res, limit);
    } catch (e) {
      throw fail(e, true);
    }
    return { status: res.status, requestId, responses: parseBatchBody(batch, { status: res.status, contentType: res.headers.get('content-type'), text, requestId }) };
  } finally {
    clearTimeout(timeout);
  }
}

export interface BatchBody {
  status: number;
  contentType: string | null;
  text: string;
  requestId?: string;
}

/** Optional work counter for tests: one step per character scanned or element looked at. */
export interface WorkMeter {
  steps: number;
}

/**
 * The responses to `batch`, in its order, from a raw HTTP answer. Throws only McpCallError: an
 * error status, a body that is not JSON-RPC, or one JSON-RPC error for the whole batch. Single
 * pass over the body; elements that are not responses (notifications, junk) are ignored, and a call
 * without a response is `undefined` (its outcome is unknown).
 */
export function parseBatchBody(batch: readonly JsonRpcRequest[], body: BatchBody, meter?: WorkMeter): Array<JsonRpcResponse | undefined> {
  const requestIds = body.requestId ? [body.requestId] : [];
  const type = (body.contentType ?? '').split(';')[0].trim().toLowerCase();
  const protocol = (message: string): McpCallError => new McpCallError({ reason: 'protocol', message, status: body.status, requestIds, outcomeUnknown: true });
  let messages: unknown[];
  if (type === 'text/event-stream') {
    messages = parseSseMessages(body.text, meter);
  } else {
    let parsed: unknown;
    let isJson = false;
    if (meter) meter.steps += body.text.length;
    try {
      parsed = JSON.parse(body.text);
      isJson = true;
    } catch {
      // handled below, by status
    }
    const ok = body.status >= 200 && body.status < 300;
    if (!ok && !(isJson && Array.isArray(parsed))) throw httpError(body, isJson ? parsed : undefined, requestIds);
    if (!isJson) throw protocol(`The MCP server answered the batch with a body that is not JSON (HTTP ${body.status}, ${type || 'no content type'}).`);
    messages = Array.isArray(parsed) ? parsed : [parsed];
  }
  const byId = new Map<string | number, JsonRpcResponse>();
  let batchError: JsonRpcResponse['error'] | undefined;
  let responses = 0;
  for (const m of messages) {
    if (meter) meter.steps++;
    const r = asResponse(m);
    if (!r) continue;
    responses++;
    if (r.id === null) batchError ??= r.error;
    else if (!byId.has(r.id)) byId.set(r.id, r);
  }
  if (byId.size === 0 && batchError) {
    throw new McpCallError({ reason: 'jsonrpc', code: batchError.code, message: `The MCP server refused the batch: ${batchError.message}`, status: body.status, requestIds });
  }
  if (responses === 0 && messages.length > 0) {
    throw protocol('The MCP server answered the batch with JSON that holds no JSON-RPC responses.');
  }
  return batch.map((m) => byId.get(m.id));
}


/** A JSON-RPC response with a usable shape, or undefined. The error message is cut to a sane length. */
function asResponse(m: unknown): JsonRpcResponse | undefined {
  if (!isRecord(m)) return undefined;
  const id = m.id;
  if (!(typeof id === 'string' || typeof id === 'number' || id === null)) return undefined;
  if ('error' in m && m.error !== undefined) {
    const e = isRecord(m.error) ? m.error : {};
    const code = typeof e.code === 'number' && Number.isFinite(e.code) ? e.code : -32603;
    const message = typeof e.message === 'string' ? e.message.slice(0, MAX_MESSAGE_CHARS) : 'The server sent an error without a message.';
    return { jsonrpc: '2.0', id, error: { code, message, data: e.data } };
  }
  if ('result' in m) return { jsonrpc: '2.0', id, result: m.result };
  return undefined;
}

function httpError(body: BatchBody, parsed: unknown, requestIds: string[]): McpCallError {
  // A 429 or 503 comes from the edge with an HTML page (G-ERR-3), and any HTML page says nothing the
  // status does not: the message is then the status alone.
  const html = /^\s*<(!doctype|html|head|body)\b/i.test(body.text);
  let message = body.status === 429 || body.status === 503 || html ? statusWords(body.status) : body.text;
  let type: string | undefined;
  if (isRecord(parsed) && isRecord(parsed.error) && typeof parsed.error.message === 'string') {
    message = parsed.error.message;
    type = typeof parsed.error.type === 'string' ? parsed.error.type : undefined;
    const rid = parsed.error.request_id;
    if (typeof rid === 'string' && !requestIds.includes(rid)) requestIds = [...requestIds, rid];
  }
  const reason = body.status === 401 ? 'authentication' : body.status === 403 ? 'permission' : 'http';
  // A bare 5xx (no error message of the server's: a proxy's page, a server that failed mid-batch) says
  // nothing about which calls ran: every call's outcome is unknown (#42.5), as for a single call.
  const bare = body.status >= 500 && !(isRecord(parsed) && isRecord(parsed.error) && typeof parsed.error.message === 'string');
  // The documented envelope's message wins even on 429/503; otherwise the status words stand.
  return new McpCallError({ reason, status: body.status, type, requestIds, outcomeUnknown: bare, message: `Batch refused with HTTP ${body.status}: ${message.trim().slice(0, MAX_MESSAGE_CHARS)}` });
}

/**
 * Each SSE `data:` event as parsed JSON (events end at a blank line). One pass over the text; an
 * event that is not JSON is a protocol error (McpCallError).
 */
export function parseSseMessages(text: string, meter?: WorkMeter): unknown[] {
  const out: unknown[] = [];
  let data: string[] = [];
  const flush = (): void => {
    if (data.length === 0) return;
    const joined = data.join('\n');
    data = [];
    if (meter) meter.steps += joined.length;
    try {
      out.push(JSON.parse(joined));
    } catch {
      throw new McpCallError({ reason: 'protocol', message: 'The MCP server sent an event that is not JSON in the batch stream.', outcomeUnknown: true });
    }
  };
  let pos = 0;
  while (pos <= text.length) {
    let end = pos;
    while (end < text.length && text.charCodeAt(end) !== 10 && text.charCodeAt(end) !== 13) end++;
    if (meter) meter.steps += end - pos + 1;
    const line = text.slice(pos, end);
    if (line === '') flush();
    else if (line.startsWith('data:')) data.push(line.charCodeAt(5) === 32 ? line.slice(6) : line.slice(5));
    if (end >= text.length) break;
    pos = end + (text.charCodeAt(end) === 13 && text.charCodeAt(end + 1) === 10 ? 2 : 1);
  }
  flush();
  return out;
}

function statusWords(status: number): string {
  if (status === 429) return 'too many requests; wait a moment and try again';
  if (status === 503) return 'the service is unavailable for now; try again later';
  return 'the server refused the request';
}

/** "500 ms", "2 s": a sub-second timeout must not read as "1 s" or "0 s". */
function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${Math.round(ms / 1000)} s`;
}
