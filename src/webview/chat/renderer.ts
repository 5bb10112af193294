/**
 * The chat's Markdown renderer, loaded after the page is built: markdown-it, DOMPurify and highlight.js
 * with what draws model output (markdown.ts, streamRenderer.ts) and tool results (../tools/results.ts).
 * Built as its own file, dist/webview/chat-renderer.js (esbuild.mjs), and reached only through
 * rendererLoader.ts's `import()`: the composer is usable before any of this is fetched or run.
 *
 * Nothing here keeps page state: the small modules it shares with the page (kit/dom, kit/links) are
 * copied into its file, and everything on screen it changes is handed to it by the page.
 */
import '../kit/l10n'; // first: the page's translations before anything builds an element
import { splitBlocks } from './blockSplitter';
import { renderStatic } from './streamRenderer';

export { StreamRenderer } from './streamRenderer';
export { warmRenderer } from './markdown';
export { renderBlock } from '../tools/results';

/** A finished reply's body, one element per Markdown block (see renderStatic). */
export function renderReply(body: HTMLElement, text: string): void {
  renderStatic(body, text, splitBlocks(text));
}
