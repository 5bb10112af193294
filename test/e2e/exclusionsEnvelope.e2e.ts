/**
 * Edit Cache Exclusions against a hosting API whose read envelope is not the one the extension assumes
 * (#39.6): the local gateway is armed through its control endpoint (`POST /__control/modes`) to answer
 * the read as `{data:[...]}` and then as one page of several. The user gets a clear message with the raw
 * answer (read-only), no editable list opens, and the gateway's event log shows that no PUT arrived.
 * With the assumed envelope, a save that removes an entry names it before anything is sent.
 */
import { after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import { HOSTING_IDS, HOSTING_USERS } from '../localGateway/hosting';
import { startGateway, type RunningGateway } from '../localGateway/server';
import { launchEditor, TIMEOUTS, type Editor } from './harness';
import { sandboxAddresses } from './sandbox';
import { stepWithScreenshot } from './steps';

describe('Edit Cache Exclusions fails closed on a read envelope it does not know', () => {
  let gateway: RunningGateway;
  let editor: Editor;
  const step = stepWithScreenshot('exclusions-envelope', () => editor);
  const quickInput = () => editor.page.locator('.quick-input-widget');
  const control = async (path: string, body?: unknown): Promise<unknown> => {
    const res = await fetch(`${gateway.url}${path}`, body === undefined ? {} : { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    assert.equal(res.status, 200, `${path}: ${await res.clone().text()}`);
    return res.json();
  };
  /** The PUTs on cache exclusions the gateway received, from its control endpoint. */
  const puts = async (): Promise<number> => {
    const { events } = (await control('/__control/events?type=request')) as { events: Array<{ method: string; path: string }> };
    return events.filter((e) => e.method === 'PUT' && e.path.includes('/cache_exclusions')).length;
  };
  const openExclusions = async (): Promise<void> => {
    await editor.runCommand('AI Gateway: Edit Cache Exclusions');
    await editor.expectVisible(quickInput().locator('.quick-input-title').filter({ hasText: /Edit cache exclusions: install/ }), 'the install pick list', { timeout: TIMEOUTS.workbench });
    await quickInput().locator('.quick-input-box input').fill(HOSTING_IDS.installNormal);
    const row = quickInput().locator('.monaco-list-row').filter({ hasText: new RegExp(`the id you pasted or typed|${HOSTING_IDS.installNormal}`) }).first();
    await editor.expectVisible(row, 'the install id row');
    await row.click();
  };
  const exclusionsTab = () => editor.page.locator('.tab', { hasText: 'cache-exclusions.jsonc' });

  before(async () => {
    gateway = await startGateway({});
    editor = await launchEditor({ name: 'exclusions-envelope', gatewayUrl: gateway.url, settings: { ...sandboxAddresses(gateway.url), 'files.autoSave': 'off' } });
  });
  after(async () => {
    await editor?.close();
    await gateway?.close();
  });

  step('hosting credentials are set', async () => {
    await editor.runCommand('AI Gateway: Set Hosting API Credentials...');
    await editor.fillInputBox('owner', { title: /Hosting API credentials: username \(1\/2\)/ });
    await editor.fillInputBox(HOSTING_USERS.owner.password, { title: /Hosting API credentials: password or API token \(2\/2\)/ });
    await editor.waitForNotification(/Hosting API credentials saved for owner/);
    await editor.clearNotifications();
  });

  step('[#39.6] a read in another envelope ({data:[...]}) gives a clear message and the raw answer; no list to edit, no PUT', async () => {
    await control('/__control/modes', { exclusionsRead: 'data' });
    await openExclusions();
    const message = await editor.waitForNotification(/does not recognise/);
    assert.match(await message.innerText(), /no save can replace the list/);
    assert.equal(await exclusionsTab().count(), 0, 'no editable exclusions document opened');
    await editor.notificationAction(message, 'Show Raw Answer').click();
    const lines = editor.page.locator('.editor-group-container.active .view-lines');
    await editor.expectVisible(lines.filter({ hasText: '"data"' }), 'the raw answer');
    await editor.expectVisible(lines.filter({ hasText: '^/cart' }), 'the entries as the server sent them');
    assert.ok(!(await lines.innerText()).includes(HOSTING_USERS.owner.password), 'no secret in the raw answer');
    await editor.screenshot('exclusions-envelope-raw');
    assert.equal(await exclusionsTab().count(), 0, 'still no exclusions document');
    assert.match((await editor.page.locator('.tab.active').innerText()) ?? '', /cache-exclusions-answer-1\s*\.json/, 'a document of its own, not an install\'s list');
    assert.equal(await puts(), 0, 'no PUT reached the hosting API');
    await editor.clearNotifications();
  });

  step('[#39.6] a paged read (one page and a next cursor) is refused as paged; no PUT', async () => {
    await control('/__control/modes', { exclusionsRead: 'paged' });
    await openExclusions();
    const message = await editor.waitForNotification(/looks paged/);
    assert.match(await message.innerText(), /next_cursor/);
    assert.equal(await exclusionsTab().count(), 0, 'no editable exclusions document opened');
    assert.equal(await puts(), 0, 'no PUT reached the hosting API');
    await editor.clearNotifications();
  });

  step('[#39.6] with the assumed envelope, a save that removes an entry names it first; Don\'t Save sends nothing', async () => {
    await control('/__control/modes', { exclusionsRead: 'results' });
    await openExclusions();
    await editor.expectVisible(editor.page.locator('.tab.active', { hasText: 'cache-exclusions.jsonc' }), 'the exclusions document');
    const lines = editor.page.locator('.editor-group-container.active .view-lines');
    await editor.expectVisible(lines.filter({ hasText: '^utm_' }), 'the server list');
    // Delete the line of ^utm_ (Ctrl+Shift+K after finding it).
    await editor.runCommand('View: Focus Active Editor Group');
    await editor.page.keyboard.press('Control+F');
    const find = editor.page.locator('.editor-group-container.active .find-widget textarea[aria-label="Find"]');
    await editor.expectVisible(find, 'the find box');
    await find.fill('^utm_');
    await find.press('Enter');
    await find.press('Escape');
    await editor.page.keyboard.press('Control+Shift+K');
    await editor.expectVisible(lines.filter({ hasText: '^/cart' }), 'the entry kept');
    await editor.runCommand('File: Save');
    const dialog = editor.page.locator('.monaco-dialog-box').filter({ hasText: /This save removes 1 cache exclusion/ }).first();
    await editor.expectVisible(dialog, 'the removal confirmation');
    assert.match(await dialog.innerText(), /query arg: \^utm_/);
    await editor.screenshot('exclusions-envelope-removal');
    await dialog.locator('.monaco-button', { hasText: /^Don't Save$/ }).click();
    await dialog.waitFor({ state: 'detached', timeout: TIMEOUTS.ui });
    assert.equal(await puts(), 0, 'nothing was sent');
  });
});
