/**
 * The local catalog (G-CAT-1..14): 38 models (one of them, anthropic/claude-sonnet-4, messages-only) over all 9 providers and every capability. Dates are
 * relative to the gateway clock (options.now), so "deprecated 30 days ago, removed in 45 days" stays
 * true whenever the suite runs. Two rate cards: the base one and a repriced one (options.repriced),
 * with a different pricing_version and some changed rates (G-CAT-9).
 *
 * Deliberate awkward spots, for client tests: rates like "0.0000001" and "0.3333333333", "2.50" with a
 * trailing zero, "15" without a point; models without max_output_tokens, without parameters, without
 * pricing or description; temperature with supported:false, with a missing min, with min > 0, and
 * supported:false together with a published min and max (qwen/qwq-plus).
 */
import type { Model, ModelPricing } from './wire';
import type { GatewayContext, GatewayOptions, RouteModule } from './context';
import { modesOf } from './modes';
import { describeReasoning } from './reasoning';

type Rates = Omit<ModelPricing, 'pricing_version' | 'unit'>;

interface ModelSpec extends Omit<Model, 'object' | 'pricing' | 'deprecation_date' | 'removal_date'> {
  rates?: Rates;
  /** Rates that change on the repriced card. */
  repriced?: Rates;
  /** Days from now (negative: in the past). */
  deprecatedIn?: number;
  removedIn?: number;
}

const CHAT_MSG = ['chat', 'messages'];

