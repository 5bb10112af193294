/**
 * Changes as diffs (issue 29, item 5), in the real editor against the local gateway: a chat code
 * block's **Apply** opens a diff of the post and the proposal, Accept writes it as one edit and one
 * Undo takes it back; **Rewrite Selection** (Ctrl+Alt+E) streams the model's rewrite into a diff,
 * Discard leaves the post untouched and Accept writes it, keeping the post's front matter, its CRLF
 * line breaks and its missing final newline. Screenshots in the dark and the light theme.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe } from 'node:test';
import type { FrameLocator, Locator } from 'playwright-core';
import { LOCAL_KEYS } from '../localGateway/keys';
import { type Editor, launchEditor, setColorTheme, TIMEOUTS } from './harness';
import { stepWithScreenshot } from './steps';

const POST = 'posts/draft.md';
// CRLF line breaks and no final newline, with front matter: what the rewrite must keep.
const POST_TEXT = ['---', 'title: Spring in Rome', 'tags: [travel]', '---', '', '# Spring in Rome', '', 'Rome in spring is lovely and the gardens bloom everywhere you look.', '', 'We ate pasta.'].join('\r\n');
const PARAGRAPH_LINE = 8;
const LAST_LINE = 10;

describe('changes as diffs: Apply and Rewrite Selection', () => {
  let editor: Editor;
  let chat: FrameLocator;

  const onDisk = (): string => readFileSync(join(editor.workspace, POST), 'utf8');
  const step = stepWithScreenshot('diffs', () => editor);

  const postEditor = () => editor.page.locator('.editor-group-container .monaco-editor:not(.original-in-monaco-diff-editor) .view-lines').first();
  const focusPost = async (): Promise<void> => {
    await editor.openFile(POST);
    await editor.page.locator('.editor-group-container.active .monaco-editor .view-lines').first().click({ position: { x: 5, y: 5 } });
  };
  const selectLine = async (line: number): Promise<void> => {
    await focusPost();
    await editor.page.keyboard.press('Control+G');
    const box = editor.page.locator('.quick-input-widget .quick-input-box input');
    await box.waitFor({ state: 'visible' });
    await box.fill(`:${line}`);
    await box.press('Enter');
    await editor.page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
    await editor.page.locator('.statusbar-item', { hasText: new RegExp(`Ln ${line}, Col`) }).first().waitFor({ state: 'visible' });
    const selected = editor.page.locator('.statusbar-item', { hasText: /\(\d+ selected\)/ }).first();
    for (let attempt = 0; attempt < 5; attempt++) {
      await editor.page.keyboard.press('Home');
      await editor.page.keyboard.press('Shift+End');
      if (await selected.waitFor({ state: 'visible', timeout: TIMEOUTS.ui }).then(() => true, () => false)) return;
    }
    throw new Error(`could not select line ${line}`);
  };
  /**
   * Clicks `label` on the review notification wherever it is: VS Code hides an information toast after
   * about 15 s when the window has the focus (a notification with buttons is not sticky), which on a
   * busy machine comes before the click (screenshots and theme switches in between). A hidden one is
   * still in the Notifications center: it is opened then. The toast is hovered first, which holds it.
   */
  const clickReviewAction = async (review: Locator, label: string): Promise<void> => {
    if (await review.isVisible().catch(() => false)) {
      await review.hover().catch(() => undefined);
      if (await editor.notificationAction(review, label).click({ timeout: TIMEOUTS.ui / 6 }).then(() => true, () => false)) return;
    }
    await editor.runCommand('Notifications: Show Notifications');
    const item = editor.page.locator('.notifications-center .notification-list-item').filter({ hasText: /Review the proposed change to draft\.md/ }).last();
    await editor.expectVisible(item, 'the review in the Notifications center');
    await editor.notificationAction(item, label).click();
  };
  /**
   * The post once the editor has saved it and `accept` takes it (Editor.savedText: two equal reads in a row,
   * since a read can fall inside the editor's write). `accept` names content the post must hold: an empty
   * file passes "differs from before" (it once failed "everything before the paragraph kept").
   */
  const savedText = (accept: (t: string) => boolean, what: string): Promise<string> => editor.savedText(POST, accept, what);
  const diffEditor = () => editor.page.locator('.editor-group-container .monaco-diff-editor').first();

  before(async () => {
    editor = await launchEditor({ name: 'diffs', workspaceFiles: { [POST]: POST_TEXT }, gateway: { chunkDelayMs: 0 } });
    await editor.addKey('work', LOCAL_KEYS.userFull);
    await editor.waitForStatusBarItem(/work \(User\)/);
    await editor.clearNotifications();
  });

  after(async () => {
    await editor?.close();
  });

  step('[#29.5] Apply on a chat code block shows a diff; Accept writes it as one edit, and one Undo takes it back', async () => {
    await selectLine(LAST_LINE);
    await editor.openAiGatewaySidebar();
    chat = await editor.webviewFrame(/^Chat/);
    await chat.locator('#input').waitFor({ state: 'visible' });
    // The open post is offered as an implicit attachment (#29.4); this message goes without it.
    await chat.locator('#chips .chip.implicit button[data-include="false"]').click();
    await chat.locator('#chips button.chip.implicit.off').waitFor({ state: 'visible' });
    await chat.locator('#input').fill('Give me a snippet');
    await chat.locator('#input').press('Enter');
    const block = chat.locator('article.message.assistant.complete .code-block').first();
    await editor.expectVisible(block, 'the reply with a code block');
    const apply = block.locator('button[data-action="applyCode"]');
    assert.equal(await apply.getAttribute('aria-label'), 'Apply (review as a diff)');
    await apply.click();

    const review = await editor.waitForNotification(/Review the proposed change to draft\.md \(1 change\): code block in place of the selection/);
    await editor.expectVisible(diffEditor(), 'the diff of the post and the proposal');
    await editor.expectVisible(editor.page.locator('.tab.active', { hasText: /draft\.md ↔ Proposed/ }), 'the diff tab');
    // Accept, Choose Changes and Discard in the diff's title bar; nothing written yet.
    await editor.expectVisible(editor.page.locator('.editor-actions [aria-label="Accept Proposed Change"]').first(), 'Accept in the editor title');
    assert.equal(onDisk(), POST_TEXT);
    await editor.screenshot('diffs-apply-review', { docs: true });
    await setColorTheme(editor, 'Light Modern');
    await editor.screenshot('diffs-apply-review-light', { docs: true });
    await setColorTheme(editor, 'Dark Modern');

    // Accept from the notification (it never takes the keyboard; the editor title has the same action).
    await clickReviewAction(review, 'Accept');
    await editor.expectVisible(editor.page.locator('.tab.active', { hasText: /^\s*draft\.md/ }), 'the post again, the diff closed');
    const applied = await savedText((t) => t.includes('const echo = '), 'the applied code in the saved post');
    assert.match(applied, /const echo = /);
    assert.ok(applied.startsWith('---\r\ntitle: Spring in Rome\r\n'), 'front matter kept');
    assert.ok(!/[^\r]\n/.test(applied), 'CRLF kept');
    assert.ok(!applied.endsWith('\n'), 'still no final newline');

    await postEditor().click({ position: { x: 5, y: 5 } });
    await editor.page.keyboard.press('Control+Z');
    await savedText((t) => t === POST_TEXT, 'the post back as it was after one Undo');
  });

  step('[#29.5] Rewrite Selection (Ctrl+Alt+E): Discard leaves the post as it is', async () => {
    const before = editor.gateway?.events.list('chat-request').length ?? 0;
    await selectLine(PARAGRAPH_LINE);
    await editor.page.keyboard.press('Control+Alt+E');
    await editor.fillInputBox('Make it shorter', { title: /Rewrite Selection/ });
    const review = await editor.waitForNotification(/Review the proposed change to draft\.md \(\d+ changes?\): rewrite \(Make it shorter\)\. Cost: [\d.]+ credits/);
    await editor.expectVisible(diffEditor(), 'the rewrite as a diff');
    await editor.screenshot('diffs-rewrite-review', { docs: true });
    assert.equal((editor.gateway?.events.list('chat-request').length ?? 0) - before, 1, 'one billed request');
    await clickReviewAction(review, 'Discard');
    await diffEditor().waitFor({ state: 'detached' });
    assert.equal(onDisk(), POST_TEXT);
    await editor.expectVisible(editor.page.locator('.tab', { hasText: /^\s*draft\.md\s*$/ }).first(), 'the post tab');
    assert.equal(await editor.page.locator('.tab.dirty', { hasText: 'draft.md' }).count(), 0, 'nothing changed in the editor either');
  });

  step('[#29.5] Rewrite Selection accepted: the paragraph is replaced, front matter, CRLF and the missing final newline kept', async () => {
    await selectLine(PARAGRAPH_LINE);
    await editor.runCommand('AI Gateway: Rewrite Selection…');
    await editor.fillInputBox('Make it shorter', { title: /Rewrite Selection/ });
    const review = await editor.waitForNotification(/Review the proposed change to draft\.md/);
    await clickReviewAction(review, 'Accept');
    // The saved post is taken once it holds the model's answer, not merely once it differs from the post
    // before: each read follows a save's start, and a read inside the write (the file truncated, then
    // written) sees it empty; two such reads in a row agree. A fresh-clone run took that for the rewrite
    // while the editor showed the post rightly rewritten. The assertions name what was on disk.
    const text = await savedText((t) => t.includes('This is a deterministic reply from'), 'the rewrite in the saved post');
    assert.ok(text.startsWith('---\r\ntitle: Spring in Rome\r\ntags: [travel]\r\n---\r\n\r\n# Spring in Rome\r\n\r\n'), `everything before the paragraph kept: ${JSON.stringify(text.slice(0, 200))}`);
    assert.ok(text.endsWith('\r\n\r\nWe ate pasta.'), `everything after it kept, still without a final newline: ${JSON.stringify(text.slice(-200))}`);
    assert.match(text, /This is a deterministic reply from/, 'the paragraph was rewritten with the model\'s answer');
    assert.ok(!/[^\r]\n/.test(text), 'CRLF kept');
    // The reply's price is in the spend ledger like any content command's: the status bar's spend moved.
    await editor.waitForStatusBarItem(/credits today/);
  });
});
