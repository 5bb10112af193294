/**
 * The catalog commands' handlers (imported on the first call of one of them and registered through the
 * registrar of src/platform/commands.ts registerFeatureCommands): filters,
 * Copy Model Id, Open in Chat, Show Schema and Set as Default Model. The view, its state and the
 * schema documents are registered at activation (src/catalog/registerCatalog.ts).
 */
import { isConversational } from '../core/gateway/chatRoute';
import { formatCount } from '../core/words';
import * as vscode from 'vscode';
import { type CommandId, type CommandRegistrar, executeCommand } from '../platform/commands';
import type { CatalogService } from '../platform/catalogService';
import { DEFAULT_MODEL_PURPOSES, purposesFor } from '../core/catalog/defaults';
import { purposeLabel, purposeWord } from '../core/catalog/purposeWords';
import { modelLifecycle } from '../core/catalog/deprecation';
import type { TreeItemDescriptor } from '../core/catalog/tree';
import type { CatalogViewState } from '../core/catalog/viewState';
import { CAPABILITIES, type Model } from '../core/gateway/types';
import { DisposableStore } from '../core/disposables';
import { showErrorNotification } from '../platform/errorNotifications';
import { schemaUri, type SchemaContentProvider } from './schemaProvider';
import { withTokenSignal } from '../platform/cancellation';
import { settings } from '../platform/config';
import { filterModels } from '../core/catalog/tree';
import { capabilityLabel } from '../core/catalog/capabilityWords';

/** A command argument: a tree element, a model, or a model id (from the palette or other commands). */
export type ModelArg = TreeItemDescriptor | Model | string | undefined;

export interface CatalogCommandDeps {
  catalog: CatalogService;
  view: CatalogViewState;
  schemas: SchemaContentProvider;
}

export function registerCatalogCommands(deps: CatalogCommandDeps, registerCommand: CommandRegistrar): vscode.Disposable {
  const store = new DisposableStore();
  const command = (id: CommandId, fn: (...args: never[]) => unknown) => store.add(registerCommand(id, fn));

  command('aiGateway.catalog.filterCapabilities', () => filterCapabilities(deps));
  command('aiGateway.catalog.filterText', () => filterText(deps));
  command('aiGateway.catalog.copyModelId', (arg: ModelArg) => copyModelId(deps, arg));
  command('aiGateway.catalog.openInChat', (arg: ModelArg) => openInChat(deps, arg));
  command('aiGateway.catalog.showSchema', (arg: ModelArg) => showSchema(deps, arg));
  command('aiGateway.catalog.setDefaultModel', (arg: ModelArg) => setDefaultModel(deps, arg));
  return store;
}

/**
 * Filter by capabilities: ticked ones narrow the tree to models having all of them; Escape keeps the filter.
 * Each capability is named in words (#41.10) and counts the models the view lists now that have it
 * (#41.11: the text filter, the ticked capabilities and hidden removed models as the view applies them),
 * so "Messages API 6 models" is the 6 the view shows under it.
 */
export async function filterCapabilities({ catalog, view }: CatalogCommandDeps): Promise<void> {
  const current = new Set<string>(view.capabilities);
  const counts = new Map<string, number>();
  for (const { model } of filterModels(catalog.models, view.filter(settings.catalogShowRemoved.get()), Date.now())) for (const c of new Set(model.capabilities ?? [])) counts.set(c, (counts.get(c) ?? 0) + 1);
  const picks = await vscode.window.showQuickPick(
    CAPABILITIES.map((c) => ({ label: capabilityLabel(c), description: modelCount(counts.get(c) ?? 0), picked: current.has(c), capability: c })),
    { canPickMany: true, title: vscode.l10n.t('Show only models with all of these capabilities'), placeHolder: vscode.l10n.t('Select none to show every model') },
  );
  if (picks) await view.setCapabilities(picks.map((p) => p.capability));
}

/** Filter by text (id or name); Escape keeps the filter. */
export async function filterText({ view }: CatalogCommandDeps): Promise<void> {
  const text = await vscode.window.showInputBox({ title: vscode.l10n.t('Filter models by id or name'), value: view.text, placeHolder: vscode.l10n.t('e.g. gpt, anthropic/') });
  if (text !== undefined) view.setText(text);
}

/** Copy Model Id to the clipboard. */
export async function copyModelId({ catalog }: CatalogCommandDeps, arg: ModelArg): Promise<void> {
  const model = await resolveModel(catalog, arg, vscode.l10n.t('Copy the id of which model?'));
  if (!model) return;
  await vscode.env.clipboard.writeText(model.id);
  vscode.window.setStatusBarMessage(vscode.l10n.t('Copied {0}', model.id), 3000);
}

