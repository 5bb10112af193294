/**
 * The catalog tree as pure data: filter the models, group them, and describe every tree item. The
 * editor glue (src/catalog/modelTree.ts) maps these descriptors 1:1 onto vscode.TreeItems, and the
 * benchmark (bench/catalog.bench.ts) times `filterModels` and `buildCatalogTree` on 2,000 models.
 */
import * as l10n from '../l10n';
import { CAPABILITIES, PROVIDERS, type Model } from '../gateway/types';
import { providerName } from './providerNames';
import { capabilityLabel } from './capabilityWords';
import { modelLifecycle, removalPhrase, utcDayOf, type ModelLifecycle } from './deprecation';

export type Grouping = 'provider' | 'capability' | 'flat';
export const GROUPINGS: readonly Grouping[] = ['provider', 'capability', 'flat'];

export interface CatalogFilter {
  /**
   * Capabilities a model must ALL have. Assumption (spec: not shown; a UI choice): several selected
   * capabilities narrow the list (AND), so "tools + vision" lists models that can do both.
   */
  capabilities?: readonly string[];
  /** Case-insensitive substring of the id or display name; blank means no text filter. */
  text?: string;
  /** Removed models are hidden unless this is true (G-CAT-11); then they are shown greyed out. */
  showRemoved?: boolean;
}

export interface FilteredModel {
  model: Model;
  lifecycle: ModelLifecycle;
}

export type ModelIcon = 'model' | 'deprecated' | 'removed';

export interface ModelItemDescriptor {
  kind: 'model';
  /** Unique per tree (a model can appear under several capability groups). */
  key: string;
  model: Model;
  lifecycle: ModelLifecycle;
  label: string;
  /** "openai/gpt-x", or "removed in 3 days · openai/gpt-x" */
  description: string;
  icon: ModelIcon;
  /** Removed models are rendered greyed out. */
  greyed: boolean;
  /** contextValue for menus: "model", "model.deprecated" or "model.removed". */
  contextValue: string;
}

export interface GroupItemDescriptor {
  kind: 'group';
  key: string;
  label: string;
  /** "12 models" */
  description: string;
  /** True for a provider outside the documented set (G-CAT-2) or a capability outside it. */
  unknown: boolean;
  children: ModelItemDescriptor[];
}

export type TreeItemDescriptor = GroupItemDescriptor | ModelItemDescriptor;

/** Filters in one pass; lifecycle is computed once per model and carried along. */
export function filterModels(models: readonly Model[], filter: CatalogFilter, now: Date | number): FilteredModel[] {
  const caps = filter.capabilities?.length ? filter.capabilities : undefined;
  const text = filter.text?.trim().toLowerCase() || undefined;
  const day = utcDayOf(now) * 86_400_000;
  const out: FilteredModel[] = [];
  for (const model of models) {
    if (caps) {
      const have = model.capabilities;
      if (!have) continue;
      let ok = true;
      for (const c of caps) {
        if (!have.includes(c)) {
          ok = false;
          break;
        }
      }
      if (!ok) continue;
    }
    if (text && !model.id.toLowerCase().includes(text) && !(model.display_name ?? '').toLowerCase().includes(text)) continue;
    const lifecycle = model.deprecation_date || model.removal_date ? modelLifecycle(model, day) : ACTIVE;
    if (lifecycle.state === 'removed' && !filter.showRemoved) continue;
    out.push({ model, lifecycle });
  }
  return out;
}

const ACTIVE: ModelLifecycle = Object.freeze({ state: 'active' }) as ModelLifecycle;

function compareModels(a: FilteredModel, b: FilteredModel): number {
  const an = a.model.display_name || a.model.id;
  const bn = b.model.display_name || b.model.id;
  return an < bn ? -1 : an > bn ? 1 : a.model.id < b.model.id ? -1 : a.model.id > b.model.id ? 1 : 0;
}

export function modelItem(entry: FilteredModel, keyPrefix: string): ModelItemDescriptor {
  const { model, lifecycle } = entry;
  // The state goes first: a narrow sidebar truncates the end of the description.
  let description = model.id;
  let icon: ModelIcon = 'model';
  if (lifecycle.state === 'removed') {
    description = `${l10n.t({ message: 'removed', comment: ['a model the gateway no longer serves'] })} · ${model.id}`;
    icon = 'removed';
  } else if (lifecycle.state === 'deprecated') {
    description = `${removalPhrase(lifecycle) ?? l10n.t('deprecated')} · ${model.id}`;
    icon = 'deprecated';
  }
  return {
    kind: 'model',
    key: `${keyPrefix}${model.id}`,
    model,
    lifecycle,
    label: model.display_name || model.id,
    description,
    icon,
    greyed: lifecycle.state === 'removed',
    contextValue: lifecycle.state === 'active' ? 'model' : `model.${lifecycle.state}`,
  };
}

function countText(n: number): string {
  return n === 1 ? l10n.t('1 model') : l10n.t('{0} models', n.toLocaleString(l10n.displayLocale()));
}

const KNOWN_PROVIDERS: ReadonlySet<string> = new Set(PROVIDERS);
const KNOWN_CAPABILITIES: ReadonlySet<string> = new Set(CAPABILITIES);
const NO_CAPABILITIES = '(no capabilities listed)';

/**
 * Builds the root level of the tree. With grouping 'flat' the roots are model items; otherwise they
 * are groups, each with its model items already built.
 */
export function buildCatalogTree(entries: readonly FilteredModel[], grouping: Grouping): TreeItemDescriptor[] {
  const sorted = [...entries].sort(compareModels);
  if (grouping === 'flat') return sorted.map((e) => modelItem(e, ''));

  const groups = new Map<string, FilteredModel[]>();
  const add = (name: string, e: FilteredModel) => {
    let list = groups.get(name);
    if (!list) groups.set(name, (list = []));
    list.push(e);
  };
  for (const e of sorted) {
    if (grouping === 'provider') {
      // G-CAT-2: an unknown (or even missing) provider gets its own group; the model is never dropped.
      add(e.model.provider || 'unknown', e);
    } else if (e.model.capabilities?.length) {
      for (const c of new Set(e.model.capabilities)) add(c, e);
    } else {
      add(NO_CAPABILITIES, e);
    }
  }

  const order: readonly string[] = grouping === 'provider' ? PROVIDERS : CAPABILITIES;
  const known = grouping === 'provider' ? KNOWN_PROVIDERS : KNOWN_CAPABILITIES;
  const names = [...groups.keys()].sort((a, b) => {
    const ia = order.indexOf(a);
    const ib = order.indexOf(b);
    if (ia >= 0 || ib >= 0) return ia < 0 ? 1 : ib < 0 ? -1 : ia - ib;
    return a < b ? -1 : a > b ? 1 : 0;
  });
  return names.map((name) => {
    const list = groups.get(name) ?? [];
    const unknown = !known.has(name) && name !== NO_CAPABILITIES;
    return {
      kind: 'group',
      key: `${grouping}:${name}`,
      label: grouping !== 'provider' ? (name === NO_CAPABILITIES ? l10n.t('(no capabilities listed)') : capabilityLabel(name)) : unknown ? l10n.t('{0} (unknown provider)', name) : providerName(name),
      description: countText(list.length),
      unknown,
      children: list.map((e) => modelItem(e, `${grouping}:${name}/`)),
    };
  });
}

/** The pure path the tree and the benchmark share: filter, then build every item descriptor. */
export function catalogTree(models: readonly Model[], filter: CatalogFilter, grouping: Grouping, now: Date | number): TreeItemDescriptor[] {
  return buildCatalogTree(filterModels(models, filter, now), grouping);
}
