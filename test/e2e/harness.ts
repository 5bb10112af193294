/**
 * End-to-end harness: the packaged extension in a real VS Code (code-server 4.139.1 = VS Code 1.139.1,
 * Node 24 extension host) driven by Debian's Chromium through playwright-core, against the local gateway.
 *
 * Usage in a journey file (test/e2e/<feature>.e2e.ts, run by `npm run test:e2e -- <filter>`):
 *
 *   import { after, before, test } from 'node:test';
 *   import { launchEditor, type Editor } from './harness';
 *   let editor: Editor;
 *   before(async () => { editor = await launchEditor({ name: 'chat' }); });
 *   after(async () => { await editor?.close(); });
 *   test('[RULE-ID] ...', async () => {
 *     await editor.addKey('work', LOCAL_KEYS.userFull);       // palette + input boxes, like a user
 *     await editor.runCommand('AI Gateway: Open Chat');
 *     const chat = await editor.chatTab(); // FrameLocator inside the chat tab's webview
 *     await chat.getByRole('textbox').fill('hello');
 *     await editor.screenshot('chat-reply', { docs: true });
 *   });
 *
 * Contract:
 * - One `launchEditor()` per test file (it costs ~10-20 s): a fresh user-data-dir, workspace folder,
 *   browser context (so SecretStorage starts empty) and local gateway; the extensions dir is shared and the
 *   VSIX is installed once per VSIX content (sha256 marker). `close()` stops everything it started.
 * - Helpers wait generously (the tier runs on a loaded 2-core machine) and retry the palette typing.
 *   They never assert on timing.
 * - Everything the tier needs is provisioned by scripts/provision-editor.mjs; a missing Chromium throws
 *   MissingPrerequisiteError naming the apt-get command (never a silent skip).
 * - Screenshots go to the git-ignored .e2e-artifacts/; `{ docs: true }` also writes
 *   docs/screenshots/<name>.png when AI_GATEWAY_E2E_DOCS=1 (README images; look at them before committing).
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type ConsoleMessage, type Dialog, type FrameLocator, type Locator, type Page } from 'playwright-core';
import { startGateway, type RunningGateway } from '../localGateway/server';
import { allScopes } from '../localGateway/keys';
import { sampleWorkspaceFiles } from './sandbox';
import type { GatewayOptions } from '../localGateway/context';

// The provisioning and packaging scripts are ES modules shared with plain-Node scripts (npm start,
// the runner); this CommonJS test module loads them with import().
type ProvisionModule = typeof import('../../scripts/provision-editor.mjs', { with: { 'resolution-mode': 'import' } });
type PackageModule = typeof import('../../scripts/package.mjs', { with: { 'resolution-mode': 'import' } });
const loadScripts = async (): Promise<[ProvisionModule, PackageModule]> =>
  Promise.all([import('../../scripts/provision-editor.mjs'), import('../../scripts/package.mjs')]);

export const ROOT = join(__dirname, '..', '..');

export const ARTIFACTS_DIR = join(ROOT, '.e2e-artifacts');
export const DOCS_SCREENSHOTS_DIR = join(ROOT, 'docs', 'screenshots');
export const WALKTHROUGH_MEDIA_DIR = join(ROOT, 'media', 'walkthrough');
const E2E_CACHE = join(ROOT, '.cache', 'e2e');
/** Set by prepareEditor(): the extensions dir holding this run's VSIX. */
let extensionsDir = '';
/** The extensions dir prepareEditor() installed this run's VSIX into. */
export function e2eExtensionsDir(): string {
  if (!extensionsDir) throw new Error('prepareEditor() has not run');
  return extensionsDir;
}

/** Drops extensions dirs and VSIX copies of older builds (unused for 2 hours). */
function pruneOldExtensionDirs(keep: string): void {
  const cutoff = Date.now() - 2 * 3600_000;
  for (const name of readdirSync(E2E_CACHE)) {
    const path = join(E2E_CACHE, name);
    if (path === keep || !/^(extensions-|ai-gateway-)/.test(name)) continue;
    try {
      if (statSync(path).mtimeMs < cutoff) rmSync(path, { recursive: true, force: true });
    } catch {
      /* raced with another run */
    }
  }
}

/**
 * Deadlines, not delays: every wait ends as soon as its condition holds, and these only bound a failure.
 * Generous, because the tier must pass on a 2-core machine running other work (it is proven with
 * AI_GATEWAY_E2E_LOAD=2): there a cold workbench can take a minute and a click's effect 30 s+.
 */
/**
 * Page script (the workbench page; the tests have no DOM types, so it is plain JavaScript): has the
 * workbench write its state (the open editors, what a reload restores) to IndexedDB and waits until that
 * write is done; true then, false past `deadlineMs`.
 * - The save: the workbench saves its state when its window loses the focus, so it is told so
 *   (document.hasFocus() answers false while a visibilitychange event is dispatched), then told it has it
 *   again the same way.
 * - The write: its storage writes what changed in a readwrite transaction on its `vscode-web-state-db-*`
 *   databases after a 100 ms flush delay, a timer it sets during the save; a timer set after it with a
 *   longer delay runs after it, when the transaction exists. Those transactions are counted (a wrapper of
 *   IDBDatabase.transaction, installed once) until none is open. Nothing to save writes nothing.
 */
const SAVE_WORKBENCH_STATE = `async (deadlineMs) => {
  const w = window;
  let writes = w.__aiGatewayE2eStateWrites;
  if (!writes) {
    writes = w.__aiGatewayE2eStateWrites = { open: 0 };
    const transaction = IDBDatabase.prototype.transaction;
    IDBDatabase.prototype.transaction = function (...args) {
      const tx = transaction.apply(this, args);
      if (args[1] === 'readwrite' && String(this.name).startsWith('vscode-web-state-db-')) {
        writes.open++;
        let ended = false;
        const end = () => {
          if (!ended) { ended = true; writes.open--; }
        };
        tx.addEventListener('complete', end);
        tx.addEventListener('abort', end);
      }
      return tx;
    };
  }
  const d = document;
  Object.defineProperty(d, 'hasFocus', { value: () => false, configurable: true });
  d.dispatchEvent(new Event('visibilitychange'));
  delete d.hasFocus;
  d.dispatchEvent(new Event('visibilitychange'));
  const deadline = Date.now() + deadlineMs;
  await new Promise((r) => setTimeout(r, 250));
  while (writes.open > 0) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
}`;

export const TIMEOUTS = { workbench: 180_000, ui: 60_000, notification: 90_000 } as const;

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/** Quiet, deterministic editor defaults for the tier (journeys add their own through `settings`). */
export const BASE_SETTINGS: Record<string, unknown> = {
  'workbench.startupEditor': 'none',
  // The extension's walkthrough opens once on a fresh profile; journeys start without it
  // (test/e2e/walkthrough.e2e.ts turns it back on).
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'workbench.colorTheme': 'Default Dark Modern',
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'extensions.ignoreRecommendations': true,
  'security.workspace.trust.enabled': false,
  'git.enabled': false,
  'chat.commandCenter.enabled': false,
  'window.commandCenter': false,
  'editor.minimap.enabled': false,
  // An idle workbench redraws for a blinking cursor and the workbench's animations: measured on the shared
  // 2-core machine, the renderer of an idle workbench with a file open used about 8 % of a core, 4 % with
  // these two (a journey's workbench is open for minutes, two at a time).
  'editor.cursorBlinking': 'solid',
  'workbench.reduceMotion': 'on',
  // The extension host looks for ports to forward by running `ls -l /proc/[0-9]*/fd/[0-9]*` and
  // `ps -F -A -l` every 2 s or more (code-server registers a tunnel provider, so `autoForwardPorts: false`
  // alone does not stop it); on a busy machine every scan reads thousands of /proc entries. No journey
  // forwards a port: candidates come from terminal output only, and there is no terminal.
  'remote.autoForwardPorts': false,
  'remote.autoForwardPortsSource': 'output',
};

/**
 * Options of every journey's browser context. `Accept-Encoding: identity`: code-server compresses what it
 * serves (Brotli for Chromium), and a fresh context has an empty HTTP cache, so every journey had the
 * workbench's 19 MB of JavaScript compressed anew on the server and decompressed in the browser: measured
 * (#40.7) about 1 CPU s per workbench start in code-server, over loopback where compression saves nothing.
 * Only the transfer encoding changes; every byte the workbench receives is the same.
 */
function contextOptions(viewport: { width: number; height: number } | undefined): BrowserContextOptions {
  return { viewport: viewport ?? { width: 1280, height: 800 }, extraHTTPHeaders: { 'Accept-Encoding': 'identity' } };
}

export interface LaunchOptions {
  /** Names the temp folders and screenshots of this test file. */
  name: string;
  /** Extra user settings (merged over BASE_SETTINGS; `aiGateway.baseUrl` is set to the local gateway). */
  settings?: Record<string, unknown>;
  /** Options for the local gateway started for this editor. */
  gateway?: GatewayOptions;
  /** Use this gateway URL instead of starting a local gateway (e.g. one shared by several editors). */
  gatewayUrl?: string;
  /** Files of the workspace folder, relative path -> content. Default: `npm start`'s sample post and its picture. */
  workspaceFiles?: Record<string, string | Buffer>;
  /** Browser viewport; the default suits README screenshots. */
  viewport?: { width: number; height: number };
  /**
   * The editor's display language (`vscode.env.language`), e.g. `qps-ploc`, the pseudo-locale (#30.2):
   * code-server starts with `--locale` and a minimal language pack for it (see `writeLanguagePack`).
   */
  locale?: string;
  /** User keybindings (<user-data-dir>/User/keybindings.json), e.g. to run a command by its id. */
  keybindings?: ReadonlyArray<{ key: string; command: string; args?: unknown }>;
  /**
   * Start a code-server of its own even when the runner shares one with the journey's group (see
   * `sharedServer`): for a journey that needs a profile nothing ever ran in, or reads the server's logs
   * (the walkthrough). A `locale` implies it (the display language is chosen when the server starts).
   */
  ownServer?: boolean;
}

/**
 * The code-server and Chromium that scripts/test-e2e.mjs started for a group of journey files
 * (test/e2e/groupServer.ts), handed over in AI_GATEWAY_E2E_GROUP. Starting them costs each journey
 * file ~10-20 s on the 2-core machine; sharing them, a journey still starts from nothing of the others':
 * - a browser context of its own: the workbench's state, the extension's globalState and SecretStorage
 *   live in the browser (IndexedDB), so they start empty;
 * - the profile on the server (<user-data-dir>/User: settings, keybindings, globalStorage with the chat
 *   history and the spend ledger, chatLanguageModels.json) and Machine settings are wiped and written
 *   afresh, after the previous journey's extension host (one per window) is stopped;
 * - a workspace folder and a local gateway of its own, as before.
 * One editor at a time per group (journeys open theirs one after another).
 */
interface SharedServer {
  url: string;
  userDataDir: string;
  /** The code-server's process group (its extension hosts are found in it). */
  pgid: number;
  /** chromium.launchServer()'s endpoint. */
  wsEndpoint: string;
  name: string;
}

function sharedServer(): SharedServer | undefined {
  const raw = process.env.AI_GATEWAY_E2E_GROUP;
  if (!raw) return undefined;
  const v = JSON.parse(raw) as SharedServer;
  if (typeof v.url !== 'string' || typeof v.userDataDir !== 'string' || typeof v.pgid !== 'number' || typeof v.wsEndpoint !== 'string') {
    throw new Error(`AI_GATEWAY_E2E_GROUP is not a group server: ${raw}`);
  }
  return v;
}

