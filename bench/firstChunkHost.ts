/**
 * The extension host's part of the first paint (issue 40 item 14), in plain Node: from a loopback gateway
 * writing a reply's first content chunk to the chat posting it to the webview (`streamChunk`). The goal
 * "first paint after the first content chunk, at most 16 ms" counts what the extension does: this part,
 * plus the page's (the message in the chat's frame -> its text in the DOM, bench/firstPaint.ts). The
 * workbench's message path between the extension host and the webview's frame is VS Code's; the editor
 * bench prints the whole path beside it.
 *
 * Real code on the whole host path: the GatewayClient (undici, the SSE reader and the chunk decoder) on a
 * kept-alive loopback connection, the ChatController with its HistoryStore on real files (the user's
 * message is saved before the request goes). The gateway answers the request with the role chunk at
 * once, then writes the first content chunk a moment later, stamping the write, as a model's first token
 * follows the request's acceptance; the rest of the reply follows.
 *
 * Run alone: `npx tsx bench/firstChunkHost.ts [--sends N]`; `runFirstChunkHost()` feeds `npm run bench`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ChatController } from '../src/core/chat/chatController';
import { HistoryStore } from '../src/core/chat/historyStore';
import { Emitter } from '../src/core/disposables';
import type { Model } from '../src/core/gateway/types';
import { benchChatController } from './chatSend.bench';
import { quantile } from './stats';
import { benchGatewayClient } from './streamClients';

export interface FirstChunkHostResult {
  sends: number;
  /** The gateway's write of the first content chunk -> the chat's `streamChunk` posted, ms. */
  firstChunkToPostedMs: { median: number; p95: number; max: number };
}

const MODEL: Model = { id: 'openai/gpt-4.1', object: 'model', owned_by: 'openai', provider: 'openai', display_name: 'GPT-4.1', capabilities: ['chat'], context_window: 1_000_000 };
const KEY = 'sk-bench-first-chunk-000000000000';
/** Between the role chunk and the first content chunk: the socket is idle, as while a model thinks. */
const FIRST_TOKEN_DELAY_MS = 20;

function sse(delta: Record<string, unknown>, finish: string | null = null): string {
  return `data: ${JSON.stringify({ id: 'chatcmpl-first', object: 'chat.completion.chunk', created: 1763800000, model: MODEL.id, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
}

export async function runFirstChunkHost(sends: number, warmup = 5): Promise<FirstChunkHostResult> {
  let firstWrittenAt = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', 'X-Request-ID': 'firstchunk000000000000000000000' });
      res.write(sse({ role: 'assistant', content: '' }));
      setTimeout(() => {
        firstWrittenAt = performance.now();
        res.write(sse({ content: 'You said: hello.' }));
        setTimeout(() => {
          res.write(sse({ content: ' That is all.' }));
          res.end(`${sse({}, 'stop')}data: [DONE]\n\n`);
        }, 5);
      }, FIRST_TOKEN_DELAY_MS);
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const dir = await mkdtemp(path.join(os.tmpdir(), 'first-chunk-host-'));
  const samples: number[] = [];
  let waiting = false;
  let done: (() => void) | undefined;
  try {
    const client = benchGatewayClient(baseUrl, KEY);
    const store = new HistoryStore(dir);
    const controller = benchChatController({ ChatController, Emitter }, MODEL, client, store, (m) => {
      if (waiting && m.type === 'streamChunk') {
        samples.push(performance.now() - firstWrittenAt);
        waiting = false;
      }
      if (m.type === 'streamDone' || m.type === 'streamError') done?.();
    });
    await controller.handle({ type: 'ready' });
    for (let n = 0; n < warmup + sends; n++) {
      if (n === warmup) samples.length = 0;
      await controller.handle({ type: 'newConversation' });
      const ended = new Promise<void>((r) => (done = r));
      waiting = true;
      await controller.handle({ type: 'send', text: `hello ${n}` });
      await ended;
      if (waiting) throw new Error(`send ${n}: the chat posted no streamChunk`);
    }
    controller.dispose();
    store.dispose();
  } finally {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
    await rm(dir, { recursive: true, force: true });
  }
  const round = (x: number) => Math.round(x * 1000) / 1000;
  return { sends: samples.length, firstChunkToPostedMs: { median: round(quantile(samples, 0.5)), p95: round(quantile(samples, 0.95)), max: round(Math.max(...samples)) } };
}

if (require.main === module) {
  const args = process.argv.slice(2);
  const sends = args.includes('--sends') ? Number(args[args.indexOf('--sends') + 1]) : 100;
  runFirstChunkHost(sends).then(
    (r) => console.log(JSON.stringify({ firstChunkHost: r })),
    (e: unknown) => {
      console.error(e);
      process.exitCode = 1;
    },
  );
}
