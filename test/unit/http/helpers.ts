/**
 * Test helpers for the gateway client: a virtual clock (records every back-off wait instead of
 * sleeping), an in-memory logger, and tiny node:http servers for byte-level cases.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect as netConnect, type AddressInfo, type Socket } from 'node:net';
import type { Logger } from '../../../src/core/log';
import { GatewayError } from '../../../src/core/http/errors';
import type { Clock } from '../../../src/core/http/retry';

export class VirtualClock implements Clock {
  time = 1_700_000_000_000;
  readonly sleeps: number[] = [];
  /** Called on every sleep before it resolves (e.g. to abort during the wait). */
  onSleep?: (ms: number) => void;

  constructor(private readonly randomValue = 0.5) {}

  now(): number {
    return this.time;
  }

  random(): number {
    return this.randomValue;
  }

  async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    this.sleeps.push(ms);
    this.onSleep?.(ms);
    if (signal?.aborted) throw new GatewayError({ reason: 'aborted', message: 'The request was cancelled' });
    this.time += ms;
  }
}

export class MemoryLogger implements Logger {
  readonly lines: string[] = [];
  trace(m: string): void {
    this.lines.push(`trace ${m}`);
  }
  debug(m: string): void {
    this.lines.push(`debug ${m}`);
  }
  info(m: string): void {
    this.lines.push(`info ${m}`);
  }
  warn(m: string): void {
    this.lines.push(`warn ${m}`);
  }
  error(m: string): void {
    this.lines.push(`error ${m}`);
  }
  get text(): string {
    return this.lines.join('\n');
  }
}

export interface TestServer {
  url: string;
  /** Every request seen, in order. */
  requests: Array<{ method: string; url: string; headers: IncomingMessage['headers'] }>;
  /** Resolves when the socket of the n-th request (0-based) closed. */
  socketClosed(index: number): Promise<void>;
  close(): Promise<void>;
}

type Handler = (req: IncomingMessage, res: ServerResponse, index: number) => void | Promise<void>;

export async function startServer(handler: Handler): Promise<TestServer> {
  const requests: TestServer['requests'] = [];
  const closed: Array<Promise<void>> = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    const index = requests.length;
    requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    closed[index] = new Promise<void>((resolve) => {
      if (req.socket.destroyed) resolve();
      else req.socket.once('close', () => resolve());
    });
    void Promise.resolve(handler(req, res, index)).catch(() => res.destroy());
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });
  return { ...(await listenOnLoopback(server, sockets)), requests, socketClosed: (i) => closed[i] ?? Promise.reject(new Error(`no request ${i}`)) };
}

/** Listens on a free loopback port; close() destroys the sockets still open (in `sockets`) and stops it. */
async function listenOnLoopback(server: Server, sockets: Set<Socket>): Promise<{ url: string; close(): Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

export function sendEnvelope(res: ServerResponse, status: number, type: string | undefined, message: string, requestId: string, headers: Record<string, string> = {}): void {
  const body = JSON.stringify({ error: { message, type, code: status, request_id: requestId } });
  res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': requestId, ...headers });
  res.end(body);
}

export function chunkJson(content: string, i = 0): string {
  return JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'openai/x', choices: [{ index: i, delta: { content }, finish_reason: null }] });
}

/** Awaits a promise expected to reject with a GatewayError and returns it. */
export async function gatewayError(p: Promise<unknown>): Promise<GatewayError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof GatewayError) return e;
    throw new Error(`expected a GatewayError, got ${String(e)}`, { cause: e });
  }
  throw new Error('expected a GatewayError, but the call succeeded');
}

/** Reads a whole async iterable, returning what arrived and the error that ended it (if any). */
export async function drain<T>(it: AsyncIterable<T>): Promise<{ items: T[]; error: GatewayError | undefined }> {
  const items: T[] = [];
  try {
    for await (const x of it) items.push(x);
  } catch (e) {
    if (e instanceof GatewayError) return { items, error: e };
    throw e;
  }
  return { items, error: undefined };
}

/** Runs `body` against a fresh server and closes it afterwards. */
export async function withServer(handler: Handler, body: (s: TestServer) => Promise<void>): Promise<void> {
  const s = await startServer(handler);
  try {
    await body(s);
  } finally {
    await s.close();
  }
}

/** A minimal HTTP CONNECT proxy that records the tunnels it opened. */
export async function startProxy(): Promise<{ url: string; tunnels: string[]; close(): Promise<void> }> {
  const tunnels: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((_req, res) => {
    res.writeHead(501);
    res.end();
  });
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    tunnels.push(req.url ?? '');
    const [host, port] = (req.url ?? '').split(':');
    const upstream = netConnect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => sockets.delete(s));
    }
  });
  return { ...(await listenOnLoopback(server, sockets)), tunnels };
}
