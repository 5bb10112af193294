/**
 * Issue 29 items 4, 6, 7, 8 and 13 in the real editor (code-server + the packaged VSIX + the local
 * gateway), in a sidebar chat 280 px wide: the open file is offered as an implicit attachment; `#`
 * completes a workspace file into a chip with its size and cost, from the keyboard, announced; the
 * implicit file removed is not sent; `/summary` runs the summary command on the editor and `/new`
 * starts a conversation; a stopped reply shows quietly as stopped with its (estimated) cost;
 * Regenerate keeps both versions to flip between; the model picker is grouped by provider; two chat
 * tabs carry their conversations' titles. Screenshots in Light Modern and Dark Modern. The steps
 * build on each other (one editor for the file); every wait is on a condition.
 */
import { after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import type { FrameLocator, Locator } from 'playwright-core';
import { LOCAL_KEYS } from '../localGateway/keys';
import { join } from 'node:path';
import { ARTIFACTS_DIR, assertLayout, type Editor, launchEditor, layoutProbe, pollUntil, setColorTheme, setSidebarWidth, TIMEOUTS } from './harness';
import { stepWithScreenshot } from './steps';

const TRIP = `# A trip to Rome

Rome in spring is lovely: the light, the food, the long walks.

We walked from the Colosseum to the Pantheon and ate gelato twice.
`;
const GREETING = `export function greet(name: string): string {
  return \`Hello, \${name}!\`;
}
`;

const activeElementId = new Function('el', 'const a = el.ownerDocument.activeElement; return a ? a.id || a.tagName : "";') as (el: unknown) => string;
/** What an icon draws: its ::before content (a codicon's glyph, or "none" without a rule) and its width. */
const glyphOf = new Function('el', 'const s = el.ownerDocument.defaultView.getComputedStyle(el, "::before"); return { content: s.content, width: el.getBoundingClientRect().width };') as (el: unknown) => { content: string; width: number };

describe('context by typing, a quiet stop, versions and tab titles in the chat', () => {
  let editor: Editor;
  let side: FrameLocator;
  const step = stepWithScreenshot('chat-composer', () => editor);
  const finished = (frame: FrameLocator): Locator => frame.locator('article.message.assistant:is(.complete, .incomplete, .error)');
  const live = (frame: FrameLocator) => frame.locator('#live');

  /** Types like a user (key by key), so the completion sees every change of the text and the caret. */
  async function typeInto(frame: FrameLocator, text: string): Promise<void> {
    await frame.locator('#input').focus();
    await editor.page.keyboard.type(text, { delay: 20 });
    // Every key reached the message box (a focus taken away mid-way would type the rest elsewhere).
    await pollUntil(() => frame.locator('#input').inputValue(), (v) => v.endsWith(text), `"${text}" typed into the message box`);
  }

  /** Opens a file and waits until its text editor has the keyboard (Quick Open gives it the focus a moment after the tab shows). */
  async function openFileFocused(path: string): Promise<void> {
    await editor.openFile(path);
    await editor.expectVisible(editor.page.locator('.editor-group-container.active .monaco-editor.focused').first(), `${path} with the keyboard`);
  }

  before(async () => {
    editor = await launchEditor({ name: 'chat-composer', viewport: { width: 1400, height: 860 }, workspaceFiles: { 'posts/trip.md': TRIP, 'src/greeting.ts': GREETING } });
  });

  after(async () => {
    await editor?.close();
  });

  step('[#29.4] the open file is offered as an implicit attachment chip in a 280 px sidebar chat', async () => {
    await editor.addKey('work', LOCAL_KEYS.userFull);
    await editor.waitForStatusBarItem(/work \(User\)/);
    await editor.clearNotifications();
    await openFileFocused('posts/trip.md');
    await editor.openAiGatewaySidebar();
    side = await editor.webviewFrame(/^Chat/);
    await side.locator('#input').waitFor({ state: 'visible' });
    await setSidebarWidth(editor.page, 280);
    const now = await pollUntil(() => side.locator('body').evaluate(layoutProbe), (r) => Math.abs(r.width - 280) <= 12, 'the sidebar chat to be about 280 px wide');
    await setSidebarWidth(editor.page, 280 + (280 - now.width));
    const implicit = side.locator('#chips .chip.implicit', { hasText: 'posts/trip.md' });
    await implicit.waitFor({ state: 'visible' });
    assert.match((await implicit.textContent()) ?? '', /posts\/trip\.md \(\d+ chars(, ≈[\d.]+ credits?)?\)/);
  });

  step('[#41.1] the chat view shown once, then the Explorer: Ctrl+Shift+Alt+K brings the chat back with the keyboard in its message box', async () => {
    const sidebarTitle = (name: RegExp) => editor.page.locator('#workbench\\.parts\\.sidebar .composite.title').filter({ hasText: name }).first();
    await editor.runCommand('View: Show Explorer');
    await sidebarTitle(/Explorer/i).waitFor({ state: 'visible' });
    await sidebarTitle(/AI Gateway/i).waitFor({ state: 'hidden' });
    // The keyboard is in the Explorer (the palette closed onto it); the key is the user's way back.
    await editor.page.keyboard.press('Control+Shift+Alt+K');
    await sidebarTitle(/AI Gateway/i).waitFor({ state: 'visible' });
    side = await editor.webviewFrame(/^Chat/);
    await pollUntil(() => side.locator('body').evaluate(activeElementId), (f) => f === 'input', 'the keyboard in the chat\'s message box');
    // What is typed next goes into the message box.
    await editor.page.keyboard.type('back again');
    assert.equal(await side.locator('#input').inputValue(), 'back again');
    await side.locator('#input').fill('');
    await editor.screenshot('chat-composer-open-chat-key');
  });

  step('[#29.4] `#` lists workspace files; arrows and Enter add one as a chip with its size and estimated cost, announced', async () => {
    await typeInto(side, '#greet');
    const list = side.locator('#completion[role="listbox"]');
    const option = list.locator('[role="option"]', { hasText: 'greeting.ts' }).first();
    await option.waitFor({ state: 'visible' });
    assert.equal(await side.locator('#input').getAttribute('role'), 'combobox');
    assert.equal(await side.locator('#input').getAttribute('aria-expanded'), 'true');
    await pollUntil(() => live(side).textContent(), (t) => /suggestions?\. Up and Down/.test(t ?? ''), 'the suggestions to be announced');
    await editor.screenshot('chat-composer-hash-completion', { docs: true });
    // The first option is active; Down then Up comes back to it (keyboard only).
    const active = () => side.locator('#input').getAttribute('aria-activedescendant');
    const first = await active();
    assert.equal(await side.locator(`#${first}`).getAttribute('aria-selected'), 'true');
    await editor.page.keyboard.press('ArrowDown');
    await editor.page.keyboard.press('ArrowUp');
    assert.equal(await active(), first);
    assert.match((await side.locator(`#${first}`).textContent()) ?? '', /greeting\.ts/);
    await editor.page.keyboard.press('Enter');
    const chip = side.locator('#chips .chip:not(.implicit)', { hasText: 'src/greeting.ts' });
    await chip.waitFor({ state: 'visible' });
    assert.match((await chip.textContent()) ?? '', /src\/greeting\.ts \(\d+ chars, ≈[\d.]+ credits?\)/);
    await list.waitFor({ state: 'hidden' });
    assert.equal(await side.locator('#input').inputValue(), '', 'the #query typed is taken out of the message');
    assert.match((await live(side).textContent()) ?? '', /Added greeting\.ts/);
  });

  step('[#29.4] the implicit file removed is not sent; the file picked with # is', async () => {
    await side.locator('#chips .chip.implicit button[data-include="false"]').click();
    await side.locator('#chips button.chip.implicit.off', { hasText: '+ posts/trip.md' }).waitFor({ state: 'visible' });
    await editor.screenshot('chat-composer-chips-280');
    const before = await finished(side).count();
    await typeInto(side, 'What does greet do?');
    await editor.page.keyboard.press('Enter');
    await finished(side).nth(before).waitFor({ state: 'attached' });
    // The local gateway quotes the user message it received: the attached file first, then the question.
    const body = (await finished(side).nth(before).locator('.body').textContent()) ?? '';
    assert.match(body, /You said: "Attached file src\/greeting\.ts/);
    assert.doesNotMatch(body, /trip\.md|Rome/);
    assert.equal(await side.locator('article.message.user .chips .chip', { hasText: 'src/greeting.ts' }).count(), 1);
  });

  step('[#29.4] `/` lists the commands; /summary runs the summary command on the editor, /new starts a conversation', async () => {
    await typeInto(side, '/su');
    const option = side.locator('#completion [role="option"]', { hasText: '/summary' });
    await option.waitFor({ state: 'visible' });
    await editor.page.keyboard.press('Tab');
    await editor.waitForNotification(/Summary of .*trip\.md is ready/);
    await editor.clearNotifications();
    assert.equal(await side.locator('#input').inputValue(), '');
    await typeInto(side, '/new');
    await side.locator('#completion [role="option"]', { hasText: '/new' }).waitFor({ state: 'visible' });
    await editor.page.keyboard.press('Enter');
    await side.locator('#empty-state').waitFor({ state: 'visible' });
    assert.equal(await side.locator('article.message').count(), 0);
  });

  step('[#29.6] a stopped reply shows quietly as "Stopped" with the text received and its estimated cost, no error and no Retry', async () => {
    await typeInto(side, '[[slow]] Tell me a long story about Rome');
    await editor.page.keyboard.press('Enter');
    const streaming = side.locator('article.message.assistant.streaming .body');
    await pollUntil(() => streaming.textContent(), (t) => (t ?? '').length > 0, 'the first text of the reply');
    await editor.page.keyboard.press('Escape');
    const stopped = side.locator('article.message.assistant.incomplete');
    await stopped.waitFor({ state: 'attached' });
    await stopped.locator('.stopped-note', { hasText: 'Stopped' }).waitFor({ state: 'visible' });
    assert.equal(await stopped.locator('.error, [role="alert"]').count(), 0, 'no error box');
    assert.equal(await stopped.locator('.badge', { hasText: 'Incomplete' }).count(), 0, 'no Incomplete badge');
    assert.equal(await stopped.locator('button', { hasText: 'Retry' }).count(), 0, 'no Retry button');
    assert.ok(((await stopped.locator('.body').textContent()) ?? '').length > 0, 'the text received is kept');
    assert.match((await stopped.locator('.usage').textContent()) ?? '', /≈[\d.]+ credits? \(estimated\)/);
    assert.match((await live(side).textContent()) ?? '', /Stopped\./);
    await editor.screenshot('chat-composer-stopped-280', { docs: true });
  });

  step('[#29.8] Regenerate keeps the stopped reply as version 1 of 2; ‹ flips back to it from the keyboard', async () => {
    const reply = side.locator('article.message.assistant').last();
    await reply.locator('.message-actions button[aria-label="Regenerate"]').focus();
    await editor.page.keyboard.press('Enter');
    const complete = side.locator('article.message.assistant.complete').last();
    await complete.locator('.version-switch', { hasText: '2/2' }).waitFor({ state: 'visible' });
    assert.equal(await side.locator('article.message.assistant').count(), 1, 'one reply, with two versions');
    const prev = complete.locator('.version-switch button[data-dir="prev"]');
    // [#41.6] Both arrows draw their codicon (‹ had no glyph rule: an empty button), in light and dark.
    assert.equal(await prev.getAttribute('aria-label'), 'Previous version (1 of 2)');
    assert.equal(await complete.locator('.version-switch button[data-dir="next"]').getAttribute('aria-label'), 'Next version: none, this is the last of 2');
    for (const [dir, glyph] of [['prev', '\ueab5'], ['next', '\ueab6']] as const) {
      const drawn = await complete.locator(`.version-switch button[data-dir="${dir}"] .codicon`).evaluate(glyphOf);
      assert.equal(drawn.content, JSON.stringify(glyph), `the ${dir} arrow's glyph`);
      assert.ok(drawn.width >= 12, `the ${dir} arrow is drawn ${drawn.width} px wide`);
    }
    for (const theme of ['Light Modern', 'Dark Modern']) {
      await setColorTheme(editor, theme);
      const name = `chat-composer-versions-${theme.toLowerCase().replace(/\s+/g, '-')}`;
      await complete.locator('.message-footer').screenshot({ path: join(ARTIFACTS_DIR, `${name}-footer.png`), animations: 'disabled' });
      await editor.screenshot(name);
    }
    await prev.focus();
    await editor.page.keyboard.press('Enter');
    const flipped = side.locator('article.message.assistant').last();
    await flipped.locator('.version-switch', { hasText: '1/2' }).waitFor({ state: 'visible' });
    await flipped.locator('.stopped-note').waitFor({ state: 'visible' });
    await pollUntil(() => live(side).textContent(), (t) => /Version 1 of 2/.test(t ?? ''), 'the version to be announced');
    await editor.screenshot('chat-composer-versions-280');
  });

  step('[#29.7] the model picker groups models by provider name', async () => {
    await side.locator('#model').click();
    const widget = editor.page.locator('.quick-input-widget');
    await widget.locator('.quick-input-list .monaco-list-row').first().waitFor({ state: 'visible' });
    // The list is virtualised: the groups in view are read (provider names as people write them).
    const text = (await widget.locator('.quick-input-list .monaco-list-rows').textContent()) ?? '';
    assert.match(text, /Anthropic/);
    assert.match(text, /DeepSeek/);
    const groups = (await widget.locator('.quick-input-list .quick-input-list-separator').allTextContents()).map((t) => t.trim()).filter(Boolean);
    assert.ok(groups.includes('Anthropic') && groups.includes('DeepSeek'), `provider groups by name: ${JSON.stringify(groups)}`);
    assert.ok(!groups.some((g) => /^(openai|google|gemma|anthropic|deepseek|kimi|glm|minimax|qwen)$/.test(g)), `no lowercase provider ids as group names: ${JSON.stringify(groups)}`);
    assert.match(text, /tools · vision · reasoning · \d+K context/);
    await editor.screenshot('chat-composer-model-picker', { docs: true });
    await editor.page.keyboard.press('Escape');
    await widget.waitFor({ state: 'hidden' });
  });

  step('[#29.7] two chat tabs carry their conversations titles', async () => {
    // The sidebar's conversation moves to a tab; a second one, started in the sidebar, moves to another.
    await editor.runCommand('AI Gateway: Open Sidebar Chat in Editor');
    const tabs = editor.page.locator('.tabs-container .tab');
    await tabs.filter({ hasText: 'Tell me a long story' }).first().waitFor({ state: 'visible', timeout: TIMEOUTS.workbench });
    side = await editor.webviewFrame(/^Chat/);
    await side.locator('#empty-state').waitFor({ state: 'visible' });
    // The new tab's page may become ready while the user types here: it must not take the keyboard
    // (a late focusInput, #40.8). Enter goes to the sidebar's message box itself, with the text all there.
    await typeInto(side, 'Plan a day in Florence');
    const input = side.locator('#input');
    await pollUntil(() => side.locator('body').evaluate(activeElementId), (f) => f === 'input', 'the keyboard still in the sidebar chat\'s message box');
    assert.equal(await input.inputValue(), 'Plan a day in Florence', 'every key reached the sidebar chat');
    await input.press('Enter');
    await finished(side).first().waitFor({ state: 'attached' });
    await editor.runCommand('AI Gateway: Open Sidebar Chat in Editor');
    await tabs.filter({ hasText: 'Plan a day in Florence' }).first().waitFor({ state: 'visible', timeout: TIMEOUTS.workbench });
    assert.equal(await tabs.filter({ hasText: 'Tell me a long story' }).count(), 1, 'the first tab keeps its own title');
    assert.equal(await tabs.filter({ hasText: 'AI Gateway Chat' }).count(), 0, 'no tab titled "AI Gateway Chat"');
    const florence = await editor.chatTab(/^Plan a day in Florence/);
    await florence.locator('article.message.user', { hasText: 'Plan a day in Florence' }).waitFor({ state: 'visible' });
    await editor.screenshot('chat-composer-two-tabs', { docs: true });
  });

  step('[#29.13] light and dark at 280 px: no sideways overflow, chips and status wrap, code blocks named for screen readers', async () => {
    await editor.runCommand('View: Close All Editors');
    await openFileFocused('posts/trip.md');
    side = await editor.webviewFrame(/^Chat/);
    await typeInto(side, 'Show me some code');
    await editor.page.keyboard.press('Enter');
    await finished(side).last().waitFor({ state: 'attached' });
    for (const theme of ['Light Modern', 'Dark Modern']) {
      await setColorTheme(editor, theme);
      const r = await pollUntil(() => side.locator('body').evaluate(layoutProbe), (x) => Math.abs(x.width - 280) <= 2, `${theme}: the sidebar chat at 280 px`);
      assertLayout(r, `${theme}, sidebar`);
      await editor.screenshot(`chat-composer-${theme.toLowerCase().replace(/\s+/g, '-')}-280`, { docs: true });
    }
    // Every reply of the local gateway has a `ts` block: read as "Code block, TypeScript", not "tsconst echo…".
    const named = finished(side).last().locator('.code-block[role="group"][aria-label="Code block, TypeScript"]');
    await named.first().waitFor({ state: 'attached' });
    assert.equal(await named.first().locator('.code-language').getAttribute('aria-hidden'), 'true');
  });
});
