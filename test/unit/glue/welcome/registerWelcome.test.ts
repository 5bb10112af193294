/**
 * [#40.5] The welcome feature's activation part (src/welcome/registerWelcome.ts) with the real Services
 * against the vscode double: the walkthrough opens once per profile, the hasKey and "used" context keys.
 */
import { double } from '../../vscodeDouble'; // first: points `vscode` at the double
import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { Services } from '../../../../src/services';
import { registerWelcome, usedContextKey, WALKTHROUGH_ID } from '../../../../src/welcome/registerWelcome';

let storage: string;
const made: vscode.Disposable[] = [];

beforeEach(async () => {
  double.reset();
  storage = await mkdtemp(join(tmpdir(), 'glue3-welcome-'));
});
afterEach(async () => {
  while (made.length) made.pop()!.dispose();
  await rm(storage, { recursive: true, force: true });
});

function activate(ctx = double.extensionContext({ globalStorageUri: vscode.Uri.file(storage) })): { services: Services; ctx: typeof ctx } {
  const services = new Services(ctx as unknown as vscode.ExtensionContext);
  made.push(services, registerWelcome(services));
  return { services, ctx };
}
const walkthroughs = () => double.executed.filter((e) => e.command === 'workbench.action.openWalkthrough');
const context = (key: string) => double.executed.filter((e) => e.command === 'setContext' && e.args[0] === key).map((e) => e.args[1]);

describe('[#40.5] welcome', () => {
  test('[#40.5] the first activation in a profile opens Get Started, the next one does not', async () => {
    const { ctx } = activate();
    assert.equal(walkthroughs().length, 1);
    assert.deepEqual(walkthroughs()[0].args, [`${ctx.extension.id}#${WALKTHROUGH_ID}`, false]);
    while (made.length) made.pop()!.dispose();
    activate(ctx); // same profile (same globalState)
    assert.equal(walkthroughs().length, 1);
  });

  test('[#40.5] workbench.welcomePage.walkthroughs.openOnInstall off: no walkthrough', () => {
    double.setConfig('workbench.welcomePage.walkthroughs.openOnInstall', false, 'global');
    activate();
    assert.equal(walkthroughs().length, 0);
  });

  test('[#40.5] Get Started opens the walkthrough on demand', async () => {
    activate();
    await vscode.commands.executeCommand('aiGateway.welcome.getStarted');
    assert.equal(walkthroughs().length, 2);
  });

  test('[#40.5] aiGateway.hasKey follows the key store', async () => {
    const { services } = activate();
    assert.deepEqual(context('aiGateway.hasKey'), [false]);
    await services.keys.add('k', 'svc_pat_local_user_full_7f3a9c2e5b1d', { activate: true });
    assert.equal(context('aiGateway.hasKey').at(-1), true);
  });

  test('[#40.5] the first priced reply of an operation sets its "used" context key', async () => {
    const { services } = activate();
    await services.spend.recordSpend({ model: 'm', operation: 'alt-text', usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } });
    assert.equal(usedContextKey('alt-text'), 'aiGateway.used.altText');
    assert.deepEqual(context('aiGateway.used.altText'), [true]);
  });
});
