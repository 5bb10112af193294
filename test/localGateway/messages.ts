/**
 * The messages route: POST /v1/messages (chat, write) and POST /v1/messages/count_tokens.
 *
 * POST /v1/messages. Assumption (spec: the path, scope and `messages` capability are documented, the
 * payload and events are not shown), like the client's src/core/gateway/messagesWire.ts: the widely
 * used Messages API shape.
 *  - Request `{ model, max_tokens, messages: [{ role: user|assistant, content: string | blocks }],
 *    system?, stream?, temperature?, tools?: [{ name, description?, input_schema }], tool_choice? }`;
 *    blocks `text`, `image` (counted, never fetched), `tool_use` (assistant), `tool_result` (user).
 *    Shape errors 400 invalid_request_error (G-ERR-5); unknown model 404; removed model 400; a model
 *    without the `messages` capability 400; `tools` for a model without `tools` 400; max_tokens over
 *    the model's max_output_tokens 400.
 *  - Reply: the deterministic text of chat.ts (replyFor), or the tool script of toolScript.ts (same
 *    markers) as `tool_use` blocks with stop_reason `tool_use`, or "Tool results: ..." when the last
 *    user turn carries tool_result blocks. Without markers, the rule of toolChoice.ts (a question about
 *    sites, abilities, collections... calls the matching offered tool). Reasoning models open with a
 *    short `thinking` block.
 *  - Usage: `input_tokens` (the prompt minus the cache), `output_tokens`, and, for models with cache
 *    rates, the system prompt as `cache_creation_input_tokens` on a first turn (no assistant turn yet)
 *    and as `cache_read_input_tokens` on later turns. Tokens: ceil(characters / 4), +4 per message.
 *  - Stream: `event: <type>` + `data: {...}`: message_start, per block content_block_start /
 *    content_block_delta (text_delta of options.chunkSize characters, input_json_delta, thinking_delta)
 *    / content_block_stop, message_delta (stop_reason, usage), message_stop.
 *  - Markers in the last user turn: [[fault:429]] -> HTML 429; [[fault:503]] -> 503 with Retry-After:
 *    1; [[slow]] -> events options.slowChunkDelayMs apart. Wire faults (faults.ts) apply as on any route.
 *  - Events: `messages-request` (requestId, model, stream, messageCount, toolCount, hasSystem) and
 *    `messages-stream` (requestId, model); `client-closed-stream` when the client leaves early.
 *
 * POST /v1/messages/count_tokens.
 * Assumption (as the client's src/core/lm/tokenCount.ts, Anthropic-style): the body is `{ model,
 * messages: [{ role, content }] }` with string content (or text content parts), the answer
 * `{ input_tokens }`. Deterministic: per message ceil(code points / 4) + 4, the same rule as the chat
 * route's usage, so a count can be checked by hand. Unknown model 404, removed model 400.
 * Events: `count-tokens` (requestId, model, messageCount).
 */
import { createHash } from 'node:crypto';
import type { Model } from './wire';
import { recordServed } from './analytics';
import { answeredFaultMarker, cutOff, finishMarker, readConversationRequest, replyFor, splitContent, type ParsedChatRequest } from './chat';
import { chooseToolCalls } from './toolChoice';
import { answerFromResults, hasToolMarkers, scriptCalls, type ParsedTool, type ScriptedCall, type ToolResultMessage } from './toolScript';
import { isRemoved } from './catalog';
import { messagesEffort, reasoningTokensFor } from './reasoning';
import { GatewayHttpError, type GatewayContext, type Req, type Res, type RouteModule } from './context';

function invalid(message: string): GatewayHttpError {
  return new GatewayHttpError(400, 'invalid_request_error', message);
}

function tokens(text: string): number {
  return Math.max(1, Math.ceil(Array.from(text).length / 4));
}

