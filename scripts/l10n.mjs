// `npm run l10n:export` and `npm run l10n:pseudo` (#30.2).
//
// export: l10n/bundle.l10n.json, every `l10n.t(…)` / `vscode.l10n.t(…)` message of src/. @vscode/l10n-dev
//   only sees `l10n.t` in a file that imports `vscode` or `@vscode/l10n`; src/core and the webviews import
//   our own src/core/l10n.ts (same semantics), so that import is handed to the extractor as
//   `@vscode/l10n` (in memory; no file changes). Keys sorted, so a diff shows what changed.
// pseudo: the pseudo-locale `qps-ploc` (what `vscode-l10n-dev generate-pseudo` writes: every letter
//   accented and vowels doubled, placeholders kept) for l10n/bundle.l10n.json and package.nls.json
//   (when present): l10n/bundle.l10n.qps-ploc.json, package.nls.qps-ploc.json. Generated, never
//   committed (.gitignore): `packageExtension({ pseudoLocale: true })` (scripts/package.mjs; the
//   end-to-end runner's VSIX) writes them before the build, so the pseudo-locale journey
//   (test/e2e/pseudoLocale.e2e.ts) always sees the strings of the code it tests; any other packaging
//   deletes them first (pseudo-clean), so a VSIX for users never carries them.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getL10nJson, getL10nPseudoLocalized } from '@vscode/l10n-dev';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const PSEUDO_LOCALE = 'qps-ploc';

function tsFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...tsFiles(p));
    else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/** `import * as l10n from '…/core/l10n'` (or `./l10n` inside src/core) as the extractor's `@vscode/l10n`. */
export function asExtractorSource(file, text) {
  const core = join(ROOT, 'src', 'core', 'l10n.ts');
  return text.replace(/(from\s+)(['"])(\.{1,2}\/[^'"]*?l10n)\2/g, (whole, from, q, spec) => {
    const target = join(dirname(file), `${spec}.ts`);
    return target === core ? `${from}${q}@vscode/l10n${q}` : whole;
  });
}

function sorted(obj) {
  return Object.fromEntries(Object.keys(obj).sort().map((k) => [k, obj[k]]));
}

/** The messages (`l10n.t` / `vscode.l10n.t`) of these source files (absolute paths), keyed as the bundles key them. */
export async function extractMessages(files) {
  return getL10nJson(files.map((f) => ({ extension: f.endsWith('.tsx') ? '.tsx' : '.ts', contents: asExtractorSource(f, readFileSync(f, 'utf8')) })));
}

/**
 * The webview subset (#30.2): for each page, the sorted bundle keys that its own scripts use.
 * `pages`: page name -> the source files (absolute paths) that went into its scripts (esbuild's
 * metafile inputs, core modules included). esbuild.mjs writes the result to dist/webview/l10n-keys.json;
 * the host (src/webviewKit/l10nKeys.ts) hands a page only those entries of the bundle.
 */
export async function webviewKeys(pages) {
  const out = {};
  for (const name of Object.keys(pages).sort()) {
    const files = [...new Set(pages[name])].filter((f) => /\.tsx?$/.test(f) && !f.endsWith('.d.ts')).sort();
    out[name] = Object.keys(await extractMessages(files)).sort();
  }
  return out;
}

export async function exportBundle({ quiet = false, outDir = join(ROOT, 'l10n') } = {}) {
  const files = tsFiles(join(ROOT, 'src'));
  const bundle = await extractMessages(files);
  mkdirSync(outDir, { recursive: true });
  const out = join(outDir, 'bundle.l10n.json');
  writeFileSync(out, `${JSON.stringify(sorted(bundle), null, 2)}\n`);
  if (!quiet) console.error(`[l10n] ${Object.keys(bundle).length} messages from ${files.length} files -> ${relative(ROOT, out).split(sep).join('/')}`);
  return bundle;
}

export function writePseudo({ quiet = false } = {}) {
  const written = [];
  for (const [source, target] of [
    [join(ROOT, 'l10n', 'bundle.l10n.json'), join(ROOT, 'l10n', `bundle.l10n.${PSEUDO_LOCALE}.json`)],
    [join(ROOT, 'package.nls.json'), join(ROOT, `package.nls.${PSEUDO_LOCALE}.json`)],
  ]) {
    if (!existsSync(source)) continue;
    const pseudo = getL10nPseudoLocalized(JSON.parse(readFileSync(source, 'utf8')));
    writeFileSync(target, `${JSON.stringify(pseudo, null, 2)}\n`);
    written.push(relative(ROOT, target));
  }
  if (!quiet) console.error(`[l10n] pseudo-locale ${PSEUDO_LOCALE}: ${written.join(', ') || 'nothing to write'}`);
  return written;
}

/** Deletes the generated pseudo-locale files (a VSIX for users does not carry them). */
export function removePseudo() {
  for (const f of [join(ROOT, 'l10n', `bundle.l10n.${PSEUDO_LOCALE}.json`), join(ROOT, `package.nls.${PSEUDO_LOCALE}.json`)]) rmSync(f, { force: true });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const what = process.argv[2];
  if (what === 'export') await exportBundle(process.argv[3] === '--out' && process.argv[4] ? { outDir: process.argv[4] } : {});
  else if (what === 'pseudo') writePseudo();
  else if (what === 'pseudo-clean') removePseudo();
  else {
    console.error('usage: node scripts/l10n.mjs export [--out <dir>] | pseudo | pseudo-clean');
    process.exit(2);
  }
}
