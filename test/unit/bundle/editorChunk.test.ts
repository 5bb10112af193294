/**
 * dist/editor.js, the command-time editor glue (src/editorChunk.ts): activation registers its commands
 * as stubs (src/commands.ts registerLazyCommands) and loads it on the first call. Two things can go
 * wrong silently: a stateful module bundled twice (the chunk's copy of the settings source or of the
 * shared network would be uninitialised), and a stub whose id the chunk never registers.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as esbuild from 'esbuild';

/** scripts/editorChunk.mjs is an ES module (esbuild.mjs imports it): loaded dynamically. */
const chunkBuild = (): Promise<{ EDITOR_SHARED: string[]; shareWithActivation: esbuild.Plugin }> => import('../../../scripts/editorChunk.mjs');

const EXTERNAL = ['vscode', './core.js', './mcp.js', './editor.js', './extension.js'];

async function inputs(entry: string, plugins: esbuild.Plugin[] = []): Promise<string[]> {
  const r = await esbuild.build({ entryPoints: [entry], bundle: true, platform: 'node', format: 'cjs', external: EXTERNAL, mainFields: ['module', 'main'], write: false, metafile: true, outfile: 'x.js', logLevel: 'silent', plugins });
  return Object.keys(r.metafile.inputs);
}

/** Module-level mutable state: a top-level `let`/`var`, a top-level Map/WeakMap, or a static field that is not readonly. */
function statefulLines(text: string): string[] {
  return text.split('\n').filter((l) => /^(export )?(let|var) /.test(l) || /^(export )?const \w+(: [^=]+)? = new (Weak)?Map\b/.test(l) || /^\s+(private |protected |public )?static (?!readonly)\w+\s*[:=]/.test(l));
}