async function handleCount(req: Req, res: Res, ctx: GatewayContext): Promise<void> {
  const key = ctx.authorize(req, res, 'chat', 'write');
  if (key === undefined) {
    req.resume();
    return;
  }
  const requestId = ctx.requestId(res);
  const body = (await ctx.readJson(req)) as { model?: unknown; messages?: unknown } | null;
  if (typeof body !== 'object' || body === null || typeof body.model !== 'string') throw invalid("missing required field 'model'");
  if (!Array.isArray(body.messages) || body.messages.length === 0) throw invalid("missing required field 'messages' (a non-empty array)");
  let total = 0;
  body.messages.forEach((m: unknown, i) => {
    const content = (m as { content?: unknown } | null)?.content;
    let text: string;
    if (typeof content === 'string') text = content;
    else if (Array.isArray(content)) text = content.map((p: unknown) => ((p as { type?: unknown; text?: unknown })?.type === 'text' ? String((p as { text?: unknown }).text ?? '') : '')).join('\n');
    else throw invalid(`messages[${i}].content must be a string or an array of content parts`);
    total += tokens(text) + 4;
  });
  const model = ctx.models().find((x) => x.id === body.model);
  if (!model) throw new GatewayHttpError(404, 'not_found_error', `model '${body.model}' not found`);
  if (isRemoved(model, ctx.options.now())) throw invalid(`model '${model.id}' was removed on ${model.removal_date ?? ''} and is no longer served`);
  ctx.events.push({ type: 'count-tokens', requestId, keyName: key.name, model: model.id, messageCount: body.messages.length });
  ctx.sendJson(res, 200, { input_tokens: total });
}

// ---------------------------------------------------------------------------------------------
// POST /v1/messages

type Block = Record<string, unknown>;

interface ParsedMessagesRequest {
  model: string;
  maxTokens: number;
  system: string;
  stream: boolean;
  temperature?: number;
  tools?: ParsedTool[];
  /** `tool_choice.type` (auto, any, tool, none), when sent. */
  toolChoice?: string;
  /** Each turn's text (text blocks joined), in the chat form replyFor reads. */
  turns: Array<{ role: 'user' | 'assistant'; content: string }>;
  images: number;
  /** tool_result blocks of the last user turn. */
  results: ToolResultMessage[];
  /** tool_use id -> name, from the assistant turns. */
  callNames: Map<string, string>;
}

function blocksOf(content: unknown, at: string): Block[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!Array.isArray(content) || content.length === 0) throw invalid(`${at}.content must be a string or a non-empty array of content blocks`);
  return content.map((b: unknown, j) => {
    if (typeof b !== 'object' || b === null || typeof (b as Block).type !== 'string') throw invalid(`${at}.content[${j}] must be an object with a type`);
    return b as Block;
  });
}

