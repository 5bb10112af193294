/**
 * Reasoning effort (issue 43 item 3): THE one place that knows how the catalog says a model takes a
 * reasoning effort, what is sent for it on each route, and how the cost before sending treats the
 * reasoning tokens it buys. Everything else (the chat's control, Compare's, the request builders, the
 * messages translation) asks this file.
 *
 * ASSUMED (the API documents say "chat request fields other than model, messages and stream: not
 * shown", and document only `parameters.temperature` and `parameters.response_format_type`):
 *  1. Catalog shape: a model takes a reasoning effort when its entry has
 *       `parameters.reasoning_effort: { values: ["low", "medium", "high"], default?: "medium" }`
 *     (the same form as the documented `parameters.response_format_type.values`). The `reasoning`
 *     capability alone does NOT mean the model takes one: nothing is sent then.
 *  2. Wire: on POST /v1/chat/completions the value is sent as `reasoning_effort: "<value>"`; on
 *     POST /v1/messages as `thinking: { type: "enabled", effort: "<value>" }` (THINKING_TYPE below).
 *  3. Cost: reasoning tokens are billed as output at the model's reasoning rate (`reasoning_per_million`)
 *     or, without one, its output rate; how many a reply uses is not known before it runs, so the cost
 *     before sending does NOT include them: it names the rate they are billed at instead.
 *
 * Fail closed: a `reasoning_effort` entry of any other form, or any other parameter that looks like a
 * reasoning setting (`reasoning`, `thinking`, `effort`, …), is a shape this client does not know. The
 * control then says so (visibly, with the parameter's name) and nothing is sent: no value is guessed.
 * To follow a documented shape, change `readReasoningEffort` and the two wire helpers below, nothing else.
 */
import type { Model, ModelPricing } from './types';
import * as l10n from '../l10n';
import { formatRateText } from '../catalog/pricingDisplay';

/** The catalog's parameter (assumption 1) and the chat-completions request field (assumption 2). */
export const REASONING_EFFORT_PARAMETER = 'reasoning_effort';
/** The `type` of the messages route's `thinking` object (assumption 2). */
export const THINKING_TYPE = 'enabled';

/** At most this many values are read from the catalog (server text: bounded). */
const MAX_VALUES = 8;
/** A value is a short lower-case word ("low", "x-high", "minimal"); anything else fails closed. */
const VALUE_RE = /^[a-z][a-z0-9_-]{0,23}$/;
/** Parameter names that look like a reasoning setting in a shape this client does not read. */
const LOOKS_LIKE_REASONING = /reason|think|effort/i;
const KNOWN_KEYS = new Set(['values', 'default']);

export type ReasoningSupport =
  /** The schema does not say the model takes a reasoning effort: no control, nothing sent. */
  | { kind: 'none' }
  /** The model takes one of `values` (the catalog's order); `defaultValue` when the catalog names one. */
  | { kind: 'effort'; values: string[]; defaultValue?: string }
  /** The catalog describes a reasoning setting in a form this client does not read: shown, never sent. */
  | { kind: 'unknown'; parameter: string };

/** What the catalog says about `model`'s reasoning effort (assumption 1, fail closed). */
export function readReasoningEffort(model: Pick<Model, 'parameters'> | undefined): ReasoningSupport {
  const params: unknown = model?.parameters;
  if (typeof params !== 'object' || params === null || Array.isArray(params)) return { kind: 'none' };
  const record = params as Record<string, unknown>;
  const names = Object.keys(record).slice(0, 64);
  if (!(REASONING_EFFORT_PARAMETER in record)) {
    const other = names.find((n) => LOOKS_LIKE_REASONING.test(n));
    return other === undefined ? { kind: 'none' } : { kind: 'unknown', parameter: bounded(other) };
  }
  const entry = record[REASONING_EFFORT_PARAMETER];
  const unknown: ReasoningSupport = { kind: 'unknown', parameter: REASONING_EFFORT_PARAMETER };
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return unknown;
  const e = entry as Record<string, unknown>;
  if (Object.keys(e).some((k) => !KNOWN_KEYS.has(k))) return unknown;
  const values = e.values;
  if (!Array.isArray(values) || values.length === 0 || values.length > MAX_VALUES) return unknown;
  if (!values.every((v): v is string => typeof v === 'string' && VALUE_RE.test(v))) return unknown;
  if (new Set(values).size !== values.length) return unknown;
  if (e.default !== undefined && (typeof e.default !== 'string' || !values.includes(e.default))) return unknown;
  return { kind: 'effort', values: [...values], ...(typeof e.default === 'string' ? { defaultValue: e.default } : {}) };
}

/** The effort to send for `chosen` on `model`: only a value the catalog lists; otherwise none (model default). */
export function effortToSend(model: Pick<Model, 'parameters'> | undefined, chosen: string | undefined): string | undefined {
  if (chosen === undefined) return undefined;
  const s = readReasoningEffort(model);
  return s.kind === 'effort' && s.values.includes(chosen) ? chosen : undefined;
}

/** The chat-completions field (assumption 2): `{ reasoning_effort }`, or nothing. */
export function chatReasoningFields(effort: string | undefined): { reasoning_effort?: string } {
  return effort === undefined ? {} : { [REASONING_EFFORT_PARAMETER]: effort };
}

/** The messages route's field (assumption 2), from the chat-form request's `reasoning_effort`. */
export function messagesThinking(effort: string | undefined): { type: typeof THINKING_TYPE; effort: string } | undefined {
  return effort === undefined ? undefined : { type: THINKING_TYPE, effort };
}

/**
 * How the cost before sending treats reasoning tokens (assumption 3): the rate they are billed at, as
 * the catalog gives it (reasoning_per_million, else output_per_million), and which field it is; undefined
 * when the model has neither.
 */
export function reasoningRate(pricing: ModelPricing | undefined): { rate: string; field: 'reasoning_per_million' | 'output_per_million' } | undefined {
  if (pricing?.reasoning_per_million !== undefined) return { rate: pricing.reasoning_per_million, field: 'reasoning_per_million' };
  if (pricing?.output_per_million !== undefined) return { rate: pricing.output_per_million, field: 'output_per_million' };
  return undefined;
}

/**
 * The words the cost before sending adds when an effort is chosen, and the effort menu's placeholder
 * (assumption 3): the reasoning tokens are not in the figure, and the rate they are billed at.
 */
export function reasoningCostNote(pricing: ModelPricing | undefined): string {
  const r = reasoningRate(pricing);
  if (!r) return l10n.t('reasoning tokens not included and not priced: no output rate');
  const rate = formatRateText(r.rate, l10n.t('1M tokens'));
  return r.field === 'reasoning_per_million' ? l10n.t('reasoning tokens not included: billed at {0}', rate) : l10n.t('reasoning tokens not included: billed as output at {0}', rate);
}

function bounded(name: string): string {
  return name.length > 48 ? `${name.slice(0, 48)}…` : name;
}
