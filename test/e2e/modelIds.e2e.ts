/**
 * Model ids in the code people write, in the real editor (code-server + the packaged VSIX + the local
 * gateway, whose catalog deprecates openai/gpt-4o with openai/gpt-5.1 as the alternative):
 *  1. a theme's PHP names openai/gpt-4o: the hover shows its name, rates and removal with the days left,
 *     and the warning squiggle is there;
 *  2. in a JSON config next to a `tools` key, completion inside the empty string offers only
 *     tool-calling models, with their rates;
 *  3. the quick fix "Replace … in the workspace…" shows the refactor preview with every file that names
 *     the id (not the one under a .gitignore'd folder) and Apply changes them.
 *  4. in the dark theme, the hover of the new id in the JSON file;
 *  5. in a plugin's PHP and a JSON config from test/e2e/fixtures/model-ids/: the hover of an active id
 *     and completion inside an empty string (served models, no call hint: a model without tools is offered),
 *     accepted into the file; what is typed is seen in the editor before the list is asked for.
 * The steps build on each other, in order.
 */
import { after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LOCAL_KEYS } from '../localGateway/keys';
import { type Editor, launchEditor, pollUntil, setColorTheme, TIMEOUTS, waitUntil } from './harness';
import { stepWithScreenshot } from './steps';

const PHP = 'theme/functions.php';
const JSON_FILE = 'config/ai.json';
const ENV = '.env';
const IGNORED = 'vendor/lib/client.php';
const PLUGIN = 'plugin/harbour.php';
const MODELS_JSON = 'config/models.json';
const fixture = (name: string): string => readFileSync(join(__dirname, 'fixtures', 'model-ids', name), 'utf8');
const FILES: Record<string, string> = {
  [PHP]: ["<?php", "// Ask the gateway for a short excerpt.", "function theme_excerpt( $text ) {", "\t$args = array( 'model' => 'openai/gpt-4o', 'input' => $text );", "\treturn ai_gateway_request( $args );", "}", ''].join('\n'),
  [JSON_FILE]: ['{', '  "summary": { "model": "openai/gpt-4o" },', '  "agent": { "tools": ["search"], "model": "" }', '}', ''].join('\n'),
  [ENV]: 'AI_MODEL=openai/gpt-4o\r\nOTHER=1\r\n',
  [IGNORED]: "<?php $m = 'openai/gpt-4o';\n",
  '.gitignore': 'vendor/\n',
  [PLUGIN]: fixture('plugin.php'),
  [MODELS_JSON]: fixture('models.json'),
  'README.md': '# Theme\n',
};