function parseMessagesRequest(body: unknown): ParsedMessagesRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalid('request body must be a JSON object');
  const b = body as Record<string, unknown>;
  if (typeof b.model !== 'string' || b.model === '') throw invalid("missing required field 'model'");
  if (typeof b.max_tokens !== 'number' || !Number.isInteger(b.max_tokens) || b.max_tokens < 1) throw invalid("missing required field 'max_tokens' (a positive integer)");
  if (!Array.isArray(b.messages) || b.messages.length === 0) throw invalid("missing required field 'messages' (a non-empty array)");
  if (b.stream !== undefined && typeof b.stream !== 'boolean') throw invalid("'stream' must be a boolean");
  let system = '';
  if (b.system !== undefined) {
    if (typeof b.system === 'string') system = b.system;
    else if (Array.isArray(b.system)) system = b.system.map((x: unknown) => String((x as Block | null)?.text ?? '')).join('\n');
    else throw invalid("'system' must be a string or an array of text blocks");
  }
  const turns: ParsedMessagesRequest['turns'] = [];
  const callNames = new Map<string, string>();
  let images = 0;
  let results: ToolResultMessage[] = [];
  b.messages.forEach((m: unknown, i) => {
    const at = `messages[${i}]`;
    if (typeof m !== 'object' || m === null) throw invalid(`${at} must be an object`);
    const { role, content } = m as Record<string, unknown>;
    if (role !== 'user' && role !== 'assistant') throw invalid(`${at}.role must be user or assistant`);
    const texts: string[] = [];
    const turnResults: ToolResultMessage[] = [];
    blocksOf(content, at).forEach((block, j) => {
      const where = `${at}.content[${j}]`;
      switch (block.type) {
        case 'text':
          if (typeof block.text !== 'string') throw invalid(`${where}.text must be a string`);
          texts.push(block.text);
          break;
        case 'image': {
          const src = block.source as Block | undefined;
          if (role !== 'user' || typeof src !== 'object' || src === null || (src.type !== 'base64' && src.type !== 'url')) throw invalid(`${where} must be a user image with a base64 or url source`);
          images++;
          break;
        }
        case 'tool_use':
          if (role !== 'assistant' || typeof block.id !== 'string' || typeof block.name !== 'string' || typeof block.input !== 'object' || block.input === null) {
            throw invalid(`${where} must be an assistant tool_use {id, name, input (object)}`);
          }
          callNames.set(block.id, block.name);
          break;
        case 'tool_result': {
          if (role !== 'user' || typeof block.tool_use_id !== 'string') throw invalid(`${where} must be a user tool_result {tool_use_id, content}`);
          if (!callNames.has(block.tool_use_id)) throw invalid(`${where}.tool_use_id '${block.tool_use_id}' does not answer a tool_use of an earlier assistant turn`);
          const c = block.content;
          const text = typeof c === 'string' ? c : Array.isArray(c) ? c.map((x: unknown) => String((x as Block | null)?.text ?? '')).join('\n') : '';
          turnResults.push({ toolCallId: block.tool_use_id, content: text });
          break;
        }
        case 'thinking':
          break;
        default:
          throw invalid(`${where}.type must be text, image, tool_use, tool_result or thinking`);
      }
    });
    turns.push({ role, content: texts.join('\n') });
    if (role === 'user') results = turnResults;
  });
  const parsed: ParsedMessagesRequest = { model: b.model, maxTokens: b.max_tokens, system, stream: b.stream === true, turns, images, results, callNames };
  if (b.temperature !== undefined && b.temperature !== null) {
    if (typeof b.temperature !== 'number' || !Number.isFinite(b.temperature)) throw invalid("'temperature' must be a number");
    parsed.temperature = b.temperature;
  }
  const choice = (b.tool_choice as { type?: unknown } | null | undefined)?.type;
  if (typeof choice === 'string') parsed.toolChoice = choice;
  if (b.tools !== undefined && b.tools !== null) {
    if (!Array.isArray(b.tools)) throw invalid("'tools' must be an array");
    parsed.tools = b.tools.map((t: unknown, i) => {
      const tool = t as Block | null;
      if (!tool || typeof tool.name !== 'string' || !/^[A-Za-z0-9_.-]{1,64}$/.test(tool.name) || typeof tool.input_schema !== 'object' || tool.input_schema === null) {
        throw invalid(`tools[${i}] must be {name (1-64 of A-Z a-z 0-9 _ . -), description?, input_schema (object)}`);
      }
      return { name: tool.name, ...(typeof tool.description === 'string' ? { description: tool.description } : {}) };
    });
  }
  return parsed;
}

function checkModel(request: ParsedMessagesRequest, model: Model | undefined, now: Date): GatewayHttpError | undefined {
  if (model === undefined) return new GatewayHttpError(404, 'not_found_error', `model '${request.model}' not found`);
  if (isRemoved(model, now)) return invalid(`model '${model.id}' was removed on ${model.removal_date ?? ''} and is no longer served${model.description ? ` (${model.description})` : ''}`);
  const caps = model.capabilities ?? [];
  if (!caps.includes('messages')) return invalid(`model '${model.id}' does not support the messages route`);
  if (request.tools !== undefined && !caps.includes('tools')) return invalid(`model '${model.id}' does not support tool calling; send the request without 'tools'`);
  const t = model.parameters?.temperature;
  if (request.temperature !== undefined) {
    if (t?.supported === false) return invalid(`model '${model.id}' does not accept a temperature; omit it to use the provider default`);
    const min = t?.min ?? 0;
    const max = t?.max ?? 1;
    if (request.temperature < min || request.temperature > max) return invalid(`temperature ${request.temperature} is out of range for model '${model.id}': allowed ${min} to ${max} inclusive`);
  }
  if (model.max_output_tokens !== undefined && request.maxTokens > model.max_output_tokens) return invalid(`max_tokens ${request.maxTokens} exceeds the model's limit of ${model.max_output_tokens}`);
  return undefined;
}

interface MessagesUsage {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens?: number;
  cache_creation_input_tokens?: number;
  output_tokens_details?: { reasoning_tokens: number };
}

