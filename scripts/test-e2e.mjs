// `npm run test:e2e [filter…]`: the end-to-end tier. Packages the extension (production VSIX), provisions
// the real editor (Node 24 + code-server from npm into .cache/editor, Debian's Chromium), then runs every
// test/e2e/*.e2e.ts (or those whose path contains a filter) with node:test through tsx, one file at a time.
// Missing prerequisites fail with the exact install command: this tier never skips silently.
// Groups (#40.6): the files run in groups of up to GROUP_SIZE, one after another; each group shares one
// code-server and one Chromium (test/e2e/groupServer.ts), and each journey gets its own browser context,
// wiped profile, workspace and gateway on it (test/e2e/harness.ts, `SharedServer`). A journey that needs a
// server of its own (launchEditor's `ownServer` or `locale`) starts one, as before. After a failure the
// group's server is replaced, and the failed file's retry runs on a code-server of its own.
// Groups are balanced by each file's time in the last run (.cache/e2e/journey-seconds.json, else a table
// below) and the longest start first; AI_GATEWAY_E2E_PLAN=1 prints them without running anything.
// Env: AI_GATEWAY_E2E_SKIP_PACKAGE=1 reuses the existing VSIX; AI_GATEWAY_E2E_DOCS=1 refreshes
// docs/screenshots/*.png; CHROMIUM_PATH picks another Chromium; AI_GATEWAY_E2E_SHARE=0 gives every file
// its own code-server (no groups); AI_GATEWAY_REUSE_BUILD=1 (set by `npm test`) packages the production
// build this run already made (scripts/package.mjs).
// Proving the tier survives load: AI_GATEWAY_E2E_LOAD=N runs N CPU hogs (`yes > /dev/null`) for the
// whole run, and AI_GATEWAY_E2E_NO_RETRY=1 gives every file exactly one run (a failure is not retried),
// so "no file needed its retry" is shown, not assumed.
import { spawn, spawnSync } from 'node:child_process';
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
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, kill);
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

/** Every child running now (a signal to this runner stops them too). */
const running = new Set();
for (const [signal, number] of [['SIGINT', 2], ['SIGTERM', 15], ['SIGHUP', 1]]) {
  process.on(signal, () => {
    for (const c of running) c.kill(signal);
    process.exit(128 + number);
  });
}

/**
 * CPU seconds per group (load-independent, unlike wall time): every 2 s the runner reads /proc and adds
 * up utime + stime of each group's process trees (the group server with its code-server, extension hosts
 * and Chromium; each journey process with what it starts). A process is counted at its last sample, so a
 * process living under 2 s is missed; the runner's own children total (reaped descendants) is printed
 * beside it as a check.
 */
const CLOCK_TICKS = 100; // USER_HZ on Linux
const cpuMeter = (() => {
  const owners = new Map(); // root pid -> group name
  const seen = new Map(); // group name -> Map(pid -> ticks)
  const sample = () => {
    let entries;
    try {
      entries = readdirSync('/proc').filter((n) => /^\d+$/.test(n));
    } catch {
      return;
    }
    const procs = new Map();
    for (const n of entries) {
      try {
        const fields = readFileSync(`/proc/${n}/stat`, 'utf8').split(') ')[1].split(' ');
        procs.set(Number(n), { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) });
      } catch {
        /* gone meanwhile */
      }
    }
    const ownerOf = (pid) => {
      for (let p = pid, hops = 0; p > 1 && hops < 64; hops++) {
        const g = owners.get(p);
        if (g !== undefined) return g;
        p = procs.get(p)?.ppid ?? 0;
      }
      return undefined;
    };
    for (const [pid, { ticks }] of procs) {
      const g = ownerOf(pid);
      if (g === undefined) continue;
      if (!seen.has(g)) seen.set(g, new Map());
      const m = seen.get(g);
      m.set(pid, Math.max(m.get(pid) ?? 0, ticks));
    }
  };
  const timer = setInterval(sample, 2000);
  timer.unref();
  return {
    own(pid, group) {
      if (pid) owners.set(pid, group);
    },
    /** CPU seconds of a group so far (samples first, so a file's last 2 s count). */
    seconds(group) {
      sample();
      let t = 0;
      for (const v of seen.get(group)?.values() ?? []) t += v;
      return t / CLOCK_TICKS;
    },
  };
})();
/** CPU seconds of this runner's reaped descendants (/proc/self/stat cutime + cstime). */
const childrenCpu = () => {
  try {
    const f = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    return (Number(f[13]) + Number(f[14])) / CLOCK_TICKS;
  } catch {
    return 0;
  }
};

