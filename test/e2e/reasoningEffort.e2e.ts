/**
 * Issue 43 item 3 in the real editor (code-server + the packaged VSIX + the local gateway): in a
 * sidebar chat 280 px wide, a reasoning model's effort button sits beside the model picker; from the
 * keyboard it opens a menu of the catalog's values saying how reasoning is billed; the effort chosen
 * shows on the button and in the cost before sending, is seen at the local gateway, and the reply's
 * reasoning tokens are priced at the output rate. A model that takes none shows no button.
 * Screenshots in Dark Modern and Light Modern. Every wait is on a condition.
 */
import { after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import type { FrameLocator } from 'playwright-core';
import { LOCAL_KEYS } from '../localGateway/keys';
import { type Editor, launchEditor, layoutProbe, pollUntil, setColorTheme, setSidebarWidth } from './harness';
import { stepWithScreenshot } from './steps';

describe('reasoning effort in the chat', () => {
  let editor: Editor;
  let side: FrameLocator;
  const step = stepWithScreenshot('reasoning-effort', () => editor);
  const quickInput = () => editor.page.locator('.quick-input-widget');

  before(async () => {
    editor = await launchEditor({ name: 'reasoning-effort', viewport: { width: 1300, height: 820 }, ownServer: true });
  });

  after(async () => {
    await editor?.close();
  });

  async function chooseModel(id: string): Promise<void> {
    await side.locator('#model').click();
    await quickInput().locator('.monaco-list-row').first().waitFor({ state: 'visible' });
    await editor.page.keyboard.type(id);
    await quickInput().locator('.monaco-list-row', { hasText: id }).first().waitFor({ state: 'visible' });
    await editor.page.keyboard.press('Enter');
    await quickInput().waitFor({ state: 'hidden' });
  }

  step('[#43.3] a model that takes no effort shows no effort button; GPT-5.1 shows it beside the model, in a 280 px sidebar', async () => {
    await editor.addKey('work', LOCAL_KEYS.userFull);
    await editor.waitForStatusBarItem(/work \(User\)/);
    await editor.clearNotifications();
    await editor.openAiGatewaySidebar();
    side = await editor.webviewFrame(/^Chat/);
    await side.locator('#input').waitFor({ state: 'visible' });
    await setSidebarWidth(editor.page, 280);
    const now = await pollUntil(() => side.locator('body').evaluate(layoutProbe), (r) => Math.abs(r.width - 280) <= 12, 'the sidebar chat to be about 280 px wide');
    await setSidebarWidth(editor.page, 280 + (280 - now.width));
    await chooseModel('openai/gpt-4.1');
    await pollUntil(() => side.locator('#model').getAttribute('aria-label'), (l) => /GPT-4\.1/.test(l ?? ''), 'GPT-4.1 to be the model');
    assert.equal(await side.locator('#reasoning-effort').isVisible(), false, 'no effort button for a model that takes none');
    await chooseModel('openai/gpt-5.1');
    const effort = side.locator('#reasoning-effort');
    await effort.waitFor({ state: 'visible' });
    assert.equal(await effort.getAttribute('aria-label'), 'Reasoning effort: model default. Change');
    // Beside the model button and inside the sidebar (not pushed out of the toolbar).
    const [model, box, bar] = await Promise.all([side.locator('#model').boundingBox(), effort.boundingBox(), side.locator('#chat-toolbar').boundingBox()]);
    assert.ok(model && box && bar);
    assert.ok(box.x >= model.x + model.width - 1, 'right of the model button');
    assert.ok(box.x + box.width <= bar.x + bar.width + 1, 'inside the toolbar');
  });

  step('[#43.3] from the keyboard: Right Arrow from the model reaches it, Enter opens the values with how reasoning is billed, High is chosen', async () => {
    await side.locator('#model').focus();
    await editor.page.keyboard.press('ArrowRight');
    await pollUntil(() => side.locator(':focus').getAttribute('id'), (id) => id === 'reasoning-effort', 'the effort button to have the keyboard');
    await editor.page.keyboard.press('Enter');
    await quickInput().locator('.monaco-list-row').first().waitFor({ state: 'visible' });
    const rows = (await quickInput().locator('.monaco-list-row').allTextContents()).map((t) => t.trim());
    assert.ok(/Model default/.test(rows[0] ?? ''), `Model default first: ${JSON.stringify(rows)}`);
    assert.ok(rows.some((r) => /^high/.test(r)), `the catalog's values: ${JSON.stringify(rows)}`);
    const placeholder = (await quickInput().locator('input').getAttribute('placeholder')) ?? '';
    assert.match(placeholder, /billed as output at 10(\.00)? credits \/ 1M tokens/);
    await editor.screenshot('reasoning-effort-menu');
    await editor.page.keyboard.type('high');
    await editor.page.keyboard.press('Enter');
    await quickInput().waitFor({ state: 'hidden' });
    await pollUntil(() => side.locator('#reasoning-effort').getAttribute('aria-label'), (l) => l === 'Reasoning effort: high. Change', 'the button to show High');
  });

  step('[#43.3] the cost before sending says the reasoning tokens are extra, at the output rate', async () => {
    await side.locator('#input').focus();
    await editor.page.keyboard.type('How many primes are there below 100?');
    const cost = side.locator('#prompt-cost');
    await pollUntil(() => cost.textContent(), (t) => /reasoning tokens not included: billed as output at 10(\.00)? credits \/ 1M tokens/.test(t ?? ''), 'the prompt cost to name the reasoning rate');
    await setColorTheme(editor, 'Dark Modern');
    await editor.screenshot('reasoning-effort-dark', { docs: true });
    await setColorTheme(editor, 'Light Modern');
    await editor.screenshot('reasoning-effort-light');
  });

  step('[#43.3] sent: the local gateway saw reasoning_effort high, and the reply\'s reasoning tokens are priced at the output rate', async () => {
    await side.locator('#input').focus();
    await editor.page.keyboard.press('Enter');
    const reply = side.locator('article.message.assistant.complete').last();
    await reply.waitFor({ state: 'attached' });
    const seen = editor.gateway?.events.list('chat-request').filter((e) => e.model === 'openai/gpt-5.1').at(-1);
    assert.equal(seen?.reasoningEffort, 'high');
    assert.match((await reply.locator('.body').textContent()) ?? '', /reasoning effort: high/);
    const foot = await pollUntil(() => reply.textContent(), (t) => /reasoning tokens/.test(t ?? ''), 'the reply\'s usage line');
    const m = /([\d,]+) prompt · ([\d,]+) completion · ([\d,]+) reasoning tokens · ([\d.]+) credits?/.exec(foot ?? '');
    assert.ok(m, `usage and cost in the reply: ${foot}`);
    const n = (s: string) => Number(s.replace(/,/g, ''));
    assert.equal(n(m[3]!), 1024, 'the local gateway bills 1,024 reasoning tokens at high');
    // By hand: input 1.25, output 10.00 credits / 1M tokens; reasoning at the output rate.
    const expected = (n(m[1]!) * 1.25 + n(m[2]!) * 10 + 1024 * 10) / 1e6;
    assert.ok(Math.abs(Number(m[4]) - expected) <= expected * 0.01, `shown ${m[4]}, by hand ${expected}`);
    await editor.screenshot('reasoning-effort-reply');
  });
});
