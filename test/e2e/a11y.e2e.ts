/**
 * Accessibility of every webview (#30.3): axe-core's WCAG 2.1 A/AA rules in the chat, the usage
 * dashboard, a tool form, the generated-image preview and Compare Models, in the dark, light and both
 * high-contrast themes. A serious or critical violation fails the journey; the full report is kept in
 * .e2e-artifacts/a11y-axe.json. Then, by keyboard only (keys go to whatever has the focus): a tool form
 * filled and run, the usage dashboard's window changed and its table read (every Tab stop on the way
 * visible: test/e2e/focusProbe.ts), and Alt+F1 in the chat. The chat itself by keyboard only, and axe over
 * the sidebar chat and the Read Aloud player: a11yKeyboard.e2e.ts.
 * Moving between messages and the live region are proven in plain Chromium (chat.e2e.ts, Part 1).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LOCAL_KEYS } from '../localGateway/keys';
import { ARTIFACTS_DIR, launchEditor, setColorTheme, TIMEOUTS, type Editor } from './harness';
import { axeViolations, isBlocking, type AxeViolation } from './axe';
import { keyboardFocusIsVisible } from './focusProbe';

const THEMES = ['Dark Modern', 'Light Modern', 'Dark High Contrast', 'Light High Contrast'];

describe('[#30.3] every webview passes axe-core in four themes; the chat, a tool form and the usage dashboard work by keyboard', () => {
  let editor: Editor;
  const report: Record<string, AxeViolation[]> = {};

  before(async () => {
    // The image model from the settings: no model picker on the way to the preview.
    editor = await launchEditor({ name: 'a11y', settings: { 'aiGateway.defaultModels.image': 'openai/gpt-image-1' } });
    await editor.addKey('work', LOCAL_KEYS.userFull);
    await editor.waitForStatusBarItem(/work \(User\)/);
    await editor.clearNotifications();
  });

  after(async () => {
    mkdirSync(ARTIFACTS_DIR, { recursive: true });
    writeFileSync(join(ARTIFACTS_DIR, 'a11y-axe.json'), JSON.stringify(report, null, 2));
    await editor?.close();
  });

  /** Panels opened once; each theme brings each one to the front by its tab and checks it. */
  const PANELS: Array<{ tab: string | RegExp; open: () => Promise<void>; chat?: boolean }> = [
    {
      // A chat tab carries its conversation's title: the first message.
      tab: /Show me a code block/,
      chat: true,
      open: async () => {
        await editor.runCommand('AI Gateway: Open Chat in Editor');
        const chat = await editor.chatTab();
        await chat.locator('#input').fill('Show me a code block.');
        await chat.locator('#input').press('Enter');
        await chat.getByText(/credits/).first().waitFor({ state: 'visible', timeout: TIMEOUTS.notification });
      },
    },
    {
      tab: 'AI Gateway Usage',
      open: async () => {
        await editor.runCommand('AI Gateway: Show Usage');
        const usage = await editor.webviewFrame('AI Gateway Usage');
        await usage.locator('table.totals, #gatewayNote, .note').first().waitFor({ state: 'visible', timeout: TIMEOUTS.notification });
      },
    },
    {
      tab: 'Tool: kb_search',
      open: async () => {
        await editor.showOnlySidebarView('Tools');
        const row = editor.page.getByRole('treeitem', { name: /^kb_search\b/ }).first();
        await row.waitFor({ state: 'visible', timeout: TIMEOUTS.ui });
        await row.click();
        const tool = await editor.webviewFrame('Tool: kb_search');
        await tool.getByRole('button', { name: 'Run' }).waitFor({ state: 'visible', timeout: TIMEOUTS.ui });
      },
    },
    {
      tab: 'Generated Image',
      open: async () => {
        const quick = editor.page.locator('.quick-input-widget');
        const pick = async (title: RegExp): Promise<void> => {
          await quick.locator('.quick-input-title', { hasText: title }).waitFor({ state: 'visible', timeout: TIMEOUTS.notification });
          await quick.locator('.monaco-list-row').first().waitFor({ state: 'visible', timeout: TIMEOUTS.notification });
          await quick.locator('.quick-input-box input').press('Enter');
          await quick.locator('.quick-input-title', { hasText: title }).waitFor({ state: 'hidden' });
        };
        await editor.runCommand('AI Gateway: Generate Image');
        await quick.locator('.quick-input-box input').waitFor({ state: 'visible' });
        await quick.locator('.quick-input-box input').fill('A lighthouse under a red sky');
        await quick.locator('.quick-input-box input').press('Enter');
        await pick(/Image size/);
        await pick(/Number of images/);
        // The cost is confirmed in a modal dialog first.
        const dialog = editor.page.locator('.monaco-dialog-box');
        await dialog.waitFor({ state: 'visible', timeout: TIMEOUTS.notification });
        await dialog.getByRole('button', { name: 'Send', exact: true }).click();
        const media = await editor.webviewFrame('Generated Image', { timeout: TIMEOUTS.notification });
        await media.locator('.preview img').first().waitFor({ state: 'visible', timeout: TIMEOUTS.notification });
      },
    },
    {
      tab: 'Compare Models',
      open: async () => {
        await editor.runCommand('AI Gateway: Compare Models...');
        const compare = await editor.webviewFrame('Compare Models', { timeout: TIMEOUTS.workbench });
        await compare.locator('select[data-slot="1"]').waitFor({ state: 'visible', timeout: TIMEOUTS.ui });
      },
    },
  ];

  test('[#30.3] the chat, the usage dashboard, a tool form, the image preview and Compare Models open', async () => {
    for (const p of PANELS) {
      try {
        await p.open();
      } catch (e) {
        await editor.screenshot(`a11y-failed-open-${String(p.tab).replace(/[^a-z0-9]+/gi, '-')}`);
        throw e;
      }
    }
  });

  for (const theme of THEMES) {
    test(`[#30.3] ${theme}: no serious or critical axe violation`, async () => {
      await setColorTheme(editor, theme);
      const blocking: string[] = [];
      for (const p of PANELS) {
        await editor.page.locator('.tab', { hasText: p.tab }).first().click();
        const frame = p.chat ? await editor.chatTab(p.tab as RegExp) : await editor.webviewFrame(p.tab);
        const found = await axeViolations(frame);
        report[`${theme} · ${String(p.tab)}`] = found;
        for (const v of found.filter(isBlocking)) blocking.push(`${String(p.tab)}: ${v.impact} ${v.id} (${v.help}) at ${v.nodes.join(', ')}`);
      }
      await editor.screenshot(`a11y-${theme.toLowerCase().replace(/ /g, '-')}`);
      assert.deepEqual(blocking, [], `${theme}: every webview passes`);
    });
  }

  /** What has the keyboard inside a webview: an id, or a tag with its label or text. */
  const whatHasFocus = new Function(
    'body',
    'const a = body.ownerDocument.activeElement; if (!a || a === body) return "body"; return a.id ? "#" + a.id : a.tagName + ":" + (a.getAttribute("aria-label") || a.textContent || "").trim();',
  ) as (body: unknown) => string;

  /** Presses Tab (keys go to whatever has the focus) until `want` has the keyboard in `frame`. */
  const tabTo = async (frame: Awaited<ReturnType<Editor['webviewFrame']>>, want: string): Promise<void> => {
    const seen: string[] = [];
    for (let i = 0; i < 30; i++) {
      const now = await frame.locator('body').evaluate(whatHasFocus);
      if (now === want) return;
      seen.push(now);
      await editor.page.keyboard.press('Tab');
      // Focus never lands inside a hidden element: every stop on the way is visible.
      await keyboardFocusIsVisible(editor.page, `Tab towards ${want} (${seen.join(' → ')})`, false);
    }
    throw new Error(`Tab never reached ${want}: ${seen.join(' → ')}`);
  };

  test('[#30.3] by keyboard only: fill the kb_search form and run it', async () => {
    await setColorTheme(editor, 'Dark Modern');
    await editor.runCommand('AI Gateway: Open Tool...');
    await editor.page.locator('.quick-input-widget .quick-input-box input').waitFor({ state: 'visible' });
    await editor.page.keyboard.type('kb_search');
    await editor.page.locator('.quick-input-widget .monaco-list-row', { hasText: 'kb_search' }).first().waitFor({ state: 'visible', timeout: TIMEOUTS.ui });
    await editor.page.keyboard.press('Enter');
    const tool = await editor.webviewFrame('Tool: kb_search');
    await tabTo(tool, '#f_collection_id');
    await editor.page.keyboard.type('col_docs');
    await tabTo(tool, '#f_query');
    await editor.page.keyboard.type('billing');
    await tabTo(tool, '#run');
    await editor.page.keyboard.press('Enter');
    await tool.locator('section.result', { hasText: /how billing works/ }).waitFor({ state: 'visible', timeout: TIMEOUTS.notification });
    await editor.screenshot('a11y-keyboard-tool');
  });

  test('[#30.3] by keyboard only: change the usage dashboard\'s window and read its table', async () => {
    await editor.runCommand('AI Gateway: Show Usage');
    const usage = await editor.webviewFrame('AI Gateway Usage');
    await tabTo(usage, '#preset');
    assert.equal(await usage.locator('#preset').inputValue(), 'day');
    await editor.page.keyboard.press('ArrowDown');
    assert.equal(await usage.locator('#preset').inputValue(), 'week');
    await usage.locator('#chart h2', { hasText: /Credits per 1h bucket/ }).waitFor({ state: 'visible', timeout: TIMEOUTS.notification });
    // The table reads with its caption and column headers.
    const table = usage.locator('table.totals').first();
    assert.match((await table.locator('caption').textContent()) ?? '', /Totals \(local ledger\), [\d.]+ credits in \d+ requests?/);
    assert.deepEqual(await table.locator('thead th').allTextContents(), ['Model', 'Operation', 'requests', 'credits']);
    assert.ok((await table.locator('tbody tr').count()) >= 1);
    // Each column header is one by scope, and every row has a cell under each: read row by row, each
    // cell with its column's name.
    assert.deepEqual(await table.locator('thead th').evaluateAll((ths) => ths.map((th) => (th as unknown as { getAttribute(n: string): string | null }).getAttribute('scope'))), ['col', 'col', 'col', 'col']);
    for (const cells of await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => (tr as unknown as { cells: { length: number } }).cells.length))) assert.equal(cells, 4);
    // The chart is a named picture; its figures are the table's.
    assert.equal(await usage.locator('.chart').first().getAttribute('role'), 'img');
    await editor.screenshot('a11y-keyboard-usage');
  });

  test('[#30.3] Alt+F1 in the chat shows its Accessibility Help; Escape closes it, the message box stays the chat\'s active element', async () => {
    // Open Chat brings the chat tab used last to the front, with the keyboard in its message box.
    await editor.runCommand('AI Gateway: Open Chat');
    const chat = await editor.chatTab(/Show me a code block/);
    await chat.locator('#input:focus').waitFor({ state: 'attached', timeout: TIMEOUTS.ui });
    await editor.page.keyboard.press('Alt+F1');
    const dialog = editor.page.locator('.monaco-dialog-box');
    await dialog.waitFor({ state: 'visible', timeout: TIMEOUTS.ui });
    const text = await dialog.innerText();
    assert.match(text, /AI Gateway Chat: Accessibility Help/);
    for (const key of [/Enter: Send the message/, /Shift\+Enter: Start a new line/, /Escape: Stop the reply/, /Ctrl\+Shift\+Enter: Go to a tool call waiting/, /Ctrl\+Up Arrow \(in the message box\)/]) assert.match(text, key);
    await editor.screenshot('a11y-chat-help');
    await editor.page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    // The chat page still has its message box as the active element (VS Code gives the webview the focus back).
    assert.equal(await chat.locator('body').evaluate(whatHasFocus), '#input');
  });
});
