/**
 * Compare Models in the real editor against the local gateway: three models chosen, the cost before
 * sending, the replies streamed side by side with their time to first token, total time, tokens and
 * exact credits; "Continue in Chat" opens one column as a chat conversation; a slow comparison is
 * stopped with one Stop. Screenshots in the light and the dark theme. The steps build on each other.
 */
import { after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import type { FrameLocator } from 'playwright-core';
import { LOCAL_KEYS } from '../localGateway/keys';
import { type Editor, launchEditor, setColorTheme, TIMEOUTS } from './harness';
import { stepWithScreenshot } from './steps';

describe('compare models', () => {
  let editor: Editor;
  let page: FrameLocator;

  const step = stepWithScreenshot('compare', () => editor);

  before(async () => {
    editor = await launchEditor({ name: 'compare', settings: { 'workbench.colorTheme': 'Default Light Modern' } });
    await editor.addKey('work', LOCAL_KEYS.userFull);
    await editor.waitForNotification(/API key .*work.* saved and active/);
    await editor.clearNotifications();
  });

  after(async () => {
    await editor?.close();
  });

  step('[#31.5] three models, the cost before sending, then three columns streamed with their times, tokens and exact credits', async () => {
    await editor.runCommand('AI Gateway: Compare Models...');
    page = await editor.webviewFrame(/Compare Models/, { timeout: TIMEOUTS.workbench });
    await editor.expectVisible(page.locator('select[data-slot="1"]'), 'two model slots');
    await page.getByRole('button', { name: 'Add Model' }).click();
    const slots = page.locator('.slot select');
    await editor.expectVisible(page.locator('select[data-slot="2"]'), 'a third model slot');
    await slots.nth(0).selectOption('openai/gpt-5.1');
    await slots.nth(1).selectOption('anthropic/claude-sonnet-4.5');
    await slots.nth(2).selectOption('qwen/qwen3-max');
    await page.locator('#prompt').fill('Name three fountains in Rome.');
    await editor.expectVisible(page.locator('.estimate', { hasText: /Before sending: up to [\d.]+ credits in all/ }), 'the cost before sending');
    await page.locator('#send').click();
    const columns = page.locator('article.column');
    for (let i = 0; i < 3; i++) {
      await editor.expectVisible(columns.nth(i).locator('.status.done'), `column ${i + 1} done`);
      await editor.expectVisible(columns.nth(i).locator('.stats', { hasText: /first token [\d.]+ s · total [\d.]+ s · \d+ in \+ \d+ out( \+ \d+ reasoning)? tokens · [\d.]+ credits/ }), `column ${i + 1} stats`);
      await editor.expectVisible(columns.nth(i).locator('.body', { hasText: 'Name three fountains in Rome.' }), `column ${i + 1} reply`);
    }
    await editor.expectVisible(page.locator('.total', { hasText: /This comparison cost [\d.]+ credits in all/ }), 'the total');
    const streams = editor.gateway?.events.list('chat-stream').map((e) => e.model).sort();
    assert.deepEqual(streams, ['anthropic/claude-sonnet-4.5', 'openai/gpt-5.1', 'qwen/qwen3-max'], 'one request per model');
    await editor.screenshot('compare-light', { docs: true, walkthrough: page.locator('body') });
    await setColorTheme(editor, 'Dark Modern');
    await editor.screenshot('compare-dark', { docs: true });
  });

  step('[#31.5] Continue in Chat opens the column as a chat conversation', async () => {
    await page.locator('article.column').nth(1).getByRole('button', { name: 'Continue in Chat' }).click();
    const chat = await editor.chatTab(/Name three fountains/, { timeout: TIMEOUTS.workbench });
    await editor.expectVisible(chat.locator('article.message.user', { hasText: 'Name three fountains in Rome.' }).first(), 'the prompt in the chat');
    await editor.expectVisible(chat.locator('article.message.assistant', { hasText: 'Name three fountains in Rome.' }).first(), 'the reply in the chat');
    await editor.screenshot('compare-continue-in-chat');
  });

  step('[#31.5] Stop stops every column of a slow comparison', async () => {
    await editor.page.locator('.tab', { hasText: 'Compare Models' }).first().click();
    page = await editor.webviewFrame(/Compare Models/);
    await page.locator('#prompt').fill('A slow answer please [[slow]]');
    await page.locator('#send').click();
    await editor.expectVisible(page.locator('article.column .body', { hasText: 'slow answer' }).first(), 'the first text streaming');
    await page.locator('#stop').click();
    for (let i = 0; i < 3; i++) await editor.expectVisible(page.locator('article.column').nth(i).locator('.status.stopped'), `column ${i + 1} stopped`);
    assert.equal(await page.locator('#send').isDisabled(), false, 'a new comparison can be sent');
    await editor.screenshot('compare-stopped');
  });
});
