/**
 * An MCP server of the SDK's own (Server + Streamable HTTP transport, one SDK server per session) on a
 * free local port, for tests that need the protocol as the spec has it: elicitation travels on the
 * call's event stream and is answered with a POST. `setup` gives each session's server its handlers.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

export interface SdkServer {
  /** The server's endpoint, http://127.0.0.1:<port>/mcp. */
  readonly url: string;
  close(): Promise<void>;
}

export async function startSdkServer(name: string, setup: (server: Server) => void): Promise<SdkServer> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const http = createServer((req, res) => {
    void (async () => {
      let body: unknown;
      if (req.method === 'POST') {
        let s = '';
        for await (const c of req) s += String(c);
        body = JSON.parse(s);
      }
      const sid = req.headers['mcp-session-id'];
      let t = typeof sid === 'string' ? transports.get(sid) : undefined;
      if (!t) {
        const server = new Server({ name, version: '1' }, { capabilities: { tools: {} } });
        setup(server);
        const created: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (id: string): void => {
            transports.set(id, created);
          },
        });
        await server.connect(created);
        t = created;
      }
      await t.handleRequest(req, res, body);
    })();
  });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
    close: async () => {
      http.closeAllConnections();
      await new Promise((r) => http.close(r));
    },
  };
}
