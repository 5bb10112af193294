/**
 * The pre-check that keeps an over-long input from being sent at all. There is no documented token
 * counter for these endpoints (count_tokens' payload is not shown), so this is an estimate that errs
 * on the side of counting more tokens than a real tokenizer would for Latin text, and about one token
 * per character for scripts such as CJK.
 */
import { ContentError } from './contentErrors';

/** Room kept for the instructions wrapped around the text by the endpoint or the fallback prompt. */
export const PROMPT_OVERHEAD_TOKENS = 256;

export function estimateTokens(text: string): number {
  let ascii = 0;
  let other = 0;
  for (const ch of text) {
    if (ch.charCodeAt(0) < 128) ascii++;
    else other++;
  }
  return Math.ceil(ascii / 3.5) + other;
}

/**
 * Throws ContentError('input_too_long') when the estimate plus overhead exceeds `contextWindow`.
 * A model without a published context_window is not checked (the gateway will say if it is too long).
 */
export function assertFitsContextWindow(text: string, model: { id: string; context_window?: number } | undefined): void {
  const limit = model?.context_window;
  if (!model || limit === undefined || limit <= 0) return;
  const estimate = estimateTokens(text) + PROMPT_OVERHEAD_TOKENS;
  if (estimate > limit) {
    throw new ContentError(
      'input_too_long',
      `The text is too long for ${model.id}: about ${estimate.toLocaleString('en-US')} tokens, and the model's context window is ` +
        `${limit.toLocaleString('en-US')} tokens. Select a shorter part, or pick a model with a larger context window. Nothing was sent.`,
    );
  }
}
