/**
 * [#42.4] The tool runner's editor glue against the vscode double and a real third-party MCP server
 * (test/unit/mcp/showServer.ts), through the real McpService, SDK client and network layer: the Tools
 * view and Open Tool's picker show annotations and the server's instructions (plain text, bounded), the
 * tool panel gets them with the icon, a destructive tool asks with Don't Run as the default, and a link
 * from a result opens only after a modal naming its host (Don't Open the default).
 */
import { double, type ShownMessage } from '../../vscodeDouble'; // first: points `vscode` at the double
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { McpService } from '../../../../src/platform/mcpService';
import { customServerId } from '../../../../src/platform/mcpServers';
import { openTool, runBatch, type McpCommandContext } from '../../../../src/mcp/mcpCommands';
import { openLink } from '../../../../src/mcp/toolPanel';
import { ToolsTreeProvider, type ToolsNode } from '../../../../src/mcp/toolsTree';
import { TOOLTIP_INSTRUCTIONS_CHARS } from '../../../../src/mcp/toolsTreeText';
import { PNG_DATA_URI, startShowServer } from '../../mcp/showServer';
import type { SdkHttpServer } from '../../mcp/sdkHttpServer';
import { mcpWorld } from './mcpWorld';

let server: SdkHttpServer;
before(async () => {
  server = await startShowServer();
});
after(async () => {
  await server.close();
});

const world = mcpWorld({ key: false, config: () => ({ 'aiGateway.mcp.servers': [{ url: server.url, name: 'Show' }] }) });
let service: McpService;
let mcx: McpCommandContext;
beforeEach(() => {
  ({ service, mcx } = world);
});

const show = () => {
  const s = service.servers().find((x) => x.id === customServerId(server.url));
  assert.ok(s, 'the server from settings');
  return s;
};
const modals = (): ShownMessage[] => double.messages.filter((m) => m.options.modal === true);
const toolCalls = (): number => server.methods.filter((m) => m === 'tools/call').length;

