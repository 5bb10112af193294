/**
 * Knowledge bases and agents in the real editor (code-server + the packaged VSIX + the local gateway):
 *  1. create a collection, index a folder from the Explorer ("Index into Collection…"; the file that
 *     .gitignore ignores is skipped), search it, and pick the hit: the source file opens at the line
 *     and column of the match;
 *  2. Chat with Agent opens a chat tab bound to a new session of the agent; with a second key (an
 *     Account key), a message gets the agent's reply through the session route, and Thumbs Up
 *     (from the keyboard) shows pressed once the local gateway recorded the feedback with that key; a
 *     Thumbs Down the gateway fails stays unpressed and the reply says why.
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
    await editor.chooseContextMenuItem(docsRow, 'Index into Collection…');
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

  test('[G-AUTH-7] chat with an agent in the chat tab, then Thumbs Up with a second key (an Account key) reaches the gateway', async () => {
    await editor.runCommand('AI Gateway: Create Agent…');
    await editor.fillInputBox('Helper', { title: /Create Agent: name \(1\/2\)/ });
    await editor.fillInputBox('Answers questions', { title: /Create Agent: instructions \(2\/2\)/ });
    // From the Agents view: the agent's context menu. The sidebar chat is folded to give the view room.
    await editor.openAiGatewaySidebar();
    const { page } = editor;
    const header = (name: RegExp) => page.locator('.pane-header', { hasText: name }).first();
    if ((await header(/^Chat/).getAttribute('aria-expanded')) === 'true') await header(/^Chat/).click();
    if ((await header(/^Agents/).getAttribute('aria-expanded')) !== 'true') await header(/^Agents/).click();
    const helperRow = page.locator('.monaco-list-row', { hasText: 'Helper' }).first();
    await editor.expectVisible(helperRow, 'the agent in the Agents view');
    await editor.chooseContextMenuItem(helperRow, 'Chat with Agent…');
    const chat = await editor.chatTab(/^(AI Gateway Chat|Chat with Helper)/);
    await chat.locator('#empty-state h2', { hasText: 'Chat with the agent Helper' }).waitFor({ state: 'visible', timeout: TIMEOUTS.ui });
    assert.equal(await chat.locator('#model').isHidden(), true, 'an agent conversation has no model picker');
    const created = editor.gateway!.events.list('request').filter((e) => e.method === 'POST' && e.path === '/v1/sessions');
    assert.equal(created.length, 1, 'Chat with Agent created one session');
    await editor.screenshot('agents-view', { docs: true });

    // The rest with another key, an Account key (Full access): the feedback is recorded under it.
    await editor.addKey('service', LOCAL_KEYS.accountFull);
    // Checked live before it is saved, and saved and active.
    await editor.waitForNotification(/"service" .*saved and active/);
    await editor.runCommand('AI Gateway: Switch API Key');
    await editor.pickQuickPickItem('service');
    await editor.waitForStatusBarItem(/service/);

    // Add API Key's live checks probe /v1/chat/completions (unbilled); count only what the message sends.
    const completions = () => editor.gateway!.events.list('request').filter((e) => String(e.path).startsWith('/v1/chat/completions')).length;
    const completionsBefore = completions();
    // The open guide is offered as an implicit attachment (#29.4); this message goes without it.
    await chat.locator('#chips .chip.implicit button[data-include="false"]').click();
    await chat.locator('#chips button.chip.implicit.off').waitFor({ state: 'visible' });
    await chat.locator('#input').fill('hello agent');
    await chat.locator('#input').press('Enter');
    const reply = chat.locator('article.message.assistant.complete').last();
    await reply.locator('.body', { hasText: 'Helper (local) received: hello agent' }).waitFor({ state: 'visible', timeout: TIMEOUTS.ui }).catch(async (e: unknown) => {
      await editor.screenshot('knowledge-failure-agent-reply');
      throw e;
    });
    assert.equal(await reply.locator('.role').textContent(), 'Helper', 'the reply is named for the agent');
    assert.equal(completions() - completionsBefore, 0, 'no chat completion was requested');

    const up = reply.locator('button[data-action="rateReply"][data-rating="up"]');
    assert.equal(await up.getAttribute('aria-pressed'), 'false');
    assert.match((await up.getAttribute('aria-label')) ?? '', /^Thumbs Up/);
    // From the keyboard: the thumb is a focusable button in the reply's actions.
    await up.focus();
    await up.press('Enter');
    const feedback = await editor.gateway!.events.waitFor('agent-feedback', () => true, TIMEOUTS.notification);
    assert.equal(feedback.rating, 'up');
    assert.equal(feedback.keyName, 'Local account (Full access)');
    await reply.locator('button[data-rating="up"][aria-pressed="true"] .codicon-thumbsup-filled').waitFor({ state: 'visible', timeout: TIMEOUTS.ui });
    assert.equal(await reply.locator('button[data-rating="down"]').getAttribute('aria-pressed'), 'false');
    await editor.clearNotifications();
    await reply.hover();
    await editor.screenshot('agent-chat-feedback', { docs: true });

    // A feedback the gateway fails: Thumbs Down is left unpressed, Thumbs Up stays, and the reply says why.
    editor.gateway!.faults.add({ kind: 'server_error', route: '/v1/sessions/*', method: 'POST', count: Infinity });
    try {
      await reply.locator('button[data-action="rateReply"][data-rating="down"]').click();
      await reply.locator('.feedback-error[role="alert"]', { hasText: /^Feedback not sent: / }).waitFor({ state: 'visible', timeout: TIMEOUTS.ui });
    } finally {
      editor.gateway!.faults.clear();
    }
    assert.equal(await reply.locator('button[data-rating="down"]').getAttribute('aria-pressed'), 'false');
    assert.equal(await reply.locator('button[data-rating="up"]').getAttribute('aria-pressed'), 'true');
    assert.equal(editor.gateway!.events.list('agent-feedback').length, 1, 'the failed feedback was not recorded');
  });
});
