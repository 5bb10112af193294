/**
 * The gateway's own wire types, written from /work/shared/spec/ai-gateway-api.md (Resources: Model,
 * Chat completion). The local gateway imports nothing from `src/`, not even types: a shape or constant
 * shared with the client would hide a mistake both make (test/unit/layering.test.ts checks it).
 * Fields the spec leaves out but the gateway serves anyway are marked as assumptions.
 */

/** `parameters.temperature`: `supported` false means any explicit value is rejected (G-CAT-5). */
export interface TemperatureConstraint {
  supported?: boolean;
  /** Inclusive; omitted when 0 (G-CAT-6). */
  min?: number;
  /** Inclusive; published for every supported parameter. */
  max?: number;
}

export interface ModelParameters {
  temperature?: TemperatureConstraint;
  response_format_type?: { values: string[] };
  /** Assumption (spec: not shown; reasoning.ts): the reasoning efforts the model takes. */
  reasoning_effort?: { values: string[] };
}

/** Decimal strings; only the rates that apply are present (G-CAT-8). */
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
  unit: string;
}

export interface Model {
  id: string;
  object: 'model';
  owned_by: string;
  provider: string;
  display_name: string;
  description?: string;
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

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  completion_tokens_details?: { reasoning_tokens?: number };
  total_tokens: number;
  /**
   * Assumption (spec: not shown): OpenAI-compatible cached prompt tokens (cache reads), for models with
   * a cache-read rate. No cache-write field: this route bills cache writes as ordinary input.
   */
  prompt_tokens_details?: { cached_tokens?: number };
}

export interface ChatCompletion {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  choices: Array<{ index: number; message: { role: 'assistant'; content: string }; finish_reason: string | null }>;
  usage?: Usage;
}

export interface ChatCompletionChunk {
  id: string;
  object: 'chat.completion.chunk';
  created: number;
  model: string;
  choices: Array<{ index: number; delta: { role?: 'assistant'; content?: string }; finish_reason: string | null }>;
  usage?: Usage | null;
}
