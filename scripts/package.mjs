// `npm run package`: production build (minified, no source maps) and a bundled .vsix made by vsce with
// --no-dependencies (esbuild already inlined every runtime dependency). Prints the VSIX size and fails
// when it is over the budget, so growth is noticed when a feature lands, not at release time.
//
// Output: ai-gateway-vscode.vsix at the repository root (git-ignored). Import `packageExtension()` to
// reuse it (npm start, the end-to-end tier).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';
import { ROOT } from './provision-editor.mjs';
import { marketplaceReadme } from './marketplaceReadme.mjs';
import { LOCALES } from './manifestNls.mjs';

export const VSIX_PATH = join(ROOT, 'ai-gateway-vscode.vsix');
/**
 * What each shipped language may add (#30.2): its package.nls.<locale>.json, l10n/bundle.l10n.<locale>.json
 * and walkthrough pages: about 46 KiB compressed on 2026-11-27 (29-31 KiB bundle, 6-7 KiB manifest, about
 * 10 KiB of pages); about 49-51 KiB on 2026-11-29 (`zip -9 -r` of the three, per language), after issue 39
 * added some 210 messages (the compatibility report, scope checks, cut-off replies, fail-closed reads);
 * 55.4 KiB (es) and 57.7 KiB (de) that evening, after issue 42's sign-in, elicitation and era messages, so
 * 56 KiB became 60 (measured the same way). Budgeted per language so a translation never pushes the code over, and code growth is still noticed
 * against the code's allowance. The end-to-end tier's VSIX also carries the pseudo-locale, budgeted as one more language.
 */
export const TRANSLATION_BUDGET_BYTES = 60 * 1024;
/** The walkthrough's pictures (media/walkthrough/*.jpg: the model-id hover, Compare Models, @gateway), about 105 KiB. */
export const PICTURES_BUDGET_BYTES = 128 * 1024;
/**
 * The code, manifest, README and CHANGELOG: 1 MiB until 2026-11-29, then 1,088 KiB when issues 41-43 added
 * MCP sign-in (the MCP SDK's OAuth client in the tool runner's chunk), the agent-mode content tools,
 * reasoning effort and the usage dashboard's new controls: the VSIX went from 1,260 to 1,297 KiB. Raised on
 * purpose, once, with the figures; the next feature that does not fit should make room first.
 */
export const CODE_BUDGET_BYTES = 1088 * 1024;
export const VSIX_BUDGET_BYTES = CODE_BUDGET_BYTES + PICTURES_BUDGET_BYTES + LOCALES.length * TRANSLATION_BUDGET_BYTES;

