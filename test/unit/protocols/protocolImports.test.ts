/**
 * src/protocol (the webview protocols) and the webviews reach src/core only through src/core/guards.ts
 * and src/core/l10n.ts (their words' translation, #30.2), which import nothing: a protocol stays free of
 * Node, vscode and the DOM, and a webview bundle never pulls in a client.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
}

test('src/protocol and src/webview import from src/core only guards.ts and l10n.ts', () => {
  const core = resolve('src/core');
  const allowed = new Set([resolve('src/core/guards'), resolve('src/core/l10n')]);
  const offenders: string[] = [];
  for (const file of [...files('src/protocol'), ...files('src/webview')]) {
    for (const m of readFileSync(file, 'utf8').matchAll(/^\s*(?:import|export)\s[^;]*?from\s+'([^']+)'/gm)) {
      if (!m[1].startsWith('.')) continue;
      const target = resolve(file, '..', m[1]);
      if (target.startsWith(core + '/') && !allowed.has(target)) offenders.push(`${file} → ${m[1]}`);
    }
  }
  assert.deepEqual(offenders, []);
});

test('[#30.2] src/core/l10n.ts, which the webviews bundle, imports nothing', () => {
  assert.doesNotMatch(readFileSync('src/core/l10n.ts', 'utf8'), /^\s*import\s/m);
});
