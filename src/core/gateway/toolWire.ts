/**
 * The ONE wire module for tool calling over POST /v1/chat/completions: request fields, message shapes
 * and the assembly of streamed tool calls. VS Code's language model provider (src/lm) uses it, and the
 * agent chat is meant to reuse it rather than grow a second copy.
 *
 * ASSUMED (spec: "chat request fields other than model, messages and stream: not shown"; the spec
 * documents a `tools` capability but not its wire form): the gateway speaks the OpenAI-compatible
 * shape, which every provider it fronts offers in some form:
 *  - request: `tools: [{ type: 'function', function: { name, description, parameters } }]` and
 *    `tool_choice: 'auto' | 'required' | { type: 'function', function: { name } }`;
 *  - messages: user content as a string or `[{type:'text'}, {type:'image_url'}]` parts; an assistant
 *    message carries `tool_calls: [{ id, type: 'function', function: { name, arguments } }]` with
 *    `arguments` a JSON text; each result follows as `{ role: 'tool', tool_call_id, content }`;
 *  - stream: `choices[0].delta.tool_calls: [{ index, id?, type?, function: { name?, arguments? } }]`,
 *    where `arguments` arrives in pieces to be concatenated per `index`, several calls may be
 *    interleaved, and the last chunk says `finish_reason: "tool_calls"`.
 * If the gateway's documented form differs, this file is the one place to change.
 *
 * Limits (hostile server): at most MAX_TOOL_CALLS calls per response and MAX_ARGUMENT_CHARS characters
 * of arguments per call; an id or name is taken from its first non-empty fragment and later fragments
 * of it are ignored (some providers repeat them on every chunk), arguments are concatenated.
 */
import type { ChatCompletionRequest } from './types';

export type WireContentPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };

export interface WireToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export type WireMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string | WireContentPart[] }
  | { role: 'assistant'; content: string | null; tool_calls?: WireToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

export interface WireTool {
  type: 'function';
  function: { name: string; description?: string; parameters?: object };
}

export type WireToolChoice = 'auto' | 'required' | 'none' | { type: 'function'; function: { name: string } };

/** A chat request that may carry tools and tool messages (sent through the shared client as is). */
export interface ToolChatRequest extends Omit<ChatCompletionRequest, 'messages'> {
  messages: WireMessage[];
  tools?: WireTool[];
  tool_choice?: WireToolChoice;
  max_tokens?: number;
}

/** The shared client's request type is narrower (string content only); the body is sent verbatim. */
export function asChatRequest(request: ToolChatRequest): ChatCompletionRequest {
  return request as unknown as ChatCompletionRequest;
}

export const MAX_TOOL_CALLS = 128;
export const MAX_ARGUMENT_CHARS = 1_000_000;
const MAX_ID_CHARS = 256;

/** A neutral description of a tool offered to the model. */
export interface ToolSpec {
  name: string;
  description?: string;
  inputSchema?: object;
}

export function wireTools(tools: readonly ToolSpec[]): WireTool[] {
  return tools.map((t) => ({
    type: 'function',
    function: { name: t.name, ...(t.description ? { description: t.description } : {}), parameters: t.inputSchema ?? { type: 'object', properties: {} } },
  }));
}

/** `required` with a single tool names it, since some providers accept `required` only that way. */
export function wireToolChoice(mode: 'auto' | 'required', tools: readonly ToolSpec[]): WireToolChoice | undefined {
  if (mode === 'auto') return undefined; // the provider's default when tools are present
  if (tools.length === 1 && tools[0]) return { type: 'function', function: { name: tools[0].name } };
  return 'required';
}

/** The assistant's echo of calls it made, for the follow-up request. */
export function wireToolCall(callId: string, name: string, input: unknown): WireToolCall {
  return { id: callId, type: 'function', function: { name, arguments: JSON.stringify(input ?? {}) } };
}

/** A finished call from the stream. `input` is the parsed arguments; `error` says why there is none. */
export type AssembledToolCall =
  | { ok: true; index: number; id: string; name: string; arguments: string; input: Record<string, unknown> }
  | { ok: false; index: number; id: string; name: string; arguments: string; error: string };

export class ToolWireError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolWireError';
  }
}

interface Partial {
  index: number;
  id: string;
  name: string;
  args: string[];
  argChars: number;
}

