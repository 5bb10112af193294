/**
 * `npm start`: the extension in a real VS Code in your browser, against the local gateway.
 *
 * 1. builds and packages the extension (production VSIX, size printed);
 * 2. starts the local gateway on loopback (test/localGateway), unless AI_GATEWAY_BASE_URL names a real one;
 * 3. provisions Node 24 + code-server into .cache/editor (first run ~2 min, then instant);
 * 4. installs the VSIX into the sandbox (.cache/sandbox: user data, extensions, a sample workspace: a post
 *    and its picture, test/e2e/sandbox.ts) and writes the settings aiGateway.baseUrl and
 *    aiGateway.hosting.baseUrl (user and machine settings) -> the gateway of this run and its hosting API;
 * 5. starts code-server on 127.0.0.1 and prints the URL, a key to paste and the hosting sign-in
 *    (test/e2e/sandbox.ts startText).
 * Ctrl+C stops everything it started (code-server's whole process group and the gateway).
 *
 * Env: AI_GATEWAY_BASE_URL=https://… uses that gateway instead of the local one, and
 * AI_GATEWAY_HOSTING_BASE_URL=https://… that hosting API; both are written into the sandbox's settings
 * (the installed VSIX ignores these variables: only an extension running from source honours them);
 * AI_GATEWAY_SANDBOX_PORT picks code-server's port (default: a free one); AI_GATEWAY_SANDBOX_FRESH=1
 * starts from empty user data (forgets keys added earlier); AI_GATEWAY_SANDBOX_LOCALE=es|de|en (or
 * `npm start -- --locale es`) starts it in that display language (scripts/startArgs.ts).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { HOSTING_IDS, HOSTING_NAMES, HOSTING_USERS } from '../test/localGateway/hosting';
import { LOCAL_KEYS } from '../test/localGateway/keys';
import { LOCAL_PROJECT, mintLocalJwt } from '../test/localGateway/mcpJwt';
import { startGateway, type RunningGateway } from '../test/localGateway/server';
import { BASE_SETTINGS, startCodeServer, writeLanguagePack, writeUserSettings } from '../test/e2e/harness';
import { sampleWorkspaceFiles, sandboxAddresses, startText } from '../test/e2e/sandbox';
import { parseStartArgs, StartArgsError, type StartArgs } from './startArgs';
import { provisionAnnounced } from './startProgress';

const ROOT = join(__dirname, '..');
const SANDBOX = join(ROOT, '.cache', 'sandbox');

/**
 * The display language: code-server's `--locale`, which needs a language pack for it in the user data
 * (the extension then gets its package.nls.<locale>.json and l10n bundle). A real pack installed through
 * Configure Display Language is kept; otherwise the minimal one the pseudo-locale journey uses is written
 * (VS Code's own menus stay English with it, the extension's UI is translated).
 */
function prepareLocale(userDataDir: string, locale: StartArgs['locale']): string | undefined {
  if (!locale || locale === 'en') return locale;
  let packs: Record<string, unknown> = {};
  try {
    packs = JSON.parse(readFileSync(join(userDataDir, 'languagepacks.json'), 'utf8')) as Record<string, unknown>;
  } catch {
    /* none yet */
  }
  if (!packs[locale]) writeLanguagePack(userDataDir, locale);
  return locale;
}

