/**
 * [#40.5] The MCP tool runner's glue against the vscode double and the local gateway's /v1/mcp: the
 * command bodies (src/mcp/mcpCommands.ts, [#40.2]), the tool panel (toolPanel.ts) and the activation
 * wiring (registerMcp.ts). The real Services, McpService, SDK client and network layer are used; only
 * the editor is the double.
 */
import { double } from '../../vscodeDouble'; // first: points `vscode` at the double
import { beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { RunningGateway } from '../../../localGateway/server';
import { LOCAL_KEYS } from '../../../localGateway/keys';
import type { Services } from '../../../../src/services';
import type { McpService } from '../../../../src/platform/mcpService';
import { headerSecretKey, customServerId } from '../../../../src/platform/mcpServers';
import { JWT_SECRET_KEY } from '../../../../src/platform/secretKeys';
import { addServer, clearHistory, clearJwt, openTool, pingServer, removeServer, runBatch, setJwt, showHistory, type McpCommandContext } from '../../../../src/mcp/mcpCommands';
import { ToolPanel } from '../../../../src/mcp/toolPanel';
import { registerMcp } from '../../../../src/mcp/registerMcp';
import type { HistoryEntry } from '../../../../src/core/mcp/history';
import type { DoubleExtensionContext } from '../../vscodeDouble';
import { mcpWorld } from './mcpWorld';

const world = mcpWorld({ key: false });
let gw: RunningGateway;
let ctx: DoubleExtensionContext;
let services: Services;
let service: McpService;
let mcx: McpCommandContext;
beforeEach(() => {
  ({ gw, ctx, services, service, mcx } = world);
});

/** Adds and activates an API key, then waits for the key store's own echo of the keychain write (it resets connections). */
async function withKey(): Promise<void> {
  const echoed = new Promise<void>((resolve) => {
    const sub = services.keys.onDidChange((e) => {
      if (e.reason === 'external') {
        sub.dispose();
        resolve();
      }
    });
  });
  await services.keys.add('Local', LOCAL_KEYS.userFull, { activate: true });
  await echoed;
}
const mcpMethods = () => gw.events.list('mcp-dispatch').map((e) => (e as { method?: string }).method);
const gatewayNode = () => ({ kind: 'server', server: service.servers()[0] }) as never;

/** Waits (on a condition, never on time) for work left running with `void`. */
async function until(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 3000 && !cond(); i++) await new Promise((r) => setTimeout(r, i < 100 ? 0 : 10)); // a bound on failure only
  assert.ok(cond(), 'the condition never held');
}

function entry(over: Partial<HistoryEntry>): HistoryEntry {
  return { id: `h${Math.random()}`, serverId: 'gateway', serverLabel: 'AI Gateway', tool: 'ping', args: {}, startedAt: Date.parse('2026-11-01T10:00:00Z'), durationMs: 12, requestIds: [], ...over };
}