/** The extension host processes (one per window) of the code-server in process group `pgid`, with every process below them. */
function extensionHostTrees(pgid: number): number[] {
  const children = new Map<number, number[]>();
  const hosts: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const [, ppid, pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(pgrp) !== pgid) continue;
      const pid = Number(name);
      children.set(Number(ppid), [...(children.get(Number(ppid)) ?? []), pid]);
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8').includes('--type=extensionHost')) hosts.push(pid);
    } catch {
      /* gone meanwhile */
    }
  }
  const out: number[] = [];
  const walk = (pid: number): void => {
    out.push(pid);
    for (const c of children.get(pid) ?? []) walk(c);
  };
  for (const h of hosts) walk(h);
  return out;
}

/**
 * Stops the extension hosts of a shared code-server (the windows of earlier journeys are closed; the
 * server would keep their hosts for a reconnection grace period) and waits until they are gone.
 */
async function stopExtensionHosts(pgid: number): Promise<void> {
  const pids = extensionHostTrees(pgid);
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
  await waitUntil(() => pids.every((pid) => !existsSync(`/proc/${pid}`) || /^[^)]*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'))), {
    what: 'the previous journey\'s extension host stopped',
    timeout: TIMEOUTS.ui,
  });
}

/** Empties the shared profile on the server (User and Machine), keeping only the agent host's own config. */
function resetSharedProfile(userDataDir: string): void {
  for (const scope of ['User', 'Machine']) {
    const dir = join(userDataDir, scope);
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir)) {
      if (scope === 'User' && name === 'globalStorage') {
        for (const g of readdirSync(join(dir, name))) if (g !== 'agent-host-config.json') rmSync(join(dir, name, g), { recursive: true, force: true });
      } else {
        rmSync(join(dir, name), { recursive: true, force: true });
      }
    }
  }
}

export { SAMPLE_POST } from './sandbox';

export interface PreparedEditor {
  node24: string;
  codeServerEntry: string;
  chromium: string;
}
let prepared: PreparedEditor | undefined;

/**
 * Provisions code-server + Node 24, checks Chromium, and installs the packaged VSIX into the shared
 * extensions dir (once per VSIX content). Packages the extension first when no VSIX exists
 * (scripts/test-e2e.mjs always packages before running the journeys).
 */
export async function prepareEditor(log: (line: string) => void = (l) => console.error(l)): Promise<PreparedEditor> {
  if (prepared) return prepared;
  const [{ provisionEditor }, { VSIX_PATH, packageExtension }] = await loadScripts();
  const p = provisionEditor({ chromium: true, log });
  // scripts/test-e2e.mjs hands over a private copy of the VSIX it just packaged.
  const vsix = process.env.AI_GATEWAY_E2E_VSIX || VSIX_PATH;
  if (!existsSync(vsix)) packageExtension({ quiet: true, pseudoLocale: true });
  const probe = packageLmProbe();
  const hash = createHash('sha256').update(readFileSync(vsix)).update(readFileSync(probe)).digest('hex').slice(0, 16);
  // One extensions dir per VSIX content, built aside and renamed into place: runs in this shared tree
  // may overlap, and a dir in use by another run is never rewritten.
  extensionsDir = join(E2E_CACHE, `extensions-${hash}`);
  if (!existsSync(join(extensionsDir, '.installed'))) {
    const staging = `${extensionsDir}.tmp-${process.pid}`;
    rmSync(staging, { recursive: true, force: true });
    mkdirSync(staging, { recursive: true });
    const userData = mkdtempSync(join(tmpdir(), 'aigw-e2e-install-'));
    try {
      const r = spawnSync(p.node24, [p.codeServerEntry, '--user-data-dir', userData, '--extensions-dir', staging, '--install-extension', vsix, '--install-extension', probe, '--force'], {
        encoding: 'utf8',
        env: { ...process.env, XDG_CONFIG_HOME: userData },
      });
      if (r.status !== 0) throw new Error(`Installing ${vsix} into code-server failed:\n${r.stdout}\n${r.stderr}`);
      writeFileSync(join(staging, '.installed'), hash + '\n');
      if (!existsSync(join(extensionsDir, '.installed'))) {
        rmSync(extensionsDir, { recursive: true, force: true });
        renameSync(staging, extensionsDir);
      }
    } finally {
      rmSync(userData, { recursive: true, force: true });
      rmSync(staging, { recursive: true, force: true });
    }
  }
  pruneOldExtensionDirs(extensionsDir);
  prepared = { node24: p.node24, codeServerEntry: p.codeServerEntry, chromium: p.chromium ?? '' };
  return prepared;
}

/**
 * The test-only extension test/e2e/lmProbe (VS Code's language model API used as another extension
 * would), packaged with vsce into .cache/e2e once per content and installed next to the VSIX.
 */
