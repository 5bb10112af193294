/**
 * The ONE wire module of POST /v1/messages: request, response and stream event shapes, and their
 * translation to and from the chat-completion forms the rest of the extension speaks.
 *
 * ASSUMED (spec: the route, its scope and the `messages` capability are documented; its payload and
 * events are "not shown"). The widely used Messages API shape, which the route's `count_tokens`
 * sibling also suggests:
 *  - request: `{ model, max_tokens, messages: [{ role: 'user'|'assistant', content }], system?,
 *    stream?, temperature?, tools?: [{ name, description?, input_schema }], tool_choice?: { type:
 *    'auto'|'any'|'tool', name? } }`; `content` is a string or blocks: `text`, `image` (`source`
 *    base64 or url), `tool_use { id, name, input }` (assistant), `tool_result { tool_use_id, content,
 *    is_error? }` (user); `max_tokens` is required;
 *  - response: `{ id, type: 'message', role: 'assistant', model, content: [blocks], stop_reason
 *    ('end_turn'|'tool_use'|'max_tokens'|'stop_sequence'), usage }`;
 *  - usage: `input_tokens` (NOT counting the cache), `output_tokens` (counting any thinking),
 *    `cache_read_input_tokens`, `cache_creation_input_tokens`; reasoning tokens, where a gateway
 *    reports them, as `output_tokens_details.reasoning_tokens` (inside output_tokens);
 *  - stream (`event: <type>` + `data: {type, ...}`): message_start { message } -> per block
 *    content_block_start { index, content_block } / content_block_delta { index, delta: text_delta
 *    { text } | input_json_delta { partial_json } | thinking_delta { thinking } | signature_delta } /
 *    content_block_stop -> message_delta { delta: { stop_reason }, usage } -> message_stop; `ping`
 *    keep-alives; a failure as `error { error: { type, message } }` (or the gateway's own envelope
 *    with `code`). Unknown event and block types are skipped.
 * If the gateway's documented form differs, this file is the one place to change.
 *
 * Translation: a conversation held in the chat-completion form (toolWire.ts: system/user/assistant
 * messages, assistant `tool_calls`, `role: 'tool'` results, OpenAI-style tools) becomes a messages
 * request; a messages response becomes a `chat.completion`, and a messages stream becomes
 * `chat.completion.chunk`s (text deltas as `content`, tool_use blocks as `tool_calls` deltas, usage
 * on the chunk that carries the finish reason), so every consumer stays route-blind.
 *
 * An error event is classified by the function the caller passes (sse.ts streamEventError), so this
 * module stays free of the classification code (pricing.ts, in the activation bundle,
imports it).
 *
 * Limits (hostile server): events are bounded by the SSE reader; tool calls and their arguments by
 * ToolCallAssembler downstream; this module keeps at most MAX_BLOCKS block indices.
 */
import type { EventSourceMessage } from 'eventsource-parser';
import { GatewayError } from '../http/errors';
import { stopReasonAsFinish } from './finishReason';
import { END_OF_STREAM, type EventCodec, type StreamEventError } from './eventCodec';
import type { ChatCompletion, ChatCompletionChunk, ChatCompletionRequest, ModelPricing, Usage } from './types';
import { costOfUsage, toCount, type UsageCost } from '../pricing';
import { readCount } from './usage';
import type { WireContentPart, WireMessage, WireTool, WireToolChoice } from './toolWire';
import { messagesThinking } from './reasoningEffort';

export const MESSAGES_PATH = '/v1/messages';
/** The event that ends a stream. */
export const MESSAGES_END_EVENT = 'message_stop';
const MAX_BLOCKS = 10_000;

export interface MessagesUsage {
  input_tokens?: number;
  output_tokens?: number;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  output_tokens_details?: { reasoning_tokens?: number } | null;
}

export type MessagesImageSource = { type: 'base64'; media_type: string; data: string } | { type: 'url'; url: string };

export type MessagesContentBlock =
  | { type: 'text'; text: string }
  | { type: 'image'; source: MessagesImageSource }
  | { type: 'tool_use'; id: string; name: string; input: unknown }
  | { type: 'tool_result'; tool_use_id: string; content: string; is_error?: boolean }
  | { type: 'thinking'; thinking: string; signature?: string };

