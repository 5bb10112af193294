/**
 * MCP tool runner end to end.
 *
 * Part 1 (this file, always): the real tools webview bundle (src/webview/tools/main.ts) in headless
 * Chromium under the real HTML shell and CSP (src/mcp/toolsHtml.ts), wired to the real
 * ToolPanelController and run pipeline (src/core/mcp), the official MCP SDK client and the local
 * gateway's /v1/mcp. Only the editor's modal confirmation is a stub that records what it was asked.
 *
 * Part 2 (the real editor, through test/e2e/harness.ts): the packaged extension in code-server; the
 * Tools view, a tool panel filled and run, the run_site_ability confirmation, and the "needs a User
 * key" marks with an Account key.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join, resolve } from 'node:path';
import * as esbuild from 'esbuild';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startGateway, type RunningGateway } from '../localGateway/server';
import { LOCAL_KEYS } from '../localGateway/keys';
import { McpConnection } from '../../src/core/mcp/mcpClient';
import { validateAgainstSchema } from '../../src/core/mcp/validation';
import { describeError } from '../../src/core/errorText';
import { CallHistory, type HistoryEntry } from '../../src/core/mcp/history';
import { runToolCall, type AbilityConfirmation } from '../../src/core/mcp/toolRunner';
import { ToolPanelController } from '../../src/core/mcp/toolPanelController';
import { needsUserKey, NEEDS_USER_KEY_EXPLANATION } from '../../src/core/mcp/abilities';
import type { McpTool } from '../../src/core/mcp/types';
import { isWebviewToHost, type HostToWebview } from '../../src/protocol/toolsProtocol';
import { toolsHtml } from '../../src/mcp/toolsHtml';
import { launchEditor, TIMEOUTS, waitUntil, type Editor } from './harness';

const ROOT = resolve(__dirname, '../..');
const ORIGIN = 'https://tools-webview.test';
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

describe('tools webview in Chromium with the local gateway', () => {
  let gw: RunningGateway;
  let browser: Browser;
  let js: string;
  let css: string;
  const connections: McpConnection[] = [];

  before(async () => {
    const built = await esbuild.build({
      entryPoints: [join(ROOT, 'src/webview/tools/main.ts')],
      bundle: true,
      write: false,
      outdir: join(ROOT, 'out-e2e-tools'),
      format: 'iife',
      platform: 'browser',
      target: 'chrome120',
      loader: { '.css': 'css' },
      logLevel: 'silent',
    });
    js = built.outputFiles.find((f) => f.path.endsWith('.js'))?.text ?? '';
    css = built.outputFiles.find((f) => f.path.endsWith('.css'))?.text ?? '';
    gw = await startGateway();
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
  });

  after(async () => {
    for (const c of connections) await c.close();
    await browser?.close();
    await gw?.close();
  });

  interface Opened {
    page: Page;
    external: string[];
    confirmations: AbilityConfirmation[];
    /** URIs the webview asked the host to open / copy. */
    opened: string[];
    copied: string[];
    violations: () => Promise<string[]>;
  }

  async function openTool(name: string, key: string, confirmAnswer = true): Promise<Opened> {
    const conn = await McpConnection.connect({ url: `${gw.url}/v1/mcp`, fetch: (u, i) => fetch(u, i), getHeaders: async () => ({ Authorization: `Bearer ${key}` }) });
    connections.push(conn);
    const tool = (await conn.listTools()).tools.find((t) => t.name === name) as McpTool;
    assert.ok(tool, name);
    const credential = key.startsWith('svc_pat_') ? 'user' : 'account';
    let stored: readonly HistoryEntry[] = [];
    const history = new CallHistory({ get: () => stored, set: async (v) => void (stored = v) });
    const confirmations: AbilityConfirmation[] = [];
    const opened: string[] = [];
    const copied: string[] = [];
    const page = await browser.newPage();
    const external: string[] = [];
    page.on('request', (r) => {
      if (!r.url().startsWith(ORIGIN)) external.push(r.url());
    });
    const nonce = `n${Math.random().toString(36).slice(2)}`;
    const prelude = `window.__violations = [];
document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));
window.acquireVsCodeApi = () => ({ postMessage: (m) => window.__toHost(JSON.stringify(m)), getState: () => undefined, setState: () => {} });`;
    await page.route('**/*', async (route) => {
      const url = route.request().url();
      if (url === `${ORIGIN}/`) {
        await route.fulfill({ contentType: 'text/html', body: toolsHtml({ cspSource: ORIGIN, nonce, scriptUri: `${ORIGIN}/tools.js`, styleUri: `${ORIGIN}/tools.css`, title: name, preludeScript: prelude }) });
      } else if (url === `${ORIGIN}/tools.js`) await route.fulfill({ contentType: 'text/javascript', body: js });
      else if (url === `${ORIGIN}/tools.css`) await route.fulfill({ contentType: 'text/css', body: css });
      else await route.abort();
    });
    let queue = Promise.resolve();
    // As the editor does (McpService.onDidChangeHistory): a stored call refreshes the panel's history.
    const refresh = (): void => controller.refreshHistory();
    const controller = new ToolPanelController({
      // Delivered in order, as VS Code's webview.postMessage does.
      post: (m: HostToWebview) => {
        queue = queue.then(() => page.evaluate(`window.postMessage(${JSON.stringify(m)}, '*')`)).then(
          () => undefined,
          () => undefined,
        );
      },
      toolView: () => ({
        serverId: 'gateway',
        serverLabel: 'AI Gateway',
        name: tool.name,
        title: tool.title,
        description: tool.description,
        inputSchema: tool.inputSchema,
        outputSchema: tool.outputSchema,
        readOnly: tool.annotations?.readOnlyHint === true,
        needsUserKey: needsUserKey(tool.name, credential) ? NEEDS_USER_KEY_EXPLANATION : undefined,
      }),
      run: (args, signal) =>
        runToolCall(
          {
            serverId: 'gateway',
            serverLabel: 'AI Gateway',
            isGateway: true,
            credential,
            connection: async () => conn,
            validate: validateAgainstSchema,
            describeError: (e) => describeError(e),
            confirmReadOnlyAbilities: true,
            confirmAbility: async (c) => {
              confirmations.push(c);
              return confirmAnswer;
            },
            history,
          },
          tool,
          args,
          signal,
        ).finally(refresh),
      history: () => stored,
      entry: (id) => stored.find((e) => e.id === id),
      exportRequest: async () => '',
      copy: async (text) => void copied.push(text),
      openLink: async (uri) => void opened.push(uri),
    });
    await page.exposeFunction('__toHost', (json: string) => {
      const m: unknown = JSON.parse(json);
      if (isWebviewToHost(m)) void controller.handle(m);
    });
    await page.goto(`${ORIGIN}/`);
    await page.locator('#run').waitFor();
    return { page, external, confirmations, opened, copied, violations: async () => (await page.evaluate('window.__violations')) as string[] };
  }

  /** Waits (not a timing assertion) for a webview message to reach the host. */
  async function until(condition: () => boolean): Promise<void> {
    await waitUntil(condition, { what: 'the webview message reached the host' });
  }

  const toolCalls = (): number => gw.events.list('mcp-dispatch').filter((e) => e.method === 'tools/call').length;

  test('[G-MCP-7] fill the kb_search form, run it and see the result', async () => {
    gw.reset();
    const { page, external, violations } = await openTool('kb_search', LOCAL_KEYS.userFull);
    await page.getByLabel('Collection id').fill('col_docs');
    await page.getByLabel('Query').fill('billing');
    await page.getByLabel('Top k').fill('50');
    assert.match((await page.locator('#f_top_k_err').textContent()) ?? '', /at most 20/);
    await page.getByLabel('Top k').fill('1');
    await page.getByRole('button', { name: 'Run' }).click();
    await page.locator('section.result').waitFor();
    const text = (await page.locator('section.result').textContent()) ?? '';
    assert.match(text, /Introduction: how billing works/);
    assert.match(text, /matches output schema|Structured content/);
    assert.match(text, /Request [0-9a-f-]{32,36}/);
    assert.equal(toolCalls(), 1);
    assert.deepEqual(external, []);
    assert.deepEqual(await violations(), []);
    await page.close();
  });

  test('run_site_ability asks for confirmation with site, ability and arguments; declining sends nothing', async () => {
    gw.reset();
    const { page, confirmations } = await openTool('run_site_ability', LOCAL_KEYS.userFull, false);
    await page.locator('#f_site_id').fill('site_blog');
    await page.locator('#f_ability').fill('core/create-post');
    await page.locator('#f_input').fill('{"title": "Hello"}');
    await page.getByRole('button', { name: 'Run' }).click();
    // The status first says "Running…", then the outcome: wait for the outcome, not the first banner.
    await page.locator('#status', { hasText: /confirmation was declined/ }).waitFor();
    assert.match((await page.locator('#status').textContent()) ?? '', /confirmation was declined/);
    assert.equal(confirmations.length, 1);
    assert.equal(confirmations[0].site, 'site_blog');
    assert.equal(confirmations[0].ability, 'core/create-post');
    assert.deepEqual(confirmations[0].input, { title: 'Hello' });
    assert.equal(toolCalls(), 0);
    await page.close();
  });

  test('[G-MCP-10] with an Account key an ability tool explains that a User key is needed', async () => {
    gw.reset();
    const { page } = await openTool('search_abilities', LOCAL_KEYS.accountFull);
    assert.match((await page.locator('#needs-user-key').textContent()) ?? '', /User key/);
    await page.getByLabel('Query').fill('post');
    await page.getByRole('button', { name: 'Run' }).click();
    await page.locator('section.result').waitFor();
    const text = (await page.locator('section.result').textContent()) ?? '';
    assert.match(text, /Tool error: unauthorized/);
    assert.match(text, /use a User key/);
    await page.close();
  });

  test('[G-MCP-13] ambiguous_outcome: Retry is disabled and says why; nothing is retried', async () => {
    gw.reset();
    const { page } = await openTool('run_site_ability', LOCAL_KEYS.userFull, true);
    await page.locator('#f_site_id').fill('site_blog');
    await page.locator('#f_ability').fill('demo/flaky-publish');
    await page.locator('#f_input').fill('{"post_id": 3}');
    await page.getByRole('button', { name: 'Run' }).click();
    await page.locator('section.result').waitFor();
    const retry = page.locator('section.result button', { hasText: 'Retry' });
    assert.equal(await retry.isDisabled(), true);
    assert.match((await page.locator('section.result').textContent()) ?? '', /may or may not have happened[\s\S]*Retry is disabled/);
    assert.equal(toolCalls(), 1);
    await page.close();
  });

  test('links in results reach only the host (VS Code\'s window listener never sees them); non-web resource links are text with Copy', async () => {
    gw.reset();
    const { page, opened, copied, external } = await openTool('kb_get_document', LOCAL_KEYS.userFull);
    await page.getByLabel('Collection id').fill('col_docs');
    // The document's title is Markdown, so this id puts a web link into the rendered result.
    await page.getByLabel('Document id').fill('doc_intro [site docs](https://docs.example.test/a)');
    await page.getByRole('button', { name: 'Run' }).click();
    await page.locator('section.result').waitFor();
    // Stand-in for VS Code's webview wrapper: a bubble-phase click/auxclick listener on the window.
    await page.evaluate(`window.__wrapperSaw = [];
for (const t of ['click', 'auxclick']) window.addEventListener(t, (e) => { const a = e.target && e.target.closest && e.target.closest('a'); if (a) window.__wrapperSaw.push(t + ' ' + a.getAttribute('href')); });`);
    const link = page.locator('section.result a', { hasText: 'site docs' });
    await link.click();
    await link.click({ button: 'middle' });
    await until(() => opened.length >= 2);
    assert.deepEqual(await page.evaluate('window.__wrapperSaw'), []);
    assert.deepEqual(opened, ['https://docs.example.test/a', 'https://docs.example.test/a']);
    // kb:// resource link: no anchor with that href, the URI is shown as code with a Copy button.
    assert.equal(await page.locator('section.result a[href^="kb:"]').count(), 0);
    const block = page.locator('[data-block="resource_link"]');
    assert.match((await block.locator('code').textContent()) ?? '', /^kb:\/\/col_docs\/doc_intro/);
    await block.getByRole('button', { name: 'Copy' }).click();
    await until(() => copied.length >= 1);
    assert.equal(copied.length, 1);
    assert.match(copied[0], /^kb:\/\/col_docs\/doc_intro/);
    assert.deepEqual(external, []);
    await page.close();
  });

  test('[G-MCP-12] timeout: Retry is offered and runs the identical read again', async () => {
    gw.reset();
    const { page } = await openTool('kb_search', LOCAL_KEYS.userFull);
    await page.getByLabel('Collection id').fill('col_docs');
    await page.getByLabel('Query').fill('[[timeout]]');
    await page.getByRole('button', { name: 'Run' }).click();
    await page.locator('section.result').waitFor();
    assert.match((await page.locator('section.result').textContent()) ?? '', /Tool error: timeout[\s\S]*504/);
    assert.equal(toolCalls(), 1);
    await page.locator('section.result button', { hasText: 'Retry' }).click();
    // The retry is a second, explicit call (two history rows); the first was never repeated by itself.
    await page.locator('.history li').nth(1).waitFor();
    assert.equal(toolCalls(), 2);
    await page.close();
  });
});

