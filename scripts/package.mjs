// `npm run package`: production build (minified, no source maps) and a bundled .vsix made by vsce with
// --no-dependencies (esbuild already inlined every runtime dependency). Prints the VSIX size and fails
// when it is over the budget, so growth is noticed when a feature lands, not at release time.
//
// Output: ai-gateway-vscode.vsix at the repository root (git-ignored). Import `packageExtension()` to
// reuse it (npm start, the end-to-end tier).
import { spawnSync } from 'node:child_process';
import { readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';
import { ROOT } from './provision-editor.mjs';

export const VSIX_PATH = join(ROOT, 'ai-gateway-vscode.vsix');
export const VSIX_BUDGET_BYTES = 1024 * 1024;

function run(cmd, args, quiet) {
  const r = spawnSync(cmd, args, { cwd: ROOT, stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit', encoding: 'utf8' });
  if (r.error) throw r.error;
  if (r.status !== 0) {
    if (quiet) process.stderr.write(`${r.stdout ?? ''}${r.stderr ?? ''}`);
    throw new Error(`${cmd} ${args.join(' ')} exited with ${r.status}`);
  }
}

/**
 * Every script the build wrote (dist/*.mjs: the activation entry and its chunks; dist/webview/*.js: the
 * webviews, the chat's lazily loaded renderer included) must be in the VSIX: a file that .vscodeignore
 * left out would only fail when the editor asks for it. `shipped`: the paths `vsce ls` lists.
 */
export function missingFromVsix(shipped) {
  const listed = new Set(shipped.map((l) => l.trim()).filter(Boolean));
  const built = [
    ...readdirSync(join(ROOT, 'dist')).filter((f) => f.endsWith('.mjs')).map((f) => `dist/${f}`),
    ...readdirSync(join(ROOT, 'dist', 'webview')).filter((f) => f.endsWith('.js')).map((f) => `dist/webview/${f}`),
  ];
  return built.filter((f) => !listed.has(f));
}

/** Builds for production and packages. Returns the VSIX path and size in bytes. */
export function packageExtension({ quiet = false } = {}) {
  run(process.execPath, ['esbuild.mjs', '--production'], quiet);
  // Through vsce's JS entry rather than npx, so it runs on this same Node.
  const vsce = join(ROOT, 'node_modules', '@vscode', 'vsce', 'vsce');
  const ls = spawnSync(process.execPath, [vsce, 'ls', '--no-dependencies'], { cwd: ROOT, encoding: 'utf8' });
  if (ls.status !== 0) throw new Error(`vsce ls exited with ${ls.status}: ${ls.stderr}`);
  const missing = missingFromVsix(ls.stdout.split('\n'));
  if (missing.length) throw new Error(`The VSIX would leave out built files (see .vscodeignore): ${missing.join(', ')}`);
  // Written under a private name then renamed: several packagers (people, test runs) share this tree.
  const tmp = VSIX_PATH.replace(/\.vsix$/, `.tmp-${process.pid}.vsix`);
  try {
    run(process.execPath, [vsce, 'package', '--no-dependencies', '--out', tmp], quiet);
    renameSync(tmp, VSIX_PATH);
  } finally {
    rmSync(tmp, { force: true });
  }
  const bytes = statSync(VSIX_PATH).size;
  const line = `VSIX ${VSIX_PATH.slice(ROOT.length + 1)}: ${(bytes / 1024).toFixed(1)} KiB (budget ${VSIX_BUDGET_BYTES / 1024} KiB)`;
  if (bytes >= VSIX_BUDGET_BYTES) throw new Error(`${line}: over budget`);
  console.log(line);
  return { path: VSIX_PATH, bytes };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    packageExtension();
  } catch (e) {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  }
}
