/**
 * The gateway's catalog as VS Code's language model picker sees it (src/lm/chatProvider.ts). Pure: the
 * catalog comes from the shared cached catalog (src/platform/catalogService.ts), never a second fetch.
 *
 * - Offered: models with the `chat` capability that are not removed (G-CAT-11); deprecated ones carry
 *   "removed in N days; use <alternative>" in `detail`, which VS Code shows next to the name.
 * - Limits (#41.11): VS Code's Manage Language Models shows a model's context as maxInputTokens +
 *   maxOutputTokens (read in the workbench VS Code 1.139 ships), so with `maxInputTokens` = context_window
 *   Claude Haiku 4.5 read "264K" where the catalog says 200,000. `maxOutputTokens` = max_output_tokens and
 *   `maxInputTokens` = context_window minus it, so the sum VS Code shows is the catalog's context window
 *   (and a prompt VS Code packs to the limit still leaves room for the longest reply). Each falls back
 *   to the documented defaults below when the catalog publishes none.
 * - Pricing: VS Code 1.139's **Chat: Manage Language Models** table fills its Pricing column from
 *   `inputCost` / `outputCost` / `cacheCost` / `cacheWriteCost` ("In: …", "Out: …", "Cache Read: …",
 *   "Cache Write: …", hover "Input: … credits per 1M tokens"); `pricing` is its one-line text when no
 *   cost field is set and is read out by screen readers. These fields are not in the stable typings:
 *   the extension host copies them verbatim, and the table interpolates them as text. We pass the
 *   catalog's decimal strings unchanged, so "0.150" shows as "0.150", never a rounded float. (The
 *   model picker's cost hover, shown only to Copilot usage-billing accounts, prints a non-number as
 *   "Unknown"; it is not used without that account.) The tooltip lists every rate exactly as well.
 */
import { isConversational } from '../gateway/chatRoute';
import { findAlternative } from '../catalog/alternative';
import { modelLifecycle, removalPhrase } from '../catalog/deprecation';
import { rateLines } from '../catalog/pricingDisplay';
import { isDecimalString } from '../pricing';
import type { Model } from '../gateway/types';

/** maxInputTokens + maxOutputTokens = the catalog's context window, as VS Code adds them up (#41.11). */
function limits(m: Model): { maxInputTokens: number; maxOutputTokens: number } {
  const maxOutputTokens = positiveInt(m.max_output_tokens) ?? DEFAULT_MAX_OUTPUT_TOKENS;
  const window = positiveInt(m.context_window);
  if (window === undefined) return { maxInputTokens: DEFAULT_MAX_INPUT_TOKENS, maxOutputTokens };
  // A window no larger than the output limit (not seen in a catalog) keeps the window as the input limit.
  return { maxInputTokens: window > maxOutputTokens ? window - maxOutputTokens : window, maxOutputTokens };
}

/**
 * Documented defaults when the catalog publishes no limit. Assumption (spec: `context_window` and
 * `max_output_tokens` are optional and no default is shown): conservative values that fit every model
 * the gateway fronts, so VS Code never packs more into a prompt than a small model accepts.
 */
export const DEFAULT_MAX_INPUT_TOKENS = 8_192;
export const DEFAULT_MAX_OUTPUT_TOKENS = 4_096;

export interface LmModelInfo {
  id: string;
  name: string;
  family: string;
  version: string;
  detail?: string;
  tooltip: string;
  maxInputTokens: number;
  maxOutputTokens: number;
  capabilities: { toolCalling: boolean; imageInput: boolean };
  /** Read by VS Code 1.139's Pricing column (see the header); exact decimal strings. */
  inputCost?: string;
  outputCost?: string;
  cacheCost?: string;
  cacheWriteCost?: string;
  pricing?: string;
}

function positiveInt(n: unknown): number | undefined {
  return typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

function rate(value: string | undefined): string | undefined {
  return value !== undefined && isDecimalString(value) ? value : undefined;
}

/** Every model the provider offers, in catalog order. */
export function lmModelInfos(models: readonly Model[], now: Date | number): LmModelInfo[] {
  const ids = new Set(models.map((m) => m.id));
  const out: LmModelInfo[] = [];
  for (const m of models) {
    if (!isConversational(m)) continue;
    const life = modelLifecycle(m, now);
    if (life.state === 'removed') continue;
    out.push(lmModelInfo(m, life, ids));
  }
  return out;
}

function lmModelInfo(m: Model, life: ReturnType<typeof modelLifecycle>, ids: ReadonlySet<string>): LmModelInfo {
  const caps = m.capabilities ?? [];
  const p = m.pricing;
  const credits = p?.unit === 'credits';
  let detail: string | undefined;
  if (life.state === 'deprecated') {
    const alt = findAlternative(m, ids).modelId;
    const when = removalPhrase(life) ?? 'deprecated';
    detail = `${when}${alt ? `; use ${alt}` : ''}`;
  }
  const lines = rateLines(p);
  const tooltip = [
    `${m.display_name} (${m.id})`,
    ...(m.description ? [m.description] : []),
    ...(detail ? [`Deprecated: ${detail}.`] : []),
    ...(lines.length ? lines.map((l) => `${l.label}: ${l.text}`) : ['No published rates.']),
    ...(p?.pricing_version ? [`Pricing version ${p.pricing_version}`] : []),
  ].join('\n');
  const input = credits ? rate(p?.input_per_million) : undefined;
  const output = credits ? rate(p?.output_per_million) : undefined;
  const info: LmModelInfo = {
    id: m.id,
    name: m.display_name || m.id,
    family: m.id,
    version: p?.pricing_version ?? '1',
    tooltip,
    ...limits(m),
    capabilities: { toolCalling: caps.includes('tools'), imageInput: caps.includes('vision') },
  };
  if (detail) info.detail = detail;
  if (input !== undefined) info.inputCost = input;
  if (output !== undefined) info.outputCost = output;
  const cacheRead = credits ? rate(p?.cache_read_per_million) : undefined;
  const cacheWrite = credits ? rate(p?.cache_write_per_million) : undefined;
  if (cacheRead !== undefined) info.cacheCost = cacheRead;
  if (cacheWrite !== undefined) info.cacheWriteCost = cacheWrite;
  if (input !== undefined || output !== undefined) info.pricing = `${input ?? '-'} in / ${output ?? '-'} out credits per 1M tokens`;
  return info;
}
