/**
 * Reasoning effort at the local gateway (issue 43 item 3). Written from the spec, which does not show
 * how the catalog says a model takes a reasoning effort nor the request field for it ("chat request
 * fields other than model, messages and stream: not shown"), so this gateway serves, by default:
 *
 * - Catalog (ASSUMED, the form of the documented `parameters.response_format_type`):
 *   `parameters.reasoning_effort: { values: ["low", "medium", "high"] }` on the models that take one.
 * - POST /v1/chat/completions: `reasoning_effort: "<value>"`; POST /v1/messages:
 *   `thinking: { type: "enabled", effort: "<value>" }`. Either is recorded on the request's event
 *   (`reasoningEffort` on `chat-request`, `thinking` on `messages-request`), and refused with 400 when
 *   the model does not list it or the value is not one of its values (a client that sends one a model
 *   does not take fails a test).
 * - Pricing: the effort buys reasoning tokens (REASONING_TOKENS: more for a higher effort), reported in
 *   `completion_tokens_details.reasoning_tokens` (counted in total_tokens only, G-CHAT-3) and in the
 *   messages route's `output_tokens` with `output_tokens_details.reasoning_tokens`; the bill prices them
 *   at reasoning_per_million, else output_per_million.
 *
 * The `reasoningEffort` mode (modes.ts) makes GET /v1/models describe the same capability in another
 * plausible shape, so a test can prove the client fails closed (sends nothing, says so):
 * - 'assumed' (default) as above;
 * - 'nested': `parameters.reasoning: { effort: { values: [...] } }`;
 * - 'bare': `parameters.reasoning_effort: ["low", "medium", "high"]` (the list itself);
 * - 'thinking_budget': `parameters.thinking: { budget_tokens: { min: 1024, max: 32000 } }`.
 * The requests are still checked against the served truth (the default shape).
 */
import type { Model } from './wire';
import { GatewayHttpError } from './context';

export const REASONING_EFFORT_MODES = ['assumed', 'nested', 'bare', 'thinking_budget'] as const;
export type ReasoningEffortMode = (typeof REASONING_EFFORT_MODES)[number];

/** Reasoning tokens a reply uses at each effort (deterministic, so a test can price a reply by hand). */
export const REASONING_TOKENS: Readonly<Record<string, number>> = { minimal: 16, low: 64, medium: 256, high: 1024 };

function valuesOf(model: Model): string[] | undefined {
  return model.parameters?.reasoning_effort?.values;
}

/** The catalog's models with the reasoning-effort capability described in the mode's shape. */
export function describeReasoning(models: Model[], mode: ReasoningEffortMode): Model[] {
  if (mode === 'assumed') return models;
  return models.map((m) => {
    const values = valuesOf(m);
    if (!values || !m.parameters) return m;
    const { reasoning_effort: _drop, ...rest } = m.parameters;
    const other: Record<string, unknown> =
      mode === 'nested' ? { reasoning: { effort: { values } } } : mode === 'bare' ? { reasoning_effort: [...values] } : { thinking: { budget_tokens: { min: 1024, max: 32000 } } };
    return { ...m, parameters: { ...rest, ...other } as Model['parameters'] };
  });
}

function invalid(message: string): GatewayHttpError {
  return new GatewayHttpError(400, 'invalid_request_error', message);
}

/** POST /v1/chat/completions: the `reasoning_effort` field checked against the model; the effort, or undefined. */
export function chatEffort(raw: Record<string, unknown>, model: Model): string | undefined {
  const v = raw.reasoning_effort;
  if (v === undefined || v === null) return undefined;
  return checkValue(v, model, 'reasoning_effort');
}

/** POST /v1/messages: the `thinking` object checked against the model; the effort, or undefined. */
export function messagesEffort(raw: Record<string, unknown>, model: Model): string | undefined {
  const t = raw.thinking;
  if (t === undefined || t === null) return undefined;
  if (typeof t !== 'object' || Array.isArray(t)) throw invalid("'thinking' must be an object {type: 'enabled', effort}");
  const { type, effort, ...rest } = t as Record<string, unknown>;
  if (type !== 'enabled' || Object.keys(rest).length > 0) throw invalid("'thinking' must be {type: 'enabled', effort}");
  return checkValue(effort, model, 'thinking.effort');
}

function checkValue(v: unknown, model: Model, field: string): string {
  const values = valuesOf(model);
  if (!values) throw invalid(`model '${model.id}' does not accept '${field}'; omit it`);
  if (typeof v !== 'string' || !values.includes(v)) throw invalid(`'${field}' must be one of ${values.join(', ')} for model '${model.id}'`);
  return v;
}

/** Reasoning tokens for a reply at `effort` (undefined: none chosen, the route's own default applies). */
export function reasoningTokensFor(effort: string): number {
  return REASONING_TOKENS[effort] ?? 128;
}