describe('editor chunk (dist/editor.js)', () => {
  test('the state detector finds a top-level let, a module Map and a mutable static; not constants', () => {
    assert.equal(statefulLines('let source: X | undefined;\nconst instances = new WeakMap<object, U>();\nclass P {\n  private static current: P | undefined;\n}').length, 3);
    assert.deepEqual(statefulLines("const KEYS = new Set(['a']);\nconst LIMIT = 5;\nclass P {\n  static readonly ID = 'x';\n}"), []);
  });

  test('the shared list of the build equals src/activationShared.ts', async () => {
    const { EDITOR_SHARED } = await chunkBuild();
    const text = readFileSync('src/activationShared.ts', 'utf8');
    const keys = [...text.matchAll(/^\s+'(src\/[^']+)': \w+,$/gm)].map((m) => m[1]);
    assert.deepEqual([...keys].sort(), [...EDITOR_SHARED].sort());
  });

  test('no module with module-level state is bundled both into dist/extension.js and dist/editor.js', async () => {
    const { EDITOR_SHARED, shareWithActivation } = await chunkBuild();
    const activation = new Set(await inputs('src/extension.ts'));
    const editor = await inputs('src/editorChunk.ts', [shareWithActivation]);
    assert.ok(editor.includes('src/keys/keyCommands.ts'), 'the metafile lists the chunk modules');
    for (const shared of EDITOR_SHARED) assert.ok(!editor.includes(shared), `${shared} is taken from dist/extension.js, not bundled again`);
    const doubled = editor.filter((f) => f.startsWith('src/') && activation.has(f));
    const stateful = doubled.filter((f) => statefulLines(readFileSync(f, 'utf8')).length > 0);
    assert.deepEqual(stateful, [], 'add these to EDITOR_SHARED (scripts/editorChunk.mjs) and src/activationShared.ts');
  });

  test('the command bodies of the chunk are not in the activation bundle', async () => {
    const activation = await inputs('src/extension.ts');
    const leaked = activation.filter((f) => ['src/keys/keyCommands.ts', 'src/account/hostingCommands.ts', 'src/account/usageCommands.ts', 'src/knowledge/knowledgeCommands.ts', 'src/mcp/mcpCommands.ts', 'src/mcp/toolPanel.ts', 'src/content/contentCommands.ts', 'src/content/altTextCommands.ts', 'src/content/textCommands.ts', 'src/lm/lmRequests.ts', 'src/core/lm/messages.ts', 'src/chat/chatWiring.ts', 'src/media/mediaCommands.ts', 'src/catalog/catalogCommands.ts', 'src/content/summaryResult.ts', 'src/core/gateway/toolWire.ts', 'src/editorChunk.ts'].includes(f));
    assert.deepEqual(leaked, []);
  });

  test('every lazily registered command id is registered by the chunk, and the other way round', () => {
    const files = (dir: string): string[] => readdirSync(dir).flatMap((n) => (statSync(path.join(dir, n)).isDirectory() ? files(path.join(dir, n)) : n.endsWith('.ts') ? [path.join(dir, n)] : []));
    const src = files('src').map((f) => ({ f, text: readFileSync(f, 'utf8') }));
    const stubbed = new Set<string>();
    for (const { text } of src) {
      for (const call of text.matchAll(/registerLazyCommands\(\s*\[([^\]]*)\]/g)) for (const id of call[1].matchAll(/'([^']+)'/g)) stubbed.add(id[1]);
    }
    const chunkModules = [...readFileSync('src/editorChunk.ts', 'utf8').matchAll(/from '\.\/([^']+)'/g)].map((m) => `src/${m[1]}.ts`);
    const inChunk = new Set<string>();
    for (const m of chunkModules) {
      const reexports = [...readFileSync(m, 'utf8').matchAll(/^(?:import|export) (?!type )[^;]*?from '\.\/([^']+)';$/gm)].map((x) => path.join(path.dirname(m), `${x[1]}.ts`));
      for (const f of [m, ...reexports]) for (const id of readFileSync(f, 'utf8').matchAll(/(?:registerCommand|command)\('([^']+)'/g)) inChunk.add(id[1]);
    }
    assert.ok(stubbed.size >= 30, `found ${stubbed.size} stubbed ids`);
    assert.deepEqual([...stubbed].filter((id) => !inChunk.has(id)), [], 'stubbed but never registered by the chunk: the command would throw');
    assert.deepEqual([...inChunk].filter((id) => !stubbed.has(id)), [], 'registered by the chunk but not stubbed at activation: the command would not exist');
  });

  test('built side by side, the chunk loads against the activation bundle and shares its modules', async () => {
    const { EDITOR_SHARED, shareWithActivation } = await chunkBuild();
    const dir = mkdtempSync(path.join(os.tmpdir(), 'editor-chunk-'));
    try {
      const common = { bundle: true, platform: 'node' as const, format: 'cjs' as const, outdir: dir, external: EXTERNAL, mainFields: ['module', 'main'], logLevel: 'silent' as const };
      await esbuild.build({ ...common, entryPoints: [{ in: 'src/extension.ts', out: 'extension' }] });
      await esbuild.build({ ...common, entryPoints: [{ in: 'src/editorChunk.ts', out: 'editor' }], plugins: [shareWithActivation] });
      assert.ok(existsSync(path.join(dir, 'editor.js')));
      // A child process with the bench's `vscode` stand-in: the chunk must find `activationShared`.
      const script = `
        const Module = require('node:module');
        const stub = ${JSON.stringify(path.resolve('bench/vscodeStub.cjs'))};
        const original = Module._resolveFilename;
        Module._resolveFilename = function (request, ...rest) { return request === 'vscode' ? stub : original.call(this, request, ...rest); };
        const ext = require(${JSON.stringify(path.join(dir, 'extension.js'))});
        const editor = require(${JSON.stringify(path.join(dir, 'editor.js'))});
        const shared = Object.keys(ext.activationShared).filter((k) => ext.activationShared[k] && typeof ext.activationShared[k] === 'object');
        process.stdout.write(JSON.stringify({ shared, namespaces: Object.keys(editor).sort() }));`;
      const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
      const out = JSON.parse(r.stdout) as { shared: string[]; namespaces: string[] };
      assert.deepEqual(out.shared.sort(), [...EDITOR_SHARED].sort());
      assert.deepEqual(out.namespaces, ['account', 'catalog', 'chat', 'content', 'keys', 'knowledge', 'lm', 'mcp', 'media']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