describe('MCP tool runner in VS Code', () => {
  let editor: Editor;

  before(async () => {
    editor = await launchEditor({ name: 'mcp' });
  });

  after(async () => {
    await editor?.close();
  });

  /** The sidebar with only the Tools view expanded (opening it never toggles the sidebar closed). */
  async function openToolsView(): Promise<void> {
    await editor.showOnlySidebarView('Tools');
  }

  /** One tool panel at a time keeps webviewFrame() unambiguous (hidden panels keep their iframes). */
  async function closeEditors(): Promise<void> {
    await editor.runCommand('View: Close All Editors');
  }

  /** On failure, leaves a screenshot in .e2e-artifacts/ next to the error. */
  async function step<T>(name: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      await editor.screenshot(`mcp-failure-${name}`).catch(() => undefined);
      throw e;
    }
  }

  const toolRow = (name: string) => editor.page.getByRole('treeitem', { name: new RegExp(`^${name}\\b`) }).first();

  test('[G-MCP-7] open the Tools view, fill a form, run it and see the result', () => step('form', async () => {
    await editor.addKey('work', LOCAL_KEYS.userFull);
    await editor.clearNotifications();
    await openToolsView();
    const row = toolRow('kb_search');
    await row.waitFor({ state: 'visible', timeout: TIMEOUTS.ui });
    await row.click();
    const frame = await editor.webviewFrame('Tool: kb_search');
    await frame.locator('#f_collection_id').fill('col_docs');
    await frame.locator('#f_query').fill('billing');
    await frame.locator('#f_top_k').fill('2');
    await frame.getByRole('button', { name: 'Run' }).click();
    const result = frame.locator('section.result');
    await result.waitFor({ state: 'visible', timeout: TIMEOUTS.notification });
    assert.match((await result.innerText()) ?? '', /Introduction: how billing works/);
    await editor.screenshot('mcp-tool-result', { docs: true });
  }));

  test('run_site_ability asks for confirmation showing site, ability and arguments', () => step('confirm', async () => {
    await closeEditors();
    await openToolsView();
    await toolRow('run_site_ability').click();
    const frame = await editor.webviewFrame('Tool: run_site_ability');
    await frame.locator('#f_site_id').fill('site_blog');
    await frame.locator('#f_ability').fill('core/create-post');
    await frame.locator('#f_input').fill('{"title": "From the e2e test"}');
    const callsBefore = editor.gateway?.events.list('mcp-dispatch').filter((e) => e.method === 'tools/call').length ?? 0;
    await frame.getByRole('button', { name: 'Run' }).click();
    const dialog = editor.page.locator('.monaco-dialog-box');
    await dialog.waitFor({ state: 'visible', timeout: TIMEOUTS.ui });
    const text = await dialog.innerText();
    assert.match(text, /core\/create-post/);
    assert.match(text, /site_blog/);
    assert.match(text, /From the e2e test/);
    await editor.screenshot('mcp-confirm-ability', { docs: true });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await frame.locator('#status .banner', { hasText: /declined/ }).waitFor({ timeout: TIMEOUTS.ui });
    const callsAfter = editor.gateway?.events.list('mcp-dispatch').filter((e) => e.method === 'tools/call').length ?? 0;
    assert.equal(callsAfter, callsBefore, 'a declined confirmation sends nothing');
  }));

  test('[G-MCP-10] with an Account key the ability tools are marked "needs a User key", with the explanation', () => step('account', async () => {
    await editor.addKey('robot', LOCAL_KEYS.accountFull);
    await editor.clearNotifications();
    await closeEditors();
    await openToolsView();
    const row = editor.page.getByRole('treeitem', { name: /^search_abilities, needs a User key/ }).first();
    await row.waitFor({ state: 'visible', timeout: TIMEOUTS.ui });
    assert.match((await toolRow('list_account_sites').getAttribute('aria-label')) ?? '', /^list_account_sites: /);
    await row.click();
    const frame = await editor.webviewFrame('Tool: search_abilities');
    const note = frame.locator('#needs-user-key');
    await note.waitFor({ state: 'visible', timeout: TIMEOUTS.ui });
    assert.match(await note.innerText(), /User key/);
    await editor.screenshot('mcp-needs-user-key', { docs: true });
  }));
});

