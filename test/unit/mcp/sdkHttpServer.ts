/**
 * A real MCP server for tests: the SDK's low-level Server over its Streamable HTTP transport, one
 * session per initialize, on 127.0.0.1. `setup` registers the handlers on each new session's Server.
 * Not the local gateway (test/localGateway): a third-party server the user adds, with whatever tools,
 * instructions and results a test needs.
 */
import { randomUUID } from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { startRawServer } from './rawHttpServer';

export interface SdkHttpServer {
  url: string;
  /** Every JSON-RPC method the server was sent, in order. */
  methods: string[];
  close(): Promise<void>;
}

export async function startSdkServer(info: { name: string; version: string; instructions?: string }, setup: (server: Server) => void): Promise<SdkHttpServer> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const methods: string[] = [];
  const raw = await startRawServer(async (req, res, body) => {
    for (const m of Array.isArray(body) ? body : [body]) if (m && typeof m === 'object' && typeof (m as { method?: unknown }).method === 'string') methods.push((m as { method: string }).method);
    const sid = req.headers['mcp-session-id'];
    let t = typeof sid === 'string' ? transports.get(sid) : undefined;
    if (!t) {
      const server = new Server({ name: info.name, version: info.version }, { capabilities: { tools: {} }, ...(info.instructions !== undefined ? { instructions: info.instructions } : {}) });
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
  });
  return { url: raw.url, methods, close: raw.close };
}
