// Secret-leak canary: runs the unit suite with a fresh random API key that the local gateway accepts
// as a User key with Full access (test/localGateway/keys.ts, AI_GATEWAY_CANARY_KEY), captures every byte
// of output, and fails if the key appears anywhere in it. Extra arguments are passed on as the
// test-unit.mjs filter.
//
// The check also catches partial leaks: the key's random tail alone (what a careless "last N
// characters" log would print beyond the masked suffix) must not appear either.
//
// `--stream` (how `npm test` runs the unit tier, so the canary costs no second run): the suite's output is
// printed line by line as it comes, with any trace of the canary replaced by ‹canary›, and the check
// runs on the lines before they are redacted. Without it only the suite's summary is printed.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';

const tail = randomBytes(18).toString('hex');
const canary = `svc_pat_canary_${tail}`;
// Secrets may be written to files by tests (logs, snapshots): give the run its own temp dir and scan it.
const scratch = mkdtempSync(join(tmpdir(), 'ai-gateway-canary-'));

const stream = process.argv.includes('--stream');
const filter = process.argv.slice(2).filter((a) => a !== '--stream');
const child = spawn(process.execPath, ['scripts/test-unit.mjs', ...filter], {
  env: { ...process.env, AI_GATEWAY_CANARY_KEY: canary, TMPDIR: scratch, FORCE_COLOR: '0', NO_COLOR: '1' },
  stdio: ['ignore', 'pipe', 'pipe'],
});

// Output is checked a line at a time, so memory stays bounded however much the suite prints; a line
// longer than MAX_LINE is checked in pieces that overlap by the tail's length, and not printed.
const MAX_LINE = 1024 * 1024;
let pending = '';
let leakedLines = 0;
const summaryLines = [];
let longLine = false;
const check = (text, final) => {
  if (text.includes(tail)) leakedLines++;
  const shown = text.split(tail).join('‹canary›');
  // A line over MAX_LINE is not printed (its pieces could split a key); a mark says it was cut.
  if (stream && !longLine) process.stdout.write(final ? `${shown}\n` : '[a line of over 1 MiB, not shown]\n');
  longLine = !final;
  if (/^ℹ (tests|pass|fail|cancelled|skipped|todo)\b/.test(shown)) summaryLines.push(shown);
};
const decoder = new StringDecoder('utf8');
const feed = (b) => {
  pending += decoder.write(b);
  let nl;
  while ((nl = pending.indexOf('\n')) >= 0) {
    check(pending.slice(0, nl), true);
    pending = pending.slice(nl + 1);
  }
  if (pending.length > MAX_LINE) {
    // Keep the last tail.length-1 characters so a key split across pieces is still seen whole.
    const keep = tail.length - 1;
    check(pending.slice(0, pending.length - keep), false);
    pending = pending.slice(pending.length - keep);
  }
};
child.stdout.on('data', feed);
child.stderr.on('data', feed);

const code = await new Promise((resolve) => child.on('close', (c) => resolve(c ?? 1)));
pending += decoder.end();
if (pending.length > 0) check(pending, true);

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const st = statSync(p);
    if (st.isDirectory()) yield* files(p);
    else if (st.isFile() && st.size < 50 * 1024 * 1024) yield p;
  }
}

const leaks = [];
if (leakedLines > 0) leaks.push(`test output (${leakedLines} line(s))`);
for (const f of files(scratch)) {
  if (readFileSync(f).includes(tail)) leaks.push(`file written during the run: ${f.slice(scratch.length + 1)}`);
}
rmSync(scratch, { recursive: true, force: true });

// The suite's own summary, without the canary, so a failing suite is still visible.
if (!stream) console.log(summaryLines.join('\n'));

if (leaks.length > 0) {
  // Never print the canary itself (this output may end up in CI logs): name where it leaked.
  console.error(`CANARY LEAKED: the canary key appeared in:\n  ${leaks.join('\n  ')}`);
  console.error('Re-run `node scripts/test-unit.mjs` with AI_GATEWAY_CANARY_KEY=svc_pat_canary_<anything> and grep for it to see where.');
  process.exit(2);
}
if (code !== 0) {
  console.error(`The unit suite failed (exit ${code}) while running with the canary key; no leak found in its output.`);
  process.exit(code);
}
console.log('Canary check passed: the test output and the files the run wrote contain no trace of the canary key.');