/** Open in Chat (a conversational model that is not removed). */
export async function openInChat({ catalog }: CatalogCommandDeps, arg: ModelArg): Promise<void> {
  const model = await resolveModel(catalog, arg, vscode.l10n.t('Open which model in chat?'), (m) => isConversational(m));
  if (!model) return;
  if (modelLifecycle(model, Date.now()).state === 'removed') {
    void vscode.window.showWarningMessage(vscode.l10n.t('{0} has been removed: the gateway rejects requests naming it.', model.id));
    return;
  }
  try {
    await executeCommand('aiGateway.chat.openWithModel', model.id);
  } catch (e) {
    void showErrorNotification(e, { context: vscode.l10n.t('Could not open {0} in chat', model.id) });
  }
}

/** Show Schema: loaded under a cancellable progress, then shown as a read-only JSON document. */
export async function showSchema({ catalog, schemas }: CatalogCommandDeps, arg: ModelArg): Promise<void> {
  const model = await resolveModel(catalog, arg, vscode.l10n.t('Show the schema of which model?'));
  if (!model) return;
  try {
    await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Loading the schema of {0}', model.id), cancellable: true },
      (_p, token) => withTokenSignal(token, (signal) => schemas.load(model.id, signal)),
    );
  } catch (e) {
    void showErrorNotification(e, { context: vscode.l10n.t('Could not load the schema of {0}', model.id), retry: () => executeCommand('aiGateway.catalog.showSchema', model.id) });
    return;
  }
  const doc = await vscode.workspace.openTextDocument(schemaUri(model.id));
  if (doc.languageId !== 'json') await vscode.languages.setTextDocumentLanguage(doc, 'json');
  await vscode.window.showTextDocument(doc, { preview: true });
}

/** Set as Default Model for the purposes ticked (only those the model has the capability for). */
export async function setDefaultModel({ catalog }: CatalogCommandDeps, arg: ModelArg): Promise<void> {
  const model = await resolveModel(catalog, arg, vscode.l10n.t('Set which model as a default?'), (m) => purposesFor(m).length > 0);
  if (!model) return;
  const purposes = purposesFor(model);
  if (purposes.length === 0) {
    const needed = DEFAULT_MODEL_PURPOSES.map((p) => purposeWord(p)).join(', ');
    void vscode.window.showInformationMessage(vscode.l10n.t('{0} has none of the capabilities a default model is used for ({1}).', model.id, needed));
    return;
  }
  const life = modelLifecycle(model, Date.now());
  const picked = await vscode.window.showQuickPick(
    purposes.map((p) => {
      const current = catalog.getDefaultModel(p);
      return { label: purposeLabel(p), purpose: p, description: current ? vscode.l10n.t('current: {0}', current) : vscode.l10n.t('not set'), picked: current === model.id };
    }),
    {
      canPickMany: true,
      title: vscode.l10n.t('Use {0} as the default model for…', model.display_name || model.id),
      placeHolder:
        life.state === 'deprecated'
          ? vscode.l10n.t('This model is deprecated: prefer its alternative for new work')
          : vscode.l10n.t('Only purposes this model has the capability for are listed'),
    },
  );
  if (!picked?.length) return;
  for (const p of picked) await catalog.setDefaultModel(p.purpose, model.id);
  void vscode.window.showInformationMessage(vscode.l10n.t('{0} is now the default model for {1}.', model.id, picked.map((p) => purposeWord(p.purpose)).join(', ')));
}

function modelCount(n: number): string {
  return n === 1 ? vscode.l10n.t('1 model') : vscode.l10n.t('{0} models', formatCount(n));
}

/** The model a command acts on: from the tree element or id given, else picked by the user. */
async function resolveModel(catalog: CatalogService, arg: ModelArg, placeHolder: string, eligible: (m: Model) => boolean = () => true): Promise<Model | undefined> {
  if (typeof arg === 'string') {
    const m = catalog.getModel(arg);
    if (!m) void vscode.window.showWarningMessage(vscode.l10n.t('Model {0} is not in the catalog.', arg));
    return m;
  }
  if (arg && 'kind' in arg) return arg.kind === 'model' ? arg.model : undefined;
  if (arg && 'id' in arg) return arg;
  await catalog.ensureLoaded();
  const now = Date.now();
  const items = catalog.models
    .filter((m) => eligible(m) && modelLifecycle(m, now).state !== 'removed')
    .map((m) => ({ label: m.display_name || m.id, description: m.id, model: m }));
  const picked = await vscode.window.showQuickPick(items, { placeHolder, matchOnDescription: true });
  return picked?.model;
}
