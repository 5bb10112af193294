/**
 * [#40.5] Rewrite Selection (src/content/rewriteCommand.ts), run as from the palette through the
 * content feature's registration (registerContent.ts, contentCommands.ts, contentRunner.ts) against the
 * vscode double and the local gateway: the rewrite streams into a proposal and is written only on Accept.
 */
import { double } from '../../vscodeDouble'; // first: points `vscode` at the double
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { glueWorld, until } from '../world';
import { registerContent } from '../../../../src/content/registerContent';
import { rewriteSelectionCommand } from '../../../../src/content/rewriteCommand';

const world = glueWorld({ register: registerContent });

const TEXT = 'Intro line.\nThis sentence is rather long and could be much shorter than it is.\nOutro line.\n';
function selectMiddle(): vscode.TextDocument {
  const doc = double.openDocument(TEXT, { uri: vscode.Uri.file('/w/post.md'), languageId: 'markdown' });
  double.setActiveEditor(doc, new vscode.Selection(1, 0, 1, 68));
  return doc as unknown as vscode.TextDocument;
}

/** Waits for a condition (the error notification loads its words with import() first). */
const settle = async () => {
  for (let i = 0; i < 10; i++) await new Promise((r) => setImmediate(r));
};

describe('[#40.5] Rewrite Selection', () => {
  test('[#40.5] with no selection it says what to do and sends nothing', async () => {
    double.setActiveEditor(double.openDocument(TEXT, { uri: vscode.Uri.file('/w/post.md') }));
    await rewriteSelectionCommand(world.services); // the command body on its own
    assert.equal(double.messages[0].message, 'Select the text to rewrite first, then run Rewrite Selection (Ctrl+Alt+E).');
    assert.equal(double.inputBoxes.length, 0);
    assert.equal(world.gw.events.list('chat-request').length, 0);
  });

  test('[#40.5] Escape on the instruction: nothing is sent, no diff opens', async () => {
    const doc = selectMiddle();
    await vscode.commands.executeCommand('aiGateway.content.rewriteSelection');
    assert.equal(double.inputBoxes.length, 1);
    assert.equal(world.gw.events.list('chat-request').length, 0);
    assert.ok(!double.executed.some((e) => e.command === 'vscode.diff'));
    assert.equal(doc.getText(), TEXT);
  });

  test('[#40.5] a blank instruction is not accepted', async () => {
    selectMiddle();
    double.answer('   ');
    await vscode.commands.executeCommand('aiGateway.content.rewriteSelection');
    assert.equal(double.inputBoxes[0].validation, 'Say how to rewrite the text.');
    assert.equal(world.gw.events.list('chat-request').length, 0);
  });

  test('[#40.5] Accept: only the selection is replaced, by the model\'s answer; the review names the cost', async () => {
    const doc = selectMiddle();
    double.answer('Make it shorter', 'Accept');
    await vscode.commands.executeCommand('aiGateway.content.rewriteSelection');
    await settle();
    const review = double.messages.find((m) => m.message.startsWith('Review the proposed change to post.md'));
    assert.ok(review);
    assert.match(review.message, /: rewrite \(Make it shorter\)\. Cost: [0-9.]+ credits\.$/);
    const text = doc.getText();
    assert.ok(text.startsWith('Intro line.\n'), text);
    assert.ok(text.endsWith('Outro line.\n'), text);
    // The local gateway's deterministic reply quotes the prompt it got: the instruction and the passage.
    assert.match(text, /Instruction: Make it shorter/);
    assert.match(text.split('\n')[1], /^You said: "Instruction: Make it shorter$/, 'the selected line is what was replaced');
    assert.equal(double.appliedEdits.length, 1);
    assert.equal(world.gw.events.list('chat-request').length, 1);
  });

  test('[#40.5] Discard: the reply was paid for, but the document is as it was', async () => {
    const doc = selectMiddle();
    double.answer('Make it friendlier', 'Discard');
    await vscode.commands.executeCommand('aiGateway.content.rewriteSelection');
    await settle();
    assert.equal(world.gw.events.list('chat-request').length, 1);
    assert.equal(doc.getText(), TEXT);
    assert.equal(double.appliedEdits.length, 0);
  });

  test('[#40.5] the last instruction is offered again next time', async () => {
    selectMiddle();
    double.answer('Use plain words', 'Discard');
    await vscode.commands.executeCommand('aiGateway.content.rewriteSelection');
    await vscode.commands.executeCommand('aiGateway.content.rewriteSelection');
    assert.equal(double.inputBoxes[1].options.value, 'Use plain words');
  });

  test('[#40.5] the gateway fails: an error notification with Retry, the document untouched, no proposal left', async () => {
    double.setConfig('aiGateway.retry.maxAttempts', 1, 'global');
    world.gw.faults.add({ kind: 'server_error', route: '/v1/chat/completions' });
    const doc = selectMiddle();
    double.answer('Make it shorter');
    await vscode.commands.executeCommand('aiGateway.content.rewriteSelection');
    await until(() => double.messages.some((m) => m.severity === 'error'));
    const err = double.messages.find((m) => m.severity === 'error');
    assert.ok(err, JSON.stringify(double.messages.map((m) => m.message)));
    assert.match(err.message, /^Rewriting the selection/);
    assert.ok(err.titles.includes('Retry'), JSON.stringify(err.titles));
    assert.equal(doc.getText(), TEXT);
    assert.equal(double.appliedEdits.length, 0);
    assert.ok(!double.messages.some((m) => m.message.startsWith('Review the proposed change')));
  });
});
