// `npm run test:electron`: the in-editor suite (test/e2e/in-editor/suite.ts) inside desktop VS Code via
// @vscode/test-electron. It DOWNLOADS VS Code, so it only works on machines with internet access; on
// machines without (like this project's CI), use `npm run test:e2e` (code-server + Chromium), which is
// the tier `npm test` runs. Set VSCODE_VERSION to pick a version (default: the manifest's floor).
import * as esbuild from 'esbuild';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runTests } from '@vscode/test-electron';
import { ROOT } from './provision-editor.mjs';

const outDir = join(ROOT, '.cache', 'electron-suite');
await esbuild.build({
  entryPoints: [join(ROOT, 'test', 'e2e', 'in-editor', 'suite.ts')],
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  external: ['vscode'],
  outfile: join(outDir, 'suite.js'),
  logLevel: 'warning',
});
const floor = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).engines.vscode.replace(/^[^\d]*/, '');
try {
  await import('./package.mjs').then((m) => m.packageExtension({ quiet: true }));
  await runTests({
    version: process.env.VSCODE_VERSION ?? floor,
    extensionDevelopmentPath: ROOT,
    extensionTestsPath: join(outDir, 'suite.js'),
    launchArgs: ['--disable-extensions', '--disable-workspace-trust', '--skip-welcome', '--skip-release-notes'],
  });
} catch (e) {
  console.error(`\n[test:electron] failed: ${e instanceof Error ? e.message : String(e)}`);
  console.error('[test:electron] This tier downloads VS Code; without internet use `npm run test:e2e` instead.');
  process.exit(1);
}
