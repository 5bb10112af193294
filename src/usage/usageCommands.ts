/**
 * "AI Gateway: Show Usage" and the identity-token commands (command-time glue, imported on the first call). The report is a read-only virtual
 * markdown document (scheme `ai-gateway-usage`) shown in the markdown preview: no webview needed.
 */
import * as vscode from 'vscode';
import { confirmRisky } from '../platform/safeDialog';
import { executeCommand, type CommandRegistrar } from '../platform/commands';
import { settings } from '../platform/config';
import type { UsageWindow } from '../core/account/usageReport';
import type { AnalyticsQuery, BucketWidth, GroupByDimension } from '../core/usage/analytics';
import { DisposableStore } from '../core/disposables';
import { showErrorNotification } from '../platform/errorNotifications';
import type { Services } from '../services';
import type { UsageServices } from './registerUsage';
import { validateJwtInput } from '../core/account/credentials';
import { GROUP_BY_LABELS, parseCustomWindow, USAGE_PRESETS, presetWindow, renderUsageReport, usageReportTitle } from '../core/account/usageReport';
import { BUCKET_WIDTHS, DEFAULT_GROUP_BY, GROUP_BY_DIMENSIONS, checkAnalyticsCredential } from '../core/usage/analytics';
import type { AccountClients } from '../platform/accountClients';
import type { AccountSecrets } from '../platform/accountSecrets';
import type { UsageReports } from './usageReports';
import { UsagePanel } from '../usage/usagePanel';
import { withTokenSignal } from '../platform/cancellation';

const setJwtLabel = (): string => vscode.l10n.t('Set Identity Token');

/** What the identity-token commands need: the token's SecretStorage slot and the budget that reads the gateway with it. */
export interface IdentityTokenContext {
  secrets: Pick<AccountSecrets, 'getJwt' | 'setJwt' | 'clearJwt'>;
  budget: Pick<Services['budget'], 'gatewayChanged'>;
}

/** aiGateway.usage.setIdentityToken: a password box; the token goes to SecretStorage only. */
export async function setIdentityTokenCommand({ secrets, budget }: IdentityTokenContext): Promise<void> {
  const jwt = await vscode.window.showInputBox({
    title: vscode.l10n.t('Identity token (JWT) for usage analytics'),
    prompt: vscode.l10n.t('Stored in the OS keychain (SecretStorage). Analytics needs account-level identity-provider authentication; API keys are refused. The tool runner uses the same token in JWT mode.'),
    password: true,
    ignoreFocusOut: true,
    validateInput: validateJwtInput,
  });
  if (jwt === undefined) return;
  await secrets.setJwt(jwt.trim());
  budget.gatewayChanged();
  void vscode.window.showInformationMessage(vscode.l10n.t('Identity token saved for usage analytics.'));
}

/** aiGateway.usage.clearIdentityToken: only after the modal's Remove (its default keeps the token). */
export async function clearIdentityTokenCommand({ secrets, budget }: IdentityTokenContext): Promise<void> {
  if (!(await secrets.getJwt())) {
    void vscode.window.showInformationMessage(vscode.l10n.t('No identity token is stored.'));
    return;
  }
  const ok = await confirmRisky({
    message: vscode.l10n.t('Remove the stored identity token (JWT)?'),
    detail: vscode.l10n.t('Usage analytics stops working until you set a new one. The tool runner uses the same token when it is in JWT mode.'),
    safe: vscode.l10n.t('Keep Token'),
    action: vscode.l10n.t('Remove'),
  });
  if (!ok) return;
  await secrets.clearJwt();
  budget.gatewayChanged();
  void vscode.window.showInformationMessage(vscode.l10n.t('Identity token removed.'));
}

