/**
 * [#40.4] src/platform/errorNotifications.ts against the vscode double: which notification a failure shows, with
 * which buttons, and what each button does.
 */
import { double } from '../vscodeDouble'; // first: points `vscode` at the double
import { beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { GatewayError } from '../../../src/core/http/errors';
import { openSettingWhereItLives, showErrorNotification } from '../../../src/platform/errorNotifications';

beforeEach(() => double.reset());

const refusedKey = () => new GatewayError({ reason: 'authentication', message: 'Invalid API key', status: 401, requestId: 'req-42' } as never);

describe('[#40.4] error notifications (src/platform/errorNotifications.ts)', () => {
  test('[#40.4] a refused key: an error naming the request id, with Set API Key first; Copy Request ID copies it and says so', async () => {
    double.answer('Copy Request ID');
    await showErrorNotification(refusedKey(), { context: 'Loading models' });
    const [shown, copied] = double.messages;
    assert.equal(shown.severity, 'error');
    assert.match(shown.message, /^Loading models: .*\(request req-42\)$/);
    assert.deepEqual(shown.titles, ['Set API Key', 'Copy Request ID']);
    assert.equal(double.clipboard, 'req-42');
    assert.equal(copied.message, 'Copied request ID req-42.');
  });

  test('[#40.4] Set API Key runs aiGateway.switchApiKey', async () => {
    double.answer('Set API Key');
    await showErrorNotification(refusedKey());
    assert.deepEqual(double.executed.map((e) => e.command), ['aiGateway.switchApiKey']);
  });

  test('[#40.4] a plain failure as a warning: Show Log (no request id), which runs aiGateway.showLog; no Retry without a retry callback', async () => {
    double.answer('Show Log');
    await showErrorNotification(new Error('disk full'), { severity: 'warning' });
    assert.equal(double.messages[0].severity, 'warning');
    assert.deepEqual(double.messages[0].titles, ['Show Log']);
    assert.deepEqual(double.executed.map((e) => e.command), ['aiGateway.showLog']);
  });

  test('[#40.4] a cancellation shows nothing', async () => {
    await showErrorNotification(new vscode.CancellationError());
    assert.equal(double.shown.length, 0);
  });

  test('[#40.4] dismissing the notification runs nothing', async () => {
    await showErrorNotification(refusedKey());
    assert.equal(double.messages.length, 1);
    assert.equal(double.executed.length, 0);
    assert.equal(double.clipboard, '');
  });

  test('[#29.2] a machine-scoped setting in a remote window opens the Remote settings; locally the User settings', async () => {
    double.remoteName = 'ssh-remote';
    await openSettingWhereItLives('aiGateway.baseUrl');
    double.remoteName = undefined;
    await openSettingWhereItLives('aiGateway.baseUrl');
    assert.deepEqual(double.executed, [
      { command: 'workbench.action.openRemoteSettings', args: [{ query: 'aiGateway.baseUrl' }] },
      { command: 'workbench.action.openSettings', args: ['aiGateway.baseUrl'] },
    ]);
  });
});
