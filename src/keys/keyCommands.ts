/**
 * Command-time editor glue of the key manager (imported on the first key
 * command): the five key commands and the "secret missing, re-enter it" prompt. All state and rules
 * live in src/core/keys (tested in plain Node); this file only asks questions and shows answers.
 */
import * as vscode from 'vscode';
import { askRisky, confirmRisky } from '../platform/safeDialog';
import { executeCommand, type CommandRegistrar } from '../platform/commands';
import { DisposableStore } from '../core/disposables';
import type { KeyCheckResult } from '../core/keys/keyCheck';
import { type KeyInfo, KeyInputError, type KeyStore } from '../core/keys/keyStore';
import { describeKey, detectKeyType, parseKey } from '../core/keys/keyType';
import { GatewayError } from '../core/http/errors';
import { PORTAL_PATH } from '../core/keys/rotation';
import { showErrorNotification } from '../platform/errorNotifications';
import type { Services } from '../services';
import type { KeysServices } from './registerKeys';
import { addKeyVerdict, addKeyVerdictFromScopes, checkKey } from '../core/keys/keyCheck';
import { checkKeyScopes, levelWords, scopeUse, summarizeScopeReport, type ScopeFinding, type ScopeReport } from '../core/keys/scopeCheck';
import { effectiveBaseUrl } from '../platform/config';
import { inputStep } from '../platform/stepInput';
import { describeScopeDifferences, runRotation, temporaryReplacementName } from '../core/keys/rotation';
import { withQuietProgress, type ProgressHost } from '../platform/quietProgress';

/**
 * The key commands' handlers, registered through `registerCommand` (src/platform/commands.ts
 * registerFeatureCommands hands in its registrar on the first call of one of them).
 */
