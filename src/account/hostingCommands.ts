/**
 * Hosting account API commands: credentials, Edit Cache Exclusions, Transfer Site…, Cancel Site Transfer
 * (command-time glue, imported on the first call; the file system provider is registered at activation).
 * Forms and summaries live in src/core/account, error words in src/core/errorText.ts (tested in plain Node); this is the glue.
 */
import * as vscode from 'vscode';
import { confirmRisky } from '../platform/safeDialog';
import { executeCommand, type CommandRegistrar } from '../platform/commands';
import { settings } from '../platform/config';
import { openSettingWhereItLives, showErrorNotification } from '../platform/errorNotifications';
import { describeError, type HostingOperation } from '../core/errorText';
import type { TransferForm } from '../core/account/transferForm';
import type { SiteTransfer } from '../core/account/hosting';
import { DisposableStore } from '../core/disposables';
import type { Services } from '../services';
import { validateHostingPassword, validateHostingUsername } from '../core/account/credentials';
import { describeTransfer, namedId, namedIdLines, parseScheduledTime, scheduleExamples, transferRequestFromForm, transferSummary, validateUuidInput } from '../core/account/transferForm';
import { isHostingError } from '../core/account/hosting';
import { isExclusionsReadUnrecognised } from '../core/account/exclusionsRead';
import { hostingBaseUrl, type AccountClients } from '../platform/accountClients';
import type { AccountSecrets } from '../platform/accountSecrets';
import { hostingAddressProblem } from '../core/account/hostingUrl';
import { idsFromTransfer } from '../core/account/recentIds';
import { inputStep, pickStep } from '../platform/stepInput';
import { withTokenSignal } from '../platform/cancellation';
import { exclusionsUri } from './cacheExclusionsFs';
import type { LazyExclusionsFs } from './lazyExclusionsFs';
import { pickHostingId, RecentHostingIds } from './idPicker';

const setCredentialsLabel = (): string => vscode.l10n.t('Set Hosting Credentials');

/** What the hosting commands share: the log, the credentials, the hosting client, the exclusions documents and the recent ids. */
export interface HostingContext {
  log: Pick<Services['log'], 'info' | 'warn'>;
  secrets: Pick<AccountSecrets, 'getHostingCredentials' | 'setHostingCredentials' | 'clearHostingCredentials'>;
  clients: Pick<AccountClients, 'hostingClient'>;
  lazyFs: Pick<LazyExclusionsFs, 'get'>;
  recent: RecentHostingIds;
  /** The last transfer requested in this session, to pre-fill Cancel Site Transfer. */
  lastTransfer?: { siteId: string; transferId: string };
}

/** aiGateway.hosting.setCredentials: the address is checked first, then username and password in two steps, into SecretStorage. */
export async function setCredentialsCommand(ctx: Pick<HostingContext, 'secrets' | 'clients'>): Promise<void> {
  const { secrets, clients } = ctx;
  // The address first (#29.2): no password is asked for an address that cannot take it.
  if (!(await checkHostingAddress(clients))) return;
  const current = await secrets.getHostingCredentials();
  const username = await inputStep({
    title: vscode.l10n.t('Hosting API credentials: username'),
    step: 1,
    totalSteps: 2,
    value: current?.username,
    prompt: vscode.l10n.t('For {0}. Sent as HTTP Basic credentials to the hosting account API. Stored in the OS keychain (SecretStorage) only.', hostingBaseUrl().url),
    validateInput: validateHostingUsername,
  });
  if (username === undefined) return;
  const password = await inputStep({
    title: vscode.l10n.t('Hosting API credentials: password or API token'),
    step: 2,
    totalSteps: 2,
    prompt: vscode.l10n.t('Stored in the OS keychain (SecretStorage) only.'),
    password: true,
    validateInput: validateHostingPassword,
  });
  if (password === undefined) return;
  await secrets.setHostingCredentials({ username: username.trim(), password });
  void vscode.window.showInformationMessage(vscode.l10n.t('Hosting API credentials saved for {0} ({1}).', username.trim(), hostingBaseUrl().url));
}

/** aiGateway.hosting.clearCredentials. */
export async function clearCredentialsCommand(ctx: Pick<HostingContext, 'secrets'>): Promise<void> {
  await ctx.secrets.clearHostingCredentials();
  void vscode.window.showInformationMessage(vscode.l10n.t('Hosting API credentials removed.'));
}

