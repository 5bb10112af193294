/**
 * A loopback SSE server that streams one pre-rendered chat completion, as fast as the socket takes it:
 * `chunks` realistic chat.completion.chunk events (about 165 bytes each) and `data: [DONE]`. On
 * POST /v1/messages it streams the same reply in the messages route's events instead (message_start,
 * `chunks - 2` text deltas, message_delta with usage, message_stop: see src/core/gateway/messagesWire.ts).
 * The bodies are built once, so the server costs the same for every client.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

const WORDS = ['The', ' gateway', ' streams', ' tokens', ' to', ' the', ' editor', ',', ' and', ' every', ' chunk', ' is', ' JSON', '.', ' Résumé', ' naïve', ' 東京', ' ✓'];

export function renderCompletion(chunks: number): Buffer {
  const parts: string[] = [];
  const head = { id: 'chatcmpl-bench-0001', object: 'chat.completion.chunk', created: 1763800000, model: 'openai/gpt-5.1', system_fingerprint: 'fp_bench' };
  parts.push(`data: ${JSON.stringify({ ...head, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null }] })}\n\n`);
  for (let i = 1; i < chunks - 1; i++) {
    parts.push(`data: ${JSON.stringify({ ...head, choices: [{ index: 0, delta: { content: WORDS[i % WORDS.length] }, logprobs: null, finish_reason: null }] })}\n\n`);
  }
  parts.push(
    `data: ${JSON.stringify({ ...head, choices: [{ index: 0, delta: {}, logprobs: null, finish_reason: 'stop' }], usage: { prompt_tokens: 12, completion_tokens: chunks, total_tokens: chunks + 12, completion_tokens_details: { reasoning_tokens: 0 } } })}\n\n`,
  );
  parts.push('data: [DONE]\n\n');
  return Buffer.from(parts.join(''), 'utf8');
}

/** The same reply as renderCompletion, as the messages route streams it. */
export function renderMessages(chunks: number): Buffer {
  const parts: string[] = [];
  const ev = (type: string, data: object): void => void parts.push(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  ev('message_start', { message: { id: 'msg_bench_0001', type: 'message', role: 'assistant', model: 'anthropic/claude-sonnet-4', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 12, output_tokens: 1 } } });
  ev('content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
  for (let i = 1; i < chunks - 1; i++) ev('content_block_delta', { index: 0, delta: { type: 'text_delta', text: WORDS[i % WORDS.length] } });
  ev('content_block_stop', { index: 0 });
  ev('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: chunks } });
  ev('message_stop', {});
  return Buffer.from(parts.join(''), 'utf8');
}

export interface SseServer {
  url: string;
  bytes: number;
  /** Size of the messages-route body (same reply). */
  messagesBytes: number;
  chunks: number;
  close(): Promise<void>;
}

export async function startSseServer(chunks: number): Promise<SseServer> {
  const body = renderCompletion(chunks);
  const messagesBody = renderMessages(chunks);
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', 'X-Request-ID': 'bench0000000000000000000000000000' });
      res.end(req.url === '/v1/messages' ? messagesBody : body);
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    bytes: body.length,
    messagesBytes: messagesBody.length,
    chunks,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
