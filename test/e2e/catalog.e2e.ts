/**
 * Model catalog journeys in the real editor (code-server + the packaged VSIX + the local gateway): the
 * Models view lists the gateway's catalog, the capability filter narrows it to `tools`, a deprecated
 * model carries its warning, and Show Model Schema opens the schema as read-only JSON. One editor for
 * the file; the steps build on each other, in order.
 *
 * Expected values come from the local gateway's own catalog route (same clock), never hard-coded.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Locator } from 'playwright-core';
import type { Model, ModelCatalog } from '../../src/core/gateway/types';
import { launchEditor, TIMEOUTS, waitUntil, type Editor } from './harness';

const DEPRECATED_ID = 'openai/gpt-4o';
const SCHEMA_ID = 'openai/gpt-5.1';

describe('model catalog in VS Code', () => {
  let editor: Editor;
  let catalog: Model[];
  let now: number;

  /** Models the view shows by default: everything but removed ones (removal_date reached, UTC). */
  const listed = (models: Model[]) => models.filter((m) => !m.removal_date || Date.parse(`${m.removal_date}T00:00:00Z`) > now);

  // The groups are headed by the provider's name, not its id (#29.13); this journey's own table.
  const NAMES: Record<string, string> = { openai: 'OpenAI', google: 'Google', gemma: 'Gemma', anthropic: 'Anthropic', deepseek: 'DeepSeek', kimi: 'Kimi', glm: 'GLM', minimax: 'MiniMax', qwen: 'Qwen' };
  const countsByProvider = (models: Model[]) => {
    const out = new Map<string, number>();
    for (const m of models) {
      const name = NAMES[m.provider] ?? m.provider;
      out.set(name, (out.get(name) ?? 0) + 1);
    }
    return out;
  };

  const pane = (): Locator => editor.page.locator('.pane').filter({ has: editor.page.locator('.pane-header', { hasText: /^\s*Models/i }) }).first();
  const header = (): Locator => pane().locator('.pane-header').first();
  const rows = (): Locator => pane().locator('.monaco-list-row');

  /** Clicks an action of the Models view title bar by its command title (aria-label); they show on hover. */
  async function titleAction(label: RegExp): Promise<void> {
    await header().hover();
    const actions = header().locator('.action-label');
    const count = await actions.count();
    for (let i = 0; i < count; i++) {
      const el = actions.nth(i);
      if (label.test((await el.getAttribute('aria-label')) ?? '')) {
        await el.click();
        return;
      }
    }
    throw new Error(`No Models view title action matching ${String(label)}`);
  }

  /** Text of every rendered row, whitespace collapsed. */
  async function rowTexts(): Promise<string[]> {
    return (await rows().allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
  }

  /** Waits until the rendered rows satisfy `check`; reports what was shown otherwise. */
  async function waitForRows(check: (texts: string[]) => boolean, what: string): Promise<string[]> {
    let texts: string[] = [];
    try {
      return await waitUntil(async () => {
        texts = await rowTexts();
        return check(texts) && texts;
      }, { what, timeout: TIMEOUTS.notification });
    } catch (e) {
      const shot = await editor.screenshot(`catalog-failure-${Date.now()}`);
      throw new Error(`${what}: rows were ${JSON.stringify(texts)} (screenshot ${shot})`, { cause: e });
    }
  }

  /** Group rows as provider -> count, parsed from "OpenAI 7 models". */
  function groupCounts(texts: string[]): Map<string, number> {
    const out = new Map<string, number>();
    for (const t of texts) {
      const m = /^(\S+?)(?: \(unknown provider\))?\s*(\d+) models?$/.exec(t);
      if (m) out.set(m[1], Number(m[2]));
    }
    return out;
  }

  before(async () => {
    editor = await launchEditor({ name: 'catalog', viewport: { width: 1280, height: 900 } });
    const gw = editor.gateway;
    assert.ok(gw, 'a local gateway runs for this editor');
    now = gw.options.now().getTime();
    catalog = ((await (await fetch(`${editor.gatewayUrl}/v1/models`)).json()) as ModelCatalog).data;
    assert.ok(catalog.length > 10);
  });

  after(async () => {
    await editor?.close();
  });

  test('[G-CAT-1] [G-CAT-11] the Models view lists the local gateway models, grouped by provider, removed ones hidden', async () => {
    // Only Models expanded: the container's other views would squeeze its tree (rows past the pane's
    // height are not rendered), and the chat webview cannot take the focus from the quick picks below.
    await editor.showOnlySidebarView('Models');
    await header().waitFor({ state: 'visible' });
    // The first rows render once the catalog arrived (no API key is needed for it).
    await waitForRows((t) => t.some((x) => x.includes(SCHEMA_ID)), 'the catalog never appeared');
    await editor.screenshot('catalog-models-view', { docs: true });
    // Collapse every group so all providers are on screen, then compare the counts with the gateway.
    await titleAction(/Collapse All/i);
    const expected = countsByProvider(listed(catalog));
    const texts = await waitForRows((t) => groupCounts(t).size === expected.size, 'not every provider group was shown');
    assert.deepEqual(Object.fromEntries(groupCounts(texts)), Object.fromEntries(expected));
  });

  test('[G-CAT-3] filtering to "tools" shows only tool-capable models; the filter shows in the description and clears in one click', async () => {
    await editor.runCommand('AI Gateway: Filter Models by Capability...');
    await editor.page.locator('.quick-input-widget .quick-input-title').filter({ hasText: /all of these capabilities/ }).waitFor({ state: 'visible' }).catch(async (e: unknown) => {
      throw new Error(`capability picker not shown (screenshot ${await editor.screenshot(`catalog-failure-${Date.now()}`)})`, { cause: e });
    });
    await editor.pickQuickPickItem(/^\s*Tool calling/);
    await editor.page.keyboard.press('Enter');
    await header().filter({ hasText: /Tool calling/ }).waitFor({ state: 'visible' });

    const toolModels = listed(catalog).filter((m) => m.capabilities?.includes('tools'));
    assert.ok(toolModels.length > 0 && toolModels.length < listed(catalog).length, 'the fixture has models with and without tools');
    const expected = countsByProvider(toolModels);
    const texts = await waitForRows((t) => {
      const g = groupCounts(t);
      return g.size === expected.size && [...expected].every(([p, n]) => g.get(p) === n);
    }, 'the tools filter did not narrow the groups');
    assert.deepEqual(Object.fromEntries(groupCounts(texts)), Object.fromEntries(expected));

    // Expand one group: every model row under it is tool-capable.
    const openaiRow = rows().filter({ hasText: /^\s*OpenAI(?![a-z_/-])/ }).first();
    await openaiRow.click();
    const openaiTools = toolModels.filter((m) => m.provider === 'openai').map((m) => m.id);
    const shown = await waitForRows((t) => openaiTools.every((id) => t.some((x) => x.includes(id))), 'openai tool models were not listed');
    // A model row's description ends with its id (after any "removed in N days · ").
    const idOf = (t: string) => catalog.filter((m) => t.endsWith(m.id)).sort((a, b) => b.id.length - a.id.length)[0]?.id;
    const modelRows = shown.filter((t) => idOf(t) !== undefined);
    assert.ok(modelRows.length >= openaiTools.length);
    for (const t of modelRows) assert.ok(toolModels.some((m) => m.id === idOf(t)), `${t} is listed although it has no "tools" capability`);
    await editor.screenshot('catalog-tools-filter', { docs: true });

    await titleAction(/Clear Model Filter/i);
    await editor.page.waitForFunction(
      (el) => !/Tool calling/.test(el?.textContent ?? ''),
      await header().elementHandle(),
      { timeout: TIMEOUTS.ui },
    );
    await waitForRows((t) => groupCounts(t).size === countsByProvider(listed(catalog)).size, 'clearing the filter did not bring every provider back');
  });

  test('[G-CAT-10] a deprecated model shows a warning icon, "removed in N days" and both dates with the alternative', async () => {
    const model = catalog.find((m) => m.id === DEPRECATED_ID);
    assert.ok(model?.deprecation_date && model.removal_date, 'the fixture deprecates this model with a removal date');
    const days = Math.round((Date.parse(`${model.removal_date}T00:00:00Z`) - Date.UTC(new Date(now).getUTCFullYear(), new Date(now).getUTCMonth(), new Date(now).getUTCDate())) / 86_400_000);

    await editor.runCommand('AI Gateway: Filter Models by Name...');
    await editor.fillInputBox(DEPRECATED_ID);
    await header().filter({ hasText: DEPRECATED_ID }).waitFor({ state: 'visible' });
    const group = rows().filter({ hasText: /^\s*OpenAI(?![a-z_/-])/ }).first();
    if ((await group.getAttribute('aria-expanded')) === 'false') await group.click();
    const row = rows().filter({ hasText: `removed in ${days} days · ${DEPRECATED_ID}` }).first();
    await row.waitFor({ state: 'visible' });
    assert.equal(await row.locator('.codicon-warning').count(), 1, 'the deprecated model has the warning icon');

    const hover = editor.page.locator('.monaco-hover, .workbench-hover').filter({ hasText: /Deprecated since/ }).first();
    // The hover comes when the mouse enters the row; one that never came (the mouse was already there, or
    // something else shown meanwhile closed it, on a busy machine) is asked for again: the mouse leaves
    // and enters again, until the deadline.
    await waitUntil(
      async () => {
        await editor.page.mouse.move(0, 0);
        await row.hover({ timeout: TIMEOUTS.ui / 6 }).catch(() => undefined);
        return hover.waitFor({ state: 'visible', timeout: 5_000 }).then(() => true, () => false);
      },
      { what: "the deprecated model's hover shows", timeout: TIMEOUTS.ui },
    );
    const text = (await hover.innerText()).replace(/\s+/g, ' ');
    assert.match(text, new RegExp(`Deprecated since ${model.deprecation_date}`));
    assert.match(text, new RegExp(`Removal date: ${model.removal_date} \\(removed in ${days} days\\)`));
    assert.match(text, /Alternative: openai\/gpt-5\.1/);
    await editor.screenshot('catalog-deprecated-model', { docs: true });
    await editor.page.mouse.move(0, 0);
  });

  test('[G-CAT-14] Show Model Schema opens the schema route as read-only JSON', async () => {
    await editor.runCommand('AI Gateway: Filter Models by Name...');
    await editor.fillInputBox(SCHEMA_ID);
    const row = rows().filter({ hasText: SCHEMA_ID }).first();
    await row.waitFor({ state: 'visible' });
    await row.click({ button: 'right' });
    const menuItem = editor.page.locator('.monaco-menu .action-item').filter({ hasText: 'Show Model Schema' }).first();
    await menuItem.waitFor({ state: 'visible' });
    // code-server's context menu sometimes ignores a synthetic click on a busy machine; hovering
    // highlights the item and Enter runs it, the way a keyboard user picks it.
    await menuItem.hover();
    await editor.page.keyboard.press('Enter');

    const tab = editor.page.locator('.tab').filter({ hasText: 'gpt-5.1.json' }).first();
    try {
      await tab.waitFor({ state: 'visible', timeout: TIMEOUTS.notification });
    } catch (e) {
      const shot = await editor.screenshot(`catalog-failure-schema-${Date.now()}`);
      throw new Error(`the schema tab never opened (screenshot ${shot})`, { cause: e });
    }
    const expected = (await (await fetch(`${editor.gatewayUrl}/v1/models/${SCHEMA_ID}/schema`)).json()) as { type: string; required: string[] };
    const lines = editor.page.locator('.editor-instance .monaco-editor .view-lines').first();
    await lines.filter({ hasText: /"required"/ }).waitFor({ state: 'visible' });
    const text = (await lines.innerText()).replace(/\u00a0/g, ' ');
    assert.match(text, new RegExp(`"type": "${expected.type}"`));
    for (const field of expected.required) assert.ok(text.includes(`"${field}"`), `the schema shows the required field ${field}`);
    // JSON language mode, and the editor refuses edits (content-provider documents are read-only).
    await editor.page.locator('.statusbar-item').filter({ hasText: /^JSON$/ }).first().waitFor({ state: 'visible' });
    await lines.click();
    await editor.page.keyboard.type('XYZ');
    assert.doesNotMatch((await lines.innerText()).replace(/\u00a0/g, ' '), /XYZ/);
    await editor.screenshot('catalog-model-schema', { docs: true });
  });
});
