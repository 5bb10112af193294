/**
 * The webview subset of the translations (#30.2), host side: a page gets only the bundle entries its own
 * scripts use, not the whole bundle of the extension (about 1,260 messages). The build lists them per
 * page in dist/webview/l10n-keys.json (esbuild.mjs: the messages of the source files esbuild put in the
 * page's scripts, core modules included, found by the extractor of scripts/l10n.mjs); the chat's
 * renderer counts as part of the chat page.
 *
 * Without the list (a plain-Node test, a page the build does not know, an unreadable file) the page gets
 * the whole bundle, so nothing is ever left untranslated. No `vscode` import.
 */
import { readFileSync } from 'node:fs';
import type { L10nBundle } from '../core/l10n';

/** The list's file name, in the directory of the webview scripts (dist/webview). */
export const L10N_KEYS_FILE = 'l10n-keys.json';

/** Page name -> its keys, read once per directory; null when there is no usable list. (Kept small: activation loads it with the chat view.) */
const lists = new Map<string, Readonly<Record<string, unknown>> | null>();

/**
 * The entries of `bundle` that page `page.name`'s scripts use, from `page.dir`/l10n-keys.json; the whole
 * bundle when there is no page, no list, or no entry for the page in it.
 */
export function pageBundle(bundle: L10nBundle | undefined, page: { readonly dir: string; readonly name: string } | undefined): L10nBundle | undefined {
  if (!bundle || !page) return bundle;
  let list = lists.get(page.dir);
  if (list === undefined) {
    try {
      list = JSON.parse(readFileSync(`${page.dir}/${L10N_KEYS_FILE}`, 'utf8')) as Record<string, unknown>;
    } catch {
      list = null;
    }
    lists.set(page.dir, list);
  }
  const keys = list?.[page.name];
  if (!Array.isArray(keys)) return bundle;
  return Object.fromEntries(keys.filter((k): k is string => typeof k === 'string' && Object.prototype.hasOwnProperty.call(bundle, k)).map((k) => [k, bundle[k]]));
}
