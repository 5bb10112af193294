/**
 * The cost of a prompt while it is being typed (vscode-free), for the chat input: the exact prompt
 * tokens from POST /v1/messages/count_tokens (through TokenCounter, src/core/lm/tokenCount.ts, which
 * holds the assumed payload) times the model's input rate, plus the most the reply can cost when the
 * model publishes max_output_tokens (src/core/spend/costEstimate.ts).
 *
 * Never one request per keystroke:
 *  - debounced: a request waits `delayMs` of quiet; a newer request within it replaces it, and the
 *    replaced caller resolves to undefined ("superseded");
 *  - superseded while counting: the count under way is aborted (its AbortSignal fires);
 *  - cached by (model, SHA-256 of the text): a text seen before answers at once, without a timer or a
 *    request (LRU, at most CACHE_ENTRIES). Only the token count is cached; the cost is recomputed from
 *    the rates known at the time of the call, so a repricing shows at once. Local estimates are not
 *    cached, so the exact count replaces them when the route comes back.
 * When the count is the local estimate (route unavailable, too short, paused), `counted` is false and
 * the UI must label the figure as an estimate.
 */
import { createHash } from 'node:crypto';
import type { ModelPricing } from '../gateway/types';
import type { TokenCount } from '../lm/tokenCount';
import { formatCredits } from '../pricing';
import * as l10n from '../l10n';
import { costBeforeSending, type CostBeforeSending } from './costEstimate';

export const PROMPT_COST_DEBOUNCE_MS = 400;
export const PROMPT_COST_CACHE_ENTRIES = 200;

export interface PromptCostModel {
  pricing?: ModelPricing;
  max_output_tokens?: number;
}

export interface PromptCostDeps {
  /** TokenCounter.countWithSource (with a low minRemoteChars: this class debounces). */
  count(model: string, text: string, signal: AbortSignal): Promise<TokenCount>;
  /** The model as the catalog has it now (rates and max_output_tokens); undefined when unknown. */
  model(id: string): PromptCostModel | undefined;
  delayMs?: number;
  /** Injectable timers (tests). */
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
}

export interface PromptCost extends CostBeforeSending {
  model: string;
}

interface Pending {
  resolve: (v: PromptCost | undefined) => void;
  timer?: unknown;
  abort?: AbortController;
}

export class PromptCostEstimator {
  private readonly cache = new Map<string, number>();
  private pending: Pending | undefined;
  /** Counts asked of `deps.count` (for tests and the log). */
  counts = 0;

  constructor(private readonly deps: PromptCostDeps) {}

  /**
   * The cost of sending `text` to `model`, plus `extraTokens` counted elsewhere (images, at an assumed
   * rate: the figure is then an estimate). Resolves to undefined when superseded by a newer request,
   * when the text is empty, or when the model has no usable input rate.
   */
  request(model: string, text: string, extraTokens = 0): Promise<PromptCost | undefined> {
    const extra = Number.isSafeInteger(extraTokens) && extraTokens > 0 ? extraTokens : 0;
    this.supersede();
    if (text.trim() === '') return Promise.resolve(undefined);
    const key = cacheKey(model, text);
    const hit = this.cache.get(key);
    if (hit !== undefined) {
      this.cache.delete(key);
      this.cache.set(key, hit);
      return Promise.resolve(this.price(model, hit + extra, extra === 0));
    }
    return new Promise<PromptCost | undefined>((resolve) => {
      const p: Pending = { resolve };
      this.pending = p;
      const setTimer = this.deps.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
      p.timer = setTimer(() => {
        p.timer = undefined;
        if (this.pending !== p) return;
        const abort = (p.abort = new AbortController());
        this.counts++;
        this.deps.count(model, text, abort.signal).then(
          (n) => {
            if (this.pending !== p || abort.signal.aborted) return;
            this.pending = undefined;
            if (n.source === 'gateway') this.remember(key, n.tokens);
            resolve(this.price(model, n.tokens + extra, n.source === 'gateway' && extra === 0));
          },
          () => {
            if (this.pending !== p) return;
            this.pending = undefined;
            resolve(undefined);
          },
        );
      }, this.deps.delayMs ?? PROMPT_COST_DEBOUNCE_MS);
    });
  }

  /** Cancels whatever is waiting or counting (the input was cleared, the view closed). */
  cancel(): void {
    this.supersede();
  }

  private supersede(): void {
    const p = this.pending;
    if (!p) return;
    this.pending = undefined;
    if (p.timer !== undefined) (this.deps.clearTimer ?? ((h) => clearTimeout(h as ReturnType<typeof setTimeout>)))(p.timer);
    p.abort?.abort();
    p.resolve(undefined);
  }

  private price(model: string, tokens: number, counted: boolean): PromptCost | undefined {
    const m = this.deps.model(model);
    const cost = costBeforeSending(tokens, counted, m?.pricing, m?.max_output_tokens);
    return cost ? { ...cost, model } : undefined;
  }

  private remember(key: string, tokens: number): void {
    this.cache.set(key, tokens);
    if (this.cache.size > PROMPT_COST_CACHE_ENTRIES) {
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) this.cache.delete(oldest);
    }
  }
}

function cacheKey(model: string, text: string): string {
  return `${model}\u0000${createHash('sha256').update(text, 'utf8').digest('base64')}`;
}

/**
 * The line the chat input shows for a prompt cost: the exact prompt cost, then the most the send can
 * cost with the longest reply when the model publishes max_output_tokens; "(estimate)" when the
 * gateway did not count the tokens.
 */
export function promptCostText(c: CostBeforeSending): string {
  // In the display language (#41, the Spanish newcomer pass: "Prompt 0,000086 créditos, at most … with the reply").
  const prompt = formatCredits(c.inputNano);
  const line = c.maxOutputNano !== undefined ? l10n.t('Prompt {0}, at most {1} with the reply', prompt, formatCredits(c.upToNano)) : l10n.t('Prompt {0}', prompt);
  return c.counted ? line : l10n.t({ message: '{0} (estimate)', args: [line], comment: ['a cost line, then a note that the tokens were estimated, not counted by the gateway'] });
}
