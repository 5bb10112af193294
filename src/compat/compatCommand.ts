/**
 * "AI Gateway: Check Gateway Compatibility" and "Copy Compatibility Report" (issue 39, item 15),
 * loaded on the first call (src/compat/registerCompat.ts). The probes and the report are
 * vscode-free (src/core/compat/); this is the glue: settings and credentials in, progress with
 * Cancel, the question before the one billed request, the spend ledger, and the report shown as a
 * read-only Markdown document (`ai-gateway-compat:` scheme) with Copy Report.
 */
import * as vscode from 'vscode';
import type { CommandRegistrar } from '../platform/commands';
import { effectiveBaseUrl, settings } from '../platform/config';
import { readRecentIds } from '../core/account/recentIds';
import { runCompatCheck } from '../core/compat/compatCheck';
import { counts, renderReport } from '../core/compat/report';
import { DisposableStore } from '../core/disposables';
import { hostingBaseUrl } from '../platform/accountClients';
import { withTokenSignal } from '../platform/cancellation';
import type { CompatServices } from './registerCompat';
import { askBilledProbe } from './billedApproval';

export const COMPAT_SCHEME = 'ai-gateway-compat';
export const REPORT_URI = vscode.Uri.from({ scheme: COMPAT_SCHEME, path: '/Gateway Compatibility Report.md' });

/** Where the hosting commands keep the ids the user gave (src/account/idPicker.ts, the same key). */
const RECENT_IDS_KEY = 'aiGateway.hosting.recentIds';

/** The read-only document: content-provider documents cannot be edited or saved. */
class ReportProvider implements vscode.TextDocumentContentProvider {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  /** The rendered (scrubbed) report; what Copy Report copies. */
  text = '';

  set(text: string): void {
    this.text = text;
    this.changed.fire(REPORT_URI);
  }

  provideTextDocumentContent(): string {
    return this.text || vscode.l10n.t('Run "AI Gateway: Check Gateway Compatibility" to fill this report.');
  }

  dispose(): void {
    this.changed.dispose();
  }
}

export function registerCompatCommands(services: CompatServices, registerCommand: CommandRegistrar): vscode.Disposable {
  const store = new DisposableStore();
  const provider = store.add(new ReportProvider());
  store.add(vscode.workspace.registerTextDocumentContentProvider(COMPAT_SCHEME, provider));

  const copy = async (): Promise<void> => {
    if (!provider.text) {
      void vscode.window.showInformationMessage(vscode.l10n.t('No compatibility report yet: run "AI Gateway: Check Gateway Compatibility" first.'));
      return;
    }
    await vscode.env.clipboard.writeText(provider.text);
    void vscode.window.showInformationMessage(vscode.l10n.t('Compatibility report copied, without keys, tokens or passwords.'));
  };

  store.add(
    registerCommand('aiGateway.compat.check', async () => {
      const installs = readRecentIds(services.context.globalState.get(RECENT_IDS_KEY)).filter((r) => r.kind === 'install');
      const hosting = hostingBaseUrl();
      const version = String((services.context.extension.packageJSON as { version?: unknown }).version ?? '0.0.0');
      const net = await services.network();
      const result = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Checking gateway compatibility'), cancellable: true },
        (progress, token) =>
          withTokenSignal(token, (signal) =>
            runCompatCheck(
              {
                gatewayUrl: effectiveBaseUrl().url,
                fetch: (url, init) => net.fetch(url, init),
                userAgent: services.userAgent,
                clientVersion: version,
                getKey: () => services.keys.getKey(),
                getJwt: () => services.accountSecrets.getJwt(),
                analyticsProjectId: settings.analyticsProjectId.get(),
                hostingUrl: hosting.url,
                getHostingCredentials: () => services.accountSecrets.getHostingCredentials(),
                installId: installs[0]?.id,
                approve: async (offer) => (await askBilledProbe(offer)) && (await services.budget.allowSend(vscode.l10n.t('Gateway compatibility check'))),
                onStep: (step, index, total) => progress.report({ message: step, increment: index === 0 ? 0 : 100 / total }),
              },
              signal,
            ),
          ),
      );
      if (result.billed) {
        await services.spend.recordSpend({ model: result.billed.model, operation: 'compat-check', usage: result.billed.usage, pricing: result.billed.pricing, requestId: result.billed.requestId, ...(result.billed.estimated ? { estimated: result.billed.estimated } : {}) });
      }
      provider.set(renderReport(result.report, result.secrets));
      const doc = await vscode.workspace.openTextDocument(REPORT_URI);
      await vscode.languages.setTextDocumentLanguage(doc, 'markdown');
      await vscode.window.showTextDocument(doc, { preview: false });
      const c = counts(result.report);
      const copyAction = vscode.l10n.t('Copy Report');
      const previewAction = vscode.l10n.t('Open Preview');
      const summary = vscode.l10n.t('Gateway compatibility: {0} held, {1} not held, {2} not checked, {3} without a usable answer.', c.held, c.not_held, c.not_checked, c.no_answer);
      const show = c.not_held > 0 || c.no_answer > 0 ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
      const choice = await show(summary, copyAction, previewAction);
      if (choice === copyAction) await copy();
      else if (choice === previewAction) await vscode.commands.executeCommand('markdown.showPreview', REPORT_URI);
    }),
  );
  store.add(registerCommand('aiGateway.compat.copyReport', copy));
  return store;
}
