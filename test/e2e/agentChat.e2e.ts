/**
 * Agent chat end to end in the real editor (code-server + the extension + the local gateway, via
 * harness.ts): the chat tab in agent mode with GPT-4.1 (a `tools` model of the local catalog), whose
 * scripted model calls the gateway's MCP tools on markers in the message.
 *
 *  1. "Which sites can this key see?": the model calls list_account_sites (read-only: no question),
 *     the call block shows the result, the answer quotes it, and the reply shows its rounds and cost.
 *  1b. "What sites do I have?" without markers: the local models' tool-choice rule calls the same tool.
 *  2. A site ability: the approval (site, ability, arguments) waits in the transcript; Approve runs it.
 *  3. ambiguous_outcome: the write is marked outcome unknown; the model's identical repeat waits as a
 *     repeat ("Run Again Anyway"); Deny refuses it and the gateway saw the write once only.
 *  4. An Account key: the ability tools are not offered and the chat says why.
 * The steps build on each other (one editor), in order, and wait on conditions only.
 */
import { after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import type { FrameLocator, Locator } from 'playwright-core';
import { LOCAL_KEYS } from '../localGateway/keys';
import { type Editor, launchEditor, TIMEOUTS, waitUntil } from './harness';
import { stepWithScreenshot } from './steps';

describe('agent chat in VS Code (code-server) with the local gateway', () => {
  let editor: Editor;
  let chat: FrameLocator;
  const step = stepWithScreenshot('agent-chat', () => editor);

  async function gatewayEvents(type: string): Promise<Array<Record<string, unknown>>> {
    const r = await fetch(`${editor.gatewayUrl}/__control/events?type=${encodeURIComponent(type)}`);
    const body = (await r.json()) as unknown;
    return Array.isArray(body) ? (body as Array<Record<string, unknown>>) : ((body as { events?: Array<Record<string, unknown>> }).events ?? []);
  }
  const abilityRuns = async (): Promise<number> => (await gatewayEvents('mcp-dispatch')).filter((e) => e.method === 'tools/call' && e.tool === 'run_site_ability').length;

  const finished = (): Locator => chat.locator('article.message.assistant:is(.complete, .incomplete, .error)');
  const lastReply = (): Locator => chat.locator('article.message.assistant').last();

  async function type(text: string): Promise<number> {
    const before = await finished().count();
    await chat.locator('#input').fill(text);
    await chat.locator('#input').press('Enter');
    return before;
  }

  before(async () => {
    editor = await launchEditor({ name: 'agent-chat' });
  });
  after(async () => {
    await editor?.close();
  });

  step('[G-CAT-3] [G-MCP-6] the model calls list_account_sites and answers from the result', async () => {
    await editor.addKey('work', LOCAL_KEYS.userFull);
    await editor.waitForStatusBarItem(/work \(User\)/);
    await editor.clearNotifications();
    await editor.runCommand('AI Gateway: Open Chat in Editor');
    chat = await editor.chatTab();
    await chat.locator('#input').waitFor({ state: 'visible' });
    await chat.locator('#model').click();
    await editor.page.locator('.quick-input-widget .quick-input-box input').fill('openai/gpt-4.1');
    await editor.pickQuickPickItem(/GPT-4\.1/);
    await chat.locator('#model .model-name', { hasText: /^GPT-4\.1$/ }).waitFor({ state: 'attached' });
    // The switch is offered for this tools model; on, the toolbar counts the gateway's tools.
    await chat.locator('#agent-toggle').click();
    await chat.locator('#agent-toggle[aria-pressed="true"]').waitFor({ state: 'attached' });
    await chat.locator('#agent-tools', { hasText: /^\d+ tools$/ }).waitFor({ state: 'visible', timeout: TIMEOUTS.ui });
    assert.match((await chat.locator('#agent-tools').getAttribute('title')) ?? '', /run_site_ability/);

    const before = await type('Which sites can this key see? [[tool:list_account_sites {}]]');
    await finished().nth(before).waitFor({ state: 'attached', timeout: TIMEOUTS.ui });
    const reply = lastReply();
    const call = reply.locator('.tool-call[data-status="done"]', { hasText: 'list_account_sites' });
    await call.waitFor({ state: 'attached' });
    assert.match((await reply.locator('.body').textContent()) ?? '', /Tool results:[\s\S]*site_blog/);
    // Each round priced; the reply shows the sum and the rounds.
    assert.match((await reply.locator('.usage').textContent()) ?? '', /credits · 2 rounds/);
    assert.equal(await reply.locator('.rounds li').count(), 2);
    await call.locator('summary').click();
    await call.locator('.tool-result', { hasText: 'Team Blog' }).waitFor({ state: 'visible' });
    assert.match((await call.locator('.request-id-button').textContent()) ?? '', /Request \S+/);
    await editor.screenshot('agent-chat-list-sites', { docs: true });
  });

  step('[#41.8] asked plainly, as a user would, "What sites do I have?" calls list_account_sites', async () => {
    const before = await type('What sites do I have?');
    await finished().nth(before).waitFor({ state: 'attached', timeout: TIMEOUTS.ui });
    const reply = lastReply();
    await reply.locator('.tool-call[data-status="done"]', { hasText: 'list_account_sites' }).waitFor({ state: 'attached' });
    assert.match((await reply.locator('.body').textContent()) ?? '', /Tool results:[\s\S]*site_blog/);
    await editor.screenshot('agent-chat-plain-question');
  });

  step('[G-MCP-13] run_site_ability waits for Approve in the transcript, then runs once', async () => {
    const runs = await abilityRuns();
    const before = await type('What is the blog called? [[tool:run_site_ability {"site_id":"site_blog","ability":"core/get-site-info","input":{}}]]');
    const waiting = lastReply().locator('.tool-call[data-status="awaiting-approval"]');
    await waiting.waitFor({ state: 'visible', timeout: TIMEOUTS.ui });
    assert.match((await waiting.locator('.tool-target').textContent()) ?? '', /Site: site_blog · Ability: core\/get-site-info/);
    assert.equal(await abilityRuns(), runs, 'nothing reached the gateway before Approve');
    await editor.screenshot('agent-chat-approval', { docs: true });
    await waiting.getByRole('button', { name: 'Approve' }).click();
    await finished().nth(before).waitFor({ state: 'attached', timeout: TIMEOUTS.ui });
    await lastReply().locator('.tool-call[data-status="done"]', { hasText: 'run_site_ability' }).waitFor({ state: 'attached' });
    assert.match((await lastReply().locator('.body').textContent()) ?? '', /Tool results:[\s\S]*Team Blog/);
    assert.equal(await abilityRuns(), runs + 1);
  });

  step('[G-MCP-13] ambiguous_outcome: the model asks again, the repeat waits as a repeat, Deny refuses it', async () => {
    const runs = await abilityRuns();
    const before = await type('Publish post 7. [[tool-repeat]] [[tool:run_site_ability {"site_id":"site_blog","ability":"demo/flaky-publish","input":{"post_id":7}}]]');
    const first = lastReply().locator('.tool-call[data-status="awaiting-approval"]');
    await first.waitFor({ state: 'visible', timeout: TIMEOUTS.ui });
    await first.getByRole('button', { name: 'Approve' }).click();
    await lastReply().locator('.tool-call[data-status="outcome-unknown"]').waitFor({ state: 'attached', timeout: TIMEOUTS.ui });
    const repeat = lastReply().locator('.tool-call[data-status="awaiting-approval"]');
    await repeat.waitFor({ state: 'visible', timeout: TIMEOUTS.ui });
    assert.match((await repeat.locator('.tool-approval').textContent()) ?? '', /UNKNOWN outcome/);
    await repeat.getByRole('button', { name: 'Run Again Anyway' }).waitFor({ state: 'visible' });
    await editor.screenshot('agent-chat-outcome-unknown', { docs: true });
    await repeat.getByRole('button', { name: 'Deny' }).click();
    await finished().nth(before).waitFor({ state: 'attached', timeout: TIMEOUTS.ui });
    const statuses = await lastReply().locator('.tool-call').evaluateAll((els) => els.map((e) => e.getAttribute('data-status')));
    assert.deepEqual(statuses, ['outcome-unknown', 'denied']);
    await waitUntil(async () => ((await abilityRuns()) === runs + 1 ? true : undefined), { what: 'the gateway to have run the write once' });
    assert.equal(await abilityRuns(), runs + 1, 'the write reached the gateway once only');
  });

  step('[G-MCP-10] with an Account key the ability tools are absent and the chat says why', async () => {
    await editor.addKey('account', LOCAL_KEYS.accountFull);
    await editor.clearNotifications();
    await chat.locator('#agent-note', { hasText: /Account key/ }).waitFor({ state: 'visible', timeout: TIMEOUTS.ui });
    assert.match((await chat.locator('#agent-note').textContent()) ?? '', /User key/);
    await chat.locator('#agent-tools', { hasText: /^\d+ tools$/ }).waitFor({ state: 'visible' });
    const names = (await chat.locator('#agent-tools').getAttribute('title')) ?? '';
    assert.doesNotMatch(names, /run_site_ability|list_site_abilities|search_abilities/);
    assert.match(names, /list_account_sites/);
    await editor.screenshot('agent-chat-account-key', { docs: true });
  });
});
