/**
 * The host build (esbuild.mjs): one ES-module entry, dist/extension.mjs, and the chunks esbuild splits
 * at each `import()`. What activation loads is the entry and the chunks it imports statically; every
 * command body, webview controller and heavy dependency must stay behind an `import()`. Built here in
 * memory (production settings, as `npm run package` builds), written to a temporary folder and loaded
 * in plain Node.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { activationClosure, staticImports } from '../../../bench/activationClosure';
import { installVscodeStandIn } from '../../../bench/vscodeStandIn.cjs';

/** esbuild.mjs is an ES module: loaded dynamically. */
const buildScript = (): Promise<typeof import('../../../esbuild.mjs')> => import('../../../esbuild.mjs');

/**
 * What activation loads, minified: less than what the CommonJS activation bundle weighed before the move
 * to ES modules (110.6 KB). 103.8 KB then; 110.0 KB after issues 41-43 (the catalog's capability names, the
 * agent-mode tool registrations, MCP sign-in's URI handler, the last cost in the status bar), so the room
 * left is half a kilobyte: the next addition at activation must pay for itself (docs/ARCHITECTURE.md
 * "Bundles and chunks"; `npm run bench` prints the figure).
 */
const ACTIVATION_LIMIT_BYTES = Math.floor(110.5 * 1024);

/** Heavy dependencies: reached through `import()` only. */
const HEAVY = ['node_modules/undici/', 'node_modules/yaml/', 'node_modules/@modelcontextprotocol/', 'node_modules/ajv/', 'node_modules/ajv-formats/', 'node_modules/zod/'];

/** Command bodies, webview controllers and clients: reached through `import()` only. */
const LAZY_ONLY = [
  'src/core/gateway/gatewayClient.ts',
  'src/core/http/network.ts',
  'src/core/content/frontMatter.ts',
  'src/core/content/contentClient.ts',
  'src/core/account/usageReport.ts',
  'src/core/usage/analyticsClient.ts',
  'src/core/keys/keyCheck.ts',
  'src/core/catalog/details.ts',
  'src/core/lm/siteAbilityRun.ts',
  'src/core/lm/mcpRelay.ts',
  'src/core/mcp/mcpClient.ts',
  'src/core/chat/chatController.ts',
  'src/core/chat/historyStore.ts',
  'src/core/agentLoop/agentLoop.ts',
  'src/core/knowledge/kbClient.ts',
  'src/core/knowledge/agentsClient.ts',
  'src/chat/chatWiring.ts',
  'src/chat/editorHost.ts',
  'src/chat/historyPick.ts',
  'src/keys/keyCommands.ts',
  'src/catalog/catalogCommands.ts',
  'src/content/contentCommands.ts',
  'src/content/summaryResult.ts',
  'src/media/mediaCommands.ts',
  'src/media/mediaPanel.ts',
  'src/mcp/mcpCommands.ts',
  'src/mcp/toolPanel.ts',
  'src/usage/usageCommands.ts',
  'src/usage/usagePanel.ts',
  'src/account/hostingCommands.ts',
  'src/knowledge/knowledgeCommands.ts',
  'src/lm/lmRequests.ts',
  'src/platform/costConfirm.ts',
];

/** Shown only by command-time code: the history picker, the attach menu, Generate Image. */
const CHUNK_WORDS = ['Search conversations by title or text', 'Attach to the next message', 'What should the image show?'];

interface Built {
  dir: string;
  /** Output file (relative to dir) -> the src/ and node_modules inputs esbuild put in it. */
  inputs: Map<string, string[]>;
}

let built: Built;

/** The production host build of esbuild.mjs, written to a temporary folder. */
async function buildHost(): Promise<Built> {
  const { hostOptions, addRequire } = await buildScript();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'aigw-esm-'));
  const result = await esbuild.build({ ...hostOptions, outdir: dir, write: false, metafile: true, minify: true, legalComments: 'none', define: { 'process.env.NODE_ENV': '"production"' }, logLevel: 'silent' });
  for (const f of addRequire(result.outputFiles)) {
    mkdirSync(path.dirname(f.path), { recursive: true });
    writeFileSync(f.path, f.text);
  }
  const inputs = new Map<string, string[]>();
  for (const [out, meta] of Object.entries(result.metafile.outputs)) inputs.set(path.relative(dir, path.resolve(out)), Object.keys(meta.inputs));
  return { dir, inputs };
}

function closureInputs(b: Built): { files: string[]; inputs: string[]; bytes: number } {
  const c = activationClosure(path.join(b.dir, 'extension.mjs'));
  return { ...c, inputs: c.files.flatMap((f) => b.inputs.get(f) ?? []) };
}

