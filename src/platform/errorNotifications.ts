/**
 * Turns any failure (GatewayError, McpCallError, HostingError or anything else) into one notification
 * with the actions that help: "Set API Key" / "Set Hosting Credentials" on a refused credential,
 * "Retry" when the caller can retry and it makes sense, "Open Settings" when the server cannot be
 * reached, "Open Documentation" when the hosting API named a page, "Copy Request ID" whenever the
 * server sent one (users quote it to support), "Show Log" otherwise. The words and the choice of
 * actions come from src/core/errorText.ts; every feature reuses this instead of writing its own.
 */
import * as vscode from 'vscode';
import { executeCommand } from './commands';
import type { ErrorAction, HostingOperation } from '../core/errorText';

export interface ErrorNotificationOptions {
  /** What was being done, e.g. "Loading models". */
  context?: string;
  /** Offered as "Retry" when the error is transient. */
  retry?: () => unknown;
  /** 'warning' for failures the user can shrug off. Default 'error'. */
  severity?: 'error' | 'warning';
  /** For hosting API failures: which operation failed (its words differ, e.g. for a 409). */
  operation?: HostingOperation;
}


/** Shows the notification; resolves after the user's choice was acted on (or the toast was dismissed). */
export async function showErrorNotification(error: unknown, options: ErrorNotificationOptions = {}): Promise<void> {
  if (isCancellation(error)) return;
  // The words are imported with the first failure: activation does not load them.
  const { describeError } = await import('../core/errorText');
  const text = describeError(error, { context: options.context, operation: options.operation });
  const LABELS: Record<ErrorAction, string> = {
    setApiKey: vscode.l10n.t('Set API Key'),
    setHostingCredentials: vscode.l10n.t('Set Hosting Credentials'),
    retry: vscode.l10n.t('Retry'),
    openSettings: vscode.l10n.t('Open Settings'),
    openDocs: vscode.l10n.t('Open Documentation'),
  };
  const COPY_ID = vscode.l10n.t('Copy Request ID');
  const SHOW_LOG = vscode.l10n.t('Show Log');
  const actions = text.actions.filter((a) => a !== 'retry' || options.retry).map((a) => LABELS[a]);
  actions.push(text.requestId ? COPY_ID : SHOW_LOG);
  const message = text.requestId ? vscode.l10n.t('{0} (request {1})', text.message, text.requestId) : text.message;
  const show = options.severity === 'warning' ? vscode.window.showWarningMessage : vscode.window.showErrorMessage;
  const choice = await show(message, ...actions);
  switch (choice) {
    case LABELS.setApiKey:
      await executeCommand('aiGateway.switchApiKey');
      break;
    case LABELS.setHostingCredentials:
      await executeCommand('aiGateway.hosting.setCredentials');
      break;
    case LABELS.retry:
      await options.retry?.();
      break;
    case COPY_ID:
      if (text.requestId) {
        await vscode.env.clipboard.writeText(text.requestId);
        void vscode.window.showInformationMessage(vscode.l10n.t('Copied request ID {0}.', text.requestId));
      }
      break;
    case LABELS.openSettings:
      await openSettingWhereItLives(text.settingKey ?? 'aiGateway.baseUrl');
      break;
    case LABELS.openDocs:
      if (text.documentationUrl) {
        // Server-provided: open only https links; anything else is copied for the user to judge.
        const docs = vscode.Uri.parse(text.documentationUrl);
        if (docs.scheme === 'https') await vscode.env.openExternal(docs);
        else await vscode.env.clipboard.writeText(text.documentationUrl);
      }
      break;
    case SHOW_LOG:
      await executeCommand('aiGateway.showLog');
      break;
  }
}

/**
 * Opens the Settings editor on `key` in the tab that shows it (#29.2). A machine-scoped setting
 * (aiGateway.baseUrl, aiGateway.hosting.baseUrl, …) in a remote window, code-server included, lives in
 * the Remote settings: the User tab would say "No Settings Found". `query` (default `key`) searches more
 * than the one setting, e.g. a group whose main setting is `key`.
 */
export async function openSettingWhereItLives(key: string, query = key): Promise<void> {
  if (vscode.env.remoteName && settingScope(key)?.startsWith('machine')) {
    await vscode.commands.executeCommand('workbench.action.openRemoteSettings', { query });
    return;
  }
  await vscode.commands.executeCommand('workbench.action.openSettings', query);
}

/** The `scope` package.json declares for one of this extension's settings. */
export function settingScope(key: string): string | undefined {
  const ext = vscode.extensions.all.find((e) => e.packageJSON?.contributes?.configuration?.properties?.[key] !== undefined);
  const scope: unknown = ext?.packageJSON?.contributes?.configuration?.properties?.[key]?.scope;
  return typeof scope === 'string' ? scope : undefined;
}

function isCancellation(error: unknown): boolean {
  return (
    error instanceof vscode.CancellationError ||
    (typeof error === 'object' && error !== null && (error as { reason?: unknown }).reason === 'aborted')
  );
}
