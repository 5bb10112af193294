/**
 * Issue 33, in the real editor: a model the catalog lists with `messages` but not `chat`
 * (anthropic/claude-sonnet-4 in the local catalog) is chosen in the chat and answers, with its cost;
 * the same model answers in VS Code's chat through the extension's language model provider (driven by
 * the test-only probe extension, test/e2e/lmProbe, as any other extension would), a tool call and its
 * result included. The local gateway's event log shows every turn went to POST /v1/messages.
 * Rewrite Selection with a messages-only default model goes the same route (issue 39, item 8): proven
 * in the unit tier (test/unit/glue/content/rewriteMessagesRoute.test.ts, #40.6), it needs no workbench.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe } from 'node:test';
import type { FrameLocator } from 'playwright-core';
import { MESSAGES_SUMMARY_MODEL } from '../localGateway/extraModels';
import { LOCAL_KEYS } from '../localGateway/keys';
import { type Editor, launchEditor, TIMEOUTS } from './harness';
import { stepWithScreenshot } from './steps';

const MODEL = 'anthropic/claude-sonnet-4';
/** A messages-only model that also does summaries: the default model of the content commands (Rewrite Selection). */
const REWRITE_MODEL = MESSAGES_SUMMARY_MODEL.id;
const POST = 'posts/note.md';
const POST_TEXT = 'A short note that says hello to the reader.';

/** Exact credits as the extension writes them (1 credit = 1e9 nanocredits, trailing zeros trimmed), worked out here on purpose. */
function credits(nano: bigint): string {
  const int = nano / 1_000_000_000n;
  const frac = (nano % 1_000_000_000n).toString().padStart(9, '0').replace(/0+$/, '');
  const n = `${int}${frac ? `.${frac}` : ''}`;
  return `${n} ${n === '1' ? 'credit' : 'credits'}`;
}

