/**
 * The local MCP relay behind VS Code's gateway MCP server definition (src/lm/mcpProvider.ts): an HTTP
 * server on 127.0.0.1 (random port, random path token) that forwards JSON-RPC POSTs to the gateway's
 * /v1/mcp with the credentials added here, and applies the agent-mode filter of mcpFilter.ts (no
 * run_site_ability). vscode-free so it is tested against the local gateway in plain Node.
 *
 * - POST only: the gateway keeps no session and offers no listening stream (G-MCP-9); other methods
 *   get 405, other paths 404 (the path token keeps other local processes from guessing the address).
 * - Bodies are bounded both ways (MAX_REQUEST_BYTES in, MAX_RESPONSE_BYTES out): a larger one is
 *   refused, never buffered whole. Responses are read whole before filtering, so progress
 *   notifications inside an SSE response arrive together with its result.
 * - Credentials go only to `upstreamUrl()` (the configured gateway), never back to the caller.
 * - Only what the relay read itself goes on: the body is parsed strictly (strictJson.ts: UTF-8, no
 *   byte-order mark, no duplicate member names, nothing after the value), must be one JSON-RPC 2.0
 *   message object or a non-empty batch of them, and is serialised again here. Anything else is
 *   answered locally with JSON-RPC -32600 and nothing reaches the gateway: a body the relay could not
 *   read could be read differently by a lenient server, and hide a run_site_ability call.
 */
import { randomBytes } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { decideRequest, filterJsonBody, filterSseBody } from './mcpFilter';
import { parseStrictJsonBytes } from './strictJson';
import { isRecord } from '../guards';

export const MAX_REQUEST_BYTES = 4 * 1024 * 1024;
export const MAX_RESPONSE_BYTES = 32 * 1024 * 1024;
const PASS_HEADERS = ['accept', 'mcp-protocol-version', 'mcp-session-id', 'last-event-id'];
const RETURN_HEADERS = ['content-type', 'mcp-session-id', 'www-authenticate', 'x-request-id', 'retry-after'];

export type RelayCredentials = { headers: Record<string, string> } | { missing: string };

export interface McpRelayOptions {
  upstreamUrl: () => string | URL;
  fetch: (url: string | URL, init?: RequestInit) => Promise<Response>;
  credentials: () => Promise<RelayCredentials>;
  log?: (line: string) => void;
}

export interface McpRelay {
  /** http://127.0.0.1:<port>/<token>/mcp */
  readonly url: string;
  close(): Promise<void>;
}

async function readLimited(body: ReadableStream<Uint8Array> | null, limit: number): Promise<string | undefined> {
  if (!body) return '';
  const reader = body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    parts.push(value);
  }
  return Buffer.concat(parts).toString('utf8');
}

function isMessage(m: unknown): boolean {
  return isRecord(m) && m.jsonrpc === '2.0';
}

/** The body as the relay will forward it: strictly parsed JSON-RPC 2.0 (one message or a non-empty batch). */
export function readMessage(bytes: Uint8Array): { ok: true; value: unknown } | { ok: false; problem: string } {
  const read = parseStrictJsonBytes(bytes);
  if (!read.ok) return { ok: false, problem: `the body is not strict JSON (${read.problem})` };
  const v = read.value;
  if (Array.isArray(v)) {
    if (v.length === 0) return { ok: false, problem: 'the batch is empty' };
    if (!v.every(isMessage)) return { ok: false, problem: 'a batch element is not a JSON-RPC 2.0 message object' };
    return read;
  }
  if (!isMessage(v)) return { ok: false, problem: 'the body is not a JSON-RPC 2.0 message object' };
  return read;
}

export function startMcpRelay(options: McpRelayOptions): Promise<McpRelay> {
  const token = randomBytes(18).toString('base64url');
  const path = `/${token}/mcp`;

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    const send = (status: number, body: string, type = 'text/plain; charset=utf-8'): void => {
      if (!res.headersSent) res.writeHead(status, { 'Content-Type': type });
      res.end(body);
    };
    if (req.url !== path) return send(404, 'not found');
    if (req.method !== 'POST') {
      res.writeHead(405, { Allow: 'POST' });
      res.end();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const c of req as AsyncIterable<Buffer>) {
      size += c.length;
      if (size > MAX_REQUEST_BYTES) return send(413, 'request too large');
      chunks.push(c);
    }
    const read = readMessage(Buffer.concat(chunks));
    if (!read.ok) {
      const error = { code: -32600, message: `Invalid Request: ${read.problem}. The relay did not send it to the AI Gateway.` };
      return send(400, JSON.stringify({ jsonrpc: '2.0', id: null, error }), 'application/json');
    }
    const parsed = read.value;
    const bodyText = JSON.stringify(parsed);
    const decision = decideRequest(parsed);
    if (decision.kind === 'answer') return send(decision.status, JSON.stringify(decision.body), 'application/json');
    const creds = await options.credentials();
    if ('missing' in creds) return send(401, creds.missing);
    const headers: Record<string, string> = {};
    for (const h of PASS_HEADERS) {
      const v = req.headers[h];
      if (typeof v === 'string') headers[h] = v;
    }
    // The body is the relay's own serialisation: its type is the relay's to say (G-MCP-1).
    headers['content-type'] = 'application/json';
    Object.assign(headers, creds.headers);
    const controller = new AbortController();
    req.once('close', () => {
      if (!res.writableEnded) controller.abort();
    });
    const upstream = await options.fetch(options.upstreamUrl(), { method: 'POST', headers, body: bodyText, signal: controller.signal });
    const text = await readLimited(upstream.body, MAX_RESPONSE_BYTES);
    if (text === undefined) return send(502, 'the gateway response was too large');
    const type = upstream.headers.get('content-type') ?? '';
    const out: Record<string, string> = {};
    for (const h of RETURN_HEADERS) {
      const v = upstream.headers.get(h);
      if (v) out[h] = v;
    }
    res.writeHead(upstream.status, out);
    res.end(type.includes('text/event-stream') ? filterSseBody(text) : type.includes('json') ? filterJsonBody(text) : text);
  };

  return new Promise<McpRelay>((resolve, reject) => {
    const server = http.createServer((req, res) => {
      handle(req, res).catch((e: unknown) => {
        options.log?.(`MCP relay: ${e instanceof Error ? e.message : String(e)}`);
        if (!res.headersSent) res.writeHead(502, { 'Content-Type': 'text/plain; charset=utf-8' });
        if (!res.writableEnded) res.end('the AI Gateway could not be reached');
      });
    });
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`,
        close: () =>
          new Promise<void>((r) => {
            server.closeAllConnections();
            server.close(() => r());
          }),
      });
    });
  });
}
