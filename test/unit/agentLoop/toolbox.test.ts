/**
 * The agent's tool list: the gateway's tools first; an Account key leaves out the ability tools with
 * the reason; other servers' tools keep unique, wire-safe names.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildToolbox, toolCallHeaders, ACCOUNT_KEY_EXCLUSION } from '../../../src/core/agentLoop/toolbox';
import type { McpTool } from '../../../src/core/mcp/types';

const t = (name: string, readOnly?: boolean): McpTool => ({ name, inputSchema: { type: 'object' }, ...(readOnly === undefined ? {} : { annotations: { readOnlyHint: readOnly } }) });
const gateway = { serverId: 'gw', serverLabel: 'AI Gateway', isGateway: true, tools: [t('list_account_sites', true), t('run_site_ability', false), t('search_abilities', true), t('list_site_abilities', true)] };
const other = { serverId: 'c1', serverLabel: 'My Notes!', isGateway: false, tools: [t('list_account_sites', true), t('write note'), t('ok_tool', true)] };

test('[G-MCP-10] a User key offers every gateway tool; an Account key leaves the ability tools out and says why', () => {
  const user = buildToolbox([gateway], 'user');
  assert.deepEqual(user.tools.map((x) => x.name), ['list_account_sites', 'run_site_ability', 'search_abilities', 'list_site_abilities']);
  assert.equal(user.excluded, undefined);
  const account = buildToolbox([gateway], 'account');
  assert.deepEqual(account.tools.map((x) => x.name), ['list_account_sites']);
  assert.deepEqual(account.excluded, { names: ['run_site_ability', 'search_abilities', 'list_site_abilities'], reason: ACCOUNT_KEY_EXCLUSION });
});

test('tools of another server get a prefixed name on a collision or an unsafe name; read-only comes from the annotation only', () => {
  const box = buildToolbox([gateway, other], 'user');
  const names = box.tools.map((x) => x.name);
  assert.deepEqual(names.slice(4), ['My_Notes___list_account_sites', 'My_Notes___write_note', 'ok_tool']);
  const note = box.tools.find((x) => x.name === 'My_Notes___write_note');
  assert.equal(note?.serverToolName, 'write note');
  assert.equal(note?.readOnly, false);
  assert.equal(note?.isGateway, false);
  assert.equal(box.tools.find((x) => x.name === 'ok_tool')?.readOnly, true);
  for (const n of names) assert.match(n, /^[A-Za-z0-9_.-]{1,64}$/);
});

test('the gateway knowledge-base tools are offered only when the conversation turned knowledge-base search on', () => {
  const withKb = { ...gateway, tools: [...gateway.tools, t('kb_search', true), t('kb_get_document', true)] };
  assert.equal(buildToolbox([withKb], 'user').tools.some((x) => x.name === 'kb_search'), false);
  assert.equal(buildToolbox([withKb], 'user', { kbSearch: false }).tools.some((x) => x.name === 'kb_search'), false);
  const on = buildToolbox([withKb], 'user', { kbSearch: true });
  assert.deepEqual(on.tools.map((x) => x.name), ['list_account_sites', 'run_site_ability', 'search_abilities', 'list_site_abilities', 'kb_search', 'kb_get_document']);
  assert.equal(buildToolbox([withKb], 'user').tools.some((x) => x.name === 'kb_get_document'), false);
  // Another server's own kb_search is that server's tool, not the gateway's knowledge base: the toggle does not hide it.
  const otherKb = { ...other, tools: [t('kb_search', true)] };
  assert.deepEqual(buildToolbox([withKb, otherKb], 'user').tools.map((x) => x.name).slice(4), ['kb_search']);
  assert.equal(buildToolbox([withKb, otherKb], 'user').tools.at(-1)?.isGateway, false);
});

test('[G-MCP-16] only a gateway knowledge-base tool called for a session gets the session header', () => {
  const kb = { isGateway: true, serverToolName: 'kb_search' };
  assert.deepEqual(toolCallHeaders(kb, 'sess_local_1'), { 'X-Agent-Session-Id': 'sess_local_1' });
  assert.deepEqual(toolCallHeaders(kb, undefined), {});
  assert.deepEqual(toolCallHeaders({ isGateway: true, serverToolName: 'list_account_sites' }, 'sess_local_1'), {});
  assert.deepEqual(toolCallHeaders({ isGateway: false, serverToolName: 'kb_search' }, 'sess_local_1'), {});
  assert.deepEqual(toolCallHeaders(kb, 'bad\r\nX-Evil: 1'), {});
});