async function ensureCredentials(secrets: HostingContext['secrets']): Promise<boolean> {
  if (await secrets.getHostingCredentials()) return true;
  const setCredentials = setCredentialsLabel();
  const choice = await vscode.window.showWarningMessage(vscode.l10n.t('The hosting account API needs your username and password (or API token).'), setCredentials);
  if (choice === setCredentials) await executeCommand('aiGateway.hosting.setCredentials');
  return Boolean(await secrets.getHostingCredentials());
}

async function showHostingError(log: HostingContext['log'], e: unknown, op: HostingOperation, retry?: () => Promise<void>): Promise<void> {
  if (isHostingError(e) && e.reason === 'aborted') return;
  if (isHostingError(e)) log.warn(`Hosting API: ${describeError(e, { operation: op }).message}`);
  await showErrorNotification(e, { operation: op, retry });
}

/** aiGateway.hosting.editCacheExclusions: the install's exclusions as an editable document (saved edits are sent). */
export async function editCacheExclusionsCommand(ctx: Pick<HostingContext, 'log' | 'secrets' | 'lazyFs' | 'recent'>, installArg?: unknown): Promise<void> {
  const { log, secrets, lazyFs, recent } = ctx;
  if (!(await ensureCredentials(secrets))) return;
  const installId =
    typeof installArg === 'string' && !validateUuidInput(installArg, 'install id')
      ? installArg.trim()
      : await pickHostingId(recent, { kind: 'install', title: vscode.l10n.t('Edit cache exclusions: install'), what: vscode.l10n.t('the install whose cache exclusions to edit') });
  if (!installId) return;
  const uri = exclusionsUri(installId.trim());
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open?.isDirty) {
    // Unsaved edits (perhaps a refused save): show them, never overwrite them with a fresh read.
    await vscode.window.showTextDocument(open, { preview: false });
    void vscode.window.showInformationMessage(
      vscode.l10n.t('This document has unsaved edits; they are kept. Save to send them, or use File: Revert File to reload the server list.'),
    );
    return;
  }
  const run = async (): Promise<void> => {
    try {
      const fs = await lazyFs.get();
      fs.forget(uri);
      await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Reading cache exclusions of install {0}…', installId.trim()), cancellable: true },
        (_p, token) => (open ? fs.refresh(installId.trim(), token) : fs.load(installId.trim(), token)),
      );
      await recent.remember([{ kind: 'install', id: installId.trim() }]);
      const doc = await vscode.workspace.openTextDocument(uri);
      await vscode.window.showTextDocument(doc, { preview: false });
    } catch (e) {
      // An answer in a shape this extension does not recognise never opens as an editable list (#39.6).
      if (isExclusionsReadUnrecognised(e)) {
        log.warn(`Cache exclusions of ${installId.trim()}: ${e.problem}`);
        await (await lazyFs.get()).showUnrecognised(e, run);
        return;
      }
      await showHostingError(log, e, 'readExclusions', run);
    }
  };
  await run();
}

/** aiGateway.hosting.transferSite: a four-step form, a modal whose default is Don't Transfer, then the request. */
export async function transferSiteCommand(ctx: HostingContext): Promise<void> {
  const { log, secrets, clients, recent } = ctx;
  if (!(await ensureCredentials(secrets))) return;
  const form = await askTransferForm(recent);
  if (!form) return;
  let body: ReturnType<typeof transferRequestFromForm>;
  try {
    body = transferRequestFromForm(form, Date.now());
  } catch (e) {
    void vscode.window.showErrorMessage(vscode.l10n.t('Transfer not sent: {0}', (e as Error).message));
    return;
  }
  if (!(await confirmRisky({
        message: vscode.l10n.t('Transfer this site to another account?'),
        detail: transferSummary(form, { site: recent.nameOf('site', form.siteId), destination: recent.nameOf('account', form.destinationAccountId) }),
        safe: vscode.l10n.t("Don't Transfer"),
        action: vscode.l10n.t('Transfer Site'),
      }))) return;
  let transfer: SiteTransfer;
  try {
    transfer = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Requesting the site transfer…') }, () =>
      clients.hostingClient().then((h) =>
        h.requestTransfer(
          form.siteId.trim(),
          // Re-checked at send time inside requestTransfer (the modal may have stayed open a while).
          { destinationAccountId: body.destination_account_id, scheduledTime: form.scheduledTime, maintenanceMode: body.maintenance_mode },
        ),
      ),
    );
  } catch (e) {
    await showHostingError(log, e, 'transfer');
    return;
  }
  ctx.lastTransfer = { siteId: form.siteId.trim(), transferId: transfer.id };
  await recent.remember(idsFromTransfer(form.siteId.trim(), form.destinationAccountId.trim(), transfer));
  log.info(`Site transfer requested: ${describeTransfer(transfer)}`);
  void showTransfer(transfer, form.siteId.trim());
}