/** Concurrent groups: the journeys mostly wait on the editor (see docs/CONTRIBUTING.md for the figures). */
const jobsRaw = process.env.AI_GATEWAY_E2E_JOBS ?? '2';
if (!/^[1-8]$/.test(jobsRaw)) {
  console.error(`[e2e] AI_GATEWAY_E2E_JOBS must be a number of concurrent groups from 1 to 8 (got ${JSON.stringify(jobsRaw)}).`);
  process.exit(1);
}
const jobs = Number(jobsRaw);
/** Output of concurrent groups: a journey's lines are held until it ends, then printed as one block. */
const buffered = jobs > 1;

// Each journey file runs in its own process. A file that fails is run once more (unless
// AI_GATEWAY_E2E_NO_RETRY=1): the journeys wait on conditions, but a key or a click can still be lost by
// the browser. A file that passes only on the second run is reported as FLAKY by name, never silently,
// and counted in the summary; a file that fails twice fails the tier.
// Asynchronous (not spawnSync) so a Ctrl+C or SIGTERM reaches the handlers that stop the CPU hogs.
const runFile = (file, group, groupName) =>
  new Promise((resolve) => {
    const env = { ...process.env, AI_GATEWAY_E2E_VSIX: privateVsix };
    if (group) env.AI_GATEWAY_E2E_GROUP = JSON.stringify(group.info);
    else delete env.AI_GATEWAY_E2E_GROUP;
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--test', '--test-concurrency=1', `--test-timeout=${process.env.AI_GATEWAY_E2E_LOAD ? 1_800_000 : 900_000}`, '--test-reporter=spec', file],
      { cwd: ROOT, stdio: buffered ? ['ignore', 'pipe', 'pipe'] : 'inherit', env },
    );
    running.add(child);
    cpuMeter.own(child.pid, groupName);
    const chunks = [];
    if (buffered) {
      child.stdout.on('data', (d) => chunks.push(d));
      child.stderr.on('data', (d) => chunks.push(d));
    }
    const done = (ok) => {
      running.delete(child);
      if (buffered) {
        const text = Buffer.concat(chunks).toString('utf8').replace(/\n$/, '');
        console.error(`\n[e2e] ── ${groupName}: ${file} ${ok ? 'passed' : 'FAILED'} ──\n${text}`);
      }
      resolve(ok);
    };
    child.once('error', () => done(false));
    child.once('close', (code) => done(code === 0));
  });

/** Journey files per shared code-server: bounds what a long-running server accumulates. */
const GROUP_SIZE = 8;
const share = process.env.AI_GATEWAY_E2E_SHARE !== '0';

/**
 * Starts test/e2e/groupServer.ts (code-server + Chromium for a group) and resolves once it printed its
 * address; `stop()` closes its stdin, which stops both. Resolves undefined if it could not start (the
 * group's files then start their own servers, as with AI_GATEWAY_E2E_SHARE=0). Each group has its own
 * ports (ephemeral), user-data dir (a temp dir), Chromium, code-server log (group-<name>) and, per
 * journey, its own local gateway on an ephemeral port, so concurrent groups share nothing but the
 * read-only extensions dir.
 */
function startGroup(name) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join('test', 'e2e', 'groupServer.ts'), name], {
      cwd: ROOT,
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, AI_GATEWAY_E2E_VSIX: privateVsix },
    });
    running.add(child);
    cpuMeter.own(child.pid, name);
    child.stderr.setEncoding('utf8').on('data', (d) => process.stderr.write(d.replace(/^(?=.)/gm, `[${name}] `)));
    const exited = new Promise((r) => child.once('exit', r));
    void exited.then(() => running.delete(child));
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
/**
 * How long each journey file takes (wall seconds), to balance the groups (#40.7): the last run's figures in
 * .cache/e2e/journey-seconds.json (written at the end of every run), else these, measured in the full run of
 * 2026-11-29 (agentTools and usage after their fixes); a file in neither counts as a minute.
 */
