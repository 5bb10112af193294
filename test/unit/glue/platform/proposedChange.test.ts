/**
 * [#40.5] src/platform/proposedChange.ts against the vscode double: a proposed change is shown as a
 * diff and written only when the user accepts it (all of it, or the changes they choose); Discard,
 * Escape, a conflicting edit and an unchanged proposal write nothing.
 */
import { double } from '../../vscodeDouble'; // first: points `vscode` at the double
import { beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { acceptProposal, discardProposal, proposeChange, startProposal, PROPOSAL_SCHEME } from '../../../../src/platform/proposedChange';

beforeEach(() => double.reset());

const BASE = 'one\ntwo\nthree\nfour\nfive\nsix\nseven\n';
const NEW = 'ONE\ntwo\nthree\nfour\nfive\nsix\nSEVEN\n';
const doc = () => double.openDocument(BASE, { uri: vscode.Uri.file('/w/notes.md'), languageId: 'markdown' }) as unknown as vscode.TextDocument;
const reviewMessage = () => double.messages.find((m) => m.message.startsWith('Review the proposed change'));
/** Resolves after the pending turns (the review notification is shown without being awaited). */
const settle = () => new Promise((r) => setImmediate(r));

describe('[#40.5] proposed changes: nothing is written without Accept', () => {
  test('[#40.5] the diff opens against the proposal, and the notification offers Accept, Choose Changes…, Discard', async () => {
    const d = doc();
    double.answer('Discard');
    await proposeChange(d, NEW, { title: 'Rewrite: shout' });
    const diff = double.executed.find((e) => e.command === 'vscode.diff');
    assert.ok(diff, 'vscode.diff ran');
    assert.equal((diff.args[0] as vscode.Uri).toString(), d.uri.toString());
    assert.equal((diff.args[1] as vscode.Uri).scheme, PROPOSAL_SCHEME);
    const m = reviewMessage();
    assert.ok(m);
    assert.equal(m.message, 'Review the proposed change to notes.md (2 changes): Rewrite: shout.');
    assert.deepEqual(m.titles, ['Accept', 'Choose Changes…', 'Discard']);
  });

  test('[#40.5] Discard: "discarded", no edit applied, the document as it was', async () => {
    const d = doc();
    double.answer('Discard');
    assert.equal(await proposeChange(d, NEW, { title: 't' }), 'discarded');
    assert.equal(double.appliedEdits.length, 0);
    assert.equal(d.getText(), BASE);
  });

  test('[#40.5] Escape on the notification writes nothing and leaves the proposal open; Discard from the editor title ends it', async () => {
    const d = doc();
    const outcome = proposeChange(d, NEW, { title: 't' });
    let done = false;
    void outcome.then(() => (done = true));
    for (let i = 0; i < 5; i++) await settle();
    assert.ok(reviewMessage());
    assert.equal(done, false, 'still waiting for the user');
    assert.equal(double.appliedEdits.length, 0);
    await discardProposal();
    assert.equal(await outcome, 'discarded');
    assert.equal(d.getText(), BASE);
  });

  test('[#40.5] Accept: one WorkspaceEdit (one Undo) with both changes', async () => {
    const d = doc();
    double.answer('Accept');
    assert.equal(await proposeChange(d, NEW, { title: 't' }), 'accepted');
    assert.equal(double.appliedEdits.length, 1);
    assert.equal(d.getText(), NEW);
    for (let i = 0; i < 5; i++) await settle(); // the diff closes and the editor shows the change, then the status line
    assert.ok(double.statusMessages.some((s) => s === 'Applied 2 changes to notes.md. One Undo reverts them.'));
  });

  test('[#40.5] Choose Changes…: only the checked change is written', async () => {
    const d = doc();
    double.answer('Choose Changes…', (shown) => (shown as { labels: string[] }).labels.filter((l) => l.startsWith('Line 1')));
    assert.equal(await proposeChange(d, NEW, { title: 't' }), 'accepted');
    const qp = double.quickPicks[0];
    assert.equal(qp.options.canPickMany, true);
    assert.equal(d.getText(), 'ONE\ntwo\nthree\nfour\nfive\nsix\nseven\n');
  });

  test('[#40.5] Choose Changes… with nothing checked discards', async () => {
    const d = doc();
    double.answer('Choose Changes…', []);
    assert.equal(await proposeChange(d, NEW, { title: 't' }), 'discarded');
    assert.equal(double.appliedEdits.length, 0);
  });

  test('[#40.5] the document edited where the change goes: a warning, nothing written', async () => {
    const d = doc();
    const h = await startProposal(d, { title: 't' });
    h.update(NEW);
    const outcome = h.review();
    await settle();
    (d as unknown as { setText(t: string): void }).setText('one!\ntwo\nthree\nfour\nfive\nsix\nseven\n');
    assert.equal(await acceptProposal(), false);
    assert.match(double.messages.at(-1)!.message, /notes\.md was edited where the proposed change goes, so nothing was changed/);
    assert.equal(double.appliedEdits.length, 0);
    await discardProposal();
    assert.equal(await outcome, 'discarded');
  });

  test('[#40.5] a proposal that changes nothing: "unchanged", said once, nothing written', async () => {
    const d = doc();
    assert.equal(await proposeChange(d, BASE, { title: 't' }), 'unchanged');
    assert.equal(double.messages.length, 1);
    assert.equal(double.messages[0].message, 'The proposed change leaves notes.md as it is; nothing to apply.');
    assert.equal(double.appliedEdits.length, 0);
  });

  test('[#40.5] Accept with no proposal open says so', async () => {
    assert.equal(await acceptProposal(), false);
    assert.equal(double.messages[0].message, 'There is no proposed change to accept.');
  });

  test('[#40.5] cancel() (a failed or cancelled stream) writes nothing', async () => {
    const d = doc();
    const h = await startProposal(d, { title: 't' });
    h.update(NEW);
    h.cancel();
    assert.equal(await h.review(), 'discarded');
    assert.equal(double.appliedEdits.length, 0);
    assert.equal(d.getText(), BASE);
  });
});
