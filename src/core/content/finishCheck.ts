/**
 * The content commands (summary, alt text, taxonomy, rewrite) and how their replies ended: a client
 * wrapper that reads the finish reason of every chat reply that passes through it (whole, streamed, or a
 * chat completion posted as JSON), interpreted by the one module that does (src/core/gateway/
 * finishReason.ts). The command asks `ends()` before it uses a result: a truncated summary, alt text,
 * list of terms or rewrite is never inserted silently (src/content/contentRunner.ts asks first).
 *
 * The dedicated content routes document no finish reason: their answers carry none and count as ended
 * normally (their own shape checks stay in wire.ts).
 */
import type { ChatStream, IGatewayClient } from '../gateway/api';
import { FinishWatch, type ReplyEnd } from '../gateway/finishReason';
import type { ChatCompletionChunk } from '../gateway/types';

export interface FinishCheckedClient {
  client: IGatewayClient;
  /** The replies so far that did not end normally, in the order they ended. */
  ends(): readonly ReplyEnd[];
}

function toolsIn(body: unknown): boolean {
  const tools = (body as { tools?: unknown } | null)?.tools;
  return Array.isArray(tools) && tools.length > 0;
}

export function finishChecked(inner: IGatewayClient): FinishCheckedClient {
  const ends: ReplyEnd[] = [];
  const note = (body: unknown, data: unknown): void => {
    const watch = new FinishWatch();
    watch.see(data);
    const end = watch.end({ toolsOffered: toolsIn(body) });
    if (end) ends.push(end);
  };
  const watched = (body: unknown, stream: ChatStream): ChatStream => ({
    requestId: stream.requestId,
    [Symbol.asyncIterator](): AsyncIterator<ChatCompletionChunk> {
      const it = stream[Symbol.asyncIterator]();
      const watch = new FinishWatch();
      return {
        next: async () => {
          const r = await it.next();
          if (!r.done) watch.see(r.value);
          else {
            // Only a stream read to its end says how the reply ended.
            const end = watch.end({ toolsOffered: toolsIn(body) });
            if (end) ends.push(end);
          }
          return r;
        },
        return: async (value?: unknown) => (it.return ? it.return(value) : { done: true, value: undefined }),
      };
    },
  });
  const client: IGatewayClient = {
    listModels: (o) => inner.listModels(o),
    getModelSchema: (id, o) => inner.getModelSchema(id, o),
    getJson: (p, o) => inner.getJson(p, o),
    createChatCompletion: async (request, o) => {
      const res = await inner.createChatCompletion(request, o);
      note(request, res.data);
      return res;
    },
    streamChatCompletion: async (request, o) => watched(request, await inner.streamChatCompletion(request, o)),
    postJson: async <T>(path: string, body: unknown, o?: Parameters<IGatewayClient['postJson']>[2]) => {
      const res = await inner.postJson<T>(path, body, o);
      note(body, res.data);
      return res;
    },
  };
  return { client, ends: () => ends };
}
