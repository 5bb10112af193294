/**
 * [#40.5] Check Gateway Compatibility's glue (src/compat/compatCommand.ts, registered lazily by
 * registerCompat.ts) against the vscode double and the local gateway: run from the palette, the one
 * billed request only after an explicit click (Don't Send is the default), the report as a read-only
 * Markdown document, Copy Report without secrets.
 */
import { double } from '../../vscodeDouble'; // first: points `vscode` at the double
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { glueWorld } from '../world';
import { LOCAL_KEYS } from '../../../localGateway/keys';
import { registerCompat } from '../../../../src/compat/registerCompat';
import { COMPAT_SCHEME, REPORT_URI } from '../../../../src/compat/compatCommand';

const world = glueWorld({ register: registerCompat });

const messagesCalls = () => world.gw.events.list().filter((e) => /\/v1\/messages/.test(String((e as { path?: unknown }).path ?? '')));
const billedQuestion = () => double.messages.find((m) => m.message === 'Send one tiny billed request to check the messages stream?');

describe('[#40.5] Check Gateway Compatibility (src/compat/compatCommand.ts, registerCompat.ts)', () => {
  test('[#39.15] the billed probe is asked with Don\'t Send as the default; Escape sends no billed request; the report opens read-only and Copy Report copies it without the key', async () => {
    double.answer(undefined /* the billed question: Escape */, 'Copy Report');
    await vscode.commands.executeCommand('aiGateway.compat.check');
    const ask = billedQuestion();
    assert.ok(ask, JSON.stringify(double.messages.map((m) => m.message)));
    assert.equal(ask.options.modal, true);
    assert.equal(ask.defaultTitle, "Don't Send");
    assert.equal(messagesCalls().length, 0, 'no billed request without the click');
    assert.equal(double.progress[0].title, 'Checking gateway compatibility');
    assert.equal(double.progress[0].cancellable, true);
    const [shown] = double.shownDocuments;
    assert.equal(shown.uri.toString(), REPORT_URI.toString());
    assert.equal(shown.uri.scheme, COMPAT_SCHEME);
    const doc = double.documents.find((d) => d.uri.toString() === REPORT_URI.toString())!;
    assert.equal(doc.languageId, 'markdown');
    const summary = double.messages.find((m) => m.message.startsWith('Gateway compatibility: '))!;
    assert.deepEqual(summary.titles, ['Copy Report', 'Open Preview']);
    assert.ok(double.clipboard.length > 100, 'the report was copied');
    assert.equal(double.clipboard, doc.getText());
    assert.ok(!double.clipboard.includes(LOCAL_KEYS.userFull), 'the key is not in the report');
    assert.equal(double.messages.at(-1)?.message, 'Compatibility report copied, without keys, tokens or passwords.');
  });

  test('[#39.15] Send Billed Request sends the one billed probe, recorded in the spend ledger', async () => {
    const recorded: string[] = [];
    world.services.spend.onDidRecord((op) => recorded.push(op));
    double.answer('Send Billed Request');
    await vscode.commands.executeCommand('aiGateway.compat.check');
    assert.ok(messagesCalls().length >= 1, 'the messages stream was probed');
    assert.deepEqual(recorded, ['compat-check']);
  });

  test('[#40.5] Copy Compatibility Report before any check says to run the check first', async () => {
    await vscode.commands.executeCommand('aiGateway.compat.copyReport');
    assert.equal(double.messages[0].message, 'No compatibility report yet: run "AI Gateway: Check Gateway Compatibility" first.');
    assert.equal(double.clipboard, '');
  });
});
