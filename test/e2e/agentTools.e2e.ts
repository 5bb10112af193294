/**
 * [#43.1] VS Code's own chat in agent mode, answered by a gateway model, calls this extension's alt-text
 * tool (aiGateway_altText) on the sample post: VS Code shows the tool's confirmation with the cost, the
 * alt text arrives as the commands' diff, Accept writes it into the file.
 *
 * The local gateway's model decides to call the tool through the `[[tool:NAME {...}]]` marker of
 * test/localGateway/toolScript.ts (a model that calls a tool only because the user's message says so):
 * what is under test is the editor side, that agent mode offers the tool and runs it as declared.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { LOCAL_KEYS } from '../localGateway/keys';
import { launchEditor, TIMEOUTS, type Editor } from './harness';
import { SAMPLE_POST, SAMPLE_POST_PATH } from './sandbox';

describe("[#43.1] VS Code's agent mode calls the gateway's alt-text tool", () => {
  let editor: Editor;

  before(async () => {
    editor = await launchEditor({ name: 'agent-tools', gateway: { chunkDelayMs: 0 } });
    await editor.addKey('work', LOCAL_KEYS.userFull);
  });

  after(async () => {
    await editor?.close();
  });

  test('[#43.1] agent mode: the alt-text tool asks with its cost, proposes a diff, and Accept changes the sample post', async () => {
    const page = editor.page;
    // A fresh profile: VS Code's built-in chat extension is off until Manage Language Models turns it on
    // (what this extension's "Turn On" offer runs; the offer itself is proven in nativeChatView.e2e.ts, and
    // its toast, an information message VS Code hides after a while, can be gone when a busy machine looks).
    await editor.runCommand('Chat: Manage Language Models');
    await editor.expectVisible(page.locator('.monaco-list-row', { hasText: 'GPT-5.1' }).first(), 'the gateway models in Manage Language Models', { timeout: TIMEOUTS.workbench });
    await page.keyboard.press('Escape');
    await editor.runCommand('Chat: Open Chat');
    await editor.expectVisible(page.getByText('Set BYOK utility models').first(), "VS Code's chat extension serving the chat signed out", { timeout: TIMEOUTS.workbench });
    // A fresh profile's chat starts in agent mode in this VS Code (1.139): no mode switch (its command is not
    // in the palette there); the tool confirmation below proves the tools were offered.
    await editor.screenshot('agent-tools-mode');

    await page.locator('.interactive-input-part .monaco-editor .view-lines').first().click();
    await page.keyboard.type(`Write alt text for the images of ${SAMPLE_POST_PATH} [[tool:aiGateway_altText {"filePath":"${SAMPLE_POST_PATH}"}]]`);
    await page.keyboard.press('Enter');

    // VS Code's confirmation of the tool, with the title and the cost prepareInvocation gave.
    // (code-server 4.139.1 shows it under "1 confirmation pending", above the input, with "Allow in this Session" and Skip.)
    const confirm = page.locator('.chat-confirmation-widget2:visible, .chat-confirmation-widget:visible').filter({ hasText: 'Generate alt text for 1 image' }).first();
    await editor.expectVisible(confirm, 'the tool confirmation in the chat', { timeout: TIMEOUTS.workbench });
    // (Its inner paragraphs have hidden copies: the widget's whole text is checked instead.)
    // (Its spaces may be non-breaking, as the workbench renders Markdown: compared as plain spaces.)
    const shown = ((await confirm.textContent()) ?? '').replace(/\s+/g, ' ');
    assert.match(shown, /Generate alt text for 1 image in posts\/hello\.md\?/, shown);
    assert.match(shown, /Prompt: [\d.]+ credits \(\d+ tokens, counted by the gateway\) on /, shown);
    await editor.screenshot('agent-tools-confirmation', { docs: true });
    assert.equal((editor.gateway?.events.list('content-request') ?? []).length, 0, 'nothing billed before the confirmation');
    await confirm.locator('.monaco-button').filter({ hasText: /^\s*(Allow|Continue)/ }).first().click();

    // The alt text as the commands' diff, with Accept in a notification.
    const review = await editor.waitForNotification(/Review the proposed change to hello\.md/, { timeout: TIMEOUTS.workbench });
    await editor.expectVisible(page.locator('.monaco-diff-editor').first(), 'the proposed diff');
    await editor.screenshot('agent-tools-diff');
    assert.equal(readFileSync(join(editor.workspace, SAMPLE_POST_PATH), 'utf8'), SAMPLE_POST, 'nothing written before Accept');
    await editor.notificationAction(review, 'Accept').click();

    const until = Date.now() + TIMEOUTS.workbench;
    let text = readFileSync(join(editor.workspace, SAMPLE_POST_PATH), 'utf8');
    while (text === SAMPLE_POST && Date.now() < until) {
      // Accept writes the open document; the journey saves it as the user would.
      await editor.runCommand('File: Save All').catch(() => undefined);
      await new Promise((r) => setTimeout(r, 250));
      text = readFileSync(join(editor.workspace, SAMPLE_POST_PATH), 'utf8');
    }
    assert.match(text, /!\[Local "test" image: [^\n]+\]\(images\/sunset\.jpg\)/, text);
    const calls = (editor.gateway?.events.list('content-request') ?? []).filter((e) => e.endpoint === 'altText');
    assert.equal(calls.length, 1, 'one billed alt-text request');
    // The agent got the tool's result back and the model answered from it.
    await editor.expectVisible(page.locator('.interactive-response').getByText(/aiGateway_altText: The user accepted the alt text/).first(), "the tool's result in the agent's answer", { timeout: TIMEOUTS.workbench });
    await editor.screenshot('agent-tools-accepted');
  });
});
