/**
 * Knowledge bases and agents in the real editor (code-server + the packaged VSIX + the local gateway):
 *  1. create a collection, index a folder from the Explorer ("Index into Collection…"; the file that
 *     .gitignore ignores is skipped), search it, and pick the hit: the source file opens at the line
 *     and column of the match;
 *  2. chat with an agent (the reply opens in a read-only Markdown document), switch to a key that has
 *     only session_events write, and send Thumbs Down: the local gateway records the feedback with
 *     that key.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LOCAL_KEYS } from '../localGateway/keys';
import { launchEditor, TIMEOUTS, type Editor } from './harness';

const FILES = {
  '.gitignore': 'docs/drafts/\n',
  'docs/guide.md': '# Guide\n\nfirst line\nsecond line\n    the zebra crossing\n',
  'docs/notes.txt': 'plain notes without the word\n',
  'docs/drafts/wip.md': 'zebra draft that must not be indexed\n',
};

describe('knowledge bases and agents in VS Code', () => {
  let editor: Editor;

  before(async () => {
    editor = await launchEditor({ name: 'knowledge', workspaceFiles: FILES });
    await editor.addKey('work', LOCAL_KEYS.userFull);
  });

  after(async () => {
    await editor?.close();
  });

  test('index a folder from the Explorer, search, and open the source at the matching line', async () => {
    const { page } = editor;
    await editor.runCommand('AI Gateway: Create Collection…');
    await editor.fillInputBox('Handbook');

    await editor.runCommand('View: Show Explorer');
    const docsRow = page.locator('.explorer-folders-view .monaco-list-row', { hasText: /^docs$/ }).first();
    await editor.expectVisible(docsRow, 'the docs folder in the Explorer');
    await docsRow.click({ button: 'right' });
    const menuItem = page.locator('.context-view .action-item', { hasText: 'Index into Collection…' }).first();
    await editor.expectVisible(menuItem, 'Index into Collection… in the Explorer menu');
    await menuItem.click();
    await editor.pickQuickPickItem('Handbook');
    await editor.waitForNotification(/Indexed 2 files into "Handbook"\. Skipped 1 ignored by \.gitignore\./);
    assert.deepEqual(
      editor.gateway!.events.list('request').filter((e) => e.method === 'POST' && /\/documents$/.test(String(e.path))).length,
      2,
      'only the two picked, not-ignored files were sent',
    );

    // The sidebar first: focusing it later would close the quick pick.
    await editor.openAiGatewaySidebar();
    await editor.runCommand('AI Gateway: Search Collection…');
    await editor.pickQuickPickItem('Handbook');
    await editor.fillInputBox('zebra');
    const row = page.locator('.quick-input-widget .monaco-list-row', { hasText: 'docs/guide.md:5:9' }).first();
    await editor.expectVisible(row, 'the search hit with its source, line and column');
    await editor.screenshot('knowledge-search', { docs: true });
    await row.click();
    await editor.expectVisible(page.locator('.tab.active', { hasText: 'guide.md' }), 'guide.md opened from the hit');
    await editor.waitForStatusBarItem(/Ln 5, Col 9/, { timeout: TIMEOUTS.ui });
  });

  test('chat with an agent, then Thumbs Down with a session_events-only key reaches the gateway', async () => {
    const { page } = editor;
    await editor.runCommand('AI Gateway: Create Agent…');
    await editor.fillInputBox('Helper');
    await editor.fillInputBox('Answers questions');
    await editor.runCommand('AI Gateway: Chat with Agent…');
    await editor.pickQuickPickItem('Helper');
    await editor.fillInputBox('hello agent');
    await editor.expectVisible(page.locator('.tab.active', { hasText: 'chat.md' }), 'the chat document');
    await editor.expectVisible(page.locator('.editor-group-container.active .view-lines', { hasText: 'Helper:' }), 'the reply in the chat document');
    await editor.openAiGatewaySidebar();
    await editor.screenshot('agents-view', { docs: true });

    await editor.addKey('events only', LOCAL_KEYS.userSessionEvents);
    await editor.runCommand('AI Gateway: Switch API Key');
    await editor.pickQuickPickItem('events only');
    await editor.expectVisible(page.locator('.tab.active', { hasText: 'chat.md' }), 'the chat document, still active');
    await editor.runCommand('AI Gateway: Thumbs Down');
    const feedback = await editor.gateway!.events.waitFor('agent-feedback', () => true, TIMEOUTS.notification);
    assert.equal(feedback.rating, 'down');
    assert.equal(feedback.keyName, 'Local user (session_events write only)');
  });
});
