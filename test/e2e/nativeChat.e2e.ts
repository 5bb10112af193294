/**
 * The gateway inside VS Code's own AI features, in the real editor (code-server 4.139.1).
 *
 * A test-only extension (test/e2e/lmProbe, installed next to the VSIX by the harness) uses VS Code's
 * public language model API exactly as another extension or VS Code's chat would: it selects the
 * `ai-gateway` models, sends a request, a request with a tool (and the follow-up with the result),
 * parallel calls split over many chunks, an invalid call, a cancelled request, counts tokens and lists
 * the MCP server definitions. It writes what it saw to the workspace; this journey holds the
 * expectations, against the local gateway's own catalog and event log. Then **Chat: Manage Language
 * Models** is opened to see the models with their pricing (screenshot native-chat-models).
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { buildCatalog, isRemoved } from '../localGateway/catalog';
import { LOCAL_KEYS } from '../localGateway/keys';
import { TOOLS, TOOLS_PAGE_SIZE } from '../localGateway/mcpTools';
import { launchEditor, TIMEOUTS, type Editor } from './harness';

interface Step<T> {
  ok: boolean;
  value?: T;
  error?: { name?: string; code?: string; message: string };
}
interface Collected {
  text: string;
  calls: Array<{ callId: string; name: string; input: Record<string, unknown> }>;
}
interface McpDefs {
  available: boolean;
  labels?: string[];
  uris?: string[];
  versions?: Array<string | undefined>;
}
interface ProbeResults {
  models: Step<Array<{ id: string; name: string; vendor: string; maxInputTokens: number; capabilities?: { supportsToolCalling?: boolean; supportsImageToText?: boolean } }>>;
  text: Step<Collected>;
  toolCall: Step<{ first: Collected; second?: Collected }>;
  splitToolCalls: Step<Collected>;
  invalidToolCall: Step<Collected>;
  cancel: Step<{ partsBeforeEnd: number; ended: string; cancelled: boolean }>;
  countTokens: Step<{ short: number; long: number; longAgain: number }>;
  mcpServerDefinitions: Step<McpDefs>;
  tools: Step<string[]>;
}

/** Polls for a file the probe writes (a condition, not a delay). */
async function waitForFile(path: string, timeoutMs: number): Promise<string> {
  const until = Date.now() + timeoutMs;
  while (!existsSync(path)) {
    if (Date.now() > until) throw new Error(`${path} was not written within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return readFileSync(path, 'utf8');
}

/** The documented default of src/core/lm/modelInfo.ts, written out here on purpose. */
const DEFAULT_MAX_INPUT_TOKENS = 8192;
const DEFAULT_MAX_OUTPUT_TOKENS = 4096;

describe('VS Code language model API: the gateway as a provider', () => {
  let editor: Editor;
  let results: ProbeResults;

  before(async () => {
    editor = await launchEditor({ name: 'native-chat', gateway: { chunkDelayMs: 0, slowChunkDelayMs: 200 } });
    await editor.addKey('work', LOCAL_KEYS.userFull);
    await editor.runCommand('AI Gateway Probe: Run Language Model Checks');
    results = JSON.parse(await waitForFile(join(editor.workspace, 'lm-probe-results.json'), TIMEOUTS.workbench)) as ProbeResults;
  });

  after(async () => {
    await editor?.close();
  });

  test('[G-CAT-11] the models are the catalog chat and messages models, removed ones absent, with limits and capabilities', () => {
    const gw = editor.gateway;
    assert.ok(gw, 'local gateway');
    const now = gw.options.now();
    const catalog = buildCatalog(now, { repriced: gw.options.repriced, pricingVersion: gw.options.pricingVersion });
    // Chat-completions models and messages-only ones alike (issue 33): either route holds a conversation.
    const expected = catalog.filter((m) => ((m.capabilities ?? []).includes('chat') || (m.capabilities ?? []).includes('messages')) && !isRemoved(m, now));
    assert.ok(catalog.some((m) => (m.capabilities ?? []).includes('chat') && isRemoved(m, now)), 'the catalog has a removed chat model to leave out');
    assert.ok(results.models.ok, JSON.stringify(results.models.error));
    const got = results.models.value ?? [];
    assert.deepEqual(got.map((m) => m.id).sort(), expected.map((m) => m.id).sort());
    for (const m of expected) {
      const g = got.find((x) => x.id === m.id);
      assert.equal(g?.vendor, 'ai-gateway');
      // #41.11: input + output (what Manage Language Models shows) is the catalog's context window.
      const out = m.max_output_tokens ?? DEFAULT_MAX_OUTPUT_TOKENS;
      const input = m.context_window === undefined ? DEFAULT_MAX_INPUT_TOKENS : m.context_window > out ? m.context_window - out : m.context_window;
      assert.equal(g?.maxInputTokens, input, `${m.id} maxInputTokens`);
      if (g?.capabilities) {
        assert.equal(g.capabilities.supportsToolCalling, (m.capabilities ?? []).includes('tools'), `${m.id} tool calling`);
        assert.equal(g.capabilities.supportsImageToText, (m.capabilities ?? []).includes('vision'), `${m.id} image input`);
      }
    }
  });

  test('[G-CHAT-2] a request streams the reply text back', () => {
    assert.ok(results.text.ok, JSON.stringify(results.text.error));
    assert.match(results.text.value?.text ?? '', /^You said: "Hello from the probe"/);
    assert.match(results.text.value?.text ?? '', /Done ✓ — réponse 😊$/);
  });

  test('a request with a tool gets a tool-call part, and the follow-up with the result is answered from it', () => {
    assert.ok(results.toolCall.ok, JSON.stringify(results.toolCall.error));
    const first = results.toolCall.value?.first;
    assert.equal(first?.calls.length, 1);
    assert.equal(first?.calls[0]?.name, 'get_weather');
    assert.deepEqual(first?.calls[0]?.input, { city: 'Oslo' });
    assert.equal(results.toolCall.value?.second?.text, 'Tool results:\n- get_weather: sunny, 21 C');
  });

  test('parallel calls split over many chunks arrive whole', () => {
    assert.ok(results.splitToolCalls.ok, JSON.stringify(results.splitToolCalls.error));
    assert.deepEqual(
      results.splitToolCalls.value?.calls.map((c) => [c.name, c.input]),
      [
        ['get_weather', { city: 'Zürich' }],
        ['get_time', { tz: 'CET' }],
      ],
    );
  });

  test('a tool call with invalid JSON arguments is an error, never a call', () => {
    assert.equal(results.invalidToolCall.ok, false);
    assert.match(results.invalidToolCall.error?.message ?? '', /not valid JSON; no tool was called/);
  });

  test('cancelling mid-stream closes the connection to the gateway', async () => {
    assert.ok(results.cancel.ok, JSON.stringify(results.cancel.error));
    assert.equal(results.cancel.value?.cancelled, true);
    const closed = await editor.gateway?.events.waitFor('client-closed-stream', () => true, TIMEOUTS.ui);
    assert.ok(closed);
  });

  test('token counts: short texts locally, a long one asked once from count_tokens', () => {
    assert.ok(results.countTokens.ok, JSON.stringify(results.countTokens.error));
    // 'hello' is 5 characters: the local estimate ceil(5 / 4).
    assert.equal(results.countTokens.value?.short, 2);
    // 900 characters in one message: the local gateway's ceil(900 / 4) + 4.
    assert.equal(results.countTokens.value?.long, 229);
    assert.equal(results.countTokens.value?.longAgain, 229);
    assert.equal(editor.gateway?.events.list('count-tokens').length, 1);
  });

  test('the gateway MCP server is listed among the MCP server definitions', () => {
    assert.ok(results.mcpServerDefinitions.ok, JSON.stringify(results.mcpServerDefinitions.error));
    assert.equal(results.mcpServerDefinitions.value?.available, true);
    assert.ok(results.mcpServerDefinitions.value?.labels?.includes('AI Gateway'), JSON.stringify(results.mcpServerDefinitions.value));
  });

  test("[G-MCP-6] [G-MCP-13] VS Code's MCP client starts the gateway definition and lists its tools, without run_site_ability", async () => {
    const file = join(editor.workspace, 'mcp-tools-probe-results.json');
    await editor.runCommand('AI Gateway Probe: Start MCP Servers and List Tools');
    // Starting a server from an extension may ask for trust first: answer it as a user would.
    const trust = editor.page.locator('.monaco-dialog-box .monaco-button').filter({ hasText: /^\s*Trust/ }).first();
    const until = Date.now() + TIMEOUTS.workbench;
    while (!existsSync(file)) {
      if (Date.now() > until) throw new Error(`${file} was not written; screenshot: ${await editor.screenshot('native-chat-mcp-tools-failure')}`);
      if (await trust.isVisible().catch(() => false)) await trust.click().catch(() => undefined);
      await new Promise((r) => setTimeout(r, 250));
    }
    const got = JSON.parse(readFileSync(file, 'utf8')) as { start: Step<boolean>; tools: Step<Array<{ name: string; tags?: string[]; source?: string }>> };
    assert.ok(got.start.ok, JSON.stringify(got.start.error));
    assert.ok(got.tools.ok, JSON.stringify(got.tools.error));
    const names = (got.tools.value ?? []).map((t) => t.name);
    // The gateway's own tool list (test/localGateway/mcpTools.ts), paged 5 at a time: VS Code followed every cursor.
    const expected = TOOLS.map((t) => t.name).filter((n) => n !== 'run_site_ability');
    assert.ok(expected.length > TOOLS_PAGE_SIZE, 'the list spans several pages');
    for (const n of expected) assert.ok(names.some((x) => x === n || x.endsWith(`_${n}`)), `${n} missing from ${JSON.stringify(names)}`);
    assert.ok(!names.some((x) => x.endsWith('run_site_ability')), `run_site_ability reached the agent: ${JSON.stringify(names)}`);
    assert.ok(names.includes('aiGateway_runSiteAbility'), 'the confirming site-ability tool is offered instead');
    const lists = editor.gateway?.events.list('mcp-dispatch').filter((e) => e.method === 'tools/list') ?? [];
    assert.ok(lists.length >= Math.ceil(TOOLS.length / TOOLS_PAGE_SIZE), `tools/list pages seen by the gateway: ${lists.length}`);
  });

  test('Chat: Manage Language Models shows the gateway models with their exact rates', async () => {
    await editor.runCommand('Chat: Manage Language Models');
    const page = editor.page;
    const dialog = page.locator('.monaco-dialog-box, .monaco-workbench').getByText('Language Models', { exact: true }).first();
    await editor.expectVisible(dialog, 'the Language Models editor');
    // With one vendor the table shows no vendor group header: the rows are the gateway's models.
    // GPT-5.1's catalog rates, exactly as the gateway writes them (test/localGateway/catalog.ts).
    // Maximised, so the Pricing column has room for every rate in the screenshot.
    const maximize = page.getByRole('button', { name: /maximi[sz]e/i });
    if ((await maximize.count()) > 0) await maximize.first().click();
    const row = page.locator('.monaco-list-row', { hasText: 'GPT-5.1' }).first();
    await editor.expectVisible(row, 'the GPT-5.1 row', { timeout: TIMEOUTS.ui });
    await editor.expectVisible(row.getByText(/^In: /), 'the input rate cell of GPT-5.1');
    const cells = (await row.locator('.model-cost-cell').allTextContents()).filter((c) => c !== '');
    await editor.screenshot('native-chat-models', { docs: true });
    const model = buildCatalog(new Date(), { repriced: false, pricingVersion: editor.gateway?.options.pricingVersion ?? '' }).find((m) => m.id === 'openai/gpt-5.1');
    assert.ok(cells.includes(`In: ${model?.pricing?.input_per_million ?? '?'}`), JSON.stringify(cells));
    assert.ok(cells.includes(`Out: ${model?.pricing?.output_per_million ?? '?'}`), JSON.stringify(cells));
  });

  test('switching the active key changes the MCP server definition (never its credentials: none are in it)', async () => {
    const first = results.mcpServerDefinitions.value;
    const i = first?.labels?.indexOf('AI Gateway') ?? -1;
    assert.ok(i >= 0);
    assert.ok(!JSON.stringify(first).includes(LOCAL_KEYS.userFull), 'no secret in a definition');
    await editor.page.keyboard.press('Escape');
    await editor.addKey('agency', LOCAL_KEYS.accountFull);
    const file = join(editor.workspace, 'mcp-probe-results.json');
    // VS Code re-asks the provider after its change event: ask again until the new version shows.
    let after: McpDefs | undefined;
    const until = Date.now() + TIMEOUTS.notification;
    do {
      rmSync(file, { force: true });
      await editor.runCommand('AI Gateway Probe: List MCP Server Definitions');
      after = JSON.parse(await waitForFile(file, TIMEOUTS.ui)) as McpDefs;
    } while (after.versions?.[after.labels?.indexOf('AI Gateway') ?? -1] === first?.versions?.[i] && Date.now() < until);
    const j = after.labels?.indexOf('AI Gateway') ?? -1;
    assert.ok(j >= 0, JSON.stringify(after));
    assert.notEqual(after.versions?.[j], first?.versions?.[i], JSON.stringify({ first, after }));
    assert.equal(after.uris?.[j], first?.uris?.[i], 'the same relay address');
    assert.ok(!JSON.stringify(after).includes(LOCAL_KEYS.accountFull), 'no secret in a definition');
  });
});
