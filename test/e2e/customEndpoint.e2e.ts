/**
 * [#43.5] With or without this extension in VS Code's chat: the same gateway models reached through VS
 * Code's built-in **Custom Endpoint** provider (vendor `customendpoint` of the built-in chat extension,
 * code-server 4.139.1, signed out of GitHub) and through this extension, side by side in **Chat: Manage
 * Language Models**. What the README's table says of the two is read here, not claimed.
 *
 * Custom Endpoint is set up as a user would: Manage Language Models > Add Models > Custom Endpoint asks
 * for a group name, the API key (kept in VS Code's secret storage; the profile's chatLanguageModels.json
 * holds only a `${input:chat.lm.secret.…}` reference) and the API type, then opens
 * chatLanguageModels.json for the models, which it cannot ask for: the journey writes them there as the
 * user would type them (id, name, the local gateway's chat completions URL, limits).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { buildCatalog } from '../localGateway/catalog';
import { LOCAL_KEYS } from '../localGateway/keys';
import { launchEditor, pollUntil, ROOT, TIMEOUTS, type Editor } from './harness';

/** The built-in chat extension of the code-server the journeys run (VS Code 1.139), where Custom Endpoint is declared. */
const BUILT_IN_CHAT_PACKAGE = join(ROOT, '.cache', 'editor', 'code-server', 'node_modules', 'code-server', 'lib', 'vscode', 'extensions', 'copilot', 'package.json');

/** The two gateway models compared: a deprecated one and its alternative. */
const MODEL_IDS = ['openai/gpt-4o', 'openai/gpt-5.1'] as const;

/** The little of a table row's DOM element read in the page (the tests are typed without the DOM library). */
interface RowElement {
  offsetTop: number;
  querySelectorAll(selector: string): ArrayLike<{ textContent: string | null }>;
}

/** A picker label's DOM element, read in the page. */
interface RowLabel {
  closest(selector: string): { textContent: string | null } | null;
}

interface TableRow {
  cells: string[];
}

