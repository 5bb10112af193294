/**
 * Hosting account API commands: credentials, Edit Cache Exclusions, Transfer Site…, Cancel Site Transfer
 * (command-time glue, imported on the first call; the file system provider is registered at activation).
 * Forms and summaries live in src/core/account, error words in src/core/errorText.ts (tested in plain Node); this is the glue.
 */
import * as vscode from 'vscode';
import { confirmRisky } from '../safeDialog';
import { executeCommand, type CommandRegistrar } from '../commands';
import { settings } from '../config';
import { showErrorNotification } from '../errorNotifications';
import { describeError, type HostingOperation } from '../core/errorText';
import type { TransferForm } from '../core/account/transferForm';
import type { SiteTransfer } from '../core/hosting/hosting';
import { DisposableStore } from '../core/disposables';
import type { Services } from '../services';
import { validateHostingPassword, validateHostingUsername } from '../core/account/credentials';
import { describeTransfer, parseScheduledTime, transferRequestFromForm, transferSummary, validateUuidInput } from '../core/account/transferForm';
import { isHostingError } from '../core/hosting/hosting';
import { hostingBaseUrl, type AccountClients } from '../platform/accountClients';
import type { AccountSecrets } from '../platform/accountSecrets';
import { exclusionsUri, type CacheExclusionsFs } from './cacheExclusionsFs';

const SET_CREDENTIALS = 'Set Hosting Credentials';

