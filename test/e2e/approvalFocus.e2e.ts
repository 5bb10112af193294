/**
 * An approval that arrives while the user is typing (issue 27, item 5: a risky action is never the
 * default), end to end in the real editor (code-server + the extension + the local gateway, via
 * harness.ts). The chat tab in agent mode with GPT-4.1, whose scripted model calls run_site_ability.
 *
 *  1. The user sends a message that makes the model call run_site_ability and goes on typing the next
 *     one in the message box (the keyboard stays there after Enter). When the approval appears, the
 *     keyboard is still in the box: the characters and spaces typed after it go into the box, nothing is
 *     approved and nothing reaches the gateway. The approval is announced with its key.
 *  2. The documented key (Ctrl+Shift+Enter) moves the keyboard to the approval card, not onto a button,
 *     and approves nothing; Tab reaches Deny first, then Approve; Enter on Approve runs the ability once,
 *     and the keyboard goes back to the message box with the draft intact.
 * Keys go to whatever has the focus (page.keyboard), never to a locator (which would focus it first).
 * Waits on conditions only.
 */
import { after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import type { FrameLocator, Locator } from 'playwright-core';
import { LOCAL_KEYS } from '../localGateway/keys';
import { type Editor, launchEditor, pollUntil, TIMEOUTS, waitUntil } from './harness';
import { stepWithScreenshot } from './steps';

describe('[#27.5] an approval arriving while the user types', () => {
  let editor: Editor;
  let chat: FrameLocator;
  const step = stepWithScreenshot('approval-focus', () => editor);

  async function abilityRuns(): Promise<number> {
    const r = await fetch(`${editor.gatewayUrl}/__control/events?type=mcp-dispatch`);
    const body = (await r.json()) as { events?: Array<Record<string, unknown>> } | Array<Record<string, unknown>>;
    const events = Array.isArray(body) ? body : (body.events ?? []);
    return events.filter((e) => e.method === 'tools/call' && e.tool === 'run_site_ability').length;
  }

  /** What has the keyboard in the chat webview: the input, an approval card, or a button's action. */
  const whatHasFocus = new Function(
    'body',
    'const a = body.ownerDocument.activeElement; if (!a || a === body) return "body"; if (a.id) return "#" + a.id; ' +
      'if (a.classList.contains("tool-approval")) return "approval-card"; return a.getAttribute("data-action") || a.tagName;',
  ) as (body: unknown) => string;
  const focused = (): Promise<string> => chat.locator('body').evaluate(whatHasFocus);

  const lastReply = (): Locator => chat.locator('article.message.assistant').last();
  const finished = (): Locator => chat.locator('article.message.assistant:is(.complete, .incomplete, .error)');
  let repliesBefore = 0;
  let runsBefore = 0;

  before(async () => {
    editor = await launchEditor({ name: 'approval-focus' });
  });
  after(async () => {
    await editor?.close();
  });

  step('[#27.5] the approval appears while typing: the keyboard stays in the message box and nothing is approved', async () => {
    await editor.addKey('work', LOCAL_KEYS.userFull);
    await editor.waitForStatusBarItem(/work \(User\)/);
    await editor.clearNotifications();
    await editor.runCommand('AI Gateway: Open Chat in Editor');
    chat = await editor.chatTab();
    await chat.locator('#input').waitFor({ state: 'visible' });
    await chat.locator('#model').click();
    await editor.page.locator('.quick-input-widget .quick-input-box input').fill('openai/gpt-4.1');
    await editor.pickQuickPickItem(/GPT-4\.1/);
    await chat.locator('#model .model-name', { hasText: /^GPT-4\.1$/ }).waitFor({ state: 'attached' });
    await chat.locator('#agent-toggle').click();
    await chat.locator('#agent-toggle[aria-pressed="true"]').waitFor({ state: 'attached' });
    await chat.locator('#agent-tools', { hasText: /^\d+ tools$/ }).waitFor({ state: 'visible', timeout: TIMEOUTS.ui });

    runsBefore = await abilityRuns();
    repliesBefore = await finished().count();
    await chat.locator('#input').fill('Publish a post. [[tool:run_site_ability {"site_id":"site_blog","ability":"core/create-post","input":{"title":"Hi"}}]]');
    await chat.locator('#input').press('Enter');
    // The user goes on typing at once, in the box that still has the keyboard.
    await editor.page.keyboard.type('and then');
    const waiting = lastReply().locator('.tool-call[data-status="awaiting-approval"]');
    await waiting.waitFor({ state: 'visible', timeout: TIMEOUTS.ui });
    // Drawn: the keyboard did not move (the old chat put it on Approve here).
    assert.equal(await focused(), '#input', 'the approval took the keyboard from the message box');
    await editor.screenshot('approval-focus-arrived');

    // Characters, Spaces and a Shift+Enter line break typed after it go into the box.
    await editor.page.keyboard.type(' also ');
    await editor.page.keyboard.press('Space');
    await editor.page.keyboard.type('x y');
    await editor.page.keyboard.press('Shift+Enter');
    await editor.page.keyboard.type('z');
    await pollUntil(() => chat.locator('#input').inputValue(), (v) => v === 'and then also  x y\nz', 'the typed text in the message box');
    assert.equal(await focused(), '#input');
    assert.equal(await waiting.getAttribute('data-status'), 'awaiting-approval', 'still waiting: nothing answered it');
    assert.equal(await waiting.locator('button[data-action="approveTool"]:not([disabled])').count(), 1, 'Approve was not pressed');
    assert.equal(await abilityRuns(), runsBefore, 'nothing reached the gateway');
    // Announced for screen readers, with the key that reaches it.
    await chat.locator('#live', { hasText: /run_site_ability is waiting for your approval\. Press (Ctrl|Cmd)\+Shift\+Enter/ }).waitFor({ state: 'attached' });
    await editor.screenshot('approval-focus-typed');
  });

  step('[#27.5] Ctrl+Shift+Enter reaches the approval card (not a button); Tab, Tab, Enter approves; the draft stays', async () => {
    const waiting = lastReply().locator('.tool-call[data-status="awaiting-approval"]');
    await editor.page.keyboard.press('Control+Shift+Enter');
    await pollUntil(focused, (f) => f === 'approval-card', 'the keyboard on the approval card');
    assert.equal(await waiting.getAttribute('data-status'), 'awaiting-approval', 'the key approves nothing');
    assert.equal(await chat.locator('#input').inputValue(), 'and then also  x y\nz', 'the key neither sent nor changed the draft');
    assert.equal(await abilityRuns(), runsBefore);
    await editor.screenshot('approval-focus-card');

    // The first button Tab reaches is the safe one.
    await editor.page.keyboard.press('Tab');
    await pollUntil(focused, (f) => f === 'denyTool', 'Deny focused');
    await editor.page.keyboard.press('Tab');
    await pollUntil(focused, (f) => f === 'approveTool', 'Approve focused');
    await editor.page.keyboard.press('Enter');
    await finished().nth(repliesBefore).waitFor({ state: 'attached', timeout: TIMEOUTS.ui });
    const done = lastReply().locator('.tool-call[data-status="done"]', { hasText: 'run_site_ability' });
    await done.waitFor({ state: 'attached' });
    assert.equal(await done.locator('.muted', { hasText: 'Approved by you.' }).count(), 1);
    await waitUntil(async () => ((await abilityRuns()) === runsBefore + 1 ? true : undefined), { what: 'the gateway to have run the ability once' });
    // Answered from the keyboard: back in the message box, the draft still there.
    await pollUntil(focused, (f) => f === '#input', 'the keyboard back in the message box');
    assert.equal(await chat.locator('#input').inputValue(), 'and then also  x y\nz');
    await editor.screenshot('approval-focus-approved');
  });
});
