// `npm test`: every stage of the proof, stopping at the first that fails, then a table of how long each
// stage took (#40.7), so a slow stage is seen on every run (`bash .ci/run` calls `npm test`). After the
// release dry run, the stages run in two lanes at once (see LANES below): the checks that need no editor
// beside the end-to-end tier.
//
// One production build per run (#40.6): release:dry builds for production; test:e2e, after it in its lane,
// runs with AI_GATEWAY_REUSE_BUILD=1, so scripts/package.mjs packages that same dist/ (checked against the
// hash it recorded) instead of building it again (the end-to-end tier's VSIX only adds the pseudo-locale's
// files).
//
// typecheck and lint run side by side (each is one single-threaded process); their output is held and
// printed whole when each ends.
//
// The end-to-end tier's editor (Node 24 + code-server from npm into .cache/editor, scripts/provision-editor.mjs)
// depends on no earlier stage and mostly waits on the network (about 1-1.5 min on a fresh clone), so it is
// provisioned in the background from the start (#40.7); on a provisioned tree it ends at once. The first
// stage that uses it (test:e2e or test:conformance, whichever comes first) waits for it, and the other waits
// for that same wait; no two provisionings ever write .cache/editor at once. Its output is printed when
// the first stage waits for it; if it failed, the run fails there with its output, before either stage
// starts. A stage failing before then stops it. The table lists it as a background row with its own time
// and how long the waiting stage waited for it. (`npm run test:e2e` or `npm run test:conformance` alone
// still provisions by itself.)
//
// `npm test -- --from <stage>` starts at a stage in the order of STAGES (e.g. after fixing what failed there).
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

