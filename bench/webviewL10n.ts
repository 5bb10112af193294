/**
 * The size of a page's translations (#30.2): the chat page's `data-l10n` attribute in Spanish, with the
 * whole bundle of the extension (what every page carried before the build listed each page's keys) and
 * with the chat page's share (dist/webview/l10n-keys.json; src/webviewKit/l10nKeys.ts). A size, not a time.
 *
 * `npx tsx bench/webviewL10n.ts [<dir of the webview scripts>]` (default dist/webview, after `npm run build`);
 * bench/run.ts prints the same figures for its production build.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { webviewHtml } from '../src/webviewKit/html';

export interface WebviewL10nFigures {
  locale: string;
  page: string;
  wholeMessages: number;
  wholeBytes: number;
  pageMessages: number;
  pageBytes: number;
}

/** The attribute's value as the page's HTML holds it (escaped), in UTF-8 bytes, and its number of messages. */
function attribute(html: string): { bytes: number; messages: number } {
  const value = /<body data-locale="[^"]*"(?: data-l10n="([^"]*)")?>/.exec(html)?.[1] ?? '';
  const decoded = value.replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)));
  return { bytes: Buffer.byteLength(value), messages: value ? Object.keys(JSON.parse(decoded) as object).length : 0 };
}

export function webviewL10nFigures(webviewDir: string, locale = 'es', page = 'chat'): WebviewL10nFigures {
  const bundle = JSON.parse(readFileSync(path.join('l10n', `bundle.l10n.${locale}.json`), 'utf8')) as Record<string, string>;
  const html = (l10nPage?: { dir: string; name: string }): string =>
    webviewHtml({ cspSource: 'src:', nonce: 'n', scriptUri: `${page}.js`, styleUris: [], title: 'T', l10n: { bundle, locale }, l10nPage });
  const whole = attribute(html());
  const mine = attribute(html({ dir: path.resolve(webviewDir), name: page }));
  return { locale, page, wholeMessages: whole.messages, wholeBytes: whole.bytes, pageMessages: mine.messages, pageBytes: mine.bytes };
}

export function formatWebviewL10n(f: WebviewL10nFigures): string {
  const kb = (n: number): string => `${(n / 1024).toFixed(1)} KB`;
  return `${f.page} page's data-l10n (${f.locale}): ${kb(f.pageBytes)}, ${f.pageMessages} messages (the whole bundle: ${kb(f.wholeBytes)}, ${f.wholeMessages} messages)`;
}

if (require.main === module) console.log(formatWebviewL10n(webviewL10nFigures(process.argv[2] ?? 'dist/webview')));
