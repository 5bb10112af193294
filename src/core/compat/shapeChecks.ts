/**
 * The compatibility check's shape recognisers: pure functions from a parsed answer to "held" or
 * "not held" with what was found, in words. Only for what the product has no recogniser of its own;
 * the analytics answer and the cache exclusions read are decided by the product's recognisers
 * (src/core/usage/analytics.ts, src/core/account/exclusionsRead.ts), called from probes.ts. Total (any value in, a verdict out), linear in the
 * answer, and they name at most a few offending items so a report stays readable.
 */
import { isRecord } from '../guards';
import * as l10n from '../l10n';
import { isDecimalString } from '../pricing';
import { CAPABILITIES } from '../gateway/types';

export interface ShapeVerdict {
  held: boolean;
  found: string;
}

/** How many offending items a finding names. */
const NAMED = 5;

const held = (found: string): ShapeVerdict => ({ held: true, found });
const notHeld = (found: string): ShapeVerdict => ({ held: false, found });

/** A short description of any JSON value's shape ("an array of 3 items", "an object with fields a, b"). */
export function describeShape(v: unknown): string {
  if (v === undefined) return l10n.t('no JSON');
  if (v === null) return l10n.t('null');
  if (Array.isArray(v)) return l10n.t('an array of {0} items', v.length);
  if (isRecord(v)) {
    const keys = Object.keys(v);
    const shown = keys.slice(0, 12).join(', ');
    return keys.length === 0 ? l10n.t('an empty object') : l10n.t('an object with fields {0}', keys.length > 12 ? `${shown}, …` : shown);
  }
  return l10n.t('a {0}', typeof v);
}

function named(list: readonly string[]): string {
  return list.length > NAMED ? `${list.slice(0, NAMED).join('; ')}; …` : list.join('; ');
}

// ---------------------------------------------------------------- catalog (GET /v1/models)

/**
 * The catalog envelope (G-CAT-1). Returns the model entries it could find either way (a bare array
 * included), so the pricing and capability checks still run on an envelope that did not hold.
 */
export function recogniseCatalogEnvelope(json: unknown): ShapeVerdict & { models: unknown[] } {
  if (isRecord(json) && json.object === 'list' && Array.isArray(json.data)) {
    const models = json.data as unknown[];
    const bad = models.filter((m) => !isRecord(m) || typeof m.id !== 'string' || m.id === '').length;
    if (bad > 0) return { ...notHeld(l10n.t('{0} of {1} entries have no string id', bad, models.length)), models };
    return { ...held(l10n.t('object "list" with {0} models', models.length)), models };
  }
  const models = Array.isArray(json) ? (json as unknown[]) : isRecord(json) && Array.isArray(json.data) ? (json.data as unknown[]) : [];
  return { ...notHeld(l10n.t('the catalog is {0}', describeShape(json))), models };
}

const RATE_FIELDS = ['input_per_million', 'output_per_million', 'cache_read_per_million', 'cache_write_per_million', 'reasoning_per_million', 'per_image', 'per_million_characters', 'per_megabyte_audio'] as const;

function idOf(m: unknown): string {
  return isRecord(m) && typeof m.id === 'string' ? m.id.slice(0, 120) : '?';
}

function priced(models: readonly unknown[]): Array<{ id: string; pricing: Record<string, unknown> }> {
  return models.flatMap((m) => (isRecord(m) && isRecord(m.pricing) ? [{ id: idOf(m), pricing: m.pricing }] : []));
}

/** Pricing rates are decimal strings (G-CAT-4); undefined when no model carries pricing. */
export function checkPricingStrings(models: readonly unknown[]): ShapeVerdict | undefined {
  const list = priced(models);
  if (list.length === 0) return undefined;
  const bad: string[] = [];
  let rates = 0;
  for (const { id, pricing } of list) {
    for (const f of RATE_FIELDS) {
      if (!(f in pricing)) continue;
      rates++;
      if (!isDecimalString(pricing[f])) bad.push(`${id} ${f} = ${JSON.stringify(pricing[f])?.slice(0, 40)} (${typeof pricing[f]})`);
    }
  }
  if (bad.length > 0) return notHeld(l10n.t('{0} of {1} rates are not decimal strings: {2}', bad.length, rates, named(bad)));
  return held(l10n.t('{0} rates in {1} models, all decimal strings', rates, list.length));
}

