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
 *     const chat = await editor.webviewFrame('AI Gateway Chat'); // FrameLocator inside the webview
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
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type FrameLocator, type Locator, type Page } from 'playwright-core';
import { startGateway, type RunningGateway } from '../gateway/server';
import type { GatewayOptions } from '../gateway/context';

// The provisioning and packaging scripts are ES modules shared with plain-Node scripts (npm start,
// the runner); this CommonJS test module loads them with import().
type ProvisionModule = typeof import('../../scripts/provision-editor.mjs', { with: { 'resolution-mode': 'import' } });
type PackageModule = typeof import('../../scripts/package.mjs', { with: { 'resolution-mode': 'import' } });
const loadScripts = async (): Promise<[ProvisionModule, PackageModule]> =>
  Promise.all([import('../../scripts/provision-editor.mjs'), import('../../scripts/package.mjs')]);

export const ROOT = join(__dirname, '..', '..');

export const ARTIFACTS_DIR = join(ROOT, '.e2e-artifacts');
export const DOCS_SCREENSHOTS_DIR = join(ROOT, 'docs', 'screenshots');
const E2E_CACHE = join(ROOT, '.cache', 'e2e');
/** Set by prepareEditor(): the extensions dir holding this run's VSIX. */
let extensionsDir = '';

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

/** Generous defaults: a cold workbench on a busy 2-core machine can take 30 s+. */
export const TIMEOUTS = { workbench: 120_000, ui: 30_000, notification: 45_000 } as const;

const CHROMIUM_ARGS = [
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
};

export interface LaunchOptions {
  /** Names the temp folders and screenshots of this test file. */
  name: string;
  /** Extra user settings (merged over BASE_SETTINGS; `aiGateway.baseUrl` is set to the local gateway). */
  settings?: Record<string, unknown>;
  /** Options for the local gateway started for this editor. */
  gateway?: GatewayOptions;
  /** Use this gateway URL instead of starting a local gateway (e.g. one shared by several editors). */
  gatewayUrl?: string;
  /** Files of the workspace folder, relative path -> content. Default: a sample Markdown post. */
  workspaceFiles?: Record<string, string>;
  /** Browser viewport; the default suits README screenshots. */
  viewport?: { width: number; height: number };
}

