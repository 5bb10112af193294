// Proof against a server no one here wrote: the reference MCP server `@modelcontextprotocol/server-everything`
// (npm) in Streamable HTTP mode on loopback. The runner's client (official SDK client + injected fetch)
// connects, lists its tools, validates arguments against its schemas, and calls `echo` and `get-sum`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { McpConnection } from '../../../src/core/mcp/mcpClient';
import { validateAgainstSchema } from '../../../src/core/mcp/validation';
import { buildFormModel } from '../../../src/protocol/toolsForm';
import type { McpTool } from '../../../src/core/mcp/types';

const require = createRequire(__filename);
const serverMain = join(dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js');

// The server listens on a fixed PORT on all interfaces. This preload pins it to 127.0.0.1 on an
// ephemeral port and prints the port it got, so the test neither races for a port nor listens publicly.
const PRELOAD = `data:text/javascript,${encodeURIComponent(`
import http from 'node:http';
const listen = http.Server.prototype.listen;
http.Server.prototype.listen = function (...args) {
  const cb = args.find((a) => typeof a === 'function');
  this.once('listening', () => process.stderr.write('LOOPBACK_PORT=' + this.address().port + '\\n'));
  return listen.call(this, 0, '127.0.0.1', cb);
};`)}`;

let child: ChildProcess | undefined;
let url = '';
let conn: McpConnection;
let tools: McpTool[] = [];

before(async () => {
  const proc = spawn(process.execPath, ['--import', PRELOAD, serverMain, 'streamableHttp'], { stdio: ['ignore', 'ignore', 'pipe'] });
  child = proc;
  const port = await new Promise<number>((resolve, reject) => {
    let buf = '';
    proc.stderr?.on('data', (d: Buffer) => {
      buf += d.toString();
      const m = /LOOPBACK_PORT=(\d+)/.exec(buf);
      if (m) resolve(Number(m[1]));
    });
    proc.once('exit', (code) => reject(new Error(`server-everything exited early (${code}): ${buf}`)));
  });
  url = `http://127.0.0.1:${port}/mcp`;
  conn = await McpConnection.connect({ url, fetch: (u, i) => fetch(u, i), getHeaders: async () => ({}) });
  tools = (await conn.listTools()).tools;
});

after(async () => {
  await conn?.close();
  if (child?.pid !== undefined && child.exitCode === null) {
    const exited = new Promise((r) => child?.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
});

test('connects to server-everything over Streamable HTTP and lists its tools', () => {
  assert.match(conn.server.name, /everything/i);
  assert.ok(conn.server.capabilities.tools, 'server offers tools');
  const names = tools.map((t) => t.name);
  assert.ok(names.includes('echo'), names.join(','));
  assert.ok(names.includes('get-sum'), names.join(','));
});

test('calls echo and renders its text block', async () => {
  const out = await conn.callTool('echo', { message: 'hello from the runner' });
  assert.notEqual(out.result.isError, true);
  const textBlock = out.result.content.find((b) => b.type === 'text') as { text: string } | undefined;
  assert.match(textBlock?.text ?? '', /hello from the runner/);
});

test('get-sum: numeric schema becomes number fields, bad arguments are caught before sending, good ones are summed', async () => {
  const sum = tools.find((t) => t.name === 'get-sum');
  assert.ok(sum);
  const model = buildFormModel(sum.inputSchema);
  assert.deepEqual(model.root.fields?.map((f) => [f.key, f.kind, f.required]), [
    ['a', 'number', true],
    ['b', 'number', true],
  ]);
  assert.equal(validateAgainstSchema(sum.inputSchema, { a: 'two', b: 3 }).valid, false);
  assert.equal(validateAgainstSchema(sum.inputSchema, { a: 2.5, b: 3 }).valid, true);
  const out = await conn.callTool('get-sum', { a: 2.5, b: 3 });
  assert.match(JSON.stringify(out.result.content), /5\.5/);
});

test('protocol ping works against a stateful server too (session id handled by the SDK)', async () => {
  // ping resolves with nothing on success and rejects on any failure: assert the resolved value.
  assert.equal(await conn.ping(), undefined);
});
