/**
 * Turns any failure (usually a GatewayError) into one notification with the actions that help:
 * "Set API Key" on 401, "Retry" when the caller can retry and it makes sense, "Open Settings" when
 * the gateway cannot be reached, "Copy Request ID"
 * whenever the gateway sent one (users quote it to support), "Show Log" otherwise. Every feature
 * reuses this instead of writing its own words for errors (see src/errorText.ts).
 */
import * as vscode from 'vscode';
import { executeCommand } from './commands';
import { describeError } from './errorText';

export interface ErrorNotificationOptions {
  /** What was being done, e.g. "Loading models". */
  context?: string;
  /** Offered as "Retry" when the error is transient. */
  retry?: () => unknown;
  /** 'warning' for failures the user can shrug off. Default 'error'. */
  severity?: 'error' | 'warning';
}

const SET_KEY = 'Set API Key';
const RETRY = 'Retry';
const COPY_ID = 'Copy Request ID';
const SHOW_LOG = 'Show Log';
const OPEN_SETTINGS = 'Open Settings';

/** Shows the notification; resolves after the user's choice was acted on (or the toast was dismissed). */
export async function showErrorNotification(error: unknown, options: ErrorNotificationOptions = {}): Promise<void> {
  const text = describeError(error, options.context);
  if (isCancellation(error)) return;
  const actions: string[] = [];
  if (text.suggestSetKey) actions.push(SET_KEY);
  if (text.suggestRetry && options.retry) actions.push(RETRY);
  if (text.suggestSettings) actions.push(OPEN_SETTINGS);
  if (text.requestId) actions.push(COPY_ID);
  else actions.push(SHOW_LOG);
  const message = text.requestId ? `${text.message} (request ${text.requestId})` : text.message;
  const show = options.severity === 'warning' ? vscode.window.showWarningMessage : vscode.window.showErrorMessage;
  const choice = await show(message, ...actions);
  switch (choice) {
    case SET_KEY:
      await executeCommand('aiGateway.switchApiKey');
      break;
    case RETRY:
      await options.retry?.();
      break;
    case COPY_ID:
      if (text.requestId) {
        await vscode.env.clipboard.writeText(text.requestId);
        void vscode.window.showInformationMessage(`Copied request ID ${text.requestId}.`);
      }
      break;
    case OPEN_SETTINGS:
      await vscode.commands.executeCommand('workbench.action.openSettings', 'aiGateway.baseUrl');
      break;
    case SHOW_LOG:
      await executeCommand('aiGateway.showLog');
      break;
  }
}

function isCancellation(error: unknown): boolean {
  return (
    error instanceof vscode.CancellationError ||
    (typeof error === 'object' && error !== null && (error as { reason?: unknown }).reason === 'aborted')
  );
}