export const MODEL_SPECS: readonly ModelSpec[] = [
  // --- openai
  {
    id: 'openai/gpt-5.1',
    owned_by: 'OpenAI',
    provider: 'openai',
    display_name: 'GPT-5.1',
    description: 'Flagship reasoning model for coding and agentic tasks.',
    capabilities: [...CHAT_MSG, 'tools', 'vision', 'documents', 'reasoning', 'web_search', 'summary', 'taxonomy'],
    context_window: 400000,
    max_output_tokens: 128000,
    parameters: { temperature: { supported: false }, response_format_type: { values: ['text', 'json_object', 'json_schema'] }, reasoning_effort: { values: ['low', 'medium', 'high'] } },
    rates: { input_per_million: '1.25', output_per_million: '10.00', cache_read_per_million: '0.125' },
    repriced: { input_per_million: '1.375' },
  },
  {
    id: 'openai/gpt-5-mini',
    owned_by: 'OpenAI',
    provider: 'openai',
    display_name: 'GPT-5 mini',
    description: 'Faster, cheaper GPT-5 for well-defined tasks.',
    capabilities: ['chat', 'tools', 'reasoning', 'summary'],
    context_window: 400000,
    max_output_tokens: 128000,
    parameters: { temperature: { supported: false }, response_format_type: { values: ['text', 'json_object'] }, reasoning_effort: { values: ['minimal', 'low', 'medium', 'high'] } },
    rates: { input_per_million: '0.25', output_per_million: '2.00', cache_read_per_million: '0.025' },
  },
  {
    id: 'openai/gpt-4.1',
    owned_by: 'OpenAI',
    provider: 'openai',
    display_name: 'GPT-4.1',
    description: 'Non-reasoning model with a long context window.',
    capabilities: ['chat', 'tools', 'vision', 'documents'],
    context_window: 1047576,
    max_output_tokens: 32768,
    parameters: { temperature: { max: 2 }, response_format_type: { values: ['text', 'json_object', 'json_schema'] } },
    rates: { input_per_million: '2.00', output_per_million: '8.00', cache_read_per_million: '0.50' },
  },
  {
    id: 'openai/gpt-4o',
    owned_by: 'OpenAI',
    provider: 'openai',
    display_name: 'GPT-4o',
    description: 'Deprecated: use openai/gpt-5.1 instead.',
    capabilities: ['chat', 'tools', 'vision'],
    context_window: 128000,
    max_output_tokens: 16384,
    parameters: { temperature: { max: 2 } },
    rates: { input_per_million: '2.50', output_per_million: '10.00', cache_read_per_million: '1.25' },
    deprecatedIn: -30,
    removedIn: 45,
  },
  {
    id: 'openai/gpt-4-turbo',
    owned_by: 'OpenAI',
    provider: 'openai',
    display_name: 'GPT-4 Turbo',
    description: 'Removed: use openai/gpt-5.1 instead.',
    capabilities: ['chat', 'vision'],
    context_window: 128000,
    max_output_tokens: 4096,
    parameters: { temperature: { max: 2 } },
    rates: { input_per_million: '10', output_per_million: '30' },
    deprecatedIn: -200,
    removedIn: -20,
  },
  {
    id: 'openai/gpt-image-1',
    owned_by: 'OpenAI',
    provider: 'openai',
    display_name: 'GPT Image 1',
    description: 'Image generation from text prompts.',
    capabilities: ['image_generation'],
    rates: { per_image: '0.042' },
    repriced: { per_image: '0.0399' },
  },
  {
    id: 'openai/tts-1-hd',
    owned_by: 'OpenAI',
    provider: 'openai',
    display_name: 'TTS-1 HD',
    description: 'Text to speech, high quality.',
    capabilities: ['speech_generation'],
    rates: { per_million_characters: '30.000' },
  },
  {
    id: 'openai/whisper-1',
    owned_by: 'OpenAI',
    provider: 'openai',
    display_name: 'Whisper',
    description: 'Speech to text.',
    capabilities: ['transcription'],
    rates: { per_megabyte_audio: '0.0061' },
  },
  // --- google
  {
    id: 'google/gemini-2.5-pro',
    owned_by: 'Google',
    provider: 'google',
    display_name: 'Gemini 2.5 Pro',
    description: 'Thinking model for complex reasoning over large inputs.',
    capabilities: ['chat', 'tools', 'vision', 'documents', 'reasoning', 'web_search'],
    context_window: 1048576,
    max_output_tokens: 65536,
    parameters: { temperature: { max: 2 }, response_format_type: { values: ['text', 'json_object'] } },
    rates: { input_per_million: '1.25', output_per_million: '10.00', cache_read_per_million: '0.31', cache_write_per_million: '4.50' },
  },
  {
    id: 'google/gemini-2.5-flash',
    owned_by: 'Google',
    provider: 'google',
    display_name: 'Gemini 2.5 Flash',
    description: 'Fast multimodal model.',
    capabilities: ['chat', 'tools', 'vision', 'alt_text', 'summary', 'taxonomy'],
    context_window: 1048576,
    max_output_tokens: 65536,
    parameters: { temperature: { max: 2 } },
    rates: { input_per_million: '0.30', output_per_million: '2.50', cache_read_per_million: '0.075' },
    repriced: { output_per_million: '2.75' },
  },
  {
    id: 'google/gemini-2.0-flash',
    owned_by: 'Google',
    provider: 'google',
    display_name: 'Gemini 2.0 Flash',
    description: 'Deprecated: use google/gemini-2.5-flash instead.',
    capabilities: ['chat', 'vision'],
    context_window: 1048576,
    max_output_tokens: 8192,
    parameters: { temperature: { max: 2 } },
    rates: { input_per_million: '0.10', output_per_million: '0.40' },
    deprecatedIn: -60,
  },
  {
    id: 'google/gemini-1.5-pro',
    owned_by: 'Google',
    provider: 'google',
    display_name: 'Gemini 1.5 Pro',
    description: 'Removed: use google/gemini-2.5-pro instead.',
    capabilities: ['chat', 'vision'],
    context_window: 2097152,
    max_output_tokens: 8192,
    rates: { input_per_million: '1.25', output_per_million: '5.00' },
    deprecatedIn: -400,
    removedIn: -120,
  },
  {
    id: 'google/imagen-4',
    owned_by: 'Google',
    provider: 'google',
    display_name: 'Imagen 4',
    description: 'Photorealistic image generation.',
    capabilities: ['image_generation'],
    rates: { per_image: '0.04' },
  },
  {
    id: 'google/chirp-3',
    owned_by: 'Google',
    provider: 'google',
    display_name: 'Chirp 3',
    description: 'Speech recognition.',
    capabilities: ['transcription'],
    rates: { per_megabyte_audio: '0.0048' },
  },
  // --- gemma
  {
    id: 'gemma/gemma-3-27b',
    owned_by: 'Google',
    provider: 'gemma',
    display_name: 'Gemma 3 27B',
    description: 'Open-weights model, no published output limit.',
    capabilities: ['chat', 'vision', 'summary', 'taxonomy'],
    context_window: 131072,
    parameters: { temperature: { max: 1 } },
    rates: { input_per_million: '0.09', output_per_million: '0.16' },
  },
  {
    id: 'gemma/gemma-3-4b',
    owned_by: 'Google',
    provider: 'gemma',
    display_name: 'Gemma 3 4B',
    description: 'Small open-weights model.',
    capabilities: ['chat'],
    context_window: 131072,
    rates: { input_per_million: '0.0000001', output_per_million: '0.3333333333' },
  },
  {
    id: 'gemma/gemma-3n-e4b',
    owned_by: 'Google',
    provider: 'gemma',
    display_name: 'Gemma 3n E4B',
    description: 'On-device model; no published pricing or output limit.',
    capabilities: ['chat'],
    context_window: 32768,
  },
  // --- anthropic
  {
    id: 'anthropic/claude-sonnet-4.5',
    owned_by: 'Anthropic',
    provider: 'anthropic',
    display_name: 'Claude Sonnet 4.5',
    description: 'Balanced model for coding and agents.',
    capabilities: [...CHAT_MSG, 'tools', 'vision', 'documents', 'reasoning'],
    context_window: 200000,
    max_output_tokens: 64000,
    parameters: { temperature: { max: 1 } },
    rates: { input_per_million: '3', output_per_million: '15', cache_read_per_million: '0.30', cache_write_per_million: '3.75' },
    repriced: { output_per_million: '16.5', cache_write_per_million: '4.125' },
  },
  {
    id: 'anthropic/claude-opus-4.1',
    owned_by: 'Anthropic',
    provider: 'anthropic',
    display_name: 'Claude Opus 4.1',
    description: 'Most capable model for hard problems.',
    capabilities: [...CHAT_MSG, 'tools', 'vision', 'reasoning'],
    context_window: 200000,
    max_output_tokens: 32000,
    parameters: { temperature: { max: 1 }, reasoning_effort: { values: ['low', 'medium', 'high'] } },
    rates: { input_per_million: '15', output_per_million: '75', cache_read_per_million: '1.50', cache_write_per_million: '18.75' },
  },
  {
    id: 'anthropic/claude-haiku-4.5',
    owned_by: 'Anthropic',
    provider: 'anthropic',
    display_name: 'Claude Haiku 4.5',
    description: 'Fast, low-cost model.',
    capabilities: [...CHAT_MSG, 'tools', 'alt_text', 'summary', 'taxonomy'],
    context_window: 200000,
    max_output_tokens: 64000,
    parameters: { temperature: { max: 1 } },
    rates: { input_per_million: '1', output_per_million: '5', cache_read_per_million: '0.10', cache_write_per_million: '1.25' },
  },
  {
    // Messages-only (issue 33): served on POST /v1/messages, refused on chat completions.
    id: 'anthropic/claude-sonnet-4',
    owned_by: 'Anthropic',
    provider: 'anthropic',
    display_name: 'Claude Sonnet 4',
    description: 'Served on the messages route only.',
    capabilities: ['messages', 'tools', 'vision'],
    context_window: 200000,
    max_output_tokens: 16000,
    parameters: { temperature: { max: 1 } },
    rates: { input_per_million: '3', output_per_million: '15', cache_read_per_million: '0.30', cache_write_per_million: '3.75' },
  },
  {
    id: 'anthropic/claude-3-7-sonnet',
    owned_by: 'Anthropic',
    provider: 'anthropic',
    display_name: 'Claude Sonnet 3.7',
    description: 'Deprecated: use anthropic/claude-sonnet-4.5 instead.',
    capabilities: [...CHAT_MSG, 'tools', 'reasoning'],
    context_window: 200000,
    max_output_tokens: 64000,
    parameters: { temperature: { max: 1 } },
    rates: { input_per_million: '3', output_per_million: '15' },
    deprecatedIn: -10,
    removedIn: 90,
  },
  {
    id: 'anthropic/claude-3-5-sonnet',
    owned_by: 'Anthropic',
    provider: 'anthropic',
    display_name: 'Claude Sonnet 3.5',
    description: 'Removed: use anthropic/claude-sonnet-4.5 instead.',
    capabilities: [...CHAT_MSG, 'tools'],
    context_window: 200000,
    max_output_tokens: 8192,
    rates: { input_per_million: '3', output_per_million: '15' },
    deprecatedIn: -180,
    removedIn: -1,
  },
  // --- deepseek
  {
    id: 'deepseek/deepseek-chat',
    owned_by: 'DeepSeek',
    provider: 'deepseek',
    display_name: 'DeepSeek V3.2 Chat',
    description: 'General chat with JSON output.',
    capabilities: ['chat', 'tools'],
    context_window: 128000,
    max_output_tokens: 8192,
    parameters: { temperature: { max: 2 }, response_format_type: { values: ['text', 'json_object'] } },
    rates: { input_per_million: '0.28', output_per_million: '0.42', cache_read_per_million: '0.028' },
  },
  {
    id: 'deepseek/deepseek-reasoner',
    owned_by: 'DeepSeek',
    provider: 'deepseek',
    display_name: 'DeepSeek Reasoner',
    description: 'Thinking mode; reasoning tokens are billed at their own rate.',
    capabilities: ['chat', 'reasoning'],
    context_window: 128000,
    max_output_tokens: 65536,
    parameters: { temperature: { supported: false } },
    rates: { input_per_million: '0.55', output_per_million: '2.19', reasoning_per_million: '2.19', cache_read_per_million: '0.14' },
    repriced: { reasoning_per_million: '1.68' },
  },
  // --- kimi
  {
    id: 'kimi/kimi-k2',
    owned_by: 'Moonshot AI',
    provider: 'kimi',
    display_name: 'Kimi K2',
    description: 'Agentic coding model.',
    capabilities: ['chat', 'tools'],
    context_window: 262144,
    max_output_tokens: 16384,
    parameters: { temperature: { max: 1 } },
    rates: { input_per_million: '0.60', output_per_million: '2.50', cache_read_per_million: '0.15' },
  },
  {
    id: 'kimi/kimi-k2-thinking',
    owned_by: 'Moonshot AI',
    provider: 'kimi',
    display_name: 'Kimi K2 Thinking',
    description: 'Reasoning variant; no published output limit.',
    capabilities: ['chat', 'tools', 'reasoning'],
    context_window: 262144,
    parameters: { temperature: { min: 0.6, max: 1 } },
    rates: { input_per_million: '0.60', output_per_million: '2.50', reasoning_per_million: '2.50' },
  },
  // --- glm
  {
    id: 'glm/glm-4.6',
    owned_by: 'Zhipu AI',
    provider: 'glm',
    display_name: 'GLM-4.6',
    description: 'Coding and agent model.',
    capabilities: ['chat', 'tools', 'reasoning', 'web_search'],
    context_window: 200000,
    max_output_tokens: 128000,
    parameters: { temperature: { max: 1 }, response_format_type: { values: ['text', 'json_object'] } },
    rates: { input_per_million: '0.60', output_per_million: '2.20', cache_read_per_million: '0.11' },
  },
  {
    id: 'glm/glm-4.5v',
    owned_by: 'Zhipu AI',
    provider: 'glm',
    display_name: 'GLM-4.5V',
    description: 'Vision-language model.',
    capabilities: ['chat', 'vision', 'alt_text'],
    context_window: 65536,
    max_output_tokens: 16384,
    parameters: { temperature: { max: 1 } },
    rates: { input_per_million: '0.60', output_per_million: '1.80' },
  },
  // --- minimax
  {
    id: 'minimax/minimax-m2',
    owned_by: 'MiniMax',
    provider: 'minimax',
    display_name: 'MiniMax M2',
    description: 'Agentic model; temperature must be above zero.',
    capabilities: ['chat', 'tools', 'reasoning'],
    context_window: 204800,
    max_output_tokens: 131072,
    parameters: { temperature: { min: 0.01, max: 1 } },
    rates: { input_per_million: '0.30', output_per_million: '1.20', cache_read_per_million: '0.03', cache_write_per_million: '0.375' },
  },
  {
    id: 'minimax/speech-02-hd',
    owned_by: 'MiniMax',
    provider: 'minimax',
    display_name: 'Speech-02 HD',
    description: 'Expressive text to speech.',
    capabilities: ['speech_generation'],
    rates: { per_million_characters: '100' },
  },
  {
    id: 'minimax/image-01',
    owned_by: 'MiniMax',
    provider: 'minimax',
    display_name: 'Image-01',
    capabilities: ['image_generation'],
    rates: { per_image: '0.0035' },
  },
  // --- qwen
  {
    id: 'qwen/qwen3-max',
    owned_by: 'Alibaba Cloud',
    provider: 'qwen',
    display_name: 'Qwen3 Max',
    description: 'Largest Qwen3 model with web search.',
    capabilities: ['chat', 'tools', 'web_search', 'documents'],
    context_window: 262144,
    max_output_tokens: 65536,
    parameters: { temperature: { max: 2 }, response_format_type: { values: ['text', 'json_object'] } },
    rates: { input_per_million: '1.20', output_per_million: '6.00', cache_read_per_million: '0.24' },
  },
  {
    id: 'qwen/qwen3-coder-plus',
    owned_by: 'Alibaba Cloud',
    provider: 'qwen',
    display_name: 'Qwen3 Coder Plus',
    description: 'Coding model; no published output limit.',
    capabilities: ['chat', 'tools'],
    context_window: 1000000,
    parameters: { temperature: { max: 2 } },
    rates: { input_per_million: '1.00', output_per_million: '5.00' },
  },
  {
    id: 'qwen/qwen3-vl-plus',
    owned_by: 'Alibaba Cloud',
    provider: 'qwen',
    display_name: 'Qwen3 VL Plus',
    description: 'Vision-language model for alt text and documents.',
    capabilities: ['chat', 'vision', 'alt_text', 'documents'],
    context_window: 262144,
    max_output_tokens: 32768,
    parameters: { temperature: { max: 2 } },
    rates: { input_per_million: '0.20', output_per_million: '1.60' },
  },
  {
    id: 'qwen/qwen-plus',
    owned_by: 'Alibaba Cloud',
    provider: 'qwen',
    display_name: 'Qwen Plus',
    description: 'Deprecation announced for a future date: use qwen/qwen3-max instead.',
    capabilities: ['chat', 'tools'],
    context_window: 131072,
    max_output_tokens: 8192,
    parameters: { temperature: { max: 2 } },
    rates: { input_per_million: '0.40', output_per_million: '1.20' },
    deprecatedIn: 10,
    removedIn: 100,
  },
  {
    id: 'qwen/qwen-turbo',
    owned_by: 'Alibaba Cloud',
    provider: 'qwen',
    display_name: 'Qwen Turbo',
    description: 'Deprecated: use qwen/qwen3-max instead.',
    capabilities: ['chat'],
    context_window: 1000000,
    max_output_tokens: 8192,
    parameters: { temperature: { max: 2 } },
    rates: { input_per_million: '0.05', output_per_million: '0.20' },
    deprecatedIn: -5,
  },
  {
    // Deliberately off-spec (the spec omits `supported` when max is published): supported:false AND a
    // published min/max. The model still rejects any explicit temperature (G-CAT-5), so a client that
    // reads the range instead of `supported` gets a 400 here.
    id: 'qwen/qwq-plus',
    owned_by: 'Alibaba Cloud',
    provider: 'qwen',
    display_name: 'QwQ Plus',
    description: 'Reasoning model; the provider fixes its temperature.',
    capabilities: ['chat', 'tools', 'reasoning'],
    context_window: 131072,
    max_output_tokens: 8192,
    parameters: { temperature: { supported: false, min: 0.1, max: 1.5 } },
    rates: { input_per_million: '0.80', output_per_million: '2.40' },
  },
];

