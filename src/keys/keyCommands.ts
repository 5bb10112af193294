/**
 * Command-time editor glue of the key manager (imported on the first key
 * command): the five key commands and the "secret missing, re-enter it" prompt. All state and rules
 * live in src/core/keys (tested in plain Node); this file only asks questions and shows answers.
 */
import * as vscode from 'vscode';
import { confirmRisky } from '../safeDialog';
import { executeCommand, type CommandRegistrar } from '../commands';
import { DisposableStore } from '../core/disposables';
import type { KeyCheckResult } from '../core/keys/keyCheck';
import { type KeyInfo, KeyInputError, type KeyStore } from '../core/keys/keyStore';
import { describeKey, detectKeyType, parseKey } from '../core/keys/keyType';
import { GatewayError } from '../core/http/errors';
import { PORTAL_PATH } from '../core/keys/rotation';
import { showErrorNotification } from '../errorNotifications';
import type { Services } from '../services';
import { addKeyVerdict, checkKey, describeKeyCheck } from '../core/keys/keyCheck';
import { effectiveBaseUrl } from '../config';
import { inputStep } from '../platform/stepInput';
import { runRotation, temporaryReplacementName } from '../core/keys/rotation';
import { withQuietProgress, type ProgressHost } from '../platform/quietProgress';

/**
 * The key commands' handlers, registered through `registerCommand` (src/commands.ts
 * registerFeatureCommands hands in its registrar on the first call of one of them).
 */
export function registerKeyCommands(services: Services, registerCommand: CommandRegistrar): vscode.Disposable {
  const store = new DisposableStore();
  const keys = services.keys;
  // Command ids are string literals so test/unit/config.test.ts can match them against package.json.
  store.add(registerCommand('aiGateway.addApiKey', () => guard(addKey(services))));
  store.add(registerCommand('aiGateway.switchApiKey', () => guard(switchKey(services))));
  store.add(registerCommand('aiGateway.removeApiKey', () => guard(removeKey(keys))));
  store.add(registerCommand('aiGateway.checkApiKey', () => guard(checkActiveKey(services))));
  store.add(registerCommand('aiGateway.rotateApiKey', () => guard(rotateKey(services))));
  return store;
}

/** Offers to re-enter a secret the keyring lost (called from registerKeys when the store reports it). */
export async function promptMissingSecret(keys: KeyStore, key: KeyInfo): Promise<void> {
  await guard(askToReenter(keys, key));
}

/** Command handlers report unexpected failures as a notification instead of an unhandled rejection. */
async function guard(work: Promise<unknown>): Promise<void> {
  try {
    await work;
  } catch (e) {
    if (e instanceof KeyInputError) void vscode.window.showErrorMessage(e.message);
    else void showErrorNotification(e);
  }
}

async function askName(keys: KeyStore, value?: string, title = 'Add API Key'): Promise<string | undefined> {
  return inputStep({
    title,
    step: 1,
    totalSteps: 2,
    prompt: 'A name for this key, shown in the status bar (e.g. "work" or "personal")',
    value,
    validateInput: (v) => keys.validateNewName(v),
  });
}

async function askSecret(title: string, prompt: string, check?: (secret: string) => string | undefined, steps?: { step: number; totalSteps: number }): Promise<string | undefined> {
  return inputStep({
    title,
    ...steps,
    prompt,
    password: true,
    placeHolder: 'svc_pat_… (User key) or svc_… (Account key)',
    validateInput: (v) => {
      const parsed = parseKey(v);
      return parsed.ok ? check?.(parsed.secret) : parsed.message;
    },
  });
}

/**
 * Add API Key (#29.9): the key is checked live, like Rotate does, before it is saved. A key the
 * gateway refuses (invalid or revoked) is not saved; one the gateway could not judge is saved with a
 * warning that it is unchecked (see addKeyVerdict).
 */
