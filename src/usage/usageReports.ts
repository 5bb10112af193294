/**
 * The read-only virtual markdown documents of usage reports (scheme `ai-gateway-usage`), registered
 * at activation so a report tab restored with the window gets an answer; the commands that fill it
 * are in usageCommands.ts (imported on first use).
 */
import * as vscode from 'vscode';

export const USAGE_SCHEME = 'ai-gateway-usage';

export class UsageReports implements vscode.TextDocumentContentProvider {
  private readonly reports = new Map<string, string>();
  private readonly emitter = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.emitter.event;
  private counter = 0;

  add(title: string, markdown: string): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: USAGE_SCHEME, path: `/${title.replace(/[\\/:*?"<>|]/g, '-')}.md`, query: String(++this.counter) });
    this.reports.set(uri.toString(), markdown);
    return uri;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.reports.get(uri.toString()) ?? `# ${vscode.l10n.t('Usage report')}\n\n${vscode.l10n.t('This report is no longer available: run **AI Gateway: Show Usage** again.')}\n`;
  }

  dispose(): void {
    this.emitter.dispose();
    this.reports.clear();
  }
}

