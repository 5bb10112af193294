// `npm run test:e2e [filter…]`: the end-to-end tier. Packages the extension (production VSIX), provisions
// the real editor (Node 24 + code-server from npm into .cache/editor, Debian's Chromium), then runs every
// test/e2e/*.e2e.ts (or those whose path contains a filter) with node:test through tsx, one file at a time.
// Missing prerequisites fail with the exact install command: this tier never skips silently.
// Groups (#40.6): the files run in groups of up to GROUP_SIZE, one after another; each group shares one
// code-server and one Chromium (test/e2e/groupServer.ts), and each journey gets its own browser context,
// wiped profile, workspace and gateway on it (test/e2e/harness.ts, `SharedServer`). A journey that needs a
// server of its own (launchEditor's `ownServer` or `locale`) starts one, as before. After a failure the
// group's server is replaced, and the failed file's retry runs on a code-server of its own.
// Env: AI_GATEWAY_E2E_SKIP_PACKAGE=1 reuses the existing VSIX; AI_GATEWAY_E2E_DOCS=1 refreshes
// docs/screenshots/*.png; CHROMIUM_PATH picks another Chromium; AI_GATEWAY_E2E_SHARE=0 gives every file
// its own code-server (no groups); AI_GATEWAY_REUSE_BUILD=1 (set by `npm test`) packages the production
// build this run already made (scripts/package.mjs).
// Proving the tier survives load: AI_GATEWAY_E2E_LOAD=N runs N CPU hogs (`yes > /dev/null`) for the
// whole run, and AI_GATEWAY_E2E_NO_RETRY=1 gives every file exactly one run (a failure is not retried),
// so "no file needed its retry" is shown, not assumed.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { MissingPrerequisiteError, ROOT, provisionEditor } from './provision-editor.mjs';
import { VSIX_PATH, packageExtension } from './package.mjs';

const filters = process.argv.slice(2);
const dir = join(ROOT, 'test', 'e2e');
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.e2e.ts'))
  .map((f) => join('test', 'e2e', f))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();
if (files.length === 0) {
  console.error(`No end-to-end journeys match ${JSON.stringify(filters)} in test/e2e/*.e2e.ts.`);
  process.exit(1);
}

let privateVsix = '';
try {
  const env = provisionEditor({ chromium: true });
  console.error(`[e2e] code-server ${env.codeServerEntry}\n[e2e] chromium ${env.chromium}`);
  if (process.env.AI_GATEWAY_E2E_SKIP_PACKAGE !== '1') packageExtension({ quiet: true, pseudoLocale: true });
  // The journeys install a private copy: another packaging run in this tree may rewrite the VSIX meanwhile.
  const bytes = readFileSync(VSIX_PATH);
  const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 16);
  mkdirSync(join(ROOT, '.cache', 'e2e'), { recursive: true });
  privateVsix = join(ROOT, '.cache', 'e2e', `ai-gateway-${hash}.vsix`);
  writeFileSync(privateVsix, bytes);
} catch (e) {
  if (e instanceof MissingPrerequisiteError) {
    console.error(`\n[e2e] cannot run the end-to-end tier:\n${e.message}\n`);
  } else {
    console.error(`\n[e2e] preparing the end-to-end tier failed: ${e instanceof Error ? e.message : String(e)}\n`);
  }
  process.exit(1);
}

const load = process.env.AI_GATEWAY_E2E_LOAD ?? '';
if (load !== '' && !/^(?:[1-9]|1[0-6])$/.test(load)) {
  console.error(`[e2e] AI_GATEWAY_E2E_LOAD must be a number of CPU hogs from 1 to 16 (got ${JSON.stringify(load)}).`);
  process.exit(1);
}
const noRetry = process.env.AI_GATEWAY_E2E_NO_RETRY === '1';
/** The journey process running now (a signal to this runner stops it too). */
let current;

/**
 * Starts `count` CPU hogs. Each is `yes > /dev/null` under a small shell that kills it when its stdin
 * closes, so the hogs end with this process however it ends (even SIGKILL closes the pipe); on a normal
 * exit or a signal the whole group is killed at once. Returns a function reading the hogs' CPU seconds.
 */
