/**
 * Wire types of the AI gateway, as documented in ai-gateway-api.md. Field names are the wire names.
 * Where the spec says a field may be absent it is optional here; unknown extra fields are tolerated.
 */

export const PROVIDERS = ['openai', 'google', 'gemma', 'anthropic', 'deepseek', 'kimi', 'glm', 'minimax', 'qwen'] as const;
export type KnownProvider = (typeof PROVIDERS)[number];

export const CAPABILITIES = [
  'chat',
  'image_generation',
  'speech_generation',
  'transcription',
  'alt_text',
  'summary',
  'taxonomy',
  'messages',
  'tools',
  'vision',
  'documents',
  'reasoning',
  'web_search',
] as const;
export type Capability = (typeof CAPABILITIES)[number];

export interface TemperatureConstraint {
  /** When false the model rejects any explicit value: send none. */
  supported?: boolean;
  /** Inclusive; a missing min means 0. */
  min?: number;
  /** Inclusive; published for every supported parameter. */
  max?: number;
}

export interface ModelParameters {
  temperature?: TemperatureConstraint;
  response_format_type?: { values: string[] };
}

/** Decimal strings: never convert to number, use core/pricing.ts. */
export interface ModelPricing {
  input_per_million?: string;
  output_per_million?: string;
  cache_read_per_million?: string;
  cache_write_per_million?: string;
  reasoning_per_million?: string;
  per_image?: string;
  per_million_characters?: string;
  per_megabyte_audio?: string;
  pricing_version: string;
  unit: 'credits' | string;
}

export interface Model {
  id: string;
  object: 'model';
  owned_by: string;
  /** One of PROVIDERS in the spec; an unknown value is kept and shown, never dropped (G-CAT-2). */
  provider: string;
  display_name: string;
  description?: string;
  /** Unknown values are kept as strings. */
  capabilities?: string[];
  context_window?: number;
  max_output_tokens?: number;
  parameters?: ModelParameters;
  pricing?: ModelPricing;
  /** YYYY-MM-DD */
  deprecation_date?: string;
  /** YYYY-MM-DD */
  removal_date?: string;
}

export interface ModelCatalog {
  object: 'list';
  data: Model[];
}

export type ChatRole = 'system' | 'user' | 'assistant';

export interface ChatMessage {
  role: ChatRole;
  content: string;
}

export interface ChatCompletionRequest {
  model: string;
  messages: ChatMessage[];
  stream?: boolean;
  /**
   * Assumption (spec: "chat request fields other than model, messages and stream: not shown"): the
   * gateway accepts the OpenAI-style `temperature` field. Never sent when the model's
   * temperature.supported is false (G-CAT-5).
   */
  temperature?: number;
  /** Assumption as above: OpenAI-style stream_options to receive usage on the last chunk. */
  stream_options?: { include_usage?: boolean };
  /** Reasoning effort: only a value the catalog lists, in the form reasoningEffort.ts assumes (the one place). */
  reasoning_effort?: string;
}

/**
 * The ONE internal usage type: what pricing (core/pricing.ts), the spend ledger and the views read. It
 * is not a wire shape: each route's usage is read into it in one place (chat completions:
 * readChatUsage in gateway/usage.ts; messages: usageFromMessages in gateway/messagesWire.ts), so a
 * field of one wire never stands in for another's.
 */
export interface Usage {
  /** Every input token, cache reads and cache writes included. */
  prompt_tokens: number;
  completion_tokens: number;
  completion_tokens_details?: { reasoning_tokens?: number };
  /** On reasoning models this can exceed prompt + completion (G-CHAT-3). */
  total_tokens: number;
  /** Prompt tokens read from the prompt cache (part of prompt_tokens). */
  cache_read_tokens?: number;
  /** Prompt tokens written to the prompt cache (part of prompt_tokens). */
  cache_write_tokens?: number;
  /**
   * Where the counts came from: the chat-completions wire, the messages wire, or the client's own
   * estimate (a reply stopped or cut before the gateway reported usage, or usage it could not read).
   */
  source?: UsageSource;
  /**
   * Usage fields the gateway sent that are not non-negative whole numbers (an overflowing 1e400, a
   * negative count, a fraction): their counts above are 0, and pricing refuses this usage, so the
   * reply is charged at a conservative estimate instead (core/spend/charge.ts).
   */
  unreadable?: string[];
}

export type UsageSource = 'chat_completions' | 'messages' | 'estimate';

/**
 * The chat-completions route's usage object as it comes off the wire. Documented (spec, "usage"):
 * prompt_tokens, completion_tokens, completion_tokens_details.reasoning_tokens, total_tokens. Any
 * other field is a compatible convention read (or not) by readChatUsage in gateway/usage.ts only.
 */
export interface ChatUsageWire {
  prompt_tokens?: unknown;
  completion_tokens?: unknown;
  completion_tokens_details?: { reasoning_tokens?: unknown } | null;
  total_tokens?: unknown;
  prompt_tokens_details?: { cached_tokens?: unknown } | null;
}

export interface ChatCompletion {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  choices: Array<{ index: number; message: { role: 'assistant'; content: string }; finish_reason: string | null }>;
  /** Already read into the internal form by the client (gateway/usage.ts, messagesWire.ts). */
  usage?: Usage;
}

export interface ChatCompletionChunk {
  id: string;
  object: 'chat.completion.chunk';
  created: number;
  model: string;
  choices: Array<{ index: number; delta: { role?: 'assistant'; content?: string }; finish_reason: string | null }>;
  /** Already read into the internal form by the client's codec (gateway/usage.ts, messagesWire.ts). */
  usage?: Usage | null;
}
