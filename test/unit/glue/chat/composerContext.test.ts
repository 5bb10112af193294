/**
 * [#40.5] The chat composer's # context (src/chat/composerContext.ts) against the vscode double and a
 * real temporary workspace on disk: what is offered (workspace files and symbols only, never
 * node_modules or a file outside the workspace), what is attached (binary and escaping symlinks
 * refused), the implicit attachment and the /alt, /summary, /tags commands.
 */
import { double } from '../../vscodeDouble'; // first: points `vscode` at the double
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { ComposerContext, MAX_ATTACHMENT_CHARS, textAttachment } from '../../../../src/chat/composerContext';
import type { ContextCandidate } from '../../../../src/core/chat/chatController';

let root: string;
let outside: string;
const uri = (rel: string) => vscode.Uri.file(join(root, rel));

before(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'glue3-ws-')));
  outside = realpathSync(mkdtempSync(join(tmpdir(), 'glue3-out-')));
  mkdirSync(join(root, 'src'));
  mkdirSync(join(root, 'node_modules'));
  writeFileSync(join(root, 'src', 'a.ts'), 'export const a = 1;\n');
  writeFileSync(join(root, 'node_modules', 'dep.js'), 'module.exports = 1;\n');
  writeFileSync(join(root, 'blob.bin'), Buffer.from([1, 2, 0, 3]));
  writeFileSync(join(outside, 'secret.txt'), 'not yours\n');
  symlinkSync(join(outside, 'secret.txt'), join(root, 'link.txt'));
});
after(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});
beforeEach(() => {
  double.reset();
  double.setWorkspaceFolders([root]);
  // What findFiles lists (the double's in-memory files under the workspace folders).
  for (const rel of ['src/a.ts', 'node_modules/dep.js', 'blob.bin', 'link.txt']) double.writeFile(uri(rel), 'x');
  double.writeFile(vscode.Uri.file(join(outside, 'secret.txt')), 'x');
});

const ctx = () => new ComposerContext(() => vscode.window.activeTextEditor);
const file = (cands: ContextCandidate[], path: string) => cands.find((c) => c.kind === 'file' && c.path === path)!;

describe('[#40.5] # context candidates', () => {
  test('[#40.5] workspace files are offered by name and folder; node_modules and files outside the workspace are not', async () => {
    const cands = await ctx().candidates('');
    const files = cands.filter((c) => c.kind === 'file').map((c) => c.path).sort();
    assert.deepEqual(files, ['blob.bin', 'link.txt', 'src/a.ts']);
    const a = file(cands, 'src/a.ts');
    assert.equal(a.label, 'a.ts');
    assert.equal(a.detail, 'src');
  });

  test('[#40.5] a selection in a workspace file is offered first, with its lines', async () => {
    double.setActiveEditor(double.openDocument('one\ntwo\nthree\n', { uri: uri('src/a.ts') }), new vscode.Selection(1, 0, 2, 3));
    const [first] = await ctx().candidates('');
    assert.equal(first.kind, 'selection');
    assert.equal(first.detail, 'src/a.ts:2-3');
  });

  test('[#40.5] symbols of the active file and of the workspace, only those inside it', async () => {
    double.setActiveEditor(double.openDocument('export const a = 1;\n', { uri: uri('src/a.ts') }));
    const range = new vscode.Range(0, 0, 0, 19);
    double.commandResult('vscode.executeDocumentSymbolProvider', () => [{ name: 'a', range, selectionRange: range, children: [] }]);
    double.commandResult('vscode.executeWorkspaceSymbolProvider', () => [
      { name: 'inside', location: { uri: uri('src/a.ts'), range } },
      { name: 'dep', location: { uri: uri('node_modules/dep.js'), range } },
      { name: 'far', location: { uri: vscode.Uri.file(join(outside, 'secret.txt')), range } },
    ]);
    const symbols = (await ctx().candidates('in')).filter((c) => c.kind === 'symbol');
    assert.deepEqual(symbols.map((s) => s.label), ['a', 'inside']);
    assert.equal(symbols[0].detail, 'src/a.ts:1');
  });
});