function packageLmProbe(): string {
  const dir = join(ROOT, 'test', 'e2e', 'lmProbe');
  const digest = createHash('sha256');
  for (const name of ['package.json', 'extension.js']) digest.update(readFileSync(join(dir, name)));
  const out = join(E2E_CACHE, `lm-probe-${digest.digest('hex').slice(0, 16)}.vsix`);
  if (existsSync(out)) return out;
  mkdirSync(E2E_CACHE, { recursive: true });
  const tmp = `${out}.tmp-${process.pid}.vsix`;
  const vsce = join(ROOT, 'node_modules', '@vscode', 'vsce', 'vsce');
  const r = spawnSync(process.execPath, [vsce, 'package', '--no-dependencies', '--skip-license', '--allow-missing-repository', '--out', tmp], { cwd: dir, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`Packaging the LM probe extension failed:\n${r.stdout}\n${r.stderr}`);
  renameSync(tmp, out);
  return out;
}

/**
 * Built-in extensions the tier's code-server runs without (#40.7). Each activates on its own in every
 * journey's workbench (`*` or onStartupFinished, emmet on any language) and costs extension-host CPU,
 * while no journey and nothing in this extension uses it: git, git-base and github (the workspaces are no
 * repositories; `git.enabled` is off anyway), merge-conflict (no conflict markers), debug-auto-launch and
 * js-debug (nothing is debugged), emmet (no HTML/CSS; the posts are Markdown), npm (no package.json
 * scripts). What a user has that meets this extension stays: Markdown language features on the posts, the
 * built-in chat extension (`copilot`), GitHub/Microsoft authentication, themes and grammars.
 * code-server 4.139 has no `--disable-extension`; `--builtin-extensions-dir` points it at a folder of links
 * to every other built-in extension instead.
 */
export const UNUSED_BUILTIN_EXTENSIONS = ['git', 'git-base', 'github', 'merge-conflict', 'debug-auto-launch', 'debug-server-ready', 'ms-vscode.js-debug', 'ms-vscode.js-debug-companion', 'ms-vscode.vscode-js-profile-table', 'emmet', 'npm'];

/** The folder of links to code-server's built-in extensions but UNUSED_BUILTIN_EXTENSIONS (made once). */
export function trimmedBuiltinExtensionsDir(codeServerEntry: string): string {
  const source = join(dirname(codeServerEntry), '..', '..', 'lib', 'vscode', 'extensions');
  const names = readdirSync(source).filter((n) => !UNUSED_BUILTIN_EXTENSIONS.includes(n));
  const hash = createHash('sha256').update(source).update(names.join('\n')).digest('hex').slice(0, 16);
  const dir = join(E2E_CACHE, `builtin-${hash}`);
  if (existsSync(join(dir, '.complete'))) return dir;
  const staging = `${dir}.tmp-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  for (const name of names) symlinkSync(join(source, name), join(staging, name));
  writeFileSync(join(staging, '.complete'), '');
  if (!existsSync(join(dir, '.complete'))) {
    rmSync(dir, { recursive: true, force: true });
    renameSync(staging, dir);
  } else rmSync(staging, { recursive: true, force: true });
  return dir;
}

/** Starts code-server on an ephemeral loopback port; resolves with its URL once it listens. */
export async function startCodeServer(opts: {
  node24: string;
  entry: string;
  userDataDir: string;
  extensionsDir: string;
  env?: NodeJS.ProcessEnv;
  port?: number;
  logFile?: string;
  inheritOutput?: boolean;
  /** `--locale`: the display language (it needs a language pack: `writeLanguagePack`). */
  locale?: string;
  /**
   * The tier's editor (#40.7): without UNUSED_BUILTIN_EXTENSIONS and without resolving the login shell's
   * environment. `npm start`'s sandbox leaves it off: a person there has the whole editor.
   */
  lean?: boolean;
}): Promise<{ url: string; process: ChildProcess; stop: () => Promise<void> }> {
  mkdirSync(opts.userDataDir, { recursive: true });
  const configFile = join(opts.userDataDir, 'code-server.yaml');
  writeFileSync(configFile, 'auth: none\ncert: false\n');
  const args = [
    opts.entry,
    '--config', configFile,
    '--auth', 'none',
    '--bind-addr', `127.0.0.1:${opts.port ?? 0}`,
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    '--user-data-dir', opts.userDataDir,
    '--extensions-dir', opts.extensionsDir,
    ...(opts.lean ? ['--builtin-extensions-dir', trimmedBuiltinExtensionsDir(opts.entry)] : []),
    ...(opts.locale ? ['--locale', opts.locale] : []),
  ];
  // detached: own process group, so stop() reaches the extension host and every helper it spawned.
  const child = spawn(opts.node24, args, {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    // VSCODE_CLI=1: code-server's server skips resolving the user's login-shell environment (it runs
    // `bash -i -l -c node -p process.env` before the first extension host, which on this machine also
    // ran pyenv's rehash); the extension host gets exactly the environment given here (#40.7).
    env: { ...process.env, ...(opts.lean ? { VSCODE_CLI: '1' } : {}), ...opts.env, XDG_CONFIG_HOME: join(opts.userDataDir, 'xdg-config'), XDG_DATA_HOME: join(opts.userDataDir, 'xdg-data') },
  });
  let output = '';
  const onData = (d: Buffer): void => {
    const s = d.toString();
    output += s;
    if (opts.logFile) writeFileSync(opts.logFile, s, { flag: 'a' });
    if (opts.inheritOutput) process.stderr.write(s);
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // Last resort if the test process ends without close() (a crash, a runner timeout): no editor outlives it.
  const killOnExit = (): void => {
    try {
      process.kill(-(child.pid ?? 0), 'SIGKILL');
    } catch {
      /* already gone */
    }
  };
  process.once('exit', killOnExit);
  void exited.then(() => process.removeListener('exit', killOnExit));
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    try {
      process.kill(-(child.pid ?? 0), 'SIGTERM');
    } catch {
      return;
    }
    const killed = await Promise.race([exited.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 5000).unref())]);
    if (!killed) {
      try {
        process.kill(-(child.pid ?? 0), 'SIGKILL');
      } catch {
        /* already gone */
      }
    }
  };
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`code-server did not start listening within ${TIMEOUTS.workbench / 1000} s:\n${output}`)), TIMEOUTS.workbench);
    const check = (): void => {
      const m = /HTTP server listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout?.on('data', check);
    child.stderr?.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`code-server exited (${String(code)}) before listening:\n${output}`));
    });
  }).catch(async (e: unknown) => {
    await stop();
    throw e;
  });
  return { url, process: child, stop };
}

/**
 * A language pack for `locale` in a user-data-dir, so that code-server runs in that display language.
 *
 * How code-server 4.139 (VS Code 1.139) decides `vscode.env.language`, read from its source (coder/
 * code-server patches/display-language.diff; VS Code's src/vs/base/node/nls.ts, remoteLanguagePacks.ts,
 * extensionHostConnection.ts):
 * 1. The workbench's locale is `--locale`, else `locale` in <user-data-dir>/User/argv.json, else the
 *    `vscode.nls.locale` cookie, else the browser's Accept-Language.
 * 2. The server resolves it against <user-data-dir>/languagepacks.json, the installed language packs
 *    (written when a language-pack extension is installed): an entry for the locale (or a prefix of it)
 *    with a `hash` and a `translations.vscode` file that exists. None: the language is English.
 * 3. Resolved, the server generates the workbench's nls.messages.js, which sets the browser's language;
 *    the browser starts the remote extension host with it, whose VSCODE_NLS_CONFIG.resolvedLanguage is
 *    then `vscode.env.language`, and extensions get l10n/bundle.l10n.<language>.json and
 *    package.nls.<language>.json.
 * VS Code's pseudo-language pack (MS-CEINTL.vscode-language-pack-qps-ploc) cannot be downloaded here, and
 * the workbench's own strings do not matter to this tier: the pack written here translates nothing (every
 * workbench string stays English), which is all step 2 needs.
 */
export function writeLanguagePack(userDataDir: string, locale: string): void {
  const dir = join(userDataDir, 'e2e-language-pack', locale);
  mkdirSync(dir, { recursive: true });
  const translations = join(dir, 'main.i18n.json');
  writeFileSync(translations, JSON.stringify({ version: '1.0.0', contents: {} }));
  const entry = {
    hash: createHash('sha256').update(`${locale}:${translations}`).digest('hex').slice(0, 32),
    extensions: [{ extensionIdentifier: { id: `e2e.language-pack-${locale}` }, version: '1.0.0' }],
    translations: { vscode: translations },
    label: locale,
  };
  writeFileSync(join(userDataDir, 'languagepacks.json'), JSON.stringify({ [locale]: entry }, null, 2));
  const argv = join(userDataDir, 'User', 'argv.json');
  mkdirSync(dirname(argv), { recursive: true });
  writeFileSync(argv, JSON.stringify({ locale }, null, 2));
}

/**
 * Writes settings where code-server reads them: <user-data-dir>/User/settings.json (the browser side)
 * and <user-data-dir>/Machine/settings.json (the remote machine, where the extension host runs).
 * Both are needed: settings with `"scope": "machine"` (aiGateway.baseUrl) are ignored in User settings
 * of a remote window and only read from the Machine ("Remote") settings.
 */
export function writeUserSettings(userDataDir: string, settings: Record<string, unknown>): void {
  for (const scope of ['User', 'Machine']) {
    const file = join(userDataDir, scope, 'settings.json');
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify(settings, null, 2) + '\n');
  }
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Polls `probe` until it returns a value other than undefined/false, and returns that value. The
 * deadline only bounds a failure; nothing relies on how long it takes. For conditions outside the page
 * (the local gateway's events, a file on disk); conditions on the page use locators or waitForFunction.
 */
export async function waitUntil<T>(
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  options: { what: string; timeout?: number },
): Promise<T> {
  const deadline = Date.now() + (options.timeout ?? TIMEOUTS.notification);
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting until ${options.what}.`);
    // A poll period, not a delay anything depends on: the next probe decides.
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Expect-style polling for conditions no locator can wait on (focus, computed colours, widths, logs):
 * re-reads `probe` until `accept` holds, failing with the last value seen after `timeout`.
 */
export async function pollUntil<T>(probe: () => Promise<T>, accept: (v: T) => boolean, what: string, timeout: number = TIMEOUTS.ui): Promise<T> {
  const deadline = Date.now() + timeout;
  for (;;) {
    const v = await probe();
    if (accept(v)) return v;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}; last seen ${JSON.stringify(v)}`);
    // A poll period, not a delay anything depends on: the next probe decides.
    await new Promise((r) => setTimeout(r, 100));
  }
}

export interface Editor {
  readonly page: Page;
  /** The local gateway (undefined when LaunchOptions.gatewayUrl was given). */
  readonly gateway: RunningGateway | undefined;
  readonly gatewayUrl: string;
  /** The workspace folder opened in the editor. */
  readonly workspace: string;
  /** The code-server's user-data-dir (its logs/, User/ and Machine/ settings); shared by a group's journeys. */
  readonly userDataDir: string;
  readonly url: string;
  /** Runs a command by its palette title (e.g. "AI Gateway: Add API Key") through F1. */
  runCommand(title: string): Promise<void>;
  /**
   * Loads the page again, as a user presses F5, and resolves when the new workbench is shown (the extension
   * host starts again and activates the extension anew). Not Developer: Reload Window: in the browser that
   * command awaits the workbench's shutdown work before it reloads, and with VS Code's built-in chat extension
   * on that took 128 s once (the client left the server 2 minutes after the click), over the deadlines here.
   * On a browser reload the workbench's own unload handler stores the same state (open editors, webview
   * state) on its way out; chat.e2e.ts proves a chat tab comes back with its conversation.
   * Nothing may be unsaved: an editor with unsaved changes throws before the reload, naming it. The workbench
   * also refuses to go (the browser's "leave site?" prompt) while a save or backup is under way (as right
   * after Ctrl+S) or something else is unsaved; the browser driver would answer "leave" and drop it silently.
   * Here the prompt is answered "stay" and the reload asked again until TIMEOUTS.ui, then it fails naming the
   * workbench's reason (e.g. `veto.textFiles`), never hanging and never losing anything.
   */
  reload(): Promise<void>;
  /** Types into the open input box and accepts it. `title` waits for that input box (multi-step flows). */
  fillInputBox(text: string, options?: { title?: string | RegExp }): Promise<void>;
  /** Picks the quick pick row whose label contains `label`. */
  pickQuickPickItem(label: string | RegExp): Promise<void>;
  /**
   * Opens a workspace file (path relative to the workspace, e.g. `posts/draft.md`) through Quick Open (Ctrl+P,
   * Go to File's key), as a user would (a click on the status bar focuses the workbench first: a focused
   * webview would swallow Ctrl+P; Enter only once the focused row is the file itself; no trip through the
   * command palette), retried when the workbench takes the Quick Open away, and
   * waits until its tab is the active one, or, with `{ active: false }`, only until its tab is there (when
   * something else may take the front at the same moment, e.g. the walkthrough on first activation).
   */
  openFile(path: string, options?: { active?: boolean }): Promise<void>;
  /**
   * Right-clicks `row` and chooses the context menu item `label`. The workbench's menu can drop a click
   * that arrives while it is still opening; the menu then stays open, so the click is repeated until the
   * menu closes.
   */
  chooseContextMenuItem(row: Locator, label: string): Promise<void>;
  /**
   * Opens the light bulb's menu (Ctrl+.) where `place()` puts the cursor, until `fix` (a row of the menu,
   * `.action-widget .monaco-list-row`) is in it. The quick fixes come from the extension host when it gets
   * to them: asked too early, the editor says "No code actions available" (which soon goes away) or shows
   * the menu without them, and a key can be lost on a busy machine; so when neither the row nor a pending
   * answer is in sight for a while (3 s, then twice as long each time), the cursor is placed and the menu
   * asked for again, until `TIMEOUTS.notification`. Throws naming `what`, with a screenshot.
   */
  openQuickFix(fix: Locator, place: () => Promise<void>, what: string): Promise<void>;
  /**
   * Asks for something the editor shows once the extension host answers (a hover's catalog part, a
   * completion list, a quick fix menu) until `shown` is visible: `ask()`, then watch `shown` for a while
   * (3 s, then twice as long each time); when it has not come, `dismiss()` and ask again, until
   * `TIMEOUTS.notification`. A hover or list shown before the extension's answer is not updated by the
   * editor, so waiting longer on one request would not help. Throws naming `what`, with a screenshot.
   */
  askUntilShown(shown: Locator, ask: () => Promise<void>, dismiss: () => Promise<void>, what: string): Promise<void>;
  /**
   * Waits for a notification whose text matches and returns its locator (buttons: `notificationAction`).
   * Normally its toast, hovered (VS Code does not hide a toast under the mouse, so it stays for the caller's
   * reads and clicks). VS Code hides an information toast after 10 s (even one with buttons), and on a busy
   * machine a journey can get there later; the notification then lives on only in the Notifications center.
   * So when the bell says there is a notification not yet seen and no toast is left that could still be it
   * (none, or only progress), the center is opened and the message found there: its item has the same
   * buttons. The center stays open while the caller acts on it; VS Code closes it when its last notification
   * goes (an action ran), and the harness closes it before its next step (a command, a file, the sidebar,
   * `clearNotifications`), so it covers nothing later; the next `waitForNotification` looks in it first (a
   * message that came while it was open is only there) and then closes it.
   */
  waitForNotification(text: RegExp, options?: { timeout?: number }): Promise<Locator>;
  /** A button of a notification (a toast or a Notifications center item), e.g. notificationAction(n, 'Set API Key'). */
  notificationAction(notification: Locator, label: string): Locator;
  /**
   * Closes every notification the user could still see: each visible toast, then (when the bell still says
   * there are some, e.g. a toast VS Code hid by itself) everything in the Notifications center but running
   * progress, so a later `waitForNotification` cannot take an old message for a new one. The center is closed.
   */
  clearNotifications(): Promise<void>;
  /**
   * The text of every notification there is, toasts and those whose toast is gone (read in the Notifications
   * center, which is closed again): for a journey that proves a message was NOT shown, which a look at the
   * toasts alone would miss once VS Code hid it.
   */
  notificationTexts(): Promise<string[]>;
  /** Text of the whole status bar. */
  statusBarText(): Promise<string>;
  /** Waits for a status bar item whose text or accessible label matches; returns it. */
  waitForStatusBarItem(text: RegExp, options?: { timeout?: number }): Promise<Locator>;
  /** Adds an API key through "AI Gateway: Add API Key" (both input boxes), as a user would. */
  addKey(name: string, secret: string): Promise<void>;
  /**
   * A key revoked in the portal after it was added (Add API Key refuses a key that is already revoked):
   * registers a fresh User key on the local gateway, adds it through the palette (checked, saved and
   * active), then revokes it there. Returns the secret.
   */
  addKeyThenRevoke(name: string): Promise<string>;
  /** Opens the AI Gateway activity bar container (activates the extension through its views). */
  openAiGatewaySidebar(): Promise<void>;
  /**
   * Opens the AI Gateway sidebar with only the view titled `view` expanded (the container holds five
   * views; a tree squeezed between them renders only its first rows, the rest are virtualised away).
   */
  showOnlySidebarView(view: string): Promise<void>;
  /** Waits (generously) until `locator` is visible; on timeout throws naming `what`, with a screenshot. */
  expectVisible(locator: Locator, what: string, options?: { timeout?: number }): Promise<Locator>;
  /** The content of a webview (panel tab or sidebar view) with this title, through nested frame locators. */
  webviewFrame(viewTitle: string | RegExp, options?: { timeout?: number; tabsOnly?: boolean }): Promise<FrameLocator>;
  /**
   * The chat tab's content. A chat tab carries its conversation's title (#29.7), so it is found as the
   * active editor tab with a webview whose title matches `title` (default: any; journeys open no other
   * webview editor while they look for it), never the sidebar's Chat view.
   */
  chatTab(title?: RegExp, options?: { timeout?: number }): Promise<FrameLocator>;
  /** Saves .e2e-artifacts/<name>.png; with docs (and AI_GATEWAY_E2E_DOCS=1) also docs/screenshots/<name>.png, and with walkthrough (a region) also media/walkthrough/<name>.jpg (shipped: the walkthrough shows it). */
  screenshot(name: string, options?: { docs?: boolean; walkthrough?: Locator }): Promise<string>;
  /**
   * The text of `file` (relative to the workspace) once the editor has saved the change a journey waits for:
   * at every poll, while any tab holds unsaved changes, File: Save All Files (the extension host applies its
   * edit when it gets to it, so a change can come after a save); then the file is read. A read can meet the
   * editor's write mid-way (the file truncated, then written), so the text counts only when two reads in a
   * row agree and `accept` takes it (false or a throw: not yet; a throw's message is kept for the failure).
   * Until `TIMEOUTS.notification`, then throws naming `what` with the last text read.
   */
  savedText(file: string, accept: (text: string) => boolean | void, what: string): Promise<string>;
  /** Stops the browser, code-server (whole process group) and the gateway; removes the temp folders. */
  close(): Promise<void>;
}

/** Launches gateway + code-server + Chromium and waits until the workbench is ready. */
export async function launchEditor(options: LaunchOptions): Promise<Editor> {
  const shared = options.ownServer || options.locale ? undefined : sharedServer();
  if (shared) return launchOnSharedServer(options, shared);
  const started = Date.now();
  const env = await prepareEditor();
  const tmp = mkdtempSync(join(tmpdir(), `aigw-e2e-${options.name.replace(/[^a-z0-9-]/gi, '-')}-`));
  const userDataDir = join(tmp, 'user-data');
  const workspace = join(tmp, 'blog');
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const logFile = join(ARTIFACTS_DIR, `${options.name}.code-server.log`);
  rmSync(logFile, { force: true });

  const files = options.workspaceFiles ?? sampleWorkspaceFiles();
  mkdirSync(workspace, { recursive: true });
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(dirname(join(workspace, rel)), { recursive: true });
    writeFileSync(join(workspace, rel), content);
  }

  const cleanups: Array<() => Promise<void>> = [];
  const cleanup = async (): Promise<void> => {
    for (const fn of cleanups.reverse()) await fn().catch(() => undefined);
    cleanups.length = 0;
    rmSync(tmp, { recursive: true, force: true });
  };

  try {
    const gateway = options.gatewayUrl ? undefined : await startGateway(options.gateway ?? {});
    if (gateway) cleanups.push(() => gateway.close());
    const gatewayUrl = options.gatewayUrl ?? gateway?.url ?? '';
    writeUserSettings(userDataDir, { ...BASE_SETTINGS, 'aiGateway.baseUrl': gatewayUrl, ...options.settings });
    if (options.locale) writeLanguagePack(userDataDir, options.locale);
    if (options.keybindings) writeFileSync(join(userDataDir, 'User', 'keybindings.json'), JSON.stringify(options.keybindings, null, 2));

    // The address is configured through the settings above (user and machine scope), the only source
    // an installed extension honours; the variables are blanked so the host never sees stray ones.
    const hostEnv: NodeJS.ProcessEnv = { AI_GATEWAY_BASE_URL: '', AI_GATEWAY_HOSTING_BASE_URL: '' };
    const server = await startCodeServer({ node24: env.node24, entry: env.codeServerEntry, userDataDir, extensionsDir, env: hostEnv, logFile, locale: options.locale, lean: true });
    cleanups.push(server.stop);

    const browser: Browser = await chromium.launch({ executablePath: env.chromium, headless: true, args: CHROMIUM_ARGS });
    cleanups.push(() => browser.close());
    const context: BrowserContext = await browser.newContext(contextOptions(options.viewport));
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    const page = await context.newPage();
    page.setDefaultTimeout(TIMEOUTS.ui);
    const url = `${server.url}/?folder=${encodeURIComponent(workspace)}`;
    await page.goto(url, { timeout: TIMEOUTS.workbench });
    await waitForWorkbench(page, workspace, options.locale);
    console.error(`[e2e] ${options.name}: editor ready in ${((Date.now() - started) / 1000).toFixed(1)} s (own code-server)`);
    return makeEditor({ page, gateway, gatewayUrl, workspace, userDataDir, url, name: options.name, close: cleanup });
  } catch (e) {
    await cleanup();
    throw e;
  }
}

/** launchEditor() on the group's code-server and Chromium (see `SharedServer`). */
async function launchOnSharedServer(options: LaunchOptions, shared: SharedServer): Promise<Editor> {
  const started = Date.now();
  const tmp = mkdtempSync(join(tmpdir(), `aigw-e2e-${options.name.replace(/[^a-z0-9-]/gi, '-')}-`));
  const workspace = join(tmp, 'blog');
  const files = options.workspaceFiles ?? sampleWorkspaceFiles();
  mkdirSync(workspace, { recursive: true });
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(dirname(join(workspace, rel)), { recursive: true });
    writeFileSync(join(workspace, rel), content);
  }
  const cleanups: Array<() => Promise<void>> = [];
  const cleanup = async (): Promise<void> => {
    for (const fn of cleanups.reverse()) await fn().catch(() => undefined);
    cleanups.length = 0;
    rmSync(tmp, { recursive: true, force: true });
  };
  try {
    // Whatever an earlier journey left running (its close() stops it too) goes before the profile is wiped.
    await stopExtensionHosts(shared.pgid);
    resetSharedProfile(shared.userDataDir);
    const gateway = options.gatewayUrl ? undefined : await startGateway(options.gateway ?? {});
    if (gateway) cleanups.push(() => gateway.close());
    const gatewayUrl = options.gatewayUrl ?? gateway?.url ?? '';
    writeUserSettings(shared.userDataDir, { ...BASE_SETTINGS, 'aiGateway.baseUrl': gatewayUrl, ...options.settings });
    if (options.keybindings) writeFileSync(join(shared.userDataDir, 'User', 'keybindings.json'), JSON.stringify(options.keybindings, null, 2));
    cleanups.push(() => stopExtensionHosts(shared.pgid));

    const browser: Browser = await chromium.connect(shared.wsEndpoint, { timeout: TIMEOUTS.ui });
    cleanups.push(() => browser.close());
    const context: BrowserContext = await browser.newContext(contextOptions(options.viewport));
    cleanups.push(() => context.close());
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: shared.url });
    const page = await context.newPage();
    page.setDefaultTimeout(TIMEOUTS.ui);
    const url = `${shared.url}/?folder=${encodeURIComponent(workspace)}`;
    await page.goto(url, { timeout: TIMEOUTS.workbench });
    await waitForWorkbench(page, workspace);
    console.error(`[e2e] ${options.name}: editor ready in ${((Date.now() - started) / 1000).toFixed(1)} s (the ${shared.name} group's code-server)`);
    return makeEditor({ page, gateway, gatewayUrl, workspace, userDataDir: shared.userDataDir, url, name: options.name, close: cleanup });
  } catch (e) {
    await cleanup();
    throw e;
  }
}

/**
 * Opens Chromium on an editor that is already running (e.g. `npm start`'s sandbox) and returns the same
 * helpers. `close()` closes the browser only.
 */
export async function connectEditor(options: { url: string; workspace: string; name: string; gatewayUrl?: string; viewport?: { width: number; height: number } }): Promise<Editor> {
  const [{ findChromium }] = await loadScripts();
  const browser = await chromium.launch({ executablePath: findChromium(), headless: true, args: CHROMIUM_ARGS });
  try {
    const context = await browser.newContext(contextOptions(options.viewport));
    const page = await context.newPage();
    page.setDefaultTimeout(TIMEOUTS.ui);
    await page.goto(options.url, { timeout: TIMEOUTS.workbench });
    await waitForWorkbench(page, options.workspace);
    return makeEditor({ page, gateway: undefined, gatewayUrl: options.gatewayUrl ?? '', workspace: options.workspace, userDataDir: join(options.workspace, '..', 'user-data'), url: options.url, name: options.name, close: () => browser.close() });
  } catch (e) {
    await browser.close();
    throw e;
  }
}

/**
 * The activity-bar title of the extension's container in the editor's display language: the manifest's
 * `%viewsContainer.aiGateway.title%` from package.nls.<locale>.json (the pseudo-locale's is generated
 * before packaging), else the English one.
 */
function containerTitle(locale: string | undefined): string {
  for (const file of [...(locale ? [`package.nls.${locale}.json`] : []), 'package.nls.json']) {
    const path = join(ROOT, file);
    if (!existsSync(path)) continue;
    const title = (JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>)['viewsContainer.aiGateway.title'];
    if (typeof title === 'string') return title;
  }
  return 'AI Gateway';
}

async function waitForWorkbench(page: Page, workspace: string, locale?: string): Promise<void> {
  await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: TIMEOUTS.workbench });
  await page.locator('#workbench\\.parts\\.statusbar').waitFor({ state: 'visible', timeout: TIMEOUTS.workbench });
  // The explorer shows the folder name once the remote extension host connection and file service are up.
  const folderName = workspace.split('/').pop() ?? '';
  await page
    .locator('#workbench\\.parts\\.sidebar')
    .getByText(folderName, { exact: false })
    .first()
    .waitFor({ state: 'visible', timeout: TIMEOUTS.workbench });
  // The palette lists contributed commands as soon as the manifest is known, but running one fails with
  // "command not found" until the extension host has registered the extension. Its activity-bar
  // container appears only then, so a journey starts once it is there.
  await page
    .locator(`#workbench\\.parts\\.activitybar .action-item a[aria-label^="${containerTitle(locale)}"], .activitybar .action-label[aria-label^="${containerTitle(locale)}"]`)
    .first()
    .waitFor({ state: 'attached', timeout: TIMEOUTS.workbench });
}

