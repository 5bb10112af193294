/**
 * Rewrite Selection (Ctrl+Alt+E / Cmd+Alt+E with a selection): asks how to rewrite it, streams the
 * model's rewrite into a diff beside the document (src/platform/proposedChange.ts) and writes it only
 * when accepted, as one edit. Like the other content commands it passes the budget guard and shows a
 * large prompt's cost before sending (runContentTask), can be cancelled from its progress
 * notification, and records the reply's price in the spend ledger. The request goes the model's route
 * (chatRouteFor: chat completions, or the messages route for a model that speaks only `messages`). On Discard, cancel or failure the
 * document is left exactly as it was.
 */
import * as vscode from 'vscode';
import type { ContentServices } from './registerContent';
import { MAX_REWRITE_CHARS, rewriteMessages } from '../core/content/rewrite';
import { fitReplacement, unwrapFence } from '../core/diff/replacement';
import type { Usage } from '../core/gateway/types';
import { formatCredits, usageCostNano } from '../core/pricing';
import { ContentError } from '../core/content/contentErrors';
import { chatRouteFor } from '../core/gateway/chatRoute';
import { GatewayError } from '../core/http/errors';
import { startProposal, type ProposalHandle } from '../platform/proposedChange';
import { runContentTask } from './contentRunner';
import { displayLocale } from '../core/l10n';

let lastInstruction = '';

export async function rewriteSelectionCommand(services: ContentServices): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.selection.isEmpty) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Select the text to rewrite first, then run Rewrite Selection (Ctrl+Alt+E).'));
    return;
  }
  const doc = editor.document;
  const start = doc.offsetAt(editor.selection.start);
  const end = doc.offsetAt(editor.selection.end);
  const passage = doc.getText().slice(start, end);
  if (passage.length > MAX_REWRITE_CHARS) {
    void vscode.window.showWarningMessage(vscode.l10n.t('The selection is longer than {0} characters; select less to rewrite it.', MAX_REWRITE_CHARS.toLocaleString(displayLocale())));
    return;
  }
  const instruction = await vscode.window.showInputBox({
    title: vscode.l10n.t('Rewrite Selection'),
    prompt: vscode.l10n.t('How should the selected text change? The rewrite is shown as a diff to accept or discard.'),
    placeHolder: vscode.l10n.t('e.g. Make it shorter and friendlier'),
    value: lastInstruction,
    ignoreFocusOut: true,
    validateInput: (v) => (v.trim() ? undefined : vscode.l10n.t('Say how to rewrite the text.')),
  });
  if (!instruction?.trim()) return;
  lastInstruction = instruction.trim();
  const messages = rewriteMessages(passage, instruction, doc.languageId);
  const eol = doc.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n';
  let handle: ProposalHandle | undefined;
  let cost: string | undefined;
  const out = await runContentTask(
    services,
    'summary',
    vscode.l10n.t('Rewriting the selection…'),
    async (deps, progress) => {
      const model = deps.model?.id;
      if (!model) throw new ContentError('no_model', vscode.l10n.t('No text model is available for Rewrite Selection. Set a default summary model with "Set as default" in the model catalog.'));
      const base = doc.getText();
      const before = base.slice(0, start);
      const after = base.slice(end);
      const proposalOf = (answer: string): string => before + fitReplacement(passage, unwrapFence(answer, passage), eol) + after;
      const stream = await deps.client.streamChatCompletion({ model, messages, stream: true, stream_options: { include_usage: true } }, { signal: deps.signal, route: chatRouteFor(deps.model) });
      handle = await startProposal(doc, { title: vscode.l10n.t('rewrite ({0})', `${instruction.trim().slice(0, 40)}${instruction.trim().length > 40 ? '…' : ''}`) }, services);
      let answer = '';
      let usage: Usage | undefined;
      let shown = 0;
      for await (const chunk of stream) {
        answer += chunk.choices[0]?.delta?.content ?? '';
        if (chunk.usage) usage = chunk.usage;
        // The diff follows the stream (at most every 200 characters, so it does not re-diff each token).
        if (answer.length - shown >= 200) {
          shown = answer.length;
          handle.update(proposalOf(answer));
          progress.report({ message: vscode.l10n.t('{0} characters', answer.length.toLocaleString(displayLocale())) });
        }
      }
      if (usage) {
        const pricing = services.catalog.getModel(model)?.pricing;
        services.spend.record({ model, operation: 'rewrite', usage, pricing, requestId: stream.requestId });
        const nano = pricing ? usageCostNano(pricing, usage) : undefined;
        if (nano !== undefined) cost = formatCredits(nano);
      }
      if (!answer.trim()) throw new GatewayError({ reason: 'protocol', message: vscode.l10n.t('The model returned no rewrite. Nothing was changed.'), requestId: stream.requestId });
      handle.update(proposalOf(answer));
      return answer;
    },
    () => rewriteSelectionCommand(services),
    passage,
  );
  if (out === undefined || !handle) {
    // Cancelled or failed: the diff goes, the document is untouched.
    handle?.cancel();
    return;
  }
  if (cost) services.log.info(`Rewrite Selection: ${cost}.`);
  await handle.review(cost ? vscode.l10n.t('Cost: {0}.', cost) : undefined);
}
