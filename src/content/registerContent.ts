/**
 * Content commands where people write posts and pages (Markdown, HTML, PHP, JSX): Generate Alt Text,
 * Summarise and Suggest Categories and Tags, in the editor context menu, the explorer context menu and
 * the palette; plus the missing-alt diagnostics and their quick fixes. The work itself is in
 * src/core/content (vscode-free); this folder is the glue.
 */
import * as vscode from 'vscode';
import { type CommandId, registerCommand } from '../commands';
import { DisposableStore } from '../core/lifecycle';
import type { Services } from '../services';
import { altTextAtCursor, altTextForImageFile, fixAllAltText, isImageFile, isImageTarget } from './altTextCommands';
import { AltTextDiagnostics } from './altTextDiagnostics';
import { SummaryResults } from './summaryResult';
import { suggestTaxonomyCommand, summariseCommand } from './textCommands';

export function registerContent(services: Services): vscode.Disposable {
  const store = new DisposableStore();
  const results = store.add(new SummaryResults());
  store.add(new AltTextDiagnostics(services.log));
  const command = (id: CommandId, fn: (arg?: unknown) => unknown) => store.add(registerCommand(id, fn));

  // Argument: nothing (palette: cursor), a Uri (explorer or editor context menu), or an ImageTarget (quick fix).
  command('aiGateway.content.generateAltText', async (arg) => {
    if (isImageTarget(arg)) return altTextAtCursor(services, arg);
    if (arg instanceof vscode.Uri && (await isImageFile(services, arg))) return altTextForImageFile(services, arg);
    return altTextAtCursor(services);
  });
  command('aiGateway.content.fixAllAltText', (arg) => fixAllAltText(services, arg instanceof vscode.Uri ? arg : undefined));
  command('aiGateway.content.summarize', (arg) => summariseCommand(services, results, arg));
  command('aiGateway.content.suggestTaxonomy', (arg) => suggestTaxonomyCommand(services, arg));

  return new vscode.Disposable(() => store.dispose());
}
