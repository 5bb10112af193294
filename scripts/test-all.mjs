// `npm test`: every stage of the proof, in order, stopping at the first that fails, then a table of how
// long each stage took (#40.7), so a slow stage is seen on every run (`bash .ci/run` calls `npm test`).
//
// One production build per run (#40.6): the first stage that packages (release:dry) builds for production;
// the stages after it run with AI_GATEWAY_REUSE_BUILD=1, so scripts/package.mjs packages that same dist/
// (checked against the hash it recorded) instead of building it again (the end-to-end tier's VSIX only
// adds the pseudo-locale's files).
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

/** The stage running now (a signal to this runner stops it too). */
let current;
for (const [signal, number] of [['SIGINT', 2], ['SIGTERM', 15], ['SIGHUP', 1]]) {
  process.on(signal, () => {
    current?.kill(signal);
    process.exit(128 + number);
  });
}

const npm = process.env.npm_execpath;
const run = (stage, env) =>
  new Promise((resolve) => {
    // Through the npm that runs this script when there is one (npm_execpath), else npm from PATH.
    const [cmd, args] = npm ? [process.execPath, [npm, 'run', stage]] : ['npm', ['run', stage]];
    const child = (current = spawn(cmd, args, { stdio: 'inherit', env }));
    child.once('error', () => resolve(1));
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });

const times = [];
const started = Date.now();
let failed;
let built = false;
for (const stage of stages) {
  const t0 = Date.now();
  console.error(`\n[test] ── ${stage} ──`);
  const code = await run(stage, { ...process.env, ...(built ? { AI_GATEWAY_REUSE_BUILD: '1' } : {}) });
  times.push({ stage, seconds: (Date.now() - t0) / 1000, ok: code === 0 });
  if (code !== 0) {
    failed = stage;
    break;
  }
  if (stage === 'release:dry') built = true;
}

const fmt = (s) => (s >= 60 ? `${Math.floor(s / 60)} min ${String(Math.round(s % 60)).padStart(2, '0')} s` : `${s.toFixed(0)} s`);
const width = Math.max(...STAGES.map((s) => s.length));
console.error('\n[test] stage durations:');
for (const t of times) console.error(`  ${t.stage.padEnd(width)}  ${fmt(t.seconds).padStart(12)}  ${t.ok ? 'ok' : 'FAILED'}`);
for (const s of stages.slice(times.length)) console.error(`  ${s.padEnd(width)}  ${'-'.padStart(12)}  not run`);
console.error(`  ${'total'.padEnd(width)}  ${fmt((Date.now() - started) / 1000).padStart(12)}`);
if (failed) {
  console.error(`\n[test] FAILED at ${failed}; the stages after it did not run.`);
  process.exit(1);
}
