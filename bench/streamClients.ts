/**
 * The four streaming clients the benchmark compares, all reading the same SSE chat completion:
 * - ours:     the project's real client path (createGatewayClient().streamChatCompletion) up to typed chunks;
 * - openai:   the official `openai` SDK pointed at the same server (what a user would otherwise pick);
 * - raw+json: node:http, split events on blank lines, JSON.parse each (the floor for any decoding client);
 * - raw:      node:http, line splitting only (the I/O floor).
 * Each returns the number of chunks it decoded and, when asked, the time of the first content delta.
 */
import http from 'node:http';
import { StringDecoder } from 'node:string_decoder';
import OpenAI from 'openai';
import { createGatewayClient, type GatewayClient } from '../src/core/gateway/gatewayClient';

export type ClientName = 'ours' | 'openai' | 'raw+json' | 'raw';
export const CLIENT_NAMES: readonly ClientName[] = ['ours', 'openai', 'raw+json', 'raw'];
/**
 * The messages route (POST /v1/messages), read from the same server in the same run:
 * - ours messages:  createGatewayClient().streamMessages, the route's own typed events;
 * - ours msg→chat:  streamChatCompletion with the messages route, as the chat reads a messages-only
 *                   model (events translated to chat chunks);
 * - raw+json msgs:  node:http, split events on blank lines, JSON.parse each event's data line.
 */
export type MessagesClientName = 'ours messages' | 'ours msg→chat' | 'raw+json msgs';
export const MESSAGES_CLIENT_NAMES: readonly MessagesClientName[] = ['ours messages', 'ours msg→chat', 'raw+json msgs'];

export interface RunResult {
  chunks: number;
  /** ms from request start to the first decoded content delta (performance.now based). */
  firstTokenMs: number;
}

export const BENCH_KEY = 'svc_pat_bench_0000000000000000';
const REQUEST = { model: 'openai/gpt-5.1', messages: [{ role: 'user' as const, content: 'bench' }], stream: true as const };
const BODY = JSON.stringify(REQUEST);
const MESSAGES_MODEL = 'anthropic/claude-sonnet-4';
const MESSAGES_REQUEST = { model: MESSAGES_MODEL, max_tokens: 1024, messages: [{ role: 'user' as const, content: 'bench' }], stream: true as const };
const MESSAGES_BODY = JSON.stringify(MESSAGES_REQUEST);

/** One bench stream through a gateway client (ours as built, or another version of it): chunks and time to the first content. */
export async function runGatewayClient(client: Pick<GatewayClient, 'streamChatCompletion'>): Promise<RunResult> {
  const t0 = performance.now();
  let first = -1;
  let chunks = 0;
  const stream = await client.streamChatCompletion(REQUEST);
  for await (const chunk of stream) {
    chunks++;
    if (first < 0 && chunk.choices[0]?.delta.content) first = performance.now() - t0;
  }
  return { chunks, firstTokenMs: first };
}

export interface StreamClients {
  run(name: ClientName): Promise<RunResult>;
  runMessages(name: MessagesClientName): Promise<RunResult>;
  close(): Promise<void>;
}

/** The project's real gateway client as the benches drive it: one attempt, generous timeouts, a bench user agent. */
export function benchGatewayClient(baseUrl: string, key: string): GatewayClient {
  return createGatewayClient({
    baseUrl,
    getKey: async () => key,
    userAgent: 'ai-gateway-vscode/bench',
    retry: { maxAttempts: 1 },
    timeouts: { connectMs: 10_000, firstByteMs: 60_000, idleMs: 60_000 },
  });
}

