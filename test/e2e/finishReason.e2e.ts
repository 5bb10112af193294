/**
 * Issue 39 item 7 in the real editor (code-server + the packaged VSIX + the local gateway): a reply the
 * gateway ends with `finish_reason: "length"` (the local gateway's `[[finish:length]]` mode) is shown as
 * cut off, with a line under it and Continue; Continue sends a continuation whose reply ends normally
 * (no line, no Continue). An unknown finish reason is named. Screenshots in Light Modern and Dark
 * Modern. Every wait is on a condition.
 */
import { after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import type { FrameLocator, Locator } from 'playwright-core';
import { LOCAL_KEYS } from '../localGateway/keys';
import { type Editor, launchEditor, setColorTheme } from './harness';
import { stepWithScreenshot } from './steps';

describe('a reply cut off by the output limit says so, with Continue', () => {
  let editor: Editor;
  let side: FrameLocator;
  const step = stepWithScreenshot('finish-reason', () => editor);
  const replies = (): Locator => side.locator('article.message.assistant:is(.complete, .incomplete, .error)');

  async function send(text: string): Promise<void> {
    await side.locator('#input').fill(text);
    await side.locator('#input').press('Enter');
  }

  before(async () => {
    editor = await launchEditor({ name: 'finish-reason', viewport: { width: 1300, height: 820 } });
  });

  after(async () => {
    await editor?.close();
  });

  step('[#39.7] a reply cut off by the output limit shows "Cut off" under it with Continue, in light and dark', async () => {
    await editor.addKey('work', LOCAL_KEYS.userFull);
    await editor.waitForStatusBarItem(/work \(User\)/);
    await editor.clearNotifications();
    await editor.openAiGatewaySidebar();
    side = await editor.webviewFrame(/^Chat/);
    await side.locator('#input').waitFor({ state: 'visible' });
    await send('[[finish:length]] Tell me about the fountains of Rome');
    const cut = replies().first();
    await cut.waitFor({ state: 'attached' });
    const note = cut.locator('.cut-off-note');
    await note.waitFor({ state: 'visible' });
    assert.match((await note.textContent()) ?? '', /Cut off: the model reached its output limit\./);
    const cont = note.getByRole('button', { name: 'Continue' });
    await cont.waitFor({ state: 'visible' });
    assert.equal(await note.getAttribute('role'), 'note');
    for (const theme of ['Light Modern', 'Dark Modern']) {
      await setColorTheme(editor, theme);
      await editor.screenshot(`finish-reason-cut-off-${theme.toLowerCase().replace(/\s+/g, '-')}`);
    }
  });

  step('[#39.7] Continue sends a continuation; its reply ends normally, and the cut-off reply keeps its line without Continue', async () => {
    await replies().first().locator('.cut-off-note').getByRole('button', { name: 'Continue' }).click();
    await side.locator('article.message.user', { hasText: 'Continue exactly where your previous reply stopped' }).waitFor({ state: 'visible' });
    await replies().nth(1).waitFor({ state: 'attached' });
    assert.equal(await replies().nth(1).locator('.cut-off-note').count(), 0, 'the continuation ended normally');
    await replies().first().locator('.cut-off-note').waitFor({ state: 'visible' });
    assert.equal(await replies().first().locator('.cut-off-note button').count(), 0, 'Continue is offered on the last reply only');
  });

  step('[#39.7] an unknown finish reason is named under the reply', async () => {
    await send('[[finish:brand_new_end]] And the churches?');
    const third = replies().nth(2);
    await third.waitFor({ state: 'attached' });
    const note = third.locator('.cut-off-note');
    await note.waitFor({ state: 'visible' });
    assert.match((await note.textContent()) ?? '', /does not know \(brand_new_end\)/);
    await editor.screenshot('finish-reason-unknown');
  });
});