function startHogs(count) {
  const hogs = [];
  const kill = () => {
    for (const h of hogs) {
      try {
        process.kill(-h.child.pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }
  };
  process.on('exit', kill);
  for (const [signal, number] of [['SIGINT', 2], ['SIGTERM', 15], ['SIGHUP', 1]]) {
    process.on(signal, () => {
      current?.kill(signal);
      kill();
      process.exit(128 + number);
    });
  }
  for (let i = 0; i < count; i++) {
    const child = spawn('sh', ['-c', 'yes > /dev/null & echo $!; read _; kill $!'], { detached: true, stdio: ['pipe', 'pipe', 'inherit'] });
    const hog = { child, yesPid: 0 };
    child.stdout.setEncoding('utf8').once('data', (d) => (hog.yesPid = Number.parseInt(d, 10) || 0));
    // Neither the hog nor its pipes keep this process alive.
    child.unref();
    child.stdin.unref();
    child.stdout.unref();
    hogs.push(hog);
  }
  const clockTicks = 100; // USER_HZ on Linux
  return () =>
    hogs.reduce((sum, h) => {
      try {
        const fields = readFileSync(`/proc/${h.yesPid}/stat`, 'utf8').split(') ')[1].split(' ');
        return sum + (Number(fields[11]) + Number(fields[12])) / clockTicks; // utime + stime
      } catch {
        return sum;
      }
    }, 0);
}

console.error(`[e2e] journeys: ${files.join(', ')}`);
const started = Date.now();
let hogSeconds;
if (load !== '') {
  hogSeconds = startHogs(Number(load));
  console.error(`[e2e] load mode: ${load} CPU hog(s) (yes > /dev/null) on ${cpus().length} core(s); load average before: ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
}
if (noRetry) console.error('[e2e] no-retry mode: a file that fails is not run again.');

// Each journey file runs in its own process (it starts its own code-server anyway). A file that fails
// is run once more (unless AI_GATEWAY_E2E_NO_RETRY=1): the journeys wait on conditions, but a key or a
// click can still be lost by the browser. A file that passes only on the second run is reported as
// FLAKY by name, never silently, and counted in the summary; a file that fails twice fails the tier.
// Asynchronous (not spawnSync) so a Ctrl+C or SIGTERM reaches the handlers that stop the CPU hogs.
const runFile = (file, group) =>
  new Promise((resolve) => {
    const env = { ...process.env, AI_GATEWAY_E2E_VSIX: privateVsix };
    if (group) env.AI_GATEWAY_E2E_GROUP = JSON.stringify(group.info);
    else delete env.AI_GATEWAY_E2E_GROUP;
    const child = (current = spawn(
      process.execPath,
      ['--import', 'tsx', '--test', '--test-concurrency=1', `--test-timeout=${process.env.AI_GATEWAY_E2E_LOAD ? 1_800_000 : 900_000}`, '--test-reporter=spec', file],
      { cwd: ROOT, stdio: 'inherit', env },
    ));
    child.once('error', () => resolve(false));
    child.once('exit', (code) => resolve(code === 0));
  });

/** Journey files per shared code-server: bounds what a long-running server accumulates. */
const GROUP_SIZE = 8;
const share = process.env.AI_GATEWAY_E2E_SHARE !== '0';

/**
 * Starts test/e2e/groupServer.ts (code-server + Chromium for a group) and resolves once it printed its
 * address; `stop()` closes its stdin, which stops both. Resolves undefined if it could not start (the
 * group's files then start their own servers, as with AI_GATEWAY_E2E_SHARE=0).
 */
function startGroup(name) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join('test', 'e2e', 'groupServer.ts'), name], {
      cwd: ROOT,
      stdio: ['pipe', 'pipe', 'inherit'],
      env: { ...process.env, AI_GATEWAY_E2E_VSIX: privateVsix },
    });
    const exited = new Promise((r) => child.once('exit', r));
    const stop = async () => {
      child.stdin.end();
      const done = await Promise.race([exited.then(() => true), new Promise((r) => setTimeout(() => r(false), 20_000))]);
      if (!done) child.kill('SIGKILL');
    };
    process.once('exit', () => child.kill('SIGTERM'));
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d) => {
      out += d;
      const line = out.split('\n')[0];
      if (out.includes('\n') && line) {
        try {
          const info = JSON.parse(line);
          resolve({ info, stop, alive: () => child.exitCode === null && child.signalCode === null });
        } catch {
          console.error(`[e2e] the group server printed ${JSON.stringify(line)}`);
          void stop().then(() => resolve(undefined));
        }
      }
    });
    child.once('exit', () => resolve(undefined));
  });
}

/**
 * Whether a journey file starts a code-server of its own (launchEditor's `ownServer: true`, or a `locale`,
 * which is chosen when the server starts): it is not put in a group, so no shared server waits idle for it.
 */
const ownServer = (file) => /\bownServer:\s*true\b|\blocale:\s*[A-Za-z'"]/.test(readFileSync(join(ROOT, file), 'utf8'));
const groups = [];
if (share) {
  const sharing = files.filter((f) => !ownServer(f));
  for (let i = 0; i < sharing.length; i += GROUP_SIZE) groups.push({ files: sharing.slice(i, i + GROUP_SIZE), shared: true });
  for (const f of files.filter(ownServer)) groups.push({ files: [f], shared: false });
} else {
  groups.push({ files, shared: false });
}

const failed = [];
const flaky = [];
const groupTimes = [];
for (const [index, { files: groupFiles, shared }] of groups.entries()) {
  const groupStarted = Date.now();
  const name = shared ? `g${index + 1}` : groupFiles[0].replace(/^.*\/|\.e2e\.ts$/g, '');
  let group;
  const ensureGroup = async () => {
    if (!shared || (group && group.alive())) return;
    if (group) await group.stop();
    group = await startGroup(name);
    if (!group) console.error(`[e2e] group ${name}: no shared code-server; its journeys start their own.`);
  };
  if (shared) console.error(`\n[e2e] group ${name} (one code-server): ${groupFiles.join(', ')}`);
  for (const file of groupFiles) {
    await ensureGroup();
    if (await runFile(file, group)) continue;
    // The failure may have left the shared server in a bad state: the next file gets a fresh one.
    if (group) {
      await group.stop();
      group = undefined;
    }
    if (noRetry) {
      failed.push(file);
      continue;
    }
    console.error(`\n[e2e] ${file} failed; running it once more, on a code-server of its own, to tell a lost keystroke from a real failure…\n`);
    if (await runFile(file, undefined)) flaky.push(file);
    else failed.push(file);
  }
  if (group) await group.stop();
  groupTimes.push({ name, shared, files: groupFiles.length, seconds: (Date.now() - groupStarted) / 1000 });
}
const minutes = ((Date.now() - started) / 60_000).toFixed(1);
if (share) {
  console.error(`\n[e2e] groups (up to ${GROUP_SIZE} files share a code-server; the others start their own):`);
  for (const g of groupTimes) console.error(`  ${g.name.padEnd(12)} ${String(g.files).padStart(2)} file(s)  ${(g.seconds / 60).toFixed(1).padStart(5)} min${g.shared ? '' : '  (own code-server)'}`);
  console.error(`  ${'total'.padEnd(12)} ${String(files.length).padStart(2)} file(s)  ${minutes.padStart(5)} min`);
}
if (hogSeconds) {
  console.error(`\n[e2e] load mode: the ${load} hog(s) used ${hogSeconds().toFixed(0)} CPU seconds in ${minutes} min; load average after: ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
}
if (flaky.length > 0) console.error(`\n[e2e] FLAKY (failed once, passed on the second run): ${flaky.join(', ')}`);
console.error(
  noRetry
    ? `[e2e] retries: disabled; ${failed.length} of ${files.length} files failed their only run.`
    : `[e2e] retries: ${flaky.length + failed.length} of ${files.length} files needed a retry${flaky.length + failed.length ? ` (${[...flaky, ...failed].join(', ')})` : ''}.`,
);
if (failed.length > 0) {
  console.error(`\n[e2e] FAILED${noRetry ? '' : ' twice'}: ${failed.join(', ')}. The failing journeys are listed above ("failing tests"). Screenshots and code-server logs: .e2e-artifacts/`);
  process.exit(1);
}
console.error(`\n[e2e] all ${files.length} journey files passed${flaky.length ? ` (${flaky.length} on the second run)` : ' on their first run'}${load ? ` under ${load} CPU hog(s)` : ''}.`);