async function showTransfer(transfer: SiteTransfer, siteId: string): Promise<void> {
  const copy = vscode.l10n.t('Copy Transfer ID');
  const cancel = vscode.l10n.t('Stop the Transfer…');
  const choice = await vscode.window.showInformationMessage(describeTransfer(transfer), copy, cancel);
  if (choice === copy) {
    await vscode.env.clipboard.writeText(transfer.id);
    void vscode.window.showInformationMessage(vscode.l10n.t('Copied transfer ID {0}.', transfer.id));
  } else if (choice === cancel) {
    await executeCommand('aiGateway.hosting.cancelTransfer', siteId, transfer.id);
  }
}

/** aiGateway.hosting.cancelTransfer: site and transfer (pre-filled from the arguments or the last transfer), a modal whose default is Keep the Transfer (#41.9: the action says what it does, so VS Code's Cancel cannot be read as it). */
export async function cancelTransferCommand(ctx: HostingContext, siteArg?: unknown, transferArg?: unknown): Promise<void> {
  const { log, secrets, clients, recent } = ctx;
  if (!(await ensureCredentials(secrets))) return;
  const preset = typeof siteArg === 'string' && typeof transferArg === 'string' ? { siteId: siteArg, transferId: transferArg } : ctx.lastTransfer;
  const siteId = await pickHostingId(recent, {
    kind: 'site',
    title: vscode.l10n.t('Cancel site transfer: site'),
    step: 1,
    totalSteps: 2,
    what: vscode.l10n.t('the site whose transfer to cancel'),
    preset: preset?.siteId,
  });
  if (!siteId) return;
  const transferId = await pickHostingId(recent, {
    kind: 'transfer',
    title: vscode.l10n.t('Cancel site transfer: transfer (only one that has not started can be cancelled)'),
    step: 2,
    totalSteps: 2,
    what: vscode.l10n.t('the transfer to cancel'),
    siteId,
    preset: preset?.siteId === siteId.trim() ? preset.transferId : undefined,
  });
  if (!transferId) return;
  const cancel = await confirmRisky({
    message: vscode.l10n.t('Stop this site transfer?'),
    detail: `${namedIdLines((n) => vscode.l10n.t('Site: {0}', n), recent.nameOf('site', siteId), siteId.trim())}\n${namedIdLines((n) => vscode.l10n.t('Transfer: {0}', n), recent.nameOf('transfer', transferId), transferId.trim())}\n\n${vscode.l10n.t('A transfer that has already started cannot be cancelled.')}`,
    safe: vscode.l10n.t('Keep the Transfer'),
    action: vscode.l10n.t('Stop the Transfer'),
  });
  if (!cancel) return;
  try {
    const message = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Cancelling the site transfer…') }, () =>
      clients.hostingClient().then((h) => h.cancelTransfer(siteId.trim(), transferId.trim())),
    );
    log.info(`Site transfer ${transferId.trim()} cancelled: ${message}`);
    await recent.remember([{ kind: 'site', id: siteId }]);
    void vscode.window.showInformationMessage(vscode.l10n.t('{0}: transfer {1} of site {2}.', message, transferId.trim(), namedId(recent.nameOf('site', siteId), siteId.trim())));
  } catch (e) {
    await showHostingError(log, e, 'cancelTransfer');
  }
}

/** The hosting commands' handlers, registered through the registrar of src/platform/commands.ts registerFeatureCommands. */
export function registerHostingCommands(services: Pick<Services, 'context' | 'log'>, secrets: AccountSecrets, clients: AccountClients, lazyFs: LazyExclusionsFs, registerCommand: CommandRegistrar): vscode.Disposable {
  const store = new DisposableStore();
  const ctx: HostingContext = { log: services.log, secrets, clients, lazyFs, recent: new RecentHostingIds(services.context.globalState) };
  store.add(registerCommand('aiGateway.hosting.setCredentials', () => setCredentialsCommand(ctx)));
  store.add(registerCommand('aiGateway.hosting.clearCredentials', () => clearCredentialsCommand(ctx)));
  store.add(registerCommand('aiGateway.hosting.editCacheExclusions', (installArg?: unknown) => editCacheExclusionsCommand(ctx, installArg)));
  store.add(registerCommand('aiGateway.hosting.transferSite', () => transferSiteCommand(ctx)));
  store.add(registerCommand('aiGateway.hosting.cancelTransfer', (siteArg?: unknown, transferArg?: unknown) => cancelTransferCommand(ctx, siteArg, transferArg)));
  return store;
}