/** Stops a stage's process group (it was started detached: see run). */
const stopGroup = (child, signal) => {
  try {
    process.kill(-child.pid, signal);
  } catch {
    /* already gone */
  }
};
/** The stages running now (a signal to this runner stops them too). */
const current = new Set();
for (const [signal, number] of [['SIGINT', 2], ['SIGTERM', 15], ['SIGHUP', 1]]) {
  process.on(signal, () => {
    for (const c of current) stopGroup(c, signal);
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
    // In its own process group, so stopping a stage stops everything it started (npm, the suites' runners).
    const child = spawn(cmd, args, { stdio: ['ignore', hold ? 'pipe' : 'inherit', hold ? 'pipe' : 'inherit'], env, detached: true });
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

// The release dry run first, alone (it makes the production build the end-to-end tier packages, about
// 45 s), then two lanes at once (#40.7). The end-to-end tier is most of the run and mostly waits on the
// editor (under two CPU hogs it took no longer: the load proof), so the checks that need no editor run
// beside it, each in turn:
//   checks: typecheck and lint (side by side), test:unit (two files at a time), test:conformance
//   editor: test:e2e (the dry run's build, packaged with the pseudo-locale)
// Output: the editor lane's is printed as it comes (the e2e runner already prints each journey file whole
// when it ends); the checks lane's is held and printed whole when each of its stages ends. A stage that
// fails stops the others (their process groups), and the run fails naming it.
// AI_GATEWAY_TEST_LANES=1 runs every stage one after another, in the order of STAGES.
const PRELUDE = ['release:dry'];
const LANES = [
  ['typecheck', 'lint', 'test:unit', 'test:conformance'],
  ['test:e2e'],
];
const oneLane = process.env.AI_GATEWAY_TEST_LANES === '1';
const lanesApart = oneLane ? [STAGES] : LANES;
const twoLanes = lanesApart.filter((lane) => lane.some((stage) => stages.includes(stage))).length > 1;
const env = { ...process.env };
/** True once this run's release:dry has made the production build (later packaging reuses it). */
let built = false;

/** A lane's steps: consecutive stages in SIDE_BY_SIDE form one step. */
const stepsOf = (lane) => {
  const steps = [];
  for (const stage of lane.filter((x) => stages.includes(x))) {
    const last = steps[steps.length - 1];
    if (last && SIDE_BY_SIDE.has(stage) && SIDE_BY_SIDE.has(last[0])) last.push(stage);
    else steps.push([stage]);
  }
  return steps;
};

const times = [];
const started = Date.now();
let failed;
let provision; // { seconds, waited, ok, stage } once a stage has waited for the background provisioning
let provisioning; // the one wait for it, shared by both lanes
const waitForEditor = (stage) =>
  (provisioning ??= (async () => {
    console.error(`\n[test] ── ${stage} waits for the editor provisioned in the background (Node 24 + code-server) ──`);
    const t0 = Date.now();
    const r = await background.wait();
    provision = { seconds: r.seconds, waited: (Date.now() - t0) / 1000, ok: r.ok, stage };
    if (r.output) console.error(r.output);
    if (!r.ok) {
      console.error(`[test] provisioning the editor (node scripts/provision-editor.mjs --no-chromium: Node 24 + code-server into .cache/editor, started in the background at the start of the run) FAILED after ${r.seconds.toFixed(0)} s; its output is above. ${stage}, which needs it, did not run.`);
    }
    return r.ok;
  })());

const stopAll = () => {
  for (const c of current) stopGroup(c, 'SIGTERM');
};
const runLane = async (lane, laneHolds) => {
  for (const step of stepsOf(lane)) {
    if (failed) return;
    const needs = step.find((stage) => NEEDS_EDITOR.has(stage));
    if (needs && background && !(await waitForEditor(needs))) {
      failed ??= `${needs} (provisioning the editor it needs)`;
      stopAll();
      return;
    }
    if (failed) return;
    const hold = laneHolds || step.length > 1;
    console.error(`\n[test] ── ${step.length > 1 ? `${step.join(' and ')}, side by side` : step[0]}${laneHolds ? ' (beside the end-to-end lane; output when it ends)' : ''} ──`);
    const results = await Promise.all(
      step.map(async (stage) => {
        const t0 = Date.now();
        const code = await run(stage, { ...env, ...(built ? { AI_GATEWAY_REUSE_BUILD: '1' } : {}) }, hold);
        return { stage, seconds: (Date.now() - t0) / 1000, ok: code === 0, side: step.length > 1, lane: twoLanes && laneHolds };
      }),
    );
    times.push(...results);
    const bad = results.find((r) => !r.ok);
    if (bad) {
      // The first failure is the one named (a stage stopped because of it fails too).
      if (!failed) {
        failed = bad.stage;
        stopAll();
      }
      return;
    }
    if (step.includes('release:dry')) built = true;
  }
};
if (!oneLane) await runLane(PRELUDE, false);
if (!failed) await Promise.all(lanesApart.map((lane, i) => runLane(lane, twoLanes && i === 0)));

background?.stop();
const fmt = (s) => (s >= 60 ? `${Math.floor(s / 60)} min ${String(Math.round(s % 60)).padStart(2, '0')} s` : `${s.toFixed(0)} s`);
const width = Math.max(...STAGES.map((s) => s.length));
console.error('\n[test] stage durations:');
for (const stage of stages) {
  const t = times.find((x) => x.stage === stage);
  if (t) {
    const notes = [t.side ? 'side by side' : '', t.lane ? 'beside the end-to-end lane' : ''].filter(Boolean).join(', ');
    console.error(`  ${stage.padEnd(width)}  ${fmt(t.seconds).padStart(12)}  ${t.ok ? 'ok' : failed && failed !== stage ? 'stopped' : 'FAILED'}${notes ? `  (${notes})` : ''}`);
  } else {
    console.error(`  ${stage.padEnd(width)}  ${'-'.padStart(12)}  not run${provision && !provision.ok && stage === provision.stage ? ' (the editor it needs could not be provisioned)' : ''}`);
  }
}
if (provision) {
  console.error(`  ${'(editor)'.padEnd(width)}  ${fmt(provision.seconds).padStart(12)}  ${provision.ok ? 'ok' : 'FAILED'}  (background from the start: provisioning Node 24 + code-server; ${provision.stage} waited ${fmt(provision.waited)} for it)`);
} else if (background) {
  const r = background.ended();
  const what = r?.ok ? 'ok' : r ? 'stopped or failed' : 'stopped';
  console.error(`  ${'(editor)'.padEnd(width)}  ${(r ? fmt(r.seconds) : '-').padStart(12)}  ${what}  (background provisioning of Node 24 + code-server; the run ended before a stage needed it)`);
}
console.error(`  ${'total'.padEnd(width)}  ${fmt((Date.now() - started) / 1000).padStart(12)}`);
if (failed) {
  console.error(`\n[test] FAILED at ${failed}; the stages after it did not run, and those running were stopped.`);
  process.exit(1);
}