describe('[#40.2] MCP commands (src/mcp/mcpCommands.ts)', () => {
  test('[#40.2] Ping MCP Server from the palette: the server is picked, a ping goes to /v1/mcp, the answer names the server', async () => {
    await withKey();
    double.answer('AI Gateway');
    await pingServer(mcx);
    assert.deepEqual(double.quickPicks[0].labels, ['AI Gateway']);
    const [msg] = double.messages;
    assert.equal(msg.severity, 'info', msg.message);
    assert.match(msg.message, /^AI Gateway: .+ answered ping in [\d,]+ ms \(MCP [\d-]+\)\.$/);
    assert.ok(mcpMethods().includes('ping'), `methods seen: ${mcpMethods().join(', ')}`);
  });

  test('[#40.2] Ping without an API key: an error naming the server and what to do; nothing is sent', async () => {
    await pingServer(mcx, gatewayNode());
    assert.equal(double.quickPicks.length, 0, 'the tree node gives the server');
    assert.equal(double.messages[0].severity, 'error');
    assert.equal(double.messages[0].message, 'AI Gateway: Add an API key to use the gateway tools.');
    assert.equal(gw.events.list('mcp-dispatch').length, 0);
  });

  test('[#29.13] Add MCP Server: three steps; an Authorization header is stored in the keychain only, never in settings', async () => {
    double.answer('https://mcp.example.test/mcp', 'Example', 'Add a header…', 'Authorization', 'Bearer s3cret-value', 'Add a header…', 'X-Trace', 'Not secret (stored in settings)', 'on', 'Done');
    await addServer(mcx);
    const steps = double.shown.map((s) => s.options as Record<string, unknown>).filter((o) => o.step !== undefined).map((o) => `${o.step}/${o.totalSteps}`);
    assert.deepEqual(steps, ['1/3', '2/3', '3/3', '3/3', '3/3']);
    const valueBox = double.inputBoxes.find((b) => b.options.title === 'Value of Authorization')!;
    assert.equal(valueBox.options.password, true);
    assert.ok(!double.quickPicks.some((p) => p.options.title === 'Is Authorization secret?'), 'a credential header is not asked about');
    const id = customServerId('https://mcp.example.test/mcp');
    assert.equal(ctx.secrets.values.get(headerSecretKey(id, 'Authorization')), 'Bearer s3cret-value');
    assert.deepEqual(double.configUpdates, [
      { key: 'aiGateway.mcp.servers', value: [{ name: 'Example', url: 'https://mcp.example.test/mcp', headers: { 'X-Trace': 'on' }, secretHeaders: ['Authorization'] }], target: vscode.ConfigurationTarget.Global },
    ]);
    assert.ok(!JSON.stringify(double.configUpdates).includes('s3cret'));
  });

  test('[#40.2] Add MCP Server: an address that is not http(s) is refused by the input box; Escape writes nothing', async () => {
    double.answer('ftp://files.example.test');
    await addServer(mcx);
    assert.equal(double.inputBoxes[0].validation, 'Enter an http(s) URL');
    await addServer(mcx); // Escape
    assert.equal(double.configUpdates.length, 0);
    assert.equal(ctx.secrets.values.size, 0);
  });

  test('[#40.2] Remove MCP Server: the confirmation keeps the server by default; Escape keeps it, Remove deletes it and its keychain secrets', async () => {
    const url = 'https://mcp.example.test/mcp';
    double.setConfig('aiGateway.mcp.servers', [{ name: 'Example', url, headers: {}, secretHeaders: ['Authorization'] }]);
    await ctx.secrets.store(headerSecretKey(customServerId(url), 'Authorization'), 'Bearer s3cret');
    double.answer('Example');
    await removeServer(mcx);
    const [confirm] = double.messages;
    assert.equal(confirm.options.modal, true);
    assert.equal(confirm.defaultTitle, 'Keep Server');
    assert.match(confirm.options.detail ?? '', /Authorization/);
    assert.equal(double.configUpdates.length, 0, 'Escape removes nothing');
    assert.equal(ctx.secrets.values.size, 1);

    double.answer('Example', 'Remove');
    await removeServer(mcx);
    assert.deepEqual(double.configUpdates.at(-1)?.value, []);
    assert.equal(ctx.secrets.values.size, 0);
  });

  test('[#40.2] Remove MCP Server with only the gateway entry: says it cannot be removed', async () => {
    await removeServer(mcx);
    assert.equal(double.quickPicks.length, 0);
    assert.equal(double.messages[0].message, 'There are no added MCP servers. The gateway entry cannot be removed.');
  });

  test('[#40.2] Set Identity Token: a password box that checks the JWT shape; nothing is stored until the last answer', async () => {
    double.answer('not-a-jwt');
    await setJwt(mcx);
    assert.equal(double.inputBoxes[0].options.password, true);
    assert.equal(double.inputBoxes[0].validation, 'This does not look like a JWT (three dot-separated parts).');
    double.answer('aaa.bbb.ccc', 'acct_1'); // then Escape at Service-Project
    await setJwt(mcx);
    assert.equal(ctx.secrets.values.size, 0);
    assert.equal(double.configUpdates.length, 0);

    double.answer(' aaa.bbb.ccc ', ' acct_1 ', 'proj_1');
    await setJwt(mcx);
    assert.equal(ctx.secrets.values.get(JWT_SECRET_KEY), 'aaa.bbb.ccc');
    assert.deepEqual(
      double.configUpdates.map((u) => [u.key, u.value]),
      [
        ['aiGateway.mcp.serviceAccount', 'acct_1'],
        ['aiGateway.mcp.serviceProject', 'proj_1'],
        ['aiGateway.mcp.authentication', 'jwt'],
      ],
    );
    assert.ok(!JSON.stringify(double.configUpdates).includes('aaa.bbb'), 'the token never goes to settings');

    await clearJwt(mcx);
    assert.equal(ctx.secrets.values.has(JWT_SECRET_KEY), false);
    assert.deepEqual(double.configUpdates.at(-1), { key: 'aiGateway.mcp.authentication', value: 'apiKey', target: vscode.ConfigurationTarget.Global });
  });

  test('[#40.2] Tool Call History: empty says so; a picked call opens its tool panel on that call; Clear empties it', async () => {
    await showHistory(mcx);
    assert.equal(double.messages[0].message, 'No tool calls yet.');
    await withKey();
    await service.record(entry({ tool: 'ping', failure: { message: 'dropped', outcomeUnknown: true } }));
    double.answer('ping');
    await showHistory(mcx);
    assert.match(String((double.quickPicks[0].items[0] as unknown as { description: string }).description), /outcome unknown/);
    assert.equal(double.webviewPanels.length, 1);
    assert.equal(double.webviewPanels[0].title, 'Tool: ping');
    await clearHistory(mcx);
    assert.equal(service.history.list().length, 0);
    assert.equal(double.messages.at(-1)?.message, 'Tool call history cleared.');
  });

  test('[#40.2] Open Tool from the palette lists every server\'s tools from tools/list; a tree node opens its panel directly, once', async () => {
    await withKey();
    double.answer('kb_search');
    await openTool(mcx);
    assert.ok(double.quickPicks[0].labels.includes('run_site_ability'));
    assert.equal(double.webviewPanels.at(-1)?.title, 'Tool: kb_search');
    const tool = (await service.tools(service.servers()[0])).find((t) => t.name === 'kb_search')!;
    await openTool(mcx, { kind: 'tool', server: service.servers()[0], tool } as never);
    assert.equal(double.webviewPanels.length, 1, 'the open panel is revealed, not duplicated');
    assert.equal(double.webviewPanels[0].reveals.length, 1);
  });

  test('[G-MCP-3] Run Several Calls: more than the batch limit is refused before anything is sent', async () => {
    await withKey();
    for (let i = 0; i < 21; i++) await service.record(entry({ id: `e${i}`, tool: 'ping' }));
    double.answer(Array.from({ length: 21 }, () => 'ping'));
    await runBatch(mcx).catch(() => undefined);
    const err = double.messages.find((m) => m.severity === 'error');
    assert.ok(err, 'an error is shown');
    assert.equal(gw.events.list('mcp-dispatch').length, 0);
  });

  test('[G-MCP-13] Run Several Calls: a call whose outcome was unknown asks first, Leave It Out being the default; Escape sends nothing', async () => {
    await withKey();
    await service.record(entry({ id: 'a', tool: 'ping' }));
    await service.record(entry({ id: 'b', tool: 'kb_list_collections', failure: { message: 'connection reset', outcomeUnknown: true } }));
    double.answer(['ping', 'kb_list_collections']); // then Escape on the question
    await runBatch(mcx);
    const ask = double.messages.find((m) => m.options.modal)!;
    assert.equal(ask.defaultTitle, 'Leave It Out');
    assert.deepEqual(ask.titles.slice().sort(), ['Leave It Out', 'Run It Again']);
    assert.equal(gw.events.list('mcp-dispatch').length, 0, 'Escape cancels the whole batch');
  });

  test('[G-MCP-13] Run Several Calls: Leave It Out runs the others as one batch on the gateway and says what was left out', async () => {
    await withKey();
    await service.record(entry({ id: 'a', tool: 'ping' }));
    await service.record(entry({ id: 'b', tool: 'kb_list_collections', failure: { message: 'connection reset', outcomeUnknown: true } }));
    double.answer(['ping', 'kb_list_collections'], 'Leave It Out');
    await runBatch(mcx);
    const infos = double.messages.filter((m) => m.severity === 'info').map((m) => m.message);
    assert.deepEqual(infos, ['Left out 1 call whose earlier outcome is unknown: kb_list_collections.', 'Batch of 1 done: 1 ok, 0 failed. See Tool Call History.']);
    assert.equal(double.progress[0].title, 'Running 1 call on AI Gateway…');
    const calls = gw.events.list('mcp-dispatch').filter((e) => (e as { method?: string }).method === 'tools/call');
    assert.equal(calls.length, 1);
    assert.equal(service.history.list().length, 3, 'the re-run is recorded');
  });
});

