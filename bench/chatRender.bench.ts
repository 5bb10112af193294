/**
 * Chat rendering benchmark, in headless Chromium (Debian's /usr/bin/chromium through
 * playwright-core):
 *  - stream a 20,000-token reply at 2,000 tokens/s into the real chat webview (src/webview/chat/main.ts)
 *    and into a naive renderer that re-renders the whole message on every chunk, in the same run;
 *  - report the longest task, total long-task time (tasks over 50 ms), the time from the last chunk to
 *    the final paint, and webview memory (JS heap after GC, DOM nodes) after a 500-message history.
 * Both pages get identical input as window message events through the real protocol.
 *
 * The end of a reply is measured over several streams (a fresh page each; --streams, default 8): one
 * sample is one draw of where the next frame falls (a paint waits up to 16.7 ms for it at 60 Hz), so a
 * single stream's figure swung between 12 and 35 ms from run to run. The figure is their median; the
 * p95 and the split (messages handled, next frame, painted) are printed with it. The long-task figures
 * are the worst stream's. The naive baseline streams once (it takes minutes).
 *
 * Run: `npx tsx bench/chatRender.bench.ts [--smoke] [--streams N]` (prints a table and one JSON line).
 * `runChatRenderBench()` lets the `npm run bench` driver fold the figures into its report.
 * Env: CHROMIUM_PATH overrides the browser path; CHAT_BENCH_DEBUG=1 prints when long tasks happened;
 * CHAT_BENCH_ONLY_INCREMENTAL=1 skips the (slow, minutes) naive run while tuning.
 */
import * as esbuild from 'esbuild';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { MessageView } from '../src/protocol/chatProtocol';
import type { FeedResult } from '../src/webview/chat/bench/feedResult';
import { quantile } from './stats';

const ROOT = path.resolve(__dirname, '..');

export interface RenderFigures {
  longestTaskMs: number;
  longTaskTotalMs: number;
  longTasks: number;
  lastChunkToFinalPaintMs: number;
  streamWallMs: number;
  historyRenderMs: number;
  heapAfter500MessagesMb: number;
  domNodesAfter500Messages: number;
}

export interface ChatRenderBenchResult {
  tokens: number;
  tokensPerSecond: number;
  /** Tokens per SSE chunk (one host->webview message each). */
  tokensPerChunk: number;
  historyMessages: number;
  incremental: RenderFigures;
  naive: RenderFigures;
  /** naive / incremental for each figure (higher means the incremental renderer wins by more). */
  ratio: Record<keyof RenderFigures, number>;
  /** The incremental renderer's reply ends, one per stream: lastChunkToFinalPaintMs is their median. */
  finalPaint: FinalPaint;
  /** The first chunk of each stream's reply, in a chat page loaded THINK_MS before it (ours). */
  firstReply: FirstReply;
}

/**
 * The first paint of a new chat's first reply, one per stream (each stream is a fresh page): the page
 * loaded `thinkMs` before the reply starts (the user typing their first message), then the first chunk
 * is posted alone. This is where a renderer's first use costs (code compiled on first run).
 */
export interface FirstReply {
  thinkMs: number;
  /** First chunk posted -> the frame that shows it painted, per stream, ms. */
  samplesMs: number[];
  medianMs: number;
  p95Ms: number;
  /** First chunk posted -> handled (its text in the DOM), median ms. */
  handledMedianMs: number;
}

export interface FinalPaint {
  streams: number;
  /** Last chunk -> final paint, per stream, ms. */
  samplesMs: number[];
  medianMs: number;
  p95Ms: number;
  /** Medians of the split: last chunk -> messages handled -> next frame's callbacks (paint follows). */
  handledMedianMs: number;
  frameMedianMs: number;
}

