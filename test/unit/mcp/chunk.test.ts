// The lazy dist/mcp.js chunk, bundled the way esbuild.mjs bundles host chunks (node, cjs,
// mainFields module-first), must load in plain Node and must not carry undici (it takes a fetch).
// Guards the zod/ESM-to-CJS cycle that once made the chunk throw at require time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build } from 'esbuild';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

test('the mcp chunk bundles, loads in plain Node, and leaves undici to the core chunk', async () => {
  const out = await build({
    entryPoints: ['src/core/mcp/entry.ts'],
    bundle: true,
    write: false,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode', './core.js', './mcp.js'],
    mainFields: ['module', 'main'],
    logLevel: 'silent',
  });
  const code = out.outputFiles[0].text;
  assert.ok(!/node_modules[\\/]undici[\\/]/.test(code), 'undici must not be bundled into the mcp chunk');
  const dir = mkdtempSync(join(tmpdir(), 'mcp-chunk-'));
  try {
    const file = join(dir, 'mcp.js');
    writeFileSync(file, code);
    const chunk = createRequire(file)(file) as Record<string, unknown>;
    for (const name of ['McpConnection', 'validateAgainstSchema', 'sendToolCallBatch', 'BatchLimitError']) assert.equal(typeof chunk[name], 'function', name);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