/** pricing_version and unit "credits" on every pricing (G-CAT-5, G-CAT-9); undefined when no model carries pricing. */
export function checkPricingVersion(models: readonly unknown[]): ShapeVerdict | undefined {
  const list = priced(models);
  if (list.length === 0) return undefined;
  const noVersion = list.filter((p) => typeof p.pricing.pricing_version !== 'string' || p.pricing.pricing_version === '').map((p) => p.id);
  const notCredits = list.filter((p) => p.pricing.unit !== 'credits').map((p) => p.id);
  const problems: string[] = [];
  if (noVersion.length > 0) problems.push(l10n.t('{0} of {1} pricing objects have no pricing_version ({2})', noVersion.length, list.length, named(noVersion)));
  if (notCredits.length > 0) problems.push(l10n.t('{0} of {1} pricing objects have a unit other than "credits" ({2})', notCredits.length, list.length, named(notCredits)));
  if (problems.length > 0) return notHeld(problems.join('; '));
  const versions = new Set(list.map((p) => p.pricing.pricing_version as string));
  return held(l10n.t('{0} pricing objects in credits, pricing_version {1}', list.length, [...versions].slice(0, 3).join(', ')));
}

/** Capability values are the documented ones (G-CAT-3). */
export function checkCapabilities(models: readonly unknown[]): ShapeVerdict | undefined {
  const known: ReadonlySet<string> = new Set(CAPABILITIES);
  const unknown = new Map<string, string>();
  let listed = 0;
  for (const m of models) {
    if (!isRecord(m) || m.capabilities === undefined) continue;
    listed++;
    if (!Array.isArray(m.capabilities)) {
      unknown.set(`(${describeShape(m.capabilities)})`, idOf(m));
      continue;
    }
    for (const c of m.capabilities as unknown[]) {
      const name = typeof c === 'string' ? c.slice(0, 60) : `(${typeof c})`;
      if (typeof c !== 'string' || !known.has(c)) if (!unknown.has(name)) unknown.set(name, idOf(m));
    }
  }
  if (listed === 0) return undefined;
  if (unknown.size > 0) return notHeld(l10n.t('values not in the documented list: {0}', named([...unknown].map(([c, id]) => `${c} (${id})`))));
  return held(l10n.t('{0} models list capabilities, all documented values', listed));
}

// ---------------------------------------------------------------- schema route

/** The schema route's answer is a JSON Schema with `properties` (what mediaWire.ts reads). */
export function recogniseSchema(json: unknown): ShapeVerdict {
  if (isRecord(json) && isRecord(json.properties)) {
    const names = Object.keys(json.properties);
    return held(l10n.t('a JSON Schema with {0} properties ({1})', names.length, names.slice(0, 8).join(', ')));
  }
  return notHeld(l10n.t('the schema is {0}, without a properties object', describeShape(json)));
}

// ---------------------------------------------------------------- MCP

/** `initialize`'s result (G-MCP-4). A refused initialize is read by probes.ts with src/core/mcp/errors.ts mcpGatewayEnvelope. */
export function recogniseMcpInitialize(result: unknown): ShapeVerdict {
  if (!isRecord(result)) return notHeld(l10n.t('the result is {0}', describeShape(result)));
  const missing: string[] = [];
  if (typeof result.protocolVersion !== 'string') missing.push('protocolVersion');
  if (!isRecord(result.capabilities) || !isRecord(result.capabilities.tools)) missing.push('capabilities.tools');
  if (!isRecord(result.serverInfo) || typeof result.serverInfo.name !== 'string') missing.push('serverInfo.name');
  if (missing.length > 0) return notHeld(l10n.t('missing: {0} (the result has {1})', missing.join(', '), describeShape(result)));
  const info = result.serverInfo as Record<string, unknown>;
  return held(l10n.t('protocol {0}, server {1} {2}', String(result.protocolVersion).slice(0, 40), String(info.name).slice(0, 80), typeof info.version === 'string' ? info.version.slice(0, 40) : ''));
}

