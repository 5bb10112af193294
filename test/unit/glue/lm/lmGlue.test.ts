/**
 * [#40.5] VS Code's own chat and agent mode glue (src/lm/) against the vscode double and the local
 * gateway: registerLm.ts wires the chat provider (chatProvider.ts), the MCP definition provider
 * (mcpProvider.ts) and the site ability tool (siteAbilityTool.ts); parts.ts maps VS Code's parts;
 * nativeChatSetup.ts offers the one step that turns VS Code's chat on.
 */
import { double } from '../../vscodeDouble'; // first: points `vscode` at the double
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { startGateway, type RunningGateway } from '../../../localGateway/server';
import { LOCAL_KEYS } from '../../../localGateway/keys';
import { Services } from '../../../../src/services';
import { registerLm } from '../../../../src/lm/registerLm';
import { VENDOR, type GatewayChatProvider } from '../../../../src/lm/chatProvider';
import { MCP_PROVIDER_ID, type GatewayMcpProvider } from '../../../../src/lm/mcpProvider';
import { SITE_ABILITY_LM_TOOL, type SiteAbilityTool } from '../../../../src/lm/siteAbilityTool';
import { messageText, toLmMessages, toolResultText } from '../../../../src/lm/parts';
import { nativeChatNeedsTurnOn, offerNativeChatTurnOn } from '../../../../src/lm/nativeChatSetup';
import { LanguageModelDataPart, type DoubleExtensionContext } from '../../vscodeDouble';
import * as l10nCore from '../../../../src/core/l10n';

let gw: RunningGateway;
before(async () => {
  gw = await startGateway();
});
after(async () => {
  await gw.close();
});

let dir: string;
let ctx: DoubleExtensionContext;
let services: Services;
let registered: vscode.Disposable;
beforeEach(() => {
  double.reset();
  gw.reset();
  double.setConfig('aiGateway.baseUrl', gw.url);
  dir = mkdtempSync(join(tmpdir(), 'lm-glue-'));
  // The spend ledger writes real files: into the temporary folder.
  ctx = double.extensionContext({ globalStorageUri: vscode.Uri.file(dir) });
  services = new Services(ctx as unknown as vscode.ExtensionContext);
  registered = registerLm(services);
});
afterEach(() => {
  registered.dispose();
  services.dispose();
  rmSync(dir, { recursive: true, force: true });
});

const chat = () => double.lmChatProviders.get(VENDOR) as GatewayChatProvider;
const mcp = () => double.lmMcpProviders.get(MCP_PROVIDER_ID) as GatewayMcpProvider;
const tool = () => double.lmTools.get(SITE_ABILITY_LM_TOOL) as SiteAbilityTool;
const token = () => new vscode.CancellationTokenSource().token;
const user = (text: string) => ({ role: vscode.LanguageModelChatMessageRole.User, content: [new vscode.LanguageModelTextPart(text)], name: undefined }) as unknown as vscode.LanguageModelChatRequestMessage;
async function until(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 3000 && !cond(); i++) await new Promise((r) => setTimeout(r, i < 100 ? 0 : 10)); // a bound on failure only
  assert.ok(cond(), 'the condition never held');
}

// First: the offer is once per window (module state), and the chat provider's test reaches it too.
describe('[#40.5] turning VS Code\'s chat on (src/lm/nativeChatSetup.ts)', () => {
  test('[#29.3] offered once per window when the built-in chat is off; Turn On runs Manage Language Models', async () => {
    assert.equal(nativeChatNeedsTurnOn(), true, 'the double has no GitHub.copilot-chat');
    double.setConfig('chat.disableAIFeatures', true);
    assert.equal(nativeChatNeedsTurnOn(), false, 'AI features off: nothing to offer');
    double.setConfig('chat.disableAIFeatures', undefined);
    double.answer('Turn On');
    await offerNativeChatTurnOn(ctx.globalState as never);
    assert.deepEqual(double.messages[0].titles, ['Turn On', "Don't Ask Again"]);
    assert.deepEqual(double.executed, [{ command: 'workbench.action.chat.manage', args: [] }]);
    await offerNativeChatTurnOn(ctx.globalState as never);
    assert.equal(double.messages.length, 1, 'once per window');
  });
});