const SECONDS_FILE = join(ROOT, '.cache', 'e2e', 'journey-seconds.json');
const KNOWN_SECONDS = {
  'a11y.e2e.ts': 55, 'a11yKeyboard.e2e.ts': 71, 'agentChat.e2e.ts': 23, 'agentTools.e2e.ts': 98, 'approvalFocus.e2e.ts': 28,
  'catalog.e2e.ts': 26, 'chat.e2e.ts': 105, 'chatComposer.e2e.ts': 100, 'chatLook.e2e.ts': 34, 'chatTwoPlaces.e2e.ts': 26,
  'compare.e2e.ts': 21, 'compat.e2e.ts': 21, 'content.e2e.ts': 43, 'customEndpoint.e2e.ts': 226, 'diffs.e2e.ts': 43, 'exclusionsEnvelope.e2e.ts': 35,
  'finishReason.e2e.ts': 60, 'foundation.e2e.ts': 51, 'insertion.e2e.ts': 63, 'knowledge.e2e.ts': 54, 'ledger.e2e.ts': 42,
  'mcp.e2e.ts': 124, 'mcpSignIn.e2e.ts': 75, 'media.e2e.ts': 69, 'messages.e2e.ts': 27, 'modelIds.e2e.ts': 52, 'nativeChat.e2e.ts': 51,
  'nativeChatView.e2e.ts': 78, 'newcomer.e2e.ts': 60, 'participant.e2e.ts': 85, 'pseudoLocale.e2e.ts': 39,
  'reasoningEffort.e2e.ts': 90, 'sandbox.e2e.ts': 112, 'usage.e2e.ts': 122, 'walkthrough.e2e.ts': 200,
};
const lastSeconds = (() => {
  try {
    return JSON.parse(readFileSync(SECONDS_FILE, 'utf8'));
  } catch {
    return {};
  }
})();
const base = (f) => f.replace(/^.*\//, '');
const estimate = (f) => Number(lastSeconds[base(f)]) || KNOWN_SECONDS[base(f)] || 60;

const groups = [];
if (share) {
  // The shared groups are balanced by the files' estimated times (longest file first, each to the group
  // with the least so far), as many groups as GROUP_SIZE needs.
  for (const f of files.filter(ownServer)) groups.push({ files: [f], shared: false, name: f.replace(/^.*\/|\.e2e\.ts$/g, '') });
  const sharing = files.filter((f) => !ownServer(f)).sort((a, b) => estimate(b) - estimate(a));
  const count = Math.ceil(sharing.length / GROUP_SIZE);
  const shared = Array.from({ length: count }, (_, i) => ({ files: [], shared: true, name: `g${i + 1}`, load: 0 }));
  for (const f of sharing) {
    const g = shared.filter((x) => x.files.length < GROUP_SIZE).sort((a, b) => a.load - b.load)[0];
    g.files.push(f);
    g.load += estimate(f);
  }
  for (const g of shared) g.files.sort();
  groups.push(...shared);
} else {
  for (const f of files) groups.push({ files: [f], shared: false, name: f.replace(/^.*\/|\.e2e\.ts$/g, '') });
}
// The longest groups start first, so the concurrent workers end together (the walkthrough, on a server of
// its own, then runs beside a shared group instead of alone at the end).
for (const g of groups) g.estimate = g.files.reduce((t, f) => t + estimate(f), 0) + (g.shared ? 10 : 0);
groups.sort((a, b) => b.estimate - a.estimate);
// AI_GATEWAY_E2E_PLAN=1 prints the groups and their estimates, and runs nothing.
if (process.env.AI_GATEWAY_E2E_PLAN === '1') {
  for (const g of groups) console.error(`[e2e] plan: ${g.name.padEnd(16)} ${String(Math.round(g.estimate)).padStart(5)} s  ${g.files.map(base).join(', ')}`);
  process.exit(0);
}

const failed = [];
const flaky = [];
const groupTimes = [];
const fileTimes = [];

async function runGroup({ files: groupFiles, shared, name }) {
  const groupStarted = Date.now();
  let group;
  const ensureGroup = async () => {
    if (!shared || (group && group.alive())) return;
    if (group) await group.stop();
    group = await startGroup(name);
    if (!group) console.error(`[e2e] group ${name}: no shared code-server; its journeys start their own.`);
  };
  console.error(`\n[e2e] group ${name}${shared ? ' (one code-server)' : ' (own code-server)'} starts (about ${Math.round(groups.find((g) => g.name === name)?.estimate ?? 0)} s estimated): ${groupFiles.join(', ')}`);
  for (const file of groupFiles) {
    await ensureGroup();
    const t0 = Date.now();
    const cpu0 = cpuMeter.seconds(name);
    const ok = await runFile(file, group, name);
    const times = { file, group: name, seconds: (Date.now() - t0) / 1000, cpu: cpuMeter.seconds(name) - cpu0, ok };
    fileTimes.push(times);
    console.error(`[e2e] ${name}: ${file} ${ok ? 'passed' : 'FAILED'} in ${times.seconds.toFixed(0)} s, ${times.cpu.toFixed(0)} CPU s`);
    if (ok) continue;
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
    if (await runFile(file, undefined, name)) flaky.push(file);
    else failed.push(file);
  }
  if (group) await group.stop();
  const seconds = (Date.now() - groupStarted) / 1000;
  groupTimes.push({ name, shared, files: groupFiles.length, seconds, cpu: cpuMeter.seconds(name) });
  console.error(`[e2e] group ${name} done in ${(seconds / 60).toFixed(1)} min, ${cpuMeter.seconds(name).toFixed(0)} CPU s`);
}

// The VSIX is installed into the shared extensions dir once, before any group starts (they only read it).
const prepared = spawnSync(process.execPath, ['--import', 'tsx', join('test', 'e2e', 'groupServer.ts'), '--prepare'], {
  cwd: ROOT,
  stdio: 'inherit',
  env: { ...process.env, AI_GATEWAY_E2E_VSIX: privateVsix },
});
if (prepared.status !== 0) {
  console.error('[e2e] installing the VSIX into code-server failed (above).');
  process.exit(1);
}
// A pool of `jobs` workers takes the groups in order.
const queue = [...groups];
const worker = async () => {
  for (let g = queue.shift(); g; g = queue.shift()) await runGroup(g);
};
await Promise.all(Array.from({ length: Math.min(jobs, groups.length) }, worker));

// This run's figures for the next run's groups (files that passed; a failure's time says little).
try {
  const seconds = { ...lastSeconds };
  for (const f of fileTimes) if (f.ok) seconds[base(f.file)] = Math.round(f.seconds);
  writeFileSync(SECONDS_FILE, `${JSON.stringify(seconds, null, 2)}\n`);
} catch {
  /* only an estimate */
}

const wall = (Date.now() - started) / 1000;
const minutes = (wall / 60).toFixed(1);
console.error(`\n[e2e] journey files (wall s, CPU s of the file's processes and its share of the group server's):`);
for (const f of [...fileTimes].sort((a, b) => b.seconds - a.seconds)) {
  console.error(`  ${f.file.replace(/^test\/e2e\//, '').padEnd(28)} ${f.group.padEnd(12)} ${f.seconds.toFixed(0).padStart(5)} s  ${f.cpu.toFixed(0).padStart(5)} CPU s${f.ok ? '' : '  FAILED'}`);
}
console.error(`\n[e2e] groups (up to ${GROUP_SIZE} files share a code-server; ${jobs} group(s) at a time, AI_GATEWAY_E2E_JOBS):`);
let cpuTotal = 0;
for (const g of groupTimes) {
  cpuTotal += g.cpu;
  console.error(`  ${g.name.padEnd(12)} ${String(g.files).padStart(2)} file(s)  ${(g.seconds / 60).toFixed(1).padStart(5)} min  ${g.cpu.toFixed(0).padStart(5)} CPU s  (${((100 * g.cpu) / g.seconds / cpus().length).toFixed(0)} % of ${cpus().length} cores)${g.shared ? '' : '  (own code-server)'}`);
}
console.error(`  ${'total'.padEnd(12)} ${String(files.length).padStart(2)} file(s)  ${minutes.padStart(5)} min  ${cpuTotal.toFixed(0).padStart(5)} CPU s  (${((100 * cpuTotal) / wall / cpus().length).toFixed(0)} % of ${cpus().length} cores; reaped children in all: ${childrenCpu().toFixed(0)} CPU s)`);
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
  console.error(`\n[e2e] FAILED${noRetry ? '' : ' twice'}: ${failed.join(', ')}. Their output is in the block headed "── <group>: <file> FAILED ──" above. Screenshots and code-server logs: .e2e-artifacts/`);
  process.exit(1);
}
console.error(`\n[e2e] all ${files.length} journey files passed${flaky.length ? ` (${flaky.length} on the second run)` : ' on their first run'}${load ? ` under ${load} CPU hog(s)` : ''}.`);
