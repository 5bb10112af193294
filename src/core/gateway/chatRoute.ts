/**
 * Which route a conversation with a model goes through: the ONE decision, used by the chat, agent
 * chat, VS Code's model provider and the content commands (issue 33).
 *
 * `chat` first (POST /v1/chat/completions), `messages` otherwise (POST /v1/messages); a model that
 * lists neither is not offered for conversations. The caller passes the result as CallOptions.route;
 * the client translates (messagesWire.ts), so the caller's request and reply stay in one form.
 */
import type { Capability, Model } from './types';

/**
 * `max_tokens` is required on the messages route (messagesWire.ts); sent when neither the request
 * nor the catalog (max_output_tokens) gives one.
 */
export const DEFAULT_MAX_TOKENS = 8192;

/** The capabilities that make a model one to hold a conversation with: model lists ask for any of them. */
export const CONVERSATION_CAPABILITIES: readonly Capability[] = ['chat', 'messages'];

export type ChatRoute = { kind: 'chat' } | { kind: 'messages'; maxTokens: number };

const CHAT: ChatRoute = { kind: 'chat' };

type RouteModel = Pick<Model, 'capabilities' | 'max_output_tokens'>;

/** True when a conversation can be held with the model on one of the two routes. */
export function isConversational(model: RouteModel | undefined): boolean {
  const caps = model?.capabilities ?? [];
  return caps.includes('chat') || caps.includes('messages');
}

/**
 * The route for a conversation with `model`: chat when it lists `chat` (or is unknown: the route every
 * model was sent to before), messages when it lists `messages` but not `chat`. On the messages route
 * `maxTokens` (required there) is the model's published max_output_tokens, else DEFAULT_MAX_TOKENS.
 */
export function chatRouteFor(model: RouteModel | undefined): ChatRoute {
  const caps = model?.capabilities ?? [];
  if (caps.includes('chat') || !caps.includes('messages')) return CHAT;
  const max = model?.max_output_tokens;
  return { kind: 'messages', maxTokens: typeof max === 'number' && Number.isSafeInteger(max) && max > 0 ? max : DEFAULT_MAX_TOKENS };
}