export interface MessagesMessage {
  role: 'user' | 'assistant';
  content: string | MessagesContentBlock[];
}

export interface MessagesTool {
  name: string;
  description?: string;
  input_schema: object;
}

export type MessagesToolChoice = { type: 'auto' } | { type: 'any' } | { type: 'none' } | { type: 'tool'; name: string };

export interface MessagesRequest {
  model: string;
  messages: MessagesMessage[];
  max_tokens: number;
  system?: string;
  stream?: boolean;
  temperature?: number;
  /** Reasoning effort, in the form reasoningEffort.ts assumes (the chat form's `reasoning_effort`). */
  thinking?: { type: string; effort: string };
  tools?: MessagesTool[];
  tool_choice?: MessagesToolChoice;
}

export interface MessagesResponse {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: MessagesContentBlock[];
  stop_reason: string | null;
  stop_sequence?: string | null;
  usage: MessagesUsage;
}

export type MessagesDelta =
  | { type: 'text_delta'; text: string }
  | { type: 'input_json_delta'; partial_json: string }
  | { type: 'thinking_delta'; thinking: string }
  | { type: 'signature_delta'; signature: string };

export type MessagesStreamEvent =
  | { type: 'message_start'; message: MessagesResponse }
  | { type: 'content_block_start'; index: number; content_block: MessagesContentBlock }
  | { type: 'content_block_delta'; index: number; delta: MessagesDelta }
  | { type: 'content_block_stop'; index: number }
  | { type: 'message_delta'; delta: { stop_reason?: string | null; stop_sequence?: string | null }; usage?: MessagesUsage }
  | { type: 'message_stop' };

// ---------------------------------------------------------------------------------------------
// Usage.

/**
 * The route's usage read into the internal form (Usage, types.ts; the same count rule as the chat
 * route's, gateway/usage.ts): the prompt counts `input_tokens` plus the cache reads
 * (`cache_read_input_tokens`) and writes (`cache_creation_input_tokens`), which are also kept apart as
 * cache_read_tokens / cache_write_tokens; reasoning stays inside completion_tokens (total = prompt +
 * completion, so costOfUsage takes it out of the output line). A count that is not a non-negative
 * whole number is named in `unreadable`, never read as 0 silently.
 */
export function usageFromMessages(u: MessagesUsage): Usage {
  const unreadable: string[] = [];
  const input = readCount(u.input_tokens, 'input_tokens', unreadable);
  const cacheRead = readCount(u.cache_read_input_tokens, 'cache_read_input_tokens', unreadable);
  const cacheWrite = readCount(u.cache_creation_input_tokens, 'cache_creation_input_tokens', unreadable);
  const output = readCount(u.output_tokens, 'output_tokens', unreadable);
  const reasoning = readCount(u.output_tokens_details?.reasoning_tokens, 'output_tokens_details.reasoning_tokens', unreadable);
  const prompt = input + cacheRead + cacheWrite;
  const usage: Usage = { prompt_tokens: prompt, completion_tokens: output, total_tokens: prompt + output, source: 'messages' };
  if (reasoning > 0) usage.completion_tokens_details = { reasoning_tokens: Math.min(reasoning, output) };
  if (cacheRead > 0) usage.cache_read_tokens = cacheRead;
  if (cacheWrite > 0) usage.cache_write_tokens = cacheWrite;
  if (unreadable.length > 0) usage.unreadable = unreadable;
  return usage;
}

/** Later usage fields replace earlier ones (message_delta carries the final output count). */
function mergeUsage(into: MessagesUsage, from: unknown): void {
  if (typeof from !== 'object' || from === null) return;
  const f = from as MessagesUsage;
  if (f.input_tokens != null) into.input_tokens = f.input_tokens;
  if (f.output_tokens != null) into.output_tokens = f.output_tokens;
  if (f.cache_read_input_tokens != null) into.cache_read_input_tokens = f.cache_read_input_tokens;
  if (f.cache_creation_input_tokens != null) into.cache_creation_input_tokens = f.cache_creation_input_tokens;
  if (f.output_tokens_details != null) into.output_tokens_details = f.output_tokens_details;
}

