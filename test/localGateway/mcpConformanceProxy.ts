/**
 * Runs the local gateway plus a loopback proxy in front of /v1/mcp that adds a User key, so official
 * MCP tooling that cannot send an Authorization header (the conformance suite, the inspector CLI)
 * can be pointed at the gateway's tool server:
 *
 *   npx tsx test/localGateway/mcpConformanceProxy.ts          # prints MCP_URL=http://127.0.0.1:PORT/mcp
 *   <node 22+> <conformance>/dist/index.js server --url <MCP_URL>
 *
 * Stops on SIGINT/SIGTERM. Not used by the unit tests.
 */
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startGateway } from './server';
import { LOCAL_KEYS } from './keys';

async function main(): Promise<void> {
  const gw = await startGateway();
  const target = new URL(`${gw.url}/v1/mcp`);
  const proxy = createServer((req, res) => {
    // Host and Origin pass through unchanged, so the gateway's DNS-rebinding check sees the caller's.
    const headers = { ...req.headers, authorization: `Bearer ${LOCAL_KEYS.userFull}` };
    const up = request({ host: target.hostname, port: target.port, path: target.pathname, method: req.method, headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    up.on('error', () => {
      res.writeHead(502);
      res.end();
    });
    req.pipe(up);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const port = (proxy.address() as AddressInfo).port;
  console.log(`MCP_URL=http://127.0.0.1:${port}/mcp`);
  const stop = (): void => {
    proxy.close();
    void gw.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

void main();
