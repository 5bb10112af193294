/**
 * POST /v1/chat/completions (chat, write): whole and streamed, deterministic content.
 *
 * Decisions (spec gaps, each an assumption):
 * - Unknown model: 404 not_found_error. Removed model (removal_date passed, G-CAT-11): 400
 *   invalid_request_error naming the removal date and the alternative from the description.
 * - Temperature: rejected with 400 when the model says supported:false (G-CAT-5) or when outside
 *   [min ?? 0, max] inclusive (G-CAT-6). Without a published constraint, [0, 2] is accepted.
 * - Streaming usage: always sent on the final chunk (the one carrying finish_reason "stop"), whether
 *   or not stream_options.include_usage is set; earlier chunks carry no usage field.
 * - Usage: tokens are ceil(characters / 4). Reasoning models (capability `reasoning`) add
 *   completion_tokens_details.reasoning_tokens and count them in total_tokens only, so total_tokens
 *   exceeds prompt + completion (G-CHAT-3). Models with a cache-read rate report cache reads in
 *   prompt_tokens_details.cached_tokens (OpenAI-compatible); cache writes are billed as input here.
 * - Odd usage (#39.5): [[usage:overflow]] and [[usage:negative]] (see oddUsage); [[fault:error-event]]
 *   ends a stream with an error event whose code is 1e400.
 *
 * Markers in the last user message: [[moderate]] -> 403 content_policy_violation (G-CHAT-4);
 * [[fault:429]] -> HTML 429; [[fault:503]] -> 503 with Retry-After: 1; [[fault:disconnect]] and
 * [[fault:stall]] -> mid-stream faults after options.faultAfterChunks chunks (before any byte when not
 * streaming, or with afterChunks 0: headers are only flushed with the first chunk); [[slow]] -> chunks are
 * sent options.slowChunkDelayMs apart; [[finish:NAME]] -> the reply ends with finish_reason NAME instead of
 * "stop" (letters and `_` only, e.g. `length`, `content_filter`, `tool_calls` without tools, or a value no
 * client knows), and with `length` its text stops part-way, mid-sentence, as an output limit cuts it (the
 * messages route sends the same as its stop_reason, `length` as `max_tokens`). Markers fire on every
 * request that carries them.
 *
 * Events: besides `chat-request` and `chat-stream`, a `first-chunk` event (requestId, text, at) is
 * pushed just before the first chunk carrying content is written.
 *
 * Content parts: Assumption (spec: not shown; the spec types `content` as a string). A user message may
 * also carry OpenAI-style content parts, `[{type:'text', text}, {type:'image_url', image_url:{url}}]`,
 * as the content features' alt-text chat fallback sends (src/core/content/chatFallback.ts). Text parts
 * are joined with newlines and used like string content (reply, markers, usage); image parts (an
 * http(s) or data: URL) are only counted and acknowledged in the reply ("- images: N"), never fetched.
 * Any chat model accepts them (no `vision` check). System and assistant messages stay string-only.
 *
 * Tools: Assumption (spec: not shown), OpenAI-compatible like the client's src/core/gateway/toolWire.ts:
 * `tools`, `tool_choice`, assistant `tool_calls` (content may be null) and `{role:'tool',
 * tool_call_id, content}` results. A model without the `tools` capability refuses a request carrying
 * `tools` with 400. Models with it follow the deterministic script of toolScript.ts (markers
 * `[[tool:NAME {json}]]`, `[[tool-split]]`, `[[tool-invalid:NAME]]`, `[[tool-repeat]]`), replying with `tool_calls` and
 * `finish_reason: "tool_calls"`, and answer from the results once the conversation ends with them.
 * Without markers, a question about sites, abilities, collections... calls the matching offered tool
 * (the rule table of toolChoice.ts).
 */
import { createHash } from 'node:crypto';
import type { ChatCompletion, ChatCompletionChunk, ChatMessage, Model, Usage } from './wire';
import { isRemoved } from './catalog';
import { recordServed, type ServedUsage } from './analytics';
import { GatewayHttpError, type GatewayContext, type KeyRecord, type Req, type Res, type RouteModule } from './context';
import { sendThrottled } from './throttle';
import { chatEffort, reasoningTokensFor } from './reasoning';
import { chooseToolCalls } from './toolChoice';
import { answerFromResults, hasToolMarkers, repeatAfterAmbiguous, scriptCalls, toolCallDeltas, type ParsedTool, type ScriptedCall, type ToolResultMessage } from './toolScript';