/**
 * The cost of one POST /v1/messages reply's usage (messagesWire.ts says how its fields are read):
 * `input_tokens` at input_per_million, `cache_read_input_tokens` at cache_read_per_million,
 * `cache_creation_input_tokens` at cache_write_per_million (each falling back to input_per_million),
 * `output_tokens` at output_per_million, and reasoning tokens, where reported, at
 * reasoning_per_million (taken out of the output line, never billed twice). Same exactness and
 * rounding as costOfUsage (pricing.ts), which it is, on the usage in the internal form.
 * Here rather than in pricing.ts because what the fields mean is this file's assumption.
 */
export function costOfMessagesUsage(usage: MessagesUsage, pricing: ModelPricing): UsageCost {
  for (const f of ['input_tokens', 'output_tokens', 'cache_read_input_tokens', 'cache_creation_input_tokens'] as const) {
    const n = usage[f];
    if (n !== undefined && n !== null) toCount(n, f);
  }
  return costOfUsage(usageFromMessages(usage), pricing);
}

// ---------------------------------------------------------------------------------------------
// Request: chat-completion form -> messages form.

/** What a chat-completion request (plain or with tools, toolWire.ts) may carry. */
interface ChatLikeRequest {
  model: string;
  messages: ReadonlyArray<WireMessage | ChatCompletionRequest['messages'][number]>;
  temperature?: number;
  reasoning_effort?: string;
  max_tokens?: number;
  tools?: WireTool[];
  tool_choice?: WireToolChoice;
}

function imageBlock(url: string): MessagesContentBlock {
  const m = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  return m ? { type: 'image', source: { type: 'base64', media_type: m[1] ?? 'image/png', data: m[2] ?? '' } } : { type: 'image', source: { type: 'url', url } };
}

function userBlocks(content: string | WireContentPart[]): string | MessagesContentBlock[] {
  if (typeof content === 'string') return content;
  return content.map((p) => (p.type === 'text' ? { type: 'text', text: p.text } : imageBlock(p.image_url.url)));
}

function parseArguments(text: string): unknown {
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch {
    // The model's own invalid arguments, echoed back: kept as text so nothing is lost.
    return { _raw: text };
  }
}

/** Appends blocks to the last message when it has the same role (the route wants user/assistant turns). */
function push(out: MessagesMessage[], role: 'user' | 'assistant', blocks: MessagesContentBlock[]): void {
  const last = out[out.length - 1];
  if (last !== undefined && last.role === role) {
    const prior: MessagesContentBlock[] = typeof last.content === 'string' ? (last.content === '' ? [] : [{ type: 'text', text: last.content }]) : last.content;
    last.content = [...prior, ...blocks];
    return;
  }
  out.push({ role, content: blocks });
}

function toolChoice(c: WireToolChoice | undefined): MessagesToolChoice | undefined {
  if (c === undefined) return undefined;
  if (c === 'auto') return { type: 'auto' };
  if (c === 'none') return { type: 'none' };
  if (c === 'required') return { type: 'any' };
  return { type: 'tool', name: c.function.name };
}

/**
 * The messages request for a conversation held in the chat-completion form: system messages become
 * `system`, assistant tool_calls become tool_use blocks, `role: 'tool'` results become tool_result
 * blocks of the next user turn, OpenAI-style tools become `{ name, description, input_schema }`.
 */