function messagesUsage(request: ParsedMessagesRequest, model: Model, output: string): MessagesUsage {
  const system = request.system === '' ? 0 : tokens(request.system) + 4;
  const prompt = system + request.turns.reduce((n, m) => n + tokens(m.content) + 4, 0);
  const usage: MessagesUsage = { input_tokens: prompt, output_tokens: tokens(output) };
  if (system > 0) {
    const laterTurn = request.turns.some((m) => m.role === 'assistant');
    if (laterTurn && model.pricing?.cache_read_per_million !== undefined) {
      usage.cache_read_input_tokens = system;
      usage.cache_creation_input_tokens = 0;
      usage.input_tokens = prompt - system;
    } else if (!laterTurn && model.pricing?.cache_write_per_million !== undefined) {
      usage.cache_read_input_tokens = 0;
      usage.cache_creation_input_tokens = system;
      usage.input_tokens = prompt - system;
    }
  }
  return usage;
}

/** The analytics bill's form of the usage (cache reads and writes inside the prompt). */
function servedUsage(u: MessagesUsage): Parameters<typeof recordServed>[1]['usage'] {
  const read = u.cache_read_input_tokens ?? 0;
  const written = u.cache_creation_input_tokens ?? 0;
  const prompt = u.input_tokens + read + written;
  return { prompt_tokens: prompt, completion_tokens: u.output_tokens, total_tokens: prompt + u.output_tokens, cache_read_tokens: read, cache_write_tokens: written };
}

/** A tool_use input: the script's arguments when they are a JSON object, else {} (the stream sends the text as is). */
function parseInput(args: string): unknown {
  try {
    const v = JSON.parse(args) as unknown;
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? v : {};
  } catch {
    return {};
  }
}

function lastUserText(request: ParsedMessagesRequest): string {
  for (let i = request.turns.length - 1; i >= 0; i--) if (request.turns[i]?.role === 'user') return request.turns[i]?.content ?? '';
  return '';
}

/** The last user turn that says something (a turn of tool results only says nothing): where [[finish:NAME]] is read. */
function lastSaidText(request: ParsedMessagesRequest): string {
  for (let i = request.turns.length - 1; i >= 0; i--) if (request.turns[i]?.role === 'user' && (request.turns[i]?.content ?? '') !== '') return request.turns[i]?.content ?? '';
  return '';
}

