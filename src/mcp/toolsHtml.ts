/**
 * The tools webview's HTML shell, from the webview kit (src/webviewKit/html.ts). No `vscode` import,
 * so the e2e test serves the very same page: our own script and stylesheet only, images only as
 * data: URIs from tool results, never remote.
 */
import { loadingBody, webviewCsp, webviewHtml } from '../webviewKit/html';

export function toolsCsp(cspSource: string, nonce: string): string {
  return webviewCsp(cspSource, nonce);
}

/** `l10nDir`: the file-system path of dist/webview, for the page's share of the translations. */
export function toolsHtml(o: { cspSource: string; nonce: string; scriptUri: string; styleUri: string; title: string; preludeScript?: string; l10nDir?: string }): string {
  const { l10nDir, ...rest } = o;
  return webviewHtml({ ...rest, styleUris: [o.styleUri], body: loadingBody(), l10nPage: l10nDir === undefined ? undefined : { dir: l10nDir, name: 'tools' } });
}
