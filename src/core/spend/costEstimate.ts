/**
 * Cost before sending (vscode-free): the prompt's tokens (from POST /v1/messages/count_tokens through
 * src/core/lm/tokenCount.ts, which holds the assumed payload, the cache and the never-per-keystroke
 * rules) times the model's input rate, plus the most the reply can cost when the model publishes
 * max_output_tokens. Exact nanocredits from the catalog's decimal rates. `counted` is false when the
 * tokens are the local estimate (route unavailable or text too short to send): the UI then labels the
 * figure as an estimate.
 */
import { costNanoFor, PricingError } from '../pricing';
import type { ModelPricing } from '../gateway/types';

/**
 * A content command's input is "large", and its cost is shown before sending, from this many
 * characters (about 2,000 tokens by the local rule of thumb). The one place this is decided.
 */
export const LARGE_PROMPT_CHARS = 8_000;

export function isLargePrompt(text: string): boolean {
  return text.length >= LARGE_PROMPT_CHARS;
}

export interface CostBeforeSending {
  inputTokens: number;
  inputNano: bigint;
  /** Present when the model publishes max_output_tokens and an output rate. */
  maxOutputNano?: bigint;
  /** inputNano + (maxOutputNano ?? 0). */
  upToNano: bigint;
  counted: boolean;
}

export function costBeforeSending(inputTokens: number, counted: boolean, pricing: ModelPricing | undefined, maxOutputTokens?: number): CostBeforeSending | undefined {
  if (!pricing || pricing.unit !== 'credits' || pricing.input_per_million === undefined) return undefined;
  try {
    const inputNano = costNanoFor(inputTokens, pricing.input_per_million, 1_000_000n);
    const maxOutputNano = maxOutputTokens !== undefined && pricing.output_per_million !== undefined ? costNanoFor(maxOutputTokens, pricing.output_per_million, 1_000_000n) : undefined;
    return { inputTokens, inputNano, ...(maxOutputNano !== undefined ? { maxOutputNano } : {}), upToNano: inputNano + (maxOutputNano ?? 0n), counted };
  } catch (e) {
    if (e instanceof PricingError) return undefined;
    throw e;
  }
}

/**
 * Debounces estimates for a text being typed: only the last call within `delayMs` asks, and earlier
 * callers get the answer for the latest text. The count function is TokenCounter.count (cached).
 */
export class DebouncedEstimate<T> {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private waiters: Array<(v: T) => void> = [];

  constructor(
    private readonly compute: (text: string) => Promise<T>,
    private readonly delayMs = 400,
  ) {}

  request(text: string): Promise<T> {
    if (this.timer) clearTimeout(this.timer);
    return new Promise<T>((resolve) => {
      this.waiters.push(resolve);
      this.timer = setTimeout(() => {
        const waiters = this.waiters;
        this.waiters = [];
        void this.compute(text).then((v) => waiters.forEach((w) => w(v)));
      }, this.delayMs);
    });
  }
}
