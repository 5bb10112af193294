/**
 * The chat by keyboard only (#30.3), end to end in the real editor against the local gateway: no mouse
 * click from the first key to the last (page.keyboard only: keys go to whatever has the focus, commands
 * through F1). The key is added, the chat opened, a reply sent and read, a streaming reply stopped, the
 * messages walked, a code block's Copy and Insert at Cursor used; then in the sidebar chat (where Open
 * Chat goes, 280-odd px wide) agent mode switched on, one tool call denied and another approved. After every step the element that has the keyboard (in the webview that
 * has it) is visible: not inside a hidden, aria-hidden, inert or closed element, and not a 1-pixel box.
 * The live region is recorded: a streamed reply is announced once, when it has settled; a waiting
 * approval is announced with its key.
 * Then (mouse and keyboard, as any user) axe-core (test/e2e/axe.ts) over the webviews a11y.e2e.ts does not
 * open: the chat in the sidebar and the Read Aloud player, in the light, dark and both high-contrast themes.
 * Waits on conditions only.
 */
import { after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FrameLocator, Locator } from 'playwright-core';
import { LOCAL_KEYS } from '../localGateway/keys';
import { type Editor, launchEditor, pollUntil, setColorTheme, TIMEOUTS, waitUntil } from './harness';
import { stepWithScreenshot } from './steps';
import { axeViolations, isBlocking } from './axe';
import { keyboardFocusIsVisible } from './focusProbe';

const NOTE = 'notes/note.txt';
const NOTE_TEXT = 'The tide came in over the sand.\n';

