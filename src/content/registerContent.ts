/**
 * Content commands where people write posts and pages (Markdown, HTML, PHP, JSX): Generate Alt Text,
 * Summarise and Suggest Categories and Tags, in the editor context menu, the explorer context menu and
 * the palette; plus the missing-alt diagnostics and their quick fixes. The work itself is in
 * src/core/content (vscode-free); this folder is the glue. At activation: the diagnostics, their quick
 * fixes and the summary documents' provider; the commands' bodies and the summaries themselves
 * (src/content/summaryResult.ts) are imported on first use.
 */
import * as vscode from 'vscode';
import { registerFeatureCommands } from '../platform/commands';
import { DisposableStore } from '../core/disposables';
import type { Services } from '../services';
import { AltTextDiagnostics } from './altTextDiagnostics';
import type { SummaryResults } from './summaryResult';
import { summaryGone, SUMMARY_SCHEME } from './summaryScheme';

/** What the content feature uses of the services (src/services.ts composes them; only extension.ts passes the whole). */
export type ContentServices = Pick<Services, 'budget' | 'catalog' | 'getClient' | 'keys' | 'log' | 'own' | 'spend'>;

export function registerContent(services: ContentServices): vscode.Disposable {
  const store = new DisposableStore();
  let results: SummaryResults | undefined;
  const summaries = async (): Promise<SummaryResults> => {
    const { createSummaryResults } = await import('./contentCommands');
    return (results ??= store.add(createSummaryResults()));
  };
  // Summaries live in memory: before the first Summarise of this window (a tab restored after a reload) there is none.
  store.add(vscode.workspace.registerTextDocumentContentProvider(SUMMARY_SCHEME, { provideTextDocumentContent: (uri) => results?.provideTextDocumentContent(uri) ?? summaryGone() }));
  store.add(new AltTextDiagnostics(services.log));
  // The commands' bodies (contentCommands.ts) and the summaries' actions are imported on the first call.
  store.add(
    registerFeatureCommands('content', async (register) => {
      const { registerContentCommands } = await import('./contentCommands');
      const results = await summaries();
      return vscode.Disposable.from(registerContentCommands(services, results, register), results.registerActions(register));
    }),
  );
  return new vscode.Disposable(() => store.dispose());
}