async function handleMessages(req: Req, res: Res, ctx: GatewayContext): Promise<void> {
  const read = await readConversationRequest(req, res, ctx);
  if (!read) return;
  const { key, requestId, body, raw } = read;
  ctx.events.push({
    type: 'messages-request',
    requestId,
    keyName: key.name,
    model: raw.model,
    stream: raw.stream,
    hasSystem: raw.system !== undefined,
    ...('thinking' in raw ? { thinking: raw.thinking } : {}),
    maxTokens: raw.max_tokens,
    messageCount: Array.isArray(raw.messages) ? raw.messages.length : undefined,
    toolCount: Array.isArray(raw.tools) ? raw.tools.length : undefined,
  });
  const request = parseMessagesRequest(body);
  const now = ctx.options.now();
  const model = ctx.models().find((m) => m.id === request.model);
  const problem = checkModel(request, model, now);
  if (problem !== undefined || model === undefined) throw problem ?? invalid('unknown model');
  const effort = messagesEffort(raw, model);

  const said = lastUserText(request);
  if (answeredFaultMarker(said, '/v1/messages', requestId, res, ctx)) return;
  const delay = said.includes('[[slow]]') ? ctx.options.slowChunkDelayMs : ctx.options.chunkDelayMs;

  let calls: ScriptedCall[] = [];
  let text = '';
  if (request.results.length > 0) text = answerFromResults(request.results, request.callNames);
  else if (request.tools !== undefined && hasToolMarkers(said)) {
    const scripted = scriptCalls(said, request.tools, requestId);
    calls = scripted.calls;
    text = scripted.refusal ?? '';
  } else {
    // The rule of toolChoice.ts: a question about sites, abilities, collections... calls the matching tool.
    calls = request.tools !== undefined ? chooseToolCalls(said, request.tools, requestId, request.toolChoice) : [];
    if (calls.length === 0) {
      const asChat = { messages: [...(request.system ? [{ role: 'system' as const, content: request.system }] : []), ...request.turns], images: request.images } as unknown as ParsedChatRequest;
      if (effort !== undefined) asChat.reasoningEffort = effort;
      text = replyFor(asChat, model);
    }
  }
  // [[finish:NAME]] (chat.ts): the stop_reason this route would send for it; `length` is `max_tokens`.
  const forced = calls.length > 0 ? undefined : finishMarker(lastSaidText(request));
  if (forced === 'length') text = cutOff(text);
  const thinking = (model.capabilities ?? []).includes('reasoning') && calls.length === 0 ? `Thinking about ${Array.from(said).length} characters.` : '';
  const usage = messagesUsage(request, model, thinking + text + calls.map((c) => c.name + c.arguments).join(''));
  if (effort !== undefined) {
    // The effort's reasoning tokens (reasoning.ts): inside output_tokens, and named apart.
    const extra = reasoningTokensFor(effort);
    usage.output_tokens += extra;
    usage.output_tokens_details = { reasoning_tokens: extra };
  }
  recordServed(ctx, { model: model.id, operation: 'chat', usage: servedUsage(usage), pricing: model.pricing });
  const id = `msg_${createHash('sha256').update(requestId).digest('hex').slice(0, 24)}`;
  const stopReason = calls.length > 0 ? 'tool_use' : forced === 'length' ? 'max_tokens' : forced === 'stop' || forced === undefined ? 'end_turn' : forced;
  const blocks: Block[] = [
    ...(thinking ? [{ type: 'thinking', thinking, signature: 'local' }] : []),
    ...(text ? [{ type: 'text', text }] : []),
    ...calls.map((c) => ({ type: 'tool_use', id: c.id.replace(/^call_/, 'toolu_'), name: c.name, input: parseInput(c.arguments), raw: c.arguments })),
  ];

  if (!request.stream) {
    const content = blocks.map(({ raw: _raw, ...b }) => b);
    ctx.sendJson(res, 200, { id, type: 'message', role: 'assistant', model: model.id, content, stop_reason: stopReason, stop_sequence: null, usage });
    return;
  }

  let closed = false;
  let finished = false;
  let sent = 0;
  const closedPromise = new Promise<void>((resolve) => res.once('close', () => resolve()));
  res.once('close', () => {
    closed = true;
    if (!finished) ctx.events.push({ type: 'client-closed-stream', requestId, path: '/v1/messages', chunksSent: sent });
  });
  res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache', Connection: 'keep-alive' });
  ctx.events.push({ type: 'messages-stream', requestId, model: model.id });
  const events: Array<[string, unknown]> = [
    ['message_start', { type: 'message_start', message: { id, type: 'message', role: 'assistant', model: model.id, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } } }],
  ];
  blocks.forEach((block, index) => {
    if (block.type === 'text') {
      events.push(['content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } }]);
      for (const piece of splitContent(String(block.text), ctx.options.chunkSize)) events.push(['content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } }]);
    } else if (block.type === 'thinking') {
      events.push(['content_block_start', { type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '' } }]);
      events.push(['content_block_delta', { type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: block.thinking } }]);
      events.push(['content_block_delta', { type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: block.signature } }]);
    } else {
      events.push(['content_block_start', { type: 'content_block_start', index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } }]);
      // The script's arguments text as is: [[tool-invalid:NAME]] streams JSON that never completes.
      const args = String(block.raw);
      const pieces = said.includes('[[tool-split]]') ? splitContent(args, 2) : [args];
      for (const partial of pieces) events.push(['content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: partial } }]);
    }
    events.push(['content_block_stop', { type: 'content_block_stop', index }]);
  });
  events.push(['message_delta', { type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: usage.output_tokens, ...(usage.output_tokens_details ? { output_tokens_details: usage.output_tokens_details } : {}) } }]);
  events.push(['message_stop', { type: 'message_stop' }]);
  let firstText = false;
  for (const [name, data] of events) {
    if (closed) return;
    const delta = (data as { delta?: { type?: string; text?: string } }).delta;
    if (!firstText && delta?.type === 'text_delta') {
      firstText = true;
      ctx.events.push({ type: 'first-chunk', requestId, text: delta.text });
    }
    await new Promise<void>((resolve) => res.write(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`, () => resolve()));
    sent++;
    if (delay > 0 && name === 'content_block_delta') await Promise.race([ctx.sleep(delay), closedPromise]);
  }
  if (closed) return;
  finished = true;
  res.end();
}

export const messagesModule: RouteModule = {
  name: 'messages',
  register(route) {
    route('POST', '/v1/messages', (req, res, ctx) => handleMessages(req, res, ctx));
    route('POST', '/v1/messages/count_tokens', (req, res, ctx) => handleCount(req, res, ctx));
  },
};
