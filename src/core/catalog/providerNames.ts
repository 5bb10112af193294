/**
 * Provider ids as people write them (#29.13): the catalog's `provider` is a lowercase id ("openai",
 * "deepseek"); the views and the chat's model picker show the provider's name. An id outside the
 * documented set is shown as sent (G-CAT-2 keeps such models).
 */
import type { KnownProvider } from '../gateway/types';

export const PROVIDER_NAMES: Record<KnownProvider, string> = {
  openai: 'OpenAI',
  google: 'Google',
  gemma: 'Gemma',
  anthropic: 'Anthropic',
  deepseek: 'DeepSeek',
  kimi: 'Kimi',
  glm: 'GLM',
  minimax: 'MiniMax',
  qwen: 'Qwen',
};

export function providerName(id: string): string {
  return Object.prototype.hasOwnProperty.call(PROVIDER_NAMES, id) ? PROVIDER_NAMES[id as KnownProvider] : id;
}

/** The name of a provider id for a details line: a known id by its name ("openai" -> "OpenAI"), any other as sent. */
export function providerLabel(id: string): string {
  const name = providerName(id.toLowerCase());
  return name !== id.toLowerCase() ? name : id;
}

/** The name for a group heading: an unknown id with its first letter capitalised, no id at all "Other". */
export function providerDisplayName(provider: string | undefined): string {
  const id = (provider ?? '').trim();
  if (!id) return 'Other';
  const name = providerName(id.toLowerCase());
  return name !== id.toLowerCase() ? name : id.charAt(0).toUpperCase() + id.slice(1);
}