/** The usage commands' handlers, registered through the registrar of src/platform/commands.ts registerFeatureCommands. */
export function registerUsageCommands(services: UsageServices, secrets: AccountSecrets, clients: AccountClients, reports: UsageReports, registerCommand: CommandRegistrar): vscode.Disposable {
  const store = new DisposableStore();
  const tokenContext: IdentityTokenContext = { secrets, budget: services.budget };
  store.add(registerCommand('aiGateway.usage.setIdentityToken', () => setIdentityTokenCommand(tokenContext)));
  store.add(registerCommand('aiGateway.usage.clearIdentityToken', () => clearIdentityTokenCommand(tokenContext)));

  // The dashboard (src/usage/usagePanel.ts); the Markdown report stays reachable as its own command.
  store.add(registerCommand('aiGateway.usage.show', () => UsagePanel.show(services, { analytics: (q, signal, onRetry) => clients.analytics(q, signal, onRetry), getJwt: () => secrets.getJwt(), setTokenCommand: 'aiGateway.usage.setIdentityToken' })));
  // The budget status bar shows the gateway's figure for today when a token and a project are set.
  store.add(services.budget.useGateway({ analytics: (q, signal) => clients.analytics(q, signal), getJwt: () => secrets.getJwt() }));
  store.add(registerCommand('aiGateway.usage.showReport', () => showUsage(services, secrets, clients, reports)));
  return store;
}

async function showUsage(services: UsageServices, secrets: AccountSecrets, clients: AccountClients, reports: UsageReports): Promise<void> {
  // G-AN-1: refuse locally, with the fix at hand, before any request.
  const refusal = checkAnalyticsCredential(await secrets.getJwt());
  if (refusal) {
    const SET_JWT = setJwtLabel();
    const choice = await vscode.window.showWarningMessage(vscode.l10n.t('{0} Set an identity-provider token to see usage.', refusal), SET_JWT);
    if (choice === SET_JWT) await executeCommand('aiGateway.usage.setIdentityToken');
    return;
  }
  const projectId = await askProjectId();
  if (!projectId) return;
  const window = await askWindow();
  if (!window) return;
  const groupBy = await askGroupBy();
  if (!groupBy) return;

  const query: AnalyticsQuery = { projectId, startTime: window.startTime, endTime: window.endTime, bucketWidth: window.bucketWidth, groupBy };
  const run = async (): Promise<void> => {
    try {
      const result = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Loading usage of {0}…', projectId), cancellable: true },
        (_progress, token) => withTokenSignal(token, (signal) => clients.analytics(query, signal)),
      );
      const uri = reports.add(usageReportTitle(projectId, window), renderUsageReport({ projectId, query, result, fetchedAtMs: Date.now() }));
      await openReport(uri);
    } catch (e) {
      await reportAnalyticsError(services, e, run);
    }
  };
  await run();
}

async function askProjectId(): Promise<string | undefined> {
  const saved = settings.analyticsProjectId.get().trim();
  if (saved) return saved;
  const entered = await vscode.window.showInputBox({
    title: vscode.l10n.t('Project for usage analytics'),
    prompt: vscode.l10n.t('The project_id to report on. Saved in the {0} setting.', settings.analyticsProjectId.key),
    ignoreFocusOut: true,
    validateInput: (v) => (v.trim() ? undefined : vscode.l10n.t('Enter a project id.')),
  });
  if (!entered?.trim()) return undefined;
  await vscode.workspace.getConfiguration().update(settings.analyticsProjectId.key, entered.trim(), vscode.ConfigurationTarget.Global);
  return entered.trim();
}

async function askWindow(): Promise<UsageWindow | undefined> {
  type Item = vscode.QuickPickItem & { run: () => Promise<UsageWindow | undefined> };
  const items: Item[] = [
    ...USAGE_PRESETS.map((p) => ({ label: p.label, description: p.description, run: () => Promise.resolve(presetWindow(p, Date.now())) })),
    { label: vscode.l10n.t('Custom window…'), description: vscode.l10n.t('start, end and bucket width'), run: () => askCustomWindow() },
  ];
  const pick = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Usage: time window'), placeHolder: vscode.l10n.t('Which period?'), ignoreFocusOut: true });
  return pick?.run();
}

