/**
 * [#41.15] Figures and pointers in the developer docs come from the code, not from memory: the local
 * gateway's catalog size (CONTRIBUTING), the e2e helpers CONTRIBUTING names (the file exports them), and
 * the VSIX size in PERFORMANCE.md's comparison table (held to the packager's budget, as #40.14 does for
 * the other rows).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { VSIX_BUDGET_BYTES } from '../../../scripts/package.mjs';
import { buildCatalog } from '../../localGateway/catalog';

const ROOT = path.resolve(__dirname, '../../..');
const read = (f: string): string => readFileSync(path.join(ROOT, f), 'utf8').replace(/\s+/g, ' ');

test('[#41.15] CONTRIBUTING: the local catalog\'s model and provider counts are the catalog\'s', () => {
  const models = buildCatalog(new Date(), { repriced: false, pricingVersion: '' });
  const words = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'];
  const m = /\*\*Catalog:\*\* (\d+) models over all (\w+) providers/.exec(read('docs/CONTRIBUTING.md'));
  assert.ok(m, 'CONTRIBUTING states the catalog as "N models over all <n> providers"');
  assert.equal(Number(m[1]), models.length);
  assert.equal(words.indexOf(m[2]), new Set(models.map((x) => x.id.split('/')[0])).size);
});

test('[#41.15] CONTRIBUTING: every "the `name` helper in `file`" names a file that exports it', () => {
  const text = read('docs/CONTRIBUTING.md');
  const named = [...text.matchAll(/the `(\w+)` helper in `([\w./-]+)`/g)];
  assert.ok(named.length > 0);
  for (const [, name, file] of named) {
    assert.ok(existsSync(path.join(ROOT, file)), `${file} exists`);
    assert.match(readFileSync(path.join(ROOT, file), 'utf8'), new RegExp(`export (async )?(function|const) ${name}\\b`), `${file} exports ${name}`);
  }
});

test('[#41.15] PERFORMANCE.md: the comparison table\'s VSIX size and budget are the packager\'s', () => {
  const m = /\| AI Gateway \(this\) \| VSIX ([\d,.]+) KiB \(budget ([\d,]+) KiB\)/.exec(read('docs/PERFORMANCE.md'));
  assert.ok(m, 'the comparison row states "VSIX N KiB (budget B KiB)"');
  const budget = VSIX_BUDGET_BYTES / 1024;
  assert.equal(Number(m[2].replace(/,/g, '')), budget);
  const size = Number(m[1].replace(/,/g, ''));
  assert.ok(size <= budget && size >= budget * 0.9, `${size} KiB against the budget of ${budget} KiB: stale?`);
});
