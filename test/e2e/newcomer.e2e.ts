/**
 * The newcomer's path, as `npm start` sets it up: add the local key through the palette,
 * open the chat, pick a model, send, and see a streamed reply. Also takes the README screenshots
 * (docs/screenshots/, refreshed with AI_GATEWAY_E2E_DOCS=1).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LOCAL_KEYS } from '../localGateway/keys';
import { launchEditor, TIMEOUTS, type Editor } from './harness';

describe('newcomer: from a fresh editor to a streamed chat reply', () => {
  let editor: Editor;

  before(async () => {
    // Slow the local stream down a little so the reply visibly arrives in pieces.
    editor = await launchEditor({ name: 'newcomer', gateway: { chunkDelayMs: 20 } });
  });

  after(async () => {
    await editor?.close();
  });

  test('add the local key, open the chat, pick a model and get a streamed reply', async () => {
    await editor.addKey('local', LOCAL_KEYS.userFull);
    await editor.waitForStatusBarItem(/local \(User\)/);
    await editor.clearNotifications();

    await editor.runCommand('AI Gateway: Open Chat in Editor');
    const chat = await editor.chatTab();
    // The model is a toolbar button that opens VS Code's own quick pick of the catalog's chat models.
    const model = chat.locator('#model');
    await model.waitFor({ state: 'visible' });
    await model.click();
    // The list is long and virtualised: filter it the way a user would, then pick.
    const filter = editor.page.locator('.quick-input-widget .quick-input-box input');
    await filter.waitFor({ state: 'visible', timeout: TIMEOUTS.ui });
    await filter.fill('GPT-5 mini');
    await editor.pickQuickPickItem(/GPT-5 mini/);
    await editor.expectVisible(chat.locator('#model', { hasText: /GPT-5 mini/ }), 'GPT-5 mini chosen in the model button');

    const input = chat.locator('#input');
    await input.fill('Write a haiku about a gateway.');
    await input.press('Enter');
    const reply = chat.getByText(/deterministic reply from/i).first();
    await reply.waitFor({ state: 'visible', timeout: TIMEOUTS.notification });
    // The usage line appears when the stream has ended.
    await chat.getByText(/credits/).first().waitFor({ state: 'visible', timeout: TIMEOUTS.notification });
    assert.match(await reply.innerText(), /GPT-5 mini/);
    await editor.screenshot('chat-reply', { docs: true });
  });

  test('the model catalog in the sidebar', async () => {
    await editor.openAiGatewaySidebar();
    const header = editor.page.locator('.pane-header', { hasText: /Models/i }).first();
    await editor.expectVisible(header, 'the Models view header');
    // The catalog starts folded under the chat (#41.12): one click on its header shows it.
    if ((await header.getAttribute('aria-expanded')) !== 'true') await header.click();
    await editor.expectVisible(editor.page.locator('#workbench\\.parts\\.sidebar .monaco-list-row', { hasText: /GPT-5 mini/ }).first(), 'GPT-5 mini in the Models view');
    await editor.screenshot('models-sidebar', { docs: true });
  });
});
