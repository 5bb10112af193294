/**
 * Finding the alternative a deprecated model's `description` names.
 *
 * Assumption (spec: "description ... may name an alternative for a deprecated model"; the form is not
 * shown): the alternative is written as a catalog id (`<owner>/<model>`) somewhere in the description.
 * When `catalogIds` is given, only ids that are in the catalog (and are not the model itself) count;
 * otherwise the first id-shaped token counts. When none is found, callers show the description as is.
 */
import type { Model } from '../gateway/types';

const ID_TOKEN = /[A-Za-z0-9][A-Za-z0-9._:-]*\/[A-Za-z0-9][A-Za-z0-9._:-]*/g;

export interface Alternative {
  modelId?: string;
  description?: string;
}

export function findAlternative(model: Pick<Model, 'id' | 'description'>, catalogIds?: ReadonlySet<string>): Alternative {
  const description = model.description;
  if (!description) return {};
  for (const match of description.matchAll(ID_TOKEN)) {
    // Trailing sentence punctuation is not part of an id.
    const token = match[0].replace(/[.:]+$/, '');
    if (token === model.id) continue;
    if (!catalogIds || catalogIds.has(token)) return { modelId: token, description };
  }
  return { description };
}