/** One page of `tools/list`: the tools, the next cursor, or what is wrong. */
export function recogniseMcpToolsPage(result: unknown): { ok: true; names: string[]; nextCursor?: string } | { ok: false; found: string } {
  if (!isRecord(result) || !Array.isArray(result.tools)) return { ok: false, found: l10n.t('the result is {0}, without a tools list', describeShape(result)) };
  const tools = result.tools as unknown[];
  const bad = tools.filter((t) => !isRecord(t) || typeof t.name !== 'string' || !isRecord(t.inputSchema)).length;
  if (bad > 0) return { ok: false, found: l10n.t('{0} of {1} tools have no name or no inputSchema object', bad, tools.length) };
  const next = result.nextCursor;
  if (next !== undefined && typeof next !== 'string') return { ok: false, found: l10n.t('nextCursor is {0}, not a string', describeShape(next)) };
  return { ok: true, names: tools.map((t) => String((t as { name: string }).name).slice(0, 80)), ...(typeof next === 'string' && next !== '' ? { nextCursor: next } : {}) };
}

/** The tools the API documents by name (G-MCP-10). */
export const DOCUMENTED_TOOLS = ['ping', 'list_account_sites', 'list_site_abilities', 'search_abilities', 'run_site_ability'] as const;

// ---------------------------------------------------------------- messages stream

export interface StreamEvent {
  event: string;
  data: unknown;
}

/** The messages stream's events (messagesWire.ts): start, text, the delta with the stop reason, the end. */
export function recogniseMessagesStream(contentType: string, events: readonly StreamEvent[]): ShapeVerdict & { text: string } {
  if (contentType !== 'text/event-stream') return { ...notHeld(l10n.t('the answer is {0}, not an event stream', contentType || l10n.t('without a content type'))), text: '' };
  const typeOf = (e: StreamEvent): string => (isRecord(e.data) && typeof e.data.type === 'string' ? e.data.type : e.event);
  const types = events.map(typeOf);
  const missing: string[] = [];
  const start = events.find((e) => typeOf(e) === 'message_start');
  if (!start || !isRecord(start.data) || !isRecord(start.data.message)) missing.push('message_start');
  let text = '';
  for (const e of events) {
    if (typeOf(e) !== 'content_block_delta' || !isRecord(e.data) || !isRecord(e.data.delta)) continue;
    if (e.data.delta.type === 'text_delta' && typeof e.data.delta.text === 'string') text += e.data.delta.text;
  }
  if (!types.includes('content_block_delta')) missing.push('content_block_delta');
  const delta = events.find((e) => typeOf(e) === 'message_delta');
  if (!delta || !isRecord(delta.data) || !isRecord(delta.data.delta) || !('stop_reason' in delta.data.delta)) missing.push('message_delta (stop_reason)');
  if (types[types.length - 1] !== 'message_stop') missing.push(l10n.t('message_stop at the end'));
  const seen = [...new Set(types)].slice(0, 10).join(', ');
  if (missing.length > 0) return { ...notHeld(l10n.t('missing: {0}; events seen: {1}', missing.join(', '), seen || l10n.t('none'))), text };
  const reason = (delta!.data as { delta: { stop_reason?: unknown } }).delta.stop_reason;
  return { ...held(l10n.t('{0} events, stop reason {1}', events.length, String(reason))), text };
}

/** input_tokens in message_start and output_tokens in message_delta, merged as the wire sends them. */
export function messagesUsageOf(events: readonly StreamEvent[]): { usage?: Record<string, unknown>; verdict: ShapeVerdict } {
  let start: Record<string, unknown> | undefined;
  let last: Record<string, unknown> | undefined;
  for (const e of events) {
    if (!isRecord(e.data)) continue;
    if (e.data.type === 'message_start' && isRecord(e.data.message) && isRecord(e.data.message.usage)) start = e.data.message.usage;
    if (e.data.type === 'message_delta' && isRecord(e.data.usage)) last = e.data.usage;
  }
  const count = (v: unknown): boolean => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
  const missing: string[] = [];
  if (!start || !count(start.input_tokens)) missing.push('message_start.message.usage.input_tokens');
  if (!last || !count(last.output_tokens)) missing.push('message_delta.usage.output_tokens');
  if (missing.length > 0) return { verdict: notHeld(l10n.t('missing: {0}', missing.join(', '))) };
  const usage = { ...start, ...last };
  return { usage, verdict: held(l10n.t('{0} input and {1} output tokens reported', String(usage.input_tokens), String(usage.output_tokens))) };
}
