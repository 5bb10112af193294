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
import { after, before, describe, test } from 'node:test';
import { buildCatalog } from '../localGateway/catalog';
import { LOCAL_KEYS } from '../localGateway/keys';
import { launchEditor, TIMEOUTS, type Editor } from './harness';

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
});