/**
 * Runs in the page (a string: the host tsconfig has no DOM types). Finds the visible webview overlay
 * laid over the editor tab or view pane titled `source` and tags it with data-e2e=<tag>.
 */
const TAG_WEBVIEW_FOR_TITLE = new Function(
  'args',
  `const { source, tag, tabsOnly } = args;
  const re = new RegExp(source, 'i');
  const visible = (el) => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0 ? r : undefined; };
  const targets = [];
  for (const tab of document.querySelectorAll('.tab.active')) {
    if (re.test(tab.getAttribute('aria-label') || tab.textContent || '')) {
      const group = tab.closest('.editor-group-container')?.querySelector('.editor-container');
      const r = group && visible(group);
      if (r) targets.push(r);
    }
  }
  for (const header of tabsOnly ? [] : document.querySelectorAll('.pane-header, .composite.title')) {
    if (re.test(header.getAttribute('aria-label') || header.textContent || '')) {
      const body = header.closest('.pane')?.querySelector('.pane-body') || header.parentElement?.querySelector('.content');
      const r = body && visible(body);
      if (r) targets.push(r);
    }
  }
  for (const frame of document.querySelectorAll('iframe.webview')) {
    const fr = visible(frame);
    // A retained webview of a background tab keeps its size, hidden by visibility.
    if (!fr || getComputedStyle(frame).visibility === 'hidden') continue;
    const cx = fr.left + fr.width / 2, cy = fr.top + fr.height / 2;
    if (targets.some((t) => cx >= t.left && cx <= t.right && cy >= t.top && cy <= t.bottom)) {
      // One frame per tag: a frame tagged earlier for this title (now behind another tab) loses it.
      for (const old of document.querySelectorAll('iframe.webview[data-e2e="' + tag + '"]')) old.removeAttribute('data-e2e');
      frame.setAttribute('data-e2e', tag);
      return true;
    }
  }
  return false;`,
) as (args: { source: string; tag: string; tabsOnly?: boolean }) => boolean;

