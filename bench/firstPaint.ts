/**
 * First paint in the real editor, and activation time in code-server.
 *
 * The packaged VSIX runs in code-server (the end-to-end tier's harness: test/e2e/harness.ts) against the
 * local gateway started in this process. For each send:
 *  - the gateway stamps Date.now() just before it writes the first chunk carrying content (its
 *    `first-chunk` event, test/localGateway/chat.ts);
 *  - a MutationObserver installed in the chat webview (through Playwright, in the webview's frame)
 *    stamps Date.now() when that text appears in the reply's DOM, and again in the next animation frame.
 * Both clocks are the same machine's wall clock, so the difference is the whole path: gateway socket ->
 * extension host client -> chat controller -> postMessage -> webview renderer -> DOM.
 *
 * Activation: code-server's extension host logs `ExtensionService#_doActivateExtension <id>` when it
 * starts activating an extension, and the extension logs `AI Gateway <version> activated` once its
 * services exist (src/services.ts). The difference (both log timestamps, ms resolution) is the
 * activation time: loading the activation bundle and running activate() up to the services. "From the
 * window load" would mostly measure when the user first ran a command (the extension activates on
 * its commands, views, Markdown/HTML files and the chat panel, not at startup), so it is not used.
 * Two kinds of sample: the first activation, on a command in a settled window (one per launch), and
 * one per window reload, where a new extension host restores the chat tab and activates the extension
 * while the built-in extensions start too (contended; reported apart, never mixed).
 *
 * Run: `npx tsx bench/firstPaint.ts [--sends 30] [--warmup 3] [--reloads 5]`. Prints a summary on stderr and
 * one JSON line on stdout (read by bench/run.ts). Packages the VSIX first unless
 * AI_GATEWAY_E2E_SKIP_PACKAGE=1 (bench/run.ts has just packaged it).
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { FrameLocator, Locator } from 'playwright-core';
import { LOCAL_KEYS } from '../test/localGateway/keys';
import { keepLogsAndClose, runBench, usePrivateVsix } from './editorRun';
import { ROOT, launchEditor, type Editor } from '../test/e2e/harness';
import { quantile } from './stats';

const args = process.argv.slice(2);
const num = (flag: string, fallback: number): number => (args.includes(flag) ? Number(args[args.indexOf(flag) + 1]) : fallback);
const SENDS = num('--sends', 30);
const WARMUP = num('--warmup', 3);
const RELOADS = num('--reloads', 5);
const MODEL = 'openai/gpt-4.1';
const EXTENSION_ID = 'ai-gateway.ai-gateway-vscode';
/** The local gateway's reply always starts with this (replyFor in test/localGateway/chat.ts); its first chunk contains it. */
const REPLY_PREFIX = 'You said';
const LOGS_COPY = join(ROOT, '.bench-results', 'code-server-logs');

const log = (line: string): void => void process.stderr.write(`[first-paint] ${line}\n`);

/**
 * Run in the webview frame (built with new Function: the host tsconfig has no DOM types; a plain string
 * would be evaluated as an expression, not called). INSTALL_OBSERVER once per frame; ARM(prefix) makes
 * the observer stamp the next assistant reply whose body text contains `prefix`.
 */
type InFrame = (el: unknown, arg?: string) => unknown;
const inFrame = (body: string): InFrame => new Function('el', 'arg', body) as InFrame;
const INSTALL_OBSERVER = inFrame(`
  if (window.__firstPaint) return true;
  const state = { armedCount: -1, prefix: '', stamps: [], arrivals: [] };
  window.__firstPaint = state;
  // When the first chunk's message was dispatched in this frame (the event's own time stamp): the
  // listener may run before or after the chat's own one, so it either waits for the stamp or fills it in.
  window.addEventListener('message', (e) => {
    const d = e.data;
    if (!d || d.type !== 'streamChunk' || typeof d.text !== 'string' || !state.prefix || !d.text.includes(state.prefix)) return;
    const at = performance.timeOrigin + e.timeStamp;
    const last = state.stamps[state.stamps.length - 1];
    if (state.armedCount < 0 && last && last.arrivedAt === 0) last.arrivedAt = at;
    else if (state.armedCount >= 0) state.arrivals.push(at);
  }, true);
  const root = document.getElementById('messages') || document.body;
  const check = () => {
    if (state.armedCount < 0) return;
    const replies = root.querySelectorAll('article.message.assistant');
    if (replies.length <= state.armedCount) return;
    const body = replies[replies.length - 1].querySelector('.body');
    const text = body ? body.textContent || '' : '';
    if (!text.includes(state.prefix)) return;
    const stamp = { domAt: Date.now(), domFrameAt: performance.timeOrigin + performance.now(), frameAt: 0, arrivedAt: state.arrivals.length ? state.arrivals[state.arrivals.length - 1] : 0, text: text.slice(0, 40) };
    state.arrivals = [];
    state.armedCount = -1;
    state.stamps.push(stamp);
    requestAnimationFrame(() => { stamp.frameAt = Date.now(); });
  };
  new MutationObserver(check).observe(root, { childList: true, subtree: true, characterData: true });
  return true;
`);
const ARM = inFrame(`
  const state = window.__firstPaint;
  state.prefix = arg;
  state.armedCount = (document.getElementById('messages') || document.body).querySelectorAll('article.message.assistant').length;
  return state.stamps.length;
`);
const READ_STAMPS = inFrame('return window.__firstPaint.stamps;');
const HAS_ERROR = inFrame('return el.classList.contains("error");');

