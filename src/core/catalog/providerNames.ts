/**
 * Provider display names: the catalog's `provider` is a lowercase id ("openai"); people read
 * "OpenAI". The spec's providers are named here; an unknown id is shown as the gateway sent it
 * (G-CAT-2: kept and shown, never dropped), with its first letter capitalised.
 */
const NAMES: Readonly<Record<string, string>> = {
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

export function providerDisplayName(provider: string | undefined): string {
  const id = (provider ?? '').trim();
  if (!id) return 'Other';
  return NAMES[id.toLowerCase()] ?? id.charAt(0).toUpperCase() + id.slice(1);
}