async function addKey(services: Services): Promise<KeyInfo | undefined> {
  const keys = services.keys;
  const name = await askName(keys);
  if (name === undefined) return undefined;
  const secret = await askSecret('Add API Key', `Paste the secret of "${name.trim()}" (shown once when the key was created in the portal: ${PORTAL_PATH})`, undefined, { step: 2, totalSteps: 2 });
  if (secret === undefined) return undefined;
  // Name, format and duplicates are refused before anything is sent.
  const nameError = keys.validateNewName(name);
  if (nameError) throw new KeyInputError(nameError);
  const parsed = parseKey(secret);
  if (!parsed.ok) throw new KeyInputError(parsed.message);
  const label = `"${name.trim()}"`;
  const result = await runCheck(services, async () => parsed.secret, `Checking API key ${label} with the gateway…`);
  if (!result) {
    void vscode.window.showInformationMessage(`The check was cancelled: API key ${label} was not saved.`);
    return undefined;
  }
  services.log.info(`Key check of new key ${label}: ${result.kind}${result.requestId ? ` (request ${result.requestId})` : ''}`);
  const verdict = addKeyVerdict(result, label, effectiveBaseUrl().url);
  if (!verdict.save) {
    const choice = await vscode.window.showErrorMessage(verdict.message, 'Add Another Key');
    if (choice) await executeCommand('aiGateway.addApiKey');
    return undefined;
  }
  const key = await keys.add(name, parsed.secret, { activate: true });
  if (verdict.level === 'info') void vscode.window.showInformationMessage(verdict.message);
  else {
    const choice = await vscode.window.showWarningMessage(verdict.message, 'Check API Key');
    if (choice) await executeCommand('aiGateway.checkApiKey');
  }
  return key;
}

interface KeyPick extends vscode.QuickPickItem {
  run: () => Promise<unknown>;
}

async function switchKey(services: Services): Promise<void> {
  const keys = services.keys;
  const list = keys.list();
  if (list.length === 0) {
    await addKey(services);
    return;
  }
  const status = keys.status;
  const items: KeyPick[] = [];
  if (status.kind === 'missing-secret') {
    items.push({ label: `$(warning) Re-enter the secret of "${status.key.name}"…`, run: () => reenterSecret(keys, status.key) });
  }
  for (const k of list) {
    const active = k.id === keys.active?.id;
    items.push({
      label: `${active ? '$(check)' : '$(key)'} ${k.name}`,
      description: `${k.type} key …${k.suffix}${active ? ' (active)' : ''}`,
      run: () => keys.switchTo(k.id),
    });
  }
  items.push({ label: '', kind: vscode.QuickPickItemKind.Separator, run: async () => undefined });
  items.push({ label: '$(add) Add API Key…', run: () => addKey(services) });
  const pick = await vscode.window.showQuickPick(items, { title: 'Switch API Key', placeHolder: 'Choose the API key to use' });
  await pick?.run();
}

async function pickKey(keys: KeyStore, title: string): Promise<KeyInfo | undefined> {
  const list = keys.list();
  if (list.length <= 1) return list[0];
  const pick = await vscode.window.showQuickPick(
    list.map((k) => ({ label: k.name, description: `${k.type} key …${k.suffix}${k.id === keys.active?.id ? ' (active)' : ''}`, key: k })),
    { title, placeHolder: 'Choose an API key' },
  );
  return pick?.key;
}

