/**
 * The contract of the one shared gateway client. Features (chat, catalog, content, MCP, editor glue)
 * program against this interface; src/core/gateway/gatewayClient.ts implements it on undici.
 *
 * Every call takes an AbortSignal. Every failure is a GatewayError (src/core/http/errors.ts) with a
 * reason and, whenever the server sent one, the request id.
 */
import type { GatewayError } from '../http/errors';
import type { ChatCompletion, ChatCompletionChunk, ChatCompletionRequest, ModelCatalog } from './types';
import type { ChatRoute } from './chatRoute';

export interface RetryNotice {
  /** 1-based number of the attempt that failed. */
  attempt: number;
  /** How long the client will wait before the next attempt. */
  delayMs: number;
  error: GatewayError;
}

export interface CallOptions {
  signal?: AbortSignal;
  /** Called before each automatic retry, so the UI can show a countdown. */
  onRetry?: (notice: RetryNotice) => void;
  /**
   * For createChatCompletion and streamChatCompletion: the route the model speaks (chatRouteFor in
   * chatRoute.ts). Absent: chat completions. On `messages` the request is translated and sent to
   * POST /v1/messages, and the reply comes back in the chat-completion form (messagesWire.ts).
   */
  route?: ChatRoute;
}

export interface ChatStream extends AsyncIterable<ChatCompletionChunk> {
  /** X-Request-ID of the response, when the server sent one. */
  readonly requestId: string | undefined;
}

export interface JsonResponse<T> {
  data: T;
  status: number;
  requestId: string | undefined;
}

export interface IGatewayClient {
  /** GET /v1/models, unauthenticated. */
  listModels(options?: CallOptions): Promise<JsonResponse<ModelCatalog>>;
  /** GET /v1/models/{owner}/{model}/schema, unauthenticated. The response shape is not documented. */
  getModelSchema(modelId: string, options?: CallOptions): Promise<JsonResponse<unknown>>;
  /** POST /v1/chat/completions without streaming. */
  createChatCompletion(request: ChatCompletionRequest, options?: CallOptions): Promise<JsonResponse<ChatCompletion>>;
  /**
   * POST /v1/chat/completions with stream: true. Resolves once response headers arrived (after any
   * retries); iterating yields typed chunks and ends at `data: [DONE]`. Never retried once the stream
   * has started: a failure mid-stream throws a GatewayError with `partial: true`.
   */
  streamChatCompletion(request: ChatCompletionRequest, options?: CallOptions): Promise<ChatStream>;
  /**
   * Authenticated JSON POST to any gateway path (content endpoints and the like). `accept` replaces the
   * Accept header (application/json) for a route that needs another, such as /v1/mcp.
   */
  postJson<T>(path: string, body: unknown, options?: CallOptions & { accept?: string }): Promise<JsonResponse<T>>;
  /** Authenticated JSON GET to any gateway path. */
  getJson<T>(path: string, options?: CallOptions & { query?: Record<string, string | undefined> }): Promise<JsonResponse<T>>;
}
