/**
 * Models a test adds to the local catalog (`startGateway({ extraModels: [...] })`) when it needs one the
 * built-in catalog (catalog.ts) does not have, written once here rather than in each test.
 */
import type { Model } from './wire';

/**
 * A messages-only model that also does summaries (listed with `messages` but not `chat`): the content
 * commands' default model in the messages-route tests (Rewrite Selection, #39.8).
 */
export const MESSAGES_SUMMARY_MODEL: Model = {
  id: 'anthropic/claude-haiku-4-messages',
  object: 'model',
  owned_by: 'Anthropic',
  provider: 'anthropic',
  display_name: 'Claude Haiku 4 (messages)',
  capabilities: ['messages', 'summary'],
  context_window: 200000,
  max_output_tokens: 8000,
  pricing: { input_per_million: '1', output_per_million: '5', pricing_version: 'local-extra', unit: 'credits' },
};