async function removeKey(keys: KeyStore): Promise<void> {
  const key = await pickKey(keys, 'Remove API Key');
  if (!key) {
    if (keys.list().length === 0) void vscode.window.showInformationMessage('There is no API key to remove.');
    return;
  }
  const confirm = await confirmRisky({
    message: `Remove API key ${describeKey(key)} from VS Code?`,
    detail: `This only forgets the key here. It keeps working until you revoke it in the account portal (${PORTAL_PATH}).`,
    safe: 'Keep Key',
    action: 'Remove',
  });
  if (!confirm) return;
  let nextActiveId: string | null | undefined;
  const others = keys.list().filter((k) => k.id !== key.id);
  if (key.id === keys.active?.id && others.length > 0) {
    // Never promote another key silently (it may have been revoked): the user picks, or none.
    const pick = await vscode.window.showQuickPick(
      [
        ...others.map((k) => ({ label: `$(key) ${k.name}`, description: `${k.type} key …${k.suffix}`, id: k.id as string | null })),
        { label: '$(circle-slash) No active key', description: 'choose one later with Switch API Key', id: null },
      ],
      { title: `Removing the active key "${key.name}": which key becomes active?`, placeHolder: 'Pick the key to use from now on', ignoreFocusOut: true },
    );
    if (!pick) return;
    nextActiveId = pick.id;
  }
  const next = await keys.remove(key.id, nextActiveId === undefined ? {} : { nextActiveId });
  void vscode.window.showInformationMessage(`Removed API key "${key.name}".${next ? ` Now using "${next.name}"; Check API Key tells whether it still works.` : ' No key is active.'}`);
}

async function reenterSecret(keys: KeyStore, key: KeyInfo): Promise<void> {
  const secret = await askSecret(`Re-enter the secret of "${key.name}"`, `The ${key.type} key ending in …${key.suffix}`, (s) =>
    s.endsWith(key.suffix) ? undefined : `This key does not end in …${key.suffix}: add it as a new key instead.`,
  );
  if (secret === undefined) return;
  await keys.restoreSecret(key.id, secret);
  void vscode.window.showInformationMessage(`The secret of "${key.name}" is back in the system keychain.`);
}

async function askToReenter(keys: KeyStore, key: KeyInfo): Promise<void> {
  const choice = await vscode.window.showWarningMessage(
    `The secret of API key "${key.name}" (…${key.suffix}) could not be read from the system keychain. Re-enter it to keep using this key.`,
    'Re-enter',
    'Switch API Key',
  );
  if (choice === 'Re-enter') await guard(reenterSecret(keys, key));
  else if (choice === 'Switch API Key') await executeCommand('aiGateway.switchApiKey');
}

/** Runs the probe of src/core/keys/keyCheck.ts with a cancellable progress notification. */
async function runCheck(services: Services, getKey: () => Promise<string | undefined>, title: string): Promise<KeyCheckResult | undefined> {
  // One small request: a progress notification only if it is slow (see src/platform/quietProgress.ts;
  // a "Checking…" notification per check kept VS Code from showing the answer's toast).
  const { cancelled, value } = await withQuietProgress(editorProgress, title, async (signal) => {
    const client = await services.createClient(getKey);
    try {
      return await checkKey(client, signal);
    } finally {
      void client.dispose().catch(() => undefined);
    }
  });
  return cancelled ? undefined : value;
}

const editorProgress: ProgressHost = {
  window: (title, task) => vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title }, task),
  notification: (title, task) => vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, (_progress, token) => task(token)),
};

async function checkActiveKey(services: Services): Promise<void> {
  const keys = services.keys;
  const key = keys.active;
  if (!key) {
    const choice = await vscode.window.showWarningMessage('No AI Gateway API key is set.', 'Add API Key');
    if (choice) await executeCommand('aiGateway.addApiKey');
    return;
  }
  const secret = await keys.getSecret(key.id);
  if (secret === undefined) return; // the missing-secret prompt is already on its way
  const result = await runCheck(services, async () => secret, `Checking API key "${key.name}"…`);
  if (!result) return;
  services.log.info(`Key check of "${key.name}": ${result.kind}${result.requestId ? ` (request ${result.requestId})` : ''}`);
  if (result.kind === 'error') {
    await showErrorNotification(result.error, { context: `Checking API key "${key.name}"`, retry: () => checkActiveKey(services) });
    return;
  }
  const message = describeKeyCheck(result, `"${key.name}"`);
  const actions = [...(result.kind === 'invalid' ? ['Set API Key'] : []), ...(result.requestId ? ['Copy Request ID'] : [])];
  const show =
    result.kind === 'valid' ? vscode.window.showInformationMessage : result.kind === 'invalid' ? vscode.window.showErrorMessage : vscode.window.showWarningMessage;
  const choice = await show(message, ...actions);
  if (choice === 'Set API Key') await executeCommand('aiGateway.switchApiKey');
  if (choice === 'Copy Request ID' && result.requestId) await vscode.env.clipboard.writeText(result.requestId);
}

