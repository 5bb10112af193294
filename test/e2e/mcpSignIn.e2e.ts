/**
 * Third-party MCP servers in the real editor (#42): OAuth sign-in and elicitation, end to end.
 *
 * #42.1: a local MCP server that requires OAuth (test/unit/mcp/oauthServer.ts: protected-resource and
 * authorization-server metadata, dynamic registration, an authorization page that approves at once,
 * PKCE) is added through "Add MCP Server". Listing its tools asks to sign in; the authorization page
 * opens in a browser tab (code-server's openExternal), redirects to the redirect URI the extension got
 * from asExternalUri (code-server's /callback), which hands it to the extension's URI handler: the real
 * remote-host path. A tool runs; Sign Out; the next call asks to sign in again. The token is searched
 * for in the settings files and the extension's logs.
 *
 * #42.2: a server (the MCP SDK's own Server on Streamable HTTP) whose tool asks for input with
 * elicitation/create; the form (quick input steps) shows the schema's defaults (SEP-1034), is filled by
 * keyboard, and the tool's result shows the values the server got; a second call is declined. A second tool
 * asks a multi-select (check boxes by keyboard, minItems refused) and an email field.
 *
 * #42.3: two servers the user adds, one of each protocol era: the SDK's own server (the `initialize`
 * handshake, 2025-11-25) and a server of the stateless revision 2026-07-28 (statelessServer.ts). Both
 * servers' tools are listed in the Tools view, one tool of each runs with its result shown, Ping names
 * each server's version; the servers' own records say which era each was spoken to.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { CallToolRequestSchema, ElicitResultSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { startOAuthServer, type OAuthTestServer } from '../unit/mcp/oauthServer';
import { json } from '../unit/mcp/rawHttpServer';
import { startSdkServer, type SdkHttpServer } from '../unit/mcp/sdkHttpServer';
import { startStatelessServer, type StatelessServer } from '../unit/mcp/statelessServer';
import { launchEditor, pollUntil, TIMEOUTS, waitUntil, type Editor } from './harness';

/** Every file under `dir` (the extension's logs), recursively. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...filesUnder(p));
    else out.push(p);
  }
  return out;
}

describe('[#42] third-party MCP servers in the editor', () => {
  let editor: Editor;
  let oauth: OAuthTestServer;
  let elicit: SdkHttpServer;
  let almanac: SdkHttpServer;
  let weather: StatelessServer;
  let elicitUrl = '';
  /** What the elicitation server got back from the editor, per call. */
  const answers: unknown[] = [];
  const tag = `-${randomBytes(8).toString('hex')}`;

  before(async () => {
    // On [::1]: code-server rewrites an http://127.0.0.1:<port> or localhost page the extension opens to
    // its own /proxy/<port>/ and re-encodes the URL on the way, which cuts the redirect URI's query (see
    // the report of #42.1's journey); an address it leaves alone stands for any real (https) sign-in page.
    oauth = await startOAuthServer({ tokenTag: tag, host: '::1' });
    // A server whose tool asks the user for input (MCP 2025-11-25 elicitation, form mode), with a
    // default for every field (SEP-1034): the form must show them.
    elicit = await startSdkServer({ name: 'elicit-e2e', version: '1' }, (server) => {
      // Marked not destructive (they add, they delete nothing): they run without the destructive question (#42.4).
      server.setRequestHandler(ListToolsRequestSchema, async () => ({
        tools: [
          { name: 'book_table', description: 'Books a table, asking who and how many', inputSchema: { type: 'object' }, annotations: { destructiveHint: false } },
          { name: 'order_extras', description: 'Orders extras, asking which (several) and where to confirm', inputSchema: { type: 'object' }, annotations: { destructiveHint: false } },
        ],
      }));
      server.setRequestHandler(CallToolRequestSchema, async (r) => {
        if (r.params.name === 'order_extras') {
          // [#42.2] a multi-select (titled choices, bounds, a default) and an email field.
          const extras = await server.request(
            {
              method: 'elicitation/create',
              params: {
                message: 'Which extras?',
                requestedSchema: {
                  type: 'object',
                  properties: {
                    extras: { type: 'array', title: 'Extras', items: { anyOf: [{ const: 'cake', title: 'Birthday cake' }, { const: 'flowers', title: 'Flowers' }, { const: 'wine', title: 'Wine' }] }, minItems: 1, maxItems: 2, default: ['flowers'] },
                    email: { type: 'string', title: 'Email', format: 'email' },
                  },
                  required: ['extras', 'email'],
                },
              },
            },
            ElicitResultSchema,
          );
          answers.push(extras);
          return { content: [{ type: 'text', text: extras.action === 'accept' ? `Ordered: ${JSON.stringify(extras.content)}` : `Not ordered: ${extras.action}.` }] };
        }
        const answer = await server.request(
          {
            method: 'elicitation/create',
            params: {
              message: 'Who is the booking for?',
              requestedSchema: {
                type: 'object',
                properties: {
                  name: { type: 'string', title: 'Name', default: 'Ada' },
                  guests: { type: 'integer', title: 'Guests', minimum: 1, maximum: 12, default: 2 },
                  outside: { type: 'boolean', title: 'Outside', default: true },
                  time: { type: 'string', title: 'Time', enum: ['18:00', '19:30', '21:00'], default: '19:30' },
                },
                required: ['name'],
              },
            },
          },
          ElicitResultSchema,
        );
        answers.push(answer);
        const text = answer.action === 'accept' ? `Booked: ${JSON.stringify(answer.content)}` : `Not booked: the user answered ${answer.action}.`;
        return { content: [{ type: 'text', text }] };
      });
    });
    elicitUrl = elicit.url;
    // #42.3: a server of each era. The initialize era: the SDK's own stateful server (refuses
    // server/discover, as every server before 2026-07-28 does). The stateless revision 2026-07-28:
    // statelessServer.ts, which records every request's headers and body.
    almanac = await startSdkServer({ name: 'almanac-e2e', version: '1' }, (server) => {
      server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [{ name: 'day_of_week', description: 'Names the day of the week of a date', inputSchema: { type: 'object', properties: { date: { type: 'string', title: 'Date' } } }, annotations: { readOnlyHint: true } }] }));
      server.setRequestHandler(CallToolRequestSchema, async (request) => {
        const date = String(request.params.arguments?.date);
        const day = new Date(`${date}T12:00:00Z`).toLocaleDateString('en-US', { weekday: 'long', timeZone: 'UTC' });
        return { content: [{ type: 'text', text: `Almanac: ${date} is a ${day}.` }] };
      });
    });
    weather = await startStatelessServer({
      serverInfo: { name: 'weather-e2e', version: '2' },
      tools: [{ name: 'forecast', description: 'Tomorrow\'s weather in a city', inputSchema: { type: 'object', properties: { city: { type: 'string', title: 'City', 'x-mcp-header': 'City' } }, required: ['city'] }, annotations: { readOnlyHint: true } }],
      call: (id, params, res, req) =>
        json(res, 200, { jsonrpc: '2.0', id, result: { resultType: 'complete', content: [{ type: 'text', text: `Weather: sunny in ${String((params.arguments as { city?: unknown } | undefined)?.city)} (asked at MCP ${String(req.headers['mcp-protocol-version'])}).` }] } }),
    });
    editor = await launchEditor({ name: 'mcp-signin' });
  });

  after(async () => {
    await editor?.close();
    await oauth?.close();
    await elicit?.close();
    await almanac?.close();
    await weather?.close();
  });

  /** On failure, leaves a screenshot in .e2e-artifacts/ next to the error. */
  async function step<T>(name: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      await editor.screenshot(`mcp-signin-failure-${name}`).catch(() => undefined);
      throw e;
    }
  }

  const quickInput = (): ReturnType<Page['locator']> => editor.page.locator('.quick-input-widget');
  const dialog = (): ReturnType<Page['locator']> => editor.page.locator('.monaco-dialog-box');
  const row = (name: RegExp) => editor.page.getByRole('treeitem', { name }).first();

  /** "AI Gateway: Add MCP Server": address, display name, no headers (as a user adds one). */
  async function addServer(url: string, name: string): Promise<void> {
    await editor.runCommand('AI Gateway: Add MCP Server...');
    await editor.fillInputBox(url, { title: /address/ });
    await editor.fillInputBox(name, { title: /display name/ });
    await editor.expectVisible(quickInput().locator('.quick-input-title').filter({ hasText: /headers/ }), 'the headers step');
    await editor.pickQuickPickItem(/^Done/);
  }

  /**
   * The Tools view with the server's row expanded, and with `child` given, until that row is shown under it.
   * The view refreshes when a server is added and can redraw a row collapsed; a row whose tools are still
   * loading from its server is not yet marked expanded, and a second click then would collapse it. So each
   * try acts only on a collapsed row, by keyboard where it can (Right arrow on the focused row expands and
   * never collapses; a click only to focus it), and then waits for the row to say it is expanded before
   * any next try. The pointer is moved off the tree before and after: it rests on the row clicked before,
   * whose hover (name, address, credential) can cover the rows under it and take a click (a fresh-clone run
   * timed out with the Almanac row's hover over the Weather row).
   */
  async function expandServer(name: string, child?: RegExp): Promise<void> {
    await editor.showOnlySidebarView('Tools');
    const server = row(new RegExp(`^${name}\\b`));
    await editor.expectVisible(server, `the ${name} row`);
    const expanded = async (): Promise<boolean> => (await server.getAttribute('aria-expanded').catch(() => null)) === 'true';
    const done = async (): Promise<boolean> => (await expanded()) && (!child || (await row(child).isVisible().catch(() => false)));
    await pollUntil(
      async () => {
        if (await done()) return true;
        if (!(await expanded())) {
          await editor.page.mouse.move(0, 0).catch(() => undefined);
          await editor.page.locator('.monaco-hover, .workbench-hover').filter({ visible: true }).first().waitFor({ state: 'hidden', timeout: 2_000 }).catch(() => undefined);
          const focused = /\bfocused\b/.test((await server.getAttribute('class').catch(() => null)) ?? '');
          if (focused) await server.press('ArrowRight').catch(() => undefined);
          else await server.click({ timeout: 2_000 }).catch(() => undefined);
          await pollUntil(expanded, (ok) => ok, `the ${name} row marked expanded`, TIMEOUTS.ui / 6).catch(() => false);
        }
        return done();
      },
      (ok) => ok,
      child ? `the ${name} row expanded, showing ${child}` : `the ${name} row expanded`,
    );
    await editor.page.mouse.move(0, 0).catch(() => undefined);
  }

  test('[#42.1] add a server that requires OAuth, sign in through the browser, run a tool; Sign Out; the next call asks again; the token is in no settings file or log', () =>
    step('oauth', async () => {
      await addServer(oauth.mcpUrl, 'Tickets');
      await expandServer('Tickets');
      // Listing the tools meets 401 + WWW-Authenticate: the sign-in question names the authorization server's host.
      const host = new URL(oauth.url).host;
      const ask = dialog().filter({ hasText: 'Tickets asks you to sign in at' });
      await editor.expectVisible(ask, 'the sign-in question');
      const question = await ask.innerText();
      assert.ok(question.includes(host), `the question names ${host}`);
      // The sign-in page is on this computer (a local server the user added): the question says so (#42.4).
      assert.match(question, /points at this computer or a private network/);
      await editor.screenshot('mcp-signin-question');
      // The authorization page opens in a new browser tab; it approves at once and redirects back.
      const popup = editor.page.context().waitForEvent('page', { timeout: TIMEOUTS.ui });
      await ask.getByRole('button', { name: 'Sign In' }).click();
      const page = await popup;
      // Where the browser tab went (named in a failure: the page, then the redirect back to the editor).
      const visited: string[] = [page.url()];
      page.on('framenavigated', (f) => {
        if (f === page.mainFrame()) visited.push(f.url());
      });
      await page.waitForLoadState('domcontentloaded').catch(() => undefined);
      try {
        await editor.expectVisible(row(/^write\b/), 'the server\'s tool, listed after the sign-in');
      } catch (e) {
        throw new Error(`No tools after the sign-in; the browser tab visited ${JSON.stringify(visited)}; the OAuth server counted ${JSON.stringify(oauth.counts)}`, { cause: e });
      }
      assert.equal(oauth.counts.codeGrants, 1, 'one authorization code was exchanged');
      assert.deepEqual(oauth.pkceOk, [true], 'the code was exchanged with its PKCE verifier');
      await page.close().catch(() => undefined);
      await editor.screenshot('mcp-signin-tools');

      await row(/^write\b/).click();
      const frame = await editor.webviewFrame('Tool: write');
      await frame.getByRole('button', { name: 'Run' }).click();
      // `write` carries no annotations: destructive by the spec's default, so Run asks first (#42.4).
      const destructive = dialog().filter({ hasText: 'Run write on Tickets?' });
      await editor.expectVisible(destructive, 'the destructive tool question');
      await editor.screenshot('mcp-signin-destructive');
      await destructive.getByRole('button', { name: 'Run Tool' }).click();
      const result = frame.locator('section.result');
      await result.waitFor({ state: 'visible', timeout: TIMEOUTS.notification });
      assert.match(await result.innerText(), /ran 1/);
      assert.equal(oauth.counts.toolRuns, 1);
      await editor.screenshot('mcp-signin-result');

      // The token is in SecretStorage only: not in the settings files, not in the extension's logs.
      const tokens = [...oauth.valid.keys()];
      assert.equal(tokens.length, 1);
      const settingsFiles = ['User', 'Machine'].map((s) => join(editor.userDataDir, s, 'settings.json')).filter(existsSync);
      assert.ok(settingsFiles.some((f) => readFileSync(f, 'utf8').includes(oauth.mcpUrl)), 'the server was written to a settings file');
      const logs = filesUnder(join(editor.userDataDir, 'logs'));
      const ours = logs.filter((f) => /AI Gateway/.test(f));
      await waitUntil(() => ours.some((f) => /signing in/.test(readFileSync(f, 'utf8'))), { what: 'the extension\'s log names the sign-in' });
      // Every access and refresh token carries `tag`, and nothing else does.
      assert.ok(tokens[0].endsWith(tag));
      for (const f of [...settingsFiles, ...logs]) assert.ok(!readFileSync(f, 'utf8').includes(tag), `${f} holds a token`);

      // Sign Out (palette; the pick offers the servers signed in), then the next call asks again.
      await editor.runCommand('AI Gateway: Sign Out of MCP Server...');
      await editor.pickQuickPickItem(/Tickets/);
      // The Tools view lists the (still expanded) server again at once, and that listing asks first.
      await editor.expectVisible(ask, 'the sign-in question after Sign Out (the Tools view lists the server again)');
      await editor.screenshot('mcp-signin-again');
      // Not Now (the default, Enter): nothing is opened; the view says why it has no tools.
      await editor.page.keyboard.press('Enter');
      // The sign-out's message, looked for once the question is answered: the question comes right after
      // it, and while a modal dialog is up the message's toast can be gone and the Notifications center
      // cannot be opened (the message is then found there).
      await editor.waitForNotification(/Signed out of Tickets/);
      await editor.expectVisible(row(/Sign-in declined/), 'the Tools view naming the declined sign-in');
      // The next call asks again; Not Now fails the call with the reason, and the tool did not run.
      await frame.getByRole('button', { name: 'Run' }).click();
      await editor.expectVisible(destructive, 'the destructive tool question, again');
      await destructive.getByRole('button', { name: 'Run Tool' }).click();
      await editor.expectVisible(ask, 'the sign-in question on the next call');
      await ask.getByRole('button', { name: 'Not Now' }).click();
      await frame.locator('#status, section.result', { hasText: /declined/i }).first().waitFor({ timeout: TIMEOUTS.ui });
      await editor.screenshot('mcp-signin-declined');
      // Collapsed, the server is not listed again (and does not ask again) when the next journey adds a server.
      const tickets = row(/^Tickets\b/);
      await tickets.click();
      await tickets.press('ArrowLeft');
      await editor.expectVisible(editor.page.getByRole('treeitem', { name: /^Tickets\b/, expanded: false }), 'the Tickets row collapsed');
      assert.equal(oauth.counts.authorize, 1, 'no second authorization page');
      assert.equal(oauth.counts.toolRuns, 1, 'the tool did not run without a token');
    }));

  test('[#42.2] a tool that asks for input: the form shows the defaults, is filled by keyboard, the result has the values; a second call declined', () =>
    step('elicit', async () => {
      await editor.runCommand('View: Close All Editors');
      await addServer(elicitUrl, 'Bookings');
      await expandServer('Bookings');
      const tool = row(/^book_table\b/);
      await editor.expectVisible(tool, 'the book_table tool');
      await tool.click();
      const frame = await editor.webviewFrame('Tool: book_table');
      await frame.getByRole('button', { name: 'Run' }).click();
      const qi = quickInput();
      const input = qi.locator('.quick-input-box input');
      const title = qi.locator('.quick-input-title');
      const focused = qi.locator('.monaco-list-row.focused');
      // Step 1: the server's name and message, Answer (focused) or Decline.
      await editor.expectVisible(title.filter({ hasText: 'Bookings asks for input' }), 'the elicitation form');
      assert.match(await input.getAttribute('placeholder') ?? '', /Who is the booking for\?/);
      await editor.expectVisible(focused.filter({ hasText: /^Answer/ }), 'Answer focused');
      await editor.screenshot('mcp-elicit-first');
      await input.press('Enter');
      // Name: pre-filled with its default; typed over.
      await editor.expectVisible(title.filter({ hasText: /2\/5/ }), 'the Name step');
      await waitUntil(async () => (await input.inputValue()) === 'Ada', { what: 'Name shows its default, Ada' });
      await input.press('ControlOrMeta+a');
      await input.pressSequentially('Grace');
      await input.press('Enter');
      // Guests: the default 2 is shown; a value over the maximum is refused, then 4.
      await editor.expectVisible(title.filter({ hasText: /3\/5/ }), 'the Guests step');
      await waitUntil(async () => (await input.inputValue()) === '2', { what: 'Guests shows its default, 2' });
      await editor.screenshot('mcp-elicit-default');
      await input.press('ControlOrMeta+a');
      await input.pressSequentially('40');
      await editor.expectVisible(qi.locator('.quick-input-message', { hasText: /at most 12/ }), 'the bound check');
      await input.press('ControlOrMeta+a');
      await input.pressSequentially('4');
      await input.press('Enter');
      // Outside: Yes (the default) focused; Enter keeps it.
      await editor.expectVisible(title.filter({ hasText: /4\/5/ }), 'the Outside step');
      await editor.expectVisible(focused.filter({ hasText: /^Yes/ }), 'Yes focused (the default)');
      await input.press('Enter');
      // Time: 19:30 (the default) focused; Down picks the next one.
      await editor.expectVisible(title.filter({ hasText: /5\/5/ }), 'the Time step');
      await editor.expectVisible(focused.filter({ hasText: /^19:30/ }), '19:30 focused (the default)');
      await input.press('ArrowDown');
      await editor.expectVisible(focused.filter({ hasText: /^21:00/ }), '21:00 focused');
      await input.press('Enter');
      const result = frame.locator('section.result');
      await result.waitFor({ state: 'visible', timeout: TIMEOUTS.notification });
      await editor.expectVisible(result.filter({ hasText: 'Booked' }), 'the tool\'s result');
      const text = await result.innerText();
      assert.match(text, /"name":"Grace"/);
      assert.match(text, /"guests":4/);
      assert.match(text, /"outside":true/);
      assert.match(text, /"time":"21:00"/);
      assert.deepEqual(answers[0], { action: 'accept', content: { name: 'Grace', guests: 4, outside: true, time: '21:00' } });
      await editor.screenshot('mcp-elicit-result');

      // A second call: Decline (Down, Enter on the first step); the server is told, and says so.
      await frame.getByRole('button', { name: 'Run' }).click();
      await editor.expectVisible(title.filter({ hasText: 'Bookings asks for input' }), 'the elicitation form, again');
      await editor.expectVisible(focused.filter({ hasText: /^Answer/ }), 'Answer focused');
      await input.press('ArrowDown');
      await editor.expectVisible(focused.filter({ hasText: /^Decline/ }), 'Decline focused');
      await input.press('Enter');
      await editor.expectVisible(result.filter({ hasText: /Not booked: the user answered decline/ }), 'the declined result');
      assert.deepEqual(answers[1], { action: 'decline' });
      await editor.screenshot('mcp-elicit-declined');
    }));

  test('[#42.2] a multi-select by keyboard: the default checked, Down into the choices, Space toggles, an Enter under minItems refused; an email field checked; the server gets the list', () =>
    step('elicit-multi', async () => {
      await editor.runCommand('View: Close All Editors');
      const tool = row(/^order_extras\b/);
      if (!(await tool.isVisible())) await expandServer('Bookings');
      await editor.expectVisible(tool, 'the order_extras tool');
      await tool.click();
      const frame = await editor.webviewFrame('Tool: order_extras');
      await frame.getByRole('button', { name: 'Run' }).click();
      const qi = quickInput();
      const input = qi.locator('.quick-input-box input');
      const title = qi.locator('.quick-input-title');
      const focused = qi.locator('.monaco-list-row.focused');
      const choice = (label: string) => qi.locator('.monaco-list-row', { hasText: label }).first();
      const checked = (label: string) =>
        choice(label).evaluate((el) => (el.getAttribute('aria-checked') ?? el.querySelector('[aria-checked]')?.getAttribute('aria-checked') ?? String((el.querySelector('input[type=checkbox]') as { checked?: boolean } | null)?.checked)) === 'true');
      /** Down (or Up) until the focused row is `label`. */
      const focusChoice = async (label: string): Promise<void> => {
        for (let i = 0; i < 4 && !(await focused.filter({ hasText: label }).isVisible()); i++) await editor.page.keyboard.press('ArrowDown');
        await editor.expectVisible(focused.filter({ hasText: label }), `${label} focused`);
      };
      await editor.expectVisible(title.filter({ hasText: 'Bookings asks for input' }), 'the elicitation form');
      await editor.expectVisible(focused.filter({ hasText: /^Answer/ }), 'Answer focused');
      await input.press('Enter');
      await editor.expectVisible(title.filter({ hasText: /2\/3/ }), 'the Extras step');
      await editor.expectVisible(choice('Birthday cake'), 'the choices by their titles');
      await waitUntil(() => checked('Flowers'), { what: 'Flowers checked (the default)' });
      assert.equal(await checked('Wine'), false);
      assert.match((await input.getAttribute('placeholder')) ?? '', /^Extras \(Down Arrow, then Space checks/);
      await editor.screenshot('mcp-elicit-multi-default');
      // Down moves the focus into the list (a multi-select quick pick); Space unchecks Flowers; Enter with none is refused.
      await input.press('ArrowDown');
      await focusChoice('Flowers');
      await editor.page.keyboard.press('Space');
      await waitUntil(async () => !(await checked('Flowers')), { what: 'Space unchecked Flowers' });
      await editor.page.keyboard.press('Enter');
      await waitUntil(async () => /^Choose at least 1\./.test((await input.getAttribute('placeholder')) ?? ''), { what: 'the reason in the placeholder' });
      await editor.expectVisible(title.filter({ hasText: /2\/3/ }), 'still the Extras step');
      await focusChoice('Wine');
      await editor.page.keyboard.press('Space');
      await focusChoice('Birthday cake');
      await editor.page.keyboard.press('Space');
      await waitUntil(async () => (await checked('Wine')) && (await checked('Birthday cake')), { what: 'Wine and Birthday cake checked' });
      await editor.screenshot('mcp-elicit-multi-checked');
      await editor.page.keyboard.press('Enter');
      // Email: a value that is not an address is refused with what to type; then a valid one.
      await editor.expectVisible(title.filter({ hasText: /3\/3/ }), 'the Email step');
      await input.pressSequentially('ada@');
      await editor.expectVisible(qi.locator('.quick-input-message', { hasText: /Enter an email address/ }), 'the format check');
      await input.pressSequentially('example.com');
      await input.press('Enter');
      const result = frame.locator('section.result');
      await editor.expectVisible(result.filter({ hasText: 'Ordered' }), "the tool's result");
      assert.deepEqual(answers.at(-1), { action: 'accept', content: { extras: ['cake', 'wine'], email: 'ada@example.com' } });
      await editor.screenshot('mcp-elicit-multi-result');
    }));

  test('[#42.3] a server of each era, added by the user: both listed in the Tools view and a tool of each run; the stateless server got 2026-07-28 (server/discover, _meta and Mcp-Method on every request, no initialize), the other the initialize handshake', () =>
    step('eras', async () => {
      await editor.runCommand('View: Close All Editors');
      await addServer(almanac.url, 'Almanac');
      await addServer(weather.url, 'Weather');
      await expandServer('Almanac', /^day_of_week\b/);
      await expandServer('Weather', /^forecast\b/);
      // Both still shown once the second is expanded (a redraw could have folded the first).
      await editor.expectVisible(row(/^day_of_week\b/), 'the Almanac server\'s tool (initialize era)');
      await editor.expectVisible(row(/^forecast\b/), 'the Weather server\'s tool (2026-07-28)');
      await editor.screenshot('mcp-eras-tools');

      // A tool of each: the form filled, Run, the result shown.
      await row(/^forecast\b/).click();
      const forecast = await editor.webviewFrame('Tool: forecast');
      await forecast.locator('#f_city').fill('Lisbon');
      await forecast.getByRole('button', { name: 'Run' }).click();
      await editor.expectVisible(forecast.locator('section.result', { hasText: 'Weather: sunny in Lisbon (asked at MCP 2026-07-28).' }), 'the forecast\'s result');
      await editor.screenshot('mcp-eras-stateless-result');
      await row(/^day_of_week\b/).click();
      const day = await editor.webviewFrame('Tool: day_of_week');
      await day.locator('#f_date').fill('2026-07-28');
      await day.getByRole('button', { name: 'Run' }).click();
      await editor.expectVisible(day.locator('section.result', { hasText: 'Almanac: 2026-07-28 is a Tuesday.' }), 'the day_of_week result');
      await editor.screenshot('mcp-eras-initialize-result');

      // Ping names the version each server was spoken to.
      await editor.runCommand('AI Gateway: Ping MCP Server');
      await editor.pickQuickPickItem(/^Weather/);
      await editor.waitForNotification(/Weather: weather-e2e 2 answered ping in [\d,]+ ms \(MCP 2026-07-28\)/);
      await editor.runCommand('AI Gateway: Ping MCP Server');
      await editor.pickQuickPickItem(/^Almanac/);
      await editor.waitForNotification(/Almanac: almanac-e2e 1 answered ping in [\d,]+ ms \(MCP 2025-11-25\)/);

      // What the stateless server got: server/discover first, no initialize, no session; every request
      // with the version, capabilities and client info in _meta, MCP-Protocol-Version and Mcp-Method.
      const methods = weather.seen.map((p) => p.body.method);
      assert.equal(methods[0], 'server/discover');
      assert.ok(methods.includes('tools/list') && methods.includes('tools/call'), methods.join(', '));
      assert.ok(!methods.includes('initialize'), methods.join(', '));
      for (const p of weather.seen) {
        const meta = p.body.params?._meta as Record<string, unknown> | undefined;
        assert.equal(meta?.['io.modelcontextprotocol/protocolVersion'], '2026-07-28', `${p.body.method}'s _meta`);
        assert.equal(typeof meta?.['io.modelcontextprotocol/clientInfo'], 'object', `${p.body.method}'s _meta`);
        assert.equal(typeof meta?.['io.modelcontextprotocol/clientCapabilities'], 'object', `${p.body.method}'s _meta`);
        assert.equal(p.headers['mcp-protocol-version'], '2026-07-28');
        assert.equal(p.headers['mcp-method'], p.body.method);
        assert.equal(p.headers['mcp-session-id'], undefined);
      }
      const calls = weather.seen.filter((p) => p.body.method === 'tools/call');
      assert.equal(calls.length, 1, 'the tool ran once');
      assert.equal(calls[0].headers['mcp-name'], 'forecast');
      assert.equal(calls[0].headers['mcp-param-city'], 'Lisbon');
      assert.deepEqual(weather.gets, [], 'no event stream opened');
      // What the initialize-era server got: the probe (refused), then the handshake, then its tool.
      assert.equal(almanac.methods[0], 'server/discover', almanac.methods.join(', '));
      assert.ok(almanac.methods.includes('initialize') && almanac.methods.includes('notifications/initialized'), almanac.methods.join(', '));
      assert.ok(almanac.methods.indexOf('initialize') < almanac.methods.indexOf('tools/list'), 'the handshake before the tools were listed');
      assert.equal(almanac.methods.filter((m) => m === 'tools/call').length, 1, 'the tool ran once');
      assert.ok(almanac.methods.includes('ping'), almanac.methods.join(', '));
    }));
});
