/**
 * [#39.1] A stopped reply is in the spend ledger (code-server + the packaged VSIX + the local gateway):
 * send in the sidebar chat, press Stop while it streams (the local gateway bills the request as it
 * starts serving it), then the reply's estimated cost (with a tooltip saying what it was computed
 * from) is in the status bar's total for today and in the Usage dashboard's local ledger view, in a
 * row marked "(estimated)".
 */
import { after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import type { FrameLocator } from 'playwright-core';
import { LOCAL_KEYS } from '../localGateway/keys';
import { type Editor, launchEditor, pollUntil } from './harness';
import { stepWithScreenshot } from './steps';

describe('[#39.1] a stopped reply counts in the spend ledger', () => {
  let editor: Editor;
  let side: FrameLocator;
  let estimate = '';
  const step = stepWithScreenshot('ledger', () => editor);

  before(async () => {
    editor = await launchEditor({ name: 'ledger', viewport: { width: 1400, height: 860 } });
  });

  after(async () => {
    await editor?.close();
  });

  step('[#39.1] Stop while the reply streams: the reply shows its estimated cost, and its tooltip says what it was computed from', async () => {
    await editor.addKey('work', LOCAL_KEYS.userFull);
    await editor.waitForStatusBarItem(/work \(User\)/);
    await editor.clearNotifications();
    await editor.openAiGatewaySidebar();
    side = await editor.webviewFrame(/^Chat/);
    await side.locator('#input').waitFor({ state: 'visible' });
    await side.locator('#input').focus();
    await editor.page.keyboard.type('[[slow]] Tell me a long story about Rome', { delay: 10 });
    await editor.page.keyboard.press('Enter');
    const streaming = side.locator('article.message.assistant.streaming .body');
    await pollUntil(() => streaming.textContent(), (t) => (t ?? '').length > 0, 'the first text of the reply');
    await editor.page.keyboard.press('Escape');
    const stopped = side.locator('article.message.assistant.incomplete');
    await stopped.locator('.stopped-note', { hasText: 'Stopped' }).waitFor({ state: 'visible' });
    const usage = stopped.locator('.usage');
    const line = (await usage.textContent()) ?? '';
    const m = /≈([\d.]+) credits? \(estimated\)/.exec(line);
    assert.ok(m, `an estimated cost in "${line}"`);
    estimate = m[1];
    assert.match((await usage.getAttribute('title')) ?? '', /^Estimated: the reply was stopped before the gateway reported its usage; .* at the catalog’s rates, pricing_version /);
  });

  step('[#39.1] the status bar\'s total for today includes the stopped reply', async () => {
    // The only spend of this editor: today's total is the stopped reply's estimate.
    await editor.waitForStatusBarItem(new RegExp(`${estimate.replace('.', '\\.')} credits? today`));
  });

  step('[#39.1] the Usage dashboard\'s local ledger view lists it in a row marked (estimated)', async () => {
    await editor.runCommand('AI Gateway: Show Usage');
    const usage = await editor.webviewFrame('AI Gateway Usage');
    // The operation in words (#41.10): chat-panel is the AI Gateway chat.
    const row = usage.locator('table.totals[data-source="ledger"] tr', { hasText: 'AI Gateway Chat (estimated)' });
    await row.first().waitFor({ state: 'visible' });
    assert.match((await row.first().textContent()) ?? '', new RegExp(estimate.replace('.', '\\.')));
    await editor.screenshot('ledger-estimated-row');
  });
});
