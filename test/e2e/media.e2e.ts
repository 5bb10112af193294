/**
 * Media commands in the real editor (code-server + the packaged VSIX + the local gateway), on a
 * Markdown post, a plain text note and a WAV file:
 *  1. Generate Image: two images, the exact cost (per_image × 2) is confirmed, the preview shows both
 *     from data: URIs, and Insert into Document saves the chosen one next to the post and inserts
 *     ![alt](file) with generated alt;
 *  2. Read Selection Aloud: a player with the audio (data: URI), not playing until the user clicks;
 *  3. Transcribe Audio File on the audio file open in the active tab (the command takes it, so no
 *     file dialog): cost by size, the transcript opens as an untitled Markdown document (found by its
 *     text, not by a tab title), and Insert Transcript puts it into the post at its cursor;
 *  4. [G-AUTH-7] a key without the image scope gets the 403 naming it, and the workspace is unchanged.
 * Default models come from the settings, so no model picker appears.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LOCAL_KEYS } from '../localGateway/keys';
import { localTranscript } from '../localGateway/media';
import { launchEditor, TIMEOUTS, type Editor } from './harness';

const POST = 'posts/post.md';
const POST_TEXT = '# A walk by the sea\n\nThe waves rolled in slowly under a red sky.\n\n';
const NOTE = 'notes/note.txt';
const NOTE_TEXT = 'Good morning, and welcome to the show.\n';
// At the workspace root, so the Explorer shows it without expanding a folder.
const AUDIO = 'interview.wav';
// The transcription route takes any bytes: the local gateway derives the transcript from them.
const AUDIO_BYTES = `RIFF....WAVEfmt ${'interview-bytes '.repeat(64)}`;

describe('media commands in VS Code', () => {
  let editor: Editor;

  const onDisk = (file: string): string => readFileSync(join(editor.workspace, file), 'utf8');
  const quickInput = () => editor.page.locator('.quick-input-widget .quick-input-box input');

  const focusText = async (): Promise<void> => {
    await editor.page.locator('.editor-group-container.active .monaco-editor .view-lines').first().click({ position: { x: 5, y: 5 } });
  };

  /** Moves the cursor to `line`, until the status bar shows it there (an early Enter can be lost). */
  const goToLine = async (line: number): Promise<void> => {
    const at = editor.page.locator('.statusbar-item', { hasText: new RegExp(`Ln ${line}, Col 1\\b`) }).first();
    for (let attempt = 0; ; attempt++) {
      await focusText();
      await editor.page.keyboard.press('Control+G');
      await quickInput().waitFor({ state: 'visible' });
      await quickInput().fill(`:${line}`);
      await quickInput().press('Enter');
      await editor.page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
      try {
        await at.waitFor({ state: 'visible', timeout: 5000 });
        return;
      } catch (e) {
        if (attempt >= 3) throw new Error(`the cursor did not reach line ${line}`, { cause: e });
      }
    }
  };

  /** Selects the current line and waits until the status bar reports a selection (keys can be lost). */
  const selectCurrentLine = async (): Promise<void> => {
    const selection = editor.page.locator('.statusbar-item', { hasText: /Ln \d+, Col \d+/ }).first();
    for (let attempt = 0; attempt < 5; attempt++) {
      await editor.page.keyboard.press('Home');
      await editor.page.keyboard.press('Shift+End');
      try {
        await selection.filter({ hasText: /selected/ }).waitFor({ state: 'visible', timeout: 3000 });
        return;
      } catch {
        await focusText();
      }
    }
    throw new Error('could not select the line');
  };

  /** The modal cost confirmation: checks its text, then presses Send. */
  const confirmCost = async (cost: RegExp, screenshot?: string): Promise<void> => {
    const dialog = editor.page.locator('.monaco-dialog-box');
    await dialog.waitFor({ state: 'visible', timeout: TIMEOUTS.notification });
    assert.match(await dialog.innerText(), cost);
    if (screenshot) await editor.screenshot(screenshot);
    await dialog.getByRole('button', { name: 'Send', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
  };

  /**
   * The editor's own file dialog (a quick input with a path): optionally types a path and waits until
   * the dialog lists that file, then accepts. The dialog revalidates the typed path asynchronously and
   * can take an early Enter as "navigate", so Enter is pressed again while the dialog is still open.
   */
  const acceptFileDialog = async (path?: string): Promise<void> => {
    const widget = editor.page.locator('.quick-input-widget');
    await quickInput().waitFor({ state: 'visible', timeout: TIMEOUTS.ui });
    if (path !== undefined) {
      await quickInput().fill(path);
      const name = path.split('/').pop() ?? path;
      await widget.locator('.monaco-list-row', { hasText: name }).first().waitFor({ state: 'visible', timeout: TIMEOUTS.ui });
    }
    for (let attempt = 0; attempt < 6; attempt++) {
      await quickInput().press('Enter');
      try {
        await widget.waitFor({ state: 'hidden', timeout: 5000 });
        return;
      } catch {
        // still open: the dialog was busy validating the path
      }
    }
    throw new Error(`the file dialog did not accept ${path ?? 'its default'}`);
  };

  /** Accepts the first item of the quick pick titled `title` (the default size or voice). */
  const acceptFirstPick = async (title: RegExp): Promise<void> => {
    await editor.page.locator('.quick-input-widget .quick-input-title', { hasText: title }).waitFor({ state: 'visible', timeout: TIMEOUTS.notification });
    await editor.page.locator('.quick-input-widget .monaco-list-row').first().waitFor({ state: 'visible', timeout: TIMEOUTS.notification });
    await quickInput().press('Enter');
    // The next step may reuse the widget (another pick), so wait for this pick's title to leave.
    await editor.page.locator('.quick-input-widget .quick-input-title', { hasText: title }).waitFor({ state: 'hidden' });
  };

  /** Picks the item labelled `label` in the quick pick titled `title`. */
  const pickFrom = async (title: RegExp, label: string): Promise<void> => {
    const widget = editor.page.locator('.quick-input-widget');
    await widget.locator('.quick-input-title', { hasText: title }).waitFor({ state: 'visible', timeout: TIMEOUTS.notification });
    const row = widget.locator('.monaco-list-row').filter({ has: editor.page.locator('.label-name', { hasText: new RegExp(`^${label}$`) }) }).first();
    await row.waitFor({ state: 'visible', timeout: TIMEOUTS.notification });
    await row.click();
    await widget.locator('.quick-input-title', { hasText: title }).waitFor({ state: 'hidden' });
  };

  before(async () => {
    editor = await launchEditor({
      name: 'media',
      workspaceFiles: { [POST]: POST_TEXT, [NOTE]: NOTE_TEXT, [AUDIO]: AUDIO_BYTES },
      settings: {
        'aiGateway.defaultModels.image': 'openai/gpt-image-1',
        'aiGateway.defaultModels.speech': 'openai/tts-1-hd',
        'aiGateway.defaultModels.transcription': 'openai/whisper-1',
        'aiGateway.defaultModels.altText': '',
        // These journeys check what is written; the diff preview has its own journey (diffs.e2e.ts).
        'aiGateway.content.previewChanges': false,
      },
    });
    await editor.addKey('work', LOCAL_KEYS.userFull);
    await editor.waitForNotification(/API key .*work.* saved and active/);
    await editor.clearNotifications();
  });

  after(async () => {
    await editor?.close();
  });

  test('Generate Image: two images at the exact cost, both previewed, and Insert into Document saves the chosen PNG and inserts it with alt text', async () => {
    await editor.openFile('post.md');
    await goToLine(3);
    await selectCurrentLine();
    await editor.runCommand('AI Gateway: Generate Image');
    // The prompt is prefilled from the selection.
    await quickInput().waitFor({ state: 'visible' });
    assert.equal(await quickInput().inputValue(), 'The waves rolled in slowly under a red sky.');
    await quickInput().press('Enter');
    await acceptFirstPick(/Image size/); // the schema lists three, the default first
    await pickFrom(/Number of images/, '2 images');
    await confirmCost(/2 images × 0\.042 credits per image = 0\.084 credits/);

    const frame = await editor.webviewFrame('Generated Image', { timeout: TIMEOUTS.notification });
    const imgs = frame.locator('.preview img');
    await imgs.nth(1).waitFor({ state: 'visible', timeout: TIMEOUTS.notification });
    assert.equal(await imgs.count(), 2, 'the preview shows every image');
    const sources = await Promise.all([0, 1].map(async (i) => (await imgs.nth(i).getAttribute('src')) ?? ''));
    for (const src of sources) assert.match(src, /^data:image\/png;base64,/);
    assert.notEqual(sources[0], sources[1], 'two different images');
    assert.equal(readdirSync(join(editor.workspace, 'posts')).length, 1, 'nothing is written before Save or Insert');
    // Choose the second: Insert acts on it.
    await frame.locator('button.pick[title="Choose image 2"]').click();
    await frame.locator('button.pick[title="Choose image 2"][aria-pressed="true"]').waitFor({ state: 'visible' });
    assert.equal(await frame.locator('button.pick[aria-pressed="true"]').count(), 1, 'one image is chosen');
    await editor.screenshot('media-image-preview', { docs: true });

    await frame.getByRole('button', { name: 'Insert into post.md' }).click();
    await acceptFileDialog(); // the default: next to the post, named from the prompt
    // The panel closes once the markup is in; then the post is saved and read back.
    await editor.page.locator('.tab', { hasText: 'Generated Image' }).waitFor({ state: 'detached', timeout: TIMEOUTS.notification });
    await editor.openFile('post.md');
    // The insertion reaches the document when the extension host gets to it: saved and read back until the
    // image's markup is on disk.
    // The alt text may hold escaped brackets (\]), so the alt is matched up to the last "](".
    const image = /!\[(.+)\]\(([a-z0-9-]+\.png)\)/;
    const text = await editor.savedText(POST, (t) => image.test(t), 'the inserted image markup in the saved post');
    const m = image.exec(text);
    assert.ok(m, text);
    assert.equal(m[2], 'the-waves-rolled-in-slowly-under-a-red-sky.png');
    assert.ok(existsSync(join(editor.workspace, 'posts', m[2])), 'the image was saved next to the post');
    const saved = readFileSync(join(editor.workspace, 'posts', m[2]));
    assert.deepEqual([...saved.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47]);
    assert.equal(saved.toString('base64'), sources[1].slice('data:image/png;base64,'.length), 'the chosen (second) image was saved');
    assert.ok(!readdirSync(join(editor.workspace, 'posts')).some((n) => n.endsWith('.partial')), 'no temporary file left');
    assert.equal(editor.gateway?.events.list('request').filter((e) => e.path === '/v1/images/generations').length, 1);
  });

  test('Read Selection Aloud: the exact cost first, then a player that waits for Play', async () => {
    await editor.openFile('note.txt');
    await goToLine(1);
    await selectCurrentLine();
    await editor.runCommand('AI Gateway: Read Selection Aloud');
    await acceptFirstPick(/Voice/); // the schema lists six
    const characters = NOTE_TEXT.trim().length;
    await confirmCost(new RegExp(`${characters} characters × 30\\.000 credits per 1,000,000 characters`));
    const frame = await editor.webviewFrame('Read Aloud', { timeout: TIMEOUTS.notification });
    const audio = frame.locator('audio#player');
    await audio.waitFor({ state: 'attached', timeout: TIMEOUTS.notification });
    // The page's own types are not in this (Node) project: read the element's state untyped.
    type Player = { src: string; paused: boolean; autoplay: boolean };
    const state = await audio.evaluate((a) => ({ src: (a as unknown as Player).src, paused: (a as unknown as Player).paused, autoplay: (a as unknown as Player).autoplay }));
    assert.match(state.src, /^data:audio\//);
    assert.equal(state.paused && !state.autoplay, true, 'nothing plays before the user clicks Play');
    await frame.getByRole('button', { name: 'Save Audio…' }).waitFor({ state: 'visible' });
    await editor.screenshot('media-read-aloud', { docs: true });
    assert.equal(onDisk(NOTE), NOTE_TEXT);
  });

  test('Transcribe Audio File on the open audio file: cost by size first, a Markdown transcript, inserted into the last active document', async () => {
    // A clean editor area (the player of the previous journey closed); then the post is the last
    // active document, its cursor at the end.
    await editor.runCommand('View: Close All Editor Groups');
    await editor.page.locator('.tab').first().waitFor({ state: 'detached', timeout: TIMEOUTS.ui });
    await editor.openFile('post.md');
    await focusText();
    await editor.page.keyboard.press('Control+End');
    const postBefore = onDisk(POST);
    // The audio file open in the active tab is the one transcribed: no file dialog.
    await editor.openFile(AUDIO);
    await editor.runCommand('AI Gateway: Transcribe Audio File');
    // 1,040 bytes × 0.0061 / 1,000,000 = 0.000006344 credits (worked out by hand).
    assert.equal(Buffer.byteLength(AUDIO_BYTES), 1040);
    await confirmCost(/1,040 bytes × 0\.0061 credits per MB \(1,000,000 bytes\) = 0\.000006344 credits/);
    // The local gateway's transcript of these bytes (it derives the words from the file's hash).
    const expected = localTranscript(AUDIO, Buffer.from(AUDIO_BYTES));
    const transcriptView = editor.page.locator('.editor-group-container.active .monaco-editor .view-lines', { hasText: expected }).first();
    await editor.expectVisible(transcriptView, 'the transcript in a new editor', { timeout: TIMEOUTS.notification });
    await editor.page.locator('.statusbar-item').filter({ hasText: /^Markdown$/ }).first().waitFor({ state: 'visible' });
    await editor.screenshot('media-transcript', { docs: true });
    assert.equal(onDisk(POST), postBefore, 'nothing is inserted before the user asks');

    await editor.runCommand('AI Gateway: Insert Transcript into Last Document');
    const postView = editor.page.locator('.editor-group-container.active .monaco-editor .view-lines', { hasText: 'A walk by the sea' }).filter({ hasText: expected }).first();
    await editor.expectVisible(postView, 'the post with the transcript inserted');
    const text = await editor.savedText(POST, (t) => t.includes(expected), 'the transcript in the saved post');
    assert.ok(text.startsWith(postBefore), 'inserted at the end, where the cursor was');
    assert.equal(editor.gateway?.events.list('request').filter((e) => e.path === '/v1/audio/transcriptions').length, 1);
  });

  test('[G-AUTH-7] Generate Image with a chat-only key: the 403 names the image scope, and nothing is written', async () => {
    await editor.addKey('chat-only', LOCAL_KEYS.userChatOnly);
    await editor.waitForNotification(/API key .*chat-only.* saved and active/);
    await editor.clearNotifications();
    const before = readdirSync(join(editor.workspace, 'posts')).sort();
    const post = onDisk(POST);
    await editor.runCommand('AI Gateway: Generate Image');
    await quickInput().waitFor({ state: 'visible' });
    await quickInput().fill('A lighthouse at dusk');
    await quickInput().press('Enter');
    await acceptFirstPick(/Image size/);
    await acceptFirstPick(/Number of images/);
    await confirmCost(/1 image × 0\.042 credits per image = 0\.042 credits/);
    const error = await editor.waitForNotification(/lacks the "image" scope/);
    assert.match(await error.innerText(), /write/);
    assert.deepEqual(readdirSync(join(editor.workspace, 'posts')).sort(), before);
    assert.equal(onDisk(POST), post);
  });
});