/** The hosting commands' handlers, registered through the registrar of src/commands.ts registerFeatureCommands. */
export function registerHostingCommands(services: Services, secrets: AccountSecrets, clients: AccountClients, fs: CacheExclusionsFs, registerCommand: CommandRegistrar): vscode.Disposable {
  const store = new DisposableStore();
  /** The last transfer requested in this session, to pre-fill Cancel Site Transfer. */
  let lastTransfer: { siteId: string; transferId: string } | undefined;

  store.add(
    registerCommand('aiGateway.hosting.setCredentials', async () => {
      const current = await secrets.getHostingCredentials();
      const username = await vscode.window.showInputBox({
        title: 'Hosting API credentials (1/2): username',
        value: current?.username,
        prompt: 'Sent as HTTP Basic credentials to the hosting account API. Stored in the OS keychain (SecretStorage) only.',
        ignoreFocusOut: true,
        validateInput: validateHostingUsername,
      });
      if (username === undefined) return;
      const password = await vscode.window.showInputBox({
        title: 'Hosting API credentials (2/2): password or API token',
        prompt: 'Stored in the OS keychain (SecretStorage) only.',
        password: true,
        ignoreFocusOut: true,
        validateInput: validateHostingPassword,
      });
      if (password === undefined) return;
      await secrets.setHostingCredentials({ username: username.trim(), password });
      const base = hostingBaseUrl();
      const hint = base.isPlaceholder ? ` Note: ${settings.hostingBaseUrl.key} is still the placeholder ${base.url}; set your hosting API address.` : '';
      void vscode.window.showInformationMessage(`Hosting API credentials saved for ${username.trim()}.${hint}`);
    }),
  );

  store.add(
    registerCommand('aiGateway.hosting.clearCredentials', async () => {
      await secrets.clearHostingCredentials();
      void vscode.window.showInformationMessage('Hosting API credentials removed.');
    }),
  );

  const ensureCredentials = async (): Promise<boolean> => {
    if (await secrets.getHostingCredentials()) return true;
    const choice = await vscode.window.showWarningMessage('The hosting account API needs your username and password (or API token).', SET_CREDENTIALS);
    if (choice === SET_CREDENTIALS) await executeCommand('aiGateway.hosting.setCredentials');
    return Boolean(await secrets.getHostingCredentials());
  };

  const showHostingError = async (e: unknown, op: HostingOperation, retry?: () => Promise<void>): Promise<void> => {
    if (isHostingError(e) && e.reason === 'aborted') return;
    if (isHostingError(e)) services.log.warn(`Hosting API: ${describeError(e, { operation: op }).message}`);
    await showErrorNotification(e, { operation: op, retry });
  };

  store.add(
    registerCommand('aiGateway.hosting.editCacheExclusions', async (installArg?: unknown) => {
      if (!(await ensureCredentials())) return;
      const installId =
        typeof installArg === 'string' && !validateUuidInput(installArg, 'install id')
          ? installArg.trim()
          : await vscode.window.showInputBox({
              title: 'Edit cache exclusions: install id',
              prompt: 'The UUID of the install whose cache exclusions to edit.',
              ignoreFocusOut: true,
              validateInput: (v) => validateUuidInput(v, 'install id'),
            });
      if (!installId) return;
      const uri = exclusionsUri(installId.trim());
      const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
      if (open?.isDirty) {
        // Unsaved edits (perhaps a refused save): show them, never overwrite them with a fresh read.
        await vscode.window.showTextDocument(open, { preview: false });
        void vscode.window.showInformationMessage('This document has unsaved edits; they are kept. Save to send them, or use File: Revert File to reload the server list.');
        return;
      }
      const run = async (): Promise<void> => {
        try {
          fs.forget(uri);
          await vscode.window.withProgress(
            { location: vscode.ProgressLocation.Notification, title: `Reading cache exclusions of install ${installId.trim()}…`, cancellable: true },
            (_p, token) => (open ? fs.refresh(installId.trim(), token) : fs.load(installId.trim(), token)),
          );
          const doc = await vscode.workspace.openTextDocument(uri);
          await vscode.window.showTextDocument(doc, { preview: false });
        } catch (e) {
          await showHostingError(e, 'readExclusions', run);
        }
      };
      await run();
    }),
  );

  store.add(
    registerCommand('aiGateway.hosting.transferSite', async () => {
      if (!(await ensureCredentials())) return;
      const form = await askTransferForm();
      if (!form) return;
      let body: ReturnType<typeof transferRequestFromForm>;
      try {
        body = transferRequestFromForm(form, Date.now());
      } catch (e) {
        void vscode.window.showErrorMessage(`Transfer not sent: ${(e as Error).message}`);
        return;
      }
      if (!(await confirmRisky({ message: 'Transfer this site to another account?', detail: transferSummary(form), safe: "Don't Transfer", action: 'Transfer Site' }))) return;
      let transfer: SiteTransfer;
      try {
        transfer = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'Requesting the site transfer…' }, () =>
          clients.hostingClient().then((h) =>
            h.requestTransfer(
              form.siteId.trim(),
              // Re-checked at send time inside requestTransfer (the modal may have stayed open a while).
              { destinationAccountId: body.destination_account_id, scheduledTime: form.scheduledTime, maintenanceMode: body.maintenance_mode },
            ),
          ),
        );
      } catch (e) {
        await showHostingError(e, 'transfer');
        return;
      }
      lastTransfer = { siteId: form.siteId.trim(), transferId: transfer.id };
      services.log.info(`Site transfer requested: ${describeTransfer(transfer)}`);
      void showTransfer(transfer, form.siteId.trim());
    }),
  );

  const showTransfer = async (transfer: SiteTransfer, siteId: string): Promise<void> => {
    const choice = await vscode.window.showInformationMessage(describeTransfer(transfer), 'Copy Transfer ID', 'Cancel Transfer…');
    if (choice === 'Copy Transfer ID') {
      await vscode.env.clipboard.writeText(transfer.id);
      void vscode.window.showInformationMessage(`Copied transfer ID ${transfer.id}.`);
    } else if (choice === 'Cancel Transfer…') {
      await executeCommand('aiGateway.hosting.cancelTransfer', siteId, transfer.id);
    }
  };

  store.add(
    registerCommand('aiGateway.hosting.cancelTransfer', async (siteArg?: unknown, transferArg?: unknown) => {
      if (!(await ensureCredentials())) return;
      const preset = typeof siteArg === 'string' && typeof transferArg === 'string' ? { siteId: siteArg, transferId: transferArg } : lastTransfer;
      const siteId = await vscode.window.showInputBox({
        title: 'Cancel site transfer (1/2): site id',
        value: preset?.siteId,
        ignoreFocusOut: true,
        validateInput: (v) => validateUuidInput(v, 'site id'),
      });
      if (!siteId) return;
      const transferId = await vscode.window.showInputBox({
        title: 'Cancel site transfer (2/2): transfer id',
        value: preset?.siteId === siteId.trim() ? preset.transferId : undefined,
        prompt: 'Only a transfer that has not started can be cancelled.',
        ignoreFocusOut: true,
        validateInput: (v) => validateUuidInput(v, 'transfer id'),
      });
      if (!transferId) return;
      const cancel = await confirmRisky({
        message: 'Cancel this site transfer?',
        detail: `Site: ${siteId.trim()}\nTransfer: ${transferId.trim()}\n\nA transfer that has already started cannot be cancelled.`,
        safe: 'Keep Transfer',
        action: 'Cancel Transfer',
      });
      if (!cancel) return;
      try {
        const message = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'Cancelling the site transfer…' }, () =>
          clients.hostingClient().then((h) => h.cancelTransfer(siteId.trim(), transferId.trim())),
        );
        services.log.info(`Site transfer ${transferId.trim()} cancelled: ${message}`);
        void vscode.window.showInformationMessage(`${message}: transfer ${transferId.trim()} of site ${siteId.trim()}.`);
      } catch (e) {
        await showHostingError(e, 'cancelTransfer');
      }
    }),
  );

  return store;
}

