/**
 * What a billed reply is charged at in the spend ledger and the views, the same for every surface (the
 * chat, agent rounds, Compare, VS Code's chat through the provider, the content commands):
 *
 * - The gateway reported usage that reads exactly: its usage, priced at the catalog's rates.
 * - The request may have reached the gateway but no usage came (stopped by the user, the stream cut or
 *   timed out, a failure after sending): an estimate, marked `estimated` (`stopped` / `failed`), so
 *   the ledger, the status bar total and the budget count it (#39.1).
 * - The gateway's usage has counts the client cannot read (an overflowing 1e400, a negative count):
 *   a conservative estimate, marked `unreadable_usage` and naming the fields (#39.5). Conservative: no
 *   count below what the gateway did report readably or below the local estimate, reasoning billed on
 *   top of the completion, and no cache-read discount.
 *
 * Estimates count about 4 characters per token (the context estimate's rule, chat/conversation.ts).
 */
import * as l10n from '../l10n';
import type { ModelPricing, Usage } from '../gateway/types';
import { isGatewayError } from '../http/errors';

export type EstimateReason = 'stopped' | 'failed' | 'unreadable_usage';

export interface Charge {
  usage: Usage;
  /** Set when `usage` is the client's estimate rather than the gateway's figure, and why. */
  estimated?: EstimateReason;
}

/** About 4 characters per token, at least 1 for any text. */
export function roughTokens(text: string): number {
  return text.length === 0 ? 0 : Math.max(1, Math.ceil(text.length / 4));
}

/** The client's estimate of a reply's usage: the prompt's token estimate and the text that arrived. */
export function estimatedUsage(promptTokens: number, completionText: string): Usage {
  const completion = roughTokens(completionText);
  return { prompt_tokens: promptTokens, completion_tokens: completion, total_tokens: promptTokens + completion, source: 'estimate' };
}

/**
 * The charge of one reply: `reported` is the usage the gateway sent (undefined when none came);
 * `estimate` the client's own (called only when needed); `why` says why no usage came when that is
 * the case (the reply was stopped, or it failed after sending).
 */
export function chargeOf(reported: Usage | undefined, estimate: () => Usage, why: 'stopped' | 'failed' = 'stopped'): Charge {
  if (reported && !(reported.unreadable && reported.unreadable.length > 0)) return { usage: reported };
  const e = estimate();
  if (!reported) return { usage: { ...e, source: 'estimate' }, estimated: why };
  // Unreadable counts are 0 in `reported`: the larger of each readable count and the estimate.
  const prompt = Math.max(reported.prompt_tokens, e.prompt_tokens);
  const completion = Math.max(reported.completion_tokens, e.completion_tokens);
  const reasoning = reported.completion_tokens_details?.reasoning_tokens ?? 0;
  const usage: Usage = { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion + reasoning, source: 'estimate' };
  if (reasoning > 0) usage.completion_tokens_details = { reasoning_tokens: reasoning };
  // Cache writes can cost more than plain input, so reported ones stay; cache reads lose their discount.
  if (reported.cache_write_tokens && reported.cache_write_tokens <= prompt) usage.cache_write_tokens = reported.cache_write_tokens;
  return { usage, estimated: 'unreadable_usage' };
}

/**
 * Whether a request that ended with `error` may have been billed: the stream had started, or the
 * request may have reached the gateway and was not answered with an error status (an error answer
 * generated nothing). A cancel or timeout in flight counts, as the gateway may have gone on.
 */
export function mayHaveBeenBilled(error: unknown, streamStarted: boolean): boolean {
  if (streamStarted) return true;
  if (!isGatewayError(error)) return false;
  if (error.partial) return true;
  if (error.status !== undefined) return false;
  return error.mayHaveReachedServer;
}

/** The tooltip of a cost: what it was computed from (#39.4). */
export function costBasisText(charge: Charge, pricing: ModelPricing | undefined): string {
  const version = pricing?.pricing_version ? l10n.t('pricing_version {0}', pricing.pricing_version) : l10n.t('no pricing_version');
  const u = charge.usage;
  const kinds: string[] = [l10n.t('prompt'), l10n.t('completion')];
  if (u.completion_tokens_details?.reasoning_tokens) kinds.push(l10n.t('reasoning'));
  if (u.cache_read_tokens) kinds.push(l10n.t('cache read'));
  if (u.cache_write_tokens) kinds.push(l10n.t('cache write'));
  const list = kinds.join(', ');
  switch (charge.estimated) {
    case 'stopped':
      return l10n.t('Estimated: the reply was stopped before the gateway reported its usage; {0} tokens estimated at about 4 characters a token, at the catalog’s rates, {1}.', list, version);
    case 'failed':
      return l10n.t('Estimated: the reply failed after it was sent, before the gateway reported its usage; {0} tokens estimated at about 4 characters a token, at the catalog’s rates, {1}.', list, version);
    case 'unreadable_usage':
      return l10n.t('Estimated: the gateway’s usage could not be read, so this is a conservative estimate ({0} tokens, no cache discount) at the catalog’s rates, {1}.', list, version);
    default:
      return u.source === 'messages'
        ? l10n.t('From the gateway’s usage (messages route): {0} tokens at the catalog’s rates, {1}.', list, version)
        : l10n.t('From the gateway’s usage (chat completions): {0} tokens at the catalog’s rates, {1}.', list, version);
  }
}