export function registerKeyCommands(services: KeysServices, registerCommand: CommandRegistrar): vscode.Disposable {
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

async function askName(keys: KeyStore, value?: string, title = vscode.l10n.t('Add API Key')): Promise<string | undefined> {
  return inputStep({
    title,
    step: 1,
    totalSteps: 2,
    prompt: vscode.l10n.t('A name for this key, shown in the status bar (e.g. "work" or "personal")'),
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
    placeHolder: vscode.l10n.t('svc_pat_… (User key) or svc_… (Account key)'),
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
async function addKey(services: KeysServices): Promise<KeyInfo | undefined> {
  const keys = services.keys;
  const name = await askName(keys);
  if (name === undefined) return undefined;
  const secret = await askSecret(vscode.l10n.t('Add API Key'), vscode.l10n.t('Paste the secret of "{0}" (shown once when the key was created in the portal: {1})', name.trim(), PORTAL_PATH), undefined, { step: 2, totalSteps: 2 });
  if (secret === undefined) return undefined;
  // Name, format and duplicates are refused before anything is sent.
  const nameError = keys.validateNewName(name);
  if (nameError) throw new KeyInputError(nameError);
  const parsed = parseKey(secret);
  if (!parsed.ok) throw new KeyInputError(parsed.message);
  const label = `"${name.trim()}"`;
  const result = await runCheck(services, async () => parsed.secret, vscode.l10n.t('Checking API key {0} with the gateway…', label));
  if (!result) {
    void vscode.window.showInformationMessage(vscode.l10n.t('The check was cancelled: API key {0} was not saved.', label));
    return undefined;
  }
  services.log.info(`Key check of new key ${label}: ${result.kind}${result.requestId ? ` (request ${result.requestId})` : ''}`);
  // No chat scope: what the key can do instead, scope by scope (a key made for the tool server only is fine).
  const scopes = result.kind === 'missing-scope' ? await runScopeCheck(services, async () => parsed.secret, vscode.l10n.t('Checking API key {0} with the gateway…', label)) : undefined;
  const verdict = scopes ? addKeyVerdictFromScopes(scopes, label, effectiveBaseUrl().url) : addKeyVerdict(result, label, effectiveBaseUrl().url);
  if (!verdict.save) {
    const choice = await vscode.window.showErrorMessage(verdict.message, vscode.l10n.t('Add Another Key'));
    if (choice) await executeCommand('aiGateway.addApiKey');
    return undefined;
  }
  const key = await keys.add(name, parsed.secret, { activate: true });
  if (verdict.level === 'info') void vscode.window.showInformationMessage(verdict.message);
  else {
    const choice = await vscode.window.showWarningMessage(verdict.message, vscode.l10n.t('Check API Key'));
    if (choice) await executeCommand('aiGateway.checkApiKey');
  }
  return key;
}

interface KeyPick extends vscode.QuickPickItem {
  run: () => Promise<unknown>;
}

async function switchKey(services: KeysServices): Promise<void> {
  const keys = services.keys;
  const list = keys.list();
  if (list.length === 0) {
    await addKey(services);
    return;
  }
  const status = keys.status;
  const items: KeyPick[] = [];
  if (status.kind === 'missing-secret') {
    items.push({ label: `$(warning) ${vscode.l10n.t('Re-enter the secret of "{0}"…', status.key.name)}`, run: () => reenterSecret(keys, status.key) });
  }
  for (const k of list) {
    const active = k.id === keys.active?.id;
    items.push({
      label: `${active ? '$(check)' : '$(key)'} ${k.name}`,
      description: keyDescription(k, active),
      run: () => keys.switchTo(k.id),
    });
  }
  items.push({ label: '', kind: vscode.QuickPickItemKind.Separator, run: async () => undefined });
  items.push({ label: `$(add) ${vscode.l10n.t('Add API Key…')}`, run: () => addKey(services) });
  const pick = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Switch API Key'), placeHolder: vscode.l10n.t('Choose the API key to use') });
  await pick?.run();
}

async function pickKey(keys: KeyStore, title: string): Promise<KeyInfo | undefined> {
  const list = keys.list();
  if (list.length <= 1) return list[0];
  const pick = await vscode.window.showQuickPick(
    list.map((k) => ({ label: k.name, description: keyDescription(k, k.id === keys.active?.id), key: k })),
    { title, placeHolder: vscode.l10n.t('Choose an API key') },
  );
  return pick?.key;
}

async function removeKey(keys: KeyStore): Promise<void> {
  const key = await pickKey(keys, vscode.l10n.t('Remove API Key'));
  if (!key) {
    if (keys.list().length === 0) void vscode.window.showInformationMessage(vscode.l10n.t('There is no API key to remove.'));
    return;
  }
  const confirm = await confirmRisky({
    message: vscode.l10n.t('Remove API key {0} from VS Code?', describeKey(key)),
    detail: vscode.l10n.t('This only forgets the key here. It keeps working until you revoke it in the account portal ({0}).', PORTAL_PATH),
    safe: vscode.l10n.t('Keep Key'),
    action: vscode.l10n.t({ message: 'Remove', comment: ['verb, a button: forget the API key'] }),
  });
  if (!confirm) return;
  let nextActiveId: string | null | undefined;
  const others = keys.list().filter((k) => k.id !== key.id);
  if (key.id === keys.active?.id && others.length > 0) {
    // Never promote another key silently (it may have been revoked): the user picks, or none.
    const pick = await vscode.window.showQuickPick(
      [
        ...others.map((k) => ({ label: `$(key) ${k.name}`, description: keyDescription(k, false), id: k.id as string | null })),
        { label: `$(circle-slash) ${vscode.l10n.t('No active key')}`, description: vscode.l10n.t('choose one later with Switch API Key'), id: null },
      ],
      { title: vscode.l10n.t('Removing the active key "{0}": which key becomes active?', key.name), placeHolder: vscode.l10n.t('Pick the key to use from now on'), ignoreFocusOut: true },
    );
    if (!pick) return;
    nextActiveId = pick.id;
  }
  const next = await keys.remove(key.id, nextActiveId === undefined ? {} : { nextActiveId });
  void vscode.window.showInformationMessage(
    next
      ? vscode.l10n.t('Removed API key "{0}". Now using "{1}"; Check API Key tells whether it still works.', key.name, next.name)
      : vscode.l10n.t('Removed API key "{0}". No key is active.', key.name),
  );
}

async function reenterSecret(keys: KeyStore, key: KeyInfo): Promise<void> {
  const secret = await askSecret(vscode.l10n.t('Re-enter the secret of "{0}"', key.name), vscode.l10n.t('The {0} key ending in …{1}', key.type, key.suffix), (s) =>
    s.endsWith(key.suffix) ? undefined : vscode.l10n.t('This key does not end in …{0}: add it as a new key instead.', key.suffix),
  );
  if (secret === undefined) return;
  await keys.restoreSecret(key.id, secret);
  void vscode.window.showInformationMessage(vscode.l10n.t('The secret of "{0}" is back in the system keychain.', key.name));
}

async function askToReenter(keys: KeyStore, key: KeyInfo): Promise<void> {
  const reenter = vscode.l10n.t('Re-enter');
  const switchKey = vscode.l10n.t('Switch API Key');
  const choice = await vscode.window.showWarningMessage(
    vscode.l10n.t('The secret of API key "{0}" (…{1}) could not be read from the system keychain. Re-enter it to keep using this key.', key.name, key.suffix),
    reenter,
    switchKey,
  );
  if (choice === reenter) await guard(reenterSecret(keys, key));
  else if (choice === switchKey) await executeCommand('aiGateway.switchApiKey');
}

/** Runs the probe of src/core/keys/keyCheck.ts with a cancellable progress notification. */
async function runCheck(services: Pick<Services, 'createClient'>, getKey: () => Promise<string | undefined>, title: string): Promise<KeyCheckResult | undefined> {
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

/** Runs checkKeyScopes (src/core/keys/scopeCheck.ts) under the same quiet progress; undefined when cancelled. */
async function runScopeCheck(services: Pick<Services, 'createClient'>, getKey: () => Promise<string | undefined>, title: string): Promise<ScopeReport | undefined> {
  const { cancelled, value } = await withQuietProgress(editorProgress, title, async (signal) => {
    const client = await services.createClient(getKey);
    try {
      return await checkKeyScopes(client, signal);
    } finally {
      void client.dispose().catch(() => undefined);
    }
  });
  return cancelled ? undefined : value;
}

interface ScopeItem extends vscode.QuickPickItem {
  finding: ScopeFinding;
}

/** The report as a read-only list: one row per scope with its level and what it gives access to. */
async function showScopeList(report: Extract<ScopeReport, { kind: 'scopes' }>, summary: string): Promise<void> {
  const icon = (f: ScopeFinding): string => (f.level === 'write' || f.level === 'read' ? '$(pass)' : f.level === 'unknown' ? '$(question)' : '$(circle-slash)');
  const items: ScopeItem[] = report.findings.map((f) => ({
    label: `${icon(f)} ${f.scope}: ${levelWords(f.level)}`,
    description: scopeUse(f.scope),
    detail: f.detail,
    finding: f,
  }));
  const pick = vscode.window.createQuickPick<ScopeItem>();
  pick.title = vscode.l10n.t('API key scopes');
  pick.placeholder = summary;
  pick.items = items;
  pick.matchOnDescription = true;
  // Read-only: choosing a row closes the list and changes nothing.
  await new Promise<void>((resolve) => {
    pick.onDidAccept(() => pick.hide());
    pick.onDidHide(() => {
      pick.dispose();
      resolve();
    });
    pick.show();
  });
}

const editorProgress: ProgressHost = {
  window: (title, task) => vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title }, task),
  notification: (title, task) => vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, (_progress, token) => task(token)),
};

async function checkActiveKey(services: KeysServices): Promise<void> {
  const keys = services.keys;
  const key = keys.active;
  if (!key) {
    const choice = await vscode.window.showWarningMessage(vscode.l10n.t('No AI Gateway API key is set.'), vscode.l10n.t('Add API Key'));
    if (choice) await executeCommand('aiGateway.addApiKey');
    return;
  }
  const secret = await keys.getSecret(key.id);
  if (secret === undefined) return; // the missing-secret prompt is already on its way
  // Every scope of the permissions table, one harmless request or two each (#39.12); nothing is billed.
  const report = await runScopeCheck(services, async () => secret, vscode.l10n.t('Checking API key "{0}"…', key.name));
  if (!report) return;
  const label = `"${key.name}"`;
  const summary = summarizeScopeReport(report, label);
  services.log.info(`Key check of "${key.name}": ${report.kind === 'scopes' ? report.findings.map((f) => `${f.scope}=${f.level}`).join(' ') : report.kind}`);
  if (report.kind === 'error') {
    await showErrorNotification(report.error, { context: vscode.l10n.t('Checking API key "{0}"', key.name), retry: () => checkActiveKey(services) });
    return;
  }
  const setKey = vscode.l10n.t('Set API Key');
  const copyId = vscode.l10n.t('Copy Request ID');
  const showScopes = vscode.l10n.t('Show Scopes');
  if (report.kind === 'scopes') {
    const usable = report.findings.some((f) => f.level === 'write' || f.level === 'read');
    const show = usable ? vscode.window.showInformationMessage : vscode.window.showWarningMessage;
    const choice = await show(summary, showScopes);
    if (choice === showScopes) await showScopeList(report, summary);
    return;
  }
  const actions = [...(report.kind === 'invalid' ? [setKey] : []), ...(report.requestId ? [copyId] : [])];
  const show = report.kind === 'invalid' ? vscode.window.showErrorMessage : vscode.window.showWarningMessage;
  const choice = await show(summary, ...actions);
  if (choice === setKey) await executeCommand('aiGateway.switchApiKey');
  if (choice === copyId && report.requestId) await vscode.env.clipboard.writeText(report.requestId);
}

async function rotateKey(services: KeysServices): Promise<void> {
  const keys = services.keys;
  const old = keys.active ?? (await pickKey(keys, vscode.l10n.t('Rotate API Key')));
  if (!old) {
    const choice = await vscode.window.showWarningMessage(vscode.l10n.t('There is no API key to rotate.'), vscode.l10n.t('Add API Key'));
    if (choice) await executeCommand('aiGateway.addApiKey');
    return;
  }
  const go = vscode.l10n.t('Continue');
  const intro = await vscode.window.showInformationMessage(
    vscode.l10n.t('Rotate API key {0}', describeKey(old)),
    {
      modal: true,
      detail: [
        vscode.l10n.t('There is no rotation endpoint: keys never expire, and rotating means replacing the key yourself.'),
        '',
        vscode.l10n.t('1. In the account portal ({0}), create a new {1} key with the same permissions and copy its secret.', PORTAL_PATH, old.type),
        vscode.l10n.t('2. Paste it here; it is verified with a live call before anything changes.'),
        vscode.l10n.t('3. VS Code switches to it; then you revoke "{0}" in the portal and it is removed here.', old.name),
        '',
        vscode.l10n.t('Both keys work side by side until you revoke the old one.'),
      ].join('\n'),
    },
    go,
  );
  if (intro !== go) return;

  const final = await runRotation(old.id, {
    store: keys,
    checkScopes: async (secret) => (await runScopeCheck(services, async () => secret, vscode.l10n.t('Verifying the replacement key…'))) ?? cancelledCheck(),
    onState: (s) => services.log.info(`Key rotation of "${old.name}": ${s.step}`),
    prompts: {
      askReplacement: async (state) => {
        if (state.error) void vscode.window.showErrorMessage(state.error);
        const name = await askName(keys, temporaryReplacementName(old.name), vscode.l10n.t('Rotate API Key: name of the replacement'));
        if (name === undefined) return undefined;
        const secret = await askSecret(
          vscode.l10n.t('Rotate API Key: secret of the replacement'),
          vscode.l10n.t('Paste the secret of the new {0} key created in the portal ({1})', old.type, PORTAL_PATH),
          (s) => (detectKeyType(s) !== old.type ? vscode.l10n.t('The replacement must be a {0} key.', old.type) : undefined),
          { step: 2, totalSteps: 2 },
        );
        return secret === undefined ? undefined : { name, secret };
      },
      askAfterVerifyFailure: async (state) => {
        const report = state.result.report;
        const detail = report.kind === 'error' ? report.error.message : summarizeScopeReport(report, `"${state.replacement.name}"`);
        const retry = vscode.l10n.t('Retry');
        const choice = await vscode.window.showErrorMessage(
          vscode.l10n.t('The replacement key did not pass verification. "{0}" stays active and nothing was removed.', old.name),
          { modal: true, detail: `${detail}\n\n${vscode.l10n.t('The replacement is saved but unused; fix it in the portal and retry, or remove it later.')}` },
          retry,
        );
        return choice === retry ? 'retry' : undefined;
      },
      askAboutDifferences: async (state) => {
        // The default keeps the old key active; switching to a key with other permissions is the risky choice.
        const retry = vscode.l10n.t('Retry');
        const switchAnyway = vscode.l10n.t('Switch Anyway');
        const choice = await askRisky({
          severity: 'warning',
          message: describeScopeDifferences(old.name, state.replacement.name, state.result.differences),
          detail: vscode.l10n.t('"{0}" stays active until you choose. Fix the replacement\'s permissions in the portal ({1}) and retry, or switch anyway.', old.name, PORTAL_PATH),
          safe: vscode.l10n.t('Keep "{0}" Active', old.name),
          risky: [retry, switchAnyway],
        });
        return choice === switchAnyway ? 'switch' : choice === retry ? 'retry' : undefined;
      },
      askRevokeConfirmed: async (state) => {
        // Confirming removes the old key here: the default keeps both.
        return confirmRisky({
          severity: 'info',
          message: vscode.l10n.t('Now using "{0}". Revoke the old key "{1}" (…{2}) in the portal.', state.replacement.name, old.name, old.suffix),
          detail: vscode.l10n.t(
            'Open the account portal at {0}, revoke "{1}" ({2} key ending in …{3}), then confirm here. Revocation cannot be undone; choose Keep Both Keys to keep both keys saved.',
            PORTAL_PATH,
            old.name,
            old.type,
            old.suffix,
          ),
          safe: vscode.l10n.t('Keep Both Keys'),
          action: vscode.l10n.t('I Revoked It'),
        });
      },
    },
  });

  if (final.step === 'done') {
    void vscode.window.showInformationMessage(vscode.l10n.t('Rotation complete: using {0}; the old key was removed from VS Code.', describeKey(final.replacement)));
  } else if (final.step === 'cancelled') {
    const active = keys.active;
    void vscode.window.showInformationMessage(active ? vscode.l10n.t('Rotation stopped. Active key: {0}.', describeKey(active)) : vscode.l10n.t('Rotation stopped. Active key: none.'));
  }
}

/** "User key …a1b2 (active)" in the key pickers. */
function keyDescription(k: KeyInfo, active: boolean): string {
  return active ? vscode.l10n.t('{0} key …{1} (active)', k.type, k.suffix) : vscode.l10n.t('{0} key …{1}', k.type, k.suffix);
}

function cancelledCheck(): ScopeReport {
  return { kind: 'error', error: new GatewayError({ reason: 'aborted', message: vscode.l10n.t('Verification was cancelled.') }) };
}
