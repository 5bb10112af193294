/**
 * The chat webview's build (esbuild.mjs `chatWebviewOptions`): the page, dist/webview/chat.js, builds the
 * composer without the Markdown renderer, which is its own file, dist/webview/chat-renderer.js, reached
 * only through the page's one `import()` (src/webview/chat/rendererLoader.ts). Built here in memory with
 * production settings. A module that pulled markdown-it, DOMPurify or highlight.js into the page again
 * (a static import of markdown.ts from the composer, say) would put their evaluation back in front of the
 * composer on every first open.
 */
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import * as esbuild from 'esbuild';

const ROOT = path.resolve(__dirname, '../../..');
const RENDERER_LIBRARIES = ['node_modules/markdown-it/', 'node_modules/dompurify/', 'node_modules/highlight.js/'];
/** The page's state and its one line to the host: never copied into the renderer's file. */
const PAGE_ONLY = ['src/webview/chat/state.ts', 'src/webview/chat/host.ts', 'src/webview/chat/layout.ts', 'src/webview/chat/main.ts'];
/** The page, minified (about 32 KB today; the renderer's libraries alone are over 200 KB). */
const PAGE_LIMIT_BYTES = 64 * 1024;

interface Out {
  text: string;
  inputs: string[];
}

describe('the chat webview build', () => {
  const out = new Map<string, Out>();
  let rendererFile = '';

  before(async () => {
    const { chatWebviewOptions, CHAT_RENDERER_FILE } = await import('../../../esbuild.mjs');
    rendererFile = CHAT_RENDERER_FILE;
    for (const o of chatWebviewOptions) {
      const r = await esbuild.build({ ...o, absWorkingDir: ROOT, outdir: path.join(ROOT, 'dist'), write: false, minify: true, metafile: true, logLevel: 'silent' });
      for (const f of r.outputFiles) {
        const meta = r.metafile.outputs[path.relative(ROOT, f.path)];
        out.set(path.basename(f.path), { text: f.text, inputs: Object.keys(meta?.inputs ?? {}) });
      }
    }
  });

  test('[#28.9] the page holds none of the Markdown renderer, and imports nothing before it runs', () => {
    const page = out.get('chat.js');
    assert.ok(page, `built: ${[...out.keys()].join(', ')}`);
    assert.ok(page.inputs.includes('src/webview/chat/main.ts'));
    for (const lib of RENDERER_LIBRARIES) assert.deepEqual(page.inputs.filter((i) => i.includes(lib)), [], `${lib} is in chat.js`);
    for (const m of ['src/webview/chat/markdown.ts', 'src/webview/chat/streamRenderer.ts', 'src/webview/kit/markdown.ts', 'src/webview/tools/results.ts']) assert.ok(!page.inputs.includes(m), `${m} is in chat.js`);
    // One file: no static import (each would be one more fetch before the page can run); its only
    // import is the renderer's, by `import()`.
    assert.doesNotMatch(page.text, /(?:^|[;}\s])import\s*[{*\w"']/);
    assert.deepEqual(page.text.match(/import\(\s*["'][^"']*["']\s*\)/g), [`import("./${rendererFile}")`]);
    assert.ok(page.text.length < PAGE_LIMIT_BYTES, `chat.js is ${page.text.length} bytes`);
  });

  test('[#28.9] the renderer is its own file beside the page, with the libraries and none of the page state', () => {
    const renderer = out.get(rendererFile);
    assert.ok(renderer, `built: ${[...out.keys()].join(', ')}`);
    for (const lib of RENDERER_LIBRARIES) assert.ok(renderer.inputs.some((i) => i.includes(lib)), `${lib} is not in ${rendererFile}`);
    assert.deepEqual(renderer.inputs.filter((i) => PAGE_ONLY.includes(i)), []);
    assert.doesNotMatch(renderer.text, /acquireVsCodeApi/);
    // An ES module with its exports, and no imports of its own (nothing else to fetch).
    assert.doesNotMatch(renderer.text, /(?:^|[;}\s])import\s*[{*\w"'(]/);
    assert.match(renderer.text, /export\s*\{/);
  });
});