async function main(): Promise<void> {
  let args: StartArgs;
  try {
    args = parseStartArgs(process.argv.slice(2), process.env);
  } catch (e) {
    if (!(e instanceof StartArgsError)) throw e;
    console.error(e.message);
    process.exit(2);
  }
  const { packageExtension } = await import('./package.mjs');
  const { provisionEditor, MissingPrerequisiteError } = await import('./provision-editor.mjs');

  // A newcomer's first run is silent for minutes otherwise (build, package, editor download): say what is happening.
  console.log('Building and packaging the extension…');
  const { path: vsix } = packageExtension({ quiet: true });
  let editor: { node24: string; codeServerEntry: string };
  try {
    // Said only when something is to be downloaded: an editor already in .cache/editor starts silently.
    editor = provisionAnnounced((log) => provisionEditor({ chromium: false, log }), console.log, console.error);
  } catch (e) {
    if (e instanceof MissingPrerequisiteError) {
      console.error(`\n${e.message}\n`);
      process.exit(1);
    }
    throw e;
  }

  const stops: Array<() => Promise<void>> = [];
  let stopping = false;
  const stopAll = async (code: number): Promise<never> => {
    if (!stopping) {
      stopping = true;
      console.log('\nStopping code-server and the local gateway…');
      for (const stop of stops.reverse()) await stop().catch(() => undefined);
    }
    process.exit(code);
  };
  process.on('SIGINT', () => void stopAll(0));
  process.on('SIGTERM', () => void stopAll(0));

  const realGateway = process.env.AI_GATEWAY_BASE_URL?.trim();
  let gateway: RunningGateway | undefined;
  if (!realGateway) {
    gateway = await startGateway({ host: '127.0.0.1', port: 0, logRequests: false });
    stops.push(() => gateway?.close() ?? Promise.resolve());
  }
  const gatewayUrl = realGateway || gateway?.url || '';

  const userDataDir = join(SANDBOX, 'user-data');
  const extensionsDir = join(SANDBOX, 'extensions');
  const workspace = join(SANDBOX, 'blog');
  if (process.env.AI_GATEWAY_SANDBOX_FRESH === '1') rmSync(userDataDir, { recursive: true, force: true });
  mkdirSync(extensionsDir, { recursive: true });
  // Files the user may have changed are kept; missing ones (a first run, or an older sandbox without the
  // picture) are written.
  for (const [rel, content] of Object.entries(sampleWorkspaceFiles())) {
    const file = join(workspace, rel);
    if (existsSync(file)) continue;
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, content);
  }

  const install = spawnSync(editor.node24, [editor.codeServerEntry, '--user-data-dir', userDataDir, '--extensions-dir', extensionsDir, '--install-extension', vsix, '--force'], {
    encoding: 'utf8',
    env: { ...process.env, XDG_CONFIG_HOME: join(userDataDir, 'xdg-config') },
  });
  if (install.status !== 0) throw new Error(`Installing the VSIX into code-server failed:\n${install.stdout}\n${install.stderr}`);

  // Keep what the user changed in the sandbox; (re)point the extension at this run's gateway.
  const settingsFile = join(userDataDir, 'User', 'settings.json');
  // The test tier keeps the walkthrough closed; a newcomer's sandbox opens it on first use, as an install would.
  let settings: Record<string, unknown> = { ...BASE_SETTINGS, 'workbench.welcomePage.walkthroughs.openOnInstall': true };
  try {
    settings = { ...settings, ...(JSON.parse(readFileSync(settingsFile, 'utf8')) as Record<string, unknown>) };
  } catch {
    /* first run */
  }
  // The installed extension takes the address from the machine-scoped settings only (writeUserSettings
  // writes the user and the machine settings file).
  settings['aiGateway.baseUrl'] = gatewayUrl;
  // The local gateway serves the hosting account API under /hosting (sandboxAddresses).
  const hostingUrl = process.env.AI_GATEWAY_HOSTING_BASE_URL?.trim() || (gateway ? sandboxAddresses(gateway.url)['aiGateway.hosting.baseUrl'] : undefined);
  if (hostingUrl) settings['aiGateway.hosting.baseUrl'] = hostingUrl;
  writeUserSettings(userDataDir, settings);

  const locale = prepareLocale(userDataDir, args.locale);

  console.log('Starting code-server…');
  const started = Date.now();
  const port = Number(process.env.AI_GATEWAY_SANDBOX_PORT ?? 0);
  const server = await startCodeServer({
    node24: editor.node24,
    entry: editor.codeServerEntry,
    userDataDir,
    extensionsDir,
    port,
    logFile: join(SANDBOX, 'code-server.log'),
    locale,
    // The settings carry the addresses; the variables are not passed on to the extension host.
    env: { AI_GATEWAY_BASE_URL: '', AI_GATEWAY_HOSTING_BASE_URL: '' },
  });
  stops.push(server.stop);
  server.process.once('exit', (code) => {
    if (!stopping) {
      console.error(`code-server exited (${String(code)}); see .cache/sandbox/code-server.log`);
      void stopAll(1);
    }
  });

  const url = `${server.url}/?folder=${encodeURIComponent(workspace)}`;
  const owner = Object.entries(HOSTING_USERS).find(([, u]) => u.canWrite);
  const local =
    gateway && owner
      ? {
          // With AI_GATEWAY_CANARY_KEY set, the local gateway accepts that key instead: never print it.
          userKey: LOCAL_KEYS.userFull.startsWith('svc_pat_local_') ? LOCAL_KEYS.userFull : '(your AI_GATEWAY_CANARY_KEY)',
          revokedKey: LOCAL_KEYS.revoked,
          mcpOnlyKey: LOCAL_KEYS.userMcpOnly,
          hostingUser: owner[0],
          hostingPassword: owner[1].password,
          hostingIds: [
            { what: 'install', name: HOSTING_NAMES.installNormal, id: HOSTING_IDS.installNormal },
            { what: 'site', name: HOSTING_NAMES.siteNormal, id: HOSTING_IDS.siteNormal },
            { what: 'destination account', name: HOSTING_NAMES.accountDestination, id: HOSTING_IDS.accountDestination },
          ],
          // An identity token the local gateway's usage API accepts (test/localGateway/mcpJwt.ts), so the
          // dashboard's filters and Group by can be tried (#41.7).
          usage: { identityToken: mintLocalJwt({ exp: Math.floor(Date.now() / 1000) + USAGE_TOKEN_DAYS * 86400 }), projectId: LOCAL_PROJECT, days: USAGE_TOKEN_DAYS },
        }
      : undefined;
  console.log(`\n${startText({ url, gatewayUrl, localGateway: Boolean(gateway), hostingUrl, local, seconds: (Date.now() - started) / 1000 })}`);
}

/** How long the printed identity token for the usage dashboard stays valid. */
const USAGE_TOKEN_DAYS = 30;

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : String(e));
  process.exit(1);
});