describe('[#40.5] registration (src/lm/registerLm.ts)', () => {
  test('[#40.5] the chat provider, the MCP definition provider and the site ability tool are registered, and unregistered on dispose', () => {
    assert.ok(chat());
    assert.ok(mcp());
    assert.ok(tool());
    registered.dispose();
    assert.equal(double.lmChatProviders.size + double.lmMcpProviders.size + double.lmTools.size, 0);
    registered = { dispose: () => undefined };
  });
});

describe('[#40.5] the chat provider (src/lm/chatProvider.ts)', () => {
  test('[#29.3] without a key: no models, and (when not silent) a notification offering Add API Key', async () => {
    assert.deepEqual(await chat().provideLanguageModelChatInformation({ silent: true }), []);
    assert.equal(double.messages.length, 0, 'silent asks nothing');
    double.answer('Add API Key');
    assert.deepEqual(await chat().provideLanguageModelChatInformation({ silent: false }), []);
    await until(() => double.executed.length > 0);
    assert.equal(double.messages[0].message, 'Add an AI Gateway API key to use the gateway models in chat.');
    assert.deepEqual(double.executed[0], { command: 'aiGateway.addApiKey', args: [] });
  });

  test('[#29.3] with a key: the gateway catalog\'s chat models; a reply streams from the gateway and is recorded in the spend ledger', async () => {
    await services.keys.add('Local', LOCAL_KEYS.userFull, { activate: true });
    const infos = await chat().provideLanguageModelChatInformation({ silent: true });
    const gpt = infos.find((i) => i.id === 'openai/gpt-4o');
    assert.ok(gpt, infos.map((i) => i.id).join(', '));
    assert.ok(!infos.some((i) => i.id === 'openai/gpt-4-turbo'), 'a removed model is not offered');
    const recorded: string[] = [];
    services.spend.onDidRecord((op) => recorded.push(op));
    const parts: unknown[] = [];
    await chat().provideLanguageModelChatResponse(gpt, [user('Say hello')], { tools: [], modelOptions: {}, requestInitiator: 'test', toolMode: vscode.LanguageModelChatToolMode.Auto } as never, { report: (p) => void parts.push(p) }, token());
    const text = parts.filter((p) => p instanceof vscode.LanguageModelTextPart).map((p) => (p as vscode.LanguageModelTextPart).value).join('');
    assert.ok(text.length > 0, 'text was streamed');
    await until(() => recorded.length === 1);
  });

  test('[#41.9] over budget, the refusal names the modal\'s button in the display language (Spanish: "Enviar de todos modos", not the English "Send anyway")', async (t) => {
    await services.keys.add('Local', LOCAL_KEYS.userFull, { activate: true });
    const gpt = (await chat().provideLanguageModelChatInformation({ silent: true })).find((i) => i.id === 'openai/gpt-4o')!;
    // The budget's own modal is tested in budgetService.test.ts; here only what the chat provider says when it refuses.
    services.budget.allowSend = async () => false;
    l10nCore.configure({ bundle: JSON.parse(readFileSync('l10n/bundle.l10n.es.json', 'utf8')) as Record<string, string>, locale: 'es' });
    t.after(() => l10nCore.configure({}));
    await assert.rejects(
      chat().provideLanguageModelChatResponse(gpt, [user('Hola')], { tools: [], modelOptions: {}, requestInitiator: 'test', toolMode: vscode.LanguageModelChatToolMode.Auto } as never, { report: () => undefined }, token()),
      (e: Error) => {
        assert.match(e.message, /elige "Enviar de todos modos"\)\.$/);
        return true;
      },
    );
    assert.equal(gw.events.list('request').filter((e) => (e as { path?: string }).path === '/v1/chat/completions').length, 0, 'nothing was sent');
  });
});

