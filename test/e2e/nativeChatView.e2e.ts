/**
 * VS Code's own chat view (agent mode) answered by a gateway model, with no GitHub sign-in, in the
 * real editor (code-server 4.139.1), from a fresh profile that opens the Chat view first.
 *
 * What was found (src/lm/nativeChatSetup.ts): the chat view's requests are served by VS Code's
 * built-in chat extension (copilot-chat), which a fresh profile has installed but not enabled; until
 * it is, the chat view's stand-in agent answers the first message with the "Sign in to use GitHub
 * Copilot" dialog. **Chat: Manage Language Models** turns it on. The extension says so where the user
 * meets it: when the gateway's models are first offered to VS Code's chat, a notification offers
 * **Turn On**, which runs that command. Once on, the chat extension serves the chat signed out with
 * the gateway's models ("Set BYOK utility models" shows in the chat input). The settings of this
 * tier do not disable AI features.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { buildCatalog } from '../localGateway/catalog';
import { LOCAL_KEYS } from '../localGateway/keys';
import type { Locator } from 'playwright-core';
import { launchEditor, pollUntil, ROOT, TIMEOUTS, type Editor } from './harness';

describe("VS Code's chat view with a gateway model", () => {
  let editor: Editor;

  before(async () => {
    editor = await launchEditor({ name: 'native-chat-view', gateway: { chunkDelayMs: 0 } });
    await editor.addKey('work', LOCAL_KEYS.userFull);
  });

  after(async () => {
    await editor?.close();
  });

  test('[#29.3] from a fresh profile, the Chat view opened first: the extension names the one step, and the gateway answers without sign-in', async () => {
    const page = editor.page;
    await editor.runCommand('Chat: Open Chat');
    await editor.expectVisible(page.locator('.interactive-input-part .monaco-editor').first(), 'the Chat view');
    // The models reach VS Code's chat; its built-in chat extension is off in a fresh profile: the notification says what to do.
    const offer = await editor.waitForNotification(/turn on VS Code's built-in chat/);
    await editor.screenshot('native-chat-view-turn-on');
    await editor.notificationAction(offer, 'Turn On').click();
    await editor.expectVisible(page.locator('.monaco-list-row', { hasText: 'GPT-5.1' }).first(), 'the gateway models in Manage Language Models', { timeout: TIMEOUTS.workbench });
    await page.keyboard.press('Escape');
    await editor.runCommand('Chat: Open Chat');
    // VS Code's chat extension is running and has seen our models when it offers BYOK utility models.
    await editor.expectVisible(page.getByText('Set BYOK utility models').first(), "VS Code's chat extension serving the chat signed out", { timeout: TIMEOUTS.workbench });
    const picker = page.locator('.model-picker-name').first();
    const pickerLabel = (await picker.getAttribute('aria-label')) ?? '';
    const now = editor.gateway?.options.now() ?? new Date();
    const catalog = buildCatalog(now, { repriced: false, pricingVersion: editor.gateway?.options.pricingVersion ?? '' });
    const picked = catalog.find((m) => pickerLabel.endsWith(`, ${m.display_name ?? m.id}`));
    assert.ok(picked, `the model picker shows a gateway model: ${pickerLabel}`);

    await page.locator('.interactive-input-part .monaco-editor .view-lines').first().click();
    await page.keyboard.type('Hello from the chat view');
    await page.keyboard.press('Enter');
    // The local gateway's deterministic reply names the model it came from.
    const reply = page.locator('.interactive-response').getByText(`This is a deterministic reply from ${picked.display_name ?? picked.id}`).first();
    await editor.expectVisible(reply, 'the gateway reply in the chat view', { timeout: TIMEOUTS.workbench });
    await editor.expectVisible(page.locator('.interactive-response').getByText(/Done ✓ — réponse/).first(), 'the end of the streamed reply');
    await editor.screenshot('native-chat-view', { docs: true });

    const requests = (editor.gateway?.events.list('chat-request') ?? []).filter((e) => e.model === picked.id);
    assert.equal(requests.length, 1, JSON.stringify(editor.gateway?.events.list('chat-request')));
    assert.equal(requests[0]?.keyName, 'Local user (Full access)');
    assert.equal(requests[0]?.stream, true);
    assert.equal(await page.getByText('Sign in to use GitHub Copilot').first().isVisible(), false, 'no sign-in wall');
  });

  test("[#43.4] a deprecated gateway model chosen in VS Code's model picker is flagged once with its alternative, and Switch Model switches the picker to it", async () => {
    const page = editor.page;
    const now = editor.gateway?.options.now() ?? new Date();
    const catalog = buildCatalog(now, { repriced: false, pricingVersion: editor.gateway?.options.pricingVersion ?? '' });
    // The local gateway's GPT-4o: deprecated 30 days ago, removed in 45 days, its description names openai/gpt-5.1.
    const deprecated = catalog.find((m) => m.id === 'openai/gpt-4o');
    const alternative = catalog.find((m) => m.id === 'openai/gpt-5.1');
    assert.ok(deprecated?.deprecation_date && deprecated.removal_date && alternative, 'the local catalog has a deprecated model with an alternative');
    const name = deprecated.display_name ?? deprecated.id;
    const altName = alternative.display_name ?? alternative.id;

    const picker = page.locator('.model-picker-name').first();
    // VS Code 1.139's picker shows the current model and "Other Models" under a search box: search it by name.
    const choose = async (): Promise<Locator> => {
      await picker.click();
      const search = page.getByPlaceholder('Search models').first();
      await search.waitFor({ state: 'visible', timeout: TIMEOUTS.ui });
      await search.fill(name);
      return page.locator('.action-widget').getByText(name, { exact: true }).first();
    };
    let item = await choose();
    try {
      await item.waitFor({ state: 'visible', timeout: TIMEOUTS.ui });
    } catch (e) {
      const shown = await page.locator('.action-widget').allInnerTexts().catch(() => []);
      throw new Error(`${name} is not in VS Code's model picker; shown: ${JSON.stringify(shown)}; screenshot ${await editor.screenshot('native-chat-view-picker-failure')}`, { cause: e });
    }
    // VS Code shows the deprecation this extension gives the model (its `detail`) in its own picker.
    const row = ((await page.locator('.action-widget').first().innerText()) ?? '').replace(/\s+/g, ' ');
    assert.match(row, new RegExp(`${name} removed in \\d+ days; use ${alternative.id.replace(/[.]/g, '\\.')}`), row);
    await editor.screenshot('native-chat-view-picker-deprecated');
    await item.click();
    await pollUntil(() => picker.getAttribute('aria-label').then((l) => l ?? ''), (l) => l.endsWith(`, ${name}`), `the picker shows ${name}`);

    await page.locator('.interactive-input-part .monaco-editor .view-lines').first().click();
    await page.keyboard.type('Hello from a deprecated model');
    await page.keyboard.press('Enter');
    const flag = await editor.waitForNotification(new RegExp(`${name}, used in VS Code's chat, is deprecated`), { timeout: TIMEOUTS.workbench });
    const text = ((await flag.textContent()) ?? '').replace(/\s+/g, ' ');
    // Its dates and the alternative, as the catalog gives them.
    assert.ok(text.includes(deprecated.deprecation_date), text);
    assert.ok(text.includes(deprecated.removal_date), text);
    assert.ok(text.includes(alternative.id), text);
    // Never in the way of the request: the deprecated model still answered.
    await editor.expectVisible(page.locator('.interactive-response').getByText(`This is a deterministic reply from ${name}`).first(), 'the reply of the deprecated model', { timeout: TIMEOUTS.workbench });
    await editor.screenshot('native-chat-view-deprecated-flag', { docs: true });
    await editor.notificationAction(flag, 'Switch Model').click();
    // The flag may have been found in the Notifications center (its toast hidden on a busy machine): the
    // center would cover the model picker's clicks below, so it is emptied and closed here.
    await editor.clearNotifications();
    await pollUntil(() => picker.getAttribute('aria-label').then((l) => l ?? ''), (l) => l.endsWith(`, ${altName}`), `the picker shows the alternative ${altName}`);
    await editor.screenshot('native-chat-view-switched');

    // Once: the same model used again is not flagged a second time.
    item = await choose();
    await item.waitFor({ state: 'visible', timeout: TIMEOUTS.ui });
    await item.click();
    await pollUntil(() => picker.getAttribute('aria-label').then((l) => l ?? ''), (l) => l.endsWith(`, ${name}`), `the picker shows ${name} again`);
    await page.locator('.interactive-input-part .monaco-editor .view-lines').first().click();
    await page.keyboard.type('Hello again');
    await page.keyboard.press('Enter');
    // (The chat's list is virtual: the earlier replies may have left the page; this one echoes its question.)
    await editor.expectVisible(page.locator('.interactive-response').filter({ hasText: 'Hello again' }).getByText(`This is a deterministic reply from ${name}`).first(), 'the second reply of the deprecated model', { timeout: TIMEOUTS.workbench });
    const requests = (editor.gateway?.events.list('chat-request') ?? []).filter((e) => e.model === deprecated.id);
    assert.ok(requests.length >= 2, `two requests to ${deprecated.id}: ${requests.length}`);
    // Every notification, also one whose toast VS Code has hidden by now (the Notifications center).
    const said = await editor.notificationTexts();
    assert.equal(said.filter((t) => t.includes(`${name}, used in VS Code's chat`)).length, 0, JSON.stringify(said));
  });

  test("[#43.2] Chat: Configure Skills lists this extension's two skills with their descriptions", async () => {
    const page = editor.page;
    await page.keyboard.press('Escape');
    await editor.runCommand('Chat: Configure Skills...');
    const widget = page.locator('.quick-input-widget');
    for (const skill of ['house-style', 'publishing']) {
      // The expected text is the SKILL.md the VSIX ships, read here from the source tree.
      const md = readFileSync(join(ROOT, 'skills', skill, 'SKILL.md'), 'utf8');
      const description = /^description:\s*(.+)$/m.exec(md)?.[1]?.trim();
      assert.ok(description, `${skill}/SKILL.md has a description`);
      const row = widget.locator('.monaco-list-row').filter({ has: page.locator('.label-name', { hasText: new RegExp(`^\\s*${skill}\\s*$`) }) }).first();
      try {
        await row.waitFor({ state: 'visible', timeout: TIMEOUTS.workbench });
      } catch (e) {
        const rows = await widget.locator('.monaco-list-row').allInnerTexts().catch(() => []);
        throw new Error(`${skill} is not listed; rows ${JSON.stringify(rows)}; screenshot ${await editor.screenshot('native-chat-view-skills-failure')}`, { cause: e });
      }
      const shown = ((await row.locator('.label-description').first().textContent()) ?? '').replace(/\s+/g, ' ').trim();
      assert.equal(shown, description, `${skill}'s description`);
    }
    // Both are found by what they are for (the quick pick matches descriptions): the screenshot shows just them.
    await widget.locator('.quick-input-box input').fill('AI Gateway host');
    // (VS Code's own "New skill..." and "Generate skill..." stay at the top.)
    const skillNames = (names: string[]): string => names.map((n) => n.trim()).filter((n) => !n.endsWith('skill...')).sort().join();
    await pollUntil(() => widget.locator('.monaco-list-row .label-name').allInnerTexts(), (names) => skillNames(names) === 'house-style,publishing', 'only the two skills listed for "AI Gateway host"');
    await editor.screenshot('native-chat-view-skills', { docs: true });
    await page.keyboard.press('Escape');
  });
});