const DAY_MS = 24 * 60 * 60 * 1000;

/** YYYY-MM-DD (UTC) of `now` plus `days`. */
export function dateIn(now: Date, days: number): string {
  return new Date(now.getTime() + days * DAY_MS).toISOString().slice(0, 10);
}

export function pricingVersionOf(options: Pick<Required<GatewayOptions>, 'repriced' | 'pricingVersion'>): string {
  return options.repriced ? `${options.pricingVersion}-r2` : options.pricingVersion;
}

export function buildCatalog(now: Date, options: Pick<Required<GatewayOptions>, 'repriced' | 'pricingVersion'>): Model[] {
  const version = pricingVersionOf(options);
  return MODEL_SPECS.map((spec) => {
    const { rates, repriced, deprecatedIn, removedIn, ...rest } = spec;
    const model: Model = { ...structuredClone(rest), object: 'model' };
    if (rates !== undefined) {
      model.pricing = { ...rates, ...(options.repriced ? repriced : {}), pricing_version: version, unit: 'credits' };
    }
    if (deprecatedIn !== undefined) model.deprecation_date = dateIn(now, deprecatedIn);
    if (removedIn !== undefined) model.removal_date = dateIn(now, removedIn);
    return model;
  });
}

/** Removed: the removal date has passed (on or before today, by the gateway clock). */
export function isRemoved(model: Model, now: Date): boolean {
  return model.removal_date !== undefined && model.removal_date <= now.toISOString().slice(0, 10);
}