/**
 * Runs in the page: true once the quick input no longer shows `value` (it closed, or the next step or
 * the command's own picker took its place), i.e. the value was accepted.
 */
const PALETTE_LEFT = new Function(
  'args',
  `const widget = document.querySelector('.quick-input-widget');
  if (!widget || widget.style.display === 'none' || widget.getBoundingClientRect().height === 0) return true;
  const box = widget.querySelector('.quick-input-box input');
  return !box || box.value !== args.value;`,
) as (args: { value: string }) => boolean;

function makeEditor(s: {
  page: Page;
  gateway: RunningGateway | undefined;
  gatewayUrl: string;
  workspace: string;
  userDataDir: string;
  url: string;
  name: string;
  close: () => Promise<void>;
}): Editor {
  const { page } = s;
  const quickInput = page.locator('.quick-input-widget');
  const quickInputBox = quickInput.locator('.quick-input-box input');
  const notificationsToasts = page.locator('.notifications-toasts .notification-toast');
  const notificationsCenter = page.locator('.notifications-center.visible');
  const centerItems = notificationsCenter.locator('.notification-list-item');
  /** The bell in the status bar: toggles the Notifications center; shows a dot while a notification is not yet seen. */
  const bell = page.locator('#status\\.notifications');
  const bellUnseen = bell.locator('.codicon-bell-dot, .codicon-bell-slash-dot');
  /** Toasts VS Code may still hide by itself or that the user can close: all but running progress. */
  const passingToasts = notificationsToasts.filter({ visible: true, hasNot: page.locator('.monaco-progress-container.active') });
  /** True while the Notifications center is open because `waitForNotification` opened it. */
  let centerOpenedHere = false;
  /** True once the harness has opened the center since the last `clearNotifications` (which clears it then). */
  let centerSeen = false;
  /** A modal dialog (e.g. "open the external website?") takes every click until it is answered. */
  const modalDialog = page.locator('.monaco-dialog-box').filter({ visible: true });
  const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

  /**
   * Opens the Notifications center through its bell (as a user does), until it shows; false (nothing opened)
   * while a modal dialog holds the page, which takes every click until the journey answers it.
   */
  const openCenter = async (): Promise<boolean> => {
    for (let attempt = 0; !(await notificationsCenter.isVisible().catch(() => false)); attempt++) {
      if ((await modalDialog.count().catch(() => 0)) > 0) return false;
      if (attempt >= 5) throw new Error('the Notifications center did not open from its bell');
      await bell.click({ timeout: 5_000 }).catch(() => undefined);
      await notificationsCenter.waitFor({ state: 'visible', timeout: 5_000 }).catch(() => undefined);
    }
    // From now on its notifications count as seen (no dot): clearNotifications must look there itself.
    centerSeen = true;
    await leaveBell();
    return true;
  };
  /**
   * Takes the mouse off the bell after a click on it: resting there, it brings up the bell's hover, which
   * lies over the center's lowest item and took a click meant for its Accept (the sandbox journey, under
   * load). The window's top-left corner is far from the center and the toasts.
   */
  const leaveBell = (): Promise<void> => page.mouse.move(1, 1).catch(() => undefined);
  /** Closes the Notifications center through its bell, until it is gone. */
  const closeCenter = async (): Promise<void> => {
    let attempt = 0;
    for (; await notificationsCenter.isVisible().catch(() => false); attempt++) {
      if (attempt >= 5) throw new Error('the Notifications center did not close from its bell');
      await bell.click({ timeout: TIMEOUTS.ui / 6 }).catch(() => undefined);
      await notificationsCenter.waitFor({ state: 'hidden', timeout: 5_000 }).catch(() => undefined);
    }
    if (attempt > 0) await leaveBell();
  };
  /**
   * Closes the Notifications center if `waitForNotification` opened it, so it covers nothing later (VS Code
   * closes it itself once it is empty). Unless `quickInputToo` (the step opens its own quick input anyway),
   * not while a quick input is open (a command the notification's button ran): the bell would take its focus
   * and close it; the next step that opens one closes the center first.
   */
  const closeCenterOpenedHere = async (quickInputToo = false): Promise<void> => {
    if (!centerOpenedHere || (!quickInputToo && (await quickInput.isVisible().catch(() => false)))) return;
    centerOpenedHere = false;
    await closeCenter();
  };

  /**
   * Opens the quick input with a shortcut: the command palette (F1, else Ctrl+Shift+P) or, with
   * `files`, Quick Open's file list (Ctrl+P, what Go to File runs, without going through the palette).
   * Each try waits 5 s for it (it shows within a second when the key arrived; a key lost to a busy
   * workbench is pressed again rather than waited for), for about a minute in all.
   */
  const openQuickInput = async (files = false): Promise<void> => {
    const name = files ? 'Quick Open' : 'the command palette';
    if (await quickInput.isVisible()) {
      // Another quick input (a picker a step left open, the palette) would take Ctrl+P as a filter key, or
      // the palette's '>' text as its own filter (a command's quick pick is no palette): close it first,
      // from its own box (the keyboard focus may be elsewhere, e.g. in the Notifications center).
      await quickInputBox.focus().catch(() => undefined);
      await page.keyboard.press('Escape');
      await quickInput.waitFor({ state: 'hidden', timeout: TIMEOUTS.ui });
    }
    for (let attempt = 0; attempt < 12; attempt++) {
      if (!(await quickInput.isVisible())) {
        // Focus the workbench (not a webview iframe, which would swallow the key) before the shortcut.
        await page.locator('#workbench\\.parts\\.statusbar').click({ position: { x: 2, y: 2 } }).catch(() => undefined);
        await page.keyboard.press(files ? 'Control+P' : attempt % 2 === 0 ? 'F1' : 'Control+Shift+P');
      }
      try {
        await quickInput.waitFor({ state: 'visible', timeout: 5_000 });
        return;
      } catch {
        console.error(`[e2e] ${s.name}: ${name} did not open (attempt ${attempt + 1}), retrying`);
        await page.keyboard.press('Escape');
      }
    }
    throw new Error(`${name} did not open (${files ? 'Ctrl+P' : 'F1 / Ctrl+Shift+P'}).`);
  };
  const openPalette = (): Promise<void> => openQuickInput(false);

  /** Logs a retried step (once per retry): where a journey's time went shows in the runner's log. */
  const retryNote = (what: string, e: unknown): void => {
    const first = (e instanceof Error ? e.message : String(e)).split('\n')[0]?.slice(0, 200);
    console.error(`[e2e] ${s.name}: ${what} failed, retrying: ${first}`);
    if (process.env.E2E_DEBUG_RETRY) console.error(e instanceof Error ? e.message : String(e));
  };

  /**
   * Runs `step` (a wait on Quick Open's content) but gives up as soon as Quick Open has been closed for
   * a while (several consecutive polls, so the moment between the palette and the next picker does not
   * count): the caller then opens it again instead of waiting out the step's whole deadline.
   */
  const whileQuickOpen = async <T>(step: () => Promise<T>, what: string): Promise<T> => {
    let settled = false;
    const closed = (async (): Promise<never> => {
      for (let hiddenPolls = 0; !settled; ) {
        hiddenPolls = (await quickInput.isVisible().catch(() => false)) ? 0 : hiddenPolls + 1;
        if (hiddenPolls >= 10) throw new Error(`Quick Open closed before: ${what}`);
        // A poll period, not a delay anything depends on: the next probe decides.
        await new Promise((r) => setTimeout(r, 200));
      }
      return new Promise<never>(() => undefined);
    })();
    closed.catch(() => undefined);
    try {
      return await Promise.race([step(), closed]);
    } finally {
      settled = true;
    }
  };

  /**
   * Sets the quick input's value once its box is there and editable, polling (not one long fill(), which
   * would keep waiting after the box went away and could then type into the next quick input): throws
   * as soon as the quick input has been closed for a while, so the caller opens it again at once.
   */
  /** The error of a quick-input step past its deadline: what the quick input showed instead, with a picture. */
  const quickInputTimedOut = async (what: string): Promise<Error> => {
    const rows = await quickInput.locator('.monaco-list-row').allInnerTexts().catch(() => []);
    const shot = await editor.screenshot(`${s.name}-quick-input-${Date.now()}`).catch(() => 'none');
    return new Error(`Timed out: ${what} (rows shown: ${JSON.stringify(rows.map((r) => r.replace(/\s+/g, ' ').trim()))}; screenshot ${shot})`);
  };
  const fillQuickInput = async (value: string, what: string): Promise<void> => {
    const deadline = Date.now() + TIMEOUTS.ui;
    let hiddenPolls = 0;
    for (;;) {
      if (await quickInputBox.isVisible().catch(() => false)) {
        hiddenPolls = 0;
        // Bounded: the box was just seen; if it is inert (mid-animation, a dialog above it) or went away
        // meanwhile, the loop decides. Awaited, so no fill is left pending for a later quick input.
        if (await quickInputBox.fill(value, { timeout: TIMEOUTS.ui / 6 }).then(() => true, () => false)) return;
      } else if (++hiddenPolls >= 10) {
        throw new Error(`Quick Open closed before: ${what}`);
      }
      if (Date.now() > deadline) throw await quickInputTimedOut(what);
      // A poll period, not a delay anything depends on: the next probe decides.
      await new Promise((r) => setTimeout(r, 200));
    }
  };

  /**
   * Clicks a row of the open quick input while it still shows `value`, in short bounded tries (never one
   * long click(), which keeps waiting for a row that left with its closed quick input and would end only at
   * its whole deadline, 60 s, e.g. when the walkthrough or a toast took the focus just as the row showed,
   * or a closing quick input let the workbench take the click): throws as soon as the quick input has been
   * closed, or shows another value, for a while, so the caller opens it again at once.
   */
  const clickQuickInputRow = async (row: Locator, value: string, what: string): Promise<void> => {
    const deadline = Date.now() + TIMEOUTS.ui;
    for (let gonePolls = 0; ; ) {
      const shown = (await quickInput.isVisible().catch(() => false)) && (await quickInputBox.inputValue({ timeout: 1_000 }).catch(() => undefined)) === value;
      if (shown) {
        gonePolls = 0;
        // Bounded and awaited, so no click is left pending for a later quick input.
        if (await row.click({ timeout: 2_000 }).then(() => true, () => false)) return;
        // Not listed (yet): the command palette lists the commands registered when its filter last
        // changed, and one registered since (a built-in extension still activating) shows only once the
        // filter changes again, so the filter is set anew (a step away and back) before the next look.
        if (value.startsWith('>') && !(await row.isVisible().catch(() => false))) {
          await quickInputBox.fill(value.slice(0, -1), { timeout: 1_000 }).catch(() => undefined);
          await quickInputBox.fill(value, { timeout: 1_000 }).catch(() => undefined);
        }
      } else if (++gonePolls >= 10) {
        throw new Error(`Quick Open closed before: ${what}`);
      }
      if (Date.now() > deadline) throw await quickInputTimedOut(what);
      // A poll period, not a delay anything depends on: the next probe decides.
      await new Promise((r) => setTimeout(r, 200));
    }
  };

  /** Has the workbench write its state (the open editors) before a reload: SAVE_WORKBENCH_STATE. */
  const saveWorkbenchState = async (): Promise<void> => {
    const saved = await page.evaluate(`(${SAVE_WORKBENCH_STATE})(${TIMEOUTS.ui})`).then((r) => r === true, () => false);
    if (!saved) {
      const shot = await editor.screenshot(`${s.name}-state-not-saved`).catch(() => 'none');
      throw new Error(`reload(): the workbench's state write did not end within ${TIMEOUTS.ui / 1000} s, so the reload could lose the open editors; nothing was reloaded. Screenshot: ${shot}`);
    }
  };

  const editor: Editor = {
    page,
    gateway: s.gateway,
    gatewayUrl: s.gatewayUrl,
    workspace: s.workspace,
    userDataDir: s.userDataDir,
    url: s.url,

    async runCommand(title) {
      await closeCenterOpenedHere(true);
      const exact = new RegExp(`^${escapeRegExp(title)}(?:$|[,\\s])`);
      let lastError: unknown;
      for (let attempt = 0; attempt < 3; attempt++) {
        try {
          await openPalette();
          // fill() sets the whole value at once: no keystrokes lost on a loaded machine. The palette
          // can close meanwhile (something else took the focus): then try again at once, not after
          // the fill's whole deadline.
          await fillQuickInput(`>${title}`, `fill the palette with ${title}`);
          const row = quickInput.locator('.monaco-list-row').filter({ has: page.locator('.label-name', { hasText: exact }) }).first();
          await clickQuickInputRow(row, `>${title}`, `${title} in the palette`);
          // The palette closes as soon as it accepts (the command's own input box or quick pick may
          // reuse the widget, with another value): until then the click was not taken, so try again.
          await page.waitForFunction(
            PALETTE_LEFT,
            { value: `>${title}` },
            { timeout: TIMEOUTS.ui, polling: 100 },
          );
          return;
        } catch (e) {
          lastError = e;
          retryNote(`runCommand(${title}) attempt ${attempt + 1}`, e);
          await page.keyboard.press('Escape').catch(() => undefined);
          await quickInput.waitFor({ state: 'hidden', timeout: TIMEOUTS.ui }).catch(() => undefined);
        }
      }
      throw new Error(`Command "${title}" was not found in the palette: ${lastError instanceof Error ? lastError.message : String(lastError)}`);
    },

    async reload() {
      // Unsaved editors (a tab marked dirty): refused up front, named. (VS Code 1.139's modal editor has no
      // tab and shows no unsaved mark: a journey closes one it saved before reloading, customEndpoint.e2e.ts.)
      const unsaved = await page.locator('.tab.dirty').evaluateAll((tabs: ReadonlyArray<{ getAttribute(n: string): string | null; textContent: string | null }>) =>
        tabs.map((t) => t.getAttribute('aria-label') ?? t.textContent ?? ''),
      );
      if (unsaved.length > 0) {
        throw new Error(`reload() with unsaved editors ${JSON.stringify(unsaved)}: save or revert them first (the browser would ask to leave them, or restore them unsaved)`);
      }
      // The workbench refuses to go (the browser's "leave site?" prompt) while a save or a backup is still
      // under way, which a reload right after Ctrl+S meets, and while something is unsaved. The prompt is
      // answered "stay" (nothing is thrown away; the browser driver's default would be "leave") and the
      // reload asked again once the workbench has had a moment, until TIMEOUTS.ui; then it fails naming
      // what the workbench logged as the reason ("[lifecycle] ... (id: veto.textFiles)"), with a screenshot.
      const said: string[] = [];
      const onConsole = (m: ConsoleMessage): void => {
        const t = m.text();
        if (/lifecycle|veto/i.test(t)) said.push(t.replace(/%c|color: #\w+/g, '').trim().slice(0, 300));
      };
      // The browser's reload does not wait for the workbench to write its state (the open editors) to
      // IndexedDB: that happens on a focus loss, every 60 s while focused, and at the unload, where the
      // write can be cut off; a chat tab opened seconds before came back missing (the chat journey). So
      // first the workbench is made to save, and the write waited for.
      await saveWorkbenchState();
      page.on('console', onConsole);
      try {
        const deadline = Date.now() + TIMEOUTS.ui;
        for (let attempt = 1; ; attempt++) {
          said.length = 0;
          let onDialog: (d: Dialog) => void = () => undefined;
          const refused = new Promise<string>((resolve) => {
            onDialog = (d) => {
              if (d.type() !== 'beforeunload') return;
              void d.dismiss().catch(() => undefined);
              resolve(d.message() || 'beforeunload');
            };
          });
          page.on('dialog', onDialog);
          try {
            const outcome = await Promise.race([page.reload({ waitUntil: 'load', timeout: TIMEOUTS.workbench }).then(() => undefined), refused]);
            if (outcome === undefined) break;
          } finally {
            page.off('dialog', onDialog);
          }
          if (Date.now() > deadline) {
            const shot = await editor.screenshot(`${s.name}-reload-refused`).catch(() => 'none');
            throw new Error(`reload(): the workbench kept refusing to leave the page (${attempt} tries): something is unsaved or still being saved; nothing was reloaded. It said: ${JSON.stringify(said)}. Screenshot: ${shot}`);
          }
          retryNote(`reload() attempt ${attempt}`, new Error(`refused: ${JSON.stringify(said)}`));
          // A poll period, not a delay anything depends on: the next try decides.
          await sleep(500);
        }
      } finally {
        page.off('console', onConsole);
      }
      centerOpenedHere = false;
      centerSeen = false;
      await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: TIMEOUTS.workbench });
      await page.locator('#workbench\\.parts\\.statusbar').waitFor({ state: 'visible', timeout: TIMEOUTS.workbench });
    },

    async fillInputBox(text, options) {
      // A command's first input box can wait for the extension to activate, which on a busy machine
      // comes long after the workbench: as long a deadline as the workbench's.
      await editor.expectVisible(quickInput, 'the input box', { timeout: TIMEOUTS.workbench });
      if (options?.title !== undefined) {
        const t = options.title;
        await editor.expectVisible(quickInput.locator('.quick-input-title').filter({ hasText: t }), `the input box titled ${String(t)}`, { timeout: TIMEOUTS.workbench });
      }
      await quickInputBox.fill(text);
      // The workbench validates the value on Enter itself and accepts it only if valid, so no wait for
      // the validation is needed before it; after it, wait until this input box has left (closed, or
      // replaced by the next step, which starts empty), else report the validation message.
      await quickInputBox.press('Enter');
      try {
        await page.waitForFunction(PALETTE_LEFT, { value: text }, { timeout: TIMEOUTS.ui, polling: 100 });
      } catch (e) {
        const message = (await quickInput.locator('.quick-input-message').innerText().catch(() => '')).trim();
        throw new Error(`The input box did not accept the value${message ? `: ${message}` : ''}`, { cause: e });
      }
    },

    async openFile(path, options) {
      await closeCenterOpenedHere(true);
      const base = path.split('/').pop() ?? path;
      const tab = page.locator(`.tab${options?.active === false ? '' : '.active'}[data-resource-name="${base}"]`).first();
      const focusedRow = quickInput.locator('.monaco-list-row.focused .label-name').first();
      const isFile = new RegExp(`^\\s*${escapeRegExp(base)}\\s*$`);
      for (let attempt = 1; ; attempt++) {
        try {
          await openQuickInput(true);
          // Quick Open closes when something takes the focus meanwhile (the extension activating on the
          // first file, a walkthrough, a toast): its input box is then gone, and a plain fill() would wait
          // out the page's whole deadline (60 s) before this loop opens it again. So each step below also
          // ends as soon as Quick Open is closed, and the attempt starts over at once.
          await fillQuickInput(path, `fill Quick Open with ${path}`);
          await whileQuickOpen(
            () => pollUntil(() => focusedRow.innerText().catch(() => ''), (t) => isFile.test(t), `Quick Open focuses ${base}`),
            `Quick Open focuses ${base}`,
          );
          await quickInputBox.press('Enter', { timeout: TIMEOUTS.ui / 4 });
          await tab.waitFor({ state: 'visible', timeout: TIMEOUTS.ui / 2 });
          return;
        } catch (e) {
          retryNote(`openFile(${path}) attempt ${attempt}`, e);
          if (attempt >= 3) {
            // What the workbench showed instead, so a failure on a busy machine can be told apart from a
            // wrong row or a file the editor opened elsewhere.
            const tabs = await page.locator('.tab').allTextContents().catch(() => []);
            const rows = await quickInput.locator('.monaco-list-row').allTextContents().catch(() => []);
            const shot = await editor.screenshot(`open-${path.replace(/[^\w.-]/g, '_')}-failure`).catch(() => 'none');
            throw new Error(`${path} did not open; tabs ${JSON.stringify(tabs)}, Quick Open rows ${JSON.stringify(rows)}; screenshot ${shot}`, { cause: e });
          }
          if (await quickInput.isVisible()) await page.keyboard.press('Escape');
        }
      }
    },

    async pickQuickPickItem(label) {
      await quickInput.waitFor({ state: 'visible', timeout: TIMEOUTS.ui });
      const row = quickInput.locator('.monaco-list-row').filter({ hasText: label }).first();
      await row.waitFor({ state: 'visible', timeout: TIMEOUTS.ui });
      await row.click();
    },

    async waitForNotification(text, options) {
      const deadline = Date.now() + (options?.timeout ?? TIMEOUTS.notification);
      const toast = notificationsToasts.filter({ hasText: text }).last();
      // The center lists the newest first.
      const item = centerItems.filter({ hasText: text }).first();
      // A center left open by an earlier wait: a message that came while it was open is only there, and
      // counts as seen (no dot on the bell), so look there first. Else close it, so this message shows as a
      // toast; but one may have come between that look and the close: when no toast matches for a while
      // (polls, not a delay anything depends on: with the center open again, a later message lands there and
      // is found there too), the center is opened once more.
      let lookInCenterAfter = Infinity;
      if (centerOpenedHere && !(await quickInput.isVisible().catch(() => false)) && (await notificationsCenter.isVisible().catch(() => false))) {
        if (await item.isVisible().catch(() => false)) return item;
        lookInCenterAfter = 25;
      }
      await closeCenterOpenedHere();
      for (let polls = 0; ; polls++) {
        if (await notificationsCenter.isVisible().catch(() => false)) {
          // (While the center is open, VS Code shows new notifications there, not as toasts.)
          if (await item.isVisible().catch(() => false)) return item;
        } else if (await toast.isVisible().catch(() => false)) {
          // Under the mouse, the toast stays until the caller has read it and clicked its buttons. Forced and
          // short: a modal dialog over the page (a sign-in question right after the message) would make an
          // actionable hover wait until VS Code had hidden the toast, and a modal keeps the center shut.
          await toast.hover({ timeout: 2_000, force: true }).catch(() => undefined);
          return toast;
        } else if (
          (await modalDialog.count().catch(() => 1)) === 0 &&
          (polls >= lookInCenterAfter ||
            ((await bellUnseen.count().catch(() => 0)) > 0 && (await passingToasts.count().catch(() => 1)) === 0))
        ) {
          // A notification not yet seen and no toast left that could still be this one, or the center closed
          // above may hold it: it is in the center.
          lookInCenterAfter = Infinity;
          centerOpenedHere = await openCenter();
          continue;
        }
        if (Date.now() > deadline) break;
        // A poll period, not a delay anything depends on: the next probe decides.
        await sleep(200);
      }
      // Say what was on screen instead: most failures are a different message, not no message.
      const shown = await notificationsToasts.allInnerTexts().catch(() => []);
      const listed = await centerItems.allInnerTexts().catch(() => []);
      const shot = await editor.screenshot(`${s.name}-failure-${Date.now()}`).catch(() => 'none');
      const flat = (ts: string[]): string => JSON.stringify(ts.map((t) => t.replace(/\s+/g, ' ').trim()));
      throw new Error(`No notification matching ${String(text)}. Visible toasts: ${flat(shown)}; in the open Notifications center: ${flat(listed)}. Screenshot: ${shot}`);
    },

    notificationAction(notification, label) {
      return notification.locator('.monaco-button').filter({ hasText: new RegExp(`^\\s*${escapeRegExp(label)}\\s*$`) }).first();
    },

    async clearNotifications() {
      // A toast shows its clear button only while hovered or focused: hover each one, then clear it.
      // A toast without one (a progress that cannot be dismissed) is left alone.
      const toasts = page.locator('.notifications-toasts .notification-toast');
      let hovered = false;
      for (let i = 0, skipped = 0; i < 20; i++) {
        const toast = toasts.nth(skipped);
        if (!(await toast.isVisible().catch(() => false))) break;
        const close = toast.locator('.codicon-notifications-clear').first();
        if ((await close.count()) === 0) {
          skipped++;
          continue;
        }
        hovered = true;
        await toast.hover().catch(() => undefined);
        await close.click({ timeout: 5_000 }).catch(() => undefined);
      }
      if (hovered) await page.mouse.move(0, 0).catch(() => undefined);
      // Notifications whose toast VS Code hid by itself are still in the center (the bell's dot says so, or
      // the center is open): Clear All there (it leaves running progress, and closes the center).
      // (Not while a modal dialog holds the page: the journey answers it first; the next call clears then.)
      const centerOpen = await notificationsCenter.isVisible().catch(() => false);
      if ((await modalDialog.count().catch(() => 1)) > 0) return;
      if (centerOpen || centerSeen || ((await bellUnseen.count().catch(() => 0)) > 0 && (await notificationsToasts.filter({ visible: true }).count().catch(() => 1)) === 0)) {
        if (!(await openCenter())) return;
        const clearAll = notificationsCenter.locator('.notifications-center-header .codicon-notifications-clear-all').first();
        // Disabled when nothing in the center can be cleared (empty, or only a running progress): then only close it.
        const nothingToClear = (await clearAll.getAttribute('aria-disabled', { timeout: 5_000 }).catch(() => null)) === 'true';
        if (!nothingToClear && !(await clearAll.click({ timeout: 5_000 }).then(() => true, () => false))) {
          // A modal dialog that came up meanwhile (the step before asked for one) takes the click: the
          // journey answers it; the harness's next step closes the center, the next call clears it.
          if ((await modalDialog.count().catch(() => 0)) > 0) {
            centerOpenedHere = true;
            return;
          }
          await clearAll.click({ timeout: TIMEOUTS.ui / 6 });
        }
        await closeCenter();
        centerSeen = false;
      }
      centerOpenedHere = false;
    },

    async notificationTexts() {
      const wasOpen = await notificationsCenter.isVisible().catch(() => false);
      // Toasts first (opening the center hides them), then the center, which lists every notification.
      const texts: string[] = await notificationsToasts.locator('.notification-list-item-message').allInnerTexts().catch((): string[] => []);
      if (!(await openCenter())) throw new Error('notificationTexts(): a modal dialog holds the page; answer it first');
      texts.push(...(await centerItems.locator('.notification-list-item-message').allInnerTexts()));
      if (!wasOpen) await closeCenter();
      return [...new Set(texts.map((t) => t.replace(/\s+/g, ' ').trim()))];
    },

    async statusBarText() {
      return page.locator('#workbench\\.parts\\.statusbar').innerText();
    },

    async waitForStatusBarItem(text, options) {
      const item = page.locator('#workbench\\.parts\\.statusbar .statusbar-item').filter({ hasText: text }).first();
      await item.waitFor({ state: 'visible', timeout: options?.timeout ?? TIMEOUTS.notification });
      return item;
    },

    async addKey(name, secret) {
      await editor.runCommand('AI Gateway: Add API Key');
      // The palette also closes when the still-loading workbench takes the focus, without running the
      // command: if the first step has not shown by the deadline, run the command once more (a second
      // run only replaces a first one's input box, so nothing is added twice).
      // On a busy machine the command can also run before the extension host registered the extension:
      // VS Code then shows a modal "command … not found", which blocks the window until dismissed.
      const first = quickInput.locator('.quick-input-title').filter({ hasText: /Add API Key \(1\/2\)/ });
      const notFound = page.locator('.monaco-dialog-box').filter({ hasText: /not found/i }).first();
      const outcome = await Promise.race([
        first.waitFor({ state: 'visible', timeout: TIMEOUTS.workbench }).then(() => 'shown' as const, () => 'timeout' as const),
        notFound.waitFor({ state: 'visible', timeout: TIMEOUTS.workbench }).then(() => 'notFound' as const, () => 'timeout' as const),
      ]);
      if (outcome !== 'shown') {
        await editor.screenshot(`${s.name}-add-key-not-shown-${Date.now()}`).catch(() => undefined);
        if (await notFound.isVisible().catch(() => false)) {
          await notFound.locator('.monaco-button').first().click().catch(() => undefined);
          await notFound.waitFor({ state: 'hidden', timeout: TIMEOUTS.ui }).catch(() => undefined);
          // Run it again once the extension is known: its activity-bar container is there from then on.
          await page
            .locator(`#workbench\\.parts\\.activitybar .action-item a[aria-label^="${containerTitle(undefined)}"], .activitybar .action-label[aria-label^="${containerTitle(undefined)}"]`)
            .first()
            .waitFor({ state: 'attached', timeout: TIMEOUTS.workbench });
        }
        await editor.runCommand('AI Gateway: Add API Key');
      }
      await editor.fillInputBox(name, { title: /Add API Key \(1\/2\)/ });
      await editor.fillInputBox(secret, { title: /Add API Key \(2\/2\)/ });
      // The key is checked with the gateway before it is saved (#29.9): every outcome ends in a message
      // naming the key. Waiting for it keeps the next step from racing the check; a refusal that came
      // earlier (a duplicate name or secret) has its own words and is left to the journey to assert.
      await editor.waitForNotification(new RegExp(`API key "${escapeRegExp(name.trim())}"`)).catch(() => undefined);
    },

    async addKeyThenRevoke(name) {
      const gw = s.gateway;
      if (!gw) throw new Error('addKeyThenRevoke needs the local gateway');
      const secret = `svc_pat_local_user_soon_revoked_${Date.now().toString(36)}`;
      gw.keys.add({ secret, name: 'soon revoked', type: 'user', permission: 'full', scopes: allScopes('write'), revoked: false });
      await editor.addKey(name, secret);
      await editor.waitForNotification(new RegExp(`API key .*${escapeRegExp(name)}.* saved and active`));
      gw.keys.revoke(secret);
      return secret;
    },

    async openAiGatewaySidebar() {
      await closeCenterOpenedHere();
      const item = page.locator('#workbench\\.parts\\.activitybar .action-item a[aria-label^="AI Gateway"], .activitybar .action-label[aria-label^="AI Gateway"]').first();
      const title = page.locator('#workbench\\.parts\\.sidebar .composite.title').filter({ hasText: /AI Gateway/i }).first();
      // The container's icon appears once the extension host has registered the extension, which on a
      // busy machine comes well after the workbench ("Activating Extensions…").
      await editor.expectVisible(item, 'the AI Gateway activity bar item', { timeout: TIMEOUTS.workbench });
      // Clicking the active container's icon hides the sidebar: click only while the container is not
      // the active one (its activity bar item is "checked" from the click on, before the title renders).
      const active = page.locator('#workbench\\.parts\\.activitybar .action-item.checked a[aria-label^="AI Gateway"], .activitybar .action-item.checked .action-label[aria-label^="AI Gateway"]').first();
      for (let attempt = 0; attempt < 3; attempt++) {
        if (await title.isVisible().catch(() => false)) return;
        if (!(await active.isVisible().catch(() => false))) await item.click();
        if (await title.waitFor({ state: 'visible', timeout: TIMEOUTS.ui }).then(() => true, () => false)) return;
      }
      await editor.expectVisible(title, 'the AI Gateway sidebar');
    },

    async showOnlySidebarView(view) {
      await editor.openAiGatewaySidebar();
      const headers = page.locator('#workbench\\.parts\\.sidebar .pane-header');
      const wanted = headers.filter({ hasText: new RegExp(`^\\s*${view}`) }).first();
      await editor.expectVisible(wanted, `the ${view} view header`);
      for (let i = 0, n = await headers.count(); i < n; i++) {
        const h = headers.nth(i);
        const isWanted = new RegExp(`^\\s*${view}`).test((await h.innerText().catch(() => '')) ?? '');
        const expanded = (await h.getAttribute('aria-expanded')) === 'true';
        if (expanded !== isWanted) await h.click();
      }
      await page.waitForFunction((el) => el?.getAttribute('aria-expanded') === 'true', await wanted.elementHandle(), { timeout: TIMEOUTS.ui });
    },

    async openQuickFix(fix, place, what) {
      await closeCenterOpenedHere();
      const menu = page.locator('.action-widget').first();
      await editor.askUntilShown(
        fix,
        async () => {
          await place();
          await page.keyboard.press('Control+.');
        },
        async () => {
          if (await menu.isVisible().catch(() => false)) {
            await page.keyboard.press('Escape');
            await menu.waitFor({ state: 'hidden', timeout: TIMEOUTS.ui }).catch(() => undefined);
          }
        },
        `the quick fix menu with ${what}`,
      );
    },

    async askUntilShown(shown, ask, dismiss, what) {
      const deadline = Date.now() + TIMEOUTS.notification;
      for (let attempt = 1, patience = 3_000; ; attempt++, patience *= 2) {
        await ask();
        const asked = Date.now();
        for (;;) {
          if (await shown.isVisible().catch(() => false)) return;
          if (Date.now() > deadline) {
            const shot = await editor.screenshot(`${s.name}-failure-asked-${Date.now()}`).catch(() => 'none');
            throw new Error(`${what} did not show (asked ${attempt} times). Screenshot: ${shot}`);
          }
          if (Date.now() - asked > patience) break;
          // A poll period, not a delay anything depends on: the next probe decides.
          await new Promise((r) => setTimeout(r, 200));
        }
        console.error(`[e2e] ${s.name}: ${what} did not show within ${patience / 1000} s (attempt ${attempt}), asking again`);
        await dismiss();
      }
    },

    async chooseContextMenuItem(row, label) {
      await row.click({ button: 'right' });
      const menu = page.locator('.context-view');
      const item = menu.locator('.action-item', { hasText: label }).first();
      await editor.expectVisible(item, `${label} in the context menu`);
      for (let attempt = 1; ; attempt++) {
        await item.click();
        try {
          await menu.locator('.action-item').first().waitFor({ state: 'hidden', timeout: 10_000 });
          return;
        } catch (e) {
          if (!(await item.isVisible())) return; // it closed just after the wait: the click was taken
          if (attempt >= 3) {
            const shot = await editor.screenshot(`${s.name}-failure-${Date.now()}`).catch(() => 'none');
            throw new Error(`The context menu did not take "${label}" after ${attempt} clicks. Screenshot: ${shot}`, { cause: e });
          }
        }
      }
    },

    async expectVisible(locator, what, options) {
      try {
        await locator.waitFor({ state: 'visible', timeout: options?.timeout ?? TIMEOUTS.notification });
      } catch (e) {
        const shot = await editor.screenshot(`${s.name}-failure-${Date.now()}`).catch(() => 'none');
        throw new Error(`Not visible: ${what}. Screenshot: ${shot}`, { cause: e });
      }
      return locator;
    },

    async webviewFrame(viewTitle, options) {
      // Webviews are <iframe class="webview"> overlays (outer frame) holding iframe#active-frame (the
      // extension's HTML). They carry no title, so the one laid over the view/editor with this title is
      // tagged, then reached with two frame locators.
      const titleSource = typeof viewTitle === 'string' ? escapeRegExp(viewTitle) : viewTitle.source;
      const tag = `e2e-${createHash('sha1').update(`${options?.tabsOnly ? 'tab:' : ''}${titleSource}`).digest('hex').slice(0, 8)}`;
      try {
        await page.waitForFunction(TAG_WEBVIEW_FOR_TITLE, { source: titleSource, tag, tabsOnly: options?.tabsOnly ?? false }, { timeout: options?.timeout ?? TIMEOUTS.ui, polling: 250 });
      } catch (e) {
        const shot = await editor.screenshot(`${s.name}-failure-${Date.now()}`).catch(() => 'none');
        throw new Error(`No webview found for "${String(viewTitle)}". Screenshot: ${shot}`, { cause: e });
      }
      const inner = page.frameLocator(`iframe.webview[data-e2e="${tag}"]`).frameLocator('iframe#active-frame');
      await inner.locator('body').waitFor({ state: 'attached', timeout: TIMEOUTS.ui });
      return inner;
    },

    chatTab(title, options) {
      return editor.webviewFrame(title ?? /./, { ...options, tabsOnly: true });
    },

    async savedText(file, accept, what) {
      const dirty = page.locator('.tab.dirty');
      const deadline = Date.now() + TIMEOUTS.notification;
      let previous: string | undefined;
      let why = '';
      for (;;) {
        // Save All Files leaves untitled editors alone (no Save As dialog). No wait for the dirty marks to go:
        // an untitled editor keeps its own, and the two equal reads below tell a finished write.
        if ((await dirty.count()) > 0) await editor.runCommand('File: Save All Files');
        let text: string | undefined;
        try {
          text = readFileSync(join(s.workspace, file), 'utf8');
        } catch (e) {
          why = e instanceof Error ? e.message : String(e);
        }
        if (text !== undefined && text === previous) {
          try {
            if (accept(text) !== false) return text;
            why = '';
          } catch (e) {
            why = e instanceof Error ? e.message : String(e);
          }
        }
        previous = text;
        if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what} in ${file}${why ? `: ${why}` : ''}. Last read:\n${text ?? '(unreadable)'}`);
        // A poll period, not a delay anything depends on: the next read decides.
        await new Promise((r) => setTimeout(r, 100));
      }
    },

    async screenshot(name, options) {
      mkdirSync(ARTIFACTS_DIR, { recursive: true });
      const file = join(ARTIFACTS_DIR, `${name}.png`);
      // animations: 'disabled' finishes fade-ins (notification toasts) so the picture shows the settled UI.
      await page.screenshot({ path: file, animations: 'disabled' });
      if (options?.docs && process.env.AI_GATEWAY_E2E_DOCS === '1') {
        mkdirSync(DOCS_SCREENSHOTS_DIR, { recursive: true });
        copyFileSync(file, join(DOCS_SCREENSHOTS_DIR, `${name}.png`));
        // Pictures the walkthrough shows ship in the VSIX, next to its pages: only the region that
        // matters, as a small JPEG (the VSIX has a size budget, scripts/package.mjs).
        if (options.walkthrough) await options.walkthrough.screenshot({ path: join(WALKTHROUGH_MEDIA_DIR, `${name}.jpg`), type: 'jpeg', quality: 45, animations: 'disabled' });
      }
      return file;
    },

    async close() {
      await s.close();
    },
  };
  // Where a journey's time goes: a helper call that takes 15 s or more is logged with its duration
  // (the runner prints each test's duration; this names the slow step inside it).
  for (const key of Object.keys(editor) as Array<keyof Editor>) {
    const fn = editor[key];
    if (typeof fn !== 'function' || key === 'close') continue;
    (editor as unknown as Record<string, unknown>)[key] = (...args: unknown[]): unknown => {
      const t0 = Date.now();
      const result = (fn as (...a: unknown[]) => unknown).apply(editor, args);
      // Synchronous helpers (notificationAction) return as they are.
      if (!(result instanceof Promise)) return result;
      const note = (): void => {
        const seconds = (Date.now() - t0) / 1000;
        if (seconds >= 15) console.error(`[e2e] ${s.name}: slow step ${key}(${args.filter((a) => typeof a === 'string' || a instanceof RegExp).map(String).join(', ').slice(0, 80)}) took ${seconds.toFixed(1)} s`);
      };
      return result.finally(note);
    };
  }
  return editor;
}

/**
 * Drags the primary side bar's sash until the side bar is `width` CSS pixels wide (the workbench may
 * clamp it; the result is returned). Waits on the measured width, not on time.
 */
export async function setSidebarWidth(page: Page, width: number): Promise<number> {
  const sidebar = page.locator('#workbench\\.parts\\.sidebar');
  let box = await sidebar.boundingBox();
  for (let attempt = 0; attempt < 3 && box && Math.abs(box.width - width) > 0.5; attempt++) {
    const edge = box.x + box.width;
    // The sash is a thin strip centred on the side bar's edge.
    const sashes = await page.locator('.monaco-sash.vertical').all();
    let grip: { x: number; y: number } | undefined;
    for (const s of sashes) {
      const b = await s.boundingBox();
      if (b && Math.abs(b.x + b.width / 2 - edge) <= 4 && b.height > box.height / 2) grip = { x: b.x + b.width / 2, y: b.y + b.height / 2 };
    }
    if (!grip) throw new Error('No sash on the side bar edge.');
    await page.mouse.move(grip.x, grip.y);
    await page.mouse.down();
    await page.mouse.move(grip.x + (width - box.width), grip.y, { steps: 4 });
    await page.mouse.up();
    box = await sidebar.boundingBox();
  }
  if (!box) throw new Error('The side bar is not visible.');
  return box.width;
}

/** Picks a colour theme by its label in Preferences: Color Theme (e.g. "Light High Contrast"). */
/** The class the workbench carries for a theme's kind (VS Code's ColorScheme ids). */
export function workbenchThemeKind(label: string): string {
  if (/high contrast/i.test(label)) return /^light/i.test(label) ? 'hc-light' : 'hc-black';
  return /^light/i.test(label) ? 'vs' : 'vs-dark';
}

/** Whether the workbench is in the kind of theme `label` is (a picked theme can still be reverted). */
export async function hasThemeKind(editor: Editor, label: string): Promise<boolean> {
  const kind = workbenchThemeKind(label);
  return editor.page.locator('.monaco-workbench').first().evaluate((el, k) => el.classList.contains(k), kind);
}

export async function setColorTheme(editor: Editor, label: string): Promise<void> {
  // The theme picker previews themes while it is open and restores the previous one when it closes
  // without an accept: pick, then check that the workbench kept the theme's kind, and pick again if not.
  for (let attempt = 0; attempt < 3; attempt++) {
    await editor.runCommand('Preferences: Color Theme');
    // Filter first: the theme list is virtualised, so rows far down are not in the DOM.
    await editor.page.locator('.quick-input-widget .quick-input-box input').fill(label);
    await editor.pickQuickPickItem(new RegExp(`^${escapeRegExp(label)}`));
    await editor.page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
    if (await pollUntil(() => hasThemeKind(editor, label), (ok) => ok, `the ${label} theme`, TIMEOUTS.ui).then(() => true, () => false)) return;
  }
  throw new Error(`The ${label} colour theme did not stay applied`);
}

// ---------- chat layout probes (run in the chat webview) ----------

/**
 * Runs in the chat webview (a function from a string: the host tsconfig has no DOM types). Measures
 * what the layout rules are about: horizontal overflow of the page and of the input area, how many
 * lines the toolbar takes, and where the conversation column sits.
 */
export const layoutProbe = new Function(
  'el',
  `const doc = el.ownerDocument; const win = doc.defaultView;
  const visible = (e) => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
  const items = [...doc.querySelectorAll('#chat-toolbar > *')].filter(visible);
  const tops = new Set(items.map((e) => Math.round(e.getBoundingClientRect().top)));
  const toolbar = doc.getElementById('chat-toolbar');
  const outside = [...doc.querySelectorAll('.composer *, .message-header *, .message-footer *, .empty-state *, .code-actions *')]
    .filter(visible)
    .filter((e) => e.getBoundingClientRect().right > win.innerWidth + 0.5)
    .map((e) => e.tagName + '.' + e.className);
  const col = doc.querySelector('.column').getBoundingClientRect();
  return {
    width: win.innerWidth,
    pageOverflow: doc.scrollingElement.scrollWidth - doc.scrollingElement.clientWidth,
    messagesOverflow: doc.getElementById('messages').scrollWidth - doc.getElementById('messages').clientWidth,
    toolbarOverflow: toolbar.scrollWidth - toolbar.clientWidth,
    toolbarLines: tops.size,
    outside,
    column: { left: Math.round(col.left), right: Math.round(win.innerWidth - col.right), width: Math.round(col.width) },
  };`,
) as (el: unknown) => LayoutReport;

export interface LayoutReport {
  width: number;
  pageOverflow: number;
  messagesOverflow: number;
  toolbarOverflow: number;
  toolbarLines: number;
  outside: string[];
  column: { left: number; right: number; width: number };
}

/** The id (or tag and aria-label) of the focused element of the chat webview. */
export const focusedControl = new Function(
  'el',
  'const a = el.ownerDocument.activeElement; return a ? a.id || (a.tagName + ":" + (a.getAttribute("aria-label") || "")) : "";',
) as (el: unknown) => string;

export const opacityOf = new Function('el', 'return el.ownerDocument.defaultView.getComputedStyle(el).opacity;') as (el: unknown) => string;

/** Checks the rules of a narrow or wide chat; `what` names the case in failures. */
export function assertLayout(r: LayoutReport, what: string): void {
  assert.equal(r.pageOverflow, 0, `${what}: the page scrolls sideways ${JSON.stringify(r)}`);
  assert.equal(r.messagesOverflow, 0, `${what}: the messages scroll sideways ${JSON.stringify(r)}`);
  assert.equal(r.toolbarOverflow, 0, `${what}: the toolbar overflows ${JSON.stringify(r)}`);
  assert.equal(r.toolbarLines, 1, `${what}: the toolbar wraps onto a second line ${JSON.stringify(r)}`);
  assert.deepEqual(r.outside, [], `${what}: controls past the right edge`);
}
