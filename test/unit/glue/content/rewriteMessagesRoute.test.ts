/**
 * [#39.8] Rewrite Selection with a messages-only default model (a model the catalog lists with `messages`
 * but not `chat`) answers through POST /v1/messages, never chat completions: run as from the palette
 * through the content feature's registration against the vscode double and the local gateway. Moved
 * here from test/e2e/messages.e2e.ts (#40.6): nothing in it needs the workbench.
 */
import { double } from '../../vscodeDouble'; // first: points `vscode` at the double
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { MESSAGES_SUMMARY_MODEL } from '../../../localGateway/extraModels';
import { registerContent } from '../../../../src/content/registerContent';
import { glueWorld } from '../world';

/** A messages-only model that also does summaries: the content commands' default model below. */
const REWRITE_MODEL = MESSAGES_SUMMARY_MODEL.id;
const TEXT = 'A short note that says hello to the reader.';

const world = glueWorld({
  gateway: { chunkDelayMs: 0, extraModels: [MESSAGES_SUMMARY_MODEL] },
  config: { 'aiGateway.defaultModels.summary': REWRITE_MODEL },
  register: registerContent,
});

const settle = async (): Promise<void> => {
  for (let i = 0; i < 10; i++) await new Promise((r) => setImmediate(r));
};

test('[#39.8] Rewrite Selection with a messages-only default model answers through POST /v1/messages, not chat completions; Discard leaves the note as it was', async () => {
  const doc = double.openDocument(TEXT, { uri: vscode.Uri.file('/w/posts/note.md'), languageId: 'markdown' });
  double.setActiveEditor(doc, new vscode.Selection(0, 0, 0, TEXT.length));
  const gw = world.gw;
  gw.events.clear();
  double.answer('Make it shorter', 'Discard');
  await vscode.commands.executeCommand('aiGateway.content.rewriteSelection');
  await settle();
  const review = double.messages.find((m) => m.message.startsWith('Review the proposed change to note.md'));
  assert.ok(review, JSON.stringify(double.messages.map((m) => m.message)));
  assert.match(review.message, /^Review the proposed change to note\.md \(\d+ changes?\): rewrite \(Make it shorter\)\. Cost: [\d.]+ credits/);
  const sent = gw.events.list('messages-request');
  assert.equal(sent.length, 1, 'one request on the messages route');
  assert.equal(sent[0]?.model, REWRITE_MODEL);
  assert.equal(sent[0]?.stream, true);
  assert.equal(gw.events.list('chat-request').length, 0, 'nothing went to chat completions');
  assert.equal(doc.getText(), TEXT, 'Discard leaves the note as it was');
  assert.equal(double.appliedEdits.length, 0);
});
