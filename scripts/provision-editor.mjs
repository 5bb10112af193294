// Provisions the real editor used by `npm start` and the end-to-end tier, into the git-ignored
// cache `.cache/editor/`:
//   .cache/editor/node24/        `npm install node@24`  -> a Node 24 binary (code-server's engines need it)
//   .cache/editor/code-server/   `npm install code-server@CODE_SERVER_VERSION` run with that Node first on PATH
// and checks that Debian's Chromium is there (it comes from apt, not npm: Playwright's own browser
// download cannot work on machines without internet).
//
// Idempotent: each folder has a `.ready` marker holding what was installed; a later run whose marker and
// files match does nothing (first run ~2 min and ~800 MB, later runs instant). The installs use their own
// package.json inside the cache, so the project's package.json and lock are never touched.
//
// Run directly (`node scripts/provision-editor.mjs`) or import `provisionEditor()`.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync, accessSync, constants } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CODE_SERVER_VERSION = '4.139.1';
export const NODE_MAJOR = 24;
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const EDITOR_CACHE = join(ROOT, '.cache', 'editor');
export const DEFAULT_CHROMIUM = '/usr/bin/chromium';

/** Thrown when something the real-editor tier needs is missing; `message` says exactly what to install. */
export class MissingPrerequisiteError extends Error {
  constructor(message) {
    super(message);
    this.name = 'MissingPrerequisiteError';
  }
}

function readMarker(dir) {
  try {
    return JSON.parse(readFileSync(join(dir, '.ready'), 'utf8'));
  } catch {
    return undefined;
  }
}

function run(cmd, args, opts, log) {
  log(`$ ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: ['ignore', 'inherit', 'inherit'], ...opts });
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited with ${r.status}`);
}

