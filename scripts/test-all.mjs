// `npm test`: every stage of the proof, in order, stopping at the first that fails, then a table of how
// long each stage took (#40.7), so a slow stage is seen on every run (`bash .ci/run` calls `npm test`).
//
// One production build per run (#40.6): the first stage that packages (release:dry) builds for production;
// the stages after it run with AI_GATEWAY_REUSE_BUILD=1, so scripts/package.mjs packages that same dist/
// (checked against the hash it recorded) instead of building it again (the end-to-end tier's VSIX only
// adds the pseudo-locale's files).
//
// typecheck and lint run side by side (each is one single-threaded process, the machine has two cores);
// their output is held and printed whole when each ends. Every other stage runs alone.
//
// The end-to-end tier's editor (Node 24 + code-server from npm into .cache/editor, scripts/provision-editor.mjs)
// depends on no earlier stage and mostly waits on the network (about 1-1.5 min on a fresh clone), so it is
// provisioned in the background from the start, beside the CPU-bound stages (#40.7); on a provisioned tree it
// ends at once. The first stage that uses it waits for it: test:conformance (the suite runs on that Node 24),
// else test:e2e; no two provisionings ever write .cache/editor at once. Its output is held and printed when
// that stage waits for it; if it failed, the run fails there with its output, before that stage starts. A
// stage failing before then stops it. The table lists it as a background row with its own time and how long
// the waiting stage waited for it. (`npm run test:e2e` or `npm run test:conformance` alone still provisions
// by itself.)
//
// `npm test -- --from <stage>` starts at a stage (e.g. after fixing what failed there).
import { spawn } from 'node:child_process';

const STAGES = ['typecheck', 'lint', 'test:unit', 'test:conformance', 'release:dry', 'test:e2e'];

const fromIndex = process.argv.indexOf('--from');
const from = fromIndex >= 0 ? process.argv[fromIndex + 1] : undefined;
if (from !== undefined && !STAGES.includes(from)) {
  console.error(`[test] no stage ${JSON.stringify(from)}; the stages are ${STAGES.join(', ')}.`);
  process.exit(1);
}
const stages = from ? STAGES.slice(STAGES.indexOf(from)) : STAGES;

/**
 * The npm script (and its arguments) a stage runs, when it is not the stage's own name. The unit tier runs
 * under the secret-leak canary (scripts/canary.mjs --stream): the same suite, with a random key as the
 * local gateway's User/Full key, its output checked for that key line by line and printed with it
 * redacted, so the canary is proved on every run at no extra cost.
 */
const SCRIPT_OF = { 'test:unit': ['test:canary', '--', '--stream'] };

/** Stages that run side by side with the next one in this set. */
const SIDE_BY_SIDE = new Set(['typecheck', 'lint']);

/** The stages running now (a signal to this runner stops them too). */
const current = new Set();
for (const [signal, number] of [['SIGINT', 2], ['SIGTERM', 15], ['SIGHUP', 1]]) {
  process.on(signal, () => {
    for (const c of current) c.kill(signal);
    background?.stop();
    process.exit(128 + number);
  });
}

/**
 * Starts `node scripts/provision-editor.mjs --no-chromium` in its own process group (npm and the installs it
 * runs are stopped with it), output held. `wait()` resolves { ok, seconds, output }; `stop()` ends it.
 * Chromium is not checked here: the e2e stage checks it and names the install command.
 */
