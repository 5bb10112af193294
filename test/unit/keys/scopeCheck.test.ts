/**
 * [#39.12] Check API Key reports what a key can do, scope by scope, against the local gateway with every
 * kind of key the spec's permissions table allows; nothing it sends runs a model, a tool or a write.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { checkKeyScopes, scopeLines, summarizeScopeReport, passedScopeCheck, type ScopeReport } from '../../../src/core/keys/scopeCheck';
import { createGatewayClient } from '../../../src/core/gateway/gatewayClient';
import { GatewayError } from '../../../src/core/http/errors';
import { LOCAL_KEYS } from '../../localGateway/keys';
import { startGateway, type RunningGateway } from '../../localGateway/server';
import { sendEnvelope, startServer } from '../http/helpers';

const ORDER = ['chat', 'image', 'speech', 'transcribe', 'mcp', 'collections', 'documents', 'search', 'agents'];

function levels(report: ScopeReport): Record<string, string> {
  assert.equal(report.kind, 'scopes', JSON.stringify(report));
  if (report.kind !== 'scopes') return {};
  assert.deepEqual(report.findings.map((f) => f.scope), ORDER);
  return Object.fromEntries(report.findings.map((f) => [f.scope, f.level]));
}

describe('Check API Key, scope by scope, against the local gateway', () => {
  let gateway: RunningGateway;
  before(async () => {
    gateway = await startGateway();
  });
  after(async () => {
    await gateway.close();
  });

  async function check(key: string | undefined): Promise<ScopeReport> {
    const client = createGatewayClient({ baseUrl: gateway.url, getKey: async () => key, userAgent: 'ai-gateway-vscode/test', retry: { maxAttempts: 1 } });
    try {
      return await checkKeyScopes(client);
    } finally {
      await client.dispose();
    }
  }

  test('[#39.12] an mcp-only Restricted key: mcp write, chat none, every other scope none', async () => {
    const report = await check(LOCAL_KEYS.userMcpOnly);
    assert.deepEqual(levels(report), { chat: 'none', image: 'none', speech: 'none', transcribe: 'none', mcp: 'write', collections: 'none', documents: 'none', search: 'none', agents: 'none' });
    assert.equal(summarizeScopeReport(report, '"tools"'), 'API key "tools" is valid and can use mcp (write). Nothing was billed.');
    assert.ok(scopeLines(report.kind === 'scopes' ? report.findings : []).includes('chat: none'));
  });

  test('[#39.12] Full access (User and Account): write on every scope, search read (its only level)', async () => {
    for (const key of [LOCAL_KEYS.userFull, LOCAL_KEYS.accountFull]) {
      assert.deepEqual(levels(await check(key)), { chat: 'write', image: 'write', speech: 'write', transcribe: 'write', mcp: 'write', collections: 'write', documents: 'write', search: 'read', agents: 'write' });
    }
  });

  test('[#39.12] Read only: read on every scope, as the gateway names it', async () => {
    assert.deepEqual(levels(await check(LOCAL_KEYS.userReadOnly)), { chat: 'read', image: 'read', speech: 'read', transcribe: 'read', mcp: 'read', collections: 'read', documents: 'read', search: 'read', agents: 'read' });
  });

  test('[#39.12] Restricted keys: chat only, and chat with mcp read', async () => {
    assert.deepEqual(levels(await check(LOCAL_KEYS.userChatOnly)), { chat: 'write', image: 'none', speech: 'none', transcribe: 'none', mcp: 'none', collections: 'none', documents: 'none', search: 'none', agents: 'none' });
    assert.deepEqual(levels(await check(LOCAL_KEYS.userMcpRead)), { chat: 'write', image: 'none', speech: 'none', transcribe: 'none', mcp: 'read', collections: 'none', documents: 'none', search: 'none', agents: 'none' });
  });

  test('[#39.12] a revoked key is invalid as a whole (401), after one request', async () => {
    gateway.events.clear();
    const report = await check(LOCAL_KEYS.revoked);
    assert.equal(report.kind, 'invalid');
    assert.equal(gateway.events.list('request').length, 1);
    assert.match(summarizeScopeReport(report, '"old"'), /invalid or has been revoked/);
  });

  test('[#39.12] the check bills nothing, runs no tool and changes nothing', async () => {
    gateway.events.clear();
    await check(LOCAL_KEYS.userFull);
    assert.equal(gateway.events.list('billed').length, 0, 'nothing billed');
    assert.deepEqual(gateway.events.list('mcp-dispatch').map((e) => e.tool), [undefined], 'the tools/call without a name reached no tool');
    const statuses = gateway.events.list('request').map((e) => `${e.method} ${e.path} ${e.status}`);
    assert.ok(statuses.every((s) => !/ 2\d\d$/.test(s) || /^GET |\/v1\/mcp /.test(s)), statuses.join('\n'));
  });
});

describe('Check API Key, scope by scope, against answers it cannot read', () => {
  test('[#39.12] a server that answers 404 HTML everywhere gets "unknown" for every scope, never a level', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<html>not here</html>');
    });
    const client = createGatewayClient({ baseUrl: server.url, getKey: async () => LOCAL_KEYS.userFull, userAgent: 'ai-gateway-vscode/test', retry: { maxAttempts: 1 } });
    try {
      const report = await checkKeyScopes(client);
      assert.deepEqual(Object.values(levels(report)), ORDER.map(() => 'unknown'));
      assert.match(summarizeScopeReport(report, '"k"'), /can use none of the checked scopes\. No answer for chat, image/);
    } finally {
      await client.dispose();
      await server.close();
    }
  });

  test('[#39.12] an unreachable gateway is an error after one request, not nine verdicts', async () => {
    const client = createGatewayClient({ baseUrl: 'http://127.0.0.1:9', getKey: async () => LOCAL_KEYS.userFull, userAgent: 'ai-gateway-vscode/test', retry: { maxAttempts: 1 } });
    try {
      const report = await checkKeyScopes(client);
      assert.equal(report.kind, 'error');
      assert.match(summarizeScopeReport(report, '"k"'), /^Could not check API key "k": /);
    } finally {
      await client.dispose();
    }
  });

  test('[#39.12] a refusal at write that does not name the level reads "read or none"', async () => {
    const server = await startServer((_req, res) => sendEnvelope(res, 403, 'permission_error', 'forbidden', 'req-1'));
    const client = createGatewayClient({ baseUrl: server.url, getKey: async () => LOCAL_KEYS.userFull, userAgent: 'ai-gateway-vscode/test', retry: { maxAttempts: 1 } });
    try {
      const got = levels(await checkKeyScopes(client));
      assert.equal(got.chat, 'not-write');
      assert.equal(got.collections, 'none', 'the read probe was refused too');
    } finally {
      await client.dispose();
      await server.close();
    }
  });

  test('[#39.12] only an envelope-carrying refusal of the body or resource counts as past the scope check', () => {
    assert.equal(passedScopeCheck(new GatewayError({ reason: 'invalid_request', status: 400, message: 'x', envelope: true })), true);
    assert.equal(passedScopeCheck(new GatewayError({ reason: 'not_found', status: 404, message: 'x', envelope: true })), true);
    assert.equal(passedScopeCheck(new GatewayError({ reason: 'not_found', status: 404, message: 'x', envelope: false })), false);
    assert.equal(passedScopeCheck(new GatewayError({ reason: 'unavailable', status: 503, message: 'x', envelope: true })), false);
  });
});
