/**
 * The chat page's own work on a first open, the working tree ("new") against the same code at a git
 * ref ("old"), interleaved on fresh headless Chromium contexts in one run so machine noise falls on both
 * alike: a quick side-by-side for the figure that bench/chatOpen.ts takes in the real editor (minutes,
 * one code-server per run). Each side is built as its esbuild.mjs builds it (the ES-module page and its
 * renderer when the ref has `chatWebviewOptions`, else the one classic script) and served under the
 * chat's real shell and CSP (src/webviewKit/html.ts) with the chat's preloads (the icon font, the
 * renderer), every file answered after --latency ms, side by side, as the webview's resource loader
 * answers them.
 *
 * Figures per page, on the page's own clock, from the chat's first mark (the script running,
 * src/webview/chat/bootMark.ts):
 *  - page built: the composer in the DOM and `ready` posted (the chat's `built` mark);
 *  - composer usable: the first frame after the page's `load` event (VS Code shows a new webview at
 *    that event) with the message box laid out: what bench/chatOpen.ts stamps in the workbench;
 *  - renderer loaded (new only): the Markdown renderer is there (the `rendered` mark).
 * A fresh browser context per page: no HTTP or code cache carries over, as on a first open.
 *
 * Run: `npx tsx bench/chatBootSideBySide.ts [--ref main] [--rounds 15] [--latency 30]`.
 */
import { rmSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import { chromium } from 'playwright-core';
import { webviewHtml } from '../src/webviewKit/html';
import { CHROMIUM_ARGS, chromiumPath } from './chatRender.bench';
import { checkoutAtRef } from './gitRef';
import { quantile } from './stats';

const args = process.argv.slice(2);
const flag = (name: string, fallback: string): string => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const ref = flag('--ref', 'main');
const rounds = Number(flag('--rounds', '15'));
const latencyMs = Number(flag('--latency', '30'));
const ROOT = path.resolve(__dirname, '..');
const ORIGIN = 'https://chat-boot.test';

interface Built {
  /** File name (in dist/webview) -> text. */
  files: Map<string, string>;
  module: boolean;
  preload: string[];
}

/** The chat webview of the checkout at `root`, built for production as its own esbuild.mjs builds it. */
async function buildAt(root: string): Promise<Built> {
  const mod = (await import(pathToFileURL(path.join(root, 'esbuild.mjs')).href)) as { chatWebviewOptions?: esbuild.BuildOptions[] };
  const options: esbuild.BuildOptions[] = mod.chatWebviewOptions ?? [{ entryPoints: [{ in: 'src/webview/chat/main.ts', out: 'webview/chat' }], bundle: true, platform: 'browser', format: 'iife', target: 'chrome120' }];
  const files = new Map<string, string>();
  for (const o of options) {
    const r = await esbuild.build({ ...o, absWorkingDir: root, outdir: path.join(root, 'dist'), write: false, minify: true, logLevel: 'silent', define: { 'process.env.NODE_ENV': '"production"' } });
    for (const f of r.outputFiles) files.set(path.basename(f.path), f.text);
  }
  const module = options[0].format === 'esm';
  return { files, module, preload: [...files.keys()].filter((f) => f !== 'chat.js') };
}

interface Sample {
  builtMs: number;
  usableMs: number;
  rendererMs?: number;
}

/** In the page before the chat's script: the VS Code API stand-in, and the frame after `load` with the message box laid out. */
const PRELUDE = `
window.acquireVsCodeApi = () => ({ postMessage() {}, getState() { return undefined; }, setState() {} });
window.__boot = {};
addEventListener('load', () => {
  const tick = () => {
    const input = document.getElementById('input');
    if (input && input.getBoundingClientRect().height > 0) window.__boot.usable = performance.now();
    else requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
});`;

async function main(): Promise<void> {
  const executablePath = chromiumPath();
  if (!executablePath) throw new Error('Chromium not found: install it (apt-get install -y chromium) or set CHROMIUM_PATH.');
  const oldRoot = checkoutAtRef(ref, ['src', 'media', 'esbuild.mjs']);
  try {
    const sides: Record<string, Built> = { old: await buildAt(oldRoot), new: await buildAt(ROOT) };
    const css = readFileSync(path.join(ROOT, 'media/chat.css'), 'utf8');
    const font = readFileSync(path.join(ROOT, 'media/codicons/codicon.ttf'));
    const browser = await chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS });
    const samples: Record<string, Sample[]> = { old: [], new: [] };
    try {
      for (let i = 0; i < rounds; i++) {
        for (const k of i % 2 === 0 ? ['old', 'new'] : ['new', 'old']) {
          const side = sides[k];
          const context = await browser.newContext({ viewport: { width: 400, height: 900 } });
          const page = await context.newPage();
          await page.route('**/*', async (route) => {
            const url = route.request().url();
            const name = url.slice(ORIGIN.length + 1);
            if (url === `${ORIGIN}/`) {
              const html = webviewHtml({
                cspSource: ORIGIN,
                nonce: 'bench',
                scriptUri: `${ORIGIN}/chat.js`,
                module: side.module,
                preloadModules: side.preload.map((f) => `${ORIGIN}/${f}`),
                preloadFonts: [`${ORIGIN}/codicons/codicon.ttf`],
                styleUris: [`${ORIGIN}/chat.css`],
                title: 'AI Gateway Chat',
                body: '<div id="app"></div>',
                localImages: true,
                preludeScript: PRELUDE,
              });
              return route.fulfill({ contentType: 'text/html', body: html });
            }
            await new Promise((r) => setTimeout(r, latencyMs));
            if (name === 'chat.css') return route.fulfill({ contentType: 'text/css', body: css });
            if (name === 'codicons/codicon.ttf') return route.fulfill({ contentType: 'font/ttf', body: font, headers: { 'access-control-allow-origin': '*' } });
            const js = side.files.get(name);
            if (js !== undefined) return route.fulfill({ contentType: 'text/javascript', body: js, headers: { 'access-control-allow-origin': '*' } });
            return route.abort();
          });
          await page.goto(`${ORIGIN}/`);
          await page.waitForFunction('window.__boot.usable !== undefined && (!' + String(side.module) + " || performance.getEntriesByName('aiGateway/chat/rendered').length > 0)", undefined, { polling: 50 });
          const s = (await page.evaluate(`(() => {
            const mark = (n) => { const m = performance.getEntriesByName(n, 'mark')[0]; return m ? m.startTime : undefined; };
            const t0 = mark('aiGateway/chat/script');
            const r = mark('aiGateway/chat/rendered');
            return { builtMs: mark('aiGateway/chat/built') - t0, usableMs: window.__boot.usable - t0, rendererMs: r === undefined ? undefined : r - t0 };
          })()`)) as Sample;
          await context.close();
          samples[k].push(s);
          process.stderr.write(`round ${i + 1} ${k}: built ${s.builtMs.toFixed(1)} ms, composer usable ${s.usableMs.toFixed(1)} ms${s.rendererMs !== undefined ? `, renderer loaded ${s.rendererMs.toFixed(1)} ms` : ''}\n`);
        }
      }
    } finally {
      await browser.close();
    }
    const med = (xs: number[]): string => quantile(xs, 0.5).toFixed(1);
    const line = (label: string, pick: (s: Sample) => number | undefined): string => {
      const o = samples.old.map(pick).filter((x): x is number => x !== undefined);
      const n = samples.new.map(pick).filter((x): x is number => x !== undefined);
      const ratio = o.length && n.length ? `; new/old ${(quantile(n, 0.5) / quantile(o, 0.5)).toFixed(2)}` : '';
      return `  ${label.padEnd(42)} old ${o.length ? `${med(o)} ms` : '-'}   new ${n.length ? `${med(n)} ms` : '-'}${ratio}`;
    };
    const size = (b: Built): string => [...b.files].map(([f, t]) => `${f} ${(Buffer.byteLength(t) / 1024).toFixed(1)} KB`).join(', ');
    console.log(`chat page, first open, ${ref} (old: ${size(sides.old)}) vs the working tree (new: ${size(sides.new)}): ${rounds} interleaved rounds, fresh context each, files answered after ${latencyMs} ms; medians from the script running`);
    console.log(line('page built (composer in the DOM)', (s) => s.builtMs));
    console.log(line("composer usable (the page's own work)", (s) => s.usableMs));
    console.log(line('Markdown renderer loaded', (s) => s.rendererMs));
  } finally {
    rmSync(oldRoot, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exitCode = 1;
});
