/**
 * [#40.1] The `vscode` test double itself: `import 'vscode'` in src/ resolves to it, missing names fail
 * loudly, and the scripted pieces behave like the editor's.
 */
import { double, vscode as api } from './index'; // first: points `vscode` at the double
import { beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';

beforeEach(() => double.reset());

describe('[#40.1] the vscode test double', () => {
  test('[#40.1] `vscode` resolves to the double, and a missing name throws a clear error instead of being undefined', () => {
    assert.equal(vscode.window.showQuickPick, api.window.showQuickPick);
    assert.throws(() => (vscode as unknown as { tasks: { fetchTasks(): unknown } }).tasks.fetchTasks(), /vscode double: vscode\.tasks not implemented/);
    assert.throws(() => (vscode.window as unknown as { createTerminal(): unknown }).createTerminal(), /vscode double: vscode\.window\.createTerminal not implemented/);
  });

  test('[#40.1] module.cjs lists every name the double has (for named ESM imports)', () => {
    const src = readFileSync(join(__dirname, 'module.cjs'), 'utf8');
    const listed = /0 && \(module\.exports = \{([^}]*)\}\)/.exec(src)?.[1].split(',').map((s) => s.trim()).filter(Boolean).sort();
    assert.deepEqual(listed, Object.keys(api).sort());
  });

  test('[#40.1] messages record options, items and the modal default; answers are scripted in order', async () => {
    double.answer('Delete', undefined);
    const first = await vscode.window.showWarningMessage('Delete it?', { modal: true, detail: 'No undo.' }, { title: 'Keep' }, { title: 'Delete' });
    const second = await vscode.window.showInformationMessage('Done', 'Open');
    assert.deepEqual(first, { title: 'Delete' });
    assert.equal(second, undefined);
    assert.deepEqual(double.messages.map((m) => [m.severity, m.message, m.options.modal, m.titles, m.defaultTitle]), [
      ['warning', 'Delete it?', true, ['Keep', 'Delete'], 'Keep'],
      ['info', 'Done', undefined, ['Open'], 'Open'],
    ]);
    double.answer('Nope');
    await assert.rejects(async () => vscode.window.showErrorMessage('x', 'A'), /not one of the buttons/);
  });

  test('[#40.1] quick pick and input box: items and validation are recorded', async () => {
    double.answer('b', 'bad value', 'good');
    const picked = await vscode.window.showQuickPick([{ label: 'a' }, { label: 'b' }], { title: 'Pick' });
    const bad = await vscode.window.showInputBox({ validateInput: (v) => (v.includes(' ') ? 'No spaces' : undefined) });
    const good = await vscode.window.showInputBox({ validateInput: (v) => (v.includes(' ') ? 'No spaces' : undefined) });
    assert.deepEqual(picked, { label: 'b' });
    assert.deepEqual(double.quickPicks[0].labels, ['a', 'b']);
    assert.equal(bad, undefined);
    assert.equal(double.inputBoxes[0].validation, 'No spaces');
    assert.equal(good, 'good');
  });

  test('[#40.1] commands: registered handlers run, every call is recorded, duplicates refused', async () => {
    vscode.commands.registerCommand('x.add', (a: number, b: number) => a + b);
    assert.equal(await vscode.commands.executeCommand('x.add', 2, 3), 5);
    await vscode.commands.executeCommand('workbench.action.openSettings', 'aiGateway');
    assert.deepEqual(double.executed, [
      { command: 'x.add', args: [2, 3] },
      { command: 'workbench.action.openSettings', args: ['aiGateway'] },
    ]);
    assert.throws(() => vscode.commands.registerCommand('x.add', () => 0), /already exists/);
  });

  test('[#40.1] withProgress records the title and its cancel() cancels the task token', async () => {
    const seen = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'Working', cancellable: true }, async (_p, token) => {
      double.progress[0].cancel();
      return token.isCancellationRequested;
    });
    assert.equal(seen, true);
    assert.equal(double.progress[0].title, 'Working');
  });

  test('[#40.1] configuration: manifest defaults, scopes and inspect()', () => {
    double.setConfig('aiGateway.test.flag', true, 'global');
    double.setConfig('aiGateway.test.flag', false, 'workspace');
    const c = vscode.workspace.getConfiguration('aiGateway');
    assert.equal(c.get('test.flag'), false, 'the workspace value wins in get()');
    assert.deepEqual(c.inspect('test.flag'), { key: 'aiGateway.test.flag', defaultValue: undefined, globalValue: true, workspaceValue: false, workspaceFolderValue: undefined });
    const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8'));
    const baseUrl = manifest.contributes.configuration.flatMap?.((b: { properties: Record<string, { default?: unknown }> }) => [b.properties['aiGateway.baseUrl']?.default]).find((x: unknown) => x !== undefined) ?? manifest.contributes.configuration.properties?.['aiGateway.baseUrl']?.default;
    assert.equal(c.get('baseUrl'), baseUrl);
  });

  test('[#40.1] TextDocument with CRLF, WorkspaceEdit applied to it, Uri helpers', async () => {
    const doc = double.openDocument('one\r\ntwo\r\n', { uri: 'file:///w/a.md', languageId: 'markdown' });
    assert.equal(doc.eol, vscode.EndOfLine.CRLF);
    assert.equal(doc.lineAt(1).text, 'two');
    assert.equal(doc.offsetAt(new vscode.Position(1, 0)), 5);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(doc.uri as unknown as vscode.Uri, new vscode.Range(1, 0, 1, 3), 'TWO');
    assert.equal(await vscode.workspace.applyEdit(edit), true);
    assert.equal(doc.getText(), 'one\r\nTWO\r\n');
    assert.equal(vscode.Uri.joinPath(vscode.Uri.file('/w/x'), '..', 'y.md').toString(), 'file:///w/y.md');
    assert.equal(vscode.Uri.parse('https://a.test/p?q=1').with({ path: '/z' }).toString(), 'https://a.test/z?q=1');
  });

  test('[#40.1] workspace.fs, secrets and webviews are in memory and inspectable', async () => {
    const u = vscode.Uri.file('/w/dir/f.txt');
    await vscode.workspace.fs.writeFile(u, new TextEncoder().encode('hi'));
    assert.deepEqual(await vscode.workspace.fs.readDirectory(vscode.Uri.file('/w/dir')), [['f.txt', vscode.FileType.File]]);
    await assert.rejects(async () => vscode.workspace.fs.readFile(vscode.Uri.file('/w/none')), /FileNotFound/);
    const ctx = double.extensionContext();
    await ctx.secrets.store('k', 'v');
    assert.equal(ctx.secrets.values.get('k'), 'v');
    const panel = vscode.window.createWebviewPanel('t', 'T', vscode.ViewColumn.One, {});
    const got: unknown[] = [];
    panel.webview.onDidReceiveMessage((m) => got.push(m));
    await panel.webview.postMessage({ type: 'hello' });
    double.webviewPanels[0].webview.send({ type: 'ready' });
    assert.deepEqual(double.webviewPanels[0].webview.posted, [{ type: 'hello' }]);
    assert.deepEqual(got, [{ type: 'ready' }]);
  });

  test('[#40.1] l10n.t fills positional and named arguments like the editor', () => {
    assert.equal(vscode.l10n.t('{0} of {1}', 1, 2), '1 of 2');
    assert.equal(vscode.l10n.t('Hi {name}', { name: 'Ann' }), 'Hi Ann');
  });
});