/** A deterministic markdown reply of about `tokens` tokens (one token ~ one word or symbol run). */
export function syntheticReply(tokens: number): string[] {
  const words = 'the gateway streams tokens while the renderer keeps settled blocks untouched and only repaints the tail block once per frame'.split(' ');
  const out: string[] = [];
  let seed = 7;
  const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n);
  const para = (n: number) => {
    for (let i = 0; i < n; i++) out.push(`${i === 0 ? 'The' : words[rand(words.length)]}${rand(12) === 0 ? ', ' : ' '}`);
    out.push('**bold** ', '`code` ', 'end.\n\n');
  };
  let section = 0;
  while (out.length < tokens) {
    section++;
    out.push(`## Section ${section}\n\n`);
    para(60 + rand(60));
    for (let i = 0; i < 5; i++) out.push('- ', `item ${i} `, words[rand(words.length)], ' ', words[rand(words.length)], '\n');
    out.push('\n');
    out.push('```ts\n');
    for (let i = 0; i < 12; i++) out.push('const ', `value${i}`, ' = ', `compute(${i}, "${words[rand(words.length)]}")`, ';\n');
    out.push('```\n\n');
    para(80 + rand(80));
    out.push('| a | b |\n', '|---|---|\n', `| ${section} | ${words[rand(words.length)]} |\n\n`);
  }
  return out.slice(0, tokens);
}

function historyMessages(n: number): MessageView[] {
  const reply = syntheticReply(400).join('');
  return Array.from({ length: n }, (_, i) =>
    i % 2 === 0
      ? { id: `h${i}`, role: 'user' as const, content: `Question ${i}: how does streaming work?`, status: 'complete' as const }
      : { id: `h${i}`, role: 'assistant' as const, content: `Answer ${i}.\n\n${reply}`, status: 'complete' as const },
  );
}

/** Bundles `contents` for the page, resolving from `root` (another checkout's files, for a side-by-side run). */
export async function bundle(contents: string, root = ROOT): Promise<string> {
  const r = await esbuild.build({
    stdin: { contents, resolveDir: root, sourcefile: 'bench-entry.ts', loader: 'ts' },
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'chrome120',
    minify: true,
    logLevel: 'silent',
  });
  return r.outputFiles[0].text;
}

const STUB_API = `window.acquireVsCodeApi = () => ({ postMessage() {}, getState() { return undefined; }, setState() {} });`;

/** A fresh chat page: our stylesheet (from `root`), the stub VS Code API, then `script`. */
export async function openPage(browser: Browser, script: string, root = ROOT): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 480, height: 900 } });
  const css = readFileSync(path.join(root, 'media/chat.css'), 'utf8');
  await page.setContent(`<!DOCTYPE html><html><head><style>${css}</style></head><body><div id="app"></div></body></html>`);
  await page.addScriptTag({ content: STUB_API });
  await page.addScriptTag({ content: script });
  return page;
}

async function heapAfterGc(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.enable');
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('Performance.enable');
  const { metrics } = await cdp.send('Performance.getMetrics');
  await cdp.detach();
  return (metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? 0) / 1e6;
}

/**
 * Scenario: a user takes at least this long to type the first message after the chat loads; the
 * chat's page may use that time (it warms its renderer while idle).
 */
const THINK_MS = 1000;

/**
 * Where in a frame the i-th of n first chunks lands (ms after a frame): spread evenly over one 60 Hz
 * frame, as real chunks land anywhere in one. Posted right after a frame, every one would wait a whole frame.
 */
export function framePhase(i: number, n: number): number {
  return Math.round((((i % n) + 0.5) / n) * (1000 / 60) * 10) / 10;
}

