/**
 * What the catalog says about one model, as plain lines (label + value). The tree tooltip renders
 * these as markdown; other features may reuse `temperatureRange` to decide what to send (G-CAT-5/6).
 */
import * as l10n from '../l10n';
import type { Model } from '../gateway/types';
import { modelLifecycle, removalPhrase, type ModelLifecycle } from './deprecation';
import { rateLines } from './pricingDisplay';
import { findAlternative } from './alternative';
import { providerLabel } from './providerNames';

export type TemperatureRange =
  /** The model rejects any explicit value: send none (G-CAT-5). */
  | { kind: 'fixed' }
  /** Both ends inclusive; a missing min is 0 (G-CAT-6). `max` is undefined only if the gateway omitted it. */
  | { kind: 'range'; min: number; max: number | undefined }
  /** The catalog publishes no constraint. */
  | { kind: 'unconstrained' };

export function temperatureRange(model: Pick<Model, 'parameters'>): TemperatureRange {
  const t = model.parameters?.temperature;
  if (!t) return { kind: 'unconstrained' };
  if (t.supported === false) return { kind: 'fixed' };
  const min = typeof t.min === 'number' && Number.isFinite(t.min) ? t.min : 0;
  const max = typeof t.max === 'number' && Number.isFinite(t.max) ? t.max : undefined;
  return { kind: 'range', min, max };
}

/** True when `value` may be sent as the temperature of `model` (max inclusive, missing min = 0). */
export function temperatureAllowed(model: Pick<Model, 'parameters'>, value: number): boolean {
  const r = temperatureRange(model);
  if (r.kind === 'fixed') return false;
  if (r.kind === 'unconstrained') return true;
  return value >= r.min && (r.max === undefined || value <= r.max);
}

export function temperatureText(model: Pick<Model, 'parameters'>): string {
  const r = temperatureRange(model);
  switch (r.kind) {
    case 'fixed':
      return l10n.t('fixed by provider');
    case 'unconstrained':
      return l10n.t('not constrained');
    case 'range':
      return r.max === undefined ? l10n.t('{0} or more', decimal(r.min)) : l10n.t('{0} to {1} (inclusive)', decimal(r.min), decimal(r.max));
  }
}

function decimal(n: number): string {
  return new Intl.NumberFormat(l10n.displayLocale(), { maximumFractionDigits: 20 }).format(n);
}

export function tokensText(n: number | undefined, missing: string): string {
  if (typeof n !== 'number' || !Number.isFinite(n)) return missing;
  const count = new Intl.NumberFormat(l10n.displayLocale()).format(n);
  return n === 1 ? l10n.t('{0} token', count) : l10n.t('{0} tokens', count);
}

export interface DetailLine {
  label: string;
  value: string;
  /** A stable name for the lines other views pick (the label is translated). */
  key?: 'provider' | 'capabilities' | 'contextWindow' | 'maxOutput';
}

export interface ModelDetails {
  title: string;
  lifecycle: ModelLifecycle;
  lines: DetailLine[];
  /** Deprecation notice (both dates and the alternative), when the model is deprecated or removed. */
  warning?: string;
}

/**
 * The tooltip / details text model. `catalogIds` lets the deprecation notice name an alternative that
 * really is in the catalog.
 */
export function modelDetails(model: Model, now: Date | number, catalogIds?: ReadonlySet<string>): ModelDetails {
  const lifecycle = modelLifecycle(model, now);
  const lines: DetailLine[] = [
    { label: l10n.t('ID'), value: model.id },
    { key: 'provider', label: l10n.t('Provider'), value: model.provider ? providerLabel(model.provider) : l10n.t('unknown') },
    { label: l10n.t('Owned by'), value: model.owned_by || l10n.t('unknown') },
    { key: 'capabilities', label: l10n.t('Capabilities'), value: model.capabilities?.length ? model.capabilities.join(', ') : l10n.t('none listed') },
    { key: 'contextWindow', label: l10n.t('Context window'), value: tokensText(model.context_window, l10n.t('not published')) },
    // G-CAT-4: omitted means there is no published limit, not zero.
    { key: 'maxOutput', label: l10n.t('Max output'), value: tokensText(model.max_output_tokens, l10n.t('no published limit')) },
    { label: l10n.t('Temperature'), value: temperatureText(model) },
    {
      label: l10n.t('Response formats'),
      value: model.parameters?.response_format_type?.values?.length ? model.parameters.response_format_type.values.join(', ') : l10n.t('not listed'),
    },
  ];
  const rates = rateLines(model.pricing);
  for (const r of rates) lines.push({ label: r.label, value: r.text });
  if (model.pricing) {
    if (rates.length === 0) lines.push({ label: l10n.t('Pricing'), value: l10n.t('no rates listed') });
    lines.push({ label: l10n.t('Pricing version'), value: model.pricing.pricing_version ?? l10n.t('unknown') });
  } else {
    lines.push({ label: l10n.t('Pricing'), value: l10n.t('not published') });
  }
  const details: ModelDetails = { title: model.display_name || model.id, lifecycle, lines };
  if (lifecycle.state !== 'active') details.warning = deprecationNotice(model, lifecycle, catalogIds);
  return details;
}

export function deprecationNotice(model: Model, lifecycle: ModelLifecycle, catalogIds?: ReadonlySet<string>): string {
  const parts: string[] = [];
  if (lifecycle.state === 'removed') parts.push(l10n.t('Removed on {0}.', lifecycle.removalDate ?? ''));
  else {
    parts.push(lifecycle.deprecationDate ? l10n.t('Deprecated since {0}.', lifecycle.deprecationDate) : l10n.t('Deprecated.'));
    if (lifecycle.removalDate) parts.push(l10n.t('Removal date: {0} ({1}).', lifecycle.removalDate, removalPhrase(lifecycle) ?? ''));
    else parts.push(l10n.t('No removal date announced.'));
  }
  if (lifecycle.state === 'removed' && lifecycle.deprecationDate) parts.push(l10n.t('Deprecated since {0}.', lifecycle.deprecationDate));
  const alt = findAlternative(model, catalogIds);
  if (alt.modelId) parts.push(l10n.t('Alternative: {0}.', alt.modelId));
  else if (model.description) parts.push(model.description);
  return parts.join(' ');
}