export function createStreamClients(baseUrl: string): StreamClients {
  const ours = benchGatewayClient(baseUrl, BENCH_KEY);
  const openai = new OpenAI({ baseURL: `${baseUrl}/v1`, apiKey: BENCH_KEY, maxRetries: 0 });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  const url = new URL(`${baseUrl}/v1/chat/completions`);

  const runOurs = (): Promise<RunResult> => runGatewayClient(ours);

  async function runOpenai(): Promise<RunResult> {
    const t0 = performance.now();
    let first = -1;
    let chunks = 0;
    const stream = await openai.chat.completions.create(REQUEST);
    for await (const chunk of stream) {
      chunks++;
      if (first < 0 && chunk.choices[0]?.delta.content) first = performance.now() - t0;
    }
    return { chunks, firstTokenMs: first };
  }

  function runRaw(decode: boolean): Promise<RunResult> {
    return new Promise((resolve, reject) => {
      const t0 = performance.now();
      let first = -1;
      let chunks = 0;
      const req = http.request(
        { hostname: url.hostname, port: url.port, path: url.pathname, method: 'POST', agent, headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${BENCH_KEY}`, Accept: 'text/event-stream' } },
        (res) => {
          const decoder = new StringDecoder('utf8');
          let buf = '';
          res.on('data', (b: Buffer) => {
            buf += decoder.write(b);
            if (decode) {
              let i: number;
              while ((i = buf.indexOf('\n\n')) >= 0) {
                const event = buf.slice(0, i);
                buf = buf.slice(i + 2);
                if (!event.startsWith('data: ')) continue;
                const data = event.slice(6);
                if (data === '[DONE]') continue;
                const chunk = JSON.parse(data) as { choices: Array<{ delta: { content?: string } }> };
                chunks++;
                if (first < 0 && chunk.choices[0]?.delta.content) first = performance.now() - t0;
              }
            } else {
              let start = 0;
              let i: number;
              while ((i = buf.indexOf('\n', start)) >= 0) {
                if (buf.startsWith('data: {', start)) {
                  chunks++;
                  if (first < 0) first = performance.now() - t0;
                }
                start = i + 1;
              }
              buf = buf.slice(start);
            }
          });
          res.on('end', () => resolve({ chunks, firstTokenMs: first }));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(BODY);
    });
  }

  async function runOursMessages(): Promise<RunResult> {
    const t0 = performance.now();
    let first = -1;
    let chunks = 0;
    for await (const e of await ours.streamMessages(MESSAGES_REQUEST)) {
      chunks++;
      if (first < 0 && e.type === 'content_block_delta' && e.delta.type === 'text_delta' && e.delta.text) first = performance.now() - t0;
    }
    return { chunks, firstTokenMs: first };
  }

  async function runOursMessagesAsChat(): Promise<RunResult> {
    const t0 = performance.now();
    let first = -1;
    let chunks = 0;
    const stream = await ours.streamChatCompletion({ model: MESSAGES_MODEL, messages: MESSAGES_REQUEST.messages, stream: true }, { route: { kind: 'messages', maxTokens: 1024 } });
    for await (const chunk of stream) {
      chunks++;
      if (first < 0 && chunk.choices[0]?.delta.content) first = performance.now() - t0;
    }
    return { chunks, firstTokenMs: first };
  }

  function runRawMessages(): Promise<RunResult> {
    return new Promise((resolve, reject) => {
      const t0 = performance.now();
      let first = -1;
      let chunks = 0;
      const req = http.request(
        { hostname: url.hostname, port: url.port, path: '/v1/messages', method: 'POST', agent, headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${BENCH_KEY}`, Accept: 'text/event-stream' } },
        (res) => {
          const decoder = new StringDecoder('utf8');
          let buf = '';
          res.on('data', (b: Buffer) => {
            buf += decoder.write(b);
            let i: number;
            while ((i = buf.indexOf('\n\n')) >= 0) {
              const event = buf.slice(0, i);
              buf = buf.slice(i + 2);
              const at = event.indexOf('data: ');
              if (at < 0) continue;
              const data = JSON.parse(event.slice(at + 6)) as { type: string; delta?: { text?: string } };
              if (data.type === 'message_stop') continue;
              chunks++;
              if (first < 0 && data.delta?.text) first = performance.now() - t0;
            }
          });
          res.on('end', () => resolve({ chunks, firstTokenMs: first }));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(MESSAGES_BODY);
    });
  }

  return {
    runMessages(name) {
      switch (name) {
        case 'ours messages':
          return runOursMessages();
        case 'ours msg→chat':
          return runOursMessagesAsChat();
        case 'raw+json msgs':
          return runRawMessages();
      }
    },
    run(name) {
      switch (name) {
        case 'ours':
          return runOurs();
        case 'openai':
          return runOpenai();
        case 'raw+json':
          return runRaw(true);
        case 'raw':
          return runRaw(false);
      }
    },
    async close() {
      agent.destroy();
      await ours.dispose();
    },
  };
}