describe('[#40.5] the tool panel (src/mcp/toolPanel.ts)', () => {
  async function openPanel(name: string) {
    if (!services.keys.active) await withKey();
    const server = service.servers()[0];
    const tool = (await service.tools(server)).find((t) => t.name === name)!;
    ToolPanel.show(ctx.extensionUri, service, server, tool);
    return double.webviewPanels.at(-1)!;
  }

  test('[#40.5] the page gets the tool on ready; a run goes to tools/call and its result comes back', async () => {
    const panel = await openPanel('kb_list_collections');
    assert.equal(panel.viewType, 'aiGateway.toolRunner');
    assert.equal(panel.options.enableScripts, true);
    assert.match(panel.webview.html, /Content-Security-Policy/);
    panel.webview.send({ type: 'ready' });
    await until(() => panel.webview.posted.some((m) => (m as { type: string }).type === 'init'));
    const init = panel.webview.posted.find((m) => (m as { type: string }).type === 'init') as { tool: { name: string; readOnly: boolean } };
    assert.equal(init.tool.name, 'kb_list_collections');
    panel.webview.send({ type: 'run', args: {} });
    await until(() => panel.webview.posted.some((m) => (m as { type: string }).type === 'result'));
    assert.ok(mcpMethods().includes('tools/call'));
    assert.equal(service.history.list()[0].tool, 'kb_list_collections');
    // [#41.2] a run from the Tools view ticks the walkthrough's "Run a tool" step
    assert.ok(double.executed.some((e) => e.command === 'setContext' && e.args[0] === 'aiGateway.done.runTool' && e.args[1] === true));
  });

  test('[#40.5] a link from a result opens only after Open is chosen (the default is Don\'t Open); a non-web link is offered for copying', async () => {
    const panel = await openPanel('kb_search');
    panel.webview.send({ type: 'openLink', href: 'https://docs.example.test/a' });
    await until(() => double.messages.length === 1);
    assert.equal(double.messages[0].defaultTitle, "Don't Open");
    assert.equal(double.openedExternal.length, 0, 'Escape opens nothing');
    double.answer('Open');
    panel.webview.send({ type: 'openLink', href: 'https://docs.example.test/a' });
    await until(() => double.openedExternal.length === 1);
    assert.equal(double.openedExternal[0].toString(), 'https://docs.example.test/a');
    double.answer('Copy');
    panel.webview.send({ type: 'openLink', href: 'kb://col_docs/doc_1' });
    await until(() => double.clipboard === 'kb://col_docs/doc_1');
  });

  test('[#40.5] a message outside the tools protocol is ignored and logged; closing the panel lets a new one open', async () => {
    const panel = await openPanel('ping');
    panel.webview.send({ type: 'rm -rf', path: '/' });
    const log = double.outputChannels.find((c) => c.name === 'AI Gateway')!;
    assert.ok(log.lines.some((l) => /ignored a message from the page/.test(l)));
    panel.dispose();
    await openPanel('ping');
    assert.equal(double.webviewPanels.length, 2);
  });
});

describe('[#40.5] activation wiring (src/mcp/registerMcp.ts)', () => {
  test('[#40.5] the Tools view and every MCP command are registered; Refresh runs at once, the others load their module on first call', async () => {
    const d = registerMcp(services);
    assert.deepEqual(
      double.treeViews.map((t) => t.id),
      ['aiGateway.tools'],
    );
    assert.ok(double.commands.has('aiGateway.mcp.runBatch'));
    await vscode.commands.executeCommand('aiGateway.mcp.clearJwt');
    assert.deepEqual(double.configUpdates.at(-1)?.value, 'apiKey');
    d.dispose();
    assert.equal(double.commands.size, 0);
  });
});