const ROLES = new Set(['system', 'user', 'assistant', 'tool']);

export interface ParsedChatRequest {
  model: string;
  /** Content parts are flattened: `content` is the user message's text parts joined with newlines. */
  messages: ChatMessage[];
  /** Image parts across the user messages (0 when every content is a string). */
  images: number;
  stream: boolean;
  temperature?: number;
  /** The request's reasoning effort (reasoning.ts), checked against the model. */
  reasoningEffort?: string;
  responseFormat?: string;
  maxTokens?: number;
  /** The request's `tools` (names), undefined when none were sent. */
  tools?: ParsedTool[];
  /** Tool results (`role: 'tool'` messages), in order. */
  toolResults: ToolResultMessage[];
  /** Call id -> tool name, from the assistant messages' tool_calls. */
  callNames: Map<string, string>;
  /** Call id -> arguments text, from the assistant messages' tool_calls. */
  callArgs: Map<string, string>;
  /** Assistant messages with tool_calls after the last user message (the tool rounds of this turn). */
  toolRoundsSinceUser: number;
  /** True when the last message is a tool result: the script answers from the results. */
  endsWithToolResult: boolean;
  /** `tool_choice` when it is a word (auto, none, required). */
  toolChoice?: string;
}

function invalid(message: string): GatewayHttpError {
  return new GatewayHttpError(400, 'invalid_request_error', message);
}

/** Shape checks only (G-ERR-5); model-specific checks come after the catalog lookup. */
export function parseChatRequest(body: unknown): ParsedChatRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalid('request body must be a JSON object');
  const b = body as Record<string, unknown>;
  if (typeof b.model !== 'string' || b.model === '') throw invalid("missing required field 'model'");
  if (!Array.isArray(b.messages) || b.messages.length === 0) throw invalid("missing required field 'messages' (a non-empty array)");
  let images = 0;
  const toolResults: ToolResultMessage[] = [];
  const callNames = new Map<string, string>();
  const callArgs = new Map<string, string>();
  let toolRoundsSinceUser = 0;
  const messages: ChatMessage[] = [];
  b.messages.forEach((m: unknown, i) => {
    if (typeof m !== 'object' || m === null) throw invalid(`messages[${i}] must be an object`);
    const { role, content, tool_call_id: toolCallId, tool_calls: toolCalls } = m as Record<string, unknown>;
    if (typeof role !== 'string' || !ROLES.has(role)) throw invalid(`messages[${i}].role must be one of system, user, assistant, tool`);
    if (role === 'tool') {
      if (typeof toolCallId !== 'string' || toolCallId === '') throw invalid(`messages[${i}].tool_call_id must be a non-empty string`);
      if (typeof content !== 'string') throw invalid(`messages[${i}].content must be a string`);
      if (!callNames.has(toolCallId)) throw invalid(`messages[${i}].tool_call_id '${toolCallId}' does not answer a tool call of an earlier assistant message`);
      toolResults.push({ toolCallId, content });
      return;
    }
    if (role === 'user') toolRoundsSinceUser = 0;
    if (role === 'assistant' && toolCalls !== undefined) {
      if (!Array.isArray(toolCalls)) throw invalid(`messages[${i}].tool_calls must be an array`);
      toolRoundsSinceUser++;
      toolCalls.forEach((c: unknown, j) => {
        const call = c as { id?: unknown; type?: unknown; function?: { name?: unknown; arguments?: unknown } } | null;
        if (!call || typeof call.id !== 'string' || call.type !== 'function' || typeof call.function?.name !== 'string' || typeof call.function.arguments !== 'string') {
          throw invalid(`messages[${i}].tool_calls[${j}] must be {id, type: 'function', function: {name, arguments}}`);
        }
        callNames.set(call.id, call.function.name);
        callArgs.set(call.id, call.function.arguments);
      });
      if (content === null || content === undefined) {
        messages.push({ role: 'assistant', content: '' });
        return;
      }
    }
    if (role === 'user' && Array.isArray(content)) {
      const parts = parseContentParts(content, i);
      images += parts.images;
      messages.push({ role, content: parts.text });
      return;
    }
    if (typeof content !== 'string') {
      throw invalid(`messages[${i}].content must be a string${role === 'user' ? ' or an array of content parts' : ''}`);
    }
    messages.push({ role: role as ChatMessage['role'], content });
  });
  if (b.stream !== undefined && typeof b.stream !== 'boolean') throw invalid("'stream' must be a boolean");
  const last = b.messages[b.messages.length - 1] as { role?: unknown };
  const parsed: ParsedChatRequest = { model: b.model, messages, stream: b.stream === true, images, toolResults, callNames, callArgs, toolRoundsSinceUser, endsWithToolResult: last.role === 'tool' };
  if (b.tools !== undefined && b.tools !== null) parsed.tools = parseTools(b.tools);
  if (b.tool_choice !== undefined && b.tool_choice !== null) {
    const c = b.tool_choice as { type?: unknown; function?: { name?: unknown } } | string;
    const ok = c === 'auto' || c === 'none' || c === 'required' || (typeof c === 'object' && c.type === 'function' && typeof c.function?.name === 'string');
    if (!ok) throw invalid("'tool_choice' must be auto, none, required or {type: 'function', function: {name}}");
    if (typeof c === 'string') parsed.toolChoice = c;
  }
  if (b.temperature !== undefined && b.temperature !== null) {
    if (typeof b.temperature !== 'number' || !Number.isFinite(b.temperature)) throw invalid("'temperature' must be a number");
    parsed.temperature = b.temperature;
  }
  if (b.response_format !== undefined && b.response_format !== null) {
    const type = (b.response_format as { type?: unknown }).type;
    if (typeof type !== 'string') throw invalid("'response_format.type' must be a string");
    parsed.responseFormat = type;
  }
  if (b.max_tokens !== undefined && b.max_tokens !== null) {
    if (typeof b.max_tokens !== 'number' || !Number.isInteger(b.max_tokens) || b.max_tokens < 1) throw invalid("'max_tokens' must be a positive integer");
    parsed.maxTokens = b.max_tokens;
  }
  return parsed;
}