describe('[#30.3] the chat by keyboard only: send, stop, walk the messages, use a code block, deny and approve tool calls', () => {
  let editor: Editor;
  let chat: FrameLocator;
  const step = stepWithScreenshot('a11y-kb', () => editor);
  const keys = () => editor.page.keyboard;
  const quick = () => editor.page.locator('.quick-input-widget');
  const quickBox = () => quick().locator('.quick-input-box input');
  /** The quick input closed, or shows something other than `value` (the next step, or the command's own). */
  const quickLeft = async (value: string, what: string): Promise<void> => {
    await pollUntil(async () => ((await quick().isVisible()) ? await quickBox().inputValue().catch(() => '') : undefined), (v) => v !== value, what);
  };

  /** F1, the command's title, Enter: the palette by keyboard (F1 reaches the workbench from a webview too). */
  async function keyCommand(title: string): Promise<void> {
    const exact = new RegExp(`^${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
    for (let attempt = 0; ; attempt++) {
      if (!(await quick().isVisible())) await keys().press('F1');
      try {
        await quickBox().waitFor({ state: 'visible', timeout: 15_000 });
        await keys().press('Control+A');
        await keys().insertText(`>${title}`);
        const first = quick().locator('.monaco-list-row .label-name', { hasText: exact }).first();
        await first.waitFor({ state: 'visible', timeout: TIMEOUTS.ui });
        // A recently used command with a longer title may be listed first: Down to the exact one.
        const focusedRow = quick().locator('.monaco-list-row.focused .label-name', { hasText: exact });
        for (let i = 0; i < 10 && !(await focusedRow.isVisible()); i++) await keys().press('ArrowDown');
        await focusedRow.first().waitFor({ state: 'visible', timeout: TIMEOUTS.ui });
        await keys().press('Enter');
        await quickLeft(`>${title}`, `the palette to take ${title}`);
        return;
      } catch (e) {
        if (attempt >= 2) throw e;
        await keys().press('Escape');
      }
    }
  }

  /** Types into the open input box or quick pick and presses Enter once `row` (if given) is the focused row. */
  async function answer(text: string, row?: RegExp): Promise<void> {
    await quickBox().waitFor({ state: 'visible', timeout: TIMEOUTS.workbench });
    await keys().insertText(text);
    if (row) await quick().locator('.monaco-list-row.focused', { hasText: row }).first().waitFor({ state: 'visible', timeout: TIMEOUTS.ui });
    else await pollUntil(() => quickBox().inputValue(), (v) => v === text, 'the typed value');
    await keys().press('Enter');
    await quickLeft(text, 'the input box to take the value');
  }

  const focusIsVisible = (what: string): Promise<string> => keyboardFocusIsVisible(editor.page, what);

  /** What has the keyboard in the chat: an id, an approval card, a message, or a button's action. */
  const whatHasFocus = new Function(
    'body',
    'const a = body.ownerDocument.activeElement; if (!a || a === body) return "body"; if (a.id) return "#" + a.id; ' +
      'if (a.classList.contains("tool-approval")) return "approval-card"; if (a.matches("article.message")) return "message:" + (a.classList.contains("user") ? "user" : "assistant"); ' +
      'const g = a.closest(".code-block"); return (a.getAttribute("data-action") || a.tagName) + (g ? "@" + g.getAttribute("aria-label") : "");',
  ) as (body: unknown) => string;
  const focused = (): Promise<string> => chat.locator('body').evaluate(whatHasFocus);

  /** Records every text the chat's live region is given, from now on. */
  const RECORD_LIVE = new Function(
    'body',
    `const doc = body.ownerDocument; const live = doc.getElementById('live'); doc.defaultView.__live = [];
    if (doc.defaultView.__liveObserver) doc.defaultView.__liveObserver.disconnect();
    const o = new MutationObserver(() => doc.defaultView.__live.push(live.textContent));
    o.observe(live, { childList: true, characterData: true, subtree: true });
    doc.defaultView.__liveObserver = o; return true;`,
  ) as (body: unknown) => boolean;
  const LIVE_SO_FAR = new Function('body', 'return body.ownerDocument.defaultView.__live || [];') as (body: unknown) => string[];
  const recordLive = (): Promise<boolean> => chat.locator('body').evaluate(RECORD_LIVE);
  const liveSoFar = (): Promise<string[]> => chat.locator('body').evaluate(LIVE_SO_FAR);

  async function abilityRuns(): Promise<number> {
    const r = await fetch(`${editor.gatewayUrl}/__control/events?type=mcp-dispatch`);
    const body = (await r.json()) as { events?: Array<Record<string, unknown>> } | Array<Record<string, unknown>>;
    const events = Array.isArray(body) ? body : (body.events ?? []);
    return events.filter((e) => e.method === 'tools/call' && e.tool === 'run_site_ability').length;
  }

  const replies = (): Locator => chat.locator('article.message.assistant');
  const finished = (): Locator => chat.locator('article.message.assistant:is(.complete, .incomplete, .error)');

  before(async () => {
    editor = await launchEditor({ name: 'a11y-keyboard', workspaceFiles: { [NOTE]: NOTE_TEXT, 'posts/post.md': '# A post\n\nHello.\n' } });
  });
  after(async () => {
    await editor?.close();
  });

  step('[#30.3] by keyboard: add the key and open the chat; the keyboard is in the message box', async () => {
    await keyCommand('AI Gateway: Add API Key');
    await quick().locator('.quick-input-title', { hasText: /Add API Key \(1\/2\)/ }).waitFor({ state: 'visible', timeout: TIMEOUTS.workbench });
    await answer('work');
    await quick().locator('.quick-input-title', { hasText: /Add API Key \(2\/2\)/ }).waitFor({ state: 'visible' });
    await answer(LOCAL_KEYS.userFull);
    await editor.waitForStatusBarItem(/work \(User\)/);
    // The note first (Quick Open by keyboard): it is the document a code block is inserted into.
    await keys().press('Control+P');
    await answer(NOTE, /note\.txt/);
    await editor.page.locator('.tab.active[data-resource-name="note.txt"]').waitFor({ state: 'visible' });
    await keyCommand('AI Gateway: Open Chat in Editor');
    chat = await editor.chatTab();
    await chat.locator('#input').waitFor({ state: 'visible' });
    await pollUntil(focused, (f) => f === '#input', 'the keyboard in the message box');
    await focusIsVisible('the chat opened');
  });

  step('[#30.3] by keyboard: send; the streamed reply is announced once, when it has settled, not as it streams', async () => {
    await recordLive();
    await keys().type('[[slow]] Show me a code block.');
    await keys().press('Enter');
    const streaming = chat.locator('article.message.assistant.streaming .body', { hasText: 'You said' });
    await streaming.waitFor({ state: 'attached', timeout: TIMEOUTS.ui });
    await focusIsVisible('sent');
    await finished().first().waitFor({ state: 'attached', timeout: TIMEOUTS.notification });
    await chat.locator('#live', { hasText: /^Response complete\./ }).waitFor({ state: 'attached' });
    const said = (await liveSoFar()).filter((t) => t.trim() !== '');
    assert.equal(said.filter((t) => /You said/.test(t)).length, 1, `the reply's text was announced once: ${JSON.stringify(said)}`);
    assert.match(said.at(-1) ?? '', /^Response complete\. You said/);
    assert.ok(!said.slice(0, -1).some((t) => /You said|console\.log/.test(t)), `nothing of the reply was announced while it streamed: ${JSON.stringify(said)}`);
    assert.equal(await focused(), '#input', 'the keyboard stayed in the message box');
    await editor.screenshot('a11y-kb-sent');
  });

  step('[#30.3] by keyboard: Escape stops a streaming reply; the stop is announced', async () => {
    await keys().type('[[slow]] a reply to stop');
    await keys().press('Enter');
    await chat.locator('article.message.assistant.streaming .body', { hasText: 'You said' }).waitFor({ state: 'attached', timeout: TIMEOUTS.ui });
    await keys().press('Escape');
    await chat.locator('article.message.assistant.incomplete .stopped-note').last().waitFor({ state: 'attached', timeout: TIMEOUTS.ui });
    await chat.locator('#live', { hasText: /^Stopped\./ }).waitFor({ state: 'attached' });
    assert.equal(await focused(), '#input');
    await focusIsVisible('stopped');
    await editor.screenshot('a11y-kb-stopped');
  });

  step('[#30.3] by keyboard: walk the messages, Tab to a code block\'s Copy and Insert at Cursor; Insert writes into the note', async () => {
    await keys().press('Control+ArrowUp');
    await pollUntil(focused, (f) => f === 'message:assistant', 'the last message');
    await focusIsVisible('the last message');
    await keys().press('ArrowUp');
    await pollUntil(focused, (f) => f === 'message:user', 'the message before it');
    await keys().press('ArrowUp');
    await pollUntil(focused, (f) => f === 'message:assistant', 'the first reply');
    const first = replies().first();
    assert.equal(await first.evaluate((a) => (a as unknown as { ownerDocument: { activeElement: unknown } }).ownerDocument.activeElement === a), true, 'the first reply has the keyboard');
    await keys().press('Home');
    await pollUntil(focused, (f) => f === 'message:user', 'Home: the first message');
    await keys().press('End');
    await pollUntil(focused, (f) => f === 'message:assistant', 'End: the last message');
    await keys().press('Home');
    await keys().press('ArrowDown');
    await pollUntil(focused, (f) => f === 'message:assistant', 'the first reply again');
    // Tab from the reply reaches its TypeScript code block's actions (the open note, attached to the
    // message, is quoted in a block before it); every stop on the way is visible.
    const stops: string[] = [];
    for (let i = 0; i < 30 && stops.at(-1) !== 'copyCode@Code block, TypeScript'; i++) {
      await keys().press('Tab');
      stops.push(await focused());
      await focusIsVisible(`Tab ${i + 1} in the first reply (${stops.join(' → ')})`);
    }
    assert.equal(stops.at(-1), 'copyCode@Code block, TypeScript', `Tab reached the code block's Copy: ${stops.join(' → ')}`);
    // Walking the messages started no edit: Ctrl+Up in the empty message box only moved the keyboard.
    assert.equal(await chat.locator('#input').inputValue(), '', 'the message box is still empty');
    assert.equal(await chat.locator('#edit-banner').isHidden(), true, 'not editing the last message');
    await keys().press('Enter');
    await editor.page.locator('#workbench\\.parts\\.statusbar', { hasText: 'Copied to clipboard' }).waitFor({ state: 'visible', timeout: TIMEOUTS.ui });
    await chat.locator('#live', { hasText: /^Copied to clipboard\.$/ }).waitFor({ state: 'attached', timeout: TIMEOUTS.ui });
    for (let i = 0; i < 5 && (await focused()) !== 'insertCode@Code block, TypeScript'; i++) {
      await keys().press('Tab');
      await focusIsVisible('Tab to Insert at Cursor');
    }
    assert.equal(await focused(), 'insertCode@Code block, TypeScript');
    await editor.screenshot('a11y-kb-code-actions');
    await keys().press('Enter');
    // The code goes in at the note's cursor and the note takes the keyboard: Ctrl+S saves it.
    await editor.page.locator('.monaco-editor .view-lines', { hasText: 'console.log(echo.length);' }).first().waitFor({ state: 'visible', timeout: TIMEOUTS.ui });
    await pollUntil(() => editor.statusBarText(), (t) => /Ln \d+, Col \d+/.test(t), 'the note has the keyboard');
    await keys().press('Control+S');
    await waitUntil(() => (readFileSync(join(editor.workspace, NOTE), 'utf8').includes('console.log(echo.length);') ? true : undefined), { what: 'the code block in the saved note' });
    assert.match(readFileSync(join(editor.workspace, NOTE), 'utf8'), /const echo = .*;\nconsole\.log\(echo\.length\);/);
  });

  step('[#30.3] by keyboard: agent mode on; a waiting approval is announced; Ctrl+Shift+Enter, Tab, Enter denies one tool call', async () => {
    // Open Chat: the chat in the sidebar (narrow), with the keyboard in its message box.
    await keyCommand('AI Gateway: Open Chat');
    chat = await editor.webviewFrame(/^Chat/);
    await pollUntil(focused, (f) => f === '#input', 'the keyboard in the sidebar chat\'s message box');
    // Tab from the message box enters the toolbar on the model button.
    await keys().press('Tab');
    await pollUntil(focused, (f) => f === '#model', 'the model button');
    await keys().press('Enter');
    await answer('openai/gpt-4.1', /GPT-4\.1/);
    await chat.locator('#model .model-name', { hasText: /^GPT-4\.1$/ }).waitFor({ state: 'attached' });
    await pollUntil(focused, (f) => f === '#model', 'the keyboard back on the model button');
    await keys().press('ArrowRight');
    await pollUntil(focused, (f) => f === '#agent-toggle', 'the agent mode switch');
    await keys().press('Space');
    await chat.locator('#agent-toggle[aria-pressed="true"]').waitFor({ state: 'attached' });
    await chat.locator('#agent-tools', { hasText: /^\d+ tools$/ }).waitFor({ state: 'visible', timeout: TIMEOUTS.ui });
    await focusIsVisible('agent mode on');
    await keys().press('Shift+Tab');
    await pollUntil(focused, (f) => f === '#input', 'Shift+Tab: the message box');

    const runsBefore = await abilityRuns();
    const done = await finished().count();
    await keys().insertText('Publish a post. [[tool:run_site_ability {"site_id":"site_blog","ability":"core/create-post","input":{"title":"No"}}]]');
    await keys().press('Enter');
    const waiting = replies().last().locator('.tool-call[data-status="awaiting-approval"]');
    await waiting.waitFor({ state: 'visible', timeout: TIMEOUTS.ui });
    await chat.locator('#live', { hasText: /run_site_ability is waiting for your approval\. Press Ctrl\+Shift\+Enter to go to it\./ }).waitFor({ state: 'attached' });
    assert.equal(await focused(), '#input', 'the approval did not take the keyboard');
    await keys().press('Control+Shift+Enter');
    await pollUntil(focused, (f) => f === 'approval-card', 'the approval card');
    await focusIsVisible('the approval card');
    await keys().press('Tab');
    await pollUntil(focused, (f) => f === 'denyTool', 'Deny');
    await focusIsVisible('Deny');
    await editor.screenshot('a11y-kb-deny');
    await keys().press('Enter');
    await finished().nth(done).waitFor({ state: 'attached', timeout: TIMEOUTS.ui });
    const denied = replies().last().locator('.tool-call', { hasText: 'run_site_ability' }).first();
    await pollUntil(() => denied.getAttribute('data-status'), (s) => s === 'denied', 'the tool call denied');
    assert.match(await denied.innerText(), /Denied\./);
    assert.equal(await abilityRuns(), runsBefore, 'the denied call never reached the gateway');
    await pollUntil(focused, (f) => f === '#input', 'the keyboard back in the message box');
    await focusIsVisible('denied');
  });

  step('[#30.3] by keyboard: Ctrl+Shift+Enter, Tab, Tab, Enter approves the next one; it runs once', async () => {
    const runsBefore = await abilityRuns();
    const done = await finished().count();
    await keys().insertText('Publish a post. [[tool:run_site_ability {"site_id":"site_blog","ability":"core/create-post","input":{"title":"Yes"}}]]');
    await keys().press('Enter');
    const waiting = replies().last().locator('.tool-call[data-status="awaiting-approval"]');
    await waiting.waitFor({ state: 'visible', timeout: TIMEOUTS.ui });
    await keys().press('Control+Shift+Enter');
    await pollUntil(focused, (f) => f === 'approval-card', 'the approval card');
    await keys().press('Tab');
    await pollUntil(focused, (f) => f === 'denyTool', 'Deny first');
    await keys().press('Tab');
    await pollUntil(focused, (f) => f === 'approveTool', 'then Approve');
    await focusIsVisible('Approve');
    await keys().press('Enter');
    await finished().nth(done).waitFor({ state: 'attached', timeout: TIMEOUTS.ui });
    await replies().last().locator('.tool-call[data-status="done"]', { hasText: 'run_site_ability' }).waitFor({ state: 'attached', timeout: TIMEOUTS.ui });
    await waitUntil(async () => ((await abilityRuns()) === runsBefore + 1 ? true : undefined), { what: 'the ability run once' });
    await pollUntil(focused, (f) => f === '#input', 'the keyboard back in the message box');
    await focusIsVisible('approved');
    await editor.screenshot('a11y-kb-approved');
  });

  step('[#30.3] axe: the sidebar chat and the Read Aloud player have no serious or critical violation in light, dark and both high-contrast themes', async () => {
    await editor.clearNotifications();
    // Read Aloud: the note's line selected, a voice, the cost confirmed.
    await editor.openFile(NOTE);
    // The note's editor gets the keyboard (a click can land while the chat still holds it), then Select All;
    // the status bar says the selection is there before the command runs.
    await editor.runCommand('View: Focus Active Editor Group');
    await editor.page.keyboard.press('Control+A');
    await editor.page.locator('.statusbar-item', { hasText: /selected/ }).first().waitFor({ state: 'visible', timeout: TIMEOUTS.ui });
    await editor.runCommand('AI Gateway: Read Selection Aloud');
    await editor.page.locator('.quick-input-widget .monaco-list-row').first().waitFor({ state: 'visible', timeout: TIMEOUTS.notification });
    await editor.page.locator('.quick-input-widget .quick-input-box input').press('Enter');
    const dialog = editor.page.locator('.monaco-dialog-box');
    await dialog.waitFor({ state: 'visible', timeout: TIMEOUTS.notification });
    await dialog.getByRole('button', { name: 'Send', exact: true }).click();
    const player = await editor.webviewFrame('Read Aloud', { timeout: TIMEOUTS.notification });
    await player.locator('audio#player').waitFor({ state: 'attached', timeout: TIMEOUTS.notification });
    // The chat in the sidebar, with a reply in it.
    await editor.showOnlySidebarView('Chat');
    const side = await editor.webviewFrame(/^Chat/);
    await side.locator('#input').waitFor({ state: 'visible', timeout: TIMEOUTS.ui });
    await side.locator('#input').fill('A reply to check in the sidebar.');
    await side.locator('#input').press('Enter');
    await side.locator('article.message.assistant.complete').first().waitFor({ state: 'attached', timeout: TIMEOUTS.notification });

    const blocking: string[] = [];
    for (const theme of ['Light Modern', 'Dark Modern', 'Dark High Contrast', 'Light High Contrast']) {
      await setColorTheme(editor, theme);
      for (const [name, frame] of [
        ['Read Aloud', await editor.webviewFrame('Read Aloud')],
        ['sidebar chat', await editor.webviewFrame(/^Chat/)],
      ] as const) {
        for (const v of (await axeViolations(frame)).filter(isBlocking)) blocking.push(`${theme} · ${name}: ${v.impact} ${v.id} (${v.help}) at ${v.nodes.join(', ')}: ${v.summary ?? ''}`);
      }
      await editor.screenshot(`a11y-more-${theme.toLowerCase().replace(/ /g, '-')}`);
    }
    assert.deepEqual(blocking, []);
  });
});
