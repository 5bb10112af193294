/**
 * Browser side of bench/chatRender.bench.ts (never shipped in dist/webview/chat.js). Drives a chat
 * page through the real host->webview protocol with window.postMessage, so the real webview
 * (main.ts) and the naive baseline (naive.ts) receive identical input as message events, the way
 * VS Code delivers them.
 */
import type { HostToWebview, MessageView } from '../../../protocol/chatProtocol';
import type { FeedResult } from './feedResult';

function post(m: HostToWebview | { type: 'bench-sync' }): void {
  window.postMessage(m, '*');
}

interface Painted {
  /** Every message posted before had been handled. */
  handledAt: number;
  /** The next frame's animation callbacks ran (the page's own, requested earlier, ran before). */
  frameAt: number;
  /** That frame has painted. */
  paintedAt: number;
}

/** Resolves once every message posted so far has been handled and the next frame has painted. */
function settledAndPainted(): Promise<Painted> {
  return new Promise((resolve) => {
    const onMsg = (e: MessageEvent<unknown>) => {
      if ((e.data as { type?: unknown } | null)?.type !== 'bench-sync') return;
      window.removeEventListener('message', onMsg);
      const handledAt = performance.now();
      // rAF runs before the paint; a task queued from it runs after that paint.
      requestAnimationFrame(() => {
        const frameAt = performance.now();
        const ch = new MessageChannel();
        ch.port1.onmessage = () => resolve({ handledAt, frameAt, paintedAt: performance.now() });
        ch.port2.postMessage(0);
      });
    };
    window.addEventListener('message', onMsg);
    post({ type: 'bench-sync' });
  });
}

/**
 * Streams `tokens` as one reply, `tokensPerSecond` of them (each a streamChunk message) every second.
 * `thinkMs`: the page loaded that long ago (a user types their first message for at least that long);
 * the first chunk is then posted alone, `phaseMs` after the frame that drew the reply's start, and its
 * paint measured, as the first paint of a new chat's first reply.
 */
async function feed(tokens: string[], tokensPerSecond: number, tickMs: number, thinkMs = 0, phaseMs = 0): Promise<FeedResult> {
  if (thinkMs > 0) await new Promise((r) => setTimeout(r, thinkMs));
  const tasks: number[] = [];
  const starts: number[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      tasks.push(e.duration);
      starts.push(e.startTime);
    }
  });
  observer.observe({ type: 'longtask', buffered: false });
  const requestId = 'bench';
  const message: MessageView = { id: 'bench-reply', role: 'assistant', content: '', status: 'streaming' };
  post({ type: 'streamStart', requestId, message });
  // The host posts streamStart as the request leaves; the first chunk comes at least a round trip later,
  // so the page has drawn the empty reply by then.
  await settledAndPainted();
  // Right after a frame, the next one is a whole frame away: a chunk posted now would always wait the
  // longest. A real first chunk lands anywhere in a frame; `phaseMs` (spread over a frame by the caller)
  // says where this one does.
  if (phaseMs > 0) await new Promise((r) => setTimeout(r, phaseMs));
  const firstAt = performance.now();
  post({ type: 'streamChunk', requestId, text: tokens[0] });
  const first = await settledAndPainted();
  const start = performance.now();
  let sent = 1;
  await new Promise<void>((done) => {
    const tick = () => {
      const due = Math.min(tokens.length, Math.floor(((performance.now() - start) * tokensPerSecond) / 1000));
      while (sent < due) post({ type: 'streamChunk', requestId, text: tokens[sent++] });
      if (sent < tokens.length) setTimeout(tick, tickMs);
      else done();
    };
    tick();
  });
  const lastChunkAt = performance.now();
  post({ type: 'streamDone', requestId, message: { ...message, content: tokens.join(''), status: 'complete' } });
  const { handledAt, frameAt, paintedAt } = await settledAndPainted();
  // Long tasks are reported asynchronously; give the observer one more turn.
  await new Promise((r) => setTimeout(r, 100));
  observer.disconnect();
  return {
    tokens: tokens.length,
    durationMs: paintedAt - start,
    longestTaskMs: tasks.length ? Math.max(...tasks) : 0,
    longTaskTotalMs: tasks.reduce((a, b) => a + b, 0),
    longTasks: tasks.length,
    longTaskStartsMs: starts.map((t) => Math.round(t - start)),
    lastChunkToFinalPaintMs: paintedAt - lastChunkAt,
    finalHandledMs: handledAt - lastChunkAt,
    finalFrameMs: frameAt - lastChunkAt,
    firstChunkHandledMs: first.handledAt - firstAt,
    firstChunkPaintMs: first.paintedAt - firstAt,
  };
}

async function loadHistory(messages: MessageView[]): Promise<{ renderMs: number; domNodes: number }> {
  const start = performance.now();
  post({
    type: 'state',
    state: {
      models: [],
      selectedModelId: undefined,
      conversation: { id: 'bench-history', title: 'Bench', modelId: 'bench/model', systemPrompt: '', messages },
      attachments: [],
      busy: false,
    },
  });
  const { paintedAt } = await settledAndPainted();
  return { renderMs: paintedAt - start, domNodes: document.getElementsByTagName('*').length };
}

declare global {
  interface Window {
    __chatBench: { feed: typeof feed; loadHistory: typeof loadHistory };
  }
}
window.__chatBench = { feed, loadHistory };