/** Polls for a file the probe writes (a condition, not a delay). */
async function waitForFile(path: string, timeoutMs: number): Promise<string> {
  const until = Date.now() + timeoutMs;
  while (!existsSync(path)) {
    if (Date.now() > until) throw new Error(`${path} was not written within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return readFileSync(path, 'utf8');
}

describe('a messages-only model in the chat and in VS Code chat', () => {
  let editor: Editor;
  let chat: FrameLocator;
  const step = stepWithScreenshot('messages', () => editor);

  before(async () => {
    editor = await launchEditor({
      name: 'messages',
      gateway: {
        chunkDelayMs: 0,
        extraModels: [MESSAGES_SUMMARY_MODEL],
      },
      workspaceFiles: { [POST]: POST_TEXT },
      settings: { 'aiGateway.defaultModels.summary': REWRITE_MODEL },
    });
  });

  after(async () => {
    await editor?.close();
  });

  step('[#33.3] [#33.2] chosen in the chat, the messages-only model answers through POST /v1/messages, with its exact cost', async () => {
    const gw = editor.gateway;
    assert.ok(gw, 'local gateway');
    await editor.addKey('work', LOCAL_KEYS.userFull);
    await editor.waitForStatusBarItem(/work \(User\)/);
    await editor.clearNotifications();
    await editor.runCommand('AI Gateway: Open Chat in Editor');
    chat = await editor.chatTab();
    await chat.locator('#input').waitFor({ state: 'visible' });
    // The model list offers it: picked through the toolbar's model button, as a user does.
    await chat.locator('#model').click();
    await editor.page.locator('.quick-input-widget .quick-input-box input').fill(MODEL);
    await editor.pickQuickPickItem(/Claude Sonnet 4(?!\.)/);
    await chat.locator('#model .model-name', { hasText: /^Claude Sonnet 4$/ }).waitFor({ state: 'attached' });
    gw.events.clear();
    await chat.locator('#input').fill('Hello from a messages-only model');
    await chat.locator('#input').press('Enter');
    const reply = chat.locator('article.message.assistant.complete').last();
    await reply.waitFor({ state: 'attached', timeout: TIMEOUTS.ui });
    assert.match((await reply.locator('.body').textContent()) ?? '', /You said: "Hello from a messages-only model"[\s\S]*Claude Sonnet 4[\s\S]*Done ✓/);
    const sent = gw.events.list('messages-request');
    assert.equal(sent.length, 1, 'one request on the messages route');
    assert.equal(sent[0]?.model, MODEL);
    assert.equal(sent[0]?.stream, true);
    assert.equal(gw.events.list('chat-request').length, 0, 'nothing went to chat completions');
    // The cost the reply shows is the gateway's own bill for it, to the nanocredit.
    const billed = gw.events.list('billed').filter((e) => e.model === MODEL);
    assert.equal(billed.length, 1);
    const usage = (await reply.locator('.usage').textContent()) ?? '';
    assert.match(usage, /prompt .*completion tokens/);
    assert.ok(usage.includes(credits(BigInt(String(billed[0]?.credits_nano)))), `${usage} shows ${credits(BigInt(String(billed[0]?.credits_nano)))}`);
    await editor.screenshot('messages-chat-reply');
  });

  step("[#33.3] the same model answers in VS Code's chat through the language model provider, a tool round trip included", async () => {
    const gw = editor.gateway;
    assert.ok(gw, 'local gateway');
    gw.events.clear();
    await editor.runCommand('AI Gateway Probe: Ask the Messages-Only Model');
    const results = JSON.parse(await waitForFile(join(editor.workspace, 'lm-probe-messages.json'), TIMEOUTS.workbench)) as Record<string, { ok: boolean; value?: unknown; error?: unknown }>;
    assert.ok(results.model?.ok, JSON.stringify(results.model?.error));
    assert.equal((results.model?.value as { id?: string }).id, MODEL);
    assert.ok(results.text?.ok, JSON.stringify(results.text?.error));
    assert.match((results.text?.value as { text: string }).text, /^You said: "Hello from VS Code chat"[\s\S]*Done ✓ — réponse 😊$/);
    assert.ok(results.toolCall?.ok, JSON.stringify(results.toolCall?.error));
    const tc = results.toolCall?.value as { first: { calls: Array<{ name: string; input: unknown }> }; second?: { text: string } };
    assert.deepEqual(tc.first.calls.map((c) => [c.name, c.input]), [['get_weather', { city: 'Bergen' }]]);
    assert.equal(tc.second?.text, 'Tool results:\n- get_weather: rain, 12 C');
    const sent = gw.events.list('messages-request');
    assert.equal(sent.length, 3, 'the text request, the tool call and the follow-up, all on the messages route');
    assert.deepEqual(sent.map((e) => e.toolCount), [undefined, 1, 1]);
    assert.equal(gw.events.list('chat-request').length, 0);
  });

  step("[#33.3] VS Code's Language Models list shows the messages-only model with its rates", async () => {
    await editor.runCommand('Chat: Manage Language Models');
    const page = editor.page;
    await editor.expectVisible(page.locator('.monaco-workbench').getByText('Language Models', { exact: true }).first(), 'the Language Models editor');
    const maximize = page.getByRole('button', { name: /maximi[sz]e/i });
    if ((await maximize.count()) > 0) await maximize.first().click();
    const row = page.locator('.monaco-list-row', { hasText: /Claude Sonnet 4(?!\.)/ }).first();
    await editor.expectVisible(row, 'the Claude Sonnet 4 row', { timeout: TIMEOUTS.ui });
    await editor.expectVisible(row.getByText(/^In: /), 'its input rate');
    const cells = (await row.locator('.model-cost-cell').allTextContents()).filter((c) => c !== '');
    await editor.screenshot('messages-vscode-models');
    assert.ok(cells.includes('In: 3') && cells.includes('Out: 15'), JSON.stringify(cells));
  });
});
