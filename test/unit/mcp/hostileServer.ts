// A deliberately broken Streamable HTTP MCP server for the hardening tests: it answers initialize
// properly, then misbehaves on tools/call (and on batches) in the way `mode` says. It counts what it
// received, so tests can tell "never reached the server" from "reached it and then broke".
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type HostileMode =
  | 'ok'
  /** Reads the whole request body, then destroys the socket without answering. */
  | 'drop-after-body'
  /** Answers with a JSON body of `size` bytes (Content-Length set). */
  | 'huge-json'
  /** Answers with a JSON body of `size` bytes, chunked (no Content-Length). */
  | 'huge-json-chunked'
  /** Answers 200 text/event-stream and writes one endless event (no newline) until the client goes. */
  | 'endless-sse'
  /** Never answers. */
  | 'stall'
  /** Answers with this raw body and content type. */
  | 'raw';

export interface HostileServer {
  url: string;
  mode: HostileMode;
  size: number;
  raw: { type: string; body: string; status: number };
  /** tools/call messages whose body the server read in full (batches count each call). */
  toolCalls: number;
  /** Resolves the next time the server has read a tools/call body. */
  nextToolCall(): Promise<void>;
  /** Bytes written on the endless/huge answers so far. */
  written: number;
  close(): Promise<void>;
}

export async function startHostileServer(mode: HostileMode = 'ok'): Promise<HostileServer> {
  let waiters: Array<() => void> = [];
  const sockets = new Set<import('node:net').Socket>();
  const state: HostileServer = {
    url: '',
    mode,
    size: 0,
    raw: { type: 'application/json', body: '', status: 200 },
    toolCalls: 0,
    written: 0,
    nextToolCall: () => new Promise<void>((resolve) => waiters.push(resolve)),
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const handle = (req: IncomingMessage, res: ServerResponse, body: string): void => {
    if (req.method !== 'POST') {
      res.writeHead(405).end();
      return;
    }
    let msg: unknown;
    try {
      msg = JSON.parse(body);
    } catch {
      res.writeHead(400).end();
      return;
    }
    const list = Array.isArray(msg) ? msg : [msg];
    const first = list[0] as { id?: unknown; method?: string; params?: { protocolVersion?: string } };
    if (!Array.isArray(msg) && first.method === 'initialize') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: first.id, result: { protocolVersion: first.params?.protocolVersion ?? '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'hostile', version: '0' } } }));
      return;
    }
    if (first.id === undefined) {
      res.writeHead(202).end();
      return;
    }
    const calls = list.filter((m) => (m as { method?: string }).method === 'tools/call').length;
    if (calls > 0) {
      state.toolCalls += calls;
      const w = waiters;
      waiters = [];
      for (const f of w) f();
    }
    switch (state.mode) {
      case 'ok':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(Array.isArray(msg) ? list.map((m) => ({ jsonrpc: '2.0', id: (m as { id: unknown }).id, result: { content: [] } })) : { jsonrpc: '2.0', id: first.id, result: { content: [] } }));
        return;
      case 'drop-after-body':
        req.socket.destroy();
        return;
      case 'huge-json':
      case 'huge-json-chunked': {
        const head = `{"jsonrpc":"2.0","id":${JSON.stringify(first.id)},"result":{"content":[{"type":"text","text":"`;
        const tail = '"}]}}';
        const fill = Math.max(0, state.size - head.length - tail.length);
        const headers: Record<string, string | number> = { 'content-type': 'application/json' };
        if (state.mode === 'huge-json') headers['content-length'] = head.length + fill + tail.length;
        res.writeHead(200, headers);
        res.write(head);
        const chunk = 'x'.repeat(64 * 1024);
        let left = fill;
        const pump = (): void => {
          while (left > 0 && !res.destroyed) {
            const piece = left >= chunk.length ? chunk : chunk.slice(0, left);
            left -= piece.length;
            state.written += piece.length;
            if (!res.write(piece)) {
              res.once('drain', pump);
              return;
            }
          }
          if (!res.destroyed) res.end(tail);
        };
        pump();
        return;
      }
      case 'endless-sse': {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('data: {"jsonrpc":"2.0","id":' + JSON.stringify(first.id) + ',"result":{"content":[{"type":"text","text":"');
        const chunk = 'y'.repeat(64 * 1024);
        const pump = (): void => {
          while (!res.destroyed) {
            state.written += chunk.length;
            if (!res.write(chunk)) {
              res.once('drain', pump);
              return;
            }
          }
        };
        pump();
        return;
      }
      case 'stall':
        return;
      case 'raw':
        res.writeHead(state.raw.status, { 'content-type': state.raw.type });
        res.end(state.raw.body);
        return;
    }
  };
  const server: Server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => handle(req, res, Buffer.concat(parts).toString('utf8')));
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  return state;
}
