/**
 * What the activation bundle (dist/extension.js) may contain. Command-time logic lives in the lazily
 * loaded chunks dist/core.js (src/core/entry.ts) and dist/editor.js (src/editorChunk.ts), reached
 * through each feature's façade (src/<feature>/<feature>Api.ts), so a static import of one of these
 * modules from activation code silently grows the activation bundle, which must stay small: at most
 * 120 KB minified (a size, checked here on an in-memory production build; `npm run bench` also times it).
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

/** The production activation bundle as esbuild.mjs builds it (host config, --production), in memory. */
async function productionActivation(): Promise<{ bytes: number; text: string }> {
  const result = await esbuild.build({
    entryPoints: ['src/extension.ts'],
    bundle: true,
    minify: true,
    legalComments: 'none',
    define: { 'process.env.NODE_ENV': '"production"' },
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode', './core.js', './mcp.js', './editor.js'],
    mainFields: ['module', 'main'],
    write: false,
    outfile: 'extension.js',
    logLevel: 'silent',
  });
  const out = result.outputFiles[0];
  return { bytes: out.contents.byteLength, text: out.text };
}

/** Shown only by code of dist/editor.js: src/chat/historyPick.ts, src/chat/editorHost.ts, src/media/imageCommand.ts. */
const CHUNK_WORDS = ['Search conversations by title or text', 'Attach to the next message', 'What should the image show?'];

/** The goal of docs/ARCHITECTURE.md ("Bundles and chunks"). */
const ACTIVATION_LIMIT_BYTES = 120 * 1024;

/**
 * Loaded with dist/editor.js when a chat view or tab resolves or a chat, media, summary or catalog
 * command first runs (src/chat/chatApi.ts, src/media/mediaApi.ts, ...), never at activation.
 */
const EDITOR_ONLY = [
  'src/core/chat/chatController.ts',
  'src/core/chat/historyStore.ts',
  'src/core/chat/conversation.ts',
  'src/core/agent/agentLoop.ts',
  'src/core/agent/toolbox.ts',
  'src/core/spend/promptCost.ts',
  'src/chat/chatWiring.ts',
  'src/chat/editorHost.ts',
  'src/chat/agentHost.ts',
  'src/chat/historyPick.ts',
  'src/media/mediaCommands.ts',
  'src/media/imageCommand.ts',
  'src/media/speechCommand.ts',
  'src/media/transcribeCommand.ts',
  'src/media/mediaRunner.ts',
  'src/media/mediaFiles.ts',
  'src/media/mediaPanel.ts',
  'src/content/summaryResult.ts',
  'src/catalog/catalogCommands.ts',
  'src/usage/costConfirm.ts',
];

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
  'src/core/lm/siteAbilityRun.ts',
  'src/core/mcp/outcomeLedger.ts',
];

describe('activation bundle', () => {
  test('holds no command-time module of the lazy core chunk (undici, yaml, content, account, key check, model details)', async () => {
    const inputs = await activationInputs();
    assert.ok(inputs.includes('src/extension.ts'), 'the metafile lists the entry');
    assert.ok(inputs.includes('src/core/content/imageRefs.ts'), 'the missing-alt diagnostics scan at activation');
    const leaked = inputs.filter((i) => LAZY_ONLY.some((p) => i.startsWith(p)));
    assert.deepEqual(leaked, [], `statically imported into dist/extension.js; import the type only and call it through the feature's façade: ${leaked.join(', ')}`);
  });

  test('holds neither the chat (controller, history store, agent loop, editor host) nor the media, summary and catalog command bodies', async () => {
    const inputs = await activationInputs();
    assert.ok(inputs.includes('src/chat/registerChat.ts') && inputs.includes('src/media/registerMedia.ts'), 'the activation parts are bundled');
    const leaked = inputs.filter((i) => EDITOR_ONLY.includes(i));
    assert.deepEqual(leaked, [], `statically imported into dist/extension.js; reach them through the feature's façade (dist/editor.js): ${leaked.join(', ')}`);
  });

  test('the production activation bundle is at most 120 KB and has none of the chat\'s or the media commands\' words', async () => {
    const { bytes, text } = await productionActivation();
    assert.ok(bytes <= ACTIVATION_LIMIT_BYTES, `dist/extension.js would be ${bytes} bytes (${(bytes / 1024).toFixed(1)} KB), over ${ACTIVATION_LIMIT_BYTES}: move command-time code behind a façade`);
    // Minification keeps string literals: words of the history picker, the attach menu and Generate Image.
    assert.ok(text.includes('aiGateway.chatPanel'), 'the output is the activation bundle (it registers the chat tab serializer)');
    for (const words of CHUNK_WORDS) assert.ok(!text.includes(words), `"${words}" is in dist/extension.js`);
  });
});
