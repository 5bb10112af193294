/**
 * The tools page's protocol is declared once (src/protocol/toolsProtocol.ts WEBVIEW_TO_HOST,
 * HOST_TO_WEBVIEW): both guards and both handler maps derive from it (#40.10). What each guard must
 * answer is written here by hand, through the checks every declared protocol gets (declarationChecks.ts);
 * each `@ts-expect-error` is a mistake that must not compile (`npx tsc --noEmit -p .` fails on an unused one).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  HOST_TO_WEBVIEW,
  isHostToWebview,
  isWebviewToHost,
  WEBVIEW_TO_HOST,
  type CallView,
  type HostToWebview,
  type ToolsHostHandlers,
  type ToolsPageHandlers,
  type WebviewToHost,
} from '../../../src/protocol/toolsProtocol';
import { ToolPanelController, type ToolPanelHost } from '../../../src/core/mcp/toolPanelController';
import type { HistoryEntry } from '../../../src/core/mcp/history';
import { checkProtocol, type Examples } from './declarationChecks';

const call: CallView = { id: 'c1', tool: 'list_account_sites', args: { page: 1 }, startedAt: 1_764_000_000_000, durationMs: 12, requestIds: ['req-1'] };

const PAGE_EXAMPLES: Examples<WebviewToHost> = {
  ready: { type: 'ready' },
  run: { type: 'run', args: { page: 1 } },
  cancel: { type: 'cancel' },
  retry: { type: 'retry', callId: 'c1' },
  load: { type: 'load', callId: 'c1' },
  copy: { type: 'copy', format: 'curl', args: { page: 1 } },
  copyText: { type: 'copyText', text: '{"page":1}' },
  openLink: { type: 'openLink', href: 'https://example.com/docs' },
  siteDetails: { type: 'siteDetails', siteId: 'site-42' },
};

const HOST_EXAMPLES: Examples<HostToWebview> = {
  init: { type: 'init', tool: { serverId: 'gateway', serverLabel: 'AI Gateway', name: 'list_account_sites', inputSchema: { type: 'object' }, readOnly: true }, args: { page: 1 }, history: [call] },
  running: { type: 'running', args: { page: 1 } },
  invalidArgs: { type: 'invalidArgs', issues: [{ path: '/page', message: 'must be an integer' }] },
  result: { type: 'result', call },
  notRun: { type: 'notRun', reason: 'The outcome is unknown: not retried.' },
  history: { type: 'history', history: [call] },
  needsUserKey: { type: 'needsUserKey', text: 'This tool needs a User key.' },
};

checkProtocol({
  name: 'tools',
  page: { table: WEBVIEW_TO_HOST, examples: PAGE_EXAMPLES, guard: isWebviewToHost, optional: {} },
  host: { table: HOST_TO_WEBVIEW, examples: HOST_EXAMPLES, guard: isHostToWebview, optional: { init: ['args'], needsUserKey: ['text'] } },
  dispatched: [HOST_EXAMPLES.result, HOST_EXAMPLES.notRun, HOST_EXAMPLES.init],
});

test('[#40.10] tools: malformed page messages are refused (arguments not an object, an unknown export format, an empty or oversize site id, a numeric call id)', () => {
  for (const bad of [
    { type: 'run', args: [1] },
    { type: 'run', args: null },
    { type: 'run', args: 'page=1' },
    { type: 'copy', format: 'wget', args: {} },
    { type: 'siteDetails', siteId: '' },
    { type: 'siteDetails', siteId: 'x'.repeat(201) },
    { type: 'retry', callId: 7 },
    { type: 'load' },
  ]) {
    assert.equal(isWebviewToHost(bad), false, JSON.stringify(bad).slice(0, 80));
  }
  assert.equal(isWebviewToHost({ type: 'siteDetails', siteId: 'x'.repeat(200) }), true, 'the bound itself is allowed');
});

test('[#40.10] tools: malformed host messages are refused (a tool without its input schema, a call without its id, bad hints)', () => {
  const { inputSchema: _schema, ...toolWithoutSchema } = HOST_EXAMPLES.init.tool;
  assert.equal(isHostToWebview({ ...HOST_EXAMPLES.init, tool: toolWithoutSchema }), false);
  const { id: _id, ...callWithoutId } = call;
  assert.equal(isHostToWebview({ type: 'result', call: callWithoutId }), false);
  assert.equal(isHostToWebview({ ...HOST_EXAMPLES.init, tool: { ...HOST_EXAMPLES.init.tool, hints: { readOnly: 'yes' } } }), false);
  assert.equal(isHostToWebview({ type: 'invalidArgs', issues: [{ path: 1, message: 'x' }] }), false);
});

// ---------- what the compiler enforces ----------

const none = (): void => undefined;
const page: ToolsPageHandlers = { init: none, running: none, invalidArgs: none, result: none, notRun: none, history: none, needsUserKey: none };
const { needsUserKey: _needs, ...pageWithoutNeedsUserKey } = page;
// @ts-expect-error -- the page's map misses `needsUserKey`
const missingOnPage: ToolsPageHandlers = pageWithoutNeedsUserKey;
const { siteDetails: _site, ...hostWithoutSiteDetails } = {} as ToolsHostHandlers;
// @ts-expect-error -- the host's map misses `siteDetails`
const missingOnHost: ToolsHostHandlers = hostWithoutSiteDetails;
void [missingOnPage, missingOnHost];

test('[#40.10] tools: the host\'s controller answers each page message through its map (ready, load, copyText, openLink, siteDetails)', async () => {
  const posted: HostToWebview[] = [];
  const did: string[] = [];
  const entry: HistoryEntry = { id: 'c1', serverId: 'gateway', serverLabel: 'AI Gateway', tool: 'list_account_sites', args: { page: 1 }, startedAt: 1, durationMs: 2, requestIds: [] };
  const host: ToolPanelHost = {
    post: (m) => void posted.push(m),
    toolView: () => HOST_EXAMPLES.init.tool,
    run: async () => ({ kind: 'notRun', reason: 'not here' }),
    history: () => [],
    entry: (id) => (id === 'c1' ? entry : undefined),
    exportRequest: async (args, format) => `${format}:${JSON.stringify(args)}`,
    copy: async (text, what) => void did.push(`copy ${what} ${text}`),
    openLink: async (uri) => void did.push(`open ${uri}`),
    showSiteDetails: async (id) => void did.push(`site ${id}`),
  };
  const c = new ToolPanelController(host);
  await c.handle(PAGE_EXAMPLES.ready);
  assert.deepEqual(posted.map((m) => m.type), ['init']);
  await c.handle(PAGE_EXAMPLES.load);
  assert.deepEqual(posted.map((m) => m.type), ['init', 'init', 'result']);
  await c.handle(PAGE_EXAMPLES.copy);
  await c.handle(PAGE_EXAMPLES.copyText);
  await c.handle(PAGE_EXAMPLES.openLink);
  await c.handle(PAGE_EXAMPLES.siteDetails);
  assert.deepEqual(did, ['copy curl curl:{"page":1}', 'copy text {"page":1}', 'open https://example.com/docs', 'site site-42']);
});
