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
//  - dist/webview/l10n-keys.json (#30.2): for each page, the translation keys its scripts use (the
//    messages of the source files esbuild put in them, core modules included, found by the extractor of
//    scripts/l10n.mjs), so the host hands a page only those entries of the bundle (src/webviewKit/l10nKeys.ts).
// Flags: --production (minify, no sourcemaps), --watch (esbuild.context incremental rebuilds).
import * as esbuild from 'esbuild';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

/** The webview builds but the chat's (iife, one file per page, each with its stylesheet). */
const otherWebviewsOptions = { entryPoints: webviewEntries, platform: 'browser', format: 'iife', target: 'chrome120', loader: { '.css': 'css' } };

/** The page that loads a webview script (a file name in dist/webview): the chat's renderer belongs to the chat page. */
export function l10nPageOf(script) {
  return script === CHAT_RENDERER_FILE ? 'chat' : script.replace(/\.js$/, '');
}

/** The file the host reads the page subsets from (src/webviewKit/l10nKeys.ts), under an output directory. */
export const L10N_KEYS_PATH = 'webview/l10n-keys.json';

/**
 * The keys of each script (scripts/l10n.mjs's extractor over its inputs). Imported on use: the scripts that
 * import this file for its options (tests, bench/chatBootSideBySide.ts on an older checkout) need no extractor.
 */
async function scriptKeysOf(metafile) {
  const { webviewKeys } = await import('./scripts/l10n.mjs');
  return webviewKeys(scriptInputs(metafile));
}

/** For each webview script of a build (file name -> absolute paths of the source files esbuild put in it). */
function scriptInputs(metafile) {
  const out = {};
  for (const [file, o] of Object.entries(metafile.outputs)) {
    if (file.endsWith('.js') && o.entryPoint) out[path.basename(file)] = Object.keys(o.inputs).map((f) => path.resolve(f));
  }
  return out;
}

/** Page name -> sorted keys, from each script's keys. */
function byPage(scriptKeys) {
  const pages = {};
  for (const [script, keys] of Object.entries(scriptKeys)) {
    const page = (pages[l10nPageOf(script)] ??= new Set());
    for (const k of keys) page.add(k);
  }
  return Object.fromEntries(Object.keys(pages).sort().map((p) => [p, [...pages[p]].sort()]));
}

/**
 * Writes dist/webview/l10n-keys.json after each webview build (watch rebuilds included). The chat's
 * page and renderer are two builds: each one's scripts are kept here, the file holds their union.
 */
function l10nKeysPlugin(scriptKeys) {
  return {
    name: 'webview-l10n-keys',
    setup(build) {
      build.onEnd(async (result) => {
        if (!result.metafile) return;
        Object.assign(scriptKeys, await scriptKeysOf(result.metafile));
        const file = path.join(outdir, L10N_KEYS_PATH);
        mkdirSync(path.dirname(file), { recursive: true });
        writeFileSync(file, `${JSON.stringify(byPage(scriptKeys), null, 1)}\n`);
      });
    },
  };
}

/**
 * The page subsets as the build writes them, from an in-memory build of every webview (no file written):
 * for test/unit/l10n/webviewSubset.test.ts and the benchmark.
 */
export async function webviewL10nKeys() {
  const scriptKeys = {};
  for (const c of [...chatWebviewOptions, otherWebviewsOptions].filter((c) => c.entryPoints.length > 0)) {
    const r = await esbuild.build({ ...c, bundle: true, write: false, metafile: true, outdir: 'dist', logLevel: 'silent' });
    Object.assign(scriptKeys, await scriptKeysOf(r.metafile));
  }
  return byPage(scriptKeys);
}

const scriptKeys = {};

/** @type {esbuild.BuildOptions[]} */
const configs = [
  ...chatWebviewOptions.filter((c) => existsSync(c.entryPoints[0].in)).map((c) => ({ ...base, ...c, outdir, metafile: true, plugins: [...(c.plugins ?? []), l10nKeysPlugin(scriptKeys)] })),
  { ...base, ...hostOptions, outdir, metafile: true, plugins: [requireWhereNeeded] },
  { ...base, ...otherWebviewsOptions, outdir, metafile: true, plugins: [l10nKeysPlugin(scriptKeys)] },
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