async function askTransferForm(): Promise<TransferForm | undefined> {
  const siteId = await vscode.window.showInputBox({
    title: 'Transfer site (1/4): site id',
    prompt: 'The UUID of the site to transfer. Sandbox sites cannot be transferred.',
    ignoreFocusOut: true,
    validateInput: (v) => validateUuidInput(v, 'site id'),
  });
  if (!siteId) return undefined;
  const destinationAccountId = await vscode.window.showInputBox({
    title: 'Transfer site (2/4): destination account id',
    prompt: 'The UUID of the account to transfer to. It must differ from the current account and have a preferred data center.',
    ignoreFocusOut: true,
    validateInput: (v) => validateUuidInput(v, 'destination account id'),
  });
  if (!destinationAccountId) return undefined;
  const when = await vscode.window.showQuickPick(
    [
      { label: 'Immediately', description: 'start as soon as the transfer is accepted', scheduled: false },
      { label: 'At a scheduled time…', description: 'between 1 hour and 7 days from now', scheduled: true },
    ],
    { title: 'Transfer site (3/4): when', ignoreFocusOut: true },
  );
  if (!when) return undefined;
  let scheduledTime: Date | undefined;
  if (when.scheduled) {
    const text = await vscode.window.showInputBox({
      title: 'Transfer site (3/4): scheduled time',
      prompt: 'e.g. +2h, +3d, 2026-11-23 14:00 (UTC) or 2026-11-23T14:00+01:00. Between 1 hour and 7 days ahead.',
      ignoreFocusOut: true,
      validateInput: (v) => {
        const r = parseScheduledTime(v, Date.now());
        return 'error' in r ? r.error : undefined;
      },
    });
    if (text === undefined) return undefined;
    const r = parseScheduledTime(text, Date.now());
    if ('error' in r) {
      void vscode.window.showErrorMessage(r.error);
      return undefined;
    }
    scheduledTime = r.date;
  }
  const maintenance = await vscode.window.showQuickPick(
    [
      { label: 'No maintenance mode', description: 'default', on: false },
      { label: 'Enable maintenance mode during the transfer', on: true },
    ],
    { title: 'Transfer site (4/4): maintenance mode', ignoreFocusOut: true },
  );
  if (!maintenance) return undefined;
  return { siteId: siteId.trim(), destinationAccountId: destinationAccountId.trim(), scheduledTime, maintenanceMode: maintenance.on };
}
