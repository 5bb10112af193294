/**
 * The chat's look in the real editor (code-server + the packaged VSIX + the local gateway): the
 * sidebar chat at 280 px and a chat tab at 1,200 px side by side, in Light Modern, Dark Modern, Light
 * High Contrast and Dark High Contrast. In each: no sideways overflow, one toolbar line, the tab's
 * column centred at a readable width, the codicon font loaded under the CSP, every toolbar control
 * reachable by keyboard (Tab enters the toolbar, arrows move), message actions shown on focus; the
 * title actions are the view's and the tab's (codicons), not buttons in the webview. Screenshots of
 * each theme go to .e2e-artifacts/chat-look-<theme>.png (light and dark also to docs/screenshots/ with
 * AI_GATEWAY_E2E_DOCS=1). Every wait is on a condition.
 */
import { after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import type { FrameLocator, Locator } from 'playwright-core';
import { LOCAL_KEYS } from '../localGateway/keys';
import { assertLayout, type Editor, focusedControl, hasThemeKind, launchEditor, layoutProbe, opacityOf, pollUntil, setColorTheme, setSidebarWidth, TIMEOUTS } from './harness';
import { stepWithScreenshot } from './steps';

const computedColours = new Function('el', 'const s = el.ownerDocument.defaultView.getComputedStyle(el); return [s.color, s.backgroundColor, s.borderTopColor].join(" | ");') as (el: unknown) => string;
/** Whether the codicon font has loaded in the webview (the extension's own file, allowed by the CSP). */
const iconFontLoaded = new Function('el', 'return el.ownerDocument.fonts.check("16px codicon");') as (el: unknown) => boolean;

describe('the chat looks like VS Code, narrow and wide, in four themes', () => {
  let editor: Editor;
  const step = stepWithScreenshot('chat-look', () => editor);

  async function send(frame: FrameLocator, text: string): Promise<void> {
    const done = (): Locator => frame.locator('article.message.assistant:is(.complete, .incomplete, .error)');
    const before = await done().count();
    await frame.locator('#input').fill(text);
    await frame.locator('#input').press('Enter');
    await done().nth(before).waitFor({ state: 'attached' });
  }

  before(async () => {
    editor = await launchEditor({ name: 'chat-look', viewport: { width: 1530, height: 860 } });
  });

  after(async () => {
    await editor?.close();
  });

  let tab: FrameLocator;
  let side: FrameLocator;

  step('the empty state offers Add API Key without a key, then names the key and the model', async () => {
    // Without a key nothing has activated the extension yet: wait (generously, on a busy machine) for
    // its activity bar entry before opening the sidebar.
    await editor.page
      .locator('#workbench\\.parts\\.activitybar .action-label[aria-label^="AI Gateway"]')
      .first()
      .waitFor({ state: 'visible', timeout: TIMEOUTS.workbench });
    await editor.openAiGatewaySidebar();
    side = await editor.webviewFrame(/^Chat/, { timeout: TIMEOUTS.workbench });
    await side.locator('#add-api-key').waitFor({ state: 'visible', timeout: TIMEOUTS.workbench });
    await editor.addKey('work', LOCAL_KEYS.userFull);
    await editor.waitForStatusBarItem(/work \(User\)/);
    await editor.clearNotifications();
    await side.locator('#empty-state', { hasText: 'API key: work' }).waitFor({ state: 'visible' });
    assert.match((await side.locator('#empty-state').textContent()) ?? '', /Model: \S/);
  });

  step('a conversation moves from the sidebar to a tab (Open in Editor) and both fit their widths', async () => {
    await send(side, 'Hello from the sidebar, with `code` and a_long_unbroken_identifier_that_must_not_push_the_layout_sideways');
    await editor.runCommand('AI Gateway: Open Sidebar Chat in Editor');
    tab = await editor.chatTab();
    await tab.locator('article.message.assistant', { hasText: 'You said: "Hello from the sidebar' }).waitFor({ state: 'attached', timeout: TIMEOUTS.workbench });
    side = await editor.webviewFrame(/^Chat/);
    await side.locator('#empty-state').waitFor({ state: 'visible' }); // the conversation moved to the tab
    await send(side, 'A sidebar question with a_long_unbroken_identifier_that_must_not_push_the_layout_sideways');
    // Sidebar 280 px; the viewport sized so the tab's webview is 1,200 px.
    // The sidebar's own width includes the view pane's border: size it so the webview itself is 280 px.
    await setSidebarWidth(editor.page, 280);
    const sideNow = await pollUntil(() => side.locator('body').evaluate(layoutProbe), (r) => Math.abs(r.width - 280) <= 12, 'the sidebar chat to be about 280 px wide');
    const sidebarPx = 280 + (280 - sideNow.width);
    await setSidebarWidth(editor.page, sidebarPx);
    await pollUntil(() => side.locator('body').evaluate(layoutProbe), (r) => Math.abs(r.width - 280) <= 1, 'the sidebar chat to be 280 px wide');
    const probe = await tab.locator('body').evaluate(layoutProbe);
    const viewport = editor.page.viewportSize() ?? { width: 1530, height: 860 };
    if (probe.width !== 1200) await editor.page.setViewportSize({ width: viewport.width + (1200 - probe.width), height: viewport.height });
    await setSidebarWidth(editor.page, sidebarPx);
    await pollUntil(() => tab.locator('body').evaluate(layoutProbe), (r) => r.width === 1200, 'the chat tab to be 1,200 px wide');
    await pollUntil(() => side.locator('body').evaluate(layoutProbe), (r) => Math.abs(r.width - 280) <= 1, 'the sidebar chat to be 280 px wide');
    // The title actions are the view's and the tab's (codicons), not buttons inside the webviews.
    for (const label of ['New Chat', 'Conversation History', 'Export', 'Open Sidebar Chat in Editor', 'Move Chat to Sidebar']) {
      assert.ok((await editor.page.locator(`.action-label[aria-label*="${label}"]`).count()) >= 1, `title action ${label}`);
    }
    assert.equal(await side.locator('#app button[data-action="newConversation"], #app select').count(), 0);
  });

  /** The class VS Code gives a webview's body for each theme's kind. */
  const THEME_KIND: Record<string, string> = {
    'Light Modern': 'vscode-light',
    'Dark Modern': 'vscode-dark',
    'Light High Contrast': 'vscode-high-contrast-light',
    'Dark High Contrast': 'vscode-high-contrast',
  };

  step('Light Modern, Dark Modern, Light High Contrast, Dark High Contrast: no overflow, one toolbar line, every action by keyboard', async () => {
    const colours: Record<string, string> = {};
    for (const theme of ['Light Modern', 'Dark Modern', 'Light High Contrast', 'Dark High Contrast']) {
      await setColorTheme(editor, theme);
      // The webviews receive the new theme asynchronously: wait until both carry its kind (VS Code puts
      // it on the webview's body), then until the colours differ from the themes seen before.
      const kind = THEME_KIND[theme];
      for (const frame of [side, tab]) {
        await pollUntil(() => frame.locator('body').evaluate((b) => b.className), (c) => c.split(/\s+/).includes(kind) && (kind !== 'vscode-high-contrast' || !c.includes('vscode-high-contrast-light')), `the ${theme} theme kind (${kind}) in the chat`);
      }
      colours[theme] = await pollUntil(
        () => side.locator('.input-box').evaluate(computedColours),
        (v) => !Object.values(colours).includes(v),
        `the ${theme} colours in the chat`,
      );
      for (const [name, frame, width] of [
        ['sidebar', side, 280],
        ['tab', tab, 1200],
      ] as const) {
        const what = `${theme}, ${name}`;
        const r = await pollUntil(() => frame.locator('body').evaluate(layoutProbe), (x) => Math.abs(x.width - width) <= 1, `${what} at ${width} px`);
        assertLayout(r, what);
        if (name === 'tab') assert.ok(r.column.width <= 840 && Math.abs(r.column.left - r.column.right) <= 2, `${what}: centred at a readable width ${JSON.stringify(r.column)}`);
        assert.ok(await frame.locator('body').evaluate(iconFontLoaded), `${what}: the codicon font loaded under the CSP`);
        // Keyboard: the input, then the toolbar as one tab stop whose arrow keys reach every control.
        await frame.locator('#input').focus();
        await editor.page.keyboard.press('Tab');
        const seen = [await frame.locator('body').evaluate(focusedControl)];
        for (let i = 0; i < 4; i++) {
          await editor.page.keyboard.press('ArrowRight');
          seen.push(await frame.locator('body').evaluate(focusedControl));
        }
        // A toolbar keeps its last focused control as its one tab stop (roving tabindex), so Tab may land on
        // any of them: the arrow keys must reach all five, in order, wrapping around. The model here can
        // call tools, so the agent-mode switch sits between the model and the attach button.
        const start = seen.indexOf('model');
        const cycle = start <= 0 ? seen : [...seen.slice(start), ...seen.slice(0, start)];
        assert.deepEqual(cycle, ['model', 'agent-toggle', 'attach', 'settings', 'send'], `${what}: ${JSON.stringify(seen)}`);
        const last = frame.locator('article.message').last();
        await last.locator('.message-actions button').first().focus();
        assert.equal(await last.locator('.message-actions').evaluate(opacityOf), '1', `${what}: message actions show on keyboard focus`);
        await frame.locator('#input').focus(); // no focused action in the screenshot
      }
      // The picture must show the theme it is named after (a picked theme can be reverted).
      assert.ok(await hasThemeKind(editor, theme), `the workbench still shows ${theme} before its screenshot`);
      const slug = theme.toLowerCase().replace(/\s+/g, '-');
      await editor.screenshot(`chat-look-${slug}`, { docs: theme === 'Light Modern' || theme === 'Dark Modern' });
    }
    assert.equal(new Set(Object.values(colours)).size, 4, JSON.stringify(colours));
  });
});
