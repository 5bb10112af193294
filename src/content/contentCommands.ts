/**
 * The content commands' handlers (imported on the first call; registered through
 * the registrar of src/platform/commands.ts registerFeatureCommands): Generate Alt Text, Fix All Alt Text,
 * Summarise, Suggest Categories and Tags, Rewrite Selection, and the actions on a proposed change
 * (Accept, Choose Changes, Discard; the proposals themselves are src/platform/proposedChange.ts).
 */
import * as vscode from 'vscode';
import type { CommandId, CommandRegistrar } from '../platform/commands';
import { DisposableStore } from '../core/disposables';
import type { ContentServices } from './registerContent';
import { altTextAtCursor, altTextForImageFile, fixAllAltText, isImageFile, isImageTarget } from './altTextCommands';
import type { SummaryResults } from './summaryResult';
export { createSummaryResults } from './summaryResult';
import { suggestTaxonomyCommand, summariseCommand } from './textCommands';
import { acceptProposal, bindProposals, chooseProposalChanges, discardProposal } from '../platform/proposedChange';
import { rewriteSelectionCommand } from './rewriteCommand';

export function registerContentCommands(services: ContentServices, results: SummaryResults, registerCommand: CommandRegistrar): vscode.Disposable {
  const store = new DisposableStore();
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
  command('aiGateway.content.rewriteSelection', () => rewriteSelectionCommand(services));
  // From the diff's editor title (the proposal's URI) or the palette (the active or latest proposal).
  bindProposals(services);
  const proposal = (arg: unknown) => (arg instanceof vscode.Uri ? arg : undefined);
  command('aiGateway.content.acceptChange', (arg) => acceptProposal(proposal(arg)));
  command('aiGateway.content.chooseChanges', (arg) => chooseProposalChanges(proposal(arg)));
  command('aiGateway.content.discardChange', (arg) => discardProposal(proposal(arg)));
  return store;
}
