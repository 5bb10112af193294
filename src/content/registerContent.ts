/**
 * Content commands where people write posts and pages (Markdown, HTML, PHP, JSX): Generate Alt Text,
 * Summarise and Suggest Categories and Tags, in the editor context menu, the explorer context menu and
 * the palette; plus the missing-alt diagnostics and their quick fixes. The work itself is in
 * src/core/content (vscode-free); this folder is the glue. At activation: the diagnostics, their quick
 * fixes and the summary documents; the commands' bodies load with dist/editor.js on first use.
 */
import * as vscode from 'vscode';
import { registerLazyCommands } from '../commands';
import { DisposableStore } from '../core/lifecycle';
import type { Services } from '../services';
import { AltTextDiagnostics } from './altTextDiagnostics';
import { contentCommands } from './contentApi';
import { SummaryResults } from './summaryResult';

export function registerContent(services: Services): vscode.Disposable {
  const store = new DisposableStore();
  const results = store.add(new SummaryResults());
  store.add(new AltTextDiagnostics(services.log));
  // The commands' bodies (contentCommands.ts) are in dist/editor.js, loaded on the first call.
  store.add(
    registerLazyCommands(['aiGateway.content.generateAltText', 'aiGateway.content.fixAllAltText', 'aiGateway.content.summarize', 'aiGateway.content.suggestTaxonomy'], (register) =>
      contentCommands().registerContentCommands(services, results, register),
    ),
  );
  return new vscode.Disposable(() => store.dispose());
}
