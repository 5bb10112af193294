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
    process.exit(128 + number);
  });
}

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
for (const step of steps) {
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

const fmt = (s) => (s >= 60 ? `${Math.floor(s / 60)} min ${String(Math.round(s % 60)).padStart(2, '0')} s` : `${s.toFixed(0)} s`);
const width = Math.max(...STAGES.map((s) => s.length));
console.error('\n[test] stage durations:');
for (const t of times) console.error(`  ${t.stage.padEnd(width)}  ${fmt(t.seconds).padStart(12)}  ${t.ok ? 'ok' : 'FAILED'}${t.side ? '  (side by side)' : ''}`);
for (const s of stages.slice(times.length)) console.error(`  ${s.padEnd(width)}  ${'-'.padStart(12)}  not run`);
console.error(`  ${'total'.padEnd(width)}  ${fmt((Date.now() - started) / 1000).padStart(12)}`);
if (failed) {
  console.error(`\n[test] FAILED at ${failed}; the stages after it did not run.`);
  process.exit(1);
}