export function toMessagesRequest(chat: ChatLikeRequest, maxTokens: number, stream: boolean): MessagesRequest {
  const system: string[] = [];
  const messages: MessagesMessage[] = [];
  for (const m of chat.messages as WireMessage[]) {
    switch (m.role) {
      case 'system':
        system.push(m.content);
        break;
      case 'user': {
        const content = userBlocks(m.content);
        if (typeof content === 'string') push(messages, 'user', [{ type: 'text', text: content }]);
        else push(messages, 'user', content);
        break;
      }
      case 'assistant': {
        const blocks: MessagesContentBlock[] = [];
        if (typeof m.content === 'string' && m.content !== '') blocks.push({ type: 'text', text: m.content });
        for (const c of m.tool_calls ?? []) blocks.push({ type: 'tool_use', id: c.id, name: c.function.name, input: parseArguments(c.function.arguments) });
        if (blocks.length > 0) push(messages, 'assistant', blocks);
        break;
      }
      case 'tool':
        push(messages, 'user', [{ type: 'tool_result', tool_use_id: m.tool_call_id, content: m.content }]);
        break;
    }
  }
  // A turn of one text block is sent as plain string content (the common, smallest form).
  for (const m of messages) {
    const only = Array.isArray(m.content) && m.content.length === 1 ? m.content[0] : undefined;
    if (only?.type === 'text') m.content = only.text;
  }
  const request: MessagesRequest = { model: chat.model, messages, max_tokens: chat.max_tokens ?? maxTokens };
  if (system.length > 0) request.system = system.join('\n\n');
  if (stream) request.stream = true;
  if (chat.temperature !== undefined) request.temperature = chat.temperature;
  const thinking = messagesThinking(chat.reasoning_effort);
  if (thinking !== undefined) request.thinking = thinking;
  if (chat.tools !== undefined && chat.tools.length > 0) {
    request.tools = chat.tools.map((t) => ({
      name: t.function.name,
      ...(t.function.description ? { description: t.function.description } : {}),
      input_schema: t.function.parameters ?? { type: 'object', properties: {} },
    }));
    const choice = toolChoice(chat.tool_choice);
    if (choice !== undefined) request.tool_choice = choice;
  }
  return request;
}

// ---------------------------------------------------------------------------------------------
// Response and stream: messages form -> chat-completion form.

/** The chat-completion finish_reason for a stop_reason: interpreted in finishReason.ts, the one place. */
export const finishReasonOf = stopReasonAsFinish;

export function isMessagesResponse(d: unknown): d is MessagesResponse {
  const m = d as Partial<MessagesResponse> | null;
  return typeof m === 'object' && m !== null && Array.isArray(m.content);
}

/** A whole messages response as a chat.completion (tool_use blocks as tool_calls). */
export function completionFromMessage(m: MessagesResponse, created: number): ChatCompletion {
  let text = '';
  const toolCalls: Array<{ id: string; type: 'function'; function: { name: string; arguments: string } }> = [];
  for (const b of m.content) {
    if (typeof b !== 'object' || b === null) continue;
    if (b.type === 'text' && typeof b.text === 'string') text += b.text;
    else if (b.type === 'tool_use' && typeof b.name === 'string') toolCalls.push({ id: String(b.id ?? ''), type: 'function', function: { name: b.name, arguments: JSON.stringify(b.input ?? {}) } });
  }
  const message = (toolCalls.length > 0 ? { role: 'assistant', content: text || null, tool_calls: toolCalls } : { role: 'assistant', content: text }) as ChatCompletion['choices'][number]['message'];
  return {
    id: String(m.id ?? ''),
    object: 'chat.completion',
    created,
    model: String(m.model ?? ''),
    choices: [{ index: 0, message, finish_reason: finishReasonOf(m.stop_reason) ?? 'stop' }],
    ...(typeof m.usage === 'object' && m.usage !== null ? { usage: usageFromMessages(m.usage) } : {}),
  };
}

const ERROR_STATUS: Record<string, number> = {
  invalid_request_error: 400,
  authentication_error: 401,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  overloaded_error: 503,
};

function malformed(requestId: string | undefined, cause?: unknown): GatewayError {
  return new GatewayError({ reason: 'protocol', message: 'The gateway sent a malformed stream event', requestId, partial: true, cause });
}

