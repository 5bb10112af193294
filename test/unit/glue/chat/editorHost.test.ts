/**
 * [#40.5] The chat's editor actions (src/chat/editorHost.ts) against the vscode double: links from model
 * output, Insert Code, Apply (a proposal, written only on Accept), attachments, the model picker and
 * the risky confirmations, each as the user meets them.
 */
import { double } from '../../vscodeDouble'; // first: points `vscode` at the double
import { beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { ChatEditorActions } from '../../../../src/chat/editorHost';

beforeEach(() => double.reset());

const actions = (last?: () => vscode.TextEditor | undefined) => new ChatEditorActions(last ?? (() => undefined));
const settle = () => new Promise((r) => setImmediate(r));

describe('[#40.5] links from the chat (openLink)', () => {
  test('[#40.5] an https link opens without a question', async () => {
    await actions().openLink('https://example.com/a');
    assert.deepEqual(double.openedExternal.map(String), ['https://example.com/a']);
    assert.equal(double.messages.length, 0);
  });

  test('[#40.5] javascript:, command: and file: links are refused with a warning and never opened', async () => {
    for (const href of ['javascript:alert(1)', 'command:workbench.action.terminal.new', 'file:///etc/passwd']) await actions().openLink(href);
    assert.equal(double.openedExternal.length, 0);
    assert.equal(double.messages.length, 3);
    for (const m of double.messages) {
      assert.equal(m.severity, 'warning');
      assert.match(m.message, /^Not opening this link: (javascript|command|file): links are not opened from chat\.$/);
    }
  });

  test('[#40.5] an http link asks first; the safe "Don\'t Open" is the default and Escape opens nothing', async () => {
    await actions().openLink('http://example.com/');
    const [m] = double.messages;
    assert.equal(m.options.modal, true);
    assert.equal(m.message, 'This link does not use https. Open it anyway?');
    assert.ok(m.titles.includes('Open Link'));
    assert.notEqual(m.defaultTitle, 'Open Link');
    assert.equal(double.openedExternal.length, 0);
    double.answer('Open Link');
    await actions().openLink('http://example.com/');
    assert.deepEqual(double.openedExternal.map(String), ['http://example.com/']);
  });
});

describe('[#40.5] code from the chat (insertCode, applyCode, newFile)', () => {
  test('[#40.5] Insert Code replaces the selection of the active editor', async () => {
    const doc = double.openDocument('hello world\n', { uri: vscode.Uri.file('/w/a.ts') });
    double.setActiveEditor(doc, new vscode.Selection(0, 6, 0, 11));
    await actions().insertCode('there', 'ts');
    assert.equal(doc.getText(), 'hello there\n');
  });

  test('[#40.5] Insert Code with no editor open offers New File; Escape creates nothing', async () => {
    await actions().insertCode('x = 1', 'python');
    assert.equal(double.messages[0].message, 'No editor is open to insert the code into.');
    assert.deepEqual(double.messages[0].titles, ['New File']);
    assert.equal(double.shownDocuments.length, 0);
  });

  test('[#40.5] Insert Code with no editor, New File: an untitled document of the block\'s language', async () => {
    double.answer('New File');
    await actions().insertCode('x = 1', 'python');
    assert.equal(double.shownDocuments.length, 1);
    const shown = double.documents.find((d) => d.uri.toString() === double.shownDocuments[0].uri.toString());
    assert.equal(shown?.getText(), 'x = 1');
    assert.equal(shown?.languageId, 'python');
  });

  test('[#40.5] Apply shows a proposal; Discard leaves the file as it was', async () => {
    const doc = double.openDocument('const a = 1;\n', { uri: vscode.Uri.file('/w/a.ts') });
    double.setActiveEditor(doc);
    double.answer('Discard');
    await actions().applyCode('const a = 2;\n', 'ts');
    assert.ok(double.executed.some((e) => e.command === 'vscode.diff'));
    assert.equal(doc.getText(), 'const a = 1;\n');
    assert.equal(double.appliedEdits.length, 0);
  });

  test('[#40.5] Apply, Accept: the block replaces the document', async () => {
    const doc = double.openDocument('const a = 1;\n', { uri: vscode.Uri.file('/w/a.ts') });
    double.setActiveEditor(doc);
    double.answer('Accept');
    await actions().applyCode('const a = 2;\n', 'ts');
    assert.equal(doc.getText(), 'const a = 2;\n');
  });

  test('[#40.5] Apply to a path outside the workspace: a warning, nothing opened or written', async () => {
    double.setWorkspaceFolders(['/w']);
    await actions().applyCode('x', 'ts ../../etc/passwd');
    await settle();
    assert.equal(double.appliedEdits.length, 0);
    assert.equal(double.messages[0]?.severity, 'warning');
    assert.match(double.messages[0].message, /is not a file in this workspace/);
  });
});

describe('[#40.5] attachments, model picker, questions', () => {
  test('[#40.5] Attach Selection with an empty selection says so and attaches nothing', async () => {
    double.setActiveEditor(double.openDocument('abc\n', { uri: vscode.Uri.file('/w/a.ts') }));
    assert.deepEqual(await actions().pickAttachments('selection'), []);
    assert.equal(double.messages[0].message, 'Select some text in the editor first.');
  });

  test('[#40.5] Attach Selection names the file and lines; an editor no longer visible is not used', async () => {
    double.setWorkspaceFolders(['/w']);
    const doc = double.openDocument('one\ntwo\nthree\n', { uri: vscode.Uri.file('/w/src/a.ts') });
    const editor = double.setActiveEditor(doc, new vscode.Selection(1, 0, 2, 5));
    const [att] = await actions().pickAttachments('selection');
    assert.equal(att.kind, 'selection');
    assert.equal(att.label, 'src/a.ts:2-3');
    assert.equal(att.content, 'two\nthree');
    // No editor visible any more: the one used last is not a target.
    double.setActiveEditor(undefined);
    assert.deepEqual(await actions(() => editor as unknown as vscode.TextEditor).pickAttachments('file'), []);
  });

  test('[#40.5] Attach with no editor: "Open a file in the editor first."', async () => {
    assert.deepEqual(await actions().pickAttachments('file'), []);
    assert.equal(double.messages[0].message, 'Open a file in the editor first.');
  });

  test('[#40.5] the attach kinds: Image only for a model that takes images', async () => {
    await actions().pickAttachKind(false);
    await actions().pickAttachKind(true);
    assert.equal(double.quickPicks[0].labels.length, 3);
    assert.equal(double.quickPicks[1].labels.length, 4);
    double.answer('$(file) Current File');
    assert.equal(await actions().pickAttachKind(), 'file');
  });

  test('[#40.5] the model picker with no models warns; with models it groups by provider and returns the id', async () => {
    assert.equal(await actions().pickModel([], undefined), undefined);
    assert.equal(double.messages[0].message, 'No chat models in the catalog: refresh the catalog.');
    const opts = [
      { id: 'openai/gpt-x', label: 'GPT X', provider: 'OpenAI' },
      { id: 'anthropic/claude-y', label: 'Claude Y', provider: 'Anthropic' },
    ] as never;
    double.answer((shown) => (shown as { labels: string[] }).labels.find((l) => l.includes('Claude Y')));
    assert.equal(await actions().pickModel(opts, 'openai/gpt-x'), 'anthropic/claude-y');
    const labels = double.quickPicks[0].labels;
    assert.ok(labels.some((l) => l === '$(check) GPT X'), `current model checked: ${labels.join(' | ')}`);
  });

  test('[#40.5] deleting a conversation: the safe "Keep Conversation" is the default; Escape keeps it', async () => {
    assert.equal(await actions().confirmDelete('Trip plans'), false);
    const [m] = double.messages;
    assert.equal(m.options.modal, true);
    assert.equal(m.message, 'Delete the conversation "Trip plans"?');
    assert.notEqual(m.defaultTitle, 'Delete');
    double.answer('Delete');
    assert.equal(await actions().confirmDelete('Trip plans'), true);
  });

  test('[#40.5] over the context window: "Don\'t Send" unless the user picks Send Anyway', async () => {
    assert.equal(await actions().confirmContextOverflow(250_000, 200_000), false);
    assert.match(double.messages[0].message, /over the model's context window/);
    double.answer('Send Anyway');
    assert.equal(await actions().confirmContextOverflow(250_000, 200_000), true);
  });

  test('[#40.5] a blank title is not accepted', async () => {
    double.answer('   ');
    assert.equal(await actions().askTitle('Old'), undefined);
    assert.equal(double.inputBoxes[0].validation, 'The title cannot be empty');
    double.answer('New');
    assert.equal(await actions().askTitle('Old'), 'New');
  });

  test('[#40.5] Copy puts the text on the clipboard', async () => {
    await actions().copy('abc');
    assert.equal(double.clipboard, 'abc');
  });
});
