/**
 * Answer-shape modes of the local gateway (issue 39): where the spec says "not shown", the gateway
 * answers by default in the shape the client assumes, and a mode makes it answer in another plausible
 * shape, so tests and journeys can prove the client fails closed and visibly on a shape it does not know.
 *
 * Armed per running gateway (keyed by its event log, like analytics.ts billingOf): in process with
 * `modesOf(gw.events)`, out of process with `POST /__control/modes` (control.ts). `/__control/reset`
 * puts every mode back to its default.
 *
 * - `exclusionsRead` (GET /hosting/v1/installs/{id}/cache_exclusions):
 *   'results' (default) `{results:[...]}`; 'data' `{data:[...]}`; 'bare' `[...]`;
 *   'exclusions' `{exclusions:[...]}`; 'paged' the first entry only as `{results:[first], next_cursor}`
 *   (the rest "on the next page"); 'link' all but the last entry as `{results:[...]}` with a
 *   `Link: <...>; rel="next"` header.
 * - `analytics` (GET /v1/analytics): 'assumed' (default) the assumed field names; 'renamed' request
 *   counts as `request_count`, window bounds as `start`/`end`, bucket start as `bucket_start`;
 *   'unsafe_nano' every `credits_nano` as a JSON number in exponent form (e.g. 9.007199254740993e15).
 * - `siteDetails` (GET /v1/sites/{site_identifier}): 'assumed' (default); 'other' the same site in
 *   another shape (`{site: {...}}` with other field names).
 * - `reasoningEffort` (GET /v1/models): how the catalog says a model takes a reasoning effort:
 *   'assumed' (default), 'nested', 'bare', 'thinking_budget' (reasoning.ts).
 */
import type { GatewayEventLog } from './context';
import { REASONING_EFFORT_MODES } from './reasoning';

export const EXCLUSIONS_READ_MODES = ['results', 'data', 'bare', 'exclusions', 'paged', 'link'] as const;
export const ANALYTICS_MODES = ['assumed', 'renamed', 'unsafe_nano'] as const;
export const SITE_DETAILS_MODES = ['assumed', 'other'] as const;

export interface Modes {
  exclusionsRead: (typeof EXCLUSIONS_READ_MODES)[number];
  analytics: (typeof ANALYTICS_MODES)[number];
  siteDetails: (typeof SITE_DETAILS_MODES)[number];
  reasoningEffort: (typeof REASONING_EFFORT_MODES)[number];
}

const DEFAULTS: Modes = { exclusionsRead: 'results', analytics: 'assumed', siteDetails: 'assumed', reasoningEffort: 'assumed' };
const ALLOWED: { [K in keyof Modes]: readonly string[] } = {
  exclusionsRead: EXCLUSIONS_READ_MODES,
  analytics: ANALYTICS_MODES,
  siteDetails: SITE_DETAILS_MODES,
  reasoningEffort: REASONING_EFFORT_MODES,
};

const modes = new WeakMap<GatewayEventLog, Modes>();

export function modesOf(events: GatewayEventLog): Modes {
  let m = modes.get(events);
  if (!m) {
    m = { ...DEFAULTS };
    modes.set(events, m);
  }
  return m;
}

export function resetModes(events: GatewayEventLog): void {
  modes.delete(events);
}

/** Applies a patch from JSON (the control endpoint); throws a readable Error and changes nothing on bad input. */
export function patchModes(events: GatewayEventLog, value: unknown): Modes {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('modes must be an object');
  const patch: Partial<Modes> = {};
  for (const [key, v] of Object.entries(value)) {
    if (!(key in ALLOWED)) throw new Error(`unknown mode '${key}' (one of ${Object.keys(ALLOWED).join(', ')})`);
    const allowed = ALLOWED[key as keyof Modes];
    if (typeof v !== 'string' || !allowed.includes(v)) throw new Error(`mode ${key} must be one of ${allowed.join(', ')}`);
    (patch as Record<string, string>)[key] = v;
  }
  return Object.assign(modesOf(events), patch);
}
