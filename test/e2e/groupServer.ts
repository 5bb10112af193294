/**
 * One code-server and one Chromium for a group of journey files (#40.6), started by scripts/test-e2e.mjs:
 * `node --import tsx test/e2e/groupServer.ts <group name>` (or `--prepare`, below). Prints one JSON line (the `SharedServer` of
 * test/e2e/harness.ts: url, userDataDir, pgid, wsEndpoint, name) once both are up, then keeps them
 * running until its stdin closes (the runner ends the group, or dies), and stops them.
 * The journeys attach through launchEditor(), which gives each its own browser context and a wiped
 * profile on this server (see `SharedServer` in harness.ts).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { ARTIFACTS_DIR, BASE_SETTINGS, prepareEditor, startCodeServer, writeUserSettings, CHROMIUM_ARGS, e2eExtensionsDir } from './harness';

async function main(): Promise<void> {
  // `--prepare`: install this run's VSIX into the shared extensions dir and exit (the runner does this
  // once before it starts groups side by side, so no two of them install at once).
  if (process.argv[2] === '--prepare') {
    await prepareEditor();
    process.exit(0);
  }
  const name = (process.argv[2] ?? 'group').replace(/[^a-z0-9-]/gi, '-');
  const env = await prepareEditor();
  const tmp = mkdtempSync(join(tmpdir(), `aigw-e2e-group-${name}-`));
  const userDataDir = join(tmp, 'user-data');
  writeUserSettings(userDataDir, BASE_SETTINGS);
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const logFile = join(ARTIFACTS_DIR, `group-${name}.code-server.log`);
  rmSync(logFile, { force: true });
  const hostEnv: NodeJS.ProcessEnv = { AI_GATEWAY_BASE_URL: '', AI_GATEWAY_HOSTING_BASE_URL: '' };
  const server = await startCodeServer({ node24: env.node24, entry: env.codeServerEntry, userDataDir, extensionsDir: e2eExtensionsDir(), env: hostEnv, logFile, lean: true });
  const browser = await chromium.launchServer({ executablePath: env.chromium, headless: true, args: CHROMIUM_ARGS });
  let stopping = false;
  const stop = async (): Promise<void> => {
    if (stopping) return;
    stopping = true;
    await browser.close().catch(() => undefined);
    await server.stop().catch(() => undefined);
    rmSync(tmp, { recursive: true, force: true });
    process.exit(0);
  };
  process.stdin.on('end', () => void stop());
  process.stdin.on('close', () => void stop());
  process.stdin.resume();
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void stop());
  // The server dying under the group ends the group: the runner starts another for the next journey.
  server.process.once('exit', () => void stop());
  process.stdout.write(`${JSON.stringify({ url: server.url, userDataDir, pgid: server.process.pid, wsEndpoint: browser.wsEndpoint(), name })}\n`);
}

main().catch((e: unknown) => {
  console.error(`[e2e] the group's code-server did not start: ${e instanceof Error ? e.stack : String(e)}`);
  process.exit(1);
});
