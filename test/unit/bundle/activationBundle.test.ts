/**
 * What the activation bundle (dist/extension.js) may contain. Command-time logic lives in the lazily
 * loaded chunk dist/core.js (src/core/entry.ts, reached through each feature's façade, src/<feature>/<feature>Api.ts), so a static
 * import of one of these modules from editor glue silently doubles the activation bundle, which must stay small (goal at most 120 KB minified). This checks composition, not size: sizes are reported by `npm run bench`.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as esbuild from 'esbuild';

/** Bundles src/extension.ts the way esbuild.mjs does, in memory, and lists the bundled inputs. */
async function activationInputs(): Promise<string[]> {
  const result = await esbuild.build({
    entryPoints: ['src/extension.ts'],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    external: ['vscode', './core.js', './mcp.js', './editor.js'],
    mainFields: ['module', 'main'],
    write: false,
    metafile: true,
    outfile: 'activation.js',
    logLevel: 'silent',
  });
  return Object.keys(result.metafile.outputs['activation.js']?.inputs ?? {});
}

/** Must only be reached through the lazy chunk. */
const LAZY_ONLY = [
  'node_modules/undici/',
  'node_modules/yaml/',
  'src/core/gateway/gatewayClient.ts',
  'src/core/content/frontMatter.ts',
  'src/core/content/contentClient.ts',
  'src/core/content/chatFallback.ts',
  'src/core/content/wire.ts',
  'src/core/account/usageReport.ts',
  'src/core/account/transferForm.ts',
  'src/core/account/exclusionsDocument.ts',
  'src/core/analytics/analytics.ts',
  'src/core/keys/keyCheck.ts',
  'src/core/catalog/details.ts',
  'src/core/catalog/repricing.ts',
];

describe('activation bundle', () => {
  test('holds no command-time module of the lazy core chunk (undici, yaml, content, account, key check, model details)', async () => {
    const inputs = await activationInputs();
    assert.ok(inputs.includes('src/extension.ts'), 'the metafile lists the entry');
    assert.ok(inputs.includes('src/core/content/imageRefs.ts'), 'the missing-alt diagnostics scan at activation');
    const leaked = inputs.filter((i) => LAZY_ONLY.some((p) => i.startsWith(p)));
    assert.deepEqual(leaked, [], `statically imported into dist/extension.js; import the type only and call it through the feature's façade: ${leaked.join(', ')}`);
  });
});
