/**
 * What the three content commands share: a cancellable progress notification whose Cancel aborts the
 * request, the model for the capability, the core dependencies, and errors turned into one
 * notification (src/platform/errorNotifications.ts) with Retry where it helps.
 */
import * as vscode from 'vscode';
import type { ContentCapability, ContentDeps } from '../core/content/contentClient';
import { showErrorNotification } from '../platform/errorNotifications';
import type { ContentServices } from './registerContent';
import { confirmContentSend } from '../platform/contentSend';
import { contentModel } from '../platform/defaultModel';
import { recordingClient } from '../platform/recordingClient';
import { withTokenSignal } from '../platform/cancellation';
import { proposeChange } from '../platform/proposedChange';
import { applyEdits } from '../core/diff/lineDiff';
import { finishChecked } from '../core/content/finishCheck';
import { replyEndText } from '../core/gateway/finishReason';
import { confirmRisky } from '../platform/safeDialog';

/**
 * Runs `work` under a progress notification with Cancel. Resolves to undefined when it failed or was
 * cancelled (the error, if any, has been shown); `retry` is offered for transient failures.
 * `promptText` is the text the request sends: when it is large, its cost is shown before sending
 * (src/usage/costConfirm.ts) and the user may stop there.
 */
export async function runContentTask<T>(
  services: ContentServices,
  capability: ContentCapability,
  title: string,
  work: (deps: ContentDeps, progress: vscode.Progress<{ message?: string; increment?: number }>) => Promise<T>,
  retry?: () => unknown,
  promptText?: string,
): Promise<T | undefined> {
  // Budget guard before anything billed is sent; over budget, the user must choose "Send anyway".
  // Then, for a large prompt, its cost (src/platform/contentSend.ts, shared with the @gateway participant).
  if (!(await confirmContentSend(services, title.replace(/…$/, ''), async () => (await contentModel(services, capability))?.id, promptText))) return undefined;
  // Every chat reply of the task is checked for how it ended (cut off by the output limit, ...).
  let checked: ReturnType<typeof finishChecked> | undefined;
  let result: T;
  try {
    result = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, async (progress, token) => {
      return withTokenSignal(token, async (signal) => {
        const [gateway, model] = await Promise.all([services.getClient(), contentModel(services, capability)]);
        checked = finishChecked(recordingClient(gateway, services, capability));
        if (signal.aborted) throw new vscode.CancellationError();
        return await work({ client: checked.client, log: services.log, model, signal }, progress);
      });
    });
  } catch (e) {
    services.log.warn(`${title} failed: ${e instanceof Error ? e.message : String(e)}`);
    void showErrorNotification(e, { context: title.replace(/…$/, ''), retry });
    return undefined;
  }
  // A truncated result is never used silently: the user keeps it only by choosing so (Discard is the default).
  const end = checked?.ends()[0];
  if (end) {
    services.log.warn(`${title} ended with finish reason ${end.reason}; asking before using the result.`);
    const use = await confirmRisky({
      message: vscode.l10n.t('{0}: the result may be incomplete. {1}', title.replace(/…$/, ''), replyEndText(end)),
      detail: vscode.l10n.t('Nothing was inserted. Use the result anyway, or discard it?'),
      safe: vscode.l10n.t('Discard'),
      action: vscode.l10n.t('Use Anyway'),
    });
    if (!use) return undefined;
  }
  // A result made by the chat fallback says so (contentClient.ts: only when the route is missing).
  const fallback = (result as { fallback?: unknown } | undefined)?.fallback;
  if (typeof fallback === 'string') void vscode.window.showInformationMessage(fallback);
  return result;
}

/**
 * Proposes core offset edits (against the document's text now) as a diff to accept or discard
 * (src/platform/proposedChange.ts): written as one WorkspaceEdit, so one undo reverts them, and only
 * when accepted. True when written.
 */
export async function proposeOffsetEdits(document: vscode.TextDocument, edits: ReadonlyArray<{ start: number; end: number; newText: string }>, title: string): Promise<boolean> {
  const sorted = [...edits].sort((a, b) => a.start - b.start);
  const newText = applyEdits(document.getText(), sorted);
  return (await proposeChange(document, newText, { title })) === 'accepted';
}
