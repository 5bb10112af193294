/**
 * Host time of a chat message with many saved conversations: from the webview's `send` to the request
 * being handed to the gateway client, and from the final chunk to the conversation's file being in
 * place (renamed over the old one, after fsync). Real ChatController and HistoryStore on real files;
 * only the gateway is a stand-in that answers at once, so the figures are the host's own work.
 * Goal: at most 5 ms at p95 of the host's own work, independent of the number of saved conversations.
 * Each window's time waiting on the history store's file system (its open, write, fsync, rename and lock
 * file) is measured in the same samples and printed apart: it is the disk's, and moves with it from run to
 * run (a busy disk's fsync alone took 13 ms at p95 in one run of 2026-11-30).
 *
 * Run: `npx tsx bench/chatSend.bench.ts [--smoke]`; `runChatSendBench()` feeds `npm run bench`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as controllerModule from '../src/core/chat/chatController';
import type { Conversation } from '../src/core/chat/conversation';
import * as historyModule from '../src/core/chat/historyStore';
import type { ChatStream, IGatewayClient } from '../src/core/gateway/api';
import type { ChatCompletionChunk, Model } from '../src/core/gateway/types';
import * as disposablesModule from '../src/core/disposables';
import { quantile } from './stats';

export interface ChatSendFigures {
  conversations: number;
  messagesEach: number;
  sends: number;
  sendToRequest: { median: number; p95: number };
  /**
   * send -> request with the time spent waiting on the file system taken out (the history write's open,
   * write, fsync, rename and the lock file, measured around each call in the same send): the host's own
   * work. The whole figure moves with the disk's fsync from run to run.
   */
  sendOwnWork: { median: number; p95: number };
  /** The time waiting on the file system in send -> request: what `sendOwnWork` leaves out. */
  sendFileSystem: { median: number; p95: number };
  finalChunkToSaved: { median: number; p95: number };
  /** final chunk -> saved with the file system's wait taken out, as for the send. */
  savedOwnWork: { median: number; p95: number };
  savedFileSystem: { median: number; p95: number };
}

const MODEL: Model = { id: 'bench/chat', object: 'model', owned_by: 'bench', provider: 'bench', display_name: 'Bench', capabilities: ['chat'], context_window: 1_000_000 };

/**
 * The history store's file system, timed: between `start()` and `stop()`, the wall time during which at
 * least one of its calls is in flight (overlapping calls count once; a call in flight at `start` or `stop`
 * counts from or to there, so the figure never exceeds the span).
 */
function timedFs(fs: historyModule.HistoryFs): { fs: historyModule.HistoryFs; start(at: number): void; stop(at: number): number } {
  let inFlight = 0;
  let since = 0;
  let counting = false;
  let ms = 0;
  const wrap = <A extends unknown[], R>(call: (...a: A) => Promise<R>) =>
    async (...a: A): Promise<R> => {
      if (inFlight++ === 0) since = performance.now();
      try {
        return await call(...a);
      } finally {
        if (--inFlight === 0 && counting) ms += performance.now() - since;
      }
    };
  return {
    fs: Object.fromEntries(Object.entries(fs).map(([k, v]) => [k, wrap((v as (...a: unknown[]) => Promise<unknown>).bind(fs))])) as unknown as historyModule.HistoryFs,
    start(at) {
      ms = 0;
      counting = true;
      since = at;
    },
    stop(at) {
      if (inFlight > 0) ms += at - since;
      counting = false;
      return ms;
    },
  };
}

function seedConversation(i: number, messages: number): Conversation {
  return {
    version: 1,
    id: `seed${i}`,
    title: `Saved conversation ${i}`,
    modelId: MODEL.id,
    systemPrompt: '',
    createdAt: i,
    updatedAt: i,
    messages: Array.from({ length: messages }, (_, k) => ({
      id: `s${i}m${k}`,
      role: k % 2 === 0 ? ('user' as const) : ('assistant' as const),
      content: `Message ${k} of conversation ${i}. `.repeat(8),
      status: 'complete' as const,
      createdAt: i,
    })),
  };
}

