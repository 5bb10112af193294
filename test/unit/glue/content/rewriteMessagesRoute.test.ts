/**
 * [#39.8] Rewrite Selection with a messages-only default model (a model the catalog lists with `messages`
 * but not `chat`) answers through POST /v1/messages, never chat completions: run as from the palette
 * through the content feature's registration against the vscode double and the local gateway. Moved
 * here from test/e2e/messages.e2e.ts (#40.6): nothing in it needs the workbench.
 */
import { double } from '../../vscodeDouble'; // first: points `vscode` at the double
import { after, afterEach, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { startGateway, type RunningGateway } from '../../../localGateway/server';
import { LOCAL_KEYS } from '../../../localGateway/keys';
import { Services } from '../../../../src/services';
import { registerContent } from '../../../../src/content/registerContent';

/** A messages-only model that also does summaries: the content commands' default model below. */
const REWRITE_MODEL = 'anthropic/claude-haiku-4-messages';
const TEXT = 'A short note that says hello to the reader.';

let gw: RunningGateway;
let services: Services;
let content: vscode.Disposable;

before(async () => {
  gw = await startGateway({
    chunkDelayMs: 0,
    extraModels: [
      {
        id: REWRITE_MODEL,
        object: 'model',
        owned_by: 'Anthropic',
        provider: 'anthropic',
        display_name: 'Claude Haiku 4 (messages)',
        capabilities: ['messages', 'summary'],
        context_window: 200000,
        max_output_tokens: 8000,
        pricing: { input_per_million: '1', output_per_million: '5', pricing_version: 'local-extra', unit: 'credits' },
      },
    ],
  });
});
after(() => gw.close());
beforeEach(async () => {
  gw.reset();
  double.reset();
  double.setConfig('aiGateway.baseUrl', gw.url, 'global');
  double.setConfig('aiGateway.defaultModels.summary', REWRITE_MODEL, 'global');
  services = new Services(double.extensionContext() as unknown as vscode.ExtensionContext);
  content = registerContent(services);
  await services.keys.add('local', LOCAL_KEYS.userFull, { activate: true });
});
afterEach(() => {
  content.dispose();
  services.dispose();
});

const settle = async (): Promise<void> => {
  for (let i = 0; i < 10; i++) await new Promise((r) => setImmediate(r));
};

test('[#39.8] Rewrite Selection with a messages-only default model answers through POST /v1/messages, not chat completions; Discard leaves the note as it was', async () => {
  const doc = double.openDocument(TEXT, { uri: vscode.Uri.file('/w/posts/note.md'), languageId: 'markdown' });
  double.setActiveEditor(doc, new vscode.Selection(0, 0, 0, TEXT.length));
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