function parseTools(raw: unknown): ParsedTool[] {
  if (!Array.isArray(raw)) throw invalid("'tools' must be an array");
  return raw.map((t: unknown, i) => {
    const tool = t as { type?: unknown; function?: { name?: unknown; description?: unknown; parameters?: unknown } } | null;
    if (!tool || tool.type !== 'function' || typeof tool.function?.name !== 'string' || !/^[A-Za-z0-9_.-]{1,64}$/.test(tool.function.name)) {
      throw invalid(`tools[${i}] must be {type: 'function', function: {name (1-64 of A-Z a-z 0-9 _ . -), description?, parameters?}}`);
    }
    const params = tool.function.parameters;
    if (params !== undefined && (typeof params !== 'object' || params === null || Array.isArray(params))) throw invalid(`tools[${i}].function.parameters must be a JSON Schema object`);
    return { name: tool.function.name, ...(typeof tool.function.description === 'string' ? { description: tool.function.description } : {}) };
  });
}

/** A user message's content parts (see "Content parts" above): the joined text and the image count. */
function parseContentParts(parts: unknown[], i: number): { text: string; images: number } {
  if (parts.length === 0) throw invalid(`messages[${i}].content must not be an empty array`);
  const texts: string[] = [];
  let images = 0;
  parts.forEach((part: unknown, j) => {
    const at = `messages[${i}].content[${j}]`;
    if (typeof part !== 'object' || part === null) throw invalid(`${at} must be an object`);
    const p = part as Record<string, unknown>;
    if (p.type === 'text') {
      if (typeof p.text !== 'string') throw invalid(`${at}.text must be a string`);
      texts.push(p.text);
    } else if (p.type === 'image_url') {
      const url = typeof p.image_url === 'object' && p.image_url !== null ? (p.image_url as { url?: unknown }).url : undefined;
      if (typeof url !== 'string' || !/^(?:https?:\/\/|data:)/i.test(url)) throw invalid(`${at}.image_url.url must be an http(s) or data: URL`);
      images++;
    } else {
      throw invalid(`${at}.type must be text or image_url`);
    }
  });
  return { text: texts.join('\n'), images };
}

