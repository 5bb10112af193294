// Writes l10n/bundle.l10n.json: every message of src, found by @vscode/l10n-dev's own extractor
// (getL10nJson, what `vscode-l10n-dev export` runs).
//
// That extractor only follows `l10n` when it is imported from 'vscode' or '@vscode/l10n'. Code that
// cannot import vscode (src/core, the webviews) calls src/core/l10n.ts, which follows vscode.l10n.t
// exactly; so, for extraction only, an import of that file is read as an import of '@vscode/l10n' (in
// memory: the sources are not changed). `vscode.l10n.t(...)` and `l10n.t(...)` then land in one bundle.
//   node scripts/l10n-export.mjs              writes l10n/bundle.l10n.json
//   node scripts/l10n-export.mjs --out <dir>  writes <dir>/bundle.l10n.json (the bundle test uses it)
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, extname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getL10nJson } from '@vscode/l10n-dev';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CORE_L10N = resolve(ROOT, 'src/core/l10n');

function sourceFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...sourceFiles(p));
    else if (/\.(ts|tsx)$/.test(name) && !name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

// `from '../l10n'`, `from '../../core/l10n'`: relative specifiers that name src/core/l10n(.ts).
const IMPORT = /(\bfrom\s*)(['"])(\.{1,2}\/[^'"]*)\2/g;

/** The file's text with its imports of src/core/l10n.ts read as '@vscode/l10n'. */
export function forExtraction(file, text) {
  return text.replace(IMPORT, (whole, from, quote, spec) => {
    const target = resolve(dirname(file), spec).replace(/\.ts$/, '');
    return target === CORE_L10N ? `${from}${quote}@vscode/l10n${quote}` : whole;
  });
}

/** The bundle of every message under `srcDir`, keyed as vscode.l10n.t keys them. */
export async function exportBundle(srcDir = join(ROOT, 'src')) {
  const files = sourceFiles(srcDir).map((f) => ({ extension: extname(f), contents: forExtraction(f, readFileSync(f, 'utf8')) }));
  return getL10nJson(files);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf('--out');
  const outDir = at >= 0 ? resolve(process.argv[at + 1]) : join(ROOT, 'l10n');
  const bundle = await exportBundle();
  mkdirSync(outDir, { recursive: true });
  const out = join(outDir, 'bundle.l10n.json');
  writeFileSync(out, JSON.stringify(bundle, undefined, 2));
  console.log(`${Object.keys(bundle).length} messages written to ${relative(process.cwd(), out) || out}`);
}