function startProvisioning() {
  const t0 = Date.now();
  const child = spawn(process.execPath, ['scripts/provision-editor.mjs', '--no-chromium'], { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const chunks = [];
  child.stdout.on('data', (d) => chunks.push(d));
  child.stderr.on('data', (d) => chunks.push(d));
  let ended = false;
  let last;
  const result = new Promise((resolve) => {
    const done = (ok, why = '') => {
      if (ended) return;
      ended = true;
      last = { ok, seconds: (Date.now() - t0) / 1000, output: Buffer.concat(chunks).toString('utf8').replace(/\n$/, '') + why };
      resolve(last);
    };
    child.once('error', (e) => done(false, `\n${e.message}`));
    child.once('close', (code, signal) => done(code === 0, signal ? `\n(stopped by ${signal})` : ''));
  });
  const stop = () => {
    if (ended) return;
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      /* already gone */
    }
  };
  process.once('exit', stop);
  return { wait: () => result, stop, ended: () => last };
}
/** Stages that use .cache/editor: the first of them waits for the background provisioning. */
const NEEDS_EDITOR = new Set(['test:conformance', 'test:e2e']);
const background = stages.some((s) => NEEDS_EDITOR.has(s)) ? startProvisioning() : undefined;

const npm = process.env.npm_execpath;
const run = (stage, env, hold) =>
  new Promise((resolve) => {
    // Through the npm that runs this script when there is one (npm_execpath), else npm from PATH.
    const script = SCRIPT_OF[stage] ?? [stage];
    const [cmd, args] = npm ? [process.execPath, [npm, 'run', ...script]] : ['npm', ['run', ...script]];
    const child = spawn(cmd, args, { stdio: hold ? ['ignore', 'pipe', 'pipe'] : 'inherit', env });
    current.add(child);
    const chunks = [];
    if (hold) {
      child.stdout.on('data', (d) => chunks.push(d));
      child.stderr.on('data', (d) => chunks.push(d));
    }
    const done = (code) => {
      current.delete(child);
      if (hold) console.error(`\n[test] ── ${stage} ──\n${Buffer.concat(chunks).toString('utf8').replace(/\n$/, '')}`);
      resolve(code);
    };
    child.once('error', () => done(1));
    child.once('close', (code, signal) => done(code ?? (signal ? 1 : 0)));
  });

// Consecutive stages in SIDE_BY_SIDE form one step.
const steps = [];
for (const stage of stages) {
  const last = steps[steps.length - 1];
  if (last && SIDE_BY_SIDE.has(stage) && SIDE_BY_SIDE.has(last[0])) last.push(stage);
  else steps.push([stage]);
}

const times = [];
const started = Date.now();
let failed;
let built = false;
let provision; // { seconds, waited, ok, stage } once a stage has waited for the background provisioning
for (const step of steps) {
  const needs = step.find((stage) => NEEDS_EDITOR.has(stage));
  if (needs && background && !provision) {
    console.error('\n[test] ── waiting for the editor provisioned in the background (Node 24 + code-server) ──');
    const t0 = Date.now();
    const r = await background.wait();
    provision = { seconds: r.seconds, waited: (Date.now() - t0) / 1000, ok: r.ok, stage: needs };
    if (r.output) console.error(r.output);
    if (!r.ok) {
      console.error(`[test] provisioning the editor (node scripts/provision-editor.mjs --no-chromium: Node 24 + code-server into .cache/editor, started in the background at the start of the run) FAILED after ${r.seconds.toFixed(0)} s; its output is above. ${needs}, which needs it, did not run.`);
      failed = `${needs} (provisioning the editor it needs)`;
      break;
    }
  }
  const hold = step.length > 1;
  console.error(`\n[test] ── ${hold ? `${step.join(' and ')}, side by side` : step[0]} ──`);
  const results = await Promise.all(
    step.map(async (stage) => {
      const t0 = Date.now();
      const code = await run(stage, { ...process.env, ...(built ? { AI_GATEWAY_REUSE_BUILD: '1' } : {}) }, hold);
      return { stage, seconds: (Date.now() - t0) / 1000, ok: code === 0, side: hold };
    }),
  );
  times.push(...results);
  const bad = results.find((r) => !r.ok);
  if (bad) {
    failed = bad.stage;
    break;
  }
  if (step.includes('release:dry')) built = true;
}

background?.stop();
const fmt = (s) => (s >= 60 ? `${Math.floor(s / 60)} min ${String(Math.round(s % 60)).padStart(2, '0')} s` : `${s.toFixed(0)} s`);
const width = Math.max(...STAGES.map((s) => s.length));
console.error('\n[test] stage durations:');
for (const t of times) console.error(`  ${t.stage.padEnd(width)}  ${fmt(t.seconds).padStart(12)}  ${t.ok ? 'ok' : 'FAILED'}${t.side ? '  (side by side)' : ''}`);
for (const s of stages.slice(times.length)) console.error(`  ${s.padEnd(width)}  ${'-'.padStart(12)}  not run${provision && !provision.ok && s === provision.stage ? ' (the editor it needs could not be provisioned)' : ''}`);
if (provision) {
  console.error(`  ${'(editor)'.padEnd(width)}  ${fmt(provision.seconds).padStart(12)}  ${provision.ok ? 'ok' : 'FAILED'}  (background from the start: provisioning Node 24 + code-server; ${provision.stage} waited ${fmt(provision.waited)} for it)`);
} else if (background) {
  const r = background.ended();
  const what = r?.ok ? 'ok' : r ? 'stopped or failed' : 'stopped';
  console.error(`  ${'(editor)'.padEnd(width)}  ${(r ? fmt(r.seconds) : '-').padStart(12)}  ${what}  (background provisioning of Node 24 + code-server; the run ended before a stage needed it)`);
}
console.error(`  ${'total'.padEnd(width)}  ${fmt((Date.now() - started) / 1000).padStart(12)}`);
if (failed) {
  console.error(`\n[test] FAILED at ${failed}; the stages after it did not run.`);
  process.exit(1);
}
