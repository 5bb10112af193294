import type { Model, ModelCatalog } from '../../../src/core/gateway/types';

export function model(id: string, extra: Partial<Model> = {}): Model {
  return {
    id,
    object: 'model',
    owned_by: extra.owned_by ?? id.split('/')[0],
    provider: extra.provider ?? 'openai',
    display_name: extra.display_name ?? id.split('/')[1] ?? id,
    ...extra,
  };
}

export function catalog(...models: Model[]): ModelCatalog {
  return { object: 'list', data: models };
}

/** Noon UTC on the given date, so tests also cover "instant inside the day". */
export function at(date: string, time = '12:00:00'): Date {
  return new Date(`${date}T${time}Z`);
}
