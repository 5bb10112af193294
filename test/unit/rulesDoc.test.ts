/**
 * docs/RULES.md explains every rule id (`G-…`, `H-…`) and every issue item (`[#27.4]`) that src/ and test/
 * cite, and lists nothing that nobody cites. A newcomer who reads `[G-AUTH-3]` in a test can look it up.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const PAGE = 'docs/RULES.md';
const SCANNED = ['src', 'test'];
const THIS_FILE = join('test', 'unit', 'rulesDoc.test.ts');
const TEXT_FILE = /\.(?:[cm]?[jt]sx?|css|html|json|md)$/;

function textFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...textFiles(p));
    else if (TEXT_FILE.test(name) && p !== THIS_FILE) out.push(p);
  }
  return out;
}

/** A rule id, with the short forms comments use for several: `G-CAT-5/6`, `G-CAT-10/11/12`, `G-AN-1..9`. */
const RULE_CITE = /\b([GH]-[A-Z]+)-(\d+)((?:(?:\.\.|\/)\d+)*)/g;

/** Every rule id `text` cites, short forms expanded. */
function citedRules(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(RULE_CITE)) {
    const [, family, first, rest] = m;
    let prev = Number(first);
    out.push(`${family}-${prev}`);
    for (const part of rest.matchAll(/(\.\.|\/)(\d+)/g)) {
      const n = Number(part[2]);
      if (part[1] === '..') for (let i = prev + 1; i <= n; i++) out.push(`${family}-${i}`);
      else out.push(`${family}-${n}`);
      prev = n;
    }
  }
  return out;
}

/** Every issue item `text` cites in the form `[#27.4]`. */
function citedItems(text: string): string[] {
  return [...text.matchAll(/\[#(\d+\.\d+)\]/g)].map((m) => `#${m[1]}`);
}

/** The ids the page explains: rows `| id | statement | source |` (rules) or `| #n.m | statement |` (items). */
function pageRows(page: string): { rules: Map<string, string[]>; items: Map<string, string[]> } {
  const rules = new Map<string, string[]>();
  const items = new Map<string, string[]>();
  for (const line of page.split('\n')) {
    const cells = line.split('|').slice(1, -1).map((c) => c.trim());
    if (cells.length < 2) continue;
    if (/^[GH]-[A-Z]+-\d+$/.test(cells[0])) rules.set(cells[0], cells.slice(1));
    else if (/^#\d+\.\d+$/.test(cells[0])) items.set(cells[0], cells.slice(1));
  }
  return { rules, items };
}

function cited(): { rules: Map<string, string>; items: Map<string, string> } {
  const rules = new Map<string, string>();
  const items = new Map<string, string>();
  for (const f of SCANNED.flatMap(textFiles).sort()) {
    const text = readFileSync(f, 'utf8');
    for (const id of citedRules(text)) if (!rules.has(id)) rules.set(id, f);
    for (const id of citedItems(text)) if (!items.has(id)) items.set(id, f);
  }
  return { rules, items };
}

const byId = (a: string, b: string): number => a.localeCompare(b, 'en', { numeric: true });

test('every rule id cited in src/ or test/ has a row in docs/RULES.md with a statement and its source', () => {
  const { rules } = pageRows(readFileSync(PAGE, 'utf8'));
  const missing = [...cited().rules].filter(([id]) => !rules.has(id)).map(([id, file]) => `${id} (first cited in ${file})`);
  assert.deepEqual(missing, [], `add these to ${PAGE}`);
  const incomplete = [...rules].filter(([, cells]) => cells.length < 2 || cells.slice(0, 2).some((c) => c === '')).map(([id]) => id);
  assert.deepEqual(incomplete, [], 'each rule row needs a statement and a source section');
});

test('docs/RULES.md lists no rule id that nothing in src/ or test/ cites', () => {
  const used = cited().rules;
  const unused = [...pageRows(readFileSync(PAGE, 'utf8')).rules.keys()].filter((id) => !used.has(id)).sort(byId);
  assert.deepEqual(unused, []);
});

test('every issue item cited as [#n.m] has a row in docs/RULES.md, and every row is cited', () => {
  const { items } = pageRows(readFileSync(PAGE, 'utf8'));
  const used = cited().items;
  const missing = [...used].filter(([id]) => !items.has(id)).map(([id, file]) => `${id} (first cited in ${file})`);
  assert.deepEqual(missing, [], `add these to ${PAGE}`);
  const unused = [...items.keys()].filter((id) => !used.has(id)).sort(byId);
  assert.deepEqual(unused, []);
  const incomplete = [...items].filter(([, cells]) => (cells[0] ?? '') === '').map(([id]) => id);
  assert.deepEqual(incomplete, []);
});

test('the id readers see every form that src/ and test/ use', () => {
  assert.deepEqual(citedRules("test('[G-AUTH-3] [G-ERR-1] a revoked key')"), ['G-AUTH-3', 'G-ERR-1']);
  assert.deepEqual(citedRules('(G-CAT-5/6) and G-CAT-10/11/12'), ['G-CAT-5', 'G-CAT-6', 'G-CAT-10', 'G-CAT-11', 'G-CAT-12']);
  assert.deepEqual(citedRules('Covers H-AUTH-1, H-CE-1..3 and H-ERR-1.'), ['H-AUTH-1', 'H-CE-1', 'H-CE-2', 'H-CE-3', 'H-ERR-1']);
  assert.deepEqual(citedRules('SHA-256, UTF-8, X-Request-ID, svc_pat_, G-cat-1'), []);
  assert.deepEqual(citedItems("describe('[#27.13] x', () => test('[#32.1] y'))"), ['#27.13', '#32.1']);
  const rows = pageRows('| id | a | b |\n|---|---|---|\n| G-CAT-1 | lists | Catalog |\n| #27.4 | torn lines |\n');
  assert.deepEqual([...rows.rules.keys()], ['G-CAT-1']);
  assert.deepEqual([...rows.items.keys()], ['#27.4']);
});
