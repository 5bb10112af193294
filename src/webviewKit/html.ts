/**
 * The webview kit, host side: every webview of the extension (chat, tool runner, and every later one:
 * usage charts, media preview, agents) gets its HTML shell, CSP and panel bookkeeping from here, and
 * its browser side from src/webview/kit (dom.ts, links.ts, markdown.ts). No `vscode` import, so plain
 * Node tests and the Chromium journeys serve the very same page the editor does.
 *
 * API
 * - `newNonce()`: a fresh random nonce for one page load.
 * - `webviewCsp(cspSource, nonce, { localImages })`: the one policy. Nothing loads but our own script
 *   (by nonce) and our own stylesheets and fonts (the webview's source); no inline script without the
 *   nonce, no remote anything, no frames, no forms posting anywhere. Images are data: URIs only, plus
 *   the extension's own files when `localImages` is set (for icons shipped in media/).
 * - `webviewHtml({ cspSource, nonce, scriptUri, styleUris, title, body?, preludeScript?, preloadFonts?, module?, preloadModules?, localImages? })`:
 *   the page. `body` is trusted markup written by us (default `<main id="app"></main>`); every URI and
 *   the title are escaped. `preludeScript` (tests only) runs before the bundle under the same nonce.
 * - PanelRegistry (./panels.ts): one open panel per key, revealed instead of duplicated.
 */
import { randomBytes } from 'node:crypto';

export interface CspOptions {
  /** Allow images from the extension's own files as well as data: URIs. */
  localImages?: boolean;
  /** Allow audio and video from data: URIs (host-provided media only, e.g. the read-aloud player). */
  dataMedia?: boolean;
}

export function newNonce(): string {
  return randomBytes(18).toString('base64url');
}

export function webviewCsp(cspSource: string, nonce: string, o: CspOptions = {}): string {
  return [
    `default-src 'none'`,
    `script-src 'nonce-${nonce}'`,
    `style-src ${cspSource} 'nonce-${nonce}'`,
    o.localImages ? `img-src ${cspSource} data:` : `img-src data:`,
    `font-src ${cspSource}`,
    ...(o.dataMedia ? ['media-src data:'] : []),
  ].join('; ');
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export interface ShellOptions extends CspOptions {
  cspSource: string;
  nonce: string;
  scriptUri: string;
  styleUris: readonly string[];
  title: string;
  /** Our own static markup for <body> before the script; never anything from a server or a model. */
  body?: string;
  /** Test harnesses only: script text that runs before the bundle (stubs acquireVsCodeApi). */
  preludeScript?: string;
  /**
   * Fonts (TrueType, from the webview's source) that the stylesheets use for the first paint, fetched
   * from the start beside the stylesheet and the script. Without this the browser asks for a font only
   * once the script has built the page and laid it out, and the workbench shows a new webview frame
   * only at its `load` event, which waits for that font: one more trip through the webview's
   * resource loader after the script, on the way to the first paint.
   */
  preloadFonts?: readonly string[];
  /** The script is an ES module (`<script type="module">`, deferred like any module script). */
  module?: boolean;
  /**
   * ES modules the script loads later with `import()` (our own, from the webview's source), fetched from
   * the start beside it. A preload does not hold the page's `load` event (the workbench shows a new
   * webview at that event), and the later `import()` takes the preloaded file instead of fetching it.
   */
  preloadModules?: readonly string[];
}

export function webviewHtml(o: ShellOptions): string {
  const fonts = (o.preloadFonts ?? []).map((u) => `<link rel="preload" href="${escapeHtml(u)}" as="font" type="font/ttf" crossorigin>\n`).join('');
  const modules = (o.preloadModules ?? []).map((u) => `<link rel="preload" href="${escapeHtml(u)}" as="script" crossorigin nonce="${o.nonce}">\n`).join('');
  const styles = o.styleUris.map((u) => `<link rel="stylesheet" href="${escapeHtml(u)}" nonce="${o.nonce}">\n`).join('');
  const prelude = o.preludeScript ? `<script nonce="${o.nonce}">${o.preludeScript}</script>\n` : '';
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${webviewCsp(o.cspSource, o.nonce, o)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
${fonts}${modules}${styles}<title>${escapeHtml(o.title)}</title>
</head>
<body>
${o.body ?? '<main id="app"></main>'}
${prelude}<script${o.module ? ' type="module"' : ''} nonce="${o.nonce}" src="${escapeHtml(o.scriptUri)}"></script>
</body>
</html>`;
}