function npmInstall(dir, spec, env, log, extraArgs = []) {
  // A private package.json makes `dir` its own npm project: nothing walks up to the repo's manifest.
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'ai-gateway-editor-cache', private: true }, null, 2) + '\n');
  run('npm', ['install', '--prefix', dir, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--loglevel=error', ...extraArgs, spec], { cwd: dir, env }, log);
}

/** Node 24 from the npm registry. Returns the absolute path of its `node` binary. */
export function provisionNode24({ log = console.error } = {}) {
  const dir = join(EDITOR_CACHE, 'node24');
  const bin = join(dir, 'node_modules', 'node', 'node_modules', `node-linux-${process.arch}`, 'bin', 'node');
  const marker = readMarker(dir);
  if (marker?.major === NODE_MAJOR && existsSync(bin)) return bin;
  if (process.platform !== 'linux') {
    throw new MissingPrerequisiteError(`The real-editor tier provisions Node ${NODE_MAJOR} for Linux only; this is ${process.platform}.`);
  }
  log(`[provision] installing Node ${NODE_MAJOR} from npm into ${dir} (first run only)…`);
  rmSync(join(dir, '.ready'), { force: true });
  npmInstall(dir, `node@${NODE_MAJOR}`, process.env, log);
  const v = spawnSync(bin, ['-v'], { encoding: 'utf8' });
  if (v.status !== 0 || !v.stdout.startsWith(`v${NODE_MAJOR}.`)) {
    throw new Error(`[provision] ${bin} did not report Node ${NODE_MAJOR} (got ${JSON.stringify(v.stdout || v.stderr)})`);
  }
  writeFileSync(join(dir, '.ready'), JSON.stringify({ major: NODE_MAJOR, version: v.stdout.trim() }) + '\n');
  return bin;
}

/** code-server from the npm registry, installed with Node 24 first on PATH. Returns its `entry.js`. */
export function provisionCodeServer(node24, { log = console.error } = {}) {
  const dir = join(EDITOR_CACHE, 'code-server');
  const pkgDir = join(dir, 'node_modules', 'code-server');
  const entry = join(pkgDir, 'out', 'node', 'entry.js');
  const installedVersion = () => {
    try {
      return JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')).version;
    } catch {
      return undefined;
    }
  };
  const marker = readMarker(dir);
  if (marker?.version === CODE_SERVER_VERSION && installedVersion() === CODE_SERVER_VERSION && existsSync(entry)) return entry;
  log(`[provision] installing code-server@${CODE_SERVER_VERSION} from npm into ${dir} (first run only, ~2 min, ~800 MB)…`);
  rmSync(join(dir, '.ready'), { force: true });
  const nodeHome = dirname(dirname(node24));
  const env = {
    ...process.env,
    PATH: `${dirname(node24)}:${process.env.PATH ?? ''}`,
    // Native add-ons (if any install script runs) must build against Node 24's headers, not the system Node's.
    npm_config_nodedir: nodeHome,
  };
  // --ignore-scripts: code-server's postinstall re-installs VS Code's dependencies and compiles native
  // add-ons (kerberos needs libkrb5-dev, …). The npm package already ships prebuilt modules for
  // linux-x64, and the editor runs fine without the postinstall.
  npmInstall(dir, `code-server@${CODE_SERVER_VERSION}`, env, log, ['--ignore-scripts']);
  // What the skipped postinstall does that the editor needs: VS Code's own runtime dependencies
  // (lib/vscode has a shrinkwrap), again without scripts, then the two native add-ons the server loads at
  // start (spdlog for logs, native-watchdog), built against Node 24's headers (~80 s on 2 cores). kerberos
  // is left out on purpose: it needs libkrb5-dev and only serves Kerberos proxy authentication.
  const vscodeDir = join(pkgDir, 'lib', 'vscode');
  run('npm', ['install', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: vscodeDir, env }, log);
  try {
    run('npm', ['rebuild', '@vscode/spdlog', '@vscode/native-watchdog', '--loglevel=error'], { cwd: vscodeDir, env }, log);
  } catch (e) {
    // The workbench still works without them (the server logs "Could not locate the bindings file").
    log(`[provision] warning: building VS Code's native add-ons failed (${e.message}); the editor runs without them.`);
  }
  if (installedVersion() !== CODE_SERVER_VERSION || !existsSync(entry)) {
    throw new Error(`[provision] code-server@${CODE_SERVER_VERSION} did not install correctly into ${dir}`);
  }
  writeFileSync(join(dir, '.ready'), JSON.stringify({ version: CODE_SERVER_VERSION }) + '\n');
  return entry;
}

/** Debian's Chromium (or CHROMIUM_PATH). Throws MissingPrerequisiteError naming the install command. */
export function findChromium() {
  const path = process.env.CHROMIUM_PATH || DEFAULT_CHROMIUM;
  try {
    accessSync(path, constants.X_OK);
    return path;
  } catch {
    throw new MissingPrerequisiteError(
      `Chromium was not found at ${path}. The end-to-end tier drives Debian's Chromium; install it with:\n` +
        `    sudo apt-get update && sudo apt-get install -y chromium\n` +
        `or point CHROMIUM_PATH at a Chromium/Chrome binary.`,
    );
  }
}

/**
 * Everything the real-editor tier needs. `chromium: false` skips the browser check (npm start opens the
 * URL in the user's own browser).
 * @returns {{ node24: string, codeServerEntry: string, chromium: string | undefined }}
 */
export function provisionEditor({ chromium = true, log = console.error } = {}) {
  const chromiumPath = chromium ? findChromium() : undefined;
  let node24;
  try {
    node24 = provisionNode24({ log });
  } catch (e) {
    if (e instanceof MissingPrerequisiteError) throw e;
    throw new MissingPrerequisiteError(`Could not install Node ${NODE_MAJOR} from the npm registry into ${EDITOR_CACHE}/node24: ${e.message}\nIt needs access to the npm registry (run: node scripts/provision-editor.mjs).`);
  }
  let codeServerEntry;
  try {
    codeServerEntry = provisionCodeServer(node24, { log });
  } catch (e) {
    throw new MissingPrerequisiteError(`Could not install code-server@${CODE_SERVER_VERSION} from the npm registry into ${EDITOR_CACHE}/code-server: ${e.message}\nIt needs access to the npm registry and ~700 MB of disk (run: node scripts/provision-editor.mjs).`);
  }
  return { node24, codeServerEntry, chromium: chromiumPath };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const started = Date.now();
    const r = provisionEditor({ chromium: !process.argv.includes('--no-chromium') });
    console.log(JSON.stringify({ ...r, seconds: Math.round((Date.now() - started) / 100) / 10 }, null, 2));
  } catch (e) {
    console.error(e instanceof MissingPrerequisiteError ? `\n${e.message}\n` : e);
    process.exit(1);
  }
}
