/**
 * Foundation journeys in the real editor (code-server + the packaged VSIX + the local gateway): the
 * extension activates, a key is added through the palette's input boxes, the key shows in the status
 * bar, and a revoked key gives a clear error with an action; Check API Key lists what a key restricted to
 * the tool server can do, scope by scope (#39.12). The steps build on each other (one editor for the
 * file), in order.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LOCAL_KEYS } from '../localGateway/keys';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ARTIFACTS_DIR, launchEditor, TIMEOUTS, type Editor } from './harness';

describe('foundation: activation and API keys in VS Code', () => {
  let editor: Editor;

  before(async () => {
    editor = await launchEditor({ name: 'foundation' });
  });

  after(async () => {
    // The extension's own log, kept next to the screenshots for a failure's cause.
    if (editor) {
      const dir = join(editor.userDataDir, 'logs');
      const logs = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => /AI Gateway.*\.log$/.test(f));
      writeFileSync(join(ARTIFACTS_DIR, 'foundation.extension.log'), logs.map((f) => `== ${f}\n${readFileSync(join(dir, f), 'utf8')}`).join('\n'));
    }
    await editor?.close();
  });

  test('the extension activates: its sidebar opens and its status bar item asks for a key', async () => {
    await editor.openAiGatewaySidebar();
    // The status bar item only exists once activate() ran (no start-up activation event).
    const item = await editor.waitForStatusBarItem(/Set API Key/);
    assert.match(await item.innerText(), /Set API Key/);
    await editor.page.locator('.pane-header', { hasText: /Models/i }).first().waitFor({ state: 'visible' });
    await editor.screenshot('sidebar-activated');
  });

  test('[G-AUTH-2] a User key added through the palette input boxes is saved, active and shown in the status bar', async () => {
    await editor.addKey('work', LOCAL_KEYS.userFull);
    // Checked live before it was saved (#29.9).
    await editor.waitForNotification(/API key .*work.* checked \(valid for chat\), saved and active/);
    const item = await editor.waitForStatusBarItem(/work \(User\)/);
    assert.match(await item.innerText(), /work \(User\)/);
    // The secret never reaches the workbench UI.
    assert.doesNotMatch(await editor.statusBarText(), /svc_pat_/);
    await editor.screenshot('status-bar-key', { docs: true });
    await editor.clearNotifications();
  });

  test('[G-AUTH-1] Check API Key confirms a valid key against the gateway', async () => {
    await editor.runCommand('AI Gateway: Check API Key');
    const ok = await editor.waitForNotification(/work.*(valid|works)/i);
    assert.doesNotMatch(await ok.innerText(), /refused|revoked/i);
    await editor.clearNotifications();
  });

  test('[G-AUTH-3] a revoked key gives a clear error with a "Set API Key" action that opens the key picker', async () => {
    await editor.addKeyThenRevoke('old');
    await editor.waitForStatusBarItem(/old \(User\)/);
    await editor.clearNotifications();
    await editor.runCommand('AI Gateway: Check API Key');
    // A toast, not only an entry behind the bell: VS Code gives no toast to the 4th notification within
    // 800 ms, which a "Checking…" notification per check reached right after Add API Key (quietProgress.ts).
    const error = await editor.waitForNotification(/invalid or has been revoked/);
    const text = await error.innerText();
    assert.match(text, /401/);
    assert.doesNotMatch(text, /svc_pat_/, 'the error never shows the secret');
    const action = editor.notificationAction(error, 'Set API Key');
    await action.waitFor({ state: 'visible' });
    // The "Checking…" progress closes once the answer is in.
    await editor.page.locator('.notifications-toasts .notification-toast', { hasText: 'Checking API key' }).waitFor({ state: 'hidden', timeout: TIMEOUTS.notification });
    await editor.screenshot('revoked-key-error', { docs: true });
    await action.click();
    // The action opens the key picker, listing both keys by name.
    await editor.page.locator('.quick-input-widget .monaco-list-row', { hasText: 'work' }).first().waitFor({ state: 'visible' });
    await editor.pickQuickPickItem(/work/);
    const item = await editor.waitForStatusBarItem(/work \(User\)/);
    assert.match(await item.innerText(), /work \(User\)/);
  });

  test('[#39.12] Check API Key on an mcp-only key lists mcp: write and chat: none, and bills nothing', async () => {
    await editor.clearNotifications();
    // Add API Key finds no chat scope and says what the key can do instead.
    await editor.addKey('tools', LOCAL_KEYS.userMcpOnly);
    await editor.waitForStatusBarItem(/tools \(User\)/);
    await editor.clearNotifications();
    editor.gateway!.events.clear();
    await editor.runCommand('AI Gateway: Check API Key');
    const summary = await editor.waitForNotification(/API key "tools" is valid and can use mcp \(write\)\. Nothing was billed\./);
    assert.doesNotMatch(await summary.innerText(), /lacks|chat \(/, 'no word of a missing chat scope');
    await editor.notificationAction(summary, 'Show Scopes').click();
    const rows = editor.page.locator('.quick-input-widget .monaco-list-row');
    await rows.filter({ hasText: 'mcp: write' }).first().waitFor({ state: 'visible', timeout: TIMEOUTS.ui });
    const texts = await rows.allInnerTexts();
    assert.ok(texts.some((t) => /chat: none/.test(t)), texts.join(' | '));
    assert.ok(texts.some((t) => /collections: none/.test(t)), texts.join(' | '));
    await editor.screenshot('check-key-scopes', { docs: true });
    await editor.page.keyboard.press('Escape');
    assert.equal(editor.gateway!.events.list('billed').length, 0, 'the check billed nothing');
  });
});