async function measure(browser: Browser, script: string, chunks: string[], chunksPerSecond: number, history: MessageView[], streams: number, thinkMs: number): Promise<{ figures: RenderFigures; finalPaint: FinalPaint; firstReply: FirstReply }> {
  const feeds: FeedResult[] = [];
  for (let i = 0; i < streams; i++) {
    const streamPage = await openPage(browser, script);
    const feed = (await streamPage.evaluate(`window.__chatBench.feed(${JSON.stringify(chunks)}, ${chunksPerSecond}, 10, ${thinkMs}, ${framePhase(i, streams)})`)) as FeedResult;
    if (process.env.CHAT_BENCH_DEBUG) console.error(`stream ${i + 1}: long tasks at (ms after start): ${feed.longTaskStartsMs.join(', ')}; first chunk: handled ${feed.firstChunkHandledMs.toFixed(1)}, painted ${feed.firstChunkPaintMs.toFixed(1)} ms; end: handled ${feed.finalHandledMs.toFixed(1)}, frame ${feed.finalFrameMs.toFixed(1)}, painted ${feed.lastChunkToFinalPaintMs.toFixed(1)} ms`);
    await streamPage.close();
    feeds.push(feed);
  }
  /** One figure over the streams: each sample (0.1 ms), the median and the p95. */
  const over = (pick: (f: FeedResult) => number) => {
    const xs = feeds.map(pick);
    return { samplesMs: xs.map((x) => Math.round(x * 10) / 10), medianMs: quantile(xs, 0.5), p95Ms: quantile(xs, 0.95) };
  };
  const median = (pick: (f: FeedResult) => number): number => quantile(feeds.map(pick), 0.5);
  const finalPaint: FinalPaint = { streams, ...over((f) => f.lastChunkToFinalPaintMs), handledMedianMs: median((f) => f.finalHandledMs), frameMedianMs: median((f) => f.finalFrameMs) };
  const firstReply: FirstReply = { thinkMs, ...over((f) => f.firstChunkPaintMs), handledMedianMs: median((f) => f.firstChunkHandledMs) };
  const historyPage = await openPage(browser, script);
  const hist = (await historyPage.evaluate(`window.__chatBench.loadHistory(${JSON.stringify(history)})`)) as { renderMs: number; domNodes: number };
  const heap = await heapAfterGc(historyPage);
  await historyPage.close();
  const figures: RenderFigures = {
    longestTaskMs: Math.max(...feeds.map((f) => f.longestTaskMs)),
    longTaskTotalMs: Math.max(...feeds.map((f) => f.longTaskTotalMs)),
    longTasks: Math.max(...feeds.map((f) => f.longTasks)),
    lastChunkToFinalPaintMs: finalPaint.medianMs,
    streamWallMs: quantile(feeds.map((f) => f.durationMs), 0.5),
    historyRenderMs: hist.renderMs,
    heapAfter500MessagesMb: heap,
    domNodesAfter500Messages: hist.domNodes,
  };
  return { figures, finalPaint, firstReply };
}

export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

export function chromiumPath(): string | undefined {
  const p = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  return existsSync(p) ? p : undefined;
}

export async function runChatRenderBench(options: { smoke?: boolean; tokens?: number; streams?: number } = {}): Promise<ChatRenderBenchResult> {
  const executablePath = chromiumPath();
  if (!executablePath) throw new Error('Chromium not found: install it (apt-get install -y chromium) or set CHROMIUM_PATH.');
  const tokensCount = options.tokens ?? (options.smoke ? 2_000 : 20_000);
  const historyCount = options.smoke ? 50 : 500;
  const tokensPerSecond = 2_000;
  const streams = Math.max(1, options.streams ?? (options.smoke ? 2 : 8));
  // Assumption: a chunk carries a few tokens (the local gateway sends ~3; providers send 1-10), and
  // each becomes one host->webview message. 10 keeps the naive baseline's O(n^2) run within minutes.
  const tokensPerChunk = 10;
  const tokens = syntheticReply(tokensCount);
  const chunks: string[] = [];
  for (let i = 0; i < tokens.length; i += tokensPerChunk) chunks.push(tokens.slice(i, i + tokensPerChunk).join(''));
  const history = historyMessages(historyCount);
  const [incrementalJs, naiveJs] = await Promise.all([
    bundle(`import './src/webview/chat/main.ts';\nimport './src/webview/chat/bench/harness.ts';`),
    bundle(`import './src/webview/chat/bench/naive.ts';\nimport './src/webview/chat/bench/harness.ts';`),
  ]);
  const browser = await chromium.launch({
    executablePath,
    headless: true,
    args: CHROMIUM_ARGS,
  });
  try {
    // Incremental first, then naive: both in the same browser, same input.
    const thinkMs = options.smoke ? 100 : THINK_MS;
    const { figures: incremental, finalPaint, firstReply } = await measure(browser, incrementalJs, chunks, tokensPerSecond / tokensPerChunk, history, streams, thinkMs);
    if (process.env.CHAT_BENCH_ONLY_INCREMENTAL) return { tokens: tokensCount, tokensPerSecond, tokensPerChunk, historyMessages: historyCount, incremental, naive: incremental, ratio: {} as Record<keyof RenderFigures, number>, finalPaint, firstReply };
    const { figures: naive } = await measure(browser, naiveJs, chunks, tokensPerSecond / tokensPerChunk, history, 1, 0);
    // A figure of 0 (no long task at all) would make the ratio infinite: divide by at least 1 (ms, task,
    // node) instead, so the ratio is a lower bound then, marked with ">=" in the table.
    const ratio = Object.fromEntries(
      (Object.keys(incremental) as Array<keyof RenderFigures>).map((k) => [k, naive[k] / Math.max(incremental[k], 1)]),
    ) as Record<keyof RenderFigures, number>;
    return { tokens: tokensCount, tokensPerSecond, tokensPerChunk, historyMessages: historyCount, incremental, naive, ratio, finalPaint, firstReply };
  } finally {
    await browser.close();
  }
}

