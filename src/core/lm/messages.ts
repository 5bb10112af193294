/**
 * VS Code's chat messages, in a neutral form the editor glue fills from the API classes (src/lm),
 * mapped onto the chat-completions wire (src/core/gateway/toolWire.ts).
 *
 * Mapping:
 *  - user text and image parts -> one user message (string content, or text + image_url parts when
 *    it carries an image: a `data:` URL, never a fetch);
 *  - a user message's tool result parts -> one `tool` message per result, BEFORE the rest of that
 *    user message (the wire wants results right after the assistant message that made the calls);
 *  - assistant text + tool call parts -> one assistant message with `tool_calls`;
 *  - system -> a system message.
 * Images are refused for a model without `vision`, and any image larger than MAX_IMAGE_BYTES.
 */
import { wireToolCall, type WireContentPart, type WireMessage, type WireToolCall } from '../gateway/toolWire';
import { formatBytes } from '../bytes';

export type LmPart =
  | { kind: 'text'; text: string }
  | { kind: 'toolCall'; callId: string; name: string; input: unknown }
  | { kind: 'toolResult'; callId: string; text: string }
  | { kind: 'image'; mimeType: string; data: Uint8Array };

export interface LmMessage {
  role: 'system' | 'user' | 'assistant';
  parts: LmPart[];
}

export const MAX_IMAGE_BYTES = 20 * 1024 * 1024;
const IMAGE_TYPES = /^image\/(?:png|jpeg|gif|webp)$/;

export class LmMappingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LmMappingError';
  }
}

export function toWireMessages(messages: readonly LmMessage[], options: { imageInput: boolean }): WireMessage[] {
  const out: WireMessage[] = [];
  for (const m of messages) {
    const texts: string[] = [];
    const content: WireContentPart[] = [];
    let hasImage = false;
    const calls: WireToolCall[] = [];
    const results: WireMessage[] = [];
    for (const p of m.parts) {
      switch (p.kind) {
        case 'text':
          texts.push(p.text);
          content.push({ type: 'text', text: p.text });
          break;
        case 'image': {
          if (m.role !== 'user') break; // only user messages carry images on the wire
          if (!options.imageInput) throw new LmMappingError('This model does not accept images (no `vision` capability).');
          if (!IMAGE_TYPES.test(p.mimeType)) throw new LmMappingError(`Images of type ${p.mimeType} cannot be sent; use PNG, JPEG, GIF or WebP.`);
          if (p.data.byteLength > MAX_IMAGE_BYTES) throw new LmMappingError(`An image is larger than ${formatBytes(MAX_IMAGE_BYTES)}.`);
          hasImage = true;
          content.push({ type: 'image_url', image_url: { url: `data:${p.mimeType};base64,${Buffer.from(p.data).toString('base64')}` } });
          break;
        }
        case 'toolCall':
          if (m.role === 'assistant') calls.push(wireToolCall(p.callId, p.name, p.input));
          break;
        case 'toolResult':
          results.push({ role: 'tool', tool_call_id: p.callId, content: p.text });
          break;
      }
    }
    const text = texts.join('');
    if (m.role === 'assistant') {
      if (text !== '' || calls.length > 0) out.push({ role: 'assistant', content: text === '' ? null : text, ...(calls.length ? { tool_calls: calls } : {}) });
      out.push(...results);
    } else if (m.role === 'system') {
      if (text !== '') out.push({ role: 'system', content: text });
    } else {
      out.push(...results);
      if (hasImage) out.push({ role: 'user', content });
      else if (text !== '') out.push({ role: 'user', content: text });
    }
  }
  return out;
}
