/**
 * [#40.5] Compare Models' glue (src/compare/comparePanel.ts, registered lazily by registerCompare.ts)
 * against the vscode double and the local gateway: the command opens one tab (a second call reveals
 * it), the page's messages pass the protocol guard, a comparison streams from the gateway and is
 * recorded in the spend ledger, attachments are read only from the workspace and only as text.
 */
import { double } from '../../vscodeDouble'; // first: points `vscode` at the double
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { startGateway, type RunningGateway } from '../../../localGateway/server';
import { LOCAL_KEYS } from '../../../localGateway/keys';
import { Services } from '../../../../src/services';
import { registerCompare } from '../../../../src/compare/registerCompare';
import { ComparePanel } from '../../../../src/compare/comparePanel';
import type { DoubleExtensionContext } from '../../vscodeDouble';

let gw: RunningGateway;
before(async () => {
  gw = await startGateway();
});
after(async () => {
  await gw.close();
});

let dir: string;
let ctx: DoubleExtensionContext;
let services: Services;
let registered: vscode.Disposable;
beforeEach(async () => {
  double.reset();
  gw.reset();
  double.setConfig('aiGateway.baseUrl', gw.url);
  dir = mkdtempSync(join(tmpdir(), 'compare-glue-'));
  // The spend ledger writes real files: into the temporary folder.
  ctx = double.extensionContext({ globalStorageUri: vscode.Uri.file(join(dir, 'storage')) });
  services = new Services(ctx as unknown as vscode.ExtensionContext);
  await services.keys.add('Local', LOCAL_KEYS.userFull, { activate: true });
  registered = registerCompare(services);
});
afterEach(() => {
  for (const p of double.webviewPanels) p.dispose();
  registered.dispose();
  services.dispose();
  rmSync(dir, { recursive: true, force: true });
});

type Posted = { type: string; [k: string]: unknown };
const posted = (panel: (typeof double.webviewPanels)[number]) => panel.webview.posted as Posted[];
async function until(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 3000 && !cond(); i++) await new Promise((r) => setTimeout(r, i < 100 ? 0 : 10)); // a bound on failure only
  assert.ok(cond(), 'the condition never held');
}

describe('[#40.5] Compare Models (src/compare/comparePanel.ts, registerCompare.ts)', () => {
  test('[#31.5] Compare with… a model: one tab offering that model; a second call reveals the same tab', async () => {
    await vscode.commands.executeCommand('aiGateway.compare.open', 'openai/gpt-4o');
    assert.equal(double.webviewPanels.length, 1);
    const panel = double.webviewPanels[0];
    assert.equal(panel.viewType, 'aiGateway.compare');
    assert.equal(panel.title, 'Compare Models');
    assert.match(panel.webview.html, /Content-Security-Policy/);
    panel.webview.send({ type: 'ready' });
    await until(() => posted(panel).some((m) => m.type === 'init'));
    const init = posted(panel).find((m) => m.type === 'init') as unknown as { models: Array<{ id: string }> };
    assert.ok(init.models.some((m) => m.id === 'openai/gpt-4o'));
    await vscode.commands.executeCommand('aiGateway.compare.open');
    assert.equal(double.webviewPanels.length, 1);
    assert.equal(panel.reveals.length, 1);
  });

  test('[#31.5] a comparison streams every column from the gateway and records its spend', async () => {
    const recorded: string[] = [];
    services.spend.onDidRecord((op) => recorded.push(op));
    await vscode.commands.executeCommand('aiGateway.compare.open');
    const panel = double.webviewPanels[0];
    panel.webview.send({ type: 'send', models: ['openai/gpt-4o', 'openai/gpt-5-mini'], prompt: 'Say hello', systemPrompt: '' });
    await until(() => posted(panel).some((m) => m.type === 'runDone'));
    const started = posted(panel).find((m) => m.type === 'started') as unknown as { columns: unknown[] };
    assert.equal(started.columns.length, 2);
    assert.ok(posted(panel).some((m) => m.type === 'delta'));
    await until(() => recorded.length === 2);
    assert.ok(gw.events.list().filter((e) => /chat\/completions/.test(String((e as { path?: unknown }).path ?? ''))).length >= 2);
  });

  test('[#40.5] a message outside the compare protocol is ignored and logged', async () => {
    await vscode.commands.executeCommand('aiGateway.compare.open');
    const panel = double.webviewPanels[0];
    panel.webview.send({ type: 'send', models: 'all', prompt: 42 });
    const log = double.outputChannels.find((c) => c.name === 'AI Gateway')!;
    assert.ok(log.lines.some((l) => /Compare Models: ignored a message from the page/.test(l)));
    assert.equal(posted(panel).length, 0);
  });

  test('[#31.5] Attach: text files of the workspace are attached; a binary file or one outside the workspace is refused with a warning', async () => {
    const ws = join(dir, 'ws');
    mkdirSync(ws);
    writeFileSync(join(ws, 'notes.md'), '# Notes\nhello');
    writeFileSync(join(ws, 'image.bin'), Buffer.from([1, 0, 2, 3]));
    writeFileSync(join(dir, 'outside.txt'), 'secret stuff');
    double.setWorkspaceFolders([ws]);
    await vscode.commands.executeCommand('aiGateway.compare.open');
    const panel = double.webviewPanels[0];
    double.answer([join(ws, 'notes.md'), join(ws, 'image.bin'), join(dir, 'outside.txt')]);
    panel.webview.send({ type: 'attach' });
    await until(() => posted(panel).some((m) => m.type === 'attachments'));
    assert.equal(double.openDialogs[0].canSelectMany, true);
    const att = posted(panel).find((m) => m.type === 'attachments') as unknown as { attachments: Array<{ label: string; chars: number }> };
    assert.deepEqual(att.attachments, [{ label: 'notes.md', chars: '# Notes\nhello'.length }]);
    const warnings = double.messages.filter((m) => m.severity === 'warning').map((m) => m.message);
    assert.equal(warnings.length, 2, JSON.stringify(warnings));
    assert.ok(warnings.every((w) => w.startsWith('Not attached: ')));
    assert.ok(warnings.some((w) => w.includes('image.bin is not a text file')));
  });

  test('[#40.5] closing the tab lets the command open a new one', async () => {
    await ComparePanel.show(services);
    double.webviewPanels[0].dispose();
    await ComparePanel.show(services);
    assert.equal(double.webviewPanels.length, 2);
    assert.equal(double.webviewPanels[1].disposed, false);
  });
});