describe('[#42.4] where the user picks tools', () => {
  test('[#42.4] the Tools view: a destructive tool says so (description, icon, tooltip); the server\'s tooltip carries its instructions as plain text, bounded', async () => {
    const tree = new ToolsTreeProvider(service);
    try {
      const serverNode: ToolsNode = { kind: 'server', server: show() };
      const children = await tree.getChildren(serverNode);
      const del = children.find((c) => c.kind === 'tool' && c.tool.name === 'delete_everything')!;
      const item = tree.getTreeItem(del);
      assert.equal(String(item.description), 'destructive · Deletes every record.');
      assert.equal((item.iconPath as vscode.ThemeIcon).id, 'flame');
      assert.equal(item.tooltip as unknown, undefined, "built on hover");
      await tree.resolveTreeItem(item, del);
      assert.match((item.tooltip as vscode.MarkdownString).value, /\$\(warning\) destructive · open world/);
      const lookup = tree.getTreeItem(children.find((c) => c.kind === 'tool' && c.tool.name === 'lookup')!);
      assert.equal((lookup.iconPath as vscode.ThemeIcon).id, 'eye', 'a codicon: the server\'s icon is never loaded in the tree');
      const serverItem = await tree.resolveTreeItem(tree.getTreeItem(serverNode), serverNode);
      const md = serverItem.tooltip as vscode.MarkdownString;
      assert.match(md.value, /\*\*Server instructions\*\*/);
      assert.match(md.value, /Call lookup before forecast\\\. txt\\\.exe/, 'the bidi override and the bell are gone');
      assert.doesNotMatch(md.value, /\[quit\]\(command:/, 'the server\'s Markdown link is text, not a link');
      assert.ok(md.value.length < TOOLTIP_INSTRUCTIONS_CHARS * 2 + 500, `bounded: ${md.value.length}`);
      assert.notEqual(md.isTrusted, true);
    } finally {
      tree.dispose();
    }
  });

  test('[#42.4] Open Tool: the server\'s instructions are an entry of the picker (read, then back to the list); tools carry their annotations; the panel gets hints, the data: icon and the instructions', async () => {
    double.answer('$(info) Instructions of Show', undefined, 'lookup');
    await openTool(mcx);
    const pick = double.quickPicks[0];
    const items = pick.items as unknown as Array<{ label: string; description?: string; detail?: string }>;
    const info = items.find((i) => i.label === '$(info) Instructions of Show');
    assert.ok(info, pick.labels.join(', '));
    assert.ok((info.detail ?? '').startsWith('Call lookup before forecast. txt.exe <b>Bold</b>'), info.detail);
    assert.ok((info.detail ?? '').length <= 200);
    assert.equal(items.find((i) => i.label === 'delete_everything')?.description, 'Show · destructive · open world');
    assert.equal(items.find((i) => i.label === 'lookup')?.description, 'Show · read-only · idempotent');
    const read = modals().find((m) => m.message === 'Instructions of Show');
    assert.match(read?.options.detail ?? '', /^Call lookup before forecast\. txt\.exe\n\n<b>Bold<\/b>/);
    assert.equal(double.quickPicks.length, 2, 'back to the list after reading');
    const panel = double.webviewPanels.at(-1);
    assert.equal(panel?.title, 'Tool: lookup');
    panel!.webview.send({ type: 'ready' });
    // The panel answers once the server's instructions are read (a condition, bounded only on failure).
    for (let i = 0; i < 2000 && !panel!.webview.posted.some((m) => (m as { type?: string }).type === 'init'); i++) await new Promise((r) => setTimeout(r, 5));
    const init = panel!.webview.posted.find((m) => (m as { type?: string }).type === 'init') as { tool: Record<string, unknown> } | undefined;
    assert.deepEqual(init?.tool.hints, { readOnly: true, destructive: false, idempotent: true, openWorld: false });
    assert.equal(init?.tool.icon, PNG_DATA_URI);
    assert.match(String(init?.tool.serverInstructions), /^Call lookup before forecast\. txt\.exe\n\n<b>Bold<\/b>/);
  });
});

describe('[#42.4] running and opening', () => {
  test('[#42.4] a destructive tool asks first in a modal whose default is Don\'t Run; Don\'t Run sends nothing', async () => {
    const tool = (await service.tools(show())).find((t) => t.name === 'delete_everything')!;
    const before = toolCalls();
    double.answer("Don't Run");
    const out = await service.run(show(), tool, { confirm: 'yes' });
    assert.equal(out.kind, 'notRun');
    const modal = modals().at(-1);
    assert.equal(modal?.message, 'Run delete_everything on Show?');
    assert.equal(modal?.defaultTitle, "Don't Run");
    assert.match(modal?.options.detail ?? '', /marks this tool destructive[\s\S]*"confirm": "yes"/);
    assert.equal(toolCalls(), before, 'nothing reached the server');
    double.answer('Run Tool');
    const ran = await service.run(show(), tool, {});
    assert.equal(ran.kind, 'done');
    assert.equal(toolCalls(), before + 1);
  });

  test('[#42.4] Run Several Calls: a destructive tool ticked in the history asks first (Don\'t Run the default) and Escape sends nothing; a read-only one does not ask', async () => {
    const at = Date.parse('2026-11-01T10:00:00Z');
    const past = (id: string, tool: string) => ({ id, serverId: show().id, serverLabel: 'Show', tool, args: { confirm: 'yes' }, startedAt: at, durationMs: 5, requestIds: [] });
    await service.record(past('d', 'delete_everything'));
    await service.record(past('l', 'lookup'));
    const before = toolCalls();
    double.answer(['delete_everything', 'lookup']); // then Escape on the question
    await runBatch(mcx);
    const modal = modals().at(-1);
    assert.equal(modal?.message, 'The batch runs delete_everything, which Show marks destructive or no longer lists.');
    assert.equal(modal?.defaultTitle, "Don't Run");
    assert.match(modal?.options.detail ?? '', /^delete_everything \{"confirm":"yes"\}$/);
    assert.equal(toolCalls(), before, 'nothing reached the server');
    double.reset();
    double.setConfig('aiGateway.mcp.servers', [{ url: server.url, name: 'Show' }]);
    double.answer(['lookup']);
    await runBatch(mcx);
    assert.equal(modals().filter((m) => /destructive/.test(m.message)).length, 0, 'a read-only tool is not asked about');
  });

  test('[#42.4] a link to this computer from a result: a warning modal naming the host, Don\'t Open the default; nothing opens unless chosen', async () => {
    double.answer(undefined);
    await openLink('http://127.0.0.1:9/admin');
    const modal = modals().at(-1);
    assert.equal(modal?.message, 'Open a link to 127.0.0.1:9 in the browser?');
    assert.equal(modal?.severity, 'warning');
    assert.equal(modal?.defaultTitle, "Don't Open");
    assert.match(modal?.options.detail ?? '', /this computer or a private network/);
    assert.equal(double.openedExternal.length, 0);
    double.answer('Open');
    await openLink('https://docs.example.com/page');
    assert.equal(modals().at(-1)?.severity, 'info');
    assert.deepEqual(double.openedExternal.map(String), ['https://docs.example.com/page']);
  });

  test('[#42.4] a non-web URI is offered for copying, and a link with a password is refused; neither opens', async () => {
    double.answer('Copy');
    await openLink('kb://col_docs/doc_intro');
    assert.equal(await vscode.env.clipboard.readText(), 'kb://col_docs/doc_intro');
    await openLink('https://user:secret@example.com/');
    assert.match(double.messages.at(-1)?.message ?? '', /^Not opening this link: the link carries a user name or password\.$/);
    assert.equal(double.openedExternal.length, 0);
  });
});
