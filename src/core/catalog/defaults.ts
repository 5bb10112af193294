/**
 * Default models per purpose, and the check that warns when one of them is deprecated or removed.
 * The purposes are the features that need "a model" without asking each time.
 */
import type { Capability, Model } from '../gateway/types';
import { modelLifecycle } from './deprecation';
import { findAlternative } from './alternative';
import { hasCapability } from './query';
import { CONVERSATION_CAPABILITIES } from '../gateway/chatRoute';

export const DEFAULT_MODEL_PURPOSES = ['chat', 'summary', 'taxonomy', 'alt_text'] as const;
export type DefaultModelPurpose = (typeof DEFAULT_MODEL_PURPOSES)[number];

/** The capability a model needs to serve a purpose (chat: either conversation route, see chatRoute.ts). */
export const PURPOSE_CAPABILITY: Readonly<Record<DefaultModelPurpose, Capability | readonly Capability[]>> = {
  chat: CONVERSATION_CAPABILITIES,
  summary: 'summary',
  taxonomy: 'taxonomy',
  alt_text: 'alt_text',
};

export const PURPOSE_LABEL: Readonly<Record<DefaultModelPurpose, string>> = {
  chat: 'Chat',
  summary: 'Summary',
  taxonomy: 'Taxonomy',
  alt_text: 'Alt text',
};

/** Purposes the model can serve, for the "Set as Default Model" picker. */
export function purposesFor(model: Pick<Model, 'capabilities'>): DefaultModelPurpose[] {
  return DEFAULT_MODEL_PURPOSES.filter((p) => hasCapability(model, PURPOSE_CAPABILITY[p]));
}

export interface DefaultModelWarning {
  purpose: DefaultModelPurpose;
  modelId: string;
  /** 'missing': the id is no longer in the catalog at all (treated like removed). */
  state: 'deprecated' | 'removed' | 'missing';
  removalDate?: string;
  daysUntilRemoval?: number;
  /** A catalog id named by the description that can serve the same purpose and is not removed. */
  alternative?: string;
  description?: string;
}

/**
 * One warning per purpose whose default model is deprecated, removed or gone from the catalog.
 * Purposes without a default (undefined or blank) are skipped.
 */
export function checkDefaultModels(
  defaults: Partial<Record<DefaultModelPurpose, string | undefined>>,
  models: readonly Model[],
  now: Date | number,
): DefaultModelWarning[] {
  const byId = new Map(models.map((m) => [m.id, m] as const));
  const ids = new Set(byId.keys());
  const out: DefaultModelWarning[] = [];
  for (const purpose of DEFAULT_MODEL_PURPOSES) {
    const id = defaults[purpose]?.trim();
    if (!id) continue;
    const model = byId.get(id);
    if (!model) {
      out.push({ purpose, modelId: id, state: 'missing' });
      continue;
    }
    const life = modelLifecycle(model, now);
    if (life.state === 'active') continue;
    const alt = findAlternative(model, ids);
    const altModel = alt.modelId ? byId.get(alt.modelId) : undefined;
    const usable =
      altModel && hasCapability(altModel, PURPOSE_CAPABILITY[purpose]) && modelLifecycle(altModel, now).state !== 'removed';
    out.push({
      purpose,
      modelId: id,
      state: life.state,
      removalDate: life.removalDate,
      daysUntilRemoval: life.daysUntilRemoval,
      alternative: usable ? altModel.id : undefined,
      description: model.description,
    });
  }
  return out;
}

/** Stable key of a warning, so each (purpose, model, state) is warned about once. */
export function warningKey(w: DefaultModelWarning): string {
  return `${w.purpose}|${w.modelId}|${w.state}`;
}
