/**
 * Spend in the real editor (code-server + the packaged VSIX + the local gateway), one editor, steps in
 * order:
 *  1. with an identity token, "Show Usage" draws the gateway's analytics as a uPlot chart (README
 *     screenshot); a filter change re-queries (the local gateway logs the new query); the chart takes
 *     a light high-contrast theme's colours; "Export table" writes the totals CSV through the save dialog;
 *  2. Summarise on a large post first shows the prompt's exact cost (count_tokens) and sends on
 *     Continue; with the gateway's synthetic history switched off, two priced Summarise runs (the chat fallback,
 *     billed by the gateway and recorded in the local ledger) reconcile within rounding until a billing
 *     difference is injected through /__control/billing; then the row is flagged with its explanation;
 *  3. with the daily budget set at the spend so far (100 %), Summarise is refused with a modal; "Send
 *     anyway" lets exactly that one request through, and the next one is asked again.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FrameLocator } from 'playwright-core';
import { LOCAL_KEYS } from '../localGateway/keys';
import { LOCAL_PROJECT, mintLocalJwt } from '../localGateway/mcpJwt';
import { ARTIFACTS_DIR, BASE_SETTINGS, launchEditor, setColorTheme, TIMEOUTS, waitUntil, type Editor } from './harness';

/** Runs in the webview: the element's background colour (a string: the host tsconfig has no DOM types). */
const colourOf = new Function('el', 'return el.ownerDocument.defaultView.getComputedStyle(el).backgroundColor;') as (el: unknown) => string;

const POST = 'posts/draft.md';
// `[[content:404]]` makes the local gateway's summarize route answer 404, so the client falls back to
// a chat completion: a priced reply with usage, billed by the gateway and recorded in the ledger.
const POST_TEXT = '# Draft\n\nA short note about the harbour at dawn. [[content:404]]\n';
// Large (over LARGE_PROMPT_CHARS, 8,000 characters): Summarise shows the prompt's cost first.
const LONG = 'posts/long.md';
const LONG_TEXT = `# Logbook\n\n${'The boats left the harbour before dawn and came back with the tide. '.repeat(130)}[[content:404]]\n`;

