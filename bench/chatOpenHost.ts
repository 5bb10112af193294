/**
 * The extension host's part of a first open of the chat, in plain Node (issue 40 item 14): the goal
 * "opening the chat at most 150 ms" counts what the extension does, not the workbench's webview start-up
 * (its iframe, service worker and the message path between the frames, about 700 ms of a first open in
 * code-server: bench/chatOpen.ts prints it).
 *
 * Each sample is a fresh process (cold: nothing of the chat loaded): the production build is activated
 * against the unit tier's `vscode` double (test/unit/vscodeDouble, bundled here once), with the history
 * the editor bench seeds, then the chat view is resolved and the page's `ready` sent at once. Measured:
 * resolve -> HTML set, and resolve -> the first state posted (bench/chatOpenHostChild.mjs).
 *
 * Run alone: `npx tsx bench/chatOpenHost.ts [--samples N] [--build <folder>]` (default `dist`: run
 * `node esbuild.mjs --production` first, or name the folder `npm run bench` built, `.bench-results/dist`).
 */
import * as esbuild from 'esbuild';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { seedHistoryIn } from './seededHistory';
import { quantile } from './stats';
import { installVscodeStandIn } from './vscodeStandIn.cjs';

const ROOT = path.resolve(__dirname, '..');

export interface ChatOpenHostResult {
  samples: number;
  /** Resolve -> the page's HTML set, ms. */
  htmlMs: { median: number; p95: number };
  /** Resolve -> the first state posted (the page's ready sent with the HTML), ms. */
  stateMs: { median: number; p95: number; samplesMs: number[] };
}

/** Bundles the double where its own relative paths (the repo's package.json, three folders up) still hold. */
async function bundleDouble(): Promise<string> {
  const dir = path.join(ROOT, '.bench-results', 'vscode-double', 'cjs');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'double.cjs');
  await esbuild.build({
    stdin: { contents: "module.exports = require('./test/unit/vscodeDouble/index.ts');", resolveDir: ROOT, loader: 'js' },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    outfile: file,
    logLevel: 'warning',
  });
  return file;
}

/**
 * A copy of the build with the double as its `vscode` package (bench/vscodeStandIn.cjs, as for the cold
 * import): resolved by Node itself, not by a loader hook, whose worker thread would add to every import.
 */
function buildWithDouble(double: string, build: string): string {
  const dist = path.join(ROOT, '.bench-results', 'open-host', 'dist');
  rmSync(dist, { recursive: true, force: true });
  cpSync(path.resolve(ROOT, build), dist, { recursive: true, filter: (src) => path.basename(src) !== 'node_modules' });
  installVscodeStandIn(dist, double, 'vscode');
  return path.join(dist, 'extension.mjs');
}

/** `build`: the production build's folder (bench/run.ts builds it into .bench-results/dist). */
export async function runChatOpenHost(samples: number, build: string): Promise<ChatOpenHostResult> {
  const double = await bundleDouble();
  const entry = buildWithDouble(double, build);
  const html: number[] = [];
  const state: number[] = [];
  for (let i = 0; i < samples; i++) {
    const home = mkdtempSync(path.join(tmpdir(), 'aigw-open-host-'));
    try {
      const storage = path.join(home, 'globalStorage');
      seedHistoryIn(path.join(storage, 'chat'));
      const r = spawnSync(process.execPath, [path.join(ROOT, 'bench/chatOpenHostChild.mjs'), double, storage, entry], { encoding: 'utf8', cwd: home });
      const line = r.stdout.trim().split('\n').pop() ?? '';
      const o = JSON.parse(line || '{}') as { htmlMs?: number; stateMs?: number; error?: string };
      if (o.htmlMs === undefined || o.stateMs === undefined) throw new Error(`the chat's first open in plain Node failed: ${o.error ?? r.stderr.slice(-2000)}`);
      html.push(o.htmlMs);
      state.push(o.stateMs);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  }
  const round = (x: number) => Math.round(x * 100) / 100;
  return {
    samples,
    htmlMs: { median: round(quantile(html, 0.5)), p95: round(quantile(html, 0.95)) },
    stateMs: { median: round(quantile(state, 0.5)), p95: round(quantile(state, 0.95)), samplesMs: state.map(round) },
  };
}

if (require.main === module) {
  const args = process.argv.slice(2);
  const n = args.includes('--samples') ? Number(args[args.indexOf('--samples') + 1]) : 10;
  const build = args.includes('--build') ? args[args.indexOf('--build') + 1] : 'dist';
  runChatOpenHost(n, build).then(
    (r) => console.log(JSON.stringify({ chatOpenHost: r })),
    (e: unknown) => {
      console.error(e instanceof Error ? e.message : String(e));
      process.exitCode = 1;
    },
  );
}