const KNOWN_EVENTS = new Set(['message_start', 'content_block_start', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop']);

const TEXT_DELTA_HEAD = '{"type":"content_block_delta","index":';
const TEXT_DELTA_MIDDLE = ',"delta":{"type":"text_delta","text":"';
const TEXT_DELTA_TAIL = '"}}';

/**
 * A text delta in its compact form (`{"type":"content_block_delta","index":N,"delta":{"type":"text_delta","text":"…"}}`,
 * nearly every event of a reply), read without parsing the whole event: the same object JSON.parse
 * gives, key order included; undefined for any other text (whitespace, other keys or order, a
 * malformed literal), which then goes through JSON.parse. Issue 40 item 13: the generic parse of these
 * short events was most of what made this route slower to decode than the chat route.
 * test/unit/gateway/messagesFastPath.test.ts checks it against JSON.parse on generated and hostile events.
 */
export function compactTextDelta(data: string): Extract<MessagesStreamEvent, { type: 'content_block_delta' }> | undefined {
  if (!data.startsWith(TEXT_DELTA_HEAD)) return undefined;
  const digits = TEXT_DELTA_HEAD.length;
  let i = digits;
  // A JSON number that is a small whole number: "0", or 1-9 digits without a leading zero.
  if (data.charCodeAt(i) === 48) i++;
  else
    for (let c = data.charCodeAt(i); c >= 48 && c <= 57 && i - digits < 9; c = data.charCodeAt(i)) i++;
  if (i === digits || !data.startsWith(TEXT_DELTA_MIDDLE, i)) return undefined;
  const index = Number(data.slice(digits, i));
  const textStart = i + TEXT_DELTA_MIDDLE.length;
  const textEnd = data.length - TEXT_DELTA_TAIL.length;
  if (textEnd < textStart || !data.endsWith(TEXT_DELTA_TAIL)) return undefined;
  // The literal must end exactly where the tail begins: no unescaped quote before it, no control
  // character, and no escape as its last character (that would take the tail's quote). A literal with
  // an escape is read by JSON.parse (which also checks the escape).
  let escaped = false;
  let k = textStart;
  while (k < textEnd) {
    const c = data.charCodeAt(k);
    if (c === 92) {
      escaped = true;
      k += 2;
    } else if (c === 34 || c < 32) return undefined;
    else k++;
  }
  if (k !== textEnd) return undefined;
  let text: string;
  if (!escaped) text = data.slice(textStart, textEnd);
  else {
    try {
      text = JSON.parse(data.slice(textStart - 1, textEnd + 1)) as string;
    } catch {
      return undefined;
    }
  }
  return { type: 'content_block_delta', index, delta: { type: 'text_delta', text } };
}

/** One event's data: the typed event, undefined to skip (ping, unknown types), the end, or the failure it is. */
function decodeMessagesEvent(data: string, requestId: string | undefined, streamEventError: StreamEventError): MessagesStreamEvent | GatewayError | undefined | typeof END_OF_STREAM {
  const delta = compactTextDelta(data);
  if (delta !== undefined) return delta;
  let ev: unknown;
  try {
    ev = JSON.parse(data);
  } catch (cause) {
    return malformed(requestId, cause);
  }
  if (typeof ev !== 'object' || ev === null || Array.isArray(ev)) return Array.isArray(ev) ? undefined : malformed(requestId);
  const type = (ev as { type?: unknown }).type;
  const envelope = (ev as { error?: unknown }).error;
  if (type === 'error' || envelope !== undefined) {
    const e = (typeof envelope === 'object' && envelope !== null ? envelope : {}) as { code?: unknown; type?: unknown };
    // A code that is not a whole number from 100 to 599 (1e400 reads as Infinity) is no HTTP status.
    const status = typeof e.code === 'number' && Number.isInteger(e.code) && e.code >= 100 && e.code <= 599 ? e.code : typeof e.type === 'string' ? (ERROR_STATUS[e.type] ?? 500) : 500;
    return streamEventError(data, status, requestId);
  }
  if (type === MESSAGES_END_EVENT) return END_OF_STREAM;
  if (typeof type !== 'string' || !KNOWN_EVENTS.has(type)) return undefined;
  return ev as MessagesStreamEvent;
}

/** The codec of the route's raw events (see the top of this file). */
export function messagesCodec(requestId: string | undefined, streamEventError: StreamEventError): EventCodec<MessagesStreamEvent> {
  return { isEnd: isEndEvent, decode: (data) => decodeMessagesEvent(data, requestId, streamEventError), endName: MESSAGES_END_EVENT };
}

function isEndEvent(event: EventSourceMessage): boolean {
  return event.event === MESSAGES_END_EVENT;
}

/**
 * The codec that reads the route's events as chat.completion.chunks (stateful: one per stream).
 * Thinking and signature deltas carry nothing for the reply and are skipped.
 */
export function messagesAsChatCodec(requestId: string | undefined, created: number, streamEventError: StreamEventError): EventCodec<ChatCompletionChunk> {
  let id = '';
  let model = '';
  const usage: MessagesUsage = {};
  let usageSeen = false;
  // Block index -> tool call index, for the tool_use blocks of this message.
  const toolIndex = new Map<number, number>();
  const chunk = (delta: ChatCompletionChunk['choices'][number]['delta'] & { tool_calls?: unknown }, finish: string | null, withUsage?: Usage): ChatCompletionChunk => ({
    id,
    object: 'chat.completion.chunk',
    created,
    model,
    choices: [{ index: 0, delta, finish_reason: finish }],
    ...(withUsage !== undefined ? { usage: withUsage } : {}),
  });
  const decode = (data: string): ChatCompletionChunk | GatewayError | undefined | typeof END_OF_STREAM => {
    const ev = decodeMessagesEvent(data, requestId, streamEventError);
    if (ev === undefined || ev === END_OF_STREAM || ev instanceof GatewayError) return ev;
    switch (ev.type) {
      case 'message_start': {
        const m = (typeof ev.message === 'object' && ev.message !== null ? ev.message : {}) as Partial<MessagesResponse>;
        id = typeof m.id === 'string' ? m.id : '';
        model = typeof m.model === 'string' ? m.model : '';
        if (m.usage !== undefined) {
          mergeUsage(usage, m.usage);
          usageSeen = true;
        }
        return chunk({ role: 'assistant', content: '' }, null);
      }
      case 'content_block_start': {
        const b = ev.content_block as Partial<MessagesContentBlock> | undefined;
        if (!Number.isSafeInteger(ev.index) || typeof b !== 'object' || b === null) return malformed(requestId);
        if (b.type === 'text') return typeof b.text === 'string' && b.text !== '' ? chunk({ content: b.text }, null) : undefined;
        if (b.type !== 'tool_use') return undefined;
        if (toolIndex.size >= MAX_BLOCKS) return new GatewayError({ reason: 'protocol', message: `The gateway sent more than ${MAX_BLOCKS} tool blocks in one reply`, requestId, partial: true });
        const index = toolIndex.size;
        toolIndex.set(ev.index, index);
        // A block whose input came whole (not streamed) carries it here.
        const input = b.input;
        const args = typeof input === 'object' && input !== null && Object.keys(input).length > 0 ? JSON.stringify(input) : '';
        return chunk({ tool_calls: [{ index, id: typeof b.id === 'string' ? b.id : '', type: 'function', function: { name: typeof b.name === 'string' ? b.name : '', arguments: args } }] }, null);
      }
      case 'content_block_delta': {
        const d = ev.delta as Partial<MessagesDelta> | undefined;
        if (typeof d !== 'object' || d === null) return malformed(requestId);
        if (d.type === 'text_delta') return typeof d.text === 'string' && d.text !== '' ? chunk({ content: d.text }, null) : undefined;
        if (d.type === 'input_json_delta') {
          const index = toolIndex.get(ev.index);
          if (index === undefined) return malformed(requestId);
          return typeof d.partial_json === 'string' && d.partial_json !== '' ? chunk({ tool_calls: [{ index, function: { arguments: d.partial_json } }] }, null) : undefined;
        }
        return undefined;
      }
      case 'message_delta': {
        if (ev.usage !== undefined) {
          mergeUsage(usage, ev.usage);
          usageSeen = true;
        }
        const finish = finishReasonOf(typeof ev.delta === 'object' && ev.delta !== null ? ev.delta.stop_reason : undefined);
        return chunk({}, finish, usageSeen ? usageFromMessages(usage) : undefined);
      }
      default:
        return undefined;
    }
  };
  return { isEnd: isEndEvent, decode, endName: MESSAGES_END_EVENT };
}