describe('model ids in any file', () => {
  let editor: Editor;

  const step = stepWithScreenshot('modelids', () => editor);

  const focusText = async (): Promise<void> => {
    await editor.page.locator('.editor-group-container.active .monaco-editor .view-lines').first().click({ position: { x: 5, y: 5 } });
  };

  /** Puts the cursor at line:column (1-based) with Go to Line, and waits until the status bar says so. */
  const goTo = async (line: number, column: number): Promise<void> => {
    await focusText();
    await editor.page.keyboard.press('Control+G');
    const box = editor.page.locator('.quick-input-widget .quick-input-box input');
    await box.waitFor({ state: 'visible' });
    await box.fill(`:${line}:${column}`);
    await box.press('Enter');
    await editor.page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
    await editor.page.locator('.statusbar-item', { hasText: new RegExp(`Ln ${line}, Col ${column}\\b`) }).first().waitFor({ state: 'visible' });
  };

  before(async () => {
    editor = await launchEditor({ name: 'modelids', workspaceFiles: FILES, settings: { 'workbench.colorTheme': 'Default Light Modern' } });
    await editor.addKey('work', LOCAL_KEYS.userFull);
    await editor.waitForNotification(/API key .*work.* saved and active/);
    await editor.clearNotifications();
    // The ids are judged from the cached catalog: fetch it once, as the Models view does.
    await editor.runCommand('AI Gateway: Refresh Models');
    await waitUntil(() => editor.gateway?.events.list('request').some((e) => e.path === '/v1/models'), { what: 'the catalog is fetched', timeout: TIMEOUTS.ui });
  });

  after(async () => {
    await editor?.close();
  });

  step('[#31.1] [#31.3] a deprecated id in PHP: the warning squiggle and a hover with its rates, removal date, days left and alternative', async () => {
    await editor.openFile(PHP);
    await editor.page.locator('.editor-group-container.active .squiggly-warning').first().waitFor({ state: 'attached', timeout: TIMEOUTS.notification });
    // The diagnostic's part shows first; the catalog's part (with the rates) when the provider answers.
    const hover = editor.page.locator('.monaco-hover').filter({ hasText: /Rates:/ }).first();
    // The mouse rests on the id, as a user's would.
    const id = editor.page.locator('.editor-group-container.active .view-line span span', { hasText: /openai\/gpt-4o/ }).first();
    await editor.askUntilShown(hover, () => id.hover(), () => editor.page.mouse.move(0, 0), 'the hover on openai/gpt-4o with its rates');
    const text = (await hover.innerText()).replace(/\s+/g, ' ');
    for (const part of [/removed in 45 days/, /Alternative: openai\/gpt-5\.1/, /Input: 2\.50 credits \/ 1M tokens/, /Output: 10\.00 credits \/ 1M tokens/, /Capabilities: chat, tools, vision/, /Context window: 128,000 tokens/]) assert.match(text, part);
    await editor.screenshot('modelids-hover', { docs: true, walkthrough: hover });
    await editor.page.keyboard.press('Escape');
  });

  step('[#31.2] completion inside a JSON string next to a tools key offers tool-calling models only, with rates', async () => {
    await editor.openFile(JSON_FILE);
    await goTo(3, 45);
    const rows = editor.page.locator('.suggest-widget .monaco-list-row');
    await editor.askUntilShown(
      rows.filter({ hasText: 'anthropic/claude-sonnet-4.5' }).first(),
      () => editor.page.keyboard.press('Control+Space'),
      async () => {
        await editor.page.keyboard.press('Escape');
        await goTo(3, 45);
      },
      'the model id completion',
    );
    const labels = (await rows.allInnerTexts()).join('\n');
    assert.doesNotMatch(labels, /qwen\/qwen-turbo/, 'a model without tools is not offered');
    assert.doesNotMatch(labels, /openai\/gpt-4-turbo/, 'a removed model is never offered');
    assert.match(labels, /credits \/ 1M tokens/);
    await editor.screenshot('modelids-completion', { docs: true });
    await editor.page.keyboard.press('Escape');
  });

  step('[#31.4] the quick fix "Replace … in the workspace…" previews every file naming the id (not the ignored one) and Apply replaces them', async () => {
    await editor.openFile(PHP);
    const fix = editor.page.locator('.action-widget .monaco-list-row', { hasText: /in the workspace/ }).first();
    await editor.openQuickFix(fix, () => goTo(4, 32), '"Replace … in the workspace…"');
    await editor.expectVisible(editor.page.locator('.action-widget .monaco-list-row', { hasText: 'Replace with openai/gpt-5.1' }).first(), 'the one-place fix');
    await editor.screenshot('modelids-quick-fix', { docs: true });
    await fix.click();
    // The refactor preview: a panel listing the files, applied only on Apply.
    const preview = editor.page.locator('.part.panel').filter({ hasText: 'ai.json' }).first();
    await editor.expectVisible(preview, 'the refactor preview');
    await editor.expectVisible(preview.getByText('ai.json').first(), 'the JSON file in the preview');
    await editor.expectVisible(preview.getByText('.env').first(), 'the .env file in the preview');
    assert.equal(await preview.getByText('client.php').count(), 0, 'the file under the ignored folder is not in the preview');
    assert.match(readFileSync(join(editor.workspace, ENV), 'utf8'), /openai\/gpt-4o/, 'nothing changed before Apply');
    await editor.screenshot('modelids-workspace-preview', { docs: true });
    // Every change needs confirmation: each starts unticked, and the user ticks the files to change.
    for (const file of ['.env', 'ai.json', 'functions.php']) {
      const box = preview.locator('.monaco-list-row', { hasText: file }).first().locator('.monaco-checkbox').first();
      await box.click();
      await pollUntil(() => box.getAttribute('aria-checked'), (v) => v === 'true', `${file} ticked`);
    }
    await preview.locator('.monaco-button', { hasText: /^Apply$/ }).first().click();
    await editor.runCommand('File: Save All Files');
    const php = await waitUntil(() => {
      const t = readFileSync(join(editor.workspace, PHP), 'utf8');
      return t.includes("'openai/gpt-5.1'") ? t : undefined;
    }, { what: 'functions.php is saved with the alternative', timeout: TIMEOUTS.ui });
    assert.ok(!php.includes('gpt-4o'));
    await waitUntil(() => (readFileSync(join(editor.workspace, ENV), 'utf8') === 'AI_MODEL=openai/gpt-5.1\r\nOTHER=1\r\n' ? true : undefined), { what: '.env is replaced with its CRLF kept', timeout: TIMEOUTS.ui });
    assert.match(readFileSync(join(editor.workspace, JSON_FILE), 'utf8'), /"model": "openai\/gpt-5\.1"/);
    assert.equal(readFileSync(join(editor.workspace, IGNORED), 'utf8'), FILES[IGNORED], 'the ignored file is untouched');
    await editor.page.locator('.editor-group-container.active .squiggly-warning').first().waitFor({ state: 'detached', timeout: TIMEOUTS.notification });
  });

  step('[#31.1] in the dark theme, a hover on the new id in the JSON file: an active model, its rates, no deprecation', async () => {
    await setColorTheme(editor, 'Dark Modern');
    await editor.openFile(JSON_FILE);
    const hover = editor.page.locator('.monaco-hover').filter({ hasText: /Rates:/ }).first();
    const id = editor.page.locator('.editor-group-container.active .view-line span', { hasText: /^"openai\/gpt-5\.1"$/ }).first();
    await editor.askUntilShown(hover, () => id.hover(), () => editor.page.mouse.move(0, 0), 'the hover on openai/gpt-5.1 with its rates');
    const text = (await hover.innerText()).replace(/\s+/g, ' ');
    assert.match(text, /GPT-5\.1/);
    assert.match(text, /Output: [\d.]+ credits \/ 1M tokens/);
    assert.doesNotMatch(text, /Deprecated|Removed/);
    await editor.screenshot('modelids-hover-dark', { docs: true });
  });

  /** The 1-based line and (visual, tabs of 4) column just inside the first `quotes` (an empty string) of `file`. */
  const insideEmpty = (file: string, quotes: string): [number, number] => {
    const lines = FILES[file].split('\n').map((l) => l.replace(/\t/g, '    '));
    const line = lines.findIndex((l) => l.includes(quotes));
    return [line + 1, lines[line].indexOf(quotes) + 2];
  };

  /** Hovers the first `id` in the active editor until the catalog's part (with the rates) shows; returns its text. */
  const hoverId = async (id: string): Promise<string> => {
    const hover = editor.page.locator('.monaco-hover').filter({ hasText: /Rates:/ }).first();
    const span = editor.page.locator('.editor-group-container.active .view-line span span', { hasText: id }).first();
    await editor.askUntilShown(hover, () => span.hover(), () => editor.page.mouse.move(0, 0), `the hover on ${id} with its rates`);
    return (await hover.innerText()).replace(/\s+/g, ' ');
  };

  /**
   * Completion inside the first empty `quotes` of `file`, as a user does it: type the start of the id, then
   * Ctrl+Space (in PHP the language's own suggestions, `$_COOKIE` and the like, would otherwise sort first).
   * What is typed is seen in the editor before the list is asked for, and a retry never deletes text blindly:
   * a keystroke taken by anything else brings the file back to its saved text. Returns the rows' text.
   */
  const complete = async (file: string, quotes: string, filter: string, picture?: string): Promise<string> => {
    const [line, column] = insideEmpty(file, quotes);
    const viewLine = (text: string) => editor.page.locator('.editor-group-container.active .view-line', { hasText: text }).first();
    const original = FILES[file].split('\n')[line - 1].trim();
    for (let attempt = 0; ; attempt++) {
      await goTo(line, column);
      await editor.page.keyboard.type(filter);
      if (await viewLine(`${quotes[0]}${filter}${quotes[1]}`).waitFor({ state: 'visible', timeout: TIMEOUTS.ui }).then(() => true, () => false)) break;
      if (attempt === 2) throw new Error(`typing ${filter} at ${line}:${column} did not land inside the string`);
      await editor.page.keyboard.press('Escape');
      await editor.runCommand('File: Revert File');
      await viewLine(original.slice(0, 40)).waitFor({ state: 'visible', timeout: TIMEOUTS.ui });
    }
    const rows = editor.page.locator('.suggest-widget .monaco-list-row');
    const wanted = rows.filter({ hasText: filter }).filter({ hasText: /credits \/ 1M tokens/ }).first();
    await editor.askUntilShown(wanted, () => editor.page.keyboard.press('Control+Space'), () => editor.page.keyboard.press('Escape'), `the model id completion for ${filter} at ${line}:${column}`);
    const labels = (await rows.allInnerTexts()).join('\n');
    if (picture) await editor.screenshot(picture);
    // The row is clicked, not Enter: Enter takes whichever row the fuzzy match puts first.
    await wanted.click();
    await editor.page.locator('.suggest-widget.visible').first().waitFor({ state: 'hidden', timeout: TIMEOUTS.ui }).catch(() => undefined);
    await editor.runCommand('File: Save');
    return labels;
  };

  step('[#31.1] [#31.2] a plugin\'s PHP (fixture): the hover of an active id, and completion in a string with no call hint offers a model without tools, with its rates, and writes the chosen one', async () => {
    await setColorTheme(editor, 'Light Modern');
    await editor.openFile(PLUGIN);
    const text = await hoverId('anthropic/claude-sonnet-4.5');
    assert.match(text, /Rates:/);
    assert.match(text, /Input: [\d.]+ credits \/ 1M tokens/);
    assert.doesNotMatch(text, /Deprecated|Removed/);
    await editor.screenshot('modelids-php-hover');
    await editor.page.keyboard.press('Escape');
    // qwen/qwen-turbo has no tools: offered, because nothing around this string asks for a capability.
    const labels = await complete(PLUGIN, "''", 'qwen/qwen-turbo', 'modelids-php-completion');
    assert.match(labels, /qwen\/qwen-turbo\s[^\n]*credits \/ 1M tokens/);
    await waitUntil(() => (readFileSync(join(editor.workspace, PLUGIN), 'utf8').includes("array( 'model' => 'qwen/qwen-turbo', 'input'") ? true : undefined), { what: 'the chosen id inside the PHP string, saved', timeout: TIMEOUTS.ui });
  });

  step('[#31.1] [#31.2] a JSON config (fixture): the hover of an id, and completion inside an empty "model" string writes the chosen id', async () => {
    await editor.openFile(MODELS_JSON);
    const text = await hoverId('anthropic/claude-sonnet-4.5');
    assert.match(text, /Output: [\d.]+ credits \/ 1M tokens/);
    await editor.page.keyboard.press('Escape');
    const labels = await complete(MODELS_JSON, '""', 'openai/gpt-5.1');
    assert.match(labels, /openai\/gpt-5\.1\s[^\n]*credits \/ 1M tokens/);
    await waitUntil(() => (readFileSync(join(editor.workspace, MODELS_JSON), 'utf8').includes('"titles": { "model": "openai/gpt-5.1" }') ? true : undefined), { what: 'the chosen id inside the JSON string, saved', timeout: TIMEOUTS.ui });
  });
});
