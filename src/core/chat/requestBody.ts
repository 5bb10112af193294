/**
 * The request a chat message sends, built in ONE place for the send and for the cost shown before
 * sending (issue 39 item 2), so the two cannot drift: the system prompt, every earlier turn, the new
 * message with its attachments (the open file's implicit chip included), images, and in agent mode the
 * tool schemas. `promptOf` reads a body back as what the prompt's cost counts.
 */
import type { ChatCompletionRequest, Model } from '../gateway/types';
import { temperatureToSend } from './modelOptions';
import { chatReasoningFields, effortToSend } from '../gateway/reasoningEffort';
import { asChatRequest, type WireMessage, type WireTool } from '../gateway/toolWire';
import { hasImages, requestMessages, wireRequestMessages, type Conversation } from './conversation';

/**
 * Assumption (spec: how an image in a chat message is counted is not shown; the catalog carries token
 * rates only): each image is counted as IMAGE_PROMPT_TOKENS prompt tokens, about what a picture of one
 * megapixel costs on the common vision models, and a prompt with an image is labelled an estimate.
 */
export const IMAGE_PROMPT_TOKENS = 1600;

/** The body of a plain chat reply's request for the conversation as it stands (its last message is the user's). */
export function chatRequestBody(conv: Conversation, options: { imageInput: boolean; model: Model | undefined }): ChatCompletionRequest {
  // Images travel as content parts (the wire module's form); text-only conversations keep the plain shape.
  const request: ChatCompletionRequest = hasImages(conv)
    ? asChatRequest({ model: conv.modelId, messages: wireRequestMessages(conv, { imageInput: options.imageInput }), stream: true, stream_options: { include_usage: true } })
    : { model: conv.modelId, messages: requestMessages(conv), stream: true, stream_options: { include_usage: true } };
  const temperature = temperatureToSend(options.model, conv.temperature);
  if (temperature !== undefined) request.temperature = temperature;
  // Only a value the model's catalog entry lists; nothing when it lists none (reasoningEffort.ts).
  Object.assign(request, chatReasoningFields(effortToSend(options.model, conv.reasoningEffort)));
  return request;
}

/** The first round of an agent-mode reply: the conversation in the wire form, and the tools offered. */
export function agentRequestBody(conv: Conversation, options: { imageInput: boolean; tools: readonly WireTool[] }): { messages: WireMessage[]; tools: readonly WireTool[] } {
  return { messages: wireRequestMessages(conv, { imageInput: options.imageInput }), tools: options.tools };
}

/**
 * What a request body carries, as the prompt's cost counts it: the text of every message (system,
 * earlier turns, attachments, tool calls), the tool schemas as JSON, and the number of images (counted
 * at IMAGE_PROMPT_TOKENS each).
 */
export function promptOf(body: { messages: readonly unknown[]; tools?: readonly unknown[] }): { text: string; images: number } {
  const parts: string[] = [];
  let images = 0;
  for (const m of body.messages) {
    const msg = m as { content?: unknown; tool_calls?: unknown };
    if (typeof msg.content === 'string') parts.push(msg.content);
    else if (Array.isArray(msg.content)) {
      for (const p of msg.content as Array<{ type?: unknown; text?: unknown }>) {
        if (p?.type === 'text' && typeof p.text === 'string') parts.push(p.text);
        else images++;
      }
    }
    if (Array.isArray(msg.tool_calls) && msg.tool_calls.length > 0) parts.push(JSON.stringify(msg.tool_calls));
  }
  if (body.tools && body.tools.length > 0) parts.push(JSON.stringify(body.tools));
  return { text: parts.join('\n\n'), images };
}
