import { test } from 'node:test';
import assert from 'node:assert/strict';
import { classifyToolError, toolErrorCode } from '../../../src/core/mcp/toolErrors';
import { abilityTarget, isAbilityReadOnly, needsUserKey } from '../../../src/core/mcp/abilities';
import { toCurl, toJsonRpcRequest } from '../../../src/core/mcp/requestExport';
import { CallHistory, type HistoryEntry } from '../../../src/core/mcp/history';
import { callTool } from '../../localGateway/mcpTools';
import type { CallToolResult } from '../../../src/core/mcp/types';

const text = (t: string) => ({ content: [{ type: 'text', text: t }], isError: true });

test('[G-MCP-12] timeout is read from structured content or the text, and Retry is offered', () => {
  assert.equal(toolErrorCode({ ...text('x'), structuredContent: { error: { code: 'timeout' } } }), 'timeout');
  const info = classifyToolError('kb_search', text('timeout: upstream returned REST 504 (gateway_timeout)'));
  assert.equal(info?.code, 'timeout');
  assert.equal(info?.retry.allowed, true);
  assert.match(info?.message ?? '', /504.*gateway_timeout/);
});

test('[G-MCP-13] ambiguous_outcome disables Retry and explains why', () => {
  const info = classifyToolError('run_site_ability', text('ambiguous_outcome: not confirmed'));
  assert.equal(info?.code, 'ambiguous_outcome');
  assert.equal(info?.retry.allowed, false);
  assert.match(info?.retry.reason ?? '', /Retry is disabled/);
  assert.match(info?.advice ?? '', /may or may not have happened/);
});

test('[G-MCP-10] unauthorized on an ability tool with an Account key says a User key is needed; with a person it says connect', () => {
  const denied = callTool('run_site_ability', { site_id: 'site_blog', ability: 'core/get-site-info' }, { kind: 'account', person: undefined });
  assert.match(classifyToolError('run_site_ability', denied as CallToolResult, 'account')?.advice ?? '', /User key/);
  const notConnected = callTool('run_site_ability', { site_id: 'site_shop', ability: 'core/get-site-info' }, { kind: 'user', person: 'someone' });
  assert.match(classifyToolError('run_site_ability', notConnected as CallToolResult, 'user')?.advice ?? '', /connect your WordPress account/);
});

test('successful results are not errors; unknown codes are "other" and retryable by hand', () => {
  assert.equal(classifyToolError('ping', { content: [] }), undefined);
  assert.equal(classifyToolError('ping', text('boom'))?.code, 'other');
});

test('[G-MCP-10] "needs a User key" marks only the three ability tools, only for Account keys', () => {
  assert.equal(needsUserKey('run_site_ability', 'account'), true);
  assert.equal(needsUserKey('search_abilities', 'account'), true);
  assert.equal(needsUserKey('list_site_abilities', 'account'), true);
  assert.equal(needsUserKey('list_account_sites', 'account'), false);
  assert.equal(needsUserKey('run_site_ability', 'user'), false);
});

test('confirmation details: site, ability and input, and read-only abilities from list_site_abilities', () => {
  assert.deepEqual(abilityTarget({ site_id: 'site_blog', ability: 'core/get-post', input: { id: 1 } }), { site: 'site_blog', ability: 'core/get-post', input: { id: 1 } });
  const list = callTool('list_site_abilities', { site_id: 'site_blog' }, { kind: 'user', person: 'p' });
  assert.equal(isAbilityReadOnly(list, 'core/get-post'), true);
  assert.equal(isAbilityReadOnly(list, 'core/create-post'), false);
  assert.equal(isAbilityReadOnly(list, 'no/such'), false);
  assert.equal(isAbilityReadOnly({ content: [{ type: 'text', text: 'not json' }] }, 'core/get-post'), false);
});

test('copy as JSON-RPC / curl never contains the token', () => {
  const key = 'svc_pat_local_user_full_7f3a9c2e5b1d';
  const body = toJsonRpcRequest('kb_search', { query: "it's" });
  assert.deepEqual(JSON.parse(body), { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'kb_search', arguments: { query: "it's" } } });
  const curl = toCurl({ url: 'http://127.0.0.1:1/v1/mcp', body, headers: { Authorization: `Bearer ${key}`, 'X-Custom': 'top-secret-value', 'Service-Account': 'acct' }, secretHeaderNames: ['X-Custom'], knownSecrets: [key] });
  assert.ok(!curl.includes(key));
  assert.ok(!curl.includes('top-secret-value'));
  assert.match(curl, /Authorization: Bearer \$AI_GATEWAY_TOKEN/);
  assert.match(curl, /Service-Account: acct/);
  assert.match(curl, /it'\\''s/);
});

test('history keeps newest first, is bounded, and shrinks large images', async () => {
  let stored: readonly HistoryEntry[] = [];
  const h = new CallHistory({ get: () => stored, set: async (v) => void (stored = v) }, 3);
  const entry = (id: string): HistoryEntry => ({ id, serverId: 's', serverLabel: 'S', tool: 't', args: {}, startedAt: 0, durationMs: 1, requestIds: [] });
  for (const id of ['a', 'b', 'c', 'd']) await h.add(entry(id));
  assert.deepEqual(h.list().map((e) => e.id), ['d', 'c', 'b']);
  const big = await h.add({ ...entry('img'), result: { content: [{ type: 'image', data: 'A'.repeat(300_000), mimeType: 'image/png' }] } });
  assert.equal(big.truncated, true);
  assert.match(JSON.stringify(big.result), /omitted from history/);
});
