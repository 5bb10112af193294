/**
 * Insertions keep the document's structure, in the real editor (code-server + the packaged VSIX + the
 * local gateway), issue 27 items 2 and 3:
 *  (a) Generate Image → Insert into Document with the cursor on line 1 of a post with front matter
 *      (where the cursor is right after opening it): the image lands after the front matter, on a line
 *      of its own with blank lines around it, and the front matter is untouched;
 *  (b) Summarise a whole document → Insert Below: the summary is a paragraph of its own, on a document
 *      without a trailing newline and on one with it.
 * The files on disk are read after "File: Save" to check what the editor did.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { LOCAL_KEYS } from '../localGateway/keys';
import { launchEditor, TIMEOUTS, type Editor } from './harness';

const FRONT_MATTER = '---\ntitle: "Trip to Rome"\ncategories:\n  - Travel\n---\n';
const POST = 'posts/trip.md';
const POST_TEXT = `${FRONT_MATTER}# Trip to Rome\n\nRome in spring is lovely. The gardens bloom and the fountains sparkle.\n`;
const NOTES = 'posts/notes.md';
const NOTES_TEXT = '# Notes\n\nPasta, gelato and long walks along the river made the holiday memorable.'; // no final newline
const DIARY = 'posts/diary.md';
const DIARY_TEXT = '# Diary\n\nWe walked to the fountain every morning and ate gelato every afternoon.\n';

describe('insertions keep the document structure in VS Code', () => {
  let editor: Editor;

  const quickInput = () => editor.page.locator('.quick-input-widget .quick-input-box input');

  const focusText = async (): Promise<void> => {
    await editor.page.locator('.editor-group-container.active .monaco-editor .view-lines').first().click({ position: { x: 5, y: 5 } });
  };

  /** Puts the cursor at line 1, column 1, until the status bar shows it there (a key can be lost). */
  const cursorToStart = async (): Promise<void> => {
    const at = editor.page.locator('.statusbar-item', { hasText: /Ln 1, Col 1\b/ }).first();
    for (let attempt = 0; ; attempt++) {
      await focusText();
      await editor.page.keyboard.press('Control+Home');
      if (await at.waitFor({ state: 'visible', timeout: 5000 }).then(() => true, () => false)) return;
      if (attempt >= 3) throw new Error('the cursor did not reach line 1');
    }
  };

  /** `file` once its edit is saved and `check` passes (the extension host applies its edit when it gets to it). */
  const eventually = (file: string, check: (text: string) => void): Promise<string> => editor.savedText(file, check, 'the edit');

  const confirmCost = async (cost: RegExp): Promise<void> => {
    const dialog = editor.page.locator('.monaco-dialog-box');
    await dialog.waitFor({ state: 'visible', timeout: TIMEOUTS.notification });
    assert.match(await dialog.innerText(), cost);
    await dialog.getByRole('button', { name: 'Send', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
  };

  const acceptFirstPick = async (title: RegExp): Promise<void> => {
    await editor.page.locator('.quick-input-widget .quick-input-title', { hasText: title }).waitFor({ state: 'visible', timeout: TIMEOUTS.notification });
    await editor.page.locator('.quick-input-widget .monaco-list-row').first().waitFor({ state: 'visible', timeout: TIMEOUTS.notification });
    await quickInput().press('Enter');
    await editor.page.locator('.quick-input-widget .quick-input-title', { hasText: title }).waitFor({ state: 'hidden' });
  };

  /** Accepts the editor's own save dialog at its default (next to the post); Enter again while it validates. */
  const acceptFileDialog = async (): Promise<void> => {
    const widget = editor.page.locator('.quick-input-widget');
    await quickInput().waitFor({ state: 'visible', timeout: TIMEOUTS.ui });
    for (let attempt = 0; attempt < 6; attempt++) {
      await quickInput().press('Enter');
      if (await widget.waitFor({ state: 'hidden', timeout: 5000 }).then(() => true, () => false)) return;
    }
    throw new Error('the file dialog did not accept its default');
  };

  before(async () => {
    editor = await launchEditor({
      name: 'insertion',
      workspaceFiles: { [POST]: POST_TEXT, [NOTES]: NOTES_TEXT, [DIARY]: DIARY_TEXT },
      settings: { 'aiGateway.defaultModels.image': 'openai/gpt-image-1', 'aiGateway.defaultModels.altText': '', 'aiGateway.content.previewChanges': false },
    });
    await editor.addKey('work', LOCAL_KEYS.userFull);
    await editor.waitForNotification(/API key .*work.* saved and active/);
    await editor.clearNotifications();
  });

  after(async () => {
    await editor?.close();
  });

  test('[#27.2] Generate Image → Insert with the cursor on line 1 of a post with front matter: after the front matter, on its own line, blank lines around', async () => {
    await editor.openFile('trip.md');
    await cursorToStart();
    await editor.runCommand('AI Gateway: Generate Image');
    await quickInput().waitFor({ state: 'visible' });
    await quickInput().fill('A fountain in Rome');
    await quickInput().press('Enter');
    await acceptFirstPick(/Image size/);
    await acceptFirstPick(/Number of images/);
    await confirmCost(/1 image × 0\.042 credits per image = 0\.042 credits/);
    const frame = await editor.webviewFrame('Generated Image', { timeout: TIMEOUTS.notification });
    await frame.locator('.preview img').first().waitFor({ state: 'visible', timeout: TIMEOUTS.notification });
    await frame.getByRole('button', { name: 'Insert into trip.md' }).click();
    await acceptFileDialog();
    await editor.page.locator('.tab', { hasText: 'Generated Image' }).waitFor({ state: 'detached', timeout: TIMEOUTS.notification });
    await editor.openFile('trip.md');

    const text = await eventually(POST, (t) => assert.match(t, /!\[.*\]\(a-fountain-in-rome\.png\)/));
    const m = /^!\[.*\]\(a-fountain-in-rome\.png\)$/m.exec(text);
    assert.ok(m, `the image markup is a line of its own:\n${text}`);
    assert.equal(text, `${FRONT_MATTER}\n${m[0]}\n\n${POST_TEXT.slice(FRONT_MATTER.length)}`, 'after the front matter, blank lines around, the rest unchanged');
    assert.ok(existsSync(join(editor.workspace, 'posts', 'a-fountain-in-rome.png')));
    await focusText();
    await editor.page.keyboard.press('Control+Home');
    await editor.screenshot('insertion-image-after-front-matter');
  });

  for (const [file, original, trailing] of [[NOTES, NOTES_TEXT, 'without'], [DIARY, DIARY_TEXT, 'with']] as const) {
    test(`[#27.3] Summarise the whole of a document ${trailing} a trailing newline → Insert Below: the summary is a paragraph of its own`, async () => {
      const name = file.split('/').pop() as string;
      await editor.openFile(name);
      await cursorToStart(); // no selection: the whole document is summarised
      await editor.runCommand('AI Gateway: Summarise Selection or Document');
      const ready = await editor.waitForNotification(new RegExp(`Summary of the whole of ${name.replace('.', '\\.')} is ready`));
      await editor.notificationAction(ready, 'Insert Below').click();

      const text = await eventually(file, (t) => assert.ok(t.length > original.length && t.includes('Summary:'), t));
      const summary = text.slice(text.indexOf('Summary:')).trimEnd();
      assert.ok(!summary.includes('\n'), 'a one-line summary');
      // The document, a blank line, the summary; the final newline as it was.
      assert.equal(text, trailing === 'with' ? `${original}\n${summary}\n` : `${original}\n\n${summary}`);
      await editor.screenshot(`insertion-summary-${trailing}-trailing-newline`);
    });
  }
});
