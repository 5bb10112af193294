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

export interface RunResult {
  chunks: number;
  /** ms from request start to the first decoded content delta (performance.now based). */
  firstTokenMs: number;
}

export const BENCH_KEY = 'svc_pat_bench_0000000000000000';
const REQUEST = { model: 'openai/gpt-5.1', messages: [{ role: 'user' as const, content: 'bench' }], stream: true as const };
const BODY = JSON.stringify(REQUEST);

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
  close(): Promise<void>;
}

export function createStreamClients(baseUrl: string): StreamClients {
  const ours: GatewayClient = createGatewayClient({
    baseUrl,
    getKey: async () => BENCH_KEY,
    userAgent: 'ai-gateway-vscode/bench',
    retry: { maxAttempts: 1 },
    timeouts: { connectMs: 10_000, firstByteMs: 60_000, idleMs: 60_000 },
  });
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

  return {
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
