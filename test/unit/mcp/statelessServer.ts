/**
 * An MCP server of the stateless revision 2026-07-28 for tests (#42.3, docs/MCP-ERAS.md), written here
 * from the revision: `server/discover` answers with `supportedVersions: ['2026-07-28']`, `tools/list`
 * with the given tools, `tools/call` as the test says; no `initialize`, no session. Every POST is
 * recorded with its headers and body (what the era check reads), every other method answered 405.
 * Used by the unit tests (protocolEras.test.ts) and the journey (test/e2e/mcpSignIn.e2e.ts). Test
 * code: imports nothing from src/.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { json, startRawServer } from './rawHttpServer';

export interface SeenPost {
  headers: IncomingMessage['headers'];
  body: { id?: unknown; method?: string; params?: Record<string, unknown> };
}

export interface StatelessServer {
  url: string;
  /** Every POST, in order. */
  seen: SeenPost[];
  /** The method of every other request (a GET for a stream the revision does not have). */
  gets: string[];
  close(): Promise<void>;
}

export interface StatelessServerOptions {
  serverInfo: { name: string; version: string };
  tools: unknown[];
  /** Answers a `tools/call` (`params` as sent: name, arguments, inputResponses, requestState). */
  call(id: unknown, params: Record<string, unknown>, res: ServerResponse, req: IncomingMessage): void;
  /** Asked on each `server/discover`: `true` refuses it with -32022 naming 2026-07-28 (the version retry). */
  refuseDiscover?: () => boolean;
}

export async function startStatelessServer(options: StatelessServerOptions, host?: string): Promise<StatelessServer> {
  const seen: SeenPost[] = [];
  const gets: string[] = [];
  const raw = await startRawServer((req, res, posted) => {
    if (req.method !== 'POST') {
      gets.push(req.method ?? '?');
      res.writeHead(405).end();
      return;
    }
    const body = posted as SeenPost['body'];
    seen.push({ headers: req.headers, body });
    const { id, method, params = {} } = body;
    if (method === 'server/discover') {
      if (options.refuseDiscover?.()) {
        return json(res, 400, { jsonrpc: '2.0', id, error: { code: -32022, message: 'Unsupported protocol version', data: { supported: ['2026-07-28'], requested: 'x' } } });
      }
      return json(res, 200, { jsonrpc: '2.0', id, result: { resultType: 'complete', ttlMs: 0, cacheScope: 'private', supportedVersions: ['2026-07-28'], capabilities: { tools: {} }, serverInfo: options.serverInfo } });
    }
    if (method === 'tools/list') return json(res, 200, { jsonrpc: '2.0', id, result: { tools: options.tools } });
    if (method === 'tools/call') return options.call(id, params, res, req);
    json(res, 200, { jsonrpc: '2.0', id, error: { code: -32601, message: 'no' } });
  }, host);
  return { url: raw.url, seen, gets, close: raw.close };
}
