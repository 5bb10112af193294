/**
 * [#40.5] Read Selection Aloud (src/media/speechCommand.ts, registered through registerMedia.ts and
 * mediaCommands.ts) with the real Services against the vscode double and the local gateway: the
 * questions before anything is billed, and the player panel.
 */
import { double } from '../../vscodeDouble'; // first: points `vscode` at the double
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { glueWorld, until } from '../world';
import { registerMedia } from '../../../../src/media/registerMedia';
import { readAloudCommand } from '../../../../src/media/speechCommand';
import { registerMediaCommands } from '../../../../src/media/mediaCommands';
import { confirmCost } from '../../../../src/media/mediaRunner';
import { TranscriptTracker } from '../../../../src/media/transcriptTracker';

const world = glueWorld({ register: registerMedia });

function select(text: string, languageId = 'markdown'): void {
  const doc = double.openDocument(text, { uri: vscode.Uri.file('/w/post.md'), languageId });
  double.setActiveEditor(doc, new vscode.Selection(0, 0, 0, text.indexOf('\n') < 0 ? text.length : text.indexOf('\n')));
}
const speechCalls = () => world.gw.events.list('request').filter((e) => String(e.path).includes('/audio/speech'));

const pickFirst = (shown: unknown) => (shown as { labels: string[] }).labels[0];

describe('[#40.5] Read Selection Aloud', () => {
  test('[#40.5] not a Markdown, HTML or text document: a warning, nothing asked', async () => {
    select('const a = 1;\n', 'typescript');
    await vscode.commands.executeCommand('aiGateway.media.readAloud');
    assert.equal(double.messages[0].message, 'Read Selection Aloud works on a selection in a Markdown, HTML or plain text document.');
    assert.equal(double.quickPicks.length, 0);
  });

  test('[#40.5] an empty selection: "Select the text to read aloud first."', async () => {
    double.setActiveEditor(double.openDocument('Hello\n', { uri: vscode.Uri.file('/w/a.md'), languageId: 'markdown' }));
    await readAloudCommand({ services: world.services, spend: world.services.spend }); // the command body on its own
    assert.equal(double.messages[0].message, 'Select the text to read aloud first.');
  });

  test('[#40.5] model, voice, then the cost question (default "Don\'t Send"); Escape sends nothing', async () => {
    select('Hello **world**, read me.\n');
    double.answer('TTS-1 HD', pickFirst);
    await vscode.commands.executeCommand('aiGateway.media.readAloud');
    assert.equal(double.quickPicks[0].options.title, 'Model for speech');
    assert.match(String(double.quickPicks[1].options.title), /^Voice \(openai\/tts-1-hd\)$/);
    const [m] = double.messages;
    assert.equal(m.options.modal, true);
    // The Markdown is read as text: 21 characters, not the 25 of the source.
    assert.match(m.message, /^Read 21 characters aloud with openai\/tts-1-hd \(voice [a-z]+\)\?$/);
    assert.deepEqual([m.titles, m.defaultTitle], [["Don't Send", 'Send'], "Don't Send"]);
    assert.equal(speechCalls().length, 0);
    assert.equal(double.webviewPanels.length, 0);
  });

  test('[#40.5] [#41.9] Send: one speech request, and the player opens with the audio and the text read', async () => {
    select('Hello **world**, read me.\n');
    double.answer('TTS-1 HD', pickFirst, 'Send');
    await vscode.commands.executeCommand('aiGateway.media.readAloud');
    assert.equal(speechCalls().length, 1);
    assert.equal(double.webviewPanels.length, 1);
    const panel = double.webviewPanels[0];
    assert.equal(panel.title, 'Read Aloud');
    const html = String(panel.webview.html);
    assert.match(html, /Content-Security-Policy/);
    assert.doesNotMatch(html.replaceAll(panel.webview.cspSource, ''), /https?:\/\//, 'no remote loads');
  });

  test('[#40.10] the player\'s page messages reach the player\'s own handlers: Save answers; Insert and Discard are the image preview\'s and do nothing here', async () => {
    select('Hello **world**, read me.\n');
    double.answer('TTS-1 HD', pickFirst, 'Send');
    await vscode.commands.executeCommand('aiGateway.media.readAloud');
    const panel = double.webviewPanels[0];
    panel.webview.send({ type: 'ready' });
    assert.equal((panel.webview.posted[0] as { type: string }).type, 'audio', 'the audio waits for the page\'s ready');
    panel.webview.send({ type: 'insert' });
    panel.webview.send({ type: 'discard' });
    panel.webview.send({ type: 'save' });
    // No folder is open here: Save answers that it saves only inside the workspace folders.
    const saveAnswers = () => double.messages.filter((m) => m.message.startsWith('Open a folder first'));
    await until(() => saveAnswers().length > 0, 'Save\'s answer');
    assert.equal(saveAnswers().length, 1);
    assert.equal(double.webviewPanels.length, 1);
    assert.equal(double.webviewPanels[0].disposed, false, 'Insert and Discard left the player open');
  });

  test('[#40.5] Escape on the model question: nothing is sent', async () => {
    select('Hello world.\n');
    await vscode.commands.executeCommand('aiGateway.media.readAloud');
    assert.equal(double.messages.length, 0);
    assert.equal(speechCalls().length, 0);
  });

  test('[#40.5] the media command module registers its four commands and disposes them', () => {
    const ids: string[] = [];
    const d = registerMediaCommands(world.services, new TranscriptTracker(), (id) => (ids.push(id), new vscode.Disposable(() => ids.splice(ids.indexOf(id), 1))));
    assert.deepEqual(ids, ['aiGateway.media.generateImage', 'aiGateway.media.readAloud', 'aiGateway.media.transcribe', 'aiGateway.media.insertTranscript']);
    d.dispose();
    assert.deepEqual(ids, []);
  });

  test('[#40.5] a cost that cannot be computed is said so, and the safe answer is still the default', async () => {
    assert.equal(await confirmCost('Generate 1 image?', { known: false, reason: 'No price is listed.' } as never), false);
    const [m] = double.messages;
    assert.equal(m.options.detail, 'The cost cannot be computed: No price is listed. The gateway bills it all the same.');
    assert.deepEqual([m.titles, m.defaultTitle], [["Don't Send", 'Send'], "Don't Send"]);
  });
});
