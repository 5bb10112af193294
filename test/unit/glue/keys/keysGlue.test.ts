/**
 * [#40.5] The key manager's glue against the vscode double and the local gateway: the key commands
 * (src/keys/keyCommands.ts), run the way the user runs them (through the commands registerKeys.ts
 * registers), and the activation wiring (registerKeys.ts: the status bar item, the lost-secret prompt).
 * Real Services, KeyStore and gateway client; keys are checked live against the local gateway.
 */
import { double } from '../../vscodeDouble'; // first: points `vscode` at the double
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { startGateway, type RunningGateway } from '../../../localGateway/server';
import { LOCAL_KEYS } from '../../../localGateway/keys';
import { Services } from '../../../../src/services';
import { registerKeys } from '../../../../src/keys/registerKeys';
import { promptMissingSecret } from '../../../../src/keys/keyCommands';
import type { DoubleExtensionContext } from '../../vscodeDouble';

let gw: RunningGateway;
before(async () => {
  gw = await startGateway();
});
after(async () => {
  await gw.close();
});

let ctx: DoubleExtensionContext;
let services: Services;
let registered: vscode.Disposable | undefined;
beforeEach(() => {
  double.reset();
  gw.reset();
  double.setConfig('aiGateway.baseUrl', gw.url);
  ctx = double.extensionContext();
  services = new Services(ctx as unknown as vscode.ExtensionContext);
  registered = undefined;
});
afterEach(() => {
  registered?.dispose();
  services.dispose();
});

const keyItem = () => double.statusBarItems.find((i) => i.id === 'aiGateway.apiKey')!;
const register = () => (registered = registerKeys(services));
const run = (id: string) => vscode.commands.executeCommand(id);
/** Every secret value shown anywhere: messages, details, picks, input box values. */
// The live input objects (`input`) hold what the user typed into the password box itself: not "shown".
const everythingShown = () =>
  JSON.stringify(double.shown, (k, v) => (k === 'input' ? undefined : v)) + JSON.stringify(double.statusBarItems.map((i) => [i.text, i.tooltip]));

