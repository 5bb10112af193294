/**
 * Content commands in the real editor (code-server + the packaged VSIX + the local gateway), on a
 * Markdown post with front matter and an image without alt text:
 *  1. select a paragraph, run Summarise, see the summary beside the editor, Insert Below;
 *  2. the image gets the missing-alt diagnostic, and its quick fix fills the alt (escaped for Markdown);
 *  3. Suggest Categories and Tags: the picked terms land in the front matter, the rest of it untouched.
 * The steps build on each other (one editor for the file), in order. The file on disk is read after
 * "File: Save" to check what the editor did.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseDocument } from 'yaml';
import { LOCAL_KEYS } from '../localGateway/keys';
import { localTaxonomy } from '../localGateway/content';
import { findFrontMatter } from '../../src/core/content/frontMatter';
import { requestText } from '../../src/core/content/placement';
import { launchEditor, TIMEOUTS, type Editor } from './harness';

const POST = 'posts/trip.md';
const SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><circle cx="4" cy="4" r="3" fill="teal"/></svg>\n';
const TRIP = [
  '---',
  'title: "Trip to Rome"',
  '# taxonomy below',
  'categories:',
  '  - Travel',
  'tags: []',
  '---',
  '',
  '# Trip to Rome',
  '',
  'Rome in spring is lovely. The gardens bloom and the fountains sparkle in the sunshine.',
  '',
  '![](images/fountain.svg)',
  '',
  'Pasta, gelato and long walks along the river made the holiday memorable. Gardens, gardens, pasta.',
  '',
].join('\n');
const PARAGRAPH_LINE = 11;
const PAGE = 'posts/page.html';
const PAGE_TEXT = '<main>\n  <p>Our fountain:</p>\n  <img src="images/fountain.svg" class="hero">\n</main>\n';
const IMAGE_LINE = 13;

describe('content commands in VS Code', () => {
  let editor: Editor;

  const onDisk = (): string => readFileSync(join(editor.workspace, POST), 'utf8');

  /** Focuses the editor text of the active tab. */
  const focusText = async (): Promise<void> => {
    await editor.page.locator('.editor-group-container.active .monaco-editor .view-lines').first().click({ position: { x: 5, y: 5 } });
  };

  const goToLine = async (line: number): Promise<void> => {
    await focusText();
    await editor.page.keyboard.press('Control+G');
    const box = editor.page.locator('.quick-input-widget .quick-input-box input');
    await box.waitFor({ state: 'visible' });
    await box.fill(`:${line}`);
    await box.press('Enter');
    // Keys pressed while the quick input is still closing are lost: wait until the editor has them
    // and the cursor is on that line.
    await editor.page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
    await editor.page.locator('.statusbar-item', { hasText: new RegExp(`Ln ${line}, Col`) }).first().waitFor({ state: 'visible' });
  };

  /**
   * Selects the current line (Home, Shift+End) and checks the status bar reports a selection; on a
   * busy machine a key can be lost, so it tries again rather than summarising the whole document.
   */
  const selectCurrentLine = async (): Promise<void> => {
    const selected = editor.page.locator('.statusbar-item', { hasText: /Ln \d+, Col \d+ \(\d+ selected\)/ }).first();
    for (let attempt = 0; attempt < 5; attempt++) {
      await editor.page.keyboard.press('Home');
      await editor.page.keyboard.press('Shift+End');
      if (await selected.waitFor({ state: 'visible', timeout: TIMEOUTS.ui }).then(() => true, () => false)) return;
      await focusText();
    }
    throw new Error('could not select the paragraph');
  };

  /** The post once its edit is saved and `check` passes (the extension host applies its edit when it gets to it). */
  const eventually = (check: (text: string) => void): Promise<string> => editor.savedText(POST, check, 'the edit');

  before(async () => {
    editor = await launchEditor({ name: 'content', settings: { 'aiGateway.content.previewChanges': false }, workspaceFiles: { [POST]: TRIP, [PAGE]: PAGE_TEXT, 'posts/images/fountain.svg': SVG } });
    await editor.addKey('work', LOCAL_KEYS.userFull);
    await editor.waitForNotification(/API key .*work.* saved and active/);
    await editor.clearNotifications();
    await editor.openFile('trip.md');
  });

  after(async () => {
    await editor?.close();
  });

  test('select a paragraph, Summarise: the summary opens beside the editor and Insert Below puts it under the paragraph', async () => {
    await goToLine(PARAGRAPH_LINE);
    await selectCurrentLine();
    await editor.runCommand('AI Gateway: Summarise Selection or Document');
    const ready = await editor.waitForNotification(/Summary of the selection in trip\.md is ready/);
    // The result is a read-only document beside the editor.
    const beside = editor.page.locator('.editor-group-container', { has: editor.page.locator('.tab.active', { hasText: /Summary of trip\.md/ }) });
    await beside.locator('.view-lines', { hasText: 'Summary: Rome in spring is lovely.' }).waitFor({ state: 'visible' });
    assert.ok(await editor.notificationAction(ready, 'Replace Selection').isVisible(), 'a selection can be replaced');
    await editor.screenshot('content-summary', { docs: true });
    await editor.notificationAction(ready, 'Insert Below').click();

    const text = await eventually((t) => assert.match(t, /sunshine\.\n\nSummary: Rome in spring is lovely\. \(15 words\)\n\n!\[\]/));
    assert.ok(text.startsWith(TRIP.slice(0, TRIP.indexOf('Rome in spring'))), 'nothing above the paragraph changed');
    assert.equal(editor.gateway?.events.list('content-request').filter((e) => e.endpoint === 'summarize').length, 1);
  });

  test('an image without alt text gets the diagnostic, and the quick fix "Generate alt text" fills it', async () => {
    await focusText();
    // The warning squiggle under the image (diagnostics are on by default).
    await editor.page.locator('.editor-group-container.active .squiggly-warning').first().waitFor({ state: 'attached', timeout: TIMEOUTS.notification });
    const fix = editor.page.locator('.action-widget .monaco-list-row', { hasText: 'Generate alt text' }).first();
    // The quick fixes arrive from the extension host when it gets to them; if the menu opened without
    // them (asked before the diagnostic moved with the inserted summary), it is asked for again (openQuickFix).
    await editor.openQuickFix(
      fix,
      async () => {
        await goToLine(IMAGE_LINE + 2); // two lines lower now: the summary paragraph was inserted above
        await editor.page.keyboard.press('End');
      },
      '"Generate alt text"',
    );
    await editor.screenshot('content-alt-quick-fix', { docs: true });
    await fix.click();

    const bytes = Buffer.byteLength(SVG);
    const text = await eventually((t) => assert.ok(t.includes(`![Local "test" image: inline image/svg+xml \\[${bytes} bytes\\]](images/fountain.svg)`), t));
    assert.ok(text.includes('# taxonomy below'));
    await editor.page.locator('.editor-group-container.active .squiggly-warning').first().waitFor({ state: 'detached', timeout: TIMEOUTS.notification });
    assert.equal(editor.gateway?.events.list('content-request').filter((e) => e.endpoint === 'altText').length, 1);
  });

  test('Suggest Categories and Tags: the picked terms land in the front matter without duplicates, the rest untouched', async () => {
    const before = onDisk();
    // No selection: the whole post minus its front matter is sent; the local gateway's answer is deterministic.
    const expected = localTaxonomy(requestText(before, undefined, true).text);
    assert.ok(expected.tags.length > 0);
    await focusText();
    await editor.page.keyboard.press('Control+Home');
    await editor.runCommand('AI Gateway: Suggest Categories and Tags');
    const rows = editor.page.locator('.quick-input-widget .monaco-list-row');
    await rows.filter({ hasText: expected.tags[0] }).first().waitFor({ state: 'visible' });
    await editor.screenshot('content-taxonomy', { docs: true });
    // Every new term starts picked: accept them.
    await editor.page.locator('.quick-input-widget .quick-input-box input').press('Enter');

    const text = await eventually((t) => assert.ok(parseDocument(findFrontMatter(t)?.body ?? '').toJS().tags.length > 0, t));
    const fm = findFrontMatter(text);
    assert.ok(fm);
    const data = parseDocument(fm.body).toJS() as { title: string; categories: string[]; tags: string[] };
    assert.equal(data.title, 'Trip to Rome');
    const lower = (xs: string[]) => xs.map((x) => x.toLowerCase());
    assert.deepEqual(data.categories, ['Travel', ...expected.categories.filter((c) => c.toLowerCase() !== 'travel')]);
    assert.deepEqual(data.tags, expected.tags);
    assert.equal(new Set(lower(data.categories)).size, data.categories.length, 'no duplicate categories');
    assert.ok(fm.body.includes('# taxonomy below\n'), 'the comment is kept');
    // The body below the front matter is unchanged.
    assert.equal(text.slice(fm.bodyEnd), before.slice(findFrontMatter(before)?.bodyEnd));
  });

  test('[G-AUTH-7] with a chat-only Restricted key, alt text fails with a 403 naming the image scope and the page is unchanged', async () => {
    await editor.addKey('chat-only', LOCAL_KEYS.userChatOnly);
    await editor.waitForNotification(/API key .*chat-only.* saved and active/);
    await editor.clearNotifications();
    // Add API Key's live check probes /v1/chat/completions (unbilled): count only what the command sends.
    const chatCalls = () => editor.gateway?.events.list('request').filter((e) => e.path === '/v1/chat/completions').length ?? 0;
    const chatCallsBefore = chatCalls();
    await editor.openFile('page.html');
    await goToLine(3);
    await editor.page.keyboard.press('End');
    await editor.page.keyboard.press('ArrowLeft');
    await editor.runCommand('AI Gateway: Generate Alt Text');
    const error = await editor.waitForNotification(/lacks the "image" scope/);
    assert.match(await error.innerText(), /write/);
    await editor.screenshot('content-alt-scope-error');
    assert.equal(readFileSync(join(editor.workspace, PAGE), 'utf8'), PAGE_TEXT);
    assert.equal(await editor.page.locator('.tab.active.dirty').count(), 0, 'the page was not edited');
    assert.equal(chatCalls() - chatCallsBefore, 0, 'a 403 does not fall back to chat');
  });
});
