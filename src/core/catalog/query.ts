/**
 * The one shared "models for capability X" query. Chat, content tools, MCP and agent features all
 * choose models through this, so the rules live in one place:
 *  - G-CAT-3: tool-calling features ask for 'tools' and get only models whose capabilities include it;
 *  - G-CAT-11: removed models are never offered (requests naming them are rejected);
 *  - G-CAT-10: deprecated models are still served, so they are offered, after the active ones.
 */
import type { Capability, Model } from '../gateway/types';
import { modelLifecycle } from './deprecation';

export interface ModelsForOptions {
  /** Default true. When false, deprecated models are left out too. */
  includeDeprecated?: boolean;
}

/** True when the model lists the capability (or, given several, any of them). */
export function hasCapability(model: Pick<Model, 'capabilities'>, capability: Capability | readonly Capability[]): boolean {
  const caps = model.capabilities;
  if (caps === undefined) return false;
  return typeof capability === 'string' ? caps.includes(capability) : capability.some((c) => caps.includes(c));
}

export function modelsForCapability(
  models: readonly Model[],
  capability: Capability | readonly Capability[],
  now: Date | number,
  options: ModelsForOptions = {},
): Model[] {
  const active: Model[] = [];
  const deprecated: Model[] = [];
  for (const m of models) {
    if (!hasCapability(m, capability)) continue;
    const state = modelLifecycle(m, now).state;
    if (state === 'removed') continue;
    if (state === 'deprecated') {
      if (options.includeDeprecated !== false) deprecated.push(m);
    } else active.push(m);
  }
  const byName = (a: Model, b: Model) => (a.display_name || a.id).localeCompare(b.display_name || b.id) || a.id.localeCompare(b.id);
  return [...active.sort(byName), ...deprecated.sort(byName)];
}
