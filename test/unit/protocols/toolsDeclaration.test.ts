/**
 * The tools page's protocol is declared once (src/protocol/toolsProtocol.ts WEBVIEW_TO_HOST,
 * HOST_TO_WEBVIEW): both guards derive from it (#40.10). What each guard must answer is written here by
 * hand, through the checks every declared protocol gets (declarationChecks.ts).
 */
import {
  HOST_TO_WEBVIEW,
  isHostToWebview,
  isWebviewToHost,
  WEBVIEW_TO_HOST,
  type CallView,
  type HostToWebview,
  type WebviewToHost,
} from '../../../src/protocol/toolsProtocol';
import { checkDeclaration } from './declarationChecks';

const call: CallView = { id: 'c1', tool: 'list_account_sites', args: { page: 1 }, startedAt: 1_764_000_000_000, durationMs: 12, requestIds: ['req-1'] };

const PAGE_EXAMPLES: { [K in WebviewToHost['type']]: Extract<WebviewToHost, { type: K }> } = {
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

const HOST_EXAMPLES: { [K in HostToWebview['type']]: Extract<HostToWebview, { type: K }> } = {
  init: { type: 'init', tool: { serverId: 'gateway', serverLabel: 'AI Gateway', name: 'list_account_sites', inputSchema: { type: 'object' }, readOnly: true }, args: { page: 1 }, history: [call] },
  running: { type: 'running', args: { page: 1 } },
  invalidArgs: { type: 'invalidArgs', issues: [{ path: '/page', message: 'must be an integer' }] },
  result: { type: 'result', call },
  notRun: { type: 'notRun', reason: 'The outcome is unknown: not retried.' },
  history: { type: 'history', history: [call] },
  needsUserKey: { type: 'needsUserKey', text: 'This tool needs a User key.' },
};

checkDeclaration({ name: 'tools, page → host', table: WEBVIEW_TO_HOST, examples: PAGE_EXAMPLES, guard: isWebviewToHost, optional: {} });
checkDeclaration({ name: 'tools, host → page', table: HOST_TO_WEBVIEW, examples: HOST_EXAMPLES, guard: isHostToWebview, optional: { init: ['args'], needsUserKey: ['text'] } });