export function formatChatRenderBench(r: ChatRenderBenchResult): string {
  const rows: Array<[string, keyof RenderFigures, string]> = [
    ['longest task', 'longestTaskMs', 'ms'],
    ['total long-task time (>50 ms)', 'longTaskTotalMs', 'ms'],
    ['long tasks', 'longTasks', ''],
    ['last chunk -> final paint', 'lastChunkToFinalPaintMs', 'ms'],
    ['stream wall time', 'streamWallMs', 'ms'],
    [`history render (${r.historyMessages} msgs)`, 'historyRenderMs', 'ms'],
    [`JS heap after ${r.historyMessages} msgs`, 'heapAfter500MessagesMb', 'MB'],
    [`DOM nodes after ${r.historyMessages} msgs`, 'domNodesAfter500Messages', ''],
  ];
  const fmt = (n: number) => (Number.isFinite(n) ? (Math.abs(n) >= 100 ? n.toFixed(0) : n.toFixed(1)) : '∞');
  const lines = [`Chat rendering: ${r.tokens.toLocaleString('en')} tokens at ${r.tokensPerSecond.toLocaleString('en')} tokens/s (${r.tokensPerChunk} tokens per chunk), headless Chromium`];
  lines.push(`${'figure'.padEnd(34)}${'incremental'.padStart(14)}${'naive'.padStart(14)}${'naive/incr.'.padStart(14)}`);
  for (const [label, key, unit] of rows) {
    lines.push(`${label.padEnd(34)}${`${fmt(r.incremental[key])} ${unit}`.padStart(14)}${`${fmt(r.naive[key])} ${unit}`.padStart(14)}${`${r.incremental[key] < 1 ? '>=' : ''}${fmt(r.ratio[key])}x`.padStart(14)}`);
  }
  const f = r.finalPaint;
  lines.push(`reply end over ${f.streams} streams (ours): last chunk -> final paint median ${fmt(f.medianMs)} ms, p95 ${fmt(f.p95Ms)} ms (${f.samplesMs.join(', ')}); messages handled ${fmt(f.handledMedianMs)}, next frame ${fmt(f.frameMedianMs)} ms (medians)`);
  const fr = r.firstReply;
  lines.push(`first reply of a new chat (a fresh page ${fr.thinkMs} ms after it loaded, ${fr.samplesMs.length} pages): first chunk -> painted median ${fmt(fr.medianMs)} ms, p95 ${fmt(fr.p95Ms)} ms (${fr.samplesMs.join(', ')}); handled ${fmt(fr.handledMedianMs)} ms (median)`);
  return lines.join('\n');
}

if (require.main === module) {
  const at = process.argv.indexOf('--streams');
  runChatRenderBench({ smoke: process.argv.includes('--smoke'), ...(at > 0 ? { streams: Number(process.argv[at + 1]) } : {}) })
    .then((r) => {
      console.log(formatChatRenderBench(r));
      console.log(JSON.stringify({ chatRender: r }));
    })
    .catch((e: unknown) => {
      console.error(e instanceof Error ? e.message : e);
      process.exitCode = 1;
    });
}
