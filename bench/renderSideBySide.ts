/**
 * The chat's webview code as checked out ("new") against the same code at an older git ref ("old"),
 * interleaved on fresh headless Chromium pages in one run, so machine noise falls on both alike: quick
 * to repeat while working on the chat's drawing. Both are driven by today's bench harness
 * (src/webview/chat/bench/harness.ts) through the real host->webview protocol. Per page, one reply
 * (bench/chatRender.bench.ts's synthetic Markdown) streamed into a page that loaded --think ms before:
 *  - first chunk -> handled (its text in the DOM) and -> painted: the first paint of a new chat's first
 *    reply (a paint also waits for the next frame, up to 16.7 ms, so "handled" is the steadier figure);
 *  - last chunk -> final paint: the reply's end;
 *  - the longest task while the reply streamed (the browser reports tasks over 50 ms; 0 when none).
 * It prints each variant's samples and medians, and new/old of the medians.
 *
 * Run: `npx tsx bench/renderSideBySide.ts [--ref main] [--rounds 10] [--tokens 20000] [--think 1000]`.
 */
import { cpSync, rmSync } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import type { FeedResult } from '../src/webview/chat/bench/feedResult';
import { CHROMIUM_ARGS, bundle, chromiumPath, framePhase, openPage, syntheticReply } from './chatRender.bench';
import { checkoutAtRef } from './gitRef';
import { quantile } from './stats';

const args = process.argv.slice(2);
const flag = (name: string, fallback: string): string => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const ref = flag('--ref', 'main');
const rounds = Number(flag('--rounds', '10'));
const tokenCount = Number(flag('--tokens', '20000'));
const thinkMs = Number(flag('--think', '1000'));
const ROOT = path.resolve(__dirname, '..');
const HARNESS = 'src/webview/chat/bench';

/** `src/` and `media/` at `ref`, with today's bench harness (so both sides are driven the same way). */
function checkoutOld(): string {
  const dir = checkoutAtRef(ref, ['src', 'media']);
  rmSync(path.join(dir, HARNESS), { recursive: true, force: true });
  cpSync(path.join(ROOT, HARNESS), path.join(dir, HARNESS), { recursive: true });
  return dir;
}

async function main(): Promise<void> {
  const executablePath = chromiumPath();
  if (!executablePath) throw new Error('Chromium not found: install it (apt-get install -y chromium) or set CHROMIUM_PATH.');
  const oldRoot = checkoutOld();
  try {
    const entry = `import './src/webview/chat/main.ts';\nimport './${HARNESS}/harness.ts';`;
    const roots: Record<string, string> = { old: oldRoot, new: ROOT };
    const scripts: Record<string, string> = { old: await bundle(entry, oldRoot), new: await bundle(entry, ROOT) };
    const tokensPerChunk = 10;
    const tokens = syntheticReply(tokenCount);
    const chunks: string[] = [];
    for (let i = 0; i < tokens.length; i += tokensPerChunk) chunks.push(tokens.slice(i, i + tokensPerChunk).join(''));
    const browser = await chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS });
    const names = ['old', 'new'];
    const first: Record<string, number[]> = { old: [], new: [] };
    const firstHandled: Record<string, number[]> = { old: [], new: [] };
    const end: Record<string, number[]> = { old: [], new: [] };
    const longest: Record<string, number[]> = { old: [], new: [] };
    try {
      for (let i = 0; i < rounds; i++) {
        for (let j = 0; j < names.length; j++) {
          const k = names[(i + j) % names.length];
          const page = await openPage(browser, scripts[k], roots[k]);
          // 2,000 tokens/s, as chatRender.bench.ts streams.
          const f = (await page.evaluate(`window.__chatBench.feed(${JSON.stringify(chunks)}, ${2000 / tokensPerChunk}, 10, ${thinkMs}, ${framePhase(i, rounds)})`)) as FeedResult;
          await page.close();
          first[k].push(f.firstChunkPaintMs);
          firstHandled[k].push(f.firstChunkHandledMs);
          end[k].push(f.lastChunkToFinalPaintMs);
          longest[k].push(f.longestTaskMs);
          process.stderr.write(`round ${i + 1} ${k}: first chunk -> handled ${f.firstChunkHandledMs.toFixed(1)}, painted ${f.firstChunkPaintMs.toFixed(1)} ms, last chunk -> final paint ${f.lastChunkToFinalPaintMs.toFixed(1)} ms, longest task ${f.longestTaskMs.toFixed(0)} ms\n`);
        }
      }
    } finally {
      await browser.close();
    }
    const med = (xs: number[]): number => quantile(xs, 0.5);
    const row = (label: string, s: Record<string, number[]>): string =>
      `${label}: old median ${med(s.old).toFixed(1)} ms (${s.old.map((x) => x.toFixed(1)).join(', ')}); new median ${med(s.new).toFixed(1)} ms (${s.new.map((x) => x.toFixed(1)).join(', ')}); new/old ${med(s.old) > 0 ? (med(s.new) / med(s.old)).toFixed(2) : '-'}`;
    console.log(`chat webview, ${ref} (old) vs the working tree (new): ${rounds} interleaved rounds, ${tokenCount.toLocaleString('en')} tokens, each on a fresh page ${thinkMs} ms after it loaded`);
    console.log(row('first chunk -> handled (its text in the DOM)', firstHandled));
    console.log(row('first chunk -> painted', first));
    console.log(row('last chunk -> final paint', end));
    // A long task is one over 50 ms (0: none while the reply streamed).
    console.log(row('longest task while the reply streamed', longest));
  } finally {
    rmSync(oldRoot, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exitCode = 1;
});
