/**
 * The question before the compatibility check's one billed request (issue 39, item 15): a modal
 * whose default and focused button is "Don't Send" (src/platform/safeDialog.ts puts the safe choice first);
 * only an explicit click on "Send Billed Request" sends it. The estimated cost is in the question.
 */
import * as vscode from 'vscode';
import type { BilledOffer } from '../core/compat/messagesProbe';
import { formatCredits } from '../core/pricing';
import { confirmRisky } from '../platform/safeDialog';

export function askBilledProbe(offer: BilledOffer): Promise<boolean> {
  return confirmRisky({
    message: vscode.l10n.t('Send one tiny billed request to check the messages stream?'),
    detail: vscode.l10n.t('Model {0}, at most {1} output tokens: about {2}, charged to your account. Without it, the stream is reported as not checked.', offer.model, offer.maxTokens, formatCredits(offer.estimateNano)),
    safe: vscode.l10n.t("Don't Send"),
    action: vscode.l10n.t('Send Billed Request'),
  });
}
