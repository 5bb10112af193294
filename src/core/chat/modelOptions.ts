/**
 * What the model picker offers and how the temperature control is bounded, from catalog entries.
 */
import { isConversational } from '../gateway/chatRoute';
import * as l10n from '../l10n';
import type { Model } from '../gateway/types';
import type { ModelOptionView, ReasoningEffortView, TemperatureView } from '../../protocol/chatProtocol';
import { readReasoningEffort } from '../gateway/reasoningEffort';
import { modelLifecycle } from '../catalog/deprecation';
import { findAlternative } from '../catalog/alternative';
import { rateLines } from '../catalog/pricingDisplay';
import { providerDisplayName } from '../catalog/providerNames';

/** Input and output rates in one line for the model picker's hover; undefined when the model is unpriced. */
export function rateSummary(model: Model): string | undefined {
  const lines = rateLines(model.pricing).filter((l) => l.key === 'input_per_million' || l.key === 'output_per_million');
  return lines.length ? lines.map((l) => `${l.label} ${l.text}`).join(' · ') : undefined;
}

/** Removed models are never offered (G-CAT-11); lifecycle rules live in core/catalog/deprecation.ts. */
export function isRemoved(model: Model, now: number): boolean {
  return modelLifecycle(model, now).state === 'removed';
}

/** Deprecated models stay selectable but carry a warning (G-CAT-10, G-CAT-12). */
export function isDeprecated(model: Model, now: number): boolean {
  return modelLifecycle(model, now).state === 'deprecated';
}

/** A model the chat offers: one that speaks either conversation route (chatRoute.ts). */
export function isChatCapable(model: Model): boolean {
  return isConversational(model);
}

/**
 * Temperature bounds: hidden (undefined) when `supported` is false (G-CAT-5), whatever min and max the
 * entry also publishes, or anything but absent or true (a server's odd value is never read as consent),
 * or when no finite max is published; a missing min means 0; both ends inclusive (G-CAT-6). Every
 * request builder that sends a temperature takes it from temperatureToSend below.
 */
export function temperatureBounds(model: Model | undefined): { min: number; max: number } | undefined {
  const t = model?.parameters?.temperature;
  if (!t || (t.supported !== undefined && t.supported !== true)) return undefined;
  if (typeof t.max !== 'number' || !Number.isFinite(t.max)) return undefined;
  const min = t.min === undefined ? 0 : t.min;
  if (typeof min !== 'number' || !Number.isFinite(min)) return undefined;
  return min <= t.max ? { min, max: t.max } : undefined;
}

/** The temperature to send: none when the model does not accept one, else clamped into bounds. */
export function temperatureToSend(model: Model | undefined, chosen: number | undefined): number | undefined {
  const b = temperatureBounds(model);
  if (!b || chosen === undefined || !Number.isFinite(chosen)) return undefined;
  return Math.min(b.max, Math.max(b.min, chosen));
}

/** The catalog model a deprecated entry's description names as its alternative, if any. */
export function alternativeFor(model: Model, catalog: readonly Model[]): Model | undefined {
  const { modelId } = findAlternative(model, new Set(catalog.map((m) => m.id)));
  return modelId ? catalog.find((m) => m.id === modelId) : undefined;
}

export function deprecationWarning(model: Model, catalog: readonly Model[], now: number): string | undefined {
  const life = modelLifecycle(model, now);
  if (life.state !== 'deprecated') return undefined;
  const alt = alternativeFor(model, catalog);
  const since = life.deprecationDate ? l10n.t('Deprecated since {0}.', life.deprecationDate) : l10n.t('Deprecated.');
  const when = life.removalDate ? ` ${l10n.t('It will be removed on {0}.', life.removalDate)}` : '';
  const instead = alt ? ` ${l10n.t('Alternative: {0} ({1}).', alt.display_name, alt.id)}` : model.description ? ` ${model.description}` : '';
  return `${since}${when}${instead}`;
}

