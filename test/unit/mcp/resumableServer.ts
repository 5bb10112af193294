// A Streamable HTTP MCP server for the resumption tests (MCP 2025-11-25, SEP-1699): it answers
// initialize and tools/list, and answers tools/call with an event stream that it closes before the
// result (after a priming event with an id and a `retry` field, unless told otherwise). The result is
// then served on GET with Last-Event-ID, the way `getMode` says. It records every request, so tests
// can tell what was sent and when.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type PostMode =
  /** Priming event (id + retry), then the stream is closed without the result. */
  | 'cut-after-id'
  /** Priming event (id + retry), then the connection is destroyed without the result. */
  | 'break-after-id'
  /** An event without an id (a progress notification), then the stream is closed: not resumable. */
  | 'cut-without-id';

export type GetMode =
  /** Priming event, then the result; the GET stream stays open afterwards, as the conformance server's does. */
  | 'result-keep-open'
  /** 405 Method Not Allowed. */
  | 'refuse'
  /** A new priming event, then closed again without the result (a server that never answers). */
  | 'cut-again';

export interface SeenRequest {
  method: string;
  at: number;
  headers: IncomingMessage['headers'];
  /** For POSTs: the JSON-RPC method. */
  rpc?: string;
}

export interface ResumableServer {
  url: string;
  postMode: PostMode;
  getMode: GetMode;
  /** The `retry` field sent with priming events (ms). */
  retryMs: number;
  /** The session id the server hands out (Mcp-Session-Id). */
  readonly sessionId: string;
  requests: SeenRequest[];
  /** performance.now() when the last tools/call stream was closed. */
  cutAt: number | undefined;
  /** Resolves when the next tools/call stream has been cut. */
  nextCut(): Promise<void>;
  /** Resolves when a GET with Last-Event-ID that was answered with the result has been closed by the client. */
  resultStreamClosed(): Promise<void>;
  toolCallPosts(): SeenRequest[];
  /** GETs that carried Last-Event-ID (the SDK's optional standalone GET carries none). */
  resumeGets(): SeenRequest[];
  close(): Promise<void>;
}

export const RESUMED_TEXT = 'resumed result';

export async function startResumableServer(): Promise<ResumableServer> {
  const sockets = new Set<Socket>();
  let cutWaiters: Array<() => void> = [];
  let closedWaiters: Array<() => void> = [];
  let closedCount = 0;
  let pendingId: string | number | undefined;
  let eventCounter = 0;
  const state: ResumableServer = {
    url: '',
    postMode: 'cut-after-id',
    getMode: 'result-keep-open',
    retryMs: 200,
    sessionId: 'session-resume-1',
    requests: [],
    cutAt: undefined,
    nextCut: () => new Promise<void>((resolve) => cutWaiters.push(resolve)),
    resultStreamClosed: () => new Promise<void>((resolve) => (closedCount > 0 ? (closedCount--, resolve()) : closedWaiters.push(resolve))),
    toolCallPosts: () => state.requests.filter((r) => r.method === 'POST' && r.rpc === 'tools/call'),
    resumeGets: () => state.requests.filter((r) => r.method === 'GET' && r.headers['last-event-id'] !== undefined),
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const sse = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' };
  const priming = (): string => `id: ev-${++eventCounter}\nretry: ${state.retryMs}\ndata: \n\n`;
  const cut = (): void => {
    state.cutAt = performance.now();
    const w = cutWaiters;
    cutWaiters = [];
    for (const f of w) f();
  };

  const onGet = (req: IncomingMessage, res: ServerResponse): void => {
    if (req.headers['last-event-id'] === undefined) {
      // No standalone stream for server-initiated messages.
      res.writeHead(405).end();
      return;
    }
    switch (state.getMode) {
      case 'refuse':
        res.writeHead(405, { 'content-type': 'text/plain' }).end('Method Not Allowed');
        return;
      case 'cut-again':
        res.writeHead(200, sse);
        res.end(priming());
        return;
      case 'result-keep-open': {
        res.writeHead(200, { ...sse, 'mcp-session-id': state.sessionId });
        res.write(priming());
        const result = { jsonrpc: '2.0', id: pendingId, result: { content: [{ type: 'text', text: RESUMED_TEXT }] } };
        res.write(`event: message\nid: ev-${++eventCounter}\ndata: ${JSON.stringify(result)}\n\n`);
        res.on('close', () => {
          const w = closedWaiters;
          closedWaiters = [];
          if (w.length === 0) closedCount++;
          for (const f of w) f();
        });
        return;
      }
    }
  };

  const onPost = (res: ServerResponse, body: string, seen: SeenRequest): void => {
    const msg = JSON.parse(body) as { id?: string | number; method?: string; params?: { protocolVersion?: string } };
    seen.rpc = msg.method;
    const json = (value: unknown): void => {
      res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': state.sessionId });
      res.end(JSON.stringify(value));
    };
    if (msg.id === undefined) {
      res.writeHead(202).end();
      return;
    }
    if (msg.method === 'initialize') {
      json({ jsonrpc: '2.0', id: msg.id, result: { protocolVersion: msg.params?.protocolVersion ?? '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'resumable', version: '0' } } });
      return;
    }
    if (msg.method === 'tools/list') {
      json({ jsonrpc: '2.0', id: msg.id, result: { tools: [{ name: 'slow_write', inputSchema: { type: 'object' } }] } });
      return;
    }
    if (msg.method !== 'tools/call') {
      json({ jsonrpc: '2.0', id: msg.id, result: {} });
      return;
    }
    pendingId = msg.id;
    res.writeHead(200, { ...sse, 'mcp-session-id': state.sessionId });
    switch (state.postMode) {
      case 'cut-after-id':
        res.write(priming(), () => {
          res.end();
          cut();
        });
        return;
      case 'break-after-id':
        // Half of the next event, then the connection breaks.
        res.write(`${priming()}event: message\ndata: {"jsonrpc":"2.0","me`, () => {
          res.destroy();
          cut();
        });
        return;
      case 'cut-without-id': {
        const progress = { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } };
        res.write(`retry: ${state.retryMs}\nevent: message\ndata: ${JSON.stringify(progress)}\n\n`, () => {
          res.end();
          cut();
        });
        return;
      }
    }
  };

  const server: Server = createServer((req, res) => {
    const seen: SeenRequest = { method: req.method ?? 'GET', at: performance.now(), headers: req.headers };
    state.requests.push(seen);
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      if (req.method === 'GET') onGet(req, res);
      else if (req.method === 'POST') onPost(res, Buffer.concat(parts).toString('utf8'), seen);
      else res.writeHead(405).end();
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  return state;
}