interface Stamp {
  domAt: number;
  /** domAt on the frame's own clock (performance.timeOrigin + now), the clock arrivedAt is read on. */
  domFrameAt: number;
  frameAt: number;
  /** When the chunk's message reached the chat's frame (0: not seen). */
  arrivedAt: number;
  text: string;
}

export interface FirstPaintResult {
  sends: number;
  warmup: number;
  chunkDelayMs: number;
  /** Gateway first content chunk -> text in the webview DOM (MutationObserver), ms. */
  domMs: { median: number; p95: number; min: number; max: number; samples: number[] };
  /** Gateway first content chunk -> the next animation frame after it appeared (paint follows it), ms. */
  frameMs: { median: number; p95: number };
  /**
   * Gateway first content chunk -> its message dispatched in the chat's frame: the editor's part of the
   * path (extension host, code-server, the workbench and the webview's frames). The rest is the webview's.
   */
  arrivalMs: { median: number; p95: number; seen: number };
  /**
   * The page's own part: the first chunk's message dispatched in the chat's frame -> its text in the DOM,
   * both on the frame's clock, ms (the samples where the message was seen). With the host's part
   * (bench/firstChunkHost.ts) this is the extension's share of domMs.
   */
  pageMs: { median: number; p95: number; seen: number };
  /**
   * The first send of the run (a warm-up send, not in domMs): the first reply in the chat page opened
   * for this run, after the model was picked. One sample; where the renderer's first use would show.
   */
  firstSendMs?: number;
  /** Of firstSendMs: the first chunk's message reaching the chat's frame (the editor's path). */
  firstSendArrivalMs?: number;
  /**
   * onCommandMs: the first activation, on a command in a settled window (one per launch).
   * onRestoreMs: activations while a reloaded window restores the chat tab, competing with the
   * built-in extensions' startup (and the log channel is created then, so its timestamp can lag).
   */
  activation: { onCommandMs: number[]; onRestoreMs: number[]; onRestoreMedianMs?: number; samples: ActivationSample[] } | { skipped: string };
  vscode: string;
}

function summarize(xs: number[]): { median: number; p95: number; min: number; max: number; samples: number[] } {
  return { median: quantile(xs, 0.5), p95: quantile(xs, 0.95), min: Math.min(...xs), max: Math.max(...xs), samples: xs };
}

async function openChat(editor: Editor): Promise<{ chat: FrameLocator; body: Locator }> {
  const chat = await editor.webviewFrame('AI Gateway Chat', { timeout: 90_000 });
  await chat.locator('#input').waitFor({ state: 'visible' });
  const body = chat.locator('body');
  await body.evaluate(INSTALL_OBSERVER);
  return { chat, body };
}

function walk(dir: string, out: string[] = []): string[] {
  if (!existsSync(dir)) return out;
  for (const f of readdirSync(dir)) {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) walk(p, out);
    else out.push(p);
  }
  return out;
}

/** "2026-11-22 01:20:00.123 [info] ..." -> ms (local time; only differences are used). */
function logTime(line: string): number | undefined {
  const m = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2}\.\d{3})/.exec(line);
  return m ? new Date(`${m[1]}T${m[2]}`).getTime() : undefined;
}

interface ActivationSample {
  /** The activation event named by the extension host (onCommand:..., onWebviewPanel:...). */
  event: string;
  ms: number;
}

