// The manifest's translations (#30.2). Every user-visible string of package.json is a "%key%" whose text
// is in package.nls.json (English) and package.nls.<locale>.json (the translations). VS Code replaces
// them when it reads the manifest: src/vs/platform/extensionManagement/common/extensionNls.ts walks
// EVERY string of the manifest (media paths included, so a walkthrough's Markdown page can have a copy
// per language), and a key missing from a translation falls back to package.nls.json. vsce replaces
// them with package.nls.json (for the marketplace page) and fails on a missing key; it only recognises
// keys made of letters, digits, "_" and ".", so keys here keep to that.
//
// Anything that reads titles, names or descriptions from package.json reads them through readManifest()
// so it sees what the editor shows; test/unit/l10n/manifestNls.test.ts holds the files to their rules.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The translations shipped beside package.nls.json. */
export const LOCALES = ['es', 'de'];

const REF = /^%([\w.]+)%$/;

/** The key a manifest value names ("%command.x.title%" -> "command.x.title"), or undefined for a literal. */
export function nlsKeyOf(value) {
  const m = typeof value === 'string' ? REF.exec(value) : null;
  return m ? m[1] : undefined;
}

/** The messages of package.nls.json (no locale) or package.nls.<locale>.json. */
export function readMessages(locale, root = ROOT) {
  return JSON.parse(readFileSync(join(root, locale ? `package.nls.${locale}.json` : 'package.nls.json'), 'utf8'));
}

/** package.json as written, with its "%key%" references. */
export function readRawManifest(root = ROOT) {
  return JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
}

/**
 * A copy of `manifest` with every "%key%" string replaced by its message, as the editor does. `fallback`
 * fills keys `messages` lacks (the editor falls back to package.nls.json). Throws on a key neither has.
 */
export function localizeManifest(manifest, messages, fallback = {}) {
  const missing = [];
  const walk = (v) => {
    if (typeof v === 'string') {
      const key = nlsKeyOf(v);
      if (key === undefined) return v;
      const text = Object.hasOwn(messages, key) ? messages[key] : Object.hasOwn(fallback, key) ? fallback[key] : undefined;
      if (typeof text !== 'string') {
        missing.push(key);
        return v;
      }
      return text;
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  const out = walk(manifest);
  if (missing.length) throw new Error(`package.json names message keys that are missing: ${missing.join(', ')}`);
  return out;
}

/** package.json as the editor shows it in English (default) or in `locale`. */
export function readManifest({ locale, root = ROOT } = {}) {
  const english = readMessages(undefined, root);
  return localizeManifest(readRawManifest(root), locale ? readMessages(locale, root) : english, english);
}

const SCHEMA_TEXT = ['title', 'description', 'markdownDescription', 'deprecationMessage', 'markdownDeprecationMessage', 'patternErrorMessage', 'errorMessage'];
const SCHEMA_TEXT_LISTS = ['enumDescriptions', 'markdownEnumDescriptions', 'enumItemLabels'];

/**
 * Every user-visible field of a manifest, as { path, value }: what the editor shows in the palette, the
 * views, the walkthrough, the settings editor, the Chat view and the workspace-trust editor. Left out on
 * purpose: ids, command links' targets, keywords, and what models read (a tool's modelDescription and
 * inputSchema, a chat participant's disambiguation): those stay English.
 */
export function userVisibleFields(m) {
  const out = [];
  const at = (path, value) => {
    if (typeof value === 'string') out.push({ path, value });
  };
  const list = (v) => (Array.isArray(v) ? v : []);
  const each = (arr, path, fn) => list(arr).forEach((x, i) => fn(x && typeof x === 'object' ? x : {}, [...path, i]));
  at(['displayName'], m.displayName);
  at(['description'], m.description);
  for (const [k, cap] of Object.entries(m.capabilities ?? {})) if (cap && typeof cap === 'object') at(['capabilities', k, 'description'], cap.description);
  const c = m.contributes ?? {};
  const C = ['contributes'];
  each(c.commands, [...C, 'commands'], (x, p) => {
    for (const f of ['title', 'shortTitle', 'category']) at([...p, f], x[f]);
  });
  for (const [where, views] of Object.entries(c.viewsContainers ?? {})) each(views, [...C, 'viewsContainers', where], (x, p) => at([...p, 'title'], x.title));
  for (const [where, views] of Object.entries(c.views ?? {})) {
    each(views, [...C, 'views', where], (x, p) => {
      at([...p, 'name'], x.name);
      at([...p, 'contextualTitle'], x.contextualTitle);
    });
  }
  each(c.viewsWelcome, [...C, 'viewsWelcome'], (x, p) => at([...p, 'contents'], x.contents));
  each(c.walkthroughs, [...C, 'walkthroughs'], (w, p) => {
    at([...p, 'title'], w.title);
    at([...p, 'description'], w.description);
    each(w.steps, [...p, 'steps'], (s, q) => {
      at([...q, 'title'], s.title);
      at([...q, 'description'], s.description);
      const media = s.media && typeof s.media === 'object' ? s.media : {};
      // The page itself is translated: its path names the copy for the display language.
      at([...q, 'media', 'markdown'], media.markdown);
      at([...q, 'media', 'altText'], media.altText);
    });
  });
  const schema = (s, path) => {
    if (!s || typeof s !== 'object' || Array.isArray(s)) return;
    for (const f of SCHEMA_TEXT) at([...path, f], s[f]);
    for (const f of SCHEMA_TEXT_LISTS) list(s[f]).forEach((v, i) => at([...path, f, i], v));
    for (const [k, sub] of Object.entries(s.properties ?? {})) schema(sub, [...path, 'properties', k]);
    if (Array.isArray(s.items)) s.items.forEach((sub, i) => schema(sub, [...path, 'items', i]));
    else schema(s.items, [...path, 'items']);
    schema(s.additionalProperties, [...path, 'additionalProperties']);
  };
  const configs = Array.isArray(c.configuration) ? c.configuration.map((x, i) => [x, [...C, 'configuration', i]]) : c.configuration ? [[c.configuration, [...C, 'configuration']]] : [];
  for (const [conf, p] of configs) {
    at([...p, 'title'], conf.title);
    for (const [k, prop] of Object.entries(conf.properties ?? {})) schema(prop, [...p, 'properties', k]);
  }
  each(c.submenus, [...C, 'submenus'], (x, p) => at([...p, 'label'], x.label));
  each(c.languageModelTools, [...C, 'languageModelTools'], (x, p) => {
    at([...p, 'displayName'], x.displayName);
    at([...p, 'userDescription'], x.userDescription);
  });
  each(c.languageModelChatProviders, [...C, 'languageModelChatProviders'], (x, p) => at([...p, 'displayName'], x.displayName));
  each(c.mcpServerDefinitionProviders, [...C, 'mcpServerDefinitionProviders'], (x, p) => at([...p, 'label'], x.label));
  each(c.chatParticipants, [...C, 'chatParticipants'], (x, p) => {
    at([...p, 'fullName'], x.fullName);
    at([...p, 'description'], x.description);
    each(x.commands, [...p, 'commands'], (y, q) => at([...q, 'description'], y.description));
  });
  return out;
}

/** Every "%key%" the manifest names, wherever it is. */
export function referencedKeys(manifest) {
  const keys = new Set();
  const walk = (v) => {
    const key = nlsKeyOf(v);
    if (key !== undefined) keys.add(key);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(manifest);
  return keys;
}