/** Chat-capable, not removed; deprecated ones stay selectable but carry their warning. */
export function chatModelOptions(models: readonly Model[], now: number, temperatureValue?: number): ModelOptionView[] {
  return models
    .filter((m) => isChatCapable(m) && !isRemoved(m, now))
    .map((m) => {
      const b = temperatureBounds(m);
      const temperature: TemperatureView | undefined = b ? { ...b, ...(temperatureValue !== undefined ? { value: temperatureToSend(m, temperatureValue) } : {}) } : undefined;
      const warning = deprecationWarning(m, models, now);
      const rates = rateSummary(m);
      const life = modelLifecycle(m, now);
      const badges = BADGES.filter((b) => m.capabilities?.includes(b));
      const reasoning = reasoningView(m);
      return {
        id: m.id,
        label: m.display_name || m.id,
        deprecated: isDeprecated(m, now),
        ...(warning ? { warning } : {}),
        ...(m.context_window !== undefined ? { contextWindow: m.context_window } : {}),
        ...(temperature ? { temperature } : {}),
        ...(rates ? { rates } : {}),
        provider: providerDisplayName(m.provider),
        ...(badges.length ? { badges } : {}),
        ...(life.deprecationDate ? { deprecationDate: life.deprecationDate } : {}),
        ...(life.removalDate ? { removalDate: life.removalDate } : {}),
        ...(reasoning ? { reasoning } : {}),
      };
    });
}

const BADGES = ['tools', 'vision', 'reasoning'] as const;

/** The reasoning-effort control for `model` (reasoningEffort.ts reads the catalog); undefined: none. */
export function reasoningView(model: Model | undefined): ReasoningEffortView | undefined {
  const r = readReasoningEffort(model);
  if (r.kind === 'none') return undefined;
  if (r.kind === 'unknown') return { unknown: r.parameter };
  return { values: r.values, ...(r.defaultValue !== undefined ? { defaultValue: r.defaultValue } : {}) };
}

/** "128K", "1M", "8,192": a context window as people read it. */
export function contextSize(tokens: number): string {
  if (tokens >= 1_000_000 && tokens % 100_000 === 0) return `${tokens / 1_000_000}M`;
  if (tokens >= 1000 && tokens % 1000 === 0) return `${tokens / 1000}K`;
  if (tokens >= 1024 && tokens % 1024 === 0) return `${tokens / 1024}K`;
  return tokens.toLocaleString(l10n.displayLocale());
}

/** A capability badge in the display language (the catalog's ids are `tools`, `vision`, `reasoning`). */
function badgeLabel(badge: string): string {
  switch (badge) {
    case 'tools':
      return l10n.t({ message: 'tools', comment: ['a model capability: it can call tools'] });
    case 'vision':
      return l10n.t({ message: 'vision', comment: ['a model capability: it reads images'] });
    case 'reasoning':
      return l10n.t({ message: 'reasoning', comment: ['a model capability: it reasons before answering'] });
    default:
      return badge;
  }
}

/** One line of the picker item: the capability badges and the context size ("tools · vision · 128K context"). */
export function modelOptionDescription(o: ModelOptionView): string {
  return [...(o.badges ?? []).map(badgeLabel), o.contextWindow !== undefined ? l10n.t('{0} context', contextSize(o.contextWindow)) : ''].filter(Boolean).join(' · ');
}

/** The picker item's second line: the rates and, for a deprecated model, its dates. */
export function modelOptionDetail(o: ModelOptionView): string | undefined {
  // The warning names the dates and the alternative; without one, the dates alone.
  const dates = o.deprecated
    ? o.warning ?? [o.deprecationDate ? l10n.t('Deprecated since {0}', o.deprecationDate) : l10n.t('Deprecated'), o.removalDate ? l10n.t('removed on {0}', o.removalDate) : ''].filter(Boolean).join(', ')
    : '';
  const text = [o.rates, dates].filter(Boolean).join(' · ');
  return text || undefined;
}

/** The model picker's groups: one per provider, by name; the catalog's order inside each. */
export function groupByProvider(options: readonly ModelOptionView[]): Array<{ provider: string; options: ModelOptionView[] }> {
  const groups = new Map<string, ModelOptionView[]>();
  for (const o of options) {
    const p = o.provider ?? 'Other';
    groups.set(p, [...(groups.get(p) ?? []), o]);
  }
  return [...groups].sort(([a], [b]) => a.localeCompare(b)).map(([provider, list]) => ({ provider, options: list }));
}