/**
 * Checks the hosting address before credentials are asked for (#29.2): not the placeholder, https or
 * loopback, reachable, and answering like a hosting account API. A problem is shown with Open
 * Settings, which opens the scope where the machine-scoped setting lives.
 */
async function checkHostingAddress(clients: Pick<AccountClients, 'hostingClient'>): Promise<boolean> {
  const base = hostingBaseUrl();
  let problem = hostingAddressProblem(base.url, base.isPlaceholder);
  if (!problem) {
    const probe = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Checking the hosting API at {0}…', base.url), cancellable: true }, (_p, token) =>
      clients.hostingClient().then((h) => withTokenSignal(token, (signal) => h.probe(signal))),
    );
    if (probe.kind === 'cancelled') return false;
    if (probe.kind === 'unreachable') problem = vscode.l10n.t('The hosting API at {0} cannot be reached ({1}). Check {2}.', base.url, probe.message, 'aiGateway.hosting.baseUrl');
    else if (probe.kind === 'not-hosting') problem = vscode.l10n.t('{0} does not answer like a hosting account API: {1}. Check {2}.', base.url, probe.message, 'aiGateway.hosting.baseUrl');
  }
  if (!problem) return true;
  const choice = await vscode.window.showErrorMessage(vscode.l10n.t('{0} No password was asked for.', problem), vscode.l10n.t('Open Settings'));
  if (choice) await openSettingWhereItLives(settings.hostingBaseUrl.key);
  return false;
}

async function askTransferForm(recent: RecentHostingIds): Promise<TransferForm | undefined> {
  const siteId = await pickHostingId(recent, {
    kind: 'site',
    title: vscode.l10n.t('Transfer site: site (sandbox sites cannot be transferred)'),
    step: 1,
    totalSteps: 4,
    what: vscode.l10n.t('the site to transfer'),
  });
  if (!siteId) return undefined;
  const destinationAccountId = await pickHostingId(recent, {
    kind: 'account',
    title: vscode.l10n.t('Transfer site: destination account (another account, with a preferred data center)'),
    step: 2,
    totalSteps: 4,
    what: vscode.l10n.t('the account to transfer to'),
  });
  if (!destinationAccountId) return undefined;
  const when = await pickStep(
    [
      { label: vscode.l10n.t('Immediately'), description: vscode.l10n.t('start as soon as the transfer is accepted'), scheduled: false },
      { label: vscode.l10n.t('At a scheduled time…'), description: vscode.l10n.t('between 1 hour and 7 days from now'), scheduled: true },
    ],
    { title: vscode.l10n.t('Transfer site: when'), step: 3, totalSteps: 4 },
  );
  if (!when) return undefined;
  let scheduledTime: Date | undefined;
  if (when.scheduled) {
    const text = await inputStep({
      title: vscode.l10n.t('Transfer site: scheduled time'),
      step: 3,
      totalSteps: 4,
      // The example dates are tomorrow's (#41.11), never a fixed day that has passed.
      prompt: vscode.l10n.t('e.g. +2h, +3d, {0} (UTC) or {1}. Between 1 hour and 7 days ahead.', scheduleExamples(Date.now()).utc, scheduleExamples(Date.now()).withOffset),
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
  const maintenance = await pickStep(
    [
      { label: vscode.l10n.t('No maintenance mode'), description: vscode.l10n.t({ message: 'default', comment: ['the default choice'] }), on: false },
      { label: vscode.l10n.t('Enable maintenance mode during the transfer'), on: true },
    ],
    { title: vscode.l10n.t('Transfer site: maintenance mode'), step: 4, totalSteps: 4 },
  );
  if (!maintenance) return undefined;
  return { siteId: siteId.trim(), destinationAccountId: destinationAccountId.trim(), scheduledTime, maintenanceMode: maintenance.on };
}