describe('[#40.5] the MCP definition provider (src/lm/mcpProvider.ts)', () => {
  test('[#40.5] the definition points at a local relay, never carrying the key; without a key resolving warns with Add API Key', async () => {
    const [def] = await mcp().provideMcpServerDefinitions();
    assert.equal(def.label, 'AI Gateway');
    assert.match(def.uri.toString(), /^http:\/\/127\.0\.0\.1:\d+/);
    double.answer('Add API Key');
    assert.equal(await mcp().resolveMcpServerDefinition(def), undefined);
    assert.equal(double.messages[0].message, 'AI Gateway MCP server: add an API key (a User key lets the tools act as you).');
    assert.deepEqual(double.executed[0], { command: 'aiGateway.addApiKey', args: [] });
  });

  test('[#40.5] with an Account key the definition resolves, with a note that site abilities will be refused; the version changes with the key', async () => {
    const [before] = await mcp().provideMcpServerDefinitions();
    await services.keys.add('Acct', LOCAL_KEYS.accountFull, { activate: true });
    const [def] = await mcp().provideMcpServerDefinitions();
    assert.notEqual(def.version, before.version);
    assert.equal(await mcp().resolveMcpServerDefinition(def), def);
    assert.match(double.messages[0].message, /the active key is an Account key/);
    assert.ok(!JSON.stringify(def).includes(LOCAL_KEYS.accountFull));
  });
});

describe('[#40.5] the site ability tool (src/lm/siteAbilityTool.ts)', () => {
  const input = { site_id: 'site_blog', ability: 'core/get-site-info', input: {} };

  test('[#40.5] [#41.9] the invocation message names the ability and site; Don\'t Run is the default and Escape runs nothing', async () => {
    const prepared = await tool().prepareInvocation({ input } as never);
    // Names from the model's input are escaped, never rendered as markdown.
    assert.ok((prepared.invocationMessage as vscode.MarkdownString).value.startsWith('Run site ability core/get\\-site\\-info on site site\\_blog with:'));
    await services.keys.add('Local', LOCAL_KEYS.userFull, { activate: true });
    const result = await tool().invoke({ input, toolInvocationToken: undefined } as never, token());
    const ask = double.messages.find((m) => m.options.modal)!;
    // [#41.9] one action button besides the safe default (VS Code adds its own Cancel); Escape ran nothing.
    assert.deepEqual([ask.titles, ask.defaultTitle], [["Don't Run", 'Run'], "Don't Run"]);
    assert.equal(gw.events.list('mcp-dispatch').filter((e) => (e as { method?: string }).method === 'tools/call').length, 0);
    assert.ok(result.content.length > 0);
  });

  test('[#40.5] an explicit Run calls run_site_ability on the gateway and returns its text', async () => {
    await services.keys.add('Local', LOCAL_KEYS.userFull, { activate: true });
    double.answer((shown) => ((shown as { titles?: string[] }).titles ?? []).find((t) => t !== "Don't Run"));
    const result = await tool().invoke({ input, toolInvocationToken: undefined } as never, token());
    const calls = gw.events.list('mcp-dispatch').filter((e) => (e as { method?: string }).method === 'tools/call');
    assert.equal(calls.length, 1);
    assert.ok(toolResultText(result.content).length > 0);
  });
});

describe('[#40.5] request parts (src/lm/parts.ts)', () => {
  test('[#40.5] text, tool calls, tool results, images and JSON data map to the neutral form; unknown parts are skipped', () => {
    const png = new Uint8Array([137, 80, 78, 71]);
    const msgs = [
      { role: vscode.LanguageModelChatMessageRole.User, content: [new vscode.LanguageModelTextPart('hi'), new LanguageModelDataPart(png, 'image/png'), { some: 'future part' }] },
      { role: vscode.LanguageModelChatMessageRole.Assistant, content: [new vscode.LanguageModelToolCallPart('c1', 'search', { q: 'x' })] },
      { role: 3, content: [new vscode.LanguageModelToolResultPart('c1', [new vscode.LanguageModelTextPart('found '), LanguageModelDataPart.json({ n: 1 }), new vscode.LanguageModelPromptTsxPart({ a: 1 })])] },
    ] as unknown as vscode.LanguageModelChatRequestMessage[];
    assert.deepEqual(toLmMessages(msgs), [
      { role: 'user', parts: [{ kind: 'text', text: 'hi' }, { kind: 'image', mimeType: 'image/png', data: png }] },
      { role: 'assistant', parts: [{ kind: 'toolCall', callId: 'c1', name: 'search', input: { q: 'x' } }] },
      { role: 'system', parts: [{ kind: 'toolResult', callId: 'c1', text: 'found {"n":1}{"a":1}' }] },
    ]);
    assert.equal(messageText(msgs[1]), 'search{"q":"x"}');
  });
});

