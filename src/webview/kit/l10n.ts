/**
 * The page's translations (#30.2), browser side: configures this bundle's copy of src/core/l10n.ts from
 * the body's `data-locale` and `data-l10n` (written by src/webviewKit/html.ts; no inline script), so
 * every later `l10n.t` and `l10n.displayLocale()` of the page speaks the editor's display language.
 *
 * Imported FIRST by each webview's entry (and by the chat's renderer, a bundle of its own), so it runs
 * before any module builds an element. Parsed once; without the attributes (English, or a test page)
 * nothing is configured and every message stays English. A value that is not a flat object of strings
 * is ignored rather than trusted.
 */
import * as l10n from '../../core/l10n';

/** A flat `{ message: translation }` object, or undefined. */
export function parseBundle(text: string | undefined): l10n.L10nBundle | undefined {
  if (!text) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (typeof v === 'string') out[k] = v;
    else if (typeof v === 'object' && v !== null && typeof (v as { message?: unknown }).message === 'string') out[k] = (v as { message: string }).message;
  }
  return out;
}

// Through globalThis: plain-Node tests import parseBundle from here, without a DOM.
const data = (globalThis as { document?: { body?: { dataset?: Record<string, string | undefined> } | null } }).document?.body?.dataset;
if (data?.locale) l10n.configure({ bundle: parseBundle(data.l10n), locale: data.locale });
