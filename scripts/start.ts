/**
 * `npm start`: the extension in a real VS Code in your browser, against the local gateway.
 *
 * 1. builds and packages the extension (production VSIX, size printed);
 * 2. starts the local gateway on loopback (test/localGateway), unless AI_GATEWAY_BASE_URL names a real one;
 * 3. provisions Node 24 + code-server into .cache/editor (first run ~2 min, then instant);
 * 4. installs the VSIX into the sandbox (.cache/sandbox: user data, extensions, a sample workspace) and
 *    writes the setting aiGateway.baseUrl (user and machine settings) -> the gateway of this run;
 * 5. starts code-server on 127.0.0.1 and prints the URL and a key to paste.
 * Ctrl+C stops everything it started (code-server's whole process group and the gateway).
 *
 * Env: AI_GATEWAY_BASE_URL=https://… uses that gateway instead of the local one, and
 * AI_GATEWAY_HOSTING_BASE_URL=https://… that hosting API; both are written into the sandbox's settings
 * (the installed VSIX ignores these variables: only an extension running from source honours them);
 * AI_GATEWAY_SANDBOX_PORT picks code-server's port (default: a free one); AI_GATEWAY_SANDBOX_FRESH=1
 * starts from empty user data (forgets keys added earlier).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { LOCAL_KEYS } from '../test/localGateway/keys';
import { startGateway, type RunningGateway } from '../test/localGateway/server';
import { BASE_SETTINGS, SAMPLE_POST, startCodeServer, writeUserSettings } from '../test/e2e/harness';

const ROOT = join(__dirname, '..');
const SANDBOX = join(ROOT, '.cache', 'sandbox');

async function main(): Promise<void> {
  const { packageExtension } = await import('./package.mjs');
  const { provisionEditor, MissingPrerequisiteError } = await import('./provision-editor.mjs');

  const { path: vsix } = packageExtension({ quiet: true });
  let editor: { node24: string; codeServerEntry: string };
  try {
    editor = provisionEditor({ chromium: false });
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
  const post = join(workspace, 'posts', 'hello.md');
  if (!existsSync(post)) {
    mkdirSync(dirname(post), { recursive: true });
    writeFileSync(post, SAMPLE_POST);
  }

  const install = spawnSync(editor.node24, [editor.codeServerEntry, '--user-data-dir', userDataDir, '--extensions-dir', extensionsDir, '--install-extension', vsix, '--force'], {
    encoding: 'utf8',
    env: { ...process.env, XDG_CONFIG_HOME: join(userDataDir, 'xdg-config') },
  });
  if (install.status !== 0) throw new Error(`Installing the VSIX into code-server failed:\n${install.stdout}\n${install.stderr}`);

  // Keep what the user changed in the sandbox; (re)point the extension at this run's gateway.
  const settingsFile = join(userDataDir, 'User', 'settings.json');
  let settings: Record<string, unknown> = { ...BASE_SETTINGS };
  try {
    settings = { ...settings, ...(JSON.parse(readFileSync(settingsFile, 'utf8')) as Record<string, unknown>) };
  } catch {
    /* first run */
  }
  // The installed extension takes the address from the machine-scoped settings only (writeUserSettings
  // writes the user and the machine settings file).
  settings['aiGateway.baseUrl'] = gatewayUrl;
  const hostingUrl = process.env.AI_GATEWAY_HOSTING_BASE_URL?.trim();
  if (hostingUrl) settings['aiGateway.hosting.baseUrl'] = hostingUrl;
  writeUserSettings(userDataDir, settings);

  const started = Date.now();
  const port = Number(process.env.AI_GATEWAY_SANDBOX_PORT ?? 0);
  const server = await startCodeServer({
    node24: editor.node24,
    entry: editor.codeServerEntry,
    userDataDir,
    extensionsDir,
    port,
    logFile: join(SANDBOX, 'code-server.log'),
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
  const key = LOCAL_KEYS.userFull;
  const keyShown = key.startsWith('svc_pat_local_') ? key : '(your AI_GATEWAY_CANARY_KEY)';
  console.log(`
AI Gateway sandbox is ready (code-server listening after ${((Date.now() - started) / 1000).toFixed(1)} s).

  Open:     ${url}
  Gateway:  ${gateway ? `${gateway.url} (local, fake models and keys)` : `${gatewayUrl} (from AI_GATEWAY_BASE_URL, written to aiGateway.baseUrl)`}

${
  gateway
    ? `  First: F1 -> "AI Gateway: Add API Key", any name, then paste
            ${keyShown}
          (a local User key with full access; others: test/localGateway/keys.ts LOCAL_KEYS,
           e.g. ${LOCAL_KEYS.revoked} is revoked).`
    : `  First: F1 -> "AI Gateway: Add API Key" and paste a key created in the account portal.`
}
  Then:   open the AI Gateway sidebar (robot icon) -> Chat, pick a model and send a message.

  Ctrl+C stops code-server${gateway ? ' and the local gateway' : ''}. Logs: .cache/sandbox/code-server.log
`);
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : String(e));
  process.exit(1);
});