describe('the Tools view follows the API key', () => {
  let editor: Editor;

  before(async () => {
    editor = await launchEditor({ name: 'mcp-key' });
  });

  after(async () => {
    await editor?.close();
  });

  test('with no key it asks for one; once a key is added it lists the gateway tools without a manual refresh', async () => {
    try {
      await editor.showOnlySidebarView('Tools');
      const ask = editor.page.getByRole('treeitem', { name: /Add an API key/ }).first();
      await ask.waitFor({ state: 'visible', timeout: TIMEOUTS.ui });
      await editor.addKey('work', LOCAL_KEYS.userFull);
      await editor.page.getByRole('treeitem', { name: /^kb_search\b/ }).first().waitFor({ state: 'visible', timeout: TIMEOUTS.ui });
      assert.equal(await ask.count(), 0, 'the "Add an API key" row is gone');
    } catch (e) {
      await editor.screenshot('mcp-failure-key-refresh').catch(() => undefined);
      throw e;
    }
  });

  test('Open Tool Runner Settings opens the Remote settings, where the machine-scoped server list can be edited', async () => {
    await editor.runCommand('AI Gateway: Open Tool Runner Settings');
    const settingsEditor = editor.page.locator('.settings-editor');
    await editor.expectVisible(settingsEditor, 'the Settings editor');
    // code-server is a remote window: the User tab would hide aiGateway.mcp.servers (scope machine).
    await editor.expectVisible(settingsEditor.locator('.settings-tabs-widget .action-item .action-label.checked', { hasText: /Remote/ }), 'the Remote tab, where machine settings live');
    await editor.expectVisible(settingsEditor.locator('.setting-item-contents', { hasText: /Mcp.*Servers/i }).first(), 'the tool servers setting');
    await editor.screenshot('mcp-open-settings-remote');
  });
});
