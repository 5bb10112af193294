/**
 * `@gateway` in VS Code's own chat view, in the real editor (code-server 4.139.1 + the packaged VSIX +
 * the local gateway), on `npm start`'s sample post (its picture has no alt text):
 *  1. VS Code's built-in chat is turned on the way a newcomer does it (the extension's notification,
 *     #29.3), and `@gateway /alt` is sent from the chat input with a gateway model picked;
 *  2. the answer shows the alt text, its model, and a **Preview and Apply…** button; nothing is written;
 *  3. the button opens the diff of the post; Accept writes the alt text into the post;
 *  4. [#41.5] the post attached to the chat (Chat: Add File to Chat), the editor in front a webview (a
 *     chat tab, so there is no text editor): `@gateway /summary` summarises the attached post.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe } from 'node:test';
import { buildCatalog } from '../localGateway/catalog';
import { LOCAL_KEYS } from '../localGateway/keys';
import { type Editor, launchEditor, TIMEOUTS, waitUntil } from './harness';
import { stepWithScreenshot } from './steps';
import { SAMPLE_POST, SAMPLE_POST_PATH } from './sandbox';

describe('@gateway in VS Code\'s chat view', () => {
  let editor: Editor;
  const onDisk = (): string => readFileSync(join(editor.workspace, SAMPLE_POST_PATH), 'utf8');

  const step = stepWithScreenshot('participant', () => editor);

  before(async () => {
    editor = await launchEditor({ name: 'participant', gateway: { chunkDelayMs: 0 }, settings: { 'workbench.colorTheme': 'Default Light Modern' } });
    await editor.addKey('work', LOCAL_KEYS.userFull);
  });

  after(async () => {
    await editor?.close();
  });

  step('[#31.6] @gateway /alt on the sample post answers with the alt text and a button to preview it; nothing is written yet', async () => {
    const page = editor.page;
    await editor.openFile(SAMPLE_POST_PATH);
    // What the extension's "Turn On" runs (#29.3): it starts VS Code's built-in chat in a fresh profile.
    await editor.runCommand('Chat: Manage Language Models');
    await editor.expectVisible(page.locator('.monaco-list-row', { hasText: 'GPT-5.1' }).first(), 'the gateway models in Manage Language Models', { timeout: TIMEOUTS.workbench });
    await page.keyboard.press('Escape');
    await editor.runCommand('Chat: Open Chat');
    await editor.expectVisible(page.getByText('Set BYOK utility models').first(), "VS Code's chat extension serving the chat signed out", { timeout: TIMEOUTS.workbench });
    const pickerLabel = (await page.locator('.model-picker-name').first().getAttribute('aria-label')) ?? '';
    const catalog = buildCatalog(editor.gateway?.options.now() ?? new Date(), { repriced: false, pricingVersion: editor.gateway?.options.pricingVersion ?? '' });
    const picked = catalog.find((m) => pickerLabel.endsWith(`, ${m.display_name ?? m.id}`));
    assert.ok(picked, `the model picker shows a gateway model: ${pickerLabel}`);

    const input = page.locator('.interactive-input-part .monaco-editor .view-lines').first();
    await input.click();
    await page.keyboard.type('@gateway /alt ');
    // The chat input's own suggestions (participants, commands) must not take the Enter.
    const suggest = page.locator('.interactive-input-part .suggest-widget.visible');
    if (await suggest.count()) await page.keyboard.press('Escape');
    await editor.screenshot('participant-typed');
    await page.keyboard.press('Enter');

    const response = page.locator('.interactive-response').last();
    await editor.expectVisible(response.getByText('Alt text for 1 image in hello.md').first(), 'the @gateway answer', { timeout: TIMEOUTS.workbench });
    const button = response.getByRole('button', { name: 'Preview and Apply…' }).first();
    await editor.expectVisible(button, 'the button that opens the preview');
    await editor.expectVisible(response.getByText(/Local "test" image: inline image\/jpeg/).first(), 'the generated alt text');

    const sent = editor.gateway?.events.list('content-request') ?? [];
    assert.equal(sent.length, 1, JSON.stringify(sent));
    const usesPicked = picked.capabilities?.includes('alt_text') ?? false;
    if (usesPicked) assert.equal(sent[0]?.model, picked.id, 'the model picked in the chat did the work');
    else await editor.expectVisible(response.getByText(/cannot do this, so your default model/).first(), 'the answer names the model that did the work');
    assert.equal(onDisk(), SAMPLE_POST, 'nothing written before the preview');
    await editor.screenshot('participant-alt', { docs: true, walkthrough: response });
  });

  step('[#31.6] Preview and Apply… opens the diff of the post; Accept writes the alt text into it', async () => {
    const page = editor.page;
    await page.locator('.interactive-response').last().getByRole('button', { name: 'Preview and Apply…' }).first().click();
    const review = await editor.waitForNotification(/Review the proposed change to hello\.md/);
    await editor.expectVisible(page.locator('.tab.active', { hasText: /hello\.md ↔ Proposed/ }), 'the diff tab');
    assert.equal(onDisk(), SAMPLE_POST, 'nothing written while the diff is open');
    await editor.screenshot('participant-alt-preview');
    await editor.notificationAction(review, 'Accept').click();
    await editor.expectVisible(page.locator('.tab.active', { hasText: /^\s*hello\.md/ }), 'the post again, the diff closed');
    await editor.runCommand('File: Save');
    // Waits for the alt text itself: a read while the save is writing can see an empty file.
    const saved = await waitUntil(() => (/!\[[^\n]+\]\(images\/sunset\.jpg\)/.test(onDisk()) ? onDisk() : undefined), { what: 'the post saved with its alt text', timeout: TIMEOUTS.ui });
    assert.match(saved, /!\[Local "test" image: inline image\/jpeg[^\n]*\]\(images\/sunset\.jpg\)/);
    assert.equal(saved.replace(/!\[[^\n]*\]\(images\/sunset\.jpg\)/, '![](images/sunset.jpg)'), SAMPLE_POST, 'only the alt text changed');
  });

  step('[#41.5] the post attached in the chat, a webview in front: @gateway /summary summarises the attached post, not "Open a document first"', async () => {
    const page = editor.page;
    await editor.openFile(SAMPLE_POST_PATH);
    await editor.runCommand('Chat: Add File to Chat');
    const attached = page.locator('.interactive-input-part .chat-attached-context-attachment', { hasText: 'hello.md' }).first();
    await editor.expectVisible(attached, 'hello.md attached to the chat input', { timeout: TIMEOUTS.ui });
    // The last editor a webview: the post closed, a chat tab of the extension in front (no text editor).
    await editor.runCommand('View: Close All Editors');
    await editor.runCommand('AI Gateway: Open Chat in Editor');
    await editor.chatTab();
    await editor.expectVisible(attached, 'the attachment kept in the chat input');
    const before = (editor.gateway?.events.list('content-request') ?? []).length;
    const input = page.locator('.interactive-input-part .monaco-editor .view-lines').first();
    await input.click();
    // The chat keeps "@gateway" in its input after the last answer: start from an empty input (the attachment stays).
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Backspace');
    await page.keyboard.type('@gateway /summary ');
    const suggest = page.locator('.interactive-input-part .suggest-widget.visible');
    if (await suggest.count()) await page.keyboard.press('Escape');
    await editor.expectVisible(attached, 'the attachment still in the chat input');
    await page.keyboard.press('Enter');
    const response = page.locator('.interactive-response').last();
    await editor.expectVisible(response.getByText(/Summary: .*Hello from the AI Gateway sandbox/).first(), 'the summary of the attached post', { timeout: TIMEOUTS.workbench });
    assert.equal(await response.getByText(/Open a document/).count(), 0, 'not "Open a document first"');
    const sent = (editor.gateway?.events.list('content-request') ?? []).slice(before);
    assert.equal(sent.length, 1, JSON.stringify(sent));
    await editor.screenshot('participant-summary-attached');
  });
});