/** The chat code a measurement drives: ours, or another version's (the last release's, side by side). */
export interface ChatSendCode {
  ChatController: typeof controllerModule.ChatController;
  HistoryStore: typeof historyModule.HistoryStore;
  nodeHistoryFs: typeof historyModule.nodeHistoryFs;
  Emitter: typeof disposablesModule.Emitter;
}

const OURS: ChatSendCode = { ...controllerModule, ...historyModule, ...disposablesModule };

/**
 * The same modules from another checkout's `src/` (bench/gitRef.ts). Their API must match ours where the
 * bench uses it (the chat controller, history store and emitter have not changed since 0.1.0); a version
 * whose API differs fails here, loudly, rather than measuring something else.
 */
export async function chatSendCodeAt(root: string): Promise<ChatSendCode> {
  const load = async (rel: string): Promise<Record<string, unknown>> => (await import(pathToFileURL(path.join(root, rel)).href)) as Record<string, unknown>;
  const [c, h, d] = await Promise.all([load('src/core/chat/chatController.ts'), load('src/core/chat/historyStore.ts'), load('src/core/disposables.ts')]);
  const code = { ChatController: c.ChatController, HistoryStore: h.HistoryStore, nodeHistoryFs: h.nodeHistoryFs, Emitter: d.Emitter };
  for (const [name, value] of Object.entries(code)) if (value === undefined) throw new Error(`chat send bench: ${root} has no ${name}`);
  return code as ChatSendCode;
}

type ControllerDeps = ConstructorParameters<typeof controllerModule.ChatController>[0];

/** The real chat controller with one model, no editor host and no log: what the chat benches drive. */
export function benchChatController(code: Pick<ChatSendCode, 'ChatController' | 'Emitter'>, model: Model, client: IGatewayClient, store: ControllerDeps['store'], post: ControllerDeps['post']): controllerModule.ChatController {
  return new code.ChatController({
    getClient: async () => client,
    models: { chatModels: () => [model], getModel: (id) => (id === model.id ? model : undefined), onDidChange: new code.Emitter<unknown>().event },
    store,
    prefs: { lastModelId: () => model.id, setLastModelId: () => undefined },
    host: {} as never,
    post,
    log: { trace() {}, debug() {}, info() {}, warn() {}, error() {} },
  });
}

