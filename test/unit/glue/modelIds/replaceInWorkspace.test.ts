/**
 * [#40.5] Replace Model ID in the Workspace (src/modelIds/modelIdsCommands.ts, registered through
 * registerModelIds.ts) with the real Services against the vscode double's workspace: what is searched
 * (open documents as shown, .gitignore'd and binary files left out) and that every change goes to the
 * editor's preview as one WorkspaceEdit.
 */
import { double } from '../../vscodeDouble'; // first: points `vscode` at the double
import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { Services } from '../../../../src/services';
import { registerModelIds } from '../../../../src/modelIds/registerModelIds';
import { registerModelIdsCommands } from '../../../../src/modelIds/modelIdsCommands';

let storage: string;
let services: Services;
let feature: vscode.Disposable;
const W = (rel: string) => vscode.Uri.file(`/w/${rel}`);

beforeEach(async () => {
  double.reset();
  storage = await mkdtemp(join(tmpdir(), 'glue3-modelids-'));
  services = new Services(double.extensionContext({ globalStorageUri: vscode.Uri.file(storage) }) as unknown as vscode.ExtensionContext);
  feature = registerModelIds(services);
  double.setWorkspaceFolders(['/w']);
  double.writeFile(W('.gitignore'), 'build/\n');
  double.writeFile(W('src/app.ts'), "const a = 'openai/gpt-old';\nconst b = \"openai/gpt-old\";\n");
  double.writeFile(W('build/out.js'), "x('openai/gpt-old')\n");
  double.writeFile(W('img.bin'), new Uint8Array([0, 1, 2, 0, 111, 112, 101, 110, 97, 105]));
  double.writeFile(W('README.md'), 'No ids here.\n');
});
afterEach(async () => {
  feature.dispose();
  services.dispose();
  await rm(storage, { recursive: true, force: true });
});

const edited = () => double.appliedEdits.flatMap((e) => e.entries().map(([u, edits]) => [u.path, edits.map((x) => x.newText)] as const));

describe('[#40.5] Replace Model ID in the Workspace', () => {
  test('[#40.5] every occurrence in searched files goes into one WorkspaceEdit; .gitignore\'d files are left out', async () => {
    await vscode.commands.executeCommand('aiGateway.modelIds.replaceInWorkspace', { from: 'openai/gpt-old', to: 'openai/gpt-new' });
    assert.equal(double.appliedEdits.length, 1);
    assert.deepEqual(edited(), [['/w/src/app.ts', ['openai/gpt-new', 'openai/gpt-new']]]);
    assert.equal(double.progress[0].title, 'Finding openai/gpt-old in the workspace');
    assert.equal(double.progress[0].cancellable, true);
  });

  test('[#40.5] an open document is searched as shown (unsaved text), not as on disk', async () => {
    const doc = double.openDocument("unsaved: 'openai/gpt-old'\n", { uri: W('README.md') });
    await vscode.commands.executeCommand('aiGateway.modelIds.replaceInWorkspace', { from: 'openai/gpt-old', to: 'openai/gpt-new' });
    assert.equal(doc.getText(), "unsaved: 'openai/gpt-new'\n");
    assert.deepEqual(edited().map(([p]) => p).sort(), ['/w/README.md', '/w/src/app.ts']);
  });

  test('[#40.5] no file names the id: an information message and no edit', async () => {
    await vscode.commands.executeCommand('aiGateway.modelIds.replaceInWorkspace', { from: 'openai/gpt-none', to: 'openai/gpt-new' });
    assert.equal(double.appliedEdits.length, 0);
    assert.equal(double.messages[0].message, 'No file in the workspace names openai/gpt-none.');
  });

  test('[#40.5] malformed arguments ask instead (the model pickers); Escape changes nothing', async () => {
    await vscode.commands.executeCommand('aiGateway.modelIds.replaceInWorkspace', { from: 'openai/gpt-old', to: 'openai/gpt-old' });
    assert.equal(double.quickPicks.length, 1);
    assert.equal(double.quickPicks[0].options.title, 'Replace Model ID in the Workspace (1/2)');
    assert.equal(double.appliedEdits.length, 0);
  });

  test('[#40.5] the command module on its own: its one command, and the edit written only through applyEdit (the preview)', async () => {
    const handlers = new Map<string, (...a: unknown[]) => unknown>();
    const d = registerModelIdsCommands(services, (id, fn) => (handlers.set(id, fn), new vscode.Disposable(() => handlers.delete(id))));
    assert.deepEqual([...handlers.keys()], ['aiGateway.modelIds.replaceInWorkspace']);
    await handlers.get('aiGateway.modelIds.replaceInWorkspace')!({ from: 'openai/gpt-old', to: 'openai/gpt-new' });
    // Files on disk are not written directly: the in-memory file is unchanged until the editor applies the edit.
    assert.equal(new TextDecoder().decode(await vscode.workspace.fs.readFile(W('src/app.ts'))), "const a = 'openai/gpt-old';\nconst b = \"openai/gpt-old\";\n");
    assert.equal(double.appliedEdits.length, 1);
    d.dispose();
    assert.equal(handlers.size, 0);
  });
});