describe('spend: the usage dashboard, reconciliation and the budget in VS Code', () => {
  let editor: Editor;
  let usage: FrameLocator;
  let userDataDir = '';
  const settings = { 'aiGateway.analytics.projectId': LOCAL_PROJECT, 'aiGateway.content.summaryAction': 'copy', 'files.simpleDialog.enable': true };

  const quickInput = () => editor.page.locator('.quick-input-widget .quick-input-box input');

  const control = async (path: string, body?: unknown): Promise<unknown> => {
    const r = await fetch(`${editor.gatewayUrl}/__control/${path}`, body === undefined ? {} : { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    assert.equal(r.status, 200, `control ${path}`);
    return r.json();
  };
  const events = (type: string): Array<Record<string, unknown>> => editor.gateway!.events.list(type) as Array<Record<string, unknown>>;
  const chatCompletions = (): number => events('request').filter((e) => e.method === 'POST' && e.path === '/v1/chat/completions').length;

  /** Runs Summarise on a post and waits until the gateway billed one more request. */
  const summariseBilled = async (file = POST, beforeSending?: () => Promise<void>): Promise<void> => {
    const billed = events('billed').length;
    await editor.openFile(file);
    await editor.runCommand('AI Gateway: Summarise Selection or Document');
    await beforeSending?.();
    await waitUntil(() => events('billed').length > billed, { what: 'the gateway billed the summary' });
  };

  /** Opens (or brings back) the dashboard tab and its webview frame. */
  const showDashboard = async (): Promise<FrameLocator> => {
    await editor.runCommand('AI Gateway: Show Usage');
    await editor.expectVisible(editor.page.locator('.tab.active', { hasText: 'AI Gateway Usage' }), 'the Usage tab');
    return (usage = await editor.webviewFrame('AI Gateway Usage'));
  };

  before(async () => {
    editor = await launchEditor({ name: 'usage', settings, workspaceFiles: { [POST]: POST_TEXT, [LONG]: LONG_TEXT } });
    // For the extension's log after the run.
    userDataDir = editor.userDataDir;
    await editor.addKey('work', LOCAL_KEYS.userFull);
    await editor.waitForNotification(/API key .*work.* saved and active/);
    await editor.clearNotifications();
    await editor.runCommand('AI Gateway: Set Identity Token (JWT) for Usage...');
    await editor.fillInputBox(mintLocalJwt());
    await editor.waitForNotification(/Identity token saved/);
    await editor.clearNotifications();
  });

  after(async () => {
    // The extension's own log (its output channel), kept next to the screenshots for a failure's cause.
    if (userDataDir) {
      const logs = readdirSync(join(userDataDir, 'logs'), { recursive: true, encoding: 'utf8' }).filter((f) => /AI Gateway.*\.log$/.test(f));
      writeFileSync(join(ARTIFACTS_DIR, 'usage.extension.log'), logs.map((f) => `== ${f}\n${readFileSync(join(userDataDir, 'logs', f), 'utf8')}`).join('\n'));
    }
    await editor?.close();
  });

  test('[G-AN-1] [G-AN-4] the dashboard draws the gateway chart, a filter change re-queries, and the table exports as CSV', async () => {
    await showDashboard();
    // The chart is a uPlot canvas of the gateway's figures (not the ledger's), with its legend.
    const canvas = usage.locator('#chart .chart[data-source="gateway"] canvas').first();
    await editor.expectVisible(canvas, 'the gateway chart (uPlot canvas)');
    const size = await canvas.boundingBox();
    assert.ok(size && size.width >= 300 && size.height >= 200, `the chart has a usable size: ${JSON.stringify(size)}`);
    await editor.expectVisible(usage.locator('.legend .legend-item').first(), 'the chart legend');
    await editor.expectVisible(usage.locator('table.totals[data-source="gateway"] tbody tr').first(), 'the gateway totals table');

    // A filter: the next query the gateway sees carries it, and the table shows only that auth method.
    const before = events('analytics-query').length;
    await usage.locator('#g-auth_method').check();
    await usage.locator('#authMethod').selectOption('okta');
    const asked = await waitUntil(() => events('analytics-query').slice(before).find((e) => e.auth_method === 'okta' && String(e.group_by).includes('auth_method')), {
      what: 'the gateway received the filtered query',
    });
    assert.equal(asked.bucket_width, '10m');
    // Grouped by auth_method the stacked series stay by model (the first dimension). Columns and values
    // are in words (#29.13): "Signed in with", "Okta single sign-on".
    const column = usage.locator('table.totals[data-source="gateway"] thead th', { hasText: 'Signed in with' });
    await editor.expectVisible(column, 'the "Signed in with" column');
    await waitUntil(
      async () => {
        const cells = await usage.locator('table.totals[data-source="gateway"] tbody tr td:nth-child(3)').allInnerTexts();
        return cells.length > 0 && cells.every((c) => c === 'Okta single sign-on');
      },
      { what: 'the table shows only okta rows' },
    );
    // The week by hour, still filtered: the picture for the README.
    const beforeWeek = events('analytics-query').length;
    await usage.locator('#preset').selectOption('week');
    await waitUntil(() => events('analytics-query').slice(beforeWeek).find((e) => e.bucket_width === '1h' && e.auth_method === 'okta'), { what: 'the gateway received the weekly query' });
    await editor.expectVisible(usage.locator('#chart h2', { hasText: 'Credits per 1h bucket' }), 'the hourly chart');
    await editor.expectVisible(usage.locator('#chart .chart[data-source="gateway"] canvas').first(), 'the redrawn chart');
    await editor.clearNotifications();
    await editor.screenshot('usage-dashboard', { docs: true });

    // Theme colours only: in Light High Contrast the series and the axes take that theme's colours.
    const swatch = usage.locator('.legend .legend-item .swatch').first();
    const darkSwatch = await swatch.evaluate(colourOf);
    await setColorTheme(editor, 'Light High Contrast');
    await waitUntil(async () => (await swatch.evaluate(colourOf)) !== darkSwatch, { what: 'the chart took the light high-contrast colours' });
    const page = await usage.locator('body').evaluate(colourOf);
    assert.notEqual(await swatch.evaluate(colourOf), page, 'a series is not drawn in the page background colour');
    await editor.screenshot('usage-dashboard-light-hc');
    // [#41] The same dashboard in Light Modern for the README, beside the Dark Modern one above.
    await setColorTheme(editor, 'Light Modern');
    await waitUntil(() => usage.locator('body').evaluate((b) => b.classList.contains('vscode-light')), { what: 'the dashboard took the Light Modern theme' });
    await editor.screenshot('usage-dashboard-light', { docs: true });

    // Export: the save dialog (the workbench's own, in the browser) offers the extension's default name
    // in the workspace folder, and Enter takes it. Typing another path raced with the dialog filling in
    // its default when it is ready (on a busy machine after our value), so the default is what is saved.
    const defaultName = /ai-gateway-usage-table-\d{4}-\d{2}-\d{2}\.csv$/;
    const written = (): string | undefined => readdirSync(editor.workspace).find((f) => defaultName.test(f));
    const exportButton = usage.locator('button[data-export="table"]');
    // The simple save dialog checks the typed path asynchronously and shows its progress bar while it does;
    // an Enter that arrives then is not taken and the dialog stays open. So Enter is pressed only when the
    // dialog offers the default name and is idle, and again only once the dialog is seen to still be open.
    const busy = editor.page.locator('.quick-input-widget .quick-input-progress.active');
    const deadline = Date.now() + TIMEOUTS.notification;
    let enters = 0;
    await exportButton.click();
    while (!written()) {
      if (Date.now() > deadline) assert.fail(`the CSV was not written to ${editor.workspace} (Enter pressed ${enters} times; last value: ${await quickInput().inputValue().catch(() => '?')})`);
      if (!(await quickInput().isVisible())) {
        // Closed: it took the path (the file appears when the extension has written it) or it closed without it.
        if (await waitUntil(() => written() || undefined, { what: 'the CSV was written', timeout: TIMEOUTS.ui / 2 }).then(() => true, () => false)) break;
        await exportButton.click();
        await quickInput().waitFor({ state: 'visible', timeout: TIMEOUTS.ui / 2 }).catch(() => undefined);
        continue;
      }
      const ready = await waitUntil(async () => (defaultName.test(await quickInput().inputValue()) && !(await busy.isVisible())) || undefined, {
        what: 'the save dialog offers the default file name in the workspace and is idle',
        timeout: TIMEOUTS.ui / 2,
      }).then(() => true, () => false);
      if (!ready) continue;
      await quickInput().press('Enter');
      enters++;
      // It takes the path and closes, or (Enter too early) stays open: then the loop looks again.
      await waitUntil(async () => written() || !(await quickInput().isVisible()) || undefined, { what: 'the save dialog took the path', timeout: TIMEOUTS.ui / 4 }).catch(() => undefined);
    }
    const target = join(editor.workspace, written() ?? '');
    const csv = await waitUntil(() => readFileSync(target, 'utf8') || undefined, { what: 'the CSV has content' });
    const lines = csv.trim().split(/\r?\n/);
    // The operation's id for scripts, then its words (#41.10).
    assert.equal(lines[0], 'model,operation,operation_name,auth_method,requests,credits,credits_nano');
    assert.ok(lines.length > 1, 'the table has rows');
    for (const line of lines.slice(1)) assert.match(line, /^[^,]*,[^,]*,[^,]*,okta,\d+,\d+(\.\d+)?,\d+$/);
  });

  test('cost before sending on a large document, then reconciliation: the ledger matches the gateway until a billing difference is injected, then the row is flagged', async () => {
    await control('billing', { history: false });
    // The large post: the exact prompt cost (count_tokens) is shown, and Continue sends it.
    await summariseBilled(LONG, async () => {
      const dialog = editor.page.locator('.monaco-dialog-box');
      await editor.expectVisible(dialog.filter({ hasText: /Summarising the document: the prompt costs [\d.]+ credits? on / }), 'the cost before sending');
      assert.match(await dialog.innerText(), /exact: [\d,]+ tokens counted by the gateway/);
      assert.equal(events('count-tokens').length, 1, 'one count for the one run');
      await editor.screenshot('usage-cost-before-sending');
      await dialog.getByRole('button', { name: 'Send', exact: true }).click();
    });
    const model = String(events('billed').at(-1)?.model);
    await showDashboard();
    // The panel re-queries after each local record; the row for the model of today matches.
    const row = usage.locator('#recon tbody tr', { hasText: model });
    await editor.expectVisible(row.filter({ hasText: 'within rounding' }), 'the reconciliation row within rounding');

    await control('billing', { extraNanoPerRequest: '5000000' });
    await summariseBilled();
    await showDashboard();
    const flagged = usage.locator('#recon tbody tr.flagged', { hasText: model }).first();
    await editor.expectVisible(flagged, 'the flagged reconciliation row');
    const cells = await flagged.locator('td').allInnerTexts();
    assert.equal(cells[4], '0.005', 'the difference is the injected 5,000,000 nanocredits');
    assert.match(cells[5], /⚠ differs/);
    // Same request count on both sides, so the explanation names a billing difference, not a missing record.
    const explanation = await usage.locator('#recon tbody tr.explain').first().innerText();
    assert.match(explanation, /Same request count on both sides: the gateway billed these requests differently/);
    await editor.screenshot('usage-reconciliation');
  });

  test('the budget at 100 % refuses a send; "Send Anyway" lets exactly one through', async () => {
    // The daily budget at the smallest amount: today's spend is over it.
    // Set in the user settings.json through the editor, as a user would (the workbench writes the file;
    // a budget is application-scoped, so it is only read from there).
    await editor.runCommand('Preferences: Open User Settings (JSON)');
    // VS Code 1.139 opens it in a floating (modal) editor, not a tab: find it by its content.
    const lines = editor.page.locator('.monaco-editor .view-lines', { hasText: 'workbench.startupEditor' }).first();
    await editor.expectVisible(lines, 'the user settings.json');
    const json = JSON.stringify({ ...BASE_SETTINGS, 'aiGateway.baseUrl': editor.gatewayUrl, ...settings, 'aiGateway.budget.daily': '0.000000001' }, null, 2);
    await editor.page.evaluate(`navigator.clipboard.writeText(${JSON.stringify(json)})`);
    await lines.click();
    await editor.page.keyboard.press('Control+A');
    await editor.page.keyboard.press('Control+V');
    await editor.expectVisible(editor.page.locator('.monaco-editor .view-lines', { hasText: '0.000000001' }).first(), 'the budget in settings.json');
    await editor.page.keyboard.press('Control+S');
    // The token is set: the status bar shows the gateway's figure for today, and says so.
    await editor.expectVisible(editor.page.locator('#workbench\\.parts\\.statusbar .statusbar-item').filter({ hasText: /today \(\d+ %\) · (?:last [^·]+ · )?gateway/ }).first(), 'the budget at 100 % in the status bar');
    await editor.clearNotifications();
    await editor.page.keyboard.press('Escape'); // closes the floating settings editor
    await lines.waitFor({ state: 'hidden', timeout: TIMEOUTS.ui });
    await editor.openFile(POST);

    const sent = chatCompletions();
    await editor.runCommand('AI Gateway: Summarise Selection or Document');
    const dialog = editor.page.locator('.monaco-dialog-box');
    await editor.expectVisible(dialog.filter({ hasText: /daily budget is used up/ }), 'the budget refusal');
    await editor.screenshot('usage-budget-refusal');
    await dialog.getByRole('button', { name: 'Send Anyway' }).click();
    await waitUntil(() => chatCompletions() === sent + 1, { what: 'the one request sent anyway reached the gateway' });

    // The next send asks again; refused, nothing goes out.
    await editor.runCommand('AI Gateway: Summarise Selection or Document');
    await editor.expectVisible(dialog.filter({ hasText: /daily budget is used up/ }), 'the budget refusal, again');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden', timeout: TIMEOUTS.ui });
    // A later request the gateway does see (a dashboard query) proves the refused one had its chance.
    await showDashboard();
    const queries = events('analytics-query').length;
    await usage.locator('#authMethod').selectOption('');
    await waitUntil(() => events('analytics-query').length > queries, { what: 'a later dashboard query' });
    assert.equal(chatCompletions(), sent + 1, 'the refused send never reached the gateway');
  });
});
