/**
 * Issue 27 item 1 in the real editor: one conversation in the sidebar chat and in an editor tab is one
 * live conversation. Send in the sidebar; Open Chat in Editor (the tab shows the same conversation);
 * send in the tab and watch the reply stream into the sidebar too, with the sidebar's draft kept; send
 * in the sidebar again; start a new chat, reopen the conversation from history: every turn is there.
 * The steps build on each other (one editor for the file), in order; every wait is on a condition.
 */
import { after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import type { FrameLocator } from 'playwright-core';
import { LOCAL_KEYS } from '../localGateway/keys';
import { type Editor, launchEditor } from './harness';
import { stepWithScreenshot } from './steps';

describe('one conversation in the sidebar chat and a chat tab', () => {
  let editor: Editor;
  let side: FrameLocator;
  let tab: FrameLocator;
  /** Like test(), plus a screenshot of the workbench when the step fails (.e2e-artifacts/). */
  const step = stepWithScreenshot('chat-two', () => editor);

  const userTurn = (frame: FrameLocator, text: string) => frame.locator('article.message.user', { hasText: text });
  const reply = (frame: FrameLocator, text: string, state = 'complete') => frame.locator(`article.message.assistant.${state} .body`, { hasText: `You said: "${text}"` });

  /** Types `text` into `frame`'s input and sends it; waits until its reply is complete there. */
  async function send(frame: FrameLocator, text: string): Promise<void> {
    await frame.locator('#input').fill(text);
    await frame.locator('#input').press('Enter');
    await reply(frame, text).waitFor({ state: 'attached' });
  }

  async function userTurns(frame: FrameLocator): Promise<string[]> {
    return (await frame.locator('article.message.user .body').allTextContents()).map((t) => t.trim());
  }

  before(async () => {
    editor = await launchEditor({ name: 'chat-two' });
  });

  after(async () => {
    await editor?.close();
  });

  step('[#27.1] a message sent in the sidebar chat', async () => {
    await editor.addKey('work', LOCAL_KEYS.userFull);
    await editor.waitForStatusBarItem(/work \(User\)/);
    await editor.clearNotifications();
    await editor.openAiGatewaySidebar();
    side = await editor.webviewFrame(/^Chat/);
    await side.locator('#input').waitFor({ state: 'visible' });
    await send(side, 'One from the sidebar');
  });

  step('[#27.1] Open Chat in Editor shows the same conversation in a tab', async () => {
    await editor.runCommand('AI Gateway: Open Chat in Editor');
    tab = await editor.chatTab();
    await tab.locator('#input').waitFor({ state: 'visible' });
    await userTurn(tab, 'One from the sidebar').waitFor({ state: 'attached' });
    await reply(tab, 'One from the sidebar').waitFor({ state: 'attached' });
  });

  step('[#27.1] a reply sent in the tab streams into the sidebar too, and the draft typed in the sidebar stays', async () => {
    await side.locator('#input').fill('a draft in the sidebar');
    const text = '[[slow]] Two from the tab';
    await tab.locator('#input').fill(text);
    await tab.locator('#input').press('Enter');
    // The sidebar shows the tab's turn, and its reply while it is still streaming.
    await userTurn(side, 'Two from the tab').waitFor({ state: 'attached' });
    await reply(side, text, 'streaming').waitFor({ state: 'attached' });
    await editor.screenshot('chat-two-places-streaming');
    // While the tab's reply runs, the sidebar's button is Stop: it cannot start a second request.
    assert.equal(await side.locator('#send').getAttribute('data-action'), 'stop');
    await reply(tab, text).waitFor({ state: 'attached' });
    await reply(side, text).waitFor({ state: 'attached' });
    assert.equal(await side.locator('#send').getAttribute('data-action'), 'send');
    assert.equal(await side.locator('#input').inputValue(), 'a draft in the sidebar', 'the draft typed in the sidebar is untouched');
    await editor.screenshot('chat-two-places');
  });

  step('[#27.1] a message sent in the sidebar again reaches the tab', async () => {
    await send(side, 'Three from the sidebar');
    await reply(tab, 'Three from the sidebar').waitFor({ state: 'attached' });
    assert.deepEqual(await userTurns(tab), ['One from the sidebar', '[[slow]] Two from the tab', 'Three from the sidebar']);
  });

  step('[#27.1] reopened from history, the conversation holds every turn of both places', async () => {
    await editor.runCommand('View: Close All Editors');
    await editor.runCommand('AI Gateway: New Chat Conversation');
    await side.locator('article.message').first().waitFor({ state: 'detached' });
    await editor.runCommand('AI Gateway: Chat Conversation History...');
    await editor.page.locator('.quick-input-widget .quick-input-box input').fill('One from the sidebar');
    await editor.page.locator('.quick-input-widget .monaco-list-row.focused', { hasText: 'One from the sidebar' }).first().waitFor({ state: 'visible' });
    await editor.page.keyboard.press('Enter');
    await reply(side, 'Three from the sidebar').waitFor({ state: 'attached' });
    assert.deepEqual(await userTurns(side), ['One from the sidebar', '[[slow]] Two from the tab', 'Three from the sidebar']);
    assert.equal(await side.locator('article.message.assistant.complete').count(), 3);
    await editor.screenshot('chat-two-places-reopened');
  });
});
