/**
 * JSON-RPC batches for "run several". The gateway takes at most 10 messages per batch (spec limits;
 * G-MCP-3); the SDK does not batch, so this small sender posts the array itself.
 *
 * Contract: a run of more than MAX_BATCH calls is refused before anything is sent (BatchLimitError).
 */
import type { FetchLike } from './types';

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
  signal?: AbortSignal;
}

export async function sendToolCallBatch(calls: readonly BatchCall[], options: BatchSendOptions): Promise<BatchResult> {
  const batch = buildToolCallBatch(calls);
  const headers: Record<string, string> = {
    ...options.headers,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
  };
  if (options.protocolVersion) headers['mcp-protocol-version'] = options.protocolVersion;
  const res = await options.fetch(options.url, { method: 'POST', headers, body: JSON.stringify(batch), signal: options.signal });
  const requestId = res.headers.get('x-request-id') ?? undefined;
  const type = (res.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
  let body: unknown;
  if (type === 'text/event-stream') body = parseSseMessages(await res.text()).flat();
  else if (type === 'application/json') body = await res.json();
  else body = await res.text();
  if (!res.ok && !Array.isArray(body)) {
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    throw Object.assign(new Error(`Batch refused with HTTP ${res.status}: ${text.slice(0, 300)}`), { status: res.status, requestId });
  }
  const list: JsonRpcResponse[] = Array.isArray(body) ? (body as JsonRpcResponse[]) : [body as JsonRpcResponse];
  const byId = new Map(list.map((r) => [r.id, r]));
  return { status: res.status, requestId, responses: batch.map((m) => byId.get(m.id)) };
}

/** Each SSE `data:` event as parsed JSON (events are separated by a blank line). */
export function parseSseMessages(text: string): unknown[] {
  const out: unknown[] = [];
  for (const event of text.split(/\r?\n\r?\n/)) {
    const data = event
      .split(/\r?\n/)
      .filter((l) => l.startsWith('data:'))
      .map((l) => l.slice(5).replace(/^ /, ''))
      .join('\n');
    if (data) out.push(JSON.parse(data));
  }
  return out;
}
