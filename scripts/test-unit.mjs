// Runs the plain-Node tier: every test/unit/**/*.test.ts with node:test through tsx.
// Node 20's --test does not expand globs, so the files are listed here. `npm run test:unit -- <substring>`
// runs the files whose path contains it. Every file gets the `vscode` test double (test/unit/vscodeDouble).
// Two files at a time (#40.6): each file is its own process, and a test that needs a port asks the OS for
// a free one (port 0) and writes only under its own mkdtemp folder, so two files never share either.
// AI_GATEWAY_UNIT_CONCURRENCY=1 runs one file at a time (to tell an interference from a failure).
// TypeScript runs through tsx/cjs plus the small ESM hooks of scripts/unit-loader.mjs, not `--import tsx`
// (#40.7: about 0.18 CPU s less per file's process; see that file).
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function find(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...find(p));
    else if (name.endsWith('.test.ts')) out.push(p);
  }
  return out;
}

const filter = process.argv.slice(2);
const files = find('test/unit').filter((f) => filter.length === 0 || filter.some((x) => f.includes(x))).sort();
if (files.length === 0) {
  console.error('No unit test files found.');
  process.exit(1);
}
const concurrency = process.env.AI_GATEWAY_UNIT_CONCURRENCY ?? '2';
if (!/^[1-9]$/.test(concurrency)) {
  console.error(`AI_GATEWAY_UNIT_CONCURRENCY must be 1-9 (got ${JSON.stringify(concurrency)}).`);
  process.exit(1);
}
const r = spawnSync(
  process.execPath,
  ['--require', 'tsx/cjs', '--import', './scripts/unit-loader.mjs', '--test', `--test-concurrency=${concurrency}`, '--test-reporter=spec', ...files],
  { stdio: 'inherit' },
);
process.exit(r.status ?? 1);
