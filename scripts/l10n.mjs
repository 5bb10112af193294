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
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
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

/*
 * The extractor is slow (about 60 ms of CPU a file: it compiles its tree-sitter queries for every file, about
 * 20 CPU s for src/), and every build (the pages' subsets), packaging and several unit tests run it over the
 * same files. Its answer for a set of files is its answer for each file, deep-merged in order (getL10nJson in
 * @vscode/l10n-dev: one analysis per file, then deepmerge-json's multi), so each file's answer is kept by the
 * file's text (after asExtractorSource) and the extractor's version: in memory, and in .cache/l10n/ for the
 * next process. The same text gives the same answer; any change to a file is a new entry.
 */
const l10nDevMain = createRequire(import.meta.url).resolve('@vscode/l10n-dev');
const deepmerge = createRequire(l10nDevMain)('deepmerge-json');
const EXTRACTOR = `l10n-dev ${JSON.parse(readFileSync(join(dirname(l10nDevMain), '..', 'package.json'), 'utf8')).version}`;
const CACHE_DIR = join(ROOT, '.cache', 'l10n');
const answers = new Map();

async function messagesOfFile(extension, contents) {
  const key = createHash('sha256').update(`${EXTRACTOR}\0${extension}\0${contents}`).digest('hex');
  let answer = answers.get(key);
  if (answer === undefined) {
    const file = join(CACHE_DIR, `${key.slice(0, 40)}.json`);
    try {
      answer = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      answer = await getL10nJson([{ extension, contents }]);
      try {
        mkdirSync(CACHE_DIR, { recursive: true });
        const tmp = `${file}.${process.pid}.tmp`;
        writeFileSync(tmp, JSON.stringify(answer));
        renameSync(tmp, file);
      } catch {
        /* a cache only */
      }
    }
    answers.set(key, answer);
  }
  return structuredClone(answer);
}

/** The messages (`l10n.t` / `vscode.l10n.t`) of these source files (absolute paths), keyed as the bundles key them. */
export async function extractMessages(files) {
  const each = [];
  for (const f of files) each.push(await messagesOfFile(f.endsWith('.tsx') ? '.tsx' : '.ts', asExtractorSource(f, readFileSync(f, 'utf8'))));
  return deepmerge.multi({}, ...each);
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