async function measure(conversations: number, messagesEach: number, sends: number, code: ChatSendCode): Promise<ChatSendFigures> {
  const { HistoryStore, nodeHistoryFs } = code;
  const dir = await mkdtemp(path.join(os.tmpdir(), 'chat-send-bench-'));
  try {
    const seeder = new HistoryStore(dir);
    for (let i = 0; i < conversations; i++) await seeder.save(seedConversation(i, messagesEach));

    let sendAt = 0;
    let finalChunkAt = 0;
    const sendToRequest: number[] = [];
    const sendFileSystem: number[] = [];
    const finalChunkToSaved: number[] = [];
    const savedFileSystem: number[] = [];
    let openId = '';
    let waitingForSave = false;
    const timed = timedFs(nodeHistoryFs);
    const store = new HistoryStore(dir, {
      ...timed.fs,
      rename: async (from, to) => {
        await timed.fs.rename(from, to);
        if (waitingForSave && to.endsWith(`${openId}.json`)) {
          const at = performance.now();
          finalChunkToSaved.push(at - finalChunkAt);
          savedFileSystem.push(timed.stop(at));
          waitingForSave = false;
        }
      },
    });
    const chunk = (content: string): ChatCompletionChunk => ({ id: 'c', object: 'chat.completion.chunk', created: 0, model: MODEL.id, choices: [{ index: 0, delta: { content }, finish_reason: null }] }) as ChatCompletionChunk;
    const client = {
      streamChatCompletion: async (): Promise<ChatStream> => {
        const at = performance.now();
        sendToRequest.push(at - sendAt);
        sendFileSystem.push(timed.stop(at));
        return {
          requestId: 'bench',
          async *[Symbol.asyncIterator]() {
            yield chunk('Hello');
            yield chunk(', world.');
            finalChunkAt = performance.now();
            timed.start(finalChunkAt);
            waitingForSave = true;
          },
        };
      },
    } as unknown as IGatewayClient;
    const controller = benchChatController(code, MODEL, client, store, () => undefined);
    await controller.handle({ type: 'ready' });
    const warmup = Math.min(5, sends);
    for (let n = 0; n < warmup + sends; n++) {
      // Each send goes into a saved conversation of `messagesEach` messages, as a user would continue one.
      openId = `seed${n % conversations}`;
      await controller.handle({ type: 'openConversation', conversationId: openId });
      if (n === warmup) {
        sendToRequest.length = 0;
        sendFileSystem.length = 0;
        finalChunkToSaved.length = 0;
        savedFileSystem.length = 0;
      }
      sendAt = performance.now();
      timed.start(sendAt);
      await controller.handle({ type: 'send', text: `Question ${n}` });
    }
    controller.dispose();
    store.dispose();
    const fig = (xs: number[]) => ({ median: quantile(xs, 0.5), p95: quantile(xs, 0.95) });
    if (sendFileSystem.length !== sendToRequest.length || savedFileSystem.length !== finalChunkToSaved.length) throw new Error('chat send bench: a sample without its file-system time');
    const own = (whole: number[], fs: number[]) => fig(whole.map((x, i) => x - fs[i]));
    return {
      conversations,
      messagesEach,
      sends: sendToRequest.length,
      sendToRequest: fig(sendToRequest),
      sendOwnWork: own(sendToRequest, sendFileSystem),
      sendFileSystem: fig(sendFileSystem),
      finalChunkToSaved: fig(finalChunkToSaved),
      savedOwnWork: own(finalChunkToSaved, savedFileSystem),
      savedFileSystem: fig(savedFileSystem),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Ours at each size; with `other`, that version's too, size by size in turn with ours (the same run, the
 * same machine noise on both).
 */
export async function runChatSendBench(smoke = false, other?: ChatSendCode): Promise<{ ours: ChatSendFigures[]; other?: ChatSendFigures[] }> {
  const sizes = smoke ? [10, 30] : [10, 100, 1000];
  const ours: ChatSendFigures[] = [];
  const theirs: ChatSendFigures[] = [];
  for (const n of sizes) {
    ours.push(await measure(n, smoke ? 10 : 50, smoke ? 10 : 100, OURS));
    if (other) theirs.push(await measure(n, smoke ? 10 : 50, smoke ? 10 : 100, other));
  }
  return other ? { ours, other: theirs } : { ours };
}

export function formatChatSend(figs: ChatSendFigures[]): string[] {
  const f = (x: { median: number; p95: number }) => `${x.median.toFixed(2)} / ${x.p95.toFixed(2)}`;
  return [
    `chat send with saved conversations (${figs[0]?.messagesEach ?? 0} messages each), host ms median / p95 — goal ≤ 5 ms p95 of the host's own work (the file system's wait apart), independent of the number of conversations`,
    `  ${'saved conversations'.padEnd(22)}${'send -> request'.padStart(18)}${'own work'.padStart(14)}${'file system'.padStart(16)}${'final chunk -> saved'.padStart(24)}${'own work'.padStart(14)}${'file system'.padStart(16)}`,
    ...figs.map((x) => `  ${String(x.conversations).padEnd(22)}${f(x.sendToRequest).padStart(18)}${f(x.sendOwnWork).padStart(14)}${f(x.sendFileSystem).padStart(16)}${f(x.finalChunkToSaved).padStart(24)}${f(x.savedOwnWork).padStart(14)}${f(x.savedFileSystem).padStart(16)}`),
  ];
}

if (require.main === module) {
  void runChatSendBench(process.argv.includes('--smoke')).then(({ ours }) => {
    for (const l of formatChatSend(ours)) console.log(l);
    console.log(JSON.stringify(ours));
  });
}
