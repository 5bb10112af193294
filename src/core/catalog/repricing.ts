/**
 * Repricing detection (G-CAT-9): a change of `pricing_version` between two fetched catalogs signals a
 * repricing. The report names each model whose rates changed, with old and new rates, compared
 * exactly as decimals ("2.50" equals "2.5").
 */
import type { Model, ModelCatalog } from '../gateway/types';
import { RATE_LABELS, sameRate, type RateKey } from './pricingDisplay';

export interface RateChange {
  key: RateKey;
  label: string;
  /** What the rate is quoted per: "1M tokens", "image", ... */
  per: string;
  /** Undefined when the rate did not apply before. */
  old?: string;
  /** Undefined when the rate no longer applies. */
  new?: string;
}

export interface ModelRepricing {
  modelId: string;
  displayName: string;
  oldVersion?: string;
  newVersion?: string;
  changes: RateChange[];
}

export interface RepricingReport {
  /** Distinct pricing versions before and after, sorted. */
  oldVersions: string[];
  newVersions: string[];
  /** Models present in both catalogs whose rates changed. */
  models: ModelRepricing[];
}

function versions(catalog: ModelCatalog): string[] {
  const set = new Set<string>();
  for (const m of catalog.data) if (m.pricing?.pricing_version) set.add(m.pricing.pricing_version);
  return [...set].sort();
}

function rateChanges(a: Model, b: Model): RateChange[] {
  const out: RateChange[] = [];
  for (const { key, label, per } of RATE_LABELS) {
    const o = a.pricing?.[key];
    const n = b.pricing?.[key];
    if (!sameRate(o, n)) out.push({ key, label, per, old: o, new: n });
  }
  return out;
}

/**
 * Returns a report when any model's `pricing_version` changed between `previous` and `next`, else
 * undefined. The first fetch (no previous catalog) is never a repricing.
 */
export function detectRepricing(previous: ModelCatalog | undefined, next: ModelCatalog): RepricingReport | undefined {
  if (!previous) return undefined;
  const before = new Map(previous.data.map((m) => [m.id, m] as const));
  let versionChanged = false;
  const models: ModelRepricing[] = [];
  for (const m of next.data) {
    const old = before.get(m.id);
    if (!old) continue;
    const ov = old.pricing?.pricing_version;
    const nv = m.pricing?.pricing_version;
    if (ov !== nv) versionChanged = true;
    const changes = rateChanges(old, m);
    if (changes.length) models.push({ modelId: m.id, displayName: m.display_name || m.id, oldVersion: ov, newVersion: nv, changes });
  }
  // A model that was added or dropped can change the set of versions without any shared model's
  // version changing; that still signals a new rate card.
  if (!versionChanged && versions(previous).join('\n') === versions(next).join('\n')) return undefined;
  return { oldVersions: versions(previous), newVersions: versions(next), models };
}

/** "GPT X (openai/gpt-x): input 2.5 → 3 credits / 1M tokens; output …" for one model. */
export function describeRateChanges(m: ModelRepricing): string {
  const parts = m.changes.map((c) => `${c.label.toLowerCase()} ${c.old ?? 'none'} → ${c.new ?? 'none'} credits / ${c.per}`);
  return `${m.displayName} (${m.modelId}): ${parts.join('; ')}`;
}