async function askCustomWindow(): Promise<UsageWindow | undefined> {
  const widths: (vscode.QuickPickItem & { width: BucketWidth })[] = BUCKET_WIDTHS.map((w) => ({
    label: w,
    description: w === '10m' ? vscode.l10n.t('windows up to 24 hours') : w === '1h' ? vscode.l10n.t('windows up to 7 days') : vscode.l10n.t('windows up to 30 days'),
    width: w,
  }));
  const width = await vscode.window.showQuickPick(widths, { title: vscode.l10n.t('Usage: bucket width'), ignoreFocusOut: true });
  if (!width) return undefined;
  const start = await vscode.window.showInputBox({
    title: vscode.l10n.t('Usage: window start (UTC, inclusive)'),
    prompt: vscode.l10n.t('e.g. 2026-11-20, 2026-11-20 08:00, or relative: -6h, -3d'),
    ignoreFocusOut: true,
    validateInput: (v) => {
      const r = parseCustomWindow(v, '', width.width, Date.now());
      return 'error' in r && r.error.startsWith('Start:') ? r.error : undefined;
    },
  });
  if (start === undefined) return undefined;
  const end = await vscode.window.showInputBox({
    title: vscode.l10n.t('Usage: window end (UTC, exclusive)'),
    prompt: vscode.l10n.t('Leave empty for now.'),
    ignoreFocusOut: true,
    validateInput: (v) => {
      const r = parseCustomWindow(start, v, width.width, Date.now());
      return 'error' in r ? r.error : undefined;
    },
  });
  if (end === undefined) return undefined;
  const r = parseCustomWindow(start, end, width.width, Date.now());
  if ('error' in r) {
    void vscode.window.showErrorMessage(r.error);
    return undefined;
  }
  return r;
}

async function askGroupBy(): Promise<GroupByDimension[] | undefined> {
  const items = GROUP_BY_DIMENSIONS.map((d) => ({ label: GROUP_BY_LABELS[d], description: d, picked: DEFAULT_GROUP_BY.includes(d), dimension: d }));
  const picks = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Usage: group rows by (nothing picked = model and operation)'),
    canPickMany: true,
    ignoreFocusOut: true,
  });
  if (!picks) return undefined;
  return picks.map((p) => p.dimension);
}

async function openReport(uri: vscode.Uri): Promise<void> {
  const doc = await vscode.workspace.openTextDocument(uri);
  try {
    await vscode.commands.executeCommand('markdown.showPreview', doc.uri);
  } catch {
    await vscode.window.showTextDocument(doc, { preview: false });
  }
}

/**
 * 401/403 here are about the identity token, not the API key, so they get "Set Identity Token"
 * rather than the shared "Set API Key" action; everything else goes through the shared notifier.
 */
async function reportAnalyticsError(services: Pick<Services, 'log'>, e: unknown, retry: () => Promise<void>): Promise<void> {
  const reason = typeof e === 'object' && e !== null ? (e as { reason?: unknown }).reason : undefined;
  if (reason === 'authentication' || reason === 'permission') {
    const status = reason === 'authentication' ? 'The gateway refused the identity token (401): it is missing, invalid or expired.' : 'The identity token lacks account-level access to this project (403).';
    services.log.warn(`Usage: ${status}`);
    const shown = reason === 'authentication' ? vscode.l10n.t('The gateway refused the identity token (401): it is missing, invalid or expired.') : vscode.l10n.t('The identity token lacks account-level access to this project (403).');
    const SET_JWT = setJwtLabel();
    const choice = await vscode.window.showErrorMessage(vscode.l10n.t('Loading usage: {0} Set a valid identity-provider token (JWT).', shown), SET_JWT);
    if (choice === SET_JWT) await executeCommand('aiGateway.usage.setIdentityToken');
    return;
  }
  await showErrorNotification(e, { context: vscode.l10n.t('Loading usage'), retry });
}