describe("[#43.5] VS Code's Custom Endpoint and this extension, side by side", () => {
  let editor: Editor;

  before(async () => {
    editor = await launchEditor({ name: 'custom-endpoint', gateway: { chunkDelayMs: 0 }, viewport: { width: 1600, height: 900 } });
    await editor.addKey('work', LOCAL_KEYS.userFull);
  });

  after(async () => {
    await editor?.close();
  });

  test('[#43.5] Manage Language Models: the same gateway models from this extension (exact rates) and from Custom Endpoint (no pricing), signed out', async () => {
    const page = editor.page;
    const gw = editor.gateway;
    assert.ok(gw, 'local gateway');
    const catalog = buildCatalog(gw.options.now(), { repriced: false, pricingVersion: gw.options.pricingVersion });
    const models = MODEL_IDS.map((id) => catalog.find((m) => m.id === id));
    assert.ok(models.every((m) => m), 'both models in the local catalog');

    // What a Custom Endpoint group can be told: read from the built-in extension's own declaration.
    const declared = JSON.parse(readFileSync(BUILT_IN_CHAT_PACKAGE, 'utf8')) as { contributes: { languageModelChatProviders: Array<{ vendor: string; displayName: string; configuration?: { properties?: Record<string, { properties?: unknown; items?: { properties?: Record<string, unknown> } }> } }> } };
    const provider = declared.contributes.languageModelChatProviders.find((p) => p.vendor === 'customendpoint');
    assert.equal(provider?.displayName, 'Custom Endpoint');
    const settings = Object.keys(provider?.configuration?.properties ?? {});
    const modelSettings = Object.keys(provider?.configuration?.properties?.models?.items?.properties ?? {});
    console.log(`[custom-endpoint] group settings ${JSON.stringify(settings)}; model settings ${JSON.stringify(modelSettings)}`);
    assert.deepEqual(settings.sort(), ['apiKey', 'apiType', 'models']);
    // Nothing about price, spend or a model's deprecation among a model's settings (its thinking budgets are token counts).
    assert.deepEqual(modelSettings.filter((k) => /pric|cost|spend|credit|deprecat|retire|remov/i.test(k)), []);

    // A fresh profile: VS Code's built-in chat extension (which holds Custom Endpoint) is off until Manage
    // Language Models turns it on (what this extension's "Turn On" offer runs; the offer itself is proven
    // in nativeChatView.e2e.ts, and its toast can be gone by the time a busy machine looks for it).
    await editor.runCommand('Chat: Manage Language Models');
    await editor.expectVisible(page.locator('.monaco-list-row', { hasText: 'GPT-5.1' }).first(), 'the gateway models in Manage Language Models', { timeout: TIMEOUTS.workbench });

    // Add Models offers Custom Endpoint signed out (the chat extension allows its own keys then).
    const add = page.locator('.models-add-model-button').first();
    await editor.expectVisible(add, 'Add Models');
    await add.click();
    const menuItem = page.locator('.context-view .action-item, .monaco-menu .action-item').filter({ hasText: /^\s*Custom Endpoint\s*$/ }).first();
    try {
      await menuItem.waitFor({ state: 'visible', timeout: TIMEOUTS.ui });
    } catch (e) {
      const shown = await page.locator('.context-view, .monaco-menu').allInnerTexts().catch(() => []);
      throw new Error(`Add Models does not offer Custom Endpoint; shown: ${JSON.stringify(shown)}; screenshot ${await editor.screenshot('custom-endpoint-add-failure')}`, { cause: e });
    }
    await editor.screenshot('custom-endpoint-add-models');
    await menuItem.click();
    await editor.fillInputBox('Custom Endpoint', { title: /Group Name/ });
    await editor.fillInputBox(LOCAL_KEYS.userFull, { title: /Custom Endpoint: API Key/ });
    await editor.expectVisible(page.locator('.quick-input-widget .quick-input-title').filter({ hasText: /Custom Endpoint: API Type/ }), 'the API type');
    await editor.pickQuickPickItem(/^\s*Chat Completions/);

    // The group is saved with the key in VS Code's secret storage; the models cannot be asked for, so
    // chatLanguageModels.json opens with a models snippet, where the models are then written as the user
    // would type them.
    const file = join(editor.userDataDir, 'User', 'chatLanguageModels.json');
    const readGroups = async (): Promise<Array<Record<string, unknown>>> => {
      try {
        return JSON.parse(readFileSync(file, 'utf8')) as Array<Record<string, unknown>>;
      } catch {
        return [];
      }
    };
    const groups = await pollUntil(readGroups, (g) => g.some((x) => x.vendor === 'customendpoint'), 'the Custom Endpoint group saved in chatLanguageModels.json');
    const group = groups.find((x) => x.vendor === 'customendpoint');
    assert.ok(group);
    // The key itself never reaches the file: a reference into VS Code's secret storage does.
    assert.match(String(group.apiKey), /^\$\{input:chat\.lm\.secret\.[^}]+\}$/, JSON.stringify(group));
    assert.ok(!readFileSync(file, 'utf8').includes(LOCAL_KEYS.userFull), 'no key in chatLanguageModels.json');
    await editor.screenshot('custom-endpoint-json');
    group.models = models.map((m) => ({
      id: m?.id,
      name: m?.display_name,
      url: `${editor.gatewayUrl}/v1/chat/completions`,
      toolCalling: true,
      vision: true,
      contextWindow: m?.context_window,
      maxOutputTokens: m?.max_output_tokens,
    }));
    // The models are written in chatLanguageModels.json's editor, which Add Models opened (VS Code 1.139
    // shows it as a modal editor, with a models snippet not yet saved), and saved there, as a user does.
    // (A write from outside would clash with that unsaved editor on its next save, and a reload would
    // restore the unsaved snippet over it.)
    const jsonEditor = page.locator('.monaco-editor .view-lines', { hasText: 'customendpoint' }).first();
    await editor.expectVisible(jsonEditor, 'chatLanguageModels.json in an editor');
    const text = JSON.stringify(groups, undefined, '\t');
    await page.evaluate((t) => (globalThis as unknown as { navigator: { clipboard: { writeText(v: string): Promise<void> } } }).navigator.clipboard.writeText(t), text);
    const modelsSaved = (g: Array<Record<string, unknown>>): boolean => g.some((x) => x.vendor === 'customendpoint' && Array.isArray(x.models) && x.models.length === MODEL_IDS.length);
    // Under load a key can land before the editor holds the focus: paste again while the editor does not
    // show the models, and save until the file holds them (a save still being written is not answered with
    // another paste, which would leave the editor unsaved again).
    const editorShowsModels = async (): Promise<boolean> => ((await jsonEditor.textContent().catch(() => '')) ?? '').includes(MODEL_IDS[1]);
    await pollUntil(
      async () => {
        if (modelsSaved(await readGroups())) return true;
        await jsonEditor.click();
        if (!(await editorShowsModels())) {
          await page.keyboard.press('Control+A');
          await page.keyboard.press('Control+V');
        }
        await page.keyboard.press('Control+S');
        return modelsSaved(await readGroups());
      },
      (ok) => ok,
      'the models saved in chatLanguageModels.json',
    );
    // The saved editor is closed before the reload. VS Code 1.139's modal editor shows no unsaved mark (the
    // harness's reload looks for dirty tabs, and a modal editor has none), and its language model groups
    // are read from the file's text model, so an editor left unsaved by a last paste would come back from
    // the reload's hot-exit backup ("Unload veto: pending backups") and could hide the models on disk; a
    // main-branch CI run once listed no Custom Endpoint model after such a reload. Closing a clean editor
    // asks nothing; an unsaved one would ask to save, and the journey says so rather than answering.
    const modal = page.locator('.modal-editor-part').filter({ has: page.locator('.modal-editor-title', { hasText: 'chatLanguageModels.json' }) });
    const saveQuestion = page.locator('.monaco-dialog-box').filter({ visible: true });
    await pollUntil(
      async () => {
        if (!(await modal.isVisible())) return true;
        if (await saveQuestion.isVisible()) {
          throw new Error(`closing chatLanguageModels.json asked ${JSON.stringify(await saveQuestion.innerText())}: it was unsaved after the models were saved; screenshot ${await editor.screenshot('custom-endpoint-unsaved')}`);
        }
        await modal.locator('.action-label.codicon-close').first().click({ timeout: TIMEOUTS.ui }).catch(() => undefined);
        return !(await modal.isVisible());
      },
      (closed) => closed,
      'chatLanguageModels.json closed after saving',
    );
    // VS Code's chat takes a group's models when the window loads (a saved change is not picked up by the
    // running provider: without this reload no Custom Endpoint model is listed): the page is loaded again,
    // as a user presses F5 (editor.reload(), which refuses to go with anything unsaved).
    await editor.reload();
    assert.ok(!readFileSync(file, 'utf8').includes(LOCAL_KEYS.userFull), 'still no key in chatLanguageModels.json');
    await editor.runCommand('Chat: Manage Language Models');
    const table = page.locator('.models-table-container');
    const searchBox = page.locator('.models-widget .monaco-editor .view-lines, .models-widget input').first();
    await editor.expectVisible(searchBox, 'the models search', { timeout: TIMEOUTS.workbench });
    // (Under load the focus can still be elsewhere when typing starts: type again until the search holds it.)
    const searchText = page.locator('.models-widget .monaco-editor .view-lines').first();
    await pollUntil(
      async () => {
        if (((await searchText.textContent().catch(() => '')) ?? '').includes('GPT-')) return true;
        await searchBox.click();
        await page.keyboard.press('Control+A');
        await page.keyboard.type('GPT-');
        return ((await searchText.textContent().catch(() => '')) ?? '').includes('GPT-');
      },
      (ok) => ok,
      'the models search holds "GPT-"',
    );

    // Every row's cells in table order; the vendor groups are rows of their own.
    const readRows = async (): Promise<TableRow[]> =>
      table.locator('.monaco-list-row').evaluateAll((rows: readonly RowElement[]) =>
        rows
          .map((r) => ({ top: r.offsetTop, cells: Array.from(r.querySelectorAll('.monaco-table-td')).map((c) => (c.textContent ?? '').replace(/\s+/g, ' ').trim()) }))
          .sort((a, b) => a.top - b.top)
          .map((r) => ({ cells: r.cells })),
      );
    let rows: TableRow[] = [];
    try {
      rows = await pollUntil(readRows, (r) => r.some((x) => x.cells[1] === 'Custom Endpoint') && r.filter((x) => x.cells.some((c) => c === 'GPT-4o')).length >= 2, 'GPT-4o from both providers', TIMEOUTS.workbench);
    } catch (e) {
      throw new Error(`rows ${JSON.stringify(await readRows().catch(() => []))}; screenshot ${await editor.screenshot('custom-endpoint-table-failure')}`, { cause: e });
    }
    await editor.screenshot('custom-endpoint-models', { docs: true });
    console.log(`[custom-endpoint] header ${JSON.stringify(await table.locator('.monaco-table-th').allInnerTexts())}`);
    console.log(`[custom-endpoint] rows ${JSON.stringify(rows)}`);
    // Columns: (gutter) Name, Context Size, Capabilities, Pricing. A vendor group is a row with its name only.
    const byGroup = new Map<string, Map<string, string[]>>();
    let current = '';
    for (const r of rows) {
      const [, name = '', context = '', capabilities = '', pricing = ''] = r.cells;
      if (context === '' && capabilities === '' && pricing === '') current = name;
      else byGroup.set(current, (byGroup.get(current) ?? new Map<string, string[]>()).set(name, [context, capabilities, pricing]));
    }
    for (const m of models) {
      const p = m?.pricing;
      const name = m?.display_name ?? '';
      const ours = byGroup.get('AI Gateway')?.get(name);
      const theirs = byGroup.get('Custom Endpoint')?.get(name);
      assert.ok(ours && theirs, `${name} from both: ${JSON.stringify(rows)}`);
      // This extension: the catalog's rates, exactly as the gateway writes them.
      assert.equal(ours[2], `In: ${p?.input_per_million ?? '?'}Out: ${p?.output_per_million ?? '?'}${p?.cache_read_per_million ? `Cache Read: ${p.cache_read_per_million}` : ''}`);
      // Custom Endpoint: no pricing at all.
      assert.equal(theirs[2], '');
      // The context size and capabilities: the same (Custom Endpoint's are what the user typed).
      assert.equal(theirs[0], ours[0]);
    }
  });

  test("[#43.5] VS Code's chat: GPT-4o through Custom Endpoint answers from the gateway with nothing said of its deprecation and no cost in the editor", async () => {
    const page = editor.page;
    const gw = editor.gateway;
    assert.ok(gw);
    const statusBefore = await editor.statusBarText();
    await page.keyboard.press('Escape');
    await editor.runCommand('Chat: Open Chat');
    await editor.expectVisible(page.locator('.interactive-input-part .monaco-editor').first(), 'the Chat view');
    const picker = page.locator('.model-picker-name').first();
    await picker.click();
    const search = page.getByPlaceholder('Search models').first();
    await search.waitFor({ state: 'visible', timeout: TIMEOUTS.ui });
    await search.fill('GPT-4o');
    // Each GPT-4o entry of the picker with the text of its row (the picker's rows are not list rows VS Code names alike across versions).
    const labels = page.locator('.action-widget').getByText('GPT-4o', { exact: true });
    const rowTexts = (): Promise<string[]> =>
      labels.evaluateAll((els: readonly RowLabel[]) => els.map((el) => (el.closest('[role="option"], [role="menuitem"], [role="menuitemcheckbox"], [role="menuitemradio"], .monaco-list-row, li')?.textContent ?? '').replace(/\s+/g, ' ').trim()));
    const texts = await pollUntil(rowTexts, (t) => t.length >= 2, 'GPT-4o twice in the model picker').catch(async (e: unknown) => {
      const shown = await page.locator('.action-widget').allInnerTexts().catch(() => []);
      throw new Error(`picker ${JSON.stringify(shown)}; screenshot ${await editor.screenshot('custom-endpoint-picker-failure')}`, { cause: e });
    });
    await editor.screenshot('custom-endpoint-picker', { docs: true });
    console.log(`[custom-endpoint] picker rows ${JSON.stringify(texts)}; all ${JSON.stringify(await page.locator('.action-widget').allInnerTexts())}`);
    // The picker groups the models by provider: the GPT-4o listed after the "Custom Endpoint" heading is theirs.
    const lines = (await page.locator('.action-widget').first().innerText()).split('\n').map((l) => l.trim());
    const heading = lines.indexOf('Custom Endpoint');
    assert.ok(heading >= 0, JSON.stringify(lines));
    const theirs = lines.slice(0, heading).filter((l) => l === 'GPT-4o').length;
    assert.equal(texts.length, 2, JSON.stringify(texts));
    await labels.nth(theirs).click();

    await page.locator('.interactive-input-part .monaco-editor .view-lines').first().click();
    await page.keyboard.type('Hello through Custom Endpoint');
    await page.keyboard.press('Enter');
    const reply = page.locator('.interactive-response').getByText('This is a deterministic reply from GPT-4o').first();
    try {
      await reply.waitFor({ state: 'visible', timeout: TIMEOUTS.workbench });
    } catch (e) {
      const shown = await page.locator('.interactive-response').allInnerTexts().catch(() => []);
      throw new Error(`no reply; responses ${JSON.stringify(shown)}; gateway ${JSON.stringify(gw.events.list('chat-request'))}; screenshot ${await editor.screenshot('custom-endpoint-reply-failure')}`, { cause: e });
    }
    await editor.screenshot('custom-endpoint-reply');
    const requests = gw.events.list('chat-request').filter((e) => e.model === 'openai/gpt-4o');
    console.log(`[custom-endpoint] gateway requests ${JSON.stringify(requests)}`);
    assert.ok(requests.length >= 1, 'the request reached the gateway with the local key');
    assert.equal(requests[0]?.keyName, 'Local user (Full access)');
    // Nothing of it in this extension: no deprecation notice, the spend entry unchanged.
    // Every notification, also one whose toast VS Code has hidden by now (the center lists it).
    const notices = await editor.notificationTexts();
    assert.equal(notices.filter((t) => /deprecated/i.test(t)).length, 0, JSON.stringify(notices));
    // The workbench's own entries (problems and ports counters, its "Activating Extensions..." progress)
    // may move; this extension's entries (the key, a budget or a last cost) must not: the text without
    // the workbench's is unchanged.
    const ours = (t: string): string =>
      t
        .split('\n')
        .filter((l) => !/^\s*\d+\s*$/.test(l) && !/^\s*Activating Extensions\.\.\.\s*$/.test(l))
        .join('\n');
    const statusAfter = await editor.statusBarText();
    assert.equal(ours(statusAfter), ours(statusBefore), JSON.stringify({ statusBefore, statusAfter }));
    assert.ok(!/credit/i.test(statusAfter), statusAfter);
    console.log(`[custom-endpoint] status bar ${JSON.stringify(statusBefore)}`);
  });
});