export const SAMPLE_POST = `# Hello from the AI Gateway sandbox

This is a sample blog post for trying the content tools: summarise it, suggest tags, or generate alt text
for the picture below.

![](images/sunset.jpg)

The gateway streams chat replies token by token. Open **AI Gateway: Open Chat** and ask it anything.
`;

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
  if (!existsSync(vsix)) packageExtension({ quiet: true });
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
  ];
  // detached: own process group, so stop() reaches the extension host and every helper it spawned.
  const child = spawn(opts.node24, args, {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...opts.env, XDG_CONFIG_HOME: join(opts.userDataDir, 'xdg-config'), XDG_DATA_HOME: join(opts.userDataDir, 'xdg-data') },
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
    const timer = setTimeout(() => reject(new Error(`code-server did not start listening within 60 s:\n${output}`)), 60_000);
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

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export interface Editor {
  readonly page: Page;
  /** The local gateway (undefined when LaunchOptions.gatewayUrl was given). */
  readonly gateway: RunningGateway | undefined;
  readonly gatewayUrl: string;
  /** The workspace folder opened in the editor. */
  readonly workspace: string;
  readonly url: string;
  /** Runs a command by its palette title (e.g. "AI Gateway: Add API Key") through F1. */
  runCommand(title: string): Promise<void>;
  /** Types into the open input box and accepts it. `title` waits for that input box (multi-step flows). */
  fillInputBox(text: string, options?: { title?: string | RegExp }): Promise<void>;
  /** Picks the quick pick row whose label contains `label`. */
  pickQuickPickItem(label: string | RegExp): Promise<void>;
  /** Waits for a notification toast whose text matches; returns its locator (buttons: `notificationAction`). */
  waitForNotification(text: RegExp, options?: { timeout?: number }): Promise<Locator>;
  /** A button of a notification, e.g. notificationAction(n, 'Set API Key'). */
  notificationAction(notification: Locator, label: string): Locator;
  /** Closes every visible notification toast. */
  clearNotifications(): Promise<void>;
  /** Text of the whole status bar. */
  statusBarText(): Promise<string>;
  /** Waits for a status bar item whose text or accessible label matches; returns it. */
  waitForStatusBarItem(text: RegExp, options?: { timeout?: number }): Promise<Locator>;
  /** Adds an API key through "AI Gateway: Add API Key" (both input boxes), as a user would. */
  addKey(name: string, secret: string): Promise<void>;
  /** Opens the AI Gateway activity bar container (activates the extension through its views). */
  openAiGatewaySidebar(): Promise<void>;
  /** Waits (generously) until `locator` is visible; on timeout throws naming `what`, with a screenshot. */
  expectVisible(locator: Locator, what: string, options?: { timeout?: number }): Promise<Locator>;
  /** The content of a webview (panel tab or sidebar view) with this title, through nested frame locators. */
  webviewFrame(viewTitle: string | RegExp, options?: { timeout?: number }): Promise<FrameLocator>;
  /** Saves .e2e-artifacts/<name>.png; with docs (and AI_GATEWAY_E2E_DOCS=1) also docs/screenshots/<name>.png. */
  screenshot(name: string, options?: { docs?: boolean }): Promise<string>;
  /** Stops the browser, code-server (whole process group) and the gateway; removes the temp folders. */
  close(): Promise<void>;
}

/** Launches gateway + code-server + Chromium and waits until the workbench is ready. */
export async function launchEditor(options: LaunchOptions): Promise<Editor> {
  const env = await prepareEditor();
  const tmp = mkdtempSync(join(tmpdir(), `aigw-e2e-${options.name.replace(/[^a-z0-9-]/gi, '-')}-`));
  const userDataDir = join(tmp, 'user-data');
  const workspace = join(tmp, 'blog');
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const logFile = join(ARTIFACTS_DIR, `${options.name}.code-server.log`);
  rmSync(logFile, { force: true });

  const files = options.workspaceFiles ?? { 'posts/hello.md': SAMPLE_POST };
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

    // The extension host inherits this environment: AI_GATEWAY_BASE_URL would override the setting.
    const hostEnv: NodeJS.ProcessEnv = { AI_GATEWAY_BASE_URL: '' };
    const server = await startCodeServer({ node24: env.node24, entry: env.codeServerEntry, userDataDir, extensionsDir, env: hostEnv, logFile });
    cleanups.push(server.stop);

    const browser: Browser = await chromium.launch({ executablePath: env.chromium, headless: true, args: CHROMIUM_ARGS });
    cleanups.push(() => browser.close());
    const context: BrowserContext = await browser.newContext({ viewport: options.viewport ?? { width: 1280, height: 800 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    const page = await context.newPage();
    page.setDefaultTimeout(TIMEOUTS.ui);
    const url = `${server.url}/?folder=${encodeURIComponent(workspace)}`;
    await page.goto(url, { timeout: TIMEOUTS.workbench });
    await waitForWorkbench(page, workspace);
    return makeEditor({ page, gateway, gatewayUrl, workspace, url, name: options.name, close: cleanup });
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
    const context = await browser.newContext({ viewport: options.viewport ?? { width: 1280, height: 800 } });
    const page = await context.newPage();
    page.setDefaultTimeout(TIMEOUTS.ui);
    await page.goto(options.url, { timeout: TIMEOUTS.workbench });
    await waitForWorkbench(page, options.workspace);
    return makeEditor({ page, gateway: undefined, gatewayUrl: options.gatewayUrl ?? '', workspace: options.workspace, url: options.url, name: options.name, close: () => browser.close() });
  } catch (e) {
    await browser.close();
    throw e;
  }
}

async function waitForWorkbench(page: Page, workspace: string): Promise<void> {
  await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: TIMEOUTS.workbench });
  await page.locator('#workbench\\.parts\\.statusbar').waitFor({ state: 'visible', timeout: TIMEOUTS.workbench });
  // The explorer shows the folder name once the remote extension host connection and file service are up.
  const folderName = workspace.split('/').pop() ?? '';
  await page
    .locator('#workbench\\.parts\\.sidebar')
    .getByText(folderName, { exact: false })
    .first()
    .waitFor({ state: 'visible', timeout: TIMEOUTS.workbench });
}

/**
 * Runs in the page (a string: the host tsconfig has no DOM types). Finds the visible webview overlay
 * laid over the editor tab or view pane titled `source` and tags it with data-e2e=<tag>.
 */
const TAG_WEBVIEW_FOR_TITLE = new Function(
  'args',
  `const { source, tag } = args;
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
  for (const header of document.querySelectorAll('.pane-header, .composite.title')) {
    if (re.test(header.getAttribute('aria-label') || header.textContent || '')) {
      const body = header.closest('.pane')?.querySelector('.pane-body') || header.parentElement?.querySelector('.content');
      const r = body && visible(body);
      if (r) targets.push(r);
    }
  }
  for (const frame of document.querySelectorAll('iframe.webview')) {
    const fr = visible(frame);
    if (!fr) continue;
    const cx = fr.left + fr.width / 2, cy = fr.top + fr.height / 2;
    if (targets.some((t) => cx >= t.left && cx <= t.right && cy >= t.top && cy <= t.bottom)) {
      frame.setAttribute('data-e2e', tag);
      return true;
    }
  }
  return false;`,
) as (args: { source: string; tag: string }) => boolean;

function makeEditor(s: {
  page: Page;
  gateway: RunningGateway | undefined;
  gatewayUrl: string;
  workspace: string;
  url: string;
  name: string;
  close: () => Promise<void>;
}): Editor {
  const { page } = s;
  const quickInput = page.locator('.quick-input-widget');
  const quickInputBox = quickInput.locator('.quick-input-box input');
  const notificationsToasts = page.locator('.notifications-toasts .notification-toast');

  const openPalette = async (): Promise<void> => {
    for (let attempt = 0; attempt < 4; attempt++) {
      if (!(await quickInput.isVisible())) {
        // Focus the workbench (not a webview iframe, which would swallow F1) before the shortcut.
        await page.locator('#workbench\\.parts\\.statusbar').click({ position: { x: 2, y: 2 } }).catch(() => undefined);
        await page.keyboard.press(attempt % 2 === 0 ? 'F1' : 'Control+Shift+P');
      }
      try {
        await quickInput.waitFor({ state: 'visible', timeout: 10_000 });
        return;
      } catch {
        await page.keyboard.press('Escape');
      }
    }
    throw new Error('The command palette did not open (F1 / Ctrl+Shift+P).');
  };

  const editor: Editor = {
    page,
    gateway: s.gateway,
    gatewayUrl: s.gatewayUrl,
    workspace: s.workspace,
    url: s.url,

    async runCommand(title) {
      const exact = new RegExp(`^${escapeRegExp(title)}(?:$|[,\\s])`);
      let lastError: unknown;
      for (let attempt = 0; attempt < 3; attempt++) {
        try {
          await openPalette();
          // fill() sets the whole value at once: no keystrokes lost on a loaded machine.
          await quickInputBox.fill(`>${title}`);
          const row = quickInput.locator('.monaco-list-row').filter({ has: page.locator('.label-name', { hasText: exact }) }).first();
          await row.waitFor({ state: 'visible', timeout: 15_000 });
          await row.click();
          await quickInput.waitFor({ state: 'hidden', timeout: 5_000 }).catch(() => undefined);
          return;
        } catch (e) {
          lastError = e;
          await page.keyboard.press('Escape').catch(() => undefined);
          await sleep(1000);
        }
      }
      throw new Error(`Command "${title}" was not found in the palette: ${lastError instanceof Error ? lastError.message : String(lastError)}`);
    },

    async fillInputBox(text, options) {
      await quickInput.waitFor({ state: 'visible', timeout: TIMEOUTS.ui });
      if (options?.title !== undefined) {
        const t = options.title;
        await quickInput.locator('.quick-input-title').filter({ hasText: t }).waitFor({ state: 'visible', timeout: TIMEOUTS.ui });
      }
      await quickInputBox.fill(text);
      // Wait for validation to settle on the filled value before accepting it.
      await sleep(300);
      const message = quickInput.locator('.quick-input-message');
      const severity = await quickInput.locator('.quick-input-box .monaco-inputbox.error').count();
      if (severity > 0) throw new Error(`Input box rejected the value: ${(await message.innerText().catch(() => '')).trim()}`);
      await quickInputBox.press('Enter');
    },

    async pickQuickPickItem(label) {
      await quickInput.waitFor({ state: 'visible', timeout: TIMEOUTS.ui });
      const row = quickInput.locator('.monaco-list-row').filter({ hasText: label }).first();
      await row.waitFor({ state: 'visible', timeout: TIMEOUTS.ui });
      await row.click();
    },

    async waitForNotification(text, options) {
      const toast = notificationsToasts.filter({ hasText: text }).last();
      try {
        await toast.waitFor({ state: 'visible', timeout: options?.timeout ?? TIMEOUTS.notification });
      } catch (e) {
        // Say what was on screen instead: most failures are a different message, not no message.
        const shown = await notificationsToasts.allInnerTexts().catch(() => []);
        const shot = await editor.screenshot(`${s.name}-failure-${Date.now()}`).catch(() => 'none');
        throw new Error(
          `No notification matching ${String(text)}. Visible notifications: ${JSON.stringify(shown.map((t) => t.replace(/\s+/g, ' ').trim()))}. Screenshot: ${shot}`,
          { cause: e },
        );
      }
      return toast;
    },

    notificationAction(notification, label) {
      return notification.locator('.monaco-button').filter({ hasText: new RegExp(`^\\s*${escapeRegExp(label)}\\s*$`) }).first();
    },

    async clearNotifications() {
      for (let i = 0; i < 10; i++) {
        const close = page.locator('.notifications-toasts .notification-toast .codicon-notifications-clear').first();
        if (!(await close.isVisible().catch(() => false))) return;
        await close.click().catch(() => undefined);
      }
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
      await editor.fillInputBox(name, { title: /Add API Key \(1\/2\)/ });
      await editor.fillInputBox(secret, { title: /Add API Key \(2\/2\)/ });
    },

    async openAiGatewaySidebar() {
      const item = page.locator('#workbench\\.parts\\.activitybar .action-item a[aria-label^="AI Gateway"], .activitybar .action-label[aria-label^="AI Gateway"]').first();
      const title = page.locator('#workbench\\.parts\\.sidebar .composite.title').filter({ hasText: /AI Gateway/i }).first();
      await item.waitFor({ state: 'visible', timeout: TIMEOUTS.ui });
      // Clicking the active container's icon hides the sidebar, so click only until its title shows.
      for (let attempt = 0; attempt < 3; attempt++) {
        if (await title.isVisible().catch(() => false)) return;
        await item.click();
        if (await title.waitFor({ state: 'visible', timeout: 10_000 }).then(() => true, () => false)) return;
      }
      await editor.expectVisible(title, 'the AI Gateway sidebar');
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
      const deadline = Date.now() + (options?.timeout ?? TIMEOUTS.ui);
      const titleSource = typeof viewTitle === 'string' ? escapeRegExp(viewTitle) : viewTitle.source;
      const tag = `e2e-${createHash('sha1').update(titleSource).digest('hex').slice(0, 8)}`;
      while (Date.now() < deadline) {
        const found = await page.evaluate(TAG_WEBVIEW_FOR_TITLE, { source: titleSource, tag });
        if (found) {
          const inner = page.frameLocator(`iframe.webview[data-e2e="${tag}"]`).frameLocator('iframe#active-frame');
          await inner.locator('body').waitFor({ state: 'attached', timeout: TIMEOUTS.ui });
          return inner;
        }
        await sleep(500);
      }
      throw new Error(`No webview found for "${String(viewTitle)}".`);
    },

    async screenshot(name, options) {
      mkdirSync(ARTIFACTS_DIR, { recursive: true });
      const file = join(ARTIFACTS_DIR, `${name}.png`);
      // animations: 'disabled' finishes fade-ins (notification toasts) so the picture shows the settled UI.
      await page.screenshot({ path: file, animations: 'disabled' });
      if (options?.docs && process.env.AI_GATEWAY_E2E_DOCS === '1') {
        mkdirSync(DOCS_SCREENSHOTS_DIR, { recursive: true });
        copyFileSync(file, join(DOCS_SCREENSHOTS_DIR, `${name}.png`));
      }
      return file;
    },

    async close() {
      await s.close();
    },
  };
  return editor;
}
