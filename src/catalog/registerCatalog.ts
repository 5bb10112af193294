/**
 * The model catalog feature: the "Models" view in the AI Gateway container, its filters and the
 * per-model actions. Data comes from `services.catalog` (src/platform/catalogService.ts). At activation: the
 * view, its state, the schema documents and the cheap view actions; the other commands' bodies
 * (src/catalog/catalogCommands.ts) are imported on first use.
 */
import * as vscode from 'vscode';
import { registerFeatureCommands } from '../platform/commands';
import { settings } from '../platform/config';
import type { Services } from '../services';
import { MODELS_VIEW_ID } from '../platform/catalogService';
import { CatalogViewState } from '../core/catalog/viewState';
import { DisposableStore } from '../core/disposables';
import { MODEL_URI_SCHEME, ModelTreeProvider, viewMessage } from './modelTree';
import { SCHEMA_SCHEME, SchemaContentProvider } from './schemaProvider';

/** Implemented by the chat feature; invoked with the model id. */
const FILTERED_CONTEXT = 'aiGateway.catalog.filtered';

/** What the catalog feature uses of the services (src/services.ts composes them; only extension.ts passes the whole). */
export type CatalogServices = Pick<Services, 'catalog' | 'context' | 'getClient'>;

export function registerCatalog(services: CatalogServices): vscode.Disposable {
  const store = new DisposableStore();
  const catalog = services.catalog;
  const view = store.add(new CatalogViewState(services.context.globalState));
  const tree = store.add(new ModelTreeProvider(catalog, view));
  const treeView = store.add(vscode.window.createTreeView(MODELS_VIEW_ID, { treeDataProvider: tree, showCollapseAll: true }));
  const schemas = new SchemaContentProvider(() => services.getClient());

  const updateChrome = () => {
    treeView.description = view.description();
    treeView.message = viewMessage(catalog, view, tree.getRoots());
    void vscode.commands.executeCommand('setContext', FILTERED_CONTEXT, view.isFiltered);
  };
  store.add(tree.onDidChangeTreeData(updateChrome));
  updateChrome();
  store.add(
    treeView.onDidChangeVisibility((e) => {
      if (e.visible) void catalog.ensureLoaded();
    }),
  );

  store.add(vscode.workspace.registerTextDocumentContentProvider(SCHEMA_SCHEME, schemas));
  // Removed models (shown only with aiGateway.catalog.showRemoved) are greyed out through their resourceUri.
  store.add(
    vscode.window.registerFileDecorationProvider({
      provideFileDecoration: (uri) =>
        uri.scheme === MODEL_URI_SCHEME ? { color: new vscode.ThemeColor('disabledForeground'), tooltip: vscode.l10n.t('Removed: requests naming this model are rejected') } : undefined,
    }),
  );

  // The cheap view actions at once; the other commands' bodies (src/catalog/catalogCommands.ts) on the first call.
  store.add(
    registerFeatureCommands('catalog', async (register) => (await import('./catalogCommands')).registerCatalogCommands({ catalog, view, schemas }, register), {
      'aiGateway.catalog.refresh': () => catalog.refresh(),
      'aiGateway.catalog.toggleGrouping': async () => {
        await view.cycleGrouping();
        vscode.window.setStatusBarMessage(vscode.l10n.t('Models grouped {0}', view.groupingLabel()), 3000);
      },
      'aiGateway.catalog.clearFilter': () => view.clear(),
    }),
  );

  store.add(
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(settings.catalogShowRemoved.key)) updateChrome();
    }),
  );
  return store;
}