/** Runs a command; returns its output (stdout then stderr), which is also printed unless quiet. */
function run(cmd, args, quiet) {
  const r = spawnSync(cmd, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  if (r.error) throw r.error;
  const output = `${r.stdout ?? ''}${r.stderr ?? ''}`;
  if (!quiet || r.status !== 0) process.stderr.write(output);
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited with ${r.status}`);
  return output;
}

/** Through vsce's JS entry rather than npx, so it runs on this same Node. */
export const VSCE = join(ROOT, 'node_modules', '@vscode', 'vsce', 'vsce');

/**
 * Every script the build wrote (dist/*.mjs: the activation entry and its chunks; dist/webview/*.js: the
 * webviews, the chat's lazily loaded renderer included; dist/webview/l10n-keys.json, each page's share of
 * the translations, without which every page would carry the whole bundle) must be in the VSIX: a file that .vscodeignore
 * left out would only fail when the editor asks for it. `shipped`: the paths `vsce ls` lists.
 */
export function missingFromVsix(shipped) {
  const listed = new Set(shipped.map((l) => l.trim()).filter(Boolean));
  const built = [
    ...readdirSync(join(ROOT, 'dist')).filter((f) => f.endsWith('.mjs')).map((f) => `dist/${f}`),
    ...readdirSync(join(ROOT, 'dist', 'webview')).filter((f) => f.endsWith('.js') || f === 'l10n-keys.json').map((f) => `dist/webview/${f}`),
  ];
  return built.filter((f) => !listed.has(f));
}

/** The production build's record: the hash of dist/ right after `esbuild.mjs --production` wrote it. */
const BUILD_RECORD = join(ROOT, '.cache', 'production-build.json');

/** sha256 over every file of dist/ (paths and contents): a dev build or any change in between alters it. */
export function distHash() {
  const hash = createHash('sha256');
  const walk = (dir) => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else hash.update(`${relative(ROOT, p)}\0`).update(readFileSync(p)).update('\0');
    }
  };
  if (existsSync(join(ROOT, 'dist'))) walk(join(ROOT, 'dist'));
  return hash.digest('hex');
}

/**
 * Whether dist/ still holds the production build recorded by an earlier packaging (its hash unchanged).
 * Used only when AI_GATEWAY_REUSE_BUILD=1, which `npm test` (scripts/test-all.mjs) sets for the stages
 * after the first packaging, so one run builds once (#40.6); any other packaging builds afresh.
 */
function productionBuildIsCurrent() {
  if (process.env.AI_GATEWAY_REUSE_BUILD !== '1' || !existsSync(BUILD_RECORD)) return false;
  try {
    return JSON.parse(readFileSync(BUILD_RECORD, 'utf8')).dist === distHash();
  } catch {
    return false;
  }
}

/**
 * Builds for production and packages. Returns the VSIX path and size in bytes.
 * `preRelease` marks the VSIX as a pre-release (docs/CONTRIBUTING.md, "Releasing"); `out` writes it
 * elsewhere than VSIX_PATH. A vsce warning fails the packaging: the marketplace shows them to users.
 */
export function packageExtension({ quiet = false, preRelease = false, out = VSIX_PATH, pseudoLocale = false } = {}) {
  // The strings of this very code (scripts/l10n.mjs, #30.2); the pseudo-locale made from them only in a
  // VSIX for the end-to-end tier (`pseudoLocale`), never in one for users.
  const reuse = productionBuildIsCurrent();
  if (!reuse) run(process.execPath, [join(ROOT, 'scripts', 'l10n.mjs'), 'export'], quiet);
  run(process.execPath, [join(ROOT, 'scripts', 'l10n.mjs'), pseudoLocale ? 'pseudo' : 'pseudo-clean'], quiet);
  if (reuse) {
    console.log('Packaging the production build of this run (dist/ unchanged since it was built).');
  } else {
    rmSync(BUILD_RECORD, { force: true });
    run(process.execPath, ['esbuild.mjs', '--production'], quiet);
    mkdirSync(dirname(BUILD_RECORD), { recursive: true });
    writeFileSync(BUILD_RECORD, JSON.stringify({ dist: distHash(), at: new Date().toISOString() }) + '\n');
  }
  const ls = spawnSync(process.execPath, [VSCE, 'ls', '--no-dependencies'], { cwd: ROOT, encoding: 'utf8' });
  if (ls.status !== 0) throw new Error(`vsce ls exited with ${ls.status}: ${ls.stderr}`);
  const missing = missingFromVsix(ls.stdout.split('\n'));
  if (missing.length) throw new Error(`The VSIX would leave out built files (see .vscodeignore): ${missing.join(', ')}`);
  // The marketplace page: the README without its repository-only parts (scripts/marketplaceReadme.mjs).
  const readme = join(ROOT, '.cache', `marketplace-${process.pid}`, 'README.md');
  mkdirSync(dirname(readme), { recursive: true });
  writeFileSync(readme, marketplaceReadme(readFileSync(join(ROOT, 'README.md'), 'utf8')));
  // Written under a private name then renamed: several packagers (people, test runs) share this tree.
  const tmp = out.replace(/\.vsix$/, `.tmp-${process.pid}.vsix`);
  try {
    const output = run(process.execPath, [VSCE, 'package', '--no-dependencies', '--readme-path', relative(ROOT, readme), ...(preRelease ? ['--pre-release'] : []), '--out', tmp], quiet);
    const warning = output.split('\n').find((l) => /\bWARNING\b/.test(l));
    if (warning) throw new Error(`vsce warned: ${warning.trim()}`);
    renameSync(tmp, out);
  } finally {
    rmSync(tmp, { force: true });
    rmSync(dirname(readme), { recursive: true, force: true });
  }
  const bytes = statSync(out).size;
  const budget = VSIX_BUDGET_BYTES + (pseudoLocale ? TRANSLATION_BUDGET_BYTES : 0);
  const line = `VSIX ${out.startsWith(ROOT) ? out.slice(ROOT.length + 1) : out}: ${(bytes / 1024).toFixed(1)} KiB (budget ${budget / 1024} KiB)`;
  if (bytes >= budget) throw new Error(`${line}: over budget`);
  console.log(line);
  return { path: out, bytes };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    packageExtension();
  } catch (e) {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  }
}