/** Model-specific checks; returns the error to send, or undefined when the request is acceptable. */
export function checkAgainstModel(request: ParsedChatRequest, model: Model | undefined, now: Date): GatewayHttpError | undefined {
  if (model === undefined) return new GatewayHttpError(404, 'not_found_error', `model '${request.model}' not found`);
  if (isRemoved(model, now)) {
    return invalid(`model '${model.id}' was removed on ${model.removal_date ?? ''} and is no longer served${model.description ? ` (${model.description})` : ''}`);
  }
  if (!(model.capabilities ?? []).includes('chat')) return invalid(`model '${model.id}' does not support chat completions`);
  if (request.tools !== undefined && !(model.capabilities ?? []).includes('tools')) return invalid(`model '${model.id}' does not support tool calling; send the request without 'tools'`);
  const t = model.parameters?.temperature;
  if (request.temperature !== undefined) {
    if (t?.supported === false) return invalid(`model '${model.id}' does not accept a temperature; omit it to use the provider default`);
    const min = t?.min ?? 0;
    const max = t?.max ?? 2;
    if (request.temperature < min || request.temperature > max) {
      return invalid(`temperature ${request.temperature} is out of range for model '${model.id}': allowed ${min} to ${max} inclusive`);
    }
  }
  const formats = model.parameters?.response_format_type?.values;
  if (request.responseFormat !== undefined && request.responseFormat !== 'text' && (formats === undefined || !formats.includes(request.responseFormat))) {
    return invalid(`response_format '${request.responseFormat}' is not accepted by model '${model.id}'; accepted: ${(formats ?? ['text']).join(', ')}`);
  }
  if (request.maxTokens !== undefined && model.max_output_tokens !== undefined && request.maxTokens > model.max_output_tokens) {
    return invalid(`max_tokens ${request.maxTokens} exceeds the model's limit of ${model.max_output_tokens}`);
  }
  return undefined;
}

function lastUserMessage(messages: readonly ChatMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]?.role === 'user') return messages[i]?.content ?? '';
  return '';
}

function clip(text: string, max: number): string {
  const points = Array.from(text);
  return points.length <= max ? text : `${points.slice(0, max).join('')}…`;
}

