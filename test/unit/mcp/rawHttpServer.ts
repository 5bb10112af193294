/**
 * A raw HTTP server for MCP tests, once: on a free port of `host` (127.0.0.1 unless given), a POST's
 * body read and parsed as JSON before `handle` is called (`undefined` for any other method), and a
 * `close` that cuts the connections still open. The test's own code answers (`json` for a JSON body).
 * Used by the SDK's server (sdkHttpServer.ts), the stateless-era server (statelessServer.ts) and the
 * journeys' servers. Test code: imports nothing from src/.
 */
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RawHttpServer {
  /** `http://<host>:<port>/mcp`. */
  url: string;
  close(): Promise<void>;
}

export type RawHandler = (req: IncomingMessage, res: ServerResponse, body: unknown) => void | Promise<void>;

export async function startRawServer(handle: RawHandler, host = '127.0.0.1'): Promise<RawHttpServer> {
  const http: HttpServer = createServer((req, res) => {
    void (async () => {
      let body: unknown;
      if (req.method === 'POST') {
        let s = '';
        for await (const c of req) s += String(c);
        body = JSON.parse(s);
      }
      await handle(req, res, body);
    })();
  });
  await new Promise<void>((r) => http.listen(0, host, r));
  const port = (http.address() as AddressInfo).port;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}/mcp`,
    close: async () => {
      http.closeAllConnections();
      await new Promise((r) => http.close(r));
    },
  };
}

/** Answers `status` with `body` as JSON. */
export function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
