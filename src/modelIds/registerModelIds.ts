/**
 * Model ids in any file (issue 31): hover, completion, diagnostics and quick fixes for `<owner>/<model>`
 * ids in code, configuration and prose. At activation only the providers and a document listener are
 * registered (this file); the scanner, the catalog's verdicts and the providers' bodies are in
 * ./modelIdsFeature.ts, imported on the first document event or provider call. The workspace-wide
 * replacement is a command (./modelIdsCommands.ts), imported on its first call.
 */
import * as vscode from 'vscode';
import { registerFeatureCommands } from '../platform/commands';
import { DisposableStore } from '../core/disposables';
import { atAskedVersion } from '../core/modelIds/sameVersion';
import type { Services } from '../services';
import type { ModelIdsFeature } from './modelIdsFeature';

/** Every text document on disk or not yet saved; the per-language setting decides per document. */
const SELECTOR: vscode.DocumentSelector = [{ scheme: 'file' }, { scheme: 'untitled' }];

/** What the modelIds feature uses of the services (src/services.ts composes them; only extension.ts passes the whole). */
export type ModelIdsServices = Pick<Services, 'catalog' | 'keys' | 'log'>;

export function registerModelIds(services: ModelIdsServices): vscode.Disposable {
  const store = new DisposableStore();
  let feature: Promise<ModelIdsFeature> | undefined;
  let ready: ModelIdsFeature | undefined;
  const load = (): Promise<ModelIdsFeature> =>
    (feature ??= import('./modelIdsFeature').then((m) => (ready = store.add(new m.ModelIdsFeature(services))))).catch((e: unknown) => {
      feature = undefined;
      throw e;
    });
  // Each answer is about the document as it was asked (../core/modelIds/sameVersion.ts): once loaded, at
  // once; before, only if no keystroke arrived while the code loaded.
  store.add(vscode.languages.registerHoverProvider(SELECTOR, { provideHover: (doc, pos, token) => atAskedVersion(doc, ready, load, (f) => f.provideHover(doc, pos, token), () => undefined) }));
  store.add(
    vscode.languages.registerCompletionItemProvider(
      SELECTOR,
      { provideCompletionItems: (doc, pos, token) => atAskedVersion<ModelIdsFeature, vscode.CompletionItem[] | vscode.CompletionList | undefined>(doc, ready, load, (f) => f.provideCompletionItems(doc, pos, token), () => new vscode.CompletionList([], true)) },
      '"',
      "'",
      '`',
      '/',
      '=',
    ),
  );
  store.add(vscode.languages.registerCodeActionsProvider(SELECTOR, { provideCodeActions: (doc, range, context) => atAskedVersion(doc, ready, load, (f) => f.provideCodeActions(doc, range, context), () => []) }, { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] }));
  // The diagnostics start with the first open document; the import is off the activation path.
  const start = (): void => void load().catch((e: unknown) => services.log.warn(`Model ids: ${e instanceof Error ? e.message : String(e)}`));
  if (vscode.workspace.textDocuments.length > 0) setTimeout(start, 0);
  else {
    const once = vscode.workspace.onDidOpenTextDocument(() => {
      once.dispose();
      start();
    });
    store.add(once);
  }
  store.add(
    registerFeatureCommands('modelIds', async (register) => {
      const { registerModelIdsCommands } = await import('./modelIdsCommands');
      return registerModelIdsCommands(services, register);
    }),
  );
  return new vscode.Disposable(() => store.dispose());
}
