/**
 * Content commands where people write posts and pages (Markdown, HTML, PHP, JSX): Generate Alt Text,
 * Summarise and Suggest Categories and Tags, in the editor context menu, the explorer context menu and
 * the palette; plus the missing-alt diagnostics and their quick fixes. The work itself is in
 * src/core/content (vscode-free); this folder is the glue. At activation: the diagnostics, their quick
 * fixes and the summary documents' provider; the commands' bodies and the summaries themselves
 * (src/content/summaryResult.ts) load with dist/editor.js on first use.
 */
import * as vscode from 'vscode';
import { registerLazyCommands } from '../commands';
import { DisposableStore } from '../core/lifecycle';
import type { Services } from '../services';
import { AltTextDiagnostics } from './altTextDiagnostics';
import { contentCommands } from './contentApi';
import type { SummaryResults } from './summaryResult';
import { SUMMARY_GONE, SUMMARY_SCHEME } from './summaryScheme';

export function registerContent(services: Services): vscode.Disposable {
  const store = new DisposableStore();
  let results: SummaryResults | undefined;
  const summaries = (): SummaryResults => (results ??= store.add(contentCommands().createSummaryResults()));
  // Summaries live in memory: before the first Summarise of this window (a tab restored after a reload) there is none.
  store.add(vscode.workspace.registerTextDocumentContentProvider(SUMMARY_SCHEME, { provideTextDocumentContent: (uri) => results?.provideTextDocumentContent(uri) ?? SUMMARY_GONE }));
  store.add(new AltTextDiagnostics(services.log));
  // The commands' bodies (contentCommands.ts) are in dist/editor.js, loaded on the first call.
  store.add(
    registerLazyCommands(['aiGateway.content.generateAltText', 'aiGateway.content.fixAllAltText', 'aiGateway.content.summarize', 'aiGateway.content.suggestTaxonomy'], (register) =>
      contentCommands().registerContentCommands(services, summaries(), register),
    ),
  );
  store.add(
    registerLazyCommands(['aiGateway.content.summary.insertBelow', 'aiGateway.content.summary.replaceSelection', 'aiGateway.content.summary.copy'], (register) =>
      summaries().registerActions(register),
    ),
  );
  return new vscode.Disposable(() => store.dispose());
}