describe('ES-module host build', () => {
  before(async () => {
    built = await buildHost();
  });
  after(() => rmSync(built.dir, { recursive: true, force: true }));

  test('the closure reader follows static imports only, not import()', () => {
    assert.deepEqual(staticImports('import{a as b}from"./chunk-A.mjs";import"./chunk-B.mjs";const c=()=>import("./lazy-C.mjs");'), ['./chunk-A.mjs', './chunk-B.mjs']);
    assert.deepEqual(staticImports('import {\n  x\n} from "./chunk-D.mjs";\nexport { y } from "./chunk-E.mjs";'), ['./chunk-D.mjs']);
  });

  test('what activation loads holds no heavy dependency (undici, yaml, the MCP SDK, ajv, zod)', () => {
    const { inputs } = closureInputs(built);
    assert.ok(inputs.includes('src/extension.ts') && inputs.includes('src/content/altTextDiagnostics.ts'), 'the closure lists the entry and the missing-alt diagnostics');
    assert.ok(!inputs.includes('src/core/content/imageRefs.ts'), 'the image scanner loads on the first alt-text check, not at activation');
    const leaked = inputs.filter((i) => HEAVY.some((h) => i.includes(h)));
    assert.deepEqual([...new Set(leaked.map((i) => i.slice(i.lastIndexOf('node_modules/')).split('/').slice(0, 2).join('/')))], [], 'statically imported from activation code; reach it through import() where it is used');
    // ...and they are in the build, behind import().
    const all = [...built.inputs.values()].flat();
    for (const h of ['node_modules/undici/', 'node_modules/yaml/', 'node_modules/@modelcontextprotocol/', 'node_modules/ajv/']) assert.ok(all.some((i) => i.includes(h)), `${h} is bundled`);
  });

  test('what activation loads holds no command body, webview controller or client', () => {
    const { inputs } = closureInputs(built);
    assert.ok(inputs.includes('src/chat/registerChat.ts') && inputs.includes('src/platform/budgetService.ts'), 'the activation parts are there');
    assert.deepEqual(
      inputs.filter((i) => LAZY_ONLY.includes(i)),
      [],
      'statically imported from activation code; import() it where it is used',
    );
  });

  test(`what activation loads is at most ${ACTIVATION_LIMIT_BYTES / 1024} KB and has none of the command-time words`, () => {
    const { files, bytes } = closureInputs(built);
    assert.ok(bytes <= ACTIVATION_LIMIT_BYTES, `dist/extension.mjs and its static chunks would be ${bytes} bytes (${(bytes / 1024).toFixed(1)} KB), over ${ACTIVATION_LIMIT_BYTES}: import() command-time code where it is used`);
    const text = files.map((f) => readFileSync(path.join(built.dir, f), 'utf8')).join('\n');
    assert.ok(text.includes('aiGateway.chatPanel'), 'the text is the activation code (it registers the chat tab serializer)');
    for (const words of CHUNK_WORDS) assert.ok(!text.includes(words), `"${words}" is loaded at activation`);
  });

  test('every module is in exactly one output file, so module-level state exists once', () => {
    const where = new Map<string, string[]>();
    for (const [out, inputs] of built.inputs) for (const i of inputs) if (i.startsWith('src/')) where.set(i, [...(where.get(i) ?? []), out]);
    assert.ok((where.get('src/platform/config.ts') ?? []).length === 1 && (where.get('src/services.ts') ?? []).length === 1, 'the settings source and the services are found');
    const twice = [...where].filter(([, outs]) => outs.length > 1).map(([i, outs]) => `${i}: ${outs.join(', ')}`);
    assert.deepEqual(twice, []);
  });

  test('the files of the build are ES modules, and only the one holding the require shim gets a require', () => {
    const host = readdirSync(built.dir).filter((f) => statSync(path.join(built.dir, f)).isFile());
    assert.ok(host.every((f) => f.endsWith('.mjs')), host.join(', '));
    const withRequire = host.filter((f) => readFileSync(path.join(built.dir, f), 'utf8').includes('__aigwCreateRequire'));
    assert.ok(withRequire.length >= 1 && withRequire.length <= 2, `the createRequire banner is in ${withRequire.length} files`);
  });

  test('the entry loads in plain Node, and so do the MCP SDK and undici chunks (they need require)', () => {
    installVscodeStandIn(built.dir);
    const chunk = (name: string): string => {
      const f = readdirSync(built.dir).find((x) => x.startsWith(`${name}-`) && x.endsWith('.mjs'));
      assert.ok(f, `a chunk named ${name}`);
      return path.join(built.dir, f);
    };
    const script = `
      const ext = await import(${JSON.stringify(path.join(built.dir, 'extension.mjs'))});
      const mcp = await import(${JSON.stringify(chunk('mcpClient'))});
      const net = await import(${JSON.stringify(chunk('network'))});
      const names = (m) => Object.values(m).filter((v) => typeof v === 'function').length;
      process.stdout.write(JSON.stringify({ activate: typeof ext.activate, mcp: names(mcp), net: names(net) }));`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', cwd: built.dir });
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout) as { activate: string; mcp: number; net: number };
    assert.equal(out.activate, 'function');
    assert.ok(out.mcp > 0 && out.net > 0, r.stdout);
  });
});

describe('src/ under ES modules', () => {
  const files = (dir: string): string[] => readdirSync(dir).flatMap((n) => (statSync(path.join(dir, n)).isDirectory() ? files(path.join(dir, n)) : n.endsWith('.ts') ? [path.join(dir, n)] : []));

  test('no source file uses __dirname or __filename (an ES module has neither)', () => {
    const found = files('src').filter((f) => /\b__(dirname|filename)\b/.test(readFileSync(f, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '')));
    assert.deepEqual(found, []);
  });
});