describe('[#40.5] attaching', () => {
  test('[#40.5] a workspace file is attached with its text from disk', async () => {
    const [att] = await ctx().attach(file(await ctx().candidates(''), 'src/a.ts'));
    assert.equal(att.kind, 'file');
    assert.equal(att.label, 'src/a.ts');
    assert.equal(att.content, 'export const a = 1;\n');
  });

  test('[#40.5] an open document is attached as the user sees it (unsaved edits included)', async () => {
    double.openDocument('unsaved text\n', { uri: uri('src/a.ts') });
    const [att] = await ctx().attach(file(await ctx().candidates(''), 'src/a.ts'));
    assert.equal(att.content, 'unsaved text\n');
  });

  test('[#40.5] a binary file is not attached, with a warning', async () => {
    assert.deepEqual(await ctx().attach(file(await ctx().candidates(''), 'blob.bin')), []);
    assert.equal(double.messages[0].severity, 'warning');
    assert.equal(double.messages[0].message, 'blob.bin looks binary and was not attached.');
  });

  test('[#40.5] a symlink leading out of the workspace is refused; its target\'s text is never attached', async () => {
    assert.deepEqual(await ctx().attach(file(await ctx().candidates(''), 'link.txt')), []);
    assert.equal(double.messages[0].severity, 'warning');
    assert.match(double.messages[0].message, /^link\.txt was not attached: /);
    assert.doesNotMatch(double.messages[0].message, /not yours/);
  });

  test('[#40.5] the selection candidate with the selection gone: "Select some text in the editor first."', async () => {
    assert.deepEqual(await ctx().attach({ kind: 'selection', name: 'selection', path: '', label: '', ref: { type: 'selection' } } as ContextCandidate), []);
    assert.equal(double.messages[0].message, 'Select some text in the editor first.');
  });

  test('[#40.5] long text is cut at MAX_ATTACHMENT_CHARS and says so', () => {
    const att = textAttachment('file', 'big.txt', 'x'.repeat(MAX_ATTACHMENT_CHARS + 10));
    assert.ok(att.content.startsWith('x'.repeat(MAX_ATTACHMENT_CHARS) + '\n… (cut at 200000 characters)'));
    assert.equal(textAttachment('file', 'small', 'abc').content, 'abc');
  });
});

describe('[#40.5] the implicit attachment and the content commands', () => {
  test('[#40.5] the active workspace file is the implicit attachment; an untitled or outside file is not', async () => {
    double.setActiveEditor(double.openDocument('abc\n', { uri: uri('src/a.ts') }));
    const implicit = ctx().implicit();
    assert.equal(implicit?.label, 'src/a.ts');
    assert.equal((await ctx().implicitAttachment(implicit!.key))?.content, 'abc\n');
    assert.equal(await ctx().implicitAttachment('file:///elsewhere'), undefined);
    double.setActiveEditor(double.openDocument('x', { uri: vscode.Uri.file(join(outside, 'secret.txt')) }));
    assert.equal(ctx().implicit(), undefined);
  });

  test('[#40.5] /summary with no editor says what to do; with one it runs Summarize', async () => {
    await ctx().runContentCommand('summary');
    assert.equal(double.messages[0].message, 'Open a document in the editor first: /summary works on the active editor or its selection.');
    assert.equal(double.executed.length, 0);
    double.setActiveEditor(double.openDocument('abc\n', { uri: uri('src/a.ts') }));
    await ctx().runContentCommand('alt');
    await ctx().runContentCommand('tags');
    assert.deepEqual(double.executed.map((e) => e.command), ['aiGateway.content.generateAltText', 'aiGateway.content.suggestTaxonomy']);
  });
});
