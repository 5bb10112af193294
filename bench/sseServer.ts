/**
 * A loopback SSE server that streams one pre-rendered chat completion, as fast as the socket takes it:
 * `chunks` realistic chat.completion.chunk events (about 165 bytes each) and `data: [DONE]`.
 * The body is built once, so the server costs the same for every client.
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

export interface SseServer {
  url: string;
  bytes: number;
  chunks: number;
  close(): Promise<void>;
}

export async function startSseServer(chunks: number): Promise<SseServer> {
  const body = renderCompletion(chunks);
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', 'X-Request-ID': 'bench0000000000000000000000000000' });
      res.end(body);
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    bytes: body.length,
    chunks,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
