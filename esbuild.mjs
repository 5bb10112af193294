// One build script, one entry per runtime.
//  - extension host (node, cjs, `vscode` external): dist/extension.js, loaded at activation, kept small.
//  - lazily loaded host chunks: dist/core.js (undici client, ~0.5 MB), dist/mcp.js (MCP SDK) and
//    dist/editor.js (the editor glue of commands: input boxes, quick picks, notifications; `vscode`
//    external like the activation bundle). The activation bundle requires them on first use only;
//    esbuild cannot split cjs, so they are separate entries and the activation bundle marks them external.
//  - webviews (browser, iife): dist/webview/<name>.js
// Flags: --production (minify, no sourcemaps), --watch (esbuild.context incremental rebuilds).
import * as esbuild from 'esbuild';
import { existsSync } from 'node:fs';
import { shareWithActivation } from './scripts/editorChunk.mjs';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
// --outdir=<dir> builds elsewhere (the benchmark measures a production build without touching dist/).
const outdir = process.argv.find((a) => a.startsWith('--outdir='))?.slice('--outdir='.length) ?? 'dist';

const base = {
  bundle: true,
  minify: production,
  sourcemap: production ? false : 'linked',
  legalComments: production ? 'none' : 'inline',
  logLevel: 'info',
  define: { 'process.env.NODE_ENV': production ? '"production"' : '"development"' },
};

const lazyHostChunks = ['./core.js', './mcp.js', './editor.js'];

const hostEntries = [
  { in: 'src/extension.ts', out: 'extension' },
  { in: 'src/core/entry.ts', out: 'core' },
  { in: 'src/core/mcp/entry.ts', out: 'mcp' },
].filter((e) => existsSync(e.in));

const webviewEntries = [
  { in: 'src/webview/chat/main.ts', out: 'webview/chat' },
  { in: 'src/webview/tools/main.ts', out: 'webview/tools' },
  { in: 'src/webview/usage/main.ts', out: 'webview/usage' },
  { in: 'src/webview/media/image.ts', out: 'webview/mediaImage' },
  { in: 'src/webview/media/audio.ts', out: 'webview/mediaAudio' },
].filter((e) => existsSync(e.in));

/** @type {esbuild.BuildOptions[]} */
const configs = [
  {
    ...base,
    entryPoints: hostEntries,
    outdir,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode', ...lazyHostChunks],
    mainFields: ['module', 'main'],
  },
  {
    ...base,
    entryPoints: [{ in: 'src/editorChunk.ts', out: 'editor' }].filter((e) => existsSync(e.in)),
    outdir,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode', './extension.js', ...lazyHostChunks],
    mainFields: ['module', 'main'],
    plugins: [shareWithActivation],
  },
  {
    ...base,
    entryPoints: webviewEntries,
    outdir,
    platform: 'browser',
    format: 'iife',
    target: 'chrome120',
    loader: { '.css': 'css' },
  },
].filter((c) => c.entryPoints.length > 0);

if (watch) {
  const contexts = await Promise.all(configs.map((c) => esbuild.context(c)));
  await Promise.all(contexts.map((c) => c.watch()));
  console.log('[esbuild] watching…');
} else {
  await Promise.all(configs.map((c) => esbuild.build(c)));
}
