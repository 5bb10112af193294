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
 *   The page gets its translations (#30.2) in the body's data attributes, never in an inline script:
 *   `data-locale` (the display language, also `<html lang>`) and, when the editor runs in another
 *   language than English, `data-l10n` (the bundle as JSON; by default what src/core/l10n.ts was
 *   configured with at activation, i.e. `vscode.l10n.bundle`). src/webview/kit/l10n.ts reads them once,
 *   before the page renders anything. With `l10nPage`, only the messages the page's scripts use
 *   (./l10nKeys.ts, from the build's dist/webview/l10n-keys.json).
 * - `loadingBody()`: the usual first body, a translated "Loading…" the page replaces.
 * - PanelRegistry (./panels.ts): one open panel per key, revealed instead of duplicated.
 */
import { randomBytes } from 'node:crypto';
import * as l10n from '../core/l10n';
import { pageBundle } from './l10nKeys';

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
  /** The page's translations and display language; default: what src/core/l10n.ts was configured with. */
  l10n?: { readonly bundle?: l10n.L10nBundle; readonly locale: string };
  /**
   * The page, for its share of the bundle (./l10nKeys.ts): `dir` is the file-system path of the webview
   * scripts (dist/webview), `name` the page's script without `.js` (`chat`, `usage`, `mediaImage`…).
   * The page then carries only the messages its scripts use; without it (or without the build's list),
   * the whole bundle.
   */
  l10nPage?: { readonly dir: string; readonly name: string };
}

/** `<main id="app">` with a translated "Loading…", announced politely; the page's script replaces it. */
export function loadingBody(): string {
  return `<main id="app" aria-live="polite"><p>${escapeHtml(l10n.t('Loading…'))}</p></main>`;
}

/** The body's data attributes that carry the page's translations (read by src/webview/kit/l10n.ts). */
function l10nAttributes(o: { readonly bundle?: l10n.L10nBundle; readonly locale: string }): string {
  const bundle = o.bundle && Object.keys(o.bundle).length > 0 ? ` data-l10n="${escapeHtml(JSON.stringify(o.bundle))}"` : '';
  return ` data-locale="${escapeHtml(o.locale)}"${bundle}`;
}

export function webviewHtml(o: ShellOptions): string {
  const fonts = (o.preloadFonts ?? []).map((u) => `<link rel="preload" href="${escapeHtml(u)}" as="font" type="font/ttf" crossorigin>\n`).join('');
  const modules = (o.preloadModules ?? []).map((u) => `<link rel="preload" href="${escapeHtml(u)}" as="script" crossorigin nonce="${o.nonce}">\n`).join('');
  const styles = o.styleUris.map((u) => `<link rel="stylesheet" href="${escapeHtml(u)}" nonce="${o.nonce}">\n`).join('');
  const current = o.l10n ?? l10n.current();
  const lang = { locale: current.locale, bundle: pageBundle(current.bundle, o.l10nPage) };
  const prelude = o.preludeScript ? `<script nonce="${o.nonce}">${o.preludeScript}</script>\n` : '';
  return `<!DOCTYPE html>
<html lang="${escapeHtml(lang.locale)}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${webviewCsp(o.cspSource, o.nonce, o)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
${fonts}${modules}${styles}<title>${escapeHtml(o.title)}</title>
</head>
<body${l10nAttributes(lang)}>
${o.body ?? '<main id="app"></main>'}
${prelude}<script${o.module ? ' type="module"' : ''} nonce="${o.nonce}" src="${escapeHtml(o.scriptUri)}"></script>
</body>
</html>`;
}
