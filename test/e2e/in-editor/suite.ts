/**
 * In-editor checks run INSIDE the extension host by `npm run test:electron` (@vscode/test-electron,
 * machines that can download VS Code). Exports `run()`, the entry point VS Code's test runner calls.
 * Kept small on purpose: the UI journeys live in test/e2e/*.e2e.ts (code-server + Chromium), which run
 * everywhere; this suite proves the same VSIX contract in desktop VS Code (Electron).
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';

const EXTENSION_ID = 'ai-gateway.ai-gateway-vscode';

interface ManifestCommand {
  command: string;
  category?: string;
}

export async function run(): Promise<void> {
  const checks: Array<[string, () => Promise<void>]> = [
    [
      'the extension is installed and activates',
      async () => {
        const ext = vscode.extensions.getExtension(EXTENSION_ID);
        assert.ok(ext, `${EXTENSION_ID} is not installed`);
        await ext.activate();
        assert.equal(ext.isActive, true);
      },
    ],
    [
      'every command in the manifest is registered, in the "AI Gateway" category',
      async () => {
        const ext = vscode.extensions.getExtension(EXTENSION_ID);
        const declared = ((ext?.packageJSON as { contributes?: { commands?: ManifestCommand[] } }).contributes?.commands ?? []);
        assert.ok(declared.length > 0, 'the manifest declares commands');
        const registered = new Set(await vscode.commands.getCommands(true));
        for (const c of declared) {
          assert.ok(registered.has(c.command), `${c.command} is declared but not registered`);
          assert.equal(c.category, 'AI Gateway', `${c.command} has category "AI Gateway"`);
        }
      },
    ],
  ];
  let failed = 0;
  for (const [name, check] of checks) {
    try {
      await check();
      console.log(`  ✔ ${name}`);
    } catch (e) {
      failed++;
      console.log(`  ✖ ${name}\n    ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  console.log(`${checks.length - failed} passed, ${failed} failed`);
  if (failed > 0) throw new Error(`${failed} in-editor check(s) failed`);
}