// glue1: the QuickInput objects, file system providers and the save dialog.
describe('[#40.5] the vscode double: createQuickPick, createInputBox, registerFileSystemProvider, showSaveDialog', () => {
  test('[#40.5] createInputBox takes the scripted value and accepts it; a value its handler refuses hides it (the user gave up); none is Escape', async () => {
    const ask = (): Promise<string | undefined> =>
      new Promise((resolve) => {
        const box = vscode.window.createInputBox();
        box.title = 'Name';
        box.step = 1;
        box.onDidAccept(() => {
          if (box.value.trim() === '') box.validationMessage = 'Enter a name';
          else resolve(box.value);
        });
        box.onDidHide(() => resolve(undefined));
        box.show();
      });
    double.answer('Ann', ' ');
    assert.equal(await ask(), 'Ann');
    assert.equal(await ask(), undefined);
    assert.equal(double.inputBoxes[1].validation, 'Enter a name');
    assert.equal(await ask(), undefined);
    assert.deepEqual(double.inputBoxes.map((b) => [b.options.title, b.options.step]), [
      ['Name', 1],
      ['Name', 1],
      ['Name', 1],
    ]);
  });

  test('[#40.5] createQuickPick picks the scripted label (after typing, for a function answer); an unknown label fails loudly', async () => {
    const pick = (): Promise<string | undefined> =>
      new Promise((resolve, reject) => {
        const qp = vscode.window.createQuickPick();
        qp.items = [{ label: 'a' }, { label: 'b' }];
        qp.onDidChangeValue((v) => (qp.items = [{ label: 'a' }, { label: 'b' }, { label: `typed ${v}` }]));
        qp.onDidAccept(() => resolve(qp.selectedItems[0]?.label));
        qp.onDidHide(() => resolve(undefined));
        try {
          qp.show();
        } catch (e) {
          reject(e);
        }
      });
    double.answer('b', (s) => {
      (s as unknown as { input: { value: string } }).input.value = 'x';
      return 'typed x';
    });
    assert.equal(await pick(), 'b');
    assert.equal(await pick(), 'typed x');
    assert.equal(await pick(), undefined);
    double.answer('c');
    await assert.rejects(pick(), /the scripted answer "c" is not one of the items/);
  });

  test('[#40.5] openTextDocument reads through a registered FileSystemProvider or content provider; the save dialog answers what was queued', async () => {
    const d = vscode.workspace.registerFileSystemProvider('memo', { readFile: async () => new TextEncoder().encode('from fs') } as never);
    assert.ok(double.fileSystemProvider('memo'));
    assert.equal((await vscode.workspace.openTextDocument(vscode.Uri.parse('memo:/a.txt'))).getText(), 'from fs');
    d.dispose();
    assert.equal(double.fileSystemProvider('memo'), undefined);
    vscode.workspace.registerTextDocumentContentProvider('ro', { provideTextDocumentContent: () => 'from provider' });
    assert.equal((await vscode.workspace.openTextDocument(vscode.Uri.parse('ro:/b.md'))).getText(), 'from provider');
    assert.equal(await vscode.window.showSaveDialog({ title: 'Export' }), undefined);
    double.answerSaveDialog('/tmp/x.csv');
    assert.equal((await vscode.window.showSaveDialog({ title: 'Export' }))?.fsPath, '/tmp/x.csv');
    assert.deepEqual(double.saveDialogs.map((o) => o.title), ['Export', 'Export']);
  });
});