/**
 * Collects `delta.tool_calls` fragments across chunks. Fragments are plain strings already decoded
 * from JSON, so a chunk boundary anywhere in the byte stream (inside a multi-byte character, inside
 * the arguments string, between two parallel calls) only changes how many fragments arrive, never
 * what they add up to. Cost: linear in the bytes received.
 */
export class ToolCallAssembler {
  private readonly calls = new Map<number, Partial>();

  /** True once any tool-call fragment was seen. */
  get hasCalls(): boolean {
    return this.calls.size > 0;
  }

  /** Feeds `choices[0].delta.tool_calls` of one chunk (anything else is ignored or refused). */
  push(deltaToolCalls: unknown): void {
    if (deltaToolCalls === undefined || deltaToolCalls === null) return;
    if (!Array.isArray(deltaToolCalls)) throw new ToolWireError('The gateway sent tool calls that are not a list');
    for (const raw of deltaToolCalls as unknown[]) {
      if (typeof raw !== 'object' || raw === null) throw new ToolWireError('The gateway sent a malformed tool call');
      const d = raw as { index?: unknown; id?: unknown; function?: { name?: unknown; arguments?: unknown } | null };
      // A missing index means "the only call" (some providers omit it when there is one).
      const index = d.index === undefined ? 0 : d.index;
      if (typeof index !== 'number' || !Number.isSafeInteger(index) || index < 0) throw new ToolWireError('The gateway sent a tool call with a bad index');
      let call = this.calls.get(index);
      if (!call) {
        if (this.calls.size >= MAX_TOOL_CALLS) throw new ToolWireError(`The model asked for more than ${MAX_TOOL_CALLS} tool calls in one reply`);
        call = { index, id: '', name: '', args: [], argChars: 0 };
        this.calls.set(index, call);
      }
      if (call.id === '' && typeof d.id === 'string' && d.id !== '') call.id = d.id.slice(0, MAX_ID_CHARS);
      const fn = d.function;
      if (fn !== undefined && fn !== null) {
        if (call.name === '' && typeof fn.name === 'string' && fn.name !== '') call.name = fn.name.slice(0, MAX_ID_CHARS);
        if (typeof fn.arguments === 'string' && fn.arguments !== '') {
          call.argChars += fn.arguments.length;
          if (call.argChars > MAX_ARGUMENT_CHARS) throw new ToolWireError(`The arguments of tool call ${call.name || index} exceed ${MAX_ARGUMENT_CHARS} characters`);
          call.args.push(fn.arguments);
        }
      }
    }
  }

  /** The calls in index order; arguments parsed. An empty arguments text means `{}`. */
  finish(): AssembledToolCall[] {
    const out: AssembledToolCall[] = [];
    for (const call of [...this.calls.values()].sort((a, b) => a.index - b.index)) {
      const text = call.args.join('');
      const id = call.id || `call_${call.index}`;
      if (call.name === '') {
        out.push({ ok: false, index: call.index, id, name: '', arguments: text, error: 'the tool call has no tool name' });
        continue;
      }
      if (text.trim() === '') {
        out.push({ ok: true, index: call.index, id, name: call.name, arguments: text, input: {} });
        continue;
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        out.push({ ok: false, index: call.index, id, name: call.name, arguments: text, error: 'its arguments are not valid JSON' });
        continue;
      }
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
        out.push({ ok: false, index: call.index, id, name: call.name, arguments: text, error: 'its arguments are not a JSON object' });
        continue;
      }
      out.push({ ok: true, index: call.index, id, name: call.name, arguments: text, input: parsed as Record<string, unknown> });
    }
    return out;
  }
}

/** The fields of a stream chunk this module reads (the shared client's chunk type has no tool calls). */
export interface ToolChunkView {
  content?: string;
  toolCalls?: unknown;
  finishReason?: string | null;
}

export function readToolChunk(chunk: unknown): ToolChunkView {
  const choice = (chunk as { choices?: Array<{ delta?: { content?: unknown; tool_calls?: unknown }; finish_reason?: unknown }> } | null)?.choices?.[0];
  if (!choice) return {};
  const delta = choice.delta ?? {};
  return {
    content: typeof delta.content === 'string' ? delta.content : undefined,
    toolCalls: delta.tool_calls,
    finishReason: typeof choice.finish_reason === 'string' ? choice.finish_reason : null,
  };
}
