/**
 * [#41.13] `npm install` is clean on every Node the project says it runs on: no package in
 * package-lock.json declares an `engines.node` range that a Node inside package.json's `engines.node`
 * falls outside of (npm's EBADENGINE warning), and README and CONTRIBUTING name the same minimum.
 * The versions checked are the ends of each part of the project's range (its lowest version, the last
 * minor of that major line, and two majors above an open-ended bound).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { engines?: unknown; version?: string }> };

type V = [number, number, number];
const cmp = (a: V, b: V) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
/** `20`, `20.19`, `20.x`, `6.*`: the missing parts as wildcards. */
function partial(s: string): { v: V; parts: number } {
  const nums = s.replace(/^v/, '').split('.').filter((x) => x !== '' && x !== 'x' && x !== 'X' && x !== '*').map(Number);
  return { v: [nums[0] ?? 0, nums[1] ?? 0, nums[2] ?? 0], parts: nums.length };
}
/** The next version after everything a partial version names (`20` -> 21.0.0, `20.19` -> 20.20.0). */
function bump({ v, parts }: { v: V; parts: number }): V {
  return parts <= 1 ? [v[0] + 1, 0, 0] : parts === 2 ? [v[0], v[1] + 1, 0] : [v[0], v[1], v[2] + 1];
}
/** node-semver's satisfies for the forms engines ranges use: ||, space-joined comparators, >= > <= < =, ^, ~, X, X.Y, X.*, *. */
export function satisfies(version: string, range: string): boolean {
  const v = partial(version).v;
  return range.split('||').some((set) => {
    const comps = set.trim().replace(/(>=|<=|>|<|=|\^|~)\s+/g, '$1').split(/\s+/).filter(Boolean);
    return comps.every((c) => {
      const m = /^(>=|<=|>|<|=|\^|~)?(.*)$/.exec(c)!;
      const op = m[1] ?? '';
      if (m[2] === '*' || m[2] === '' || m[2] === 'x') return true;
      const p = partial(m[2]);
      switch (op) {
        case '>=': return cmp(v, p.v) >= 0;
        case '>': return cmp(v, bump(p)) >= 0 || (p.parts === 3 && cmp(v, p.v) > 0);
        case '<': return cmp(v, p.v) < 0;
        case '<=': return cmp(v, bump(p)) < 0;
        case '^': return cmp(v, p.v) >= 0 && cmp(v, p.v[0] > 0 || p.parts === 1 ? [p.v[0] + 1, 0, 0] : [0, p.v[1] + 1, 0]) < 0;
        case '~': return cmp(v, p.v) >= 0 && cmp(v, p.parts <= 1 ? [p.v[0] + 1, 0, 0] : [p.v[0], p.v[1] + 1, 0]) < 0;
        default: return cmp(v, p.v) >= 0 && cmp(v, bump(p)) < 0;
      }
    });
  });
}
/** Versions at the ends of each part of a range the project states (`^20.19.0 || ^22.13.0 || >=24`). */
export function edges(range: string): string[] {
  return range.split('||').flatMap((set) => {
    const m = /^\s*(\^|>=)\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?\s*$/.exec(set);
    assert.ok(m, `the project's engines.node uses ^X.Y.Z or >=X parts: "${set.trim()}"`);
    const [maj, min, pat] = [Number(m[2]), Number(m[3] ?? 0), Number(m[4] ?? 0)];
    return m[1] === '^' ? [`${maj}.${min}.${pat}`, `${maj}.999.999`] : [`${maj}.${min}.${pat}`, `${maj + 2}.0.0`];
  });
}

describe('[#41.13] engines', () => {
  test('[#41.13] the range checker reads engines ranges as npm does', () => {
    assert.equal(satisfies('20.18.1', '>=20.19.0'), false);
    assert.equal(satisfies('20.19.0', '^20.19.0 || ^22.13.0 || >=24'), true);
    assert.equal(satisfies('21.0.0', '^20.19.0 || ^22.13.0 || >=24'), false);
    assert.equal(satisfies('20.20.2', '>=22'), false);
    assert.equal(satisfies('20.20.2', '20 || >=22'), true);
    assert.equal(satisfies('23.0.0', '20 || >=22'), true);
    assert.equal(satisfies('21.5.0', '18 || 20 || >=22'), false);
    assert.equal(satisfies('12.0.0', '>= 10.*'), true);
    assert.equal(satisfies('14.17.0', '>=16 || 14 >=14.17'), true);
    assert.equal(satisfies('14.16.0', '>=16 || 14 >=14.17'), false);
    assert.equal(satisfies('0.7.1', '>=0.6.11 <=0.7.0 || >=0.7.3'), false);
    assert.deepEqual(edges('^20.19.0 || >=24'), ['20.19.0', '20.999.999', '24.0.0', '26.0.0']);
  });

  test('[#41.13] every package in package-lock.json accepts every Node in package.json engines.node (no EBADENGINE)', () => {
    const nodes = edges(pkg.engines.node);
    const bad: string[] = [];
    for (const [path, entry] of Object.entries(lock.packages)) {
      if (path === '') continue;
      const range = (entry.engines as { node?: string } | undefined)?.node;
      if (typeof range !== 'string') continue;
      for (const n of nodes) if (!satisfies(n, range)) bad.push(`${path}@${entry.version} wants node ${range}, Node ${n} is in ${pkg.engines.node}`);
    }
    assert.deepEqual(bad, []);
    assert.deepEqual(lock.packages[''].engines, pkg.engines, 'package-lock.json records the same engines (npm install was run)');
  });

  test('[#41.13] README and CONTRIBUTING name the lowest Node of engines.node', () => {
    const lowest = edges(pkg.engines.node)[0].replace(/\.0$/, '');
    for (const doc of ['README.md', 'docs/CONTRIBUTING.md']) {
      const text = readFileSync(join(ROOT, doc), 'utf8');
      const named = [...text.matchAll(/Node (\d+\.\d+(?:\.\d+)?)\+/g)].map((m) => m[1]);
      assert.ok(named.length > 0, `${doc} names a Node version`);
      for (const n of named) assert.equal(n, lowest, `${doc} says Node ${n}+`);
    }
  });
});
