/**
 * src/protocol (the webview protocols) and the webviews reach src/core only through src/core/guards.ts,
 * which imports nothing: a protocol stays free of Node, vscode and the DOM, and a webview bundle never
 * pulls in a client.
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

test('src/protocol and src/webview import from src/core only guards.ts', () => {
  const core = resolve('src/core');
  // guards.ts, and l10n.ts (the translation of webview strings, BRIEF conventions); both import nothing.
  const allowed = [resolve('src/core/guards'), resolve('src/core/l10n')];
  const offenders: string[] = [];
  for (const file of [...files('src/protocol'), ...files('src/webview')]) {
    for (const m of readFileSync(file, 'utf8').matchAll(/^\s*(?:import|export)\s[^;]*?from\s+'([^']+)'/gm)) {
      if (!m[1].startsWith('.')) continue;
      const target = resolve(file, '..', m[1]);
      if (target.startsWith(core + '/') && !allowed.includes(target)) offenders.push(`${file} → ${m[1]}`);
    }
  }
  assert.deepEqual(offenders, []);
});
