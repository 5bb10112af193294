/**
 * "AI Gateway: Check Gateway Compatibility" in the real editor against the local gateway (issue 39,
 * item 15). The steps build on each other:
 *  1. From the palette: the one billed request is offered with its cost, and the keyboard is on
 *     "Don't Send" (Enter sends nothing); the report opens as a read-only Markdown document, every
 *     checked assumption held, the rest "not checked" with the reason.
 *  2. With the gateway leaving pricing_version out of the catalog (a shape mode), the same command
 *     reports that assumption as not held, with what the extension does about it.
 * Waits on conditions only.
 */
import { after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import type { Model } from '../localGateway/wire';
import { LOCAL_KEYS } from '../localGateway/keys';
import { type Editor, launchEditor, TIMEOUTS } from './harness';
import { stepWithScreenshot } from './steps';

const FREE_MESSAGES_MODEL = {
  id: 'local/free-messages',
  object: 'model',
  owned_by: 'Local',
  provider: 'anthropic',
  display_name: 'Free messages model',
  capabilities: ['messages'],
  pricing: { input_per_million: '0', output_per_million: '0', pricing_version: '2025-11-01', unit: 'credits' },
} as Model;

describe('[#39.15] check gateway compatibility', () => {
  let editor: Editor;
  const step = stepWithScreenshot('compat', () => editor);

  before(async () => {
    editor = await launchEditor({ name: 'compat' });
    await editor.addKey('work', LOCAL_KEYS.userFull);
    await editor.waitForNotification(/API key .*work.* saved and active/);
    await editor.clearNotifications();
  });

  after(async () => {
    await editor?.close();
  });

  const reportLines = () => editor.page.locator('.monaco-editor .view-lines');
  /** The editor draws spaces as no-break spaces: a pattern for `text` with any white space between words. */
  const words = (text: string): RegExp => new RegExp(text.split(' ').map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\s+'));

  step('[#39.15] from the palette: the billed request is not the default, and the report shows each assumption held or not checked', async () => {
    await editor.runCommand('AI Gateway: Check Gateway Compatibility');
    const dialog = editor.page.locator('.monaco-dialog-box');
    await dialog.waitFor({ state: 'visible', timeout: TIMEOUTS.workbench });
    assert.match(await dialog.innerText(), /tiny billed request[\s\S]*credits/);
    const focused = (await editor.page.evaluate('document.activeElement ? document.activeElement.textContent.trim() : ""')) as string;
    assert.equal(focused, "Don't Send", 'the keyboard is on the safe button');
    await editor.screenshot('compat-billed-question');
    await editor.page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'hidden', timeout: TIMEOUTS.ui });
    await editor.waitForNotification(/Gateway compatibility: \d+ held, 0 not held, 4 not checked, 0 without a usable answer/, { timeout: TIMEOUTS.workbench });
    await editor.expectVisible(editor.page.locator('.tab', { hasText: 'Gateway Compatibility Report.md' }), 'the report tab');
    await editor.expectVisible(reportLines().filter({ hasText: 'AI Gateway compatibility report' }), 'the report heading');
    await editor.expectVisible(reportLines().filter({ hasText: words('Held: The catalog is an object') }), 'the catalog envelope held');
    await editor.expectVisible(editor.page.locator('.editor-actions [aria-label="Copy Compatibility Report"]'), 'Copy Report in the editor title');
    assert.equal(editor.gateway?.events.list('request').filter((e) => e.path === '/v1/messages').length, 0, 'declining sent no billed request');
    assert.equal(editor.gateway?.events.list('request').filter((e) => e.method === 'PUT' || e.method === 'DELETE').length, 0, 'nothing but reads');
    await editor.screenshot('compat-report', { docs: true });
  });

  step('[#39.15] with the gateway leaving pricing_version out of the catalog, that assumption is reported as not held', async () => {
    await editor.clearNotifications();
    editor.gateway?.configure({ extraModels: [FREE_MESSAGES_MODEL] });
    editor.gateway?.shapes.arm('catalog_no_pricing_version');
    await editor.runCommand('AI Gateway: Check Gateway Compatibility');
    await editor.waitForNotification(/Gateway compatibility: \d+ held, 1 not held, 2 not checked/, { timeout: TIMEOUTS.workbench });
    await editor.expectVisible(reportLines().filter({ hasText: words('Every pricing object carries pricing_version and unit "credits". | Not held |') }), 'the pricing assumption not held, at a glance');
    // Its section is further down: Find scrolls it into view, as a reader would.
    await reportLines().click();
    await editor.page.keyboard.press('Control+f');
    await editor.page.keyboard.type('Not held: Every pricing object');
    await editor.page.keyboard.press('Enter');
    await editor.page.keyboard.press('Escape');
    await editor.expectVisible(reportLines().filter({ hasText: words('Not held: Every pricing object carries pricing_version') }), 'the pricing assumption not held');
    await editor.expectVisible(reportLines().filter({ hasText: words('What the extension does: Repricing cannot be noticed') }), 'what the extension does');
    assert.equal(editor.gateway?.events.list('request').filter((e) => e.path === '/v1/messages').length, 1, 'the zero-cost model was checked without a question');
    await editor.screenshot('compat-not-held', { docs: true });
  });
});