describe('[#40.5] key commands (src/keys/keyCommands.ts)', () => {
  test('[#29.9] Add API Key: name, then the secret in a password box; checked with the gateway, saved and made active; the secret is never shown', async () => {
    register();
    double.answer('Work', LOCAL_KEYS.userFull);
    await run('aiGateway.addApiKey');
    const [name, secret] = double.inputBoxes;
    assert.deepEqual([name.options.step, name.options.totalSteps, secret.options.step], [1, 2, 2]);
    assert.equal(secret.options.password, true);
    assert.equal(services.keys.active?.name, 'Work');
    assert.equal(await services.keys.getKey(), LOCAL_KEYS.userFull);
    assert.ok(gw.events.list().length > 0, 'the key was checked on the wire');
    assert.ok(!double.messages.some((m) => m.severity === 'error'), JSON.stringify(double.messages));
    assert.ok(!everythingShown().replace(JSON.stringify(secret.options.value ?? ''), '').includes(LOCAL_KEYS.userFull.slice(10)), 'the secret is not shown');
    assert.equal(keyItem().text, '$(key) Work (User)');
  });

  test('[#29.9] Add API Key with a revoked key: an error offering Add Another Key, nothing saved', async () => {
    register();
    double.answer('Old', LOCAL_KEYS.revoked);
    await run('aiGateway.addApiKey');
    const err = double.messages.find((m) => m.severity === 'error')!;
    assert.ok(err, JSON.stringify(double.messages));
    assert.deepEqual(err.titles, ['Add Another Key']);
    assert.equal(services.keys.list().length, 0);
    assert.equal(ctx.secrets.values.size, 0, 'nothing in the keychain');
  });

  test('[#29.9] Add API Key: a secret that is not a key is refused by the box; Escape saves nothing and sends nothing', async () => {
    register();
    double.answer('Work', 'hello');
    await run('aiGateway.addApiKey');
    assert.ok((double.inputBoxes[1].validation ?? '').length > 0, 'the box says what is wrong');
    assert.equal(services.keys.list().length, 0);
    assert.equal(gw.events.list().length, 0);
  });

  test('[#40.5] Remove API Key: Keep Key is the default; Escape keeps it; Remove forgets it (key and secret)', async () => {
    register();
    await services.keys.add('Work', LOCAL_KEYS.userFull, { activate: true });
    await run('aiGateway.removeApiKey');
    assert.equal(double.messages[0].options.modal, true);
    assert.equal(double.messages[0].defaultTitle, 'Keep Key');
    assert.equal(services.keys.list().length, 1);
    double.answer('Remove');
    await run('aiGateway.removeApiKey');
    assert.equal(services.keys.list().length, 0);
    assert.equal(ctx.secrets.values.size, 0);
    assert.equal(double.messages.at(-1)?.message, 'Removed API key "Work". No key is active.');
  });

  test('[#40.5] Removing the active key never promotes another silently: the user picks the next one', async () => {
    register();
    await services.keys.add('Work', LOCAL_KEYS.userFull, { activate: true });
    await services.keys.add('Read', LOCAL_KEYS.userReadOnly, { activate: false });
    double.answer('Work', 'Remove', '$(circle-slash) No active key');
    await run('aiGateway.removeApiKey');
    assert.equal(services.keys.active, undefined);
    assert.deepEqual(
      services.keys.list().map((k) => k.name),
      ['Read'],
    );
  });

  test('[#40.5] Switch API Key lists the keys with the active one checked; picking another switches', async () => {
    register();
    await services.keys.add('Work', LOCAL_KEYS.userFull, { activate: true });
    await services.keys.add('Read', LOCAL_KEYS.userReadOnly, { activate: false });
    double.answer('$(key) Read');
    await run('aiGateway.switchApiKey');
    assert.ok(double.quickPicks[0].labels.includes('$(check) Work'));
    assert.equal(services.keys.active?.name, 'Read');
  });

  test('[#39.12] Check API Key with no key: a warning offering Add API Key, which starts adding one', async () => {
    register();
    double.answer('Add API Key');
    await run('aiGateway.checkApiKey');
    assert.equal(double.messages[0].message, 'No AI Gateway API key is set.');
    assert.deepEqual(
      double.executed.map((e) => e.command),
      ['aiGateway.checkApiKey', 'aiGateway.addApiKey'],
    );
  });

  test('[#39.12] Check API Key: the scopes are probed on the gateway and summarised; Show Scopes lists one row per scope', async () => {
    register();
    await services.keys.add('Work', LOCAL_KEYS.userFull, { activate: true });
    double.answer('Show Scopes');
    await run('aiGateway.checkApiKey');
    assert.equal(double.messages[0].severity, 'info', double.messages[0].message);
    assert.ok(double.quickPicks.length === 1 && double.quickPicks[0].labels.length > 2, JSON.stringify(double.quickPicks));
    assert.ok(!everythingShown().includes(LOCAL_KEYS.userFull));
  });

  test('[#40.5] the lost-secret prompt: Re-enter asks for the same key (the suffix must match) and puts it back', async () => {
    await services.keys.add('Work', LOCAL_KEYS.userFull, { activate: true });
    const key = services.keys.active!;
    double.answer('Re-enter', LOCAL_KEYS.userReadOnly);
    await promptMissingSecret(services.keys, key);
    assert.match(double.inputBoxes[0].validation ?? '', /does not end in/);
    double.answer('Re-enter', LOCAL_KEYS.userFull);
    await promptMissingSecret(services.keys, key);
    assert.equal(double.messages.at(-1)?.message, 'The secret of "Work" is back in the system keychain.');
  });

  test('[#41.9] Rotate API Key: the first dialog\'s one button says what it does (no "Continue") and only asks for the replacement; Escape changes nothing', async () => {
    register();
    await services.keys.add('Work', LOCAL_KEYS.userFull, { activate: true });
    await run('aiGateway.rotateApiKey');
    const intro = double.messages.find((m) => m.options.modal)!;
    assert.match(intro.message, /^Rotate API key /);
    assert.deepEqual([intro.titles, intro.defaultTitle], [['Enter the Replacement Key…'], 'Enter the Replacement Key…']);
    assert.equal(double.inputBoxes.length, 0, 'Escape (VS Code\'s Cancel) asks nothing more');
    assert.deepEqual(services.keys.list().map((k) => k.name), ['Work']);
    // The button itself only opens the first step: the replacement's name (Escape there changes nothing either).
    double.answer('Enter the Replacement Key…');
    await run('aiGateway.rotateApiKey');
    assert.equal(double.inputBoxes.length, 1);
    assert.match(String(double.inputBoxes[0].options.title), /^Rotate API Key: name of the replacement/);
    assert.deepEqual(services.keys.list().map((k) => k.name), ['Work']);
  });
});

describe('[#40.5] activation wiring (src/keys/registerKeys.ts)', () => {
  test('[#40.5] the status bar item and every key command; Show Log runs at once', async () => {
    register();
    assert.equal(keyItem().text, '$(key) Set API Key');
    for (const id of ['aiGateway.addApiKey', 'aiGateway.switchApiKey', 'aiGateway.removeApiKey', 'aiGateway.checkApiKey', 'aiGateway.rotateApiKey', 'aiGateway.showLog']) assert.ok(double.commands.has(id), id);
    await run('aiGateway.showLog');
    registered!.dispose();
    registered = undefined;
    assert.equal(double.commands.size, 0);
  });

  test('[#40.5] a secret the keychain lost is found at start-up: a warning once, logged without the secret', async () => {
    await services.keys.add('Work', LOCAL_KEYS.userFull, { activate: true });
    ctx.secrets.values.clear(); // the keyring lost it (no change event)
    register();
    for (let i = 0; i < 3000 && double.messages.length === 0; i++) await new Promise((r) => setTimeout(r, i < 100 ? 0 : 10)); // a bound on failure only
    const [warn] = double.messages;
    assert.equal(warn.severity, 'warning');
    assert.match(warn.message, /^The secret of API key "Work" \(…[\w]+\) could not be read from the system keychain/);
    assert.deepEqual(warn.titles, ['Re-enter', 'Switch API Key']);
    await services.keys.getActiveSecret();
    await new Promise((r) => setImmediate(r));
    assert.equal(double.messages.length, 1, 'said once per key and session');
    const log = double.outputChannels.find((c) => c.name === 'AI Gateway')!;
    assert.ok(log.lines.some((l) => /is missing from SecretStorage/.test(l)));
  });
});
