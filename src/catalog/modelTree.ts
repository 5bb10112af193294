/**
 * The "Models" tree: maps the pure descriptors of src/core/catalog/tree.ts onto TreeItems. Tooltips
 * are built lazily (resolveTreeItem), so a 2,000-model catalog renders without building 2,000
 * markdown tooltips.
 */
import * as vscode from 'vscode';
import { settings } from '../platform/config';
import type { CatalogService } from '../platform/catalogService';
import { formatAge } from '../core/catalog/catalogStore';
import type { ModelDetails } from '../core/catalog/details';
import { catalogTree, type ModelItemDescriptor, type TreeItemDescriptor } from '../core/catalog/tree';
import type { CatalogViewState } from '../core/catalog/viewState';
import { Disposable } from '../core/disposables';

/** Scheme of the resourceUri given to removed models, so a FileDecorationProvider can grey them out. */
export const MODEL_URI_SCHEME = 'ai-gateway-model';

export class ModelTreeProvider extends Disposable implements vscode.TreeDataProvider<TreeItemDescriptor> {
  private readonly _onDidChangeTreeData = this._register(new vscode.EventEmitter<void>());
  readonly onDidChangeTreeData = this._onDidChangeTreeData.event;
  private roots: TreeItemDescriptor[] | undefined;

  constructor(
    private readonly catalog: CatalogService,
    private readonly view: CatalogViewState,
  ) {
    super();
    this._register(catalog.onDidChange(() => this.invalidate()));
    this._register(view.onDidChange(() => this.invalidate()));
    this._register(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(settings.catalogShowRemoved.key)) this.invalidate();
      }),
    );
  }

  invalidate(): void {
    this.roots = undefined;
    this._onDidChangeTreeData.fire();
  }

  /** The current root items (built on demand); also used to compute the view message. */
  getRoots(): TreeItemDescriptor[] {
    this.roots ??= catalogTree(this.catalog.models, this.view.filter(settings.catalogShowRemoved.get()), this.view.grouping, Date.now());
    return this.roots;
  }

  getChildren(element?: TreeItemDescriptor): TreeItemDescriptor[] {
    if (!element) {
      // First view: fetch once per session; the cached catalog is shown meanwhile.
      void this.catalog.ensureLoaded();
      return this.getRoots();
    }
    return element.kind === 'group' ? element.children : [];
  }

  getParent(element: TreeItemDescriptor): TreeItemDescriptor | undefined {
    if (element.kind === 'group') return undefined;
    return this.getRoots().find((r) => r.kind === 'group' && r.children.includes(element));
  }

  getTreeItem(element: TreeItemDescriptor): vscode.TreeItem {
    if (element.kind === 'group') {
      const item = new vscode.TreeItem(element.label, vscode.TreeItemCollapsibleState.Expanded);
      item.id = element.key;
      item.description = element.description;
      item.contextValue = element.unknown ? 'group.unknown' : 'group';
      item.iconPath = new vscode.ThemeIcon(this.view.grouping === 'provider' ? 'organization' : 'symbol-property');
      if (element.unknown) item.tooltip = vscode.l10n.t('"{0}" is not one of the documented values; its models are listed anyway.', element.label);
      return item;
    }
    return modelTreeItem(element);
  }

  async resolveTreeItem(item: vscode.TreeItem, element: TreeItemDescriptor): Promise<vscode.TreeItem> {
    if (element.kind === 'model') {
      // Built on hover: the details' code is imported then, not at activation.
      const { modelDetails } = await import('../core/catalog/details');
      item.tooltip = modelTooltip(modelDetails(element.model, Date.now(), new Set(this.catalog.models.map((m) => m.id))));
    }
    return item;
  }
}

export function modelTreeItem(element: ModelItemDescriptor): vscode.TreeItem {
  const item = new vscode.TreeItem(element.label, vscode.TreeItemCollapsibleState.None);
  item.id = element.key;
  item.description = element.description;
  item.contextValue = element.contextValue;
  switch (element.icon) {
    case 'deprecated':
      item.iconPath = new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground'));
      break;
    case 'removed':
      item.iconPath = new vscode.ThemeIcon('circle-slash', new vscode.ThemeColor('disabledForeground'));
      break;
    default:
      item.iconPath = new vscode.ThemeIcon('sparkle');
  }
  if (element.greyed) item.resourceUri = vscode.Uri.from({ scheme: MODEL_URI_SCHEME, path: `/removed/${element.model.id}` });
  const state = element.lifecycle.state === 'active' ? '' : `, ${element.description.split(' · ')[0]}`;
  item.accessibilityInformation = { label: `${element.label}, ${element.model.id}${state}` };
  return item;
}

function escapeMd(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, (c) => `\\${c}`);
}

export function modelTooltip(d: ModelDetails): vscode.MarkdownString {
  const md = new vscode.MarkdownString(undefined, true);
  md.isTrusted = false;
  md.appendMarkdown(`**${escapeMd(d.title)}**\n\n`);
  if (d.warning) md.appendMarkdown(`$(warning) ${escapeMd(d.warning)}\n\n`);
  for (const line of d.lines) md.appendMarkdown(`${escapeMd(line.label)}: ${escapeMd(line.value)}  \n`);
  return md;
}

/** The view's message: staleness with age, load failures and empty results, or undefined. */
export function viewMessage(catalog: CatalogService, view: CatalogViewState, roots: readonly TreeItemDescriptor[]): string | undefined {
  const s = catalog.state;
  if (s.source === 'none') {
    if (s.loading) return vscode.l10n.t('Loading models…');
    if (s.lastError) return vscode.l10n.t('Could not load the model catalog ({0}). Use Refresh to try again.', s.lastError.status ?? s.lastError.reason);
    return undefined;
  }
  const parts: string[] = [];
  if (s.stale) {
    const age = formatAge(catalog.ageMs() ?? 0);
    parts.push(
      s.loading && !s.lastError
        ? vscode.l10n.t('Cached catalog from {0}; refreshing…', age)
        : s.lastError
          ? vscode.l10n.t('Cached catalog from {0}: refresh failed ({1}).', age, s.lastError.status ?? s.lastError.reason)
          : vscode.l10n.t('Cached catalog from {0}.', age),
    );
  }
  if (roots.length === 0) parts.push(view.isFiltered ? vscode.l10n.t('No models match the filter.') : vscode.l10n.t('The catalog lists no models.'));
  return parts.length ? parts.join(' ') : undefined;
}