export const catalogModule: RouteModule = {
  name: 'catalog',
  register(route) {
    // No auth on either catalog route (G-CAT-1, G-CAT-14). A 429 comes from the `throttled` fault.
    route('GET', '/v1/models', (_req, res, ctx) => {
      ctx.sendJson(res, 200, { object: 'list', data: describeReasoning(ctx.models(), modesOf(ctx.events).reasoningEffort) });
    });
    route('GET', '/v1/models/{owner}/{model}/schema', (_req, res, ctx, params) => {
      const id = `${params.owner}/${params.model}`;
      const model = ctx.models().find((m) => m.id === id);
      if (model === undefined) {
        ctx.sendError(res, 404, 'not_found_error', `model '${id}' not found`);
        return;
      }
      ctx.sendJson(res, 200, modelSchema(model, ctx));
    });
  },
};

/** Voices the schema route lists per speech model (models not listed here publish no voice list). */
export const SPEECH_VOICES: Readonly<Record<string, readonly string[]>> = {
  'openai/tts-1-hd': ['alloy', 'echo', 'fable', 'onyx', 'nova', 'shimmer'],
};

/**
 * Assumption (spec: "the response of the schema route: not shown"): a JSON Schema (draft 2020-12)
 * document describing the request body accepted for the model on its main endpoint, derived from the
 * catalog entry: temperature bounds (absent when supported:false), response_format values and
 * max_tokens bounded by max_output_tokens when published.
 */
