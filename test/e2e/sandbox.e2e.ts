/**
 * The first hour in the `npm start` sandbox, following the README and the start output exactly (#29.1,
 * #29.2): the sandbox's settings (test/e2e/sandbox.ts sandboxAddresses: the local gateway and its hosting
 * API) and sample workspace (the post and its picture); Add API Key (a revoked key is refused first,
 * #29.9); every feature the sample post names (alt text on the picture, summary, tags, Open Chat, Add
 * Selection to Chat by its key); the hosting commands with the printed sign-in and ids (credentials
 * after the address check, Edit Cache Exclusions with an invalid pattern marked on its line (#29.10),
 * ids picked again, Transfer Site and Cancel Site Transfer); the empty Knowledge and Agents views'
 * welcome (#29.12). Screenshots in Dark Modern and Light Modern.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HOSTING_IDS, HOSTING_NAMES, HOSTING_USERS } from '../localGateway/hosting';
import { LOCAL_KEYS } from '../localGateway/keys';
import { startGateway, type RunningGateway } from '../localGateway/server';
import { launchEditor, setColorTheme, TIMEOUTS, waitUntil, type Editor } from './harness';
import { sampleImage, SAMPLE_POST, SAMPLE_POST_PATH, sandboxAddresses } from './sandbox';

describe('the npm start sandbox, following the README', () => {
  let gateway: RunningGateway;
  let editor: Editor;
  const onDisk = (): string => readFileSync(join(editor.workspace, SAMPLE_POST_PATH), 'utf8');
  const quickInput = () => editor.page.locator('.quick-input-widget');
  const quickBox = () => quickInput().locator('.quick-input-box input');

  const focusText = async (): Promise<void> => {
    await editor.page.locator('.editor-group-container.active .monaco-editor .view-lines').first().click({ position: { x: 5, y: 5 } });
  };
  const goToLine = async (line: number): Promise<void> => {
    await focusText();
    await editor.page.keyboard.press('Control+G');
    await quickBox().waitFor({ state: 'visible' });
    await quickBox().fill(`:${line}`);
    await quickBox().press('Enter');
    await quickInput().waitFor({ state: 'hidden' });
    await editor.page.locator('.statusbar-item', { hasText: new RegExp(`Ln ${line}, Col`) }).first().waitFor({ state: 'visible' });
  };
  /** Changes to the post open as a diff first (#29.5): accept it from its notification, as a user would. */
  const acceptReview = async (): Promise<void> => {
    const review = await editor.waitForNotification(/Review the proposed change to hello\.md/);
    await editor.notificationAction(review, 'Accept').click();
    await editor.expectVisible(editor.page.locator('.tab.active', { hasText: /^\s*hello\.md/ }), 'the post again, the diff closed');
  };

  /** The post once its edit is saved and `check` passes (the extension host applies its edit when it gets to it). */
  const eventually = (check: (text: string) => boolean): Promise<string> => editor.savedText(SAMPLE_POST_PATH, check, 'the edit');
  /** Waits for a quick input whose title matches, then pastes `text` into its box and takes the row matching `row`. */
  const pasteAndPick = async (title: RegExp, text: string, row: RegExp): Promise<void> => {
    await editor.expectVisible(quickInput().locator('.quick-input-title').filter({ hasText: title }), `the pick list ${String(title)}`, { timeout: TIMEOUTS.workbench });
    await quickBox().fill(text);
    const r = quickInput().locator('.monaco-list-row').filter({ hasText: row }).first();
    await editor.expectVisible(r, `the row ${String(row)}`);
    await r.click();
  };
  /** Edit: Replace All of `find` (plain text) by `replace` in the active editor, through the find widget. */
  const replaceAll = async (find: string, replace: string): Promise<void> => {
    const widget = editor.page.locator('.editor-group-container.active .find-widget');
    // Through the palette, not a click: the Problems panel or a toast may lie over the text.
    await editor.runCommand('View: Focus Active Editor Group');
    await editor.page.keyboard.press('Control+H');
    const findBox = widget.locator('textarea[aria-label="Find"]');
    const replaceBox = widget.locator('textarea[aria-label="Replace"]');
    await editor.expectVisible(replaceBox, 'the replace box');
    await findBox.fill(find);
    await replaceBox.fill(replace);
    await editor.expectVisible(widget.locator('.matchesCount', { hasText: /^1 of 1$/ }), `one match of ${find}`);
    await replaceBox.press('Control+Alt+Enter');
    await editor.expectVisible(widget.locator('.matchesCount', { hasText: /No results/ }), `${find} replaced`);
    await replaceBox.press('Escape');
  };
  const lineOf = (text: string, needle: string): number => text.split('\n').findIndex((l) => l.includes(needle)) + 1;

  before(async () => {
    gateway = await startGateway({});
    // Exactly what npm start writes: the gateway and its hosting API; the sample workspace is the default.
    editor = await launchEditor({ name: 'sandbox', gatewayUrl: gateway.url, settings: sandboxAddresses(gateway.url) });
  });

  after(async () => {
    await editor?.close();
    await gateway?.close();
  });

  test('[#29.9] Add API Key refuses the revoked local key: nothing is saved and no key is active', async () => {
    await editor.addKey('old', LOCAL_KEYS.revoked);
    const refused = await editor.waitForNotification(/"old" was not saved: the gateway refused it \(401\), so it is invalid or has been revoked/);
    assert.doesNotMatch(await refused.innerText(), /svc_pat_/, 'the secret is never shown');
    await editor.page.locator('.notifications-toasts .notification-toast', { hasText: 'Checking API key' }).waitFor({ state: 'hidden', timeout: TIMEOUTS.notification });
    await editor.screenshot('sandbox-add-key-revoked', { docs: true });
    assert.match(await editor.statusBarText(), /Set API Key/);
    assert.doesNotMatch(await editor.statusBarText(), /old \(User\)/);
    await editor.clearNotifications();
  });

  test('[#29.1] README step 1: the printed key is checked with the gateway, saved and active', async () => {
    await editor.addKey('local', LOCAL_KEYS.userFull);
    await editor.waitForNotification(/API key "local" checked \(valid for chat\), saved and active/);
    await editor.waitForStatusBarItem(/local \(User\)/);
    await editor.clearNotifications();
  });

  test('[#29.1] the sample post: the picture below gets its alt text from the quick fix, first try', async () => {
    await editor.openFile(SAMPLE_POST_PATH);
    await editor.page.locator('.editor-group-container.active .squiggly-warning').first().waitFor({ state: 'attached', timeout: TIMEOUTS.notification });
    const imageLine = lineOf(SAMPLE_POST, '![](images/sunset.jpg)');
    const fix = editor.page.locator('.action-widget .monaco-list-row', { hasText: 'Generate alt text' }).first();
    await editor.openQuickFix(
      fix,
      async () => {
        await goToLine(imageLine);
        await editor.page.keyboard.press('End');
      },
      '"Generate alt text"',
    );
    await editor.screenshot('sandbox-alt-quick-fix', { docs: true });
    await fix.click();
    await acceptReview();
    const bytes = sampleImage().length;
    const text = await eventually((t) => t.includes(`![Local "test" image: inline image/jpeg \\[${bytes} bytes\\]](images/sunset.jpg)`));
    assert.ok(text.startsWith('---\ntitle: Hello from the AI Gateway sandbox'));
    assert.equal(gateway.events.list('content-request').filter((e) => e.endpoint === 'altText').length, 1, 'one request, no failure before it');
  });

  test('[#29.1] the sample post: AI Gateway: Summarise Selection or Document', async () => {
    await focusText();
    await editor.page.keyboard.press('Control+Home');
    await editor.runCommand('AI Gateway: Summarise Selection or Document');
    const ready = await editor.waitForNotification(/Summary of .*hello\.md is ready/);
    await editor.expectVisible(editor.page.locator('.tab', { hasText: /Summary of hello\.md/ }).first(), 'the summary beside the post');
    assert.ok(await editor.notificationAction(ready, 'Insert Below').isVisible());
    await editor.clearNotifications();
    await editor.openFile(SAMPLE_POST_PATH);
  });

  test('[#29.1] the sample post: AI Gateway: Suggest Categories and Tags fills the front matter\'s tags', async () => {
    await focusText();
    await editor.page.keyboard.press('Control+Home');
    await editor.runCommand('AI Gateway: Suggest Categories and Tags');
    await editor.expectVisible(quickInput().locator('.monaco-list-row').first(), 'the suggested terms');
    await quickBox().press('Enter');
    await quickInput().waitFor({ state: 'hidden' });
    await acceptReview();
    await editor.screenshot('sandbox-tags-accepted');
    const text = await eventually((t) => /^tags:\n\s+- /m.test(t) || /^tags: \[.+\]/m.test(t));
    assert.match(text, /^title: Hello from the AI Gateway sandbox$/m, 'the rest of the front matter is kept');
  });

  test('[#29.1] [#29.11] the sample post: Add Selection to Chat by its key (Ctrl+Shift+Alt+A), then AI Gateway: Open Chat and send', async () => {
    await goToLine(lineOf(onDisk(), 'The gateway streams chat replies'));
    await editor.page.keyboard.press('Home');
    await editor.page.keyboard.press('Shift+End');
    await editor.page.locator('.statusbar-item', { hasText: /\(\d+ selected\)/ }).first().waitFor({ state: 'visible' });
    await editor.page.keyboard.press('Control+Shift+Alt+A');
    const chat = await editor.webviewFrame(/^Chat/, { timeout: TIMEOUTS.workbench });
    await editor.expectVisible(chat.locator('#chips .chip', { hasText: /hello\.md:\d+-\d+/ }), 'the selection as a chip in the chat');
    await editor.runCommand('AI Gateway: Open Chat');
    const model = chat.locator('#model');
    await model.waitFor({ state: 'visible' });
    await model.click();
    await quickBox().waitFor({ state: 'visible', timeout: TIMEOUTS.ui });
    await quickBox().fill('GPT-5 mini');
    await editor.pickQuickPickItem(/GPT-5 mini/);
    const input = chat.locator('#input');
    await input.fill('What is this sentence about?');
    await input.press('Enter');
    await editor.expectVisible(chat.getByText(/deterministic reply from/i).first(), 'the streamed reply', { timeout: TIMEOUTS.notification });
    await editor.expectVisible(chat.getByText(/credits/).first(), 'the cost of the reply', { timeout: TIMEOUTS.notification });
    await editor.screenshot('sandbox-chat-selection');
  });

  test('[#29.2] hosting: the printed sign-in is asked for after the address check, and saved', async () => {
    const before = gateway.events.list('request').length;
    await editor.runCommand('AI Gateway: Set Hosting API Credentials...');
    await editor.fillInputBox('owner', { title: /Hosting API credentials: username \(1\/2\)/ });
    await editor.fillInputBox(HOSTING_USERS.owner.password, { title: /Hosting API credentials: password or API token \(2\/2\)/ });
    await editor.waitForNotification(/Hosting API credentials saved for owner/);
    const probe = gateway.events
      .list('request')
      .slice(before)
      .find((e) => String(e.path).startsWith('/hosting/v1/installs/'));
    assert.ok(probe, 'the address was checked against the hosting API');
    assert.deepEqual([probe.status, probe.authorization], [401, 'none'], 'without any credential');
    await editor.clearNotifications();
  });

  test('[#29.2] [#29.10] Edit Cache Exclusions: the printed install id is pasted; an invalid pattern is marked on its line, a good one saved', async () => {
    await editor.runCommand('AI Gateway: Edit Cache Exclusions');
    await pasteAndPick(/Edit cache exclusions: install/, HOSTING_IDS.installNormal, /the id you pasted or typed/);
    const tab = editor.page.locator('.tab.active', { hasText: 'cache-exclusions.jsonc' });
    await editor.expectVisible(tab, 'the exclusions document');
    const lines = editor.page.locator('.editor-group-container.active .view-lines');
    await editor.expectVisible(lines.filter({ hasText: '^/cart' }), 'the server list');
    // "^/cart" becomes "*", which is not a regular expression.
    await replaceAll('^/cart', '*');
    const squiggle = editor.page.locator('.editor-group-container.active .squiggly-error').first();
    await squiggle.waitFor({ state: 'attached', timeout: TIMEOUTS.notification });
    await editor.page.keyboard.press('Control+S');
    const refused = await editor.waitForNotification(/Cache exclusions not saved: Exclusion 1: '\*' is not a valid regular expression/);
    assert.match(await refused.innerText(), /Nothing was sent/);
    // The Problems panel names the reason on the entry's line.
    await editor.runCommand('View: Focus Problems (Errors, Warnings, Infos)');
    const problem = editor.page.locator('.markers-panel .monaco-list-row', { hasText: /is not a valid regular expression/ }).first();
    await editor.expectVisible(problem, 'the problem in the Problems panel');
    assert.match(await problem.innerText(), /\[Ln \d+, Col \d+\]/);
    await editor.screenshot('sandbox-exclusion-invalid', { docs: true });
    assert.equal(gateway.events.list('request').filter((e) => e.method === 'PUT').length, 0, 'nothing was sent');
    // Fixed: the same entry gets a real pattern, and the save goes through.
    await editor.clearNotifications();
    await replaceAll('"*"', '"^/basket"');
    await editor.runCommand('File: Save');
    // The save removes ^/cart from the server: it says so before sending (#39.6), Don't Save first.
    const removal = editor.page.locator('.monaco-dialog-box').filter({ hasText: /This save removes 1 cache exclusion/ }).first();
    await editor.expectVisible(removal, 'the removal confirmation');
    assert.match(await removal.innerText(), /url path: \^\/cart/);
    await removal.locator('.monaco-button', { hasText: /^Save and Remove$/ }).click();
    await editor.waitForNotification(/Cache exclusions of install .* saved: 2 writable exclusions, 1 added, 1 removed/);
    await squiggle.waitFor({ state: 'detached', timeout: TIMEOUTS.notification });
    await editor.clearNotifications();
  });

  test('[#29.2] the install is offered again in the pick list, without typing', async () => {
    await editor.runCommand('AI Gateway: Edit Cache Exclusions');
    await editor.expectVisible(quickInput().locator('.quick-input-title').filter({ hasText: /Edit cache exclusions: install/ }), 'the install pick list');
    const recent = quickInput().locator('.monaco-list-row').filter({ hasText: HOSTING_IDS.installNormal }).first();
    await editor.expectVisible(recent, 'the install used before');
    assert.match(await recent.innerText(), /used (just now|\d+ minutes? ago)/);
    await editor.screenshot('sandbox-hosting-id-pick', { docs: true });
    await quickBox().press('Escape');
  });

  test('[#29.2] Transfer Site with the printed ids (4 steps), then Cancel Site Transfer picks the site and transfer by name', async () => {
    await editor.runCommand('AI Gateway: Transfer Site…');
    await pasteAndPick(/Transfer site: site .*\(1\/4\)/, HOSTING_IDS.siteNormal, /the id you pasted or typed/);
    await pasteAndPick(/Transfer site: destination account .*\(2\/4\)/, HOSTING_IDS.accountDestination, /the id you pasted or typed/);
    await editor.expectVisible(quickInput().locator('.quick-input-title').filter({ hasText: /Transfer site: when \(3\/4\)/ }), 'step 3 of 4');
    await editor.pickQuickPickItem(/Immediately/);
    await editor.expectVisible(quickInput().locator('.quick-input-title').filter({ hasText: /maintenance mode \(4\/4\)/ }), 'step 4 of 4');
    await editor.pickQuickPickItem(/No maintenance mode/);
    const dialog = editor.page.locator('.monaco-dialog-box').filter({ hasText: /Transfer this site/ }).first();
    await editor.expectVisible(dialog, 'the confirmation');
    // [#41.9] The transfer dialog for the README (Dark Modern): names, not ids; Don't Transfer is the default.
    await editor.screenshot('sandbox-transfer-dialog-dark', { docs: true });
    await dialog.locator('.monaco-button', { hasText: /^Transfer Site$/ }).click();
    await editor.waitForNotification(/pending/);
    await editor.clearNotifications();

    await editor.runCommand('AI Gateway: Cancel Site Transfer');
    await editor.expectVisible(quickInput().locator('.quick-input-title').filter({ hasText: /Cancel site transfer: site \(1\/2\)/ }), 'the site pick list');
    const site = quickInput().locator('.monaco-list-row').filter({ hasText: HOSTING_NAMES.siteNormal }).first();
    await editor.expectVisible(site, 'the site by the name the API gave it');
    await site.click();
    const transfer = quickInput().locator('.monaco-list-row').filter({ hasText: /transfer of blog/ }).first();
    await editor.expectVisible(transfer, 'the transfer just requested');
    await transfer.click();
    const confirm = editor.page.locator('.monaco-dialog-box').filter({ hasText: /Stop this site transfer/ }).first();
    await editor.expectVisible(confirm, 'the stop confirmation');
    // [#41.9] Keep the Transfer (the default) beside Stop the Transfer and VS Code's Cancel: taken in Dark Modern here;
    // the same dialog in Light Modern is taken after the theme changes below (Escape, then asked again).
    await editor.screenshot('sandbox-transfer-stop-dialog-dark', { docs: true });
    await editor.page.keyboard.press('Escape');
    await confirm.waitFor({ state: 'hidden', timeout: TIMEOUTS.ui });
    await setColorTheme(editor, 'Light Modern');
    await editor.runCommand('AI Gateway: Cancel Site Transfer');
    await quickInput().locator('.monaco-list-row').filter({ hasText: HOSTING_NAMES.siteNormal }).first().click();
    const again = quickInput().locator('.monaco-list-row').filter({ hasText: /transfer of blog/ }).first();
    await editor.expectVisible(again, 'the transfer, still there after Escape');
    await again.click();
    await editor.expectVisible(confirm, 'the stop confirmation, again');
    await editor.screenshot('sandbox-transfer-stop-dialog-light', { docs: true });
    await confirm.locator('.monaco-button', { hasText: /^Stop the Transfer$/ }).click();
    await editor.waitForNotification(/Transfer cancelled/);
    await editor.clearNotifications();
    await setColorTheme(editor, 'Dark Modern');
  });

  test('[#29.12] the empty Knowledge and Agents views show a welcome with actions (Dark Modern and Light Modern)', async () => {
    await editor.showOnlySidebarView('Knowledge');
    const sidebar = editor.page.locator('#workbench\\.parts\\.sidebar');
    await editor.expectVisible(sidebar.getByText(/No knowledge-base collections yet/), 'the Knowledge welcome');
    await editor.expectVisible(sidebar.locator('.monaco-button', { hasText: 'Create Collection' }), 'Create Collection');
    await editor.expectVisible(sidebar.locator('.monaco-button', { hasText: 'Index Workspace Files into a Collection' }), 'Index Workspace');
    await editor.screenshot('sandbox-knowledge-welcome-dark', { docs: true });
    await editor.showOnlySidebarView('Agents');
    await editor.expectVisible(sidebar.locator('.monaco-button', { hasText: 'Create Agent' }), 'Create Agent');
    await setColorTheme(editor, 'Light Modern');
    await editor.screenshot('sandbox-agents-welcome-light', { docs: true });
    await editor.showOnlySidebarView('Knowledge');
    await editor.screenshot('sandbox-knowledge-welcome-light');
  });

  test('[#29.2] a wrong hosting address is refused before any password, and Open Settings opens the Remote settings where the machine-scoped setting lives', async () => {
    // The user points aiGateway.hosting.baseUrl at the gateway itself (no /hosting): not a hosting API.
    const userData = editor.userDataDir;
    for (const scope of ['User', 'Machine']) {
      const file = join(userData, scope, 'settings.json');
      const settings = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      writeFileSync(file, JSON.stringify({ ...settings, 'aiGateway.hosting.baseUrl': gateway.url }, null, 2));
    }
    const refused = await waitUntil(
      async () => {
        await editor.runCommand('AI Gateway: Set Hosting API Credentials...');
        const toast = editor.page.locator('.notifications-toasts .notification-toast', { hasText: /does not answer like a hosting account API|Hosting API credentials: username/ }).first();
        await toast.or(quickInput().locator('.quick-input-title', { hasText: /Hosting API credentials: username/ })).first().waitFor({ state: 'visible', timeout: TIMEOUTS.notification });
        // Until the editor has read the changed settings file, the old (good) address still answers.
        if (await quickInput().isVisible()) {
          await quickBox().press('Escape');
          return undefined;
        }
        return toast;
      },
      { what: 'the refusal of the wrong address', timeout: TIMEOUTS.workbench },
    );
    assert.match(await refused.innerText(), /No password was asked for/);
    await editor.notificationAction(refused, 'Open Settings').click();
    const settingsEditor = editor.page.locator('.settings-editor');
    await editor.expectVisible(settingsEditor, 'the Settings editor');
    await editor.expectVisible(settingsEditor.locator('.settings-tabs-widget .action-item .action-label.checked', { hasText: /Remote/ }), 'the Remote tab, where machine settings live');
    await editor.expectVisible(settingsEditor.locator('.setting-item-contents', { hasText: /Hosting.*Base Url/i }).first(), 'the hosting address setting');
    await editor.screenshot('sandbox-open-settings-remote', { docs: true });
  });
});
