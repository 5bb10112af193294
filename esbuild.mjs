// One build script, one configuration per runtime.
//  - extension host (node, ES module, `vscode` external): dist/extension.mjs, loaded at activation and
//    kept small, plus the chunks esbuild splits out of it (dist/<name>-<hash>.mjs). Every `import()` in
//    src/ becomes a chunk loaded on first use; a module used by two chunks goes into a shared chunk, so
//    module-level state (settings source, shared network) exists once. VS Code loads an `.mjs` main as
//    an ES module (Node extension host, VS Code 1.100 and later).
//  - webviews (browser, iife): dist/webview/<name>.js, except the chat's (below).
//  - the chat webview (browser, ES modules): dist/webview/chat.js, the page, loaded by a nonce'd
//    <script type="module">, and dist/webview/chat-renderer.js, its Markdown renderer (markdown-it,
//    DOMPurify, highlight.js), which the page loads with import() once it is usable
//    (src/webview/chat/rendererLoader.ts). Two builds, not one with `splitting`: split, the modules
//    both use (kit/dom, kit/links) would go to a third file that chat.js imports statically, one more
//    fetch through the webview's resource loader before the page could run; here the renderer keeps
//    its own copy of them (stateless, about 1 KB).
// Flags: --production (minify, no sourcemaps), --watch (esbuild.context incremental rebuilds).
import * as esbuild from 'esbuild';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

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

/** Gives an ES module a `require` (made by createRequire), on its first line so source maps stay right. */
export const REQUIRE_BANNER = "import{createRequire as __aigwCreateRequire}from'node:module';const require=__aigwCreateRequire(import.meta.url);";

/**
 * Bundled CommonJS dependencies (undici, the MCP SDK, ajv) call `require` for Node's built-ins, and ES
 * modules have no `require`: esbuild routes those calls through one shim (`typeof require` ...), and
 * this plugin gives the output files that hold the shim a real `require`. Only those: a banner on every
 * chunk would cost bytes in each one the activation entry loads.
 */
export function addRequire(files) {
  return files.map((f) => (f.path.endsWith('.mjs') && f.text.includes('typeof require') ? { path: f.path, text: REQUIRE_BANNER + f.text } : f));
}

/** @type {esbuild.Plugin} */
const requireWhereNeeded = {
  name: 'require-where-needed',
  setup(build) {
    build.onEnd((result) => {
      for (const file of Object.keys(result.metafile?.outputs ?? {})) {
        if (!file.endsWith('.mjs')) continue;
        const text = readFileSync(file, 'utf8');
        if (text.includes('typeof require') && !text.startsWith(REQUIRE_BANNER)) writeFileSync(file, REQUIRE_BANNER + text);
      }
    });
  },
};

/**
 * The host build, also used by test/unit/bundle/ (in memory, through addRequire) and bench/run.ts.
 * src/ itself uses neither `require` nor `__dirname` (test/unit/bundle/esmBundle.test.ts).
 */
export const hostOptions = {
  entryPoints: [{ in: 'src/extension.ts', out: 'extension' }],
  bundle: true,
  platform: 'node',
  format: 'esm',
  splitting: true,
  target: 'node20',
  external: ['vscode'],
  mainFields: ['module', 'main'],
  outExtension: { '.js': '.mjs' },
  chunkNames: '[name]-[hash]',
};

const webviewEntries = [
  { in: 'src/webview/tools/main.ts', out: 'webview/tools' },
  { in: 'src/webview/usage/main.ts', out: 'webview/usage' },
  { in: 'src/webview/compare/main.ts', out: 'webview/compare' },
  { in: 'src/webview/media/image.ts', out: 'webview/mediaImage' },
  { in: 'src/webview/media/audio.ts', out: 'webview/mediaAudio' },
].filter((e) => existsSync(e.in));

/** The chat renderer's file, next to chat.js: rendererLoader.ts's `import('./renderer')` becomes `import('./chat-renderer.js')`. */
export const CHAT_RENDERER_FILE = 'chat-renderer.js';

/** @type {esbuild.Plugin} */
const chatRendererApart = {
  name: 'chat-renderer-apart',
  setup(build) {
    build.onResolve({ filter: /^\.\/renderer$/ }, (args) =>
      path.basename(args.importer) === 'rendererLoader.ts' ? { path: `./${CHAT_RENDERER_FILE}`, external: true } : undefined,
    );
  },
};

const chatBrowser = { platform: 'browser', format: 'esm', target: 'chrome120' };
/** The chat page and its renderer (see the header); also built in memory by test/unit/bundle/ and the chat journeys. */
export const chatWebviewOptions = [
  { ...chatBrowser, entryPoints: [{ in: 'src/webview/chat/main.ts', out: 'webview/chat' }], bundle: true, plugins: [chatRendererApart] },
  { ...chatBrowser, entryPoints: [{ in: 'src/webview/chat/renderer.ts', out: `webview/${CHAT_RENDERER_FILE.replace(/\.js$/, '')}` }], bundle: true },
];

/** @type {esbuild.BuildOptions[]} */
const configs = [
  ...chatWebviewOptions.filter((c) => existsSync(c.entryPoints[0].in)).map((c) => ({ ...base, ...c, outdir })),
  { ...base, ...hostOptions, outdir, metafile: true, plugins: [requireWhereNeeded] },
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

/** Chunk names carry a hash: the host files of an earlier build go first, or the VSIX would ship them. */
function cleanHostOutput() {
  if (!existsSync(outdir)) return;
  for (const f of readdirSync(outdir)) if (/\.(m?js)(\.map)?$/.test(f)) rmSync(path.join(outdir, f), { force: true });
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname);
if (isMain) {
  if (watch) {
    const contexts = await Promise.all(configs.map((c) => esbuild.context(c)));
    await Promise.all(contexts.map((c) => c.watch()));
    console.log('[esbuild] watching…');
  } else {
    cleanHostOutput();
    await Promise.all(configs.map((c) => esbuild.build(c)));
  }
}