/** The deterministic reply: a quote of the last user message plus a little Markdown and non-ASCII text. */
export function replyFor(request: ParsedChatRequest, model: Model): string {
  const said = lastUserMessage(request.messages).trim();
  const firstLine = clip(said.split('\n')[0] ?? '', 60).replace(/`/g, "'");
  return [
    `You said: "${clip(said, 200)}"`,
    '',
    `This is a deterministic reply from **${model.display_name}** (\`${model.id}\`).`,
    '',
    '```ts',
    `const echo = ${JSON.stringify(firstLine)};`,
    'console.log(echo.length);',
    '```',
    '',
    `- messages: ${request.messages.length}`,
    `- characters: ${Array.from(said).length}`,
    ...(request.images > 0 ? [`- images: ${request.images}`] : []),
    ...(request.reasoningEffort !== undefined ? [`- reasoning effort: ${request.reasoningEffort}`] : []),
    '',
    // 😊 (U+1F60A): a character outside the BMP, from Unicode 6.0's emoticons, which DejaVu Sans also draws;
    // 🙂 (U+1F642, Unicode 7) is in colour emoji fonts only, and a machine without one (headless Chromium
    // in the sandbox and the journeys) showed a missing-glyph box at the end of every reply.
    'Done ✓ — réponse 😊',
  ].join('\n');
}

function tokens(text: string): number {
  return Math.max(1, Math.ceil(Array.from(text).length / 4));
}

export function usageFor(request: ParsedChatRequest, model: Model, content: string): Usage {
  const prompt = request.messages.reduce((n, m) => n + tokens(m.content) + 4, 0);
  const completion = tokens(content);
  // A chosen effort buys a known number of reasoning tokens (reasoning.ts); without one, the model's own.
  const reasoning = request.reasoningEffort !== undefined ? reasoningTokensFor(request.reasoningEffort) : (model.capabilities ?? []).includes('reasoning') ? 32 + ((prompt * 7) % 97) : 0;
  const usage: Usage = {
    prompt_tokens: prompt,
    completion_tokens: completion,
    completion_tokens_details: { reasoning_tokens: reasoning },
    total_tokens: prompt + completion + reasoning,
  };
  // Assumption (spec: not shown): system messages are cached; later turns (an assistant message is
  // present) read the cache and report it as OpenAI-compatible gateways do, in
  // prompt_tokens_details.cached_tokens. The first turn writes the cache, which on this route is billed
  // as ordinary input (the OpenAI convention): no cache-write field is sent, none is documented.
  const system = request.messages.filter((m) => m.role === 'system').reduce((n, m) => n + tokens(m.content) + 4, 0);
  if (system > 0) {
    const laterTurn = request.messages.some((m) => m.role === 'assistant');
    if (laterTurn && model.pricing?.cache_read_per_million !== undefined) usage.prompt_tokens_details = { cached_tokens: system };
  }
  return usage;
}

/** The analytics bill's form of this route's usage: cache reads from cached_tokens, no cache writes (billed as input). */
export function servedFromChat(usage: Usage): ServedUsage {
  return {
    prompt_tokens: usage.prompt_tokens,
    completion_tokens: usage.completion_tokens,
    total_tokens: usage.total_tokens,
    ...(usage.completion_tokens_details ? { completion_tokens_details: usage.completion_tokens_details } : {}),
    ...(usage.prompt_tokens_details?.cached_tokens ? { cache_read_tokens: usage.prompt_tokens_details.cached_tokens } : {}),
  };
}

/**
 * Odd usage on the final chunk, for the client's fail-closed tests (#39.5): `[[usage:overflow]]` writes
 * prompt_tokens as 1e400 (JSON reads it as Infinity), `[[usage:negative]]` writes completion_tokens as
 * a negative count. The bill stays the real usage's.
 */
function oddUsage(json: string, said: string): string {
  let out = json;
  if (said.includes('[[usage:overflow]]')) out = out.replace(/"prompt_tokens":\d+/, '"prompt_tokens":1e400');
  if (said.includes('[[usage:negative]]')) out = out.replace(/"completion_tokens":\d+/, '"completion_tokens":-7');
  return out;
}

/** Splits by code points, so a chunk never ends inside a surrogate pair. */
export function splitContent(content: string, size: number): string[] {
  const points = Array.from(content);
  const out: string[] = [];
  const n = Math.max(1, Math.floor(size));
  for (let i = 0; i < points.length; i += n) out.push(points.slice(i, i + n).join(''));
  return out;
}

/**
 * What both conversation routes (chat completions, messages) read first: the key, allowed to write
 * chat, the request id, the JSON body and its top-level fields. Undefined when the key was refused
 * (the refusal is sent).
 */
export async function readConversationRequest(req: Req, res: Res, ctx: GatewayContext): Promise<{ key: KeyRecord; requestId: string; body: unknown; raw: Record<string, unknown> } | undefined> {
  const key = ctx.authorize(req, res, 'chat', 'write');
  if (key === undefined) {
    req.resume();
    return undefined;
  }
  const requestId = ctx.requestId(res);
  const body = await ctx.readJson(req);
  const raw = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  return { key, requestId, body, raw };
}

/** `[[finish:NAME]]` in the last user text: the finish reason the reply ends with instead of its normal one. */
export function finishMarker(said: string): string | undefined {
  return /\[\[finish:([a-z_]{1,40})\]\]/.exec(said)?.[1];
}

/** A reply cut off by an output limit: its first two fifths, stopping mid-sentence. */
export function cutOff(text: string): string {
  const points = Array.from(text);
  return points.slice(0, Math.max(1, Math.floor((points.length * 2) / 5))).join('');
}

/** The fault markers both conversation routes honour in the last user text ([[fault:429]], [[fault:503]]); true when one was answered. */
export function answeredFaultMarker(said: string, path: string, requestId: string, res: Res, ctx: GatewayContext): boolean {
  if (said.includes('[[fault:429]]')) {
    ctx.events.push({ type: 'fault', kind: 'throttled', path, requestId, marker: true });
    sendThrottled(res);
    return true;
  }
  if (said.includes('[[fault:503]]')) {
    ctx.events.push({ type: 'fault', kind: 'unavailable', path, requestId, marker: true });
    ctx.sendError(res, 503, 'service_unavailable', 'a required dependency is temporarily unavailable; retry shortly', { 'Retry-After': '1' });
    return true;
  }
  return false;
}

async function handleChat(req: Req, res: Res, ctx: GatewayContext): Promise<void> {
  const read = await readConversationRequest(req, res, ctx);
  if (!read) return;
  const { key, requestId, body, raw } = read;
  ctx.events.push({
    type: 'chat-request',
    requestId,
    keyName: key.name,
    model: raw.model,
    stream: raw.stream,
    hasTemperature: 'temperature' in raw,
    temperature: raw.temperature,
    ...('reasoning_effort' in raw ? { reasoningEffort: raw.reasoning_effort } : {}),
    messageCount: Array.isArray(raw.messages) ? raw.messages.length : undefined,
    toolCount: Array.isArray(raw.tools) ? raw.tools.length : undefined,
  });
  const request = parseChatRequest(body);
  const now = ctx.options.now();
  const model = ctx.models().find((m) => m.id === request.model);
  const problem = checkAgainstModel(request, model, now);
  if (problem !== undefined || model === undefined) throw problem ?? invalid('unknown model');
  const effort = chatEffort(raw, model);
  if (effort !== undefined) request.reasoningEffort = effort;

  const said = lastUserMessage(request.messages);
  if (answeredFaultMarker(said, '/v1/chat/completions', requestId, res, ctx)) return;
  if (ctx.options.moderation && said.includes('[[moderate]]')) {
    // Never identifies the filter or the category (G-CHAT-4).
    ctx.sendError(res, 403, 'content_policy_violation', 'the request was blocked by the content policy');
    return;
  }

  const armed = ctx.faults.take(req, ['disconnect', 'stall']);
  const fault: { kind: 'disconnect' | 'stall'; afterChunks: number } | undefined = said.includes('[[fault:disconnect]]')
    ? { kind: 'disconnect', afterChunks: ctx.options.faultAfterChunks }
    : said.includes('[[fault:stall]]')
      ? { kind: 'stall', afterChunks: ctx.options.faultAfterChunks }
      : armed !== undefined && (armed.kind === 'disconnect' || armed.kind === 'stall')
        ? { kind: armed.kind, afterChunks: armed.afterChunks ?? ctx.options.faultAfterChunks }
        : undefined;
  const delay = said.includes('[[slow]]') ? ctx.options.slowChunkDelayMs : ctx.options.chunkDelayMs;

  let calls: ScriptedCall[] = [];
  let content = '';
  const repeat = request.endsWithToolResult && request.tools !== undefined ? repeatAfterAmbiguous(said, request.toolResults, request.callNames, request.callArgs, request.toolRoundsSinceUser, requestId) : [];
  if (repeat.length > 0) calls = repeat;
  else if (request.endsWithToolResult) content = answerFromResults(request.toolResults, request.callNames);
  else if (request.tools !== undefined && hasToolMarkers(said)) {
    const scripted = scriptCalls(said, request.tools, requestId);
    calls = scripted.calls;
    content = scripted.refusal ?? '';
  } else {
    calls = request.tools !== undefined ? chooseToolCalls(said, request.tools, requestId, request.toolChoice) : [];
    if (calls.length === 0) content = replyFor(request, model);
  }
  const forced = calls.length > 0 ? undefined : finishMarker(said);
  if (forced === 'length') content = cutOff(content);
  const finishReason = calls.length > 0 ? 'tool_calls' : (forced ?? 'stop');
  const usage = usageFor(request, model, content + calls.map((c) => c.name + c.arguments).join(''));
  recordServed(ctx, { model: model.id, operation: 'chat', usage: servedFromChat(usage), pricing: model.pricing });
  const id = `chatcmpl-${createHash('sha256').update(requestId).digest('hex').slice(0, 24)}`;
  const created = Math.floor(now.getTime() / 1000);

  let deliberate = false;
  let finished = false;
  let closed = false;
  const closedPromise = new Promise<void>((resolve) => res.once('close', () => resolve()));
  let chunksSent = 0;
  res.once('close', () => {
    closed = true;
    if (!finished && !deliberate) {
      ctx.events.push({ type: request.stream ? 'client-closed-stream' : 'client-closed-request', requestId, path: '/v1/chat/completions', chunksSent });
    }
  });
  const cut = async (): Promise<boolean> => {
    if (fault === undefined) return false;
    ctx.events.push({ type: 'fault', kind: fault.kind, path: '/v1/chat/completions', requestId });
    if (fault.kind === 'disconnect') {
      deliberate = true;
      res.socket?.destroy();
      return true;
    }
    const stallMs = ctx.options.stallMs;
    await Promise.race([closedPromise, stallMs > 0 ? ctx.sleep(stallMs) : new Promise<void>((r) => ctx.closing.addEventListener('abort', () => r(), { once: true }))]);
    if (closed || ctx.closing.aborted) {
      deliberate = deliberate || ctx.closing.aborted;
      if (!closed) res.socket?.destroy();
      return true;
    }
    return false;
  };

  if (!request.stream) {
    if (fault !== undefined && (await cut())) return;
    const completion: ChatCompletion = {
      id,
      object: 'chat.completion',
      created,
      model: model.id,
      choices: [
        {
          index: 0,
          message: (calls.length > 0
            ? { role: 'assistant', content: null, tool_calls: calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })) }
            : { role: 'assistant', content }) as ChatCompletion['choices'][number]['message'],
          finish_reason: finishReason,
        },
      ],
      usage,
    };
    finished = true;
    ctx.sendJson(res, 200, completion);
    return;
  }

  res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache', Connection: 'keep-alive' });
  ctx.events.push({ type: 'chat-stream', requestId, model: model.id, chunkSize: ctx.options.chunkSize, chunkDelayMs: delay, fault: fault?.kind });
  const chunk = (delta: ChatCompletionChunk['choices'][number]['delta'], finishReason: string | null, withUsage?: Usage): ChatCompletionChunk => ({
    id,
    object: 'chat.completion.chunk',
    created,
    model: model.id,
    choices: [{ index: 0, delta, finish_reason: finishReason }],
    ...(withUsage !== undefined ? { usage: withUsage } : {}),
  });
  const pieces: ChatCompletionChunk[] = [
    chunk({ role: 'assistant', content: '' }, null),
    ...(content === '' ? [] : splitContent(content, ctx.options.chunkSize).map((text) => chunk({ content: text }, null))),
    ...toolCallDeltas(calls, said.includes('[[tool-split]]')).map((toolCalls) => chunk({ tool_calls: toolCalls } as ChatCompletionChunk['choices'][number]['delta'], null)),
    chunk({}, finishReason, usage),
  ];
  let firstContentLogged = false;
  for (const piece of pieces) {
    if (closed) return;
    if (fault !== undefined && chunksSent === fault.afterChunks && (await cut())) return;
    const text = piece.choices[0]?.delta.content;
    if (!firstContentLogged && typeof text === 'string' && text !== '') {
      // Stamped (`at`, Date.now()) as the first content chunk is handed to the socket: the start of
      // the first-paint figure of `npm run bench` (bench/firstPaint.ts).
      firstContentLogged = true;
      ctx.events.push({ type: 'first-chunk', requestId, text });
    }
    if (piece.usage !== undefined && said.includes('[[fault:error-event]]')) {
      // A failure event after the text, with a `code` that is no HTTP status (JSON reads 1e400 as Infinity).
      ctx.events.push({ type: 'fault', kind: 'error-event', path: '/v1/chat/completions', requestId });
      deliberate = true;
      res.end(`data: {"error":{"code":1e400,"type":"server_error","message":"The upstream provider failed","request_id":"${requestId}"}}\n\n`);
      return;
    }
    // Wait until the chunk reached the socket, so a disconnect right after it never drops it unsent.
    await new Promise<void>((resolve) => res.write(`data: ${oddUsage(JSON.stringify(piece), said)}\n\n`, () => resolve()));
    chunksSent++;
    if (delay > 0) await Promise.race([ctx.sleep(delay), closedPromise]);
  }
  if (closed) return;
  finished = true;
  res.end('data: [DONE]\n\n');
}

export const chatModule: RouteModule = {
  name: 'chat',
  register(route) {
    route('POST', '/v1/chat/completions', (req, res, ctx) => handleChat(req, res, ctx));
  },
};