export function modelSchema(model: Model, ctx: Pick<GatewayContext, 'options'>): Record<string, unknown> {
  const caps = model.capabilities ?? [];
  const base = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: `Request parameters for ${model.id}`,
    model: model.id,
    type: 'object',
    additionalProperties: true,
  };
  if (caps.includes('chat')) {
    const properties: Record<string, unknown> = {
      model: { type: 'string', const: model.id },
      messages: {
        type: 'array',
        minItems: 1,
        items: {
          type: 'object',
          required: ['role', 'content'],
          properties: { role: { enum: ['system', 'user', 'assistant'] }, content: { type: 'string' } },
        },
      },
      stream: { type: 'boolean', default: false },
      stream_options: { type: 'object', properties: { include_usage: { type: 'boolean' } } },
    };
    const temperature = model.parameters?.temperature;
    if (temperature !== undefined && temperature.supported !== false) {
      properties.temperature = { type: 'number', minimum: temperature.min ?? 0, ...(temperature.max !== undefined ? { maximum: temperature.max } : {}) };
    } else if (temperature === undefined) {
      properties.temperature = { type: 'number', minimum: 0 };
    }
    const formats = model.parameters?.response_format_type?.values;
    if (formats !== undefined) {
      properties.response_format = { type: 'object', required: ['type'], properties: { type: { enum: formats } } };
    }
    const efforts = model.parameters?.reasoning_effort?.values;
    if (efforts) properties.reasoning_effort = { type: 'string', enum: [...efforts] };
    properties.max_tokens = { type: 'integer', minimum: 1, ...(model.max_output_tokens !== undefined ? { maximum: model.max_output_tokens } : {}) };
    return { ...base, endpoint: 'POST /v1/chat/completions', required: ['model', 'messages'], properties, pricing_version: model.pricing?.pricing_version ?? ctx.options.pricingVersion };
  }
  if (caps.includes('image_generation')) {
    return {
      ...base,
      endpoint: 'POST /v1/images/generations',
      required: ['model', 'prompt'],
      properties: {
        model: { type: 'string', const: model.id },
        prompt: { type: 'string', minLength: 1 },
        n: { type: 'integer', minimum: 1, maximum: 4, default: 1 },
        size: { enum: ['1024x1024', '1024x1536', '1536x1024'], default: '1024x1024' },
        response_format: { enum: ['b64_json', 'url'], default: 'b64_json' },
      },
    };
  }
  if (caps.includes('speech_generation')) {
    // Voices are listed for some models only, so clients meet both a voice list and none.
    const voices = SPEECH_VOICES[model.id];
    return {
      ...base,
      endpoint: 'POST /v1/audio/speech',
      required: ['model', 'input'],
      properties: {
        model: { type: 'string', const: model.id },
        input: { type: 'string', minLength: 1, maxLength: 4096 },
        voice: voices !== undefined ? { type: 'string', enum: voices, default: voices[0] } : { type: 'string' },
        response_format: { enum: ['mp3', 'wav'], default: 'mp3' },
      },
    };
  }
  if (caps.includes('transcription')) {
    return {
      ...base,
      endpoint: 'POST /v1/audio/transcriptions',
      contentMediaType: 'multipart/form-data',
      required: ['model', 'file'],
      properties: { model: { type: 'string', const: model.id }, file: { type: 'string', contentEncoding: 'binary' }, language: { type: 'string' } },
    };
  }
  return { ...base, required: ['model'], properties: { model: { type: 'string', const: model.id } } };
}
