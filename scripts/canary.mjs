// Secret-leak canary: runs the unit suite with a fresh random API key that the local gateway accepts
// as a User key with Full access (test/localGateway/keys.ts, AI_GATEWAY_CANARY_KEY), captures every byte
// of output, and fails if the key appears anywhere in it. Extra arguments are passed on as the
// test-unit.mjs filter.
//
// The check also catches partial leaks: the key's random tail alone (what a careless "last N
// characters" log would print beyond the masked suffix) must not appear either.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const tail = randomBytes(18).toString('hex');
const canary = `svc_pat_canary_${tail}`;
// Secrets may be written to files by tests (logs, snapshots): give the run its own temp dir and scan it.
const scratch = mkdtempSync(join(tmpdir(), 'ai-gateway-canary-'));

const child = spawn(process.execPath, ['scripts/test-unit.mjs', ...process.argv.slice(2)], {
  env: { ...process.env, AI_GATEWAY_CANARY_KEY: canary, TMPDIR: scratch, FORCE_COLOR: '0', NO_COLOR: '1' },
  stdio: ['ignore', 'pipe', 'pipe'],
});

const chunks = [];
child.stdout.on('data', (b) => chunks.push(b));
child.stderr.on('data', (b) => chunks.push(b));

const code = await new Promise((resolve) => child.on('close', (c) => resolve(c ?? 1)));
const output = Buffer.concat(chunks).toString('utf8');

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const st = statSync(p);
    if (st.isDirectory()) yield* files(p);
    else if (st.isFile() && st.size < 50 * 1024 * 1024) yield p;
  }
}

const leaks = [];
if (output.includes(tail)) {
  const lines = output.split('\n').filter((l) => l.includes(tail));
  leaks.push(`test output (${lines.length} line(s))`);
}
for (const f of files(scratch)) {
  if (readFileSync(f).includes(tail)) leaks.push(`file written during the run: ${f.slice(scratch.length + 1)}`);
}
rmSync(scratch, { recursive: true, force: true });

// The suite's own summary, without the canary, so a failing suite is still visible.
const summary = output
  .split('\n')
  .filter((l) => /^ℹ (tests|pass|fail|cancelled|skipped|todo)\b/.test(l))
  .join('\n');
console.log(summary);

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
console.log(`Canary check passed: ${output.length} characters of test output contain no trace of the canary key.`);