/**
 * Activation samples from the logs of every extension host this editor started: per host folder
 * (exthostN), the `_doActivateExtension` line of our extension and our `activated` line.
 */
function activationSamples(userDataDir: string): ActivationSample[] {
  const files = walk(join(userDataDir, 'logs'));
  const byHost = new Map<string, { start?: number; event?: string; done?: number }>();
  for (const file of files) {
    const host = /\/(exthost\d+)\//.exec(file)?.[1];
    if (!host || !file.endsWith('.log')) continue;
    const entry = byHost.get(host) ?? {};
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (line.includes(`_doActivateExtension ${EXTENSION_ID}`) && entry.start === undefined) {
        entry.start = logTime(line);
        entry.event = /activationEvent: '([^']+)'/.exec(line)?.[1] ?? 'unknown';
      } else if (/AI Gateway \S+ activated/.test(line)) entry.done ??= logTime(line);
    }
    byHost.set(host, entry);
  }
  return [...byHost.values()]
    .filter((e) => e.start !== undefined && e.done !== undefined)
    .map((e) => ({ event: e.event ?? 'unknown', ms: (e.done ?? 0) - (e.start ?? 0) }));
}

async function main(): Promise<void> {
  await usePrivateVsix();

  // Chunks 20 ms apart (50 chunks/s), like a real stream: the first chunk arrives alone.
  const chunkDelayMs = 20;
  log('launching code-server + Chromium');
  const editor = await launchEditor({ name: 'bench-first-paint', gateway: { chunkDelayMs } });
  try {
    const gateway = editor.gateway;
    if (!gateway) throw new Error('the harness started no local gateway');
    await editor.addKey('bench', LOCAL_KEYS.userFull);
    await editor.waitForStatusBarItem(/bench \(User\)/);
    await editor.clearNotifications();
    await editor.runCommand('AI Gateway: Open Chat in Editor');
    const { chat, body } = await openChat(editor);
    // The model is picked through the toolbar's model button (a quick pick), as a user does.
    await chat.locator('#model').click();
    await editor.page.locator('.quick-input-widget .quick-input-box input').fill(MODEL);
    await editor.pickQuickPickItem(/GPT-4\.1/);
    await chat.locator('#model .model-name', { hasText: /^GPT-4\.1$/ }).waitFor({ state: 'attached' });

    const completed = chat.locator('article.message.assistant:is(.complete, .incomplete, .error)');
    const domMs: number[] = [];
    const frameMs: number[] = [];
    const arrivalMs: number[] = [];
    const pageMs: number[] = [];
    let firstSendMs: number | undefined;
    let firstSendArrivalMs: number | undefined;
    for (let i = 0; i < WARMUP + SENDS; i++) {
      const firstChunks = gateway.events.list('first-chunk').length;
      const before = await completed.count();
      await body.evaluate(ARM, REPLY_PREFIX);
      await chat.locator('#input').fill(`first paint ${i}`);
      const sentAt = Date.now();
      await chat.locator('#input').press('Enter');
      // Nothing of the bench's own runs in the page while the first chunk crosses: it waits in this
      // process for the gateway to write that chunk, and lets the page alone a moment more (Playwright's
      // waiting polls in the page). The observer stamps the paint whenever it comes, so the pause only
      // keeps the bench out of the figure.
      await gateway.events.waitFor('first-chunk', (e) => e.at >= sentAt, 60_000);
      await new Promise((r) => setTimeout(r, 150));
      await completed.nth(before).waitFor({ state: 'attached', timeout: 60_000 });
      if (await completed.nth(before).evaluate(HAS_ERROR)) {
        throw new Error(`send ${i} failed: ${(await completed.nth(before).textContent()) ?? ''}`);
      }
      const events = gateway.events.list('first-chunk');
      if (events.length !== firstChunks + 1) throw new Error(`send ${i}: expected one first-chunk event, got ${events.length - firstChunks}`);
      const event = events[events.length - 1];
      if (typeof event?.text !== 'string' || !event.text.startsWith(REPLY_PREFIX)) throw new Error(`send ${i}: first chunk ${JSON.stringify(event?.text)} does not start with ${REPLY_PREFIX}`);
      const stamps = (await body.evaluate(READ_STAMPS)) as Stamp[];
      const stamp = stamps[stamps.length - 1];
      if (!stamp || stamps.length !== i + 1) throw new Error(`send ${i}: the webview observer stamped ${stamps.length} replies`);
      if (i === 0) {
        firstSendMs = stamp.domAt - event.at;
        firstSendArrivalMs = stamp.arrivedAt > 0 ? Math.round(stamp.arrivedAt - event.at) : undefined;
      }
      if (i >= WARMUP) {
        domMs.push(stamp.domAt - event.at);
        frameMs.push(stamp.frameAt - event.at);
        if (stamp.arrivedAt > 0) {
          arrivalMs.push(Math.round(stamp.arrivedAt - event.at));
          pageMs.push(Math.round((stamp.domFrameAt - stamp.arrivedAt) * 100) / 100);
        }
      }
    }
    const dom = summarize(domMs);
    log(`first paint over ${SENDS} sends: DOM median ${dom.median} ms, p95 ${dom.p95} ms (min ${dom.min}, max ${dom.max}); next frame median ${quantile(frameMs, 0.5)} ms, p95 ${quantile(frameMs, 0.95)} ms`);
    log(`  of which the chunk reaching the chat's frame: median ${quantile(arrivalMs, 0.5)} ms, p95 ${quantile(arrivalMs, 0.95)} ms (${arrivalMs.length} seen)`);
    log(`  the page's own part (message in the chat's frame -> text in the DOM): median ${quantile(pageMs, 0.5)} ms, p95 ${quantile(pageMs, 0.95)} ms`);
    log(`  samples, DOM: ${domMs.join(' ')}; message in the chat's frame: ${arrivalMs.join(' ')}; page: ${pageMs.join(' ')}`);
    log(`  the run's first send (the chat page's first reply, not counted above): ${firstSendMs ?? '-'} ms, of which the chunk reaching the chat's frame ${firstSendArrivalMs ?? '-'} ms`);

    // Activation: the first activation (on the Add API Key command) plus one per window reload (the
    // restored chat panel activates the extension in the new extension host).
    const userDataDir = join(dirname(editor.workspace), 'user-data');
    const waitForSample = async (count: number, ms: number): Promise<boolean> => {
      for (let t = 0; t < ms / 500; t++) {
        if (activationSamples(userDataDir).length > count) return true;
        await new Promise((res) => setTimeout(res, 500));
      }
      return false;
    };
    for (let r = 0; r < RELOADS; r++) {
      const before = activationSamples(userDataDir).length;
      await editor.page.reload();
      await editor.page.locator('#workbench\\.parts\\.statusbar').waitFor({ state: 'visible', timeout: 120_000 });
      // The restored chat tab activates the extension; if the editor did not restore it, a command does.
      if (!(await waitForSample(before, 30_000))) {
        await editor.runCommand('AI Gateway: Open Chat in Editor');
        await waitForSample(before, 30_000);
      }
    }
    const samples = activationSamples(userDataDir);
    const onCommand = samples.filter((x) => x.event.startsWith('onCommand:')).map((x) => x.ms);
    const onRestore = samples.filter((x) => x.event.startsWith('onWebviewPanel:')).map((x) => x.ms);
    const activation: FirstPaintResult['activation'] =
      samples.length > 0
        ? { onCommandMs: onCommand, onRestoreMs: onRestore, onRestoreMedianMs: onRestore.length ? quantile(onRestore, 0.5) : undefined, samples }
        : { skipped: 'no `_doActivateExtension` / `activated` log line pair found in the code-server logs' };
    log('samples' in activation ? `activation in code-server: on first command ${onCommand.join(', ')} ms; on window restore ${onRestore.join(', ')} ms` : `activation: ${activation.skipped}`);
    const vscode = /VS Code (\d[\d.]*)/.exec(readFileSync(join(ROOT, 'test/e2e/harness.ts'), 'utf8'))?.[1] ?? 'unknown';
    const result: FirstPaintResult = { sends: SENDS, warmup: WARMUP, chunkDelayMs, domMs: dom, frameMs: { median: quantile(frameMs, 0.5), p95: quantile(frameMs, 0.95) }, arrivalMs: { median: quantile(arrivalMs, 0.5), p95: quantile(arrivalMs, 0.95), seen: arrivalMs.length }, pageMs: { median: quantile(pageMs, 0.5), p95: quantile(pageMs, 0.95), seen: pageMs.length }, firstSendMs, firstSendArrivalMs, activation, vscode };
    process.stdout.write(JSON.stringify(result) + '\n');
  } finally {
    // Kept for inspection (git-ignored): the log lines the activation figure comes from.
    await keepLogsAndClose(editor, LOGS_COPY);
  }
}

runBench(main);
