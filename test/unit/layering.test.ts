import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

function tsFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...tsFiles(p));
    else if (name.endsWith('.ts')) out.push(p);
  }
  return out;
}

const IMPORTS_VSCODE = /(?:from\s+['"]vscode['"]|require\(\s*['"]vscode['"]\s*\)|import\(\s*['"]vscode['"]\s*\))/;

for (const layer of ['src/core', 'src/shared', 'src/webview']) {
  test(`${layer} never imports vscode`, () => {
    const offenders = tsFiles(layer).filter((f) => IMPORTS_VSCODE.test(readFileSync(f, 'utf8')));
    assert.deepEqual(offenders, []);
  });
}

test('the layering check itself detects a vscode import', () => {
  assert.ok(IMPORTS_VSCODE.test(`import * as vscode from 'vscode';`));
  assert.ok(IMPORTS_VSCODE.test(`const v = require("vscode")`));
  assert.ok(!IMPORTS_VSCODE.test(`import { x } from './vscodeish';`));
});
