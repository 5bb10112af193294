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
import { join } from 'node:path';
import type { L10nBundle } from '../core/l10n';

/** The list's file name, in the directory of the webview scripts (dist/webview). */
export const L10N_KEYS_FILE = 'l10n-keys.json';

type PageKeys = ReadonlyMap<string, ReadonlySet<string>>;
/** Read once per directory; null when there is no usable list. */
const lists = new Map<string, PageKeys | null>();

function readList(dir: string): PageKeys | null {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(join(dir, L10N_KEYS_FILE), 'utf8'));
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const out = new Map<string, ReadonlySet<string>>();
  for (const [page, keys] of Object.entries(value as Record<string, unknown>)) {
    if (Array.isArray(keys) && keys.every((k) => typeof k === 'string')) out.set(page, new Set(keys as string[]));
  }
  return out;
}

/** The keys page `name`'s scripts use, from `dir`/l10n-keys.json; undefined when the build did not list them. */
export function webviewL10nKeys(dir: string, name: string): ReadonlySet<string> | undefined {
  let list = lists.get(dir);
  if (list === undefined) {
    list = readList(dir);
    lists.set(dir, list);
  }
  return list?.get(name);
}

/** The entries of `bundle` that the page uses; all of them when `keys` is undefined. */
export function pageBundle(bundle: L10nBundle | undefined, keys: ReadonlySet<string> | undefined): L10nBundle | undefined {
  if (!bundle || !keys) return bundle;
  const out: Record<string, L10nBundle[string]> = {};
  for (const k of keys) if (Object.prototype.hasOwnProperty.call(bundle, k)) out[k] = bundle[k];
  return out;
}
