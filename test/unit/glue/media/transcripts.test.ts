/**
 * [#40.5] Insert Transcript (src/media/transcribeCommand.ts insertTranscript, src/media/transcriptTracker.ts)
 * against the vscode double: the transcript goes into the document edited before it, as a proposal
 * written only on Accept; the context key follows the active editor.
 */
import { double } from '../../vscodeDouble'; // first: points `vscode` at the double
import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { insertTranscript } from '../../../../src/media/transcribeCommand';
import { TranscriptTracker } from '../../../../src/media/transcriptTracker';

let tracker: TranscriptTracker;
beforeEach(() => {
  double.reset();
  tracker = new TranscriptTracker();
});
afterEach(() => tracker.dispose());

const POST = '# Notes\n\nFirst paragraph.\n';
function setUp(): { post: vscode.TextDocument; transcript: vscode.TextDocument } {
  const post = double.openDocument(POST, { uri: vscode.Uri.file('/w/notes.md'), languageId: 'markdown' }) as unknown as vscode.TextDocument;
  double.setActiveEditor(post as never, new vscode.Selection(2, 16, 2, 16));
  const transcript = double.openDocument('Spoken words here.', { uri: vscode.Uri.parse('untitled:Transcript-1'), languageId: 'markdown' }) as unknown as vscode.TextDocument;
  tracker.add(transcript, 'Spoken words here.');
  double.setActiveEditor(transcript as never);
  return { post, transcript };
}
const hasTranscript = () => double.executed.filter((e) => e.command === 'setContext' && e.args[0] === 'aiGateway.media.hasTranscript').map((e) => e.args[1]);

describe('[#40.5] Insert Transcript', () => {
  test('[#40.5] the context key is on in a transcript that has a document to go to, off elsewhere', () => {
    setUp();
    assert.deepEqual(hasTranscript(), [false, true]);
    assert.equal(tracker.lastDocument?.path, '/w/notes.md');
  });

  test('[#40.5] not in a transcript: a warning, nothing proposed', async () => {
    double.setActiveEditor(double.openDocument('x', { uri: vscode.Uri.file('/w/a.md') }));
    await insertTranscript(tracker);
    assert.equal(double.messages[0].message, 'Open a transcript first; it is inserted into the document you were editing before.');
    assert.ok(!double.executed.some((e) => e.command === 'vscode.diff'));
  });

  test('[#40.5] Discard: the document edited before is unchanged', async () => {
    const { post } = setUp();
    double.answer('Discard');
    await insertTranscript(tracker);
    assert.ok(double.executed.some((e) => e.command === 'vscode.diff'));
    assert.equal(post.getText(), POST);
  });

  test('[#40.5] Accept: the transcript is a paragraph of its own in the document edited before', async () => {
    const { post } = setUp();
    double.answer('Accept');
    await insertTranscript(tracker);
    // The double's showTextDocument puts the cursor at the start (VS Code restores the last one): it goes there.
    assert.equal(post.getText(), 'Spoken words here.\n\n# Notes\n\nFirst paragraph.\n');
    assert.equal(double.appliedEdits.length, 1);
  });
});