async function rotateKey(services: Services): Promise<void> {
  const keys = services.keys;
  const old = keys.active ?? (await pickKey(keys, 'Rotate API Key'));
  if (!old) {
    const choice = await vscode.window.showWarningMessage('There is no API key to rotate.', 'Add API Key');
    if (choice) await executeCommand('aiGateway.addApiKey');
    return;
  }
  const intro = await vscode.window.showInformationMessage(
    `Rotate API key ${describeKey(old)}`,
    {
      modal: true,
      detail:
        `There is no rotation endpoint: keys never expire, and rotating means replacing the key yourself.\n\n` +
        `1. In the account portal (${PORTAL_PATH}), create a new ${old.type} key with the same permissions and copy its secret.\n` +
        `2. Paste it here; it is verified with a live call before anything changes.\n` +
        `3. VS Code switches to it; then you revoke "${old.name}" in the portal and it is removed here.\n\n` +
        `Both keys work side by side until you revoke the old one.`,
    },
    'Continue',
  );
  if (intro !== 'Continue') return;

  const final = await runRotation(old.id, {
    store: keys,
    verify: async (secret) => (await runCheck(services, async () => secret, 'Verifying the replacement key…')) ?? cancelledCheck(),
    onState: (s) => services.log.info(`Key rotation of "${old.name}": ${s.step}`),
    prompts: {
      askReplacement: async (state) => {
        if (state.error) void vscode.window.showErrorMessage(state.error);
        const name = await askName(keys, temporaryReplacementName(old.name), 'Rotate API Key: name of the replacement');
        if (name === undefined) return undefined;
        const secret = await askSecret(
          'Rotate API Key: secret of the replacement',
          `Paste the secret of the new ${old.type} key created in the portal (${PORTAL_PATH})`,
          (s) => (detectKeyType(s) !== old.type ? `The replacement must be a ${old.type} key.` : undefined),
          { step: 2, totalSteps: 2 },
        );
        return secret === undefined ? undefined : { name, secret };
      },
      askAfterVerifyFailure: async (state) => {
        const detail = state.result.kind === 'error' ? state.result.error.message : describeKeyCheck(state.result, `"${state.replacement.name}"`);
        const choice = await vscode.window.showErrorMessage(
          `The replacement key did not pass verification. "${old.name}" stays active and nothing was removed.`,
          { modal: true, detail: `${detail}\n\nThe replacement is saved but unused; fix it in the portal and retry, or remove it later.` },
          'Retry',
        );
        return choice === 'Retry' ? 'retry' : undefined;
      },
      askRevokeConfirmed: async (state) => {
        // Confirming removes the old key here: the default keeps both.
        return confirmRisky({
          severity: 'info',
          message: `Now using "${state.replacement.name}". Revoke the old key "${old.name}" (…${old.suffix}) in the portal.`,
          detail: `Open the account portal at ${PORTAL_PATH}, revoke "${old.name}" (${old.type} key ending in …${old.suffix}), then confirm here. Revocation cannot be undone; choose Keep Both Keys to keep both keys saved.`,
          safe: 'Keep Both Keys',
          action: 'I Revoked It',
        });
      },
    },
  });

  if (final.step === 'done') {
    void vscode.window.showInformationMessage(`Rotation complete: using ${describeKey(final.replacement)}; the old key was removed from VS Code.`);
  } else if (final.step === 'cancelled') {
    const active = keys.active;
    void vscode.window.showInformationMessage(`Rotation stopped. Active key: ${active ? describeKey(active) : 'none'}.`);
  }
}

function cancelledCheck(): KeyCheckResult {
  return { kind: 'error', error: new GatewayError({ reason: 'aborted', message: 'Verification was cancelled.' }) };
}
