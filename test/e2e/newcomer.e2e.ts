/**
 * The newcomer's path, as `npm start` sets it up: add the local key through the palette,
 * open the chat, pick a model, send, and see a streamed reply. Also takes the README screenshots
 * (docs/screenshots/, refreshed with AI_GATEWAY_E2E_DOCS=1).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LOCAL_KEYS } from '../localGateway/keys';
import type { FrameLocator, Locator, Page } from 'playwright-core';
import { launchEditor, pollUntil, setColorTheme, setSidebarWidth, TIMEOUTS, type Editor } from './harness';

describe('newcomer: from a fresh editor to a streamed chat reply', () => {
  let editor: Editor;

  before(async () => {
    // Slow the local stream down a little so the reply visibly arrives in pieces.
    editor = await launchEditor({ name: 'newcomer', gateway: { chunkDelayMs: 20 } });
  });

  after(async () => {
    await editor?.close();
  });

  test('add the local key, open the chat, pick a model and get a streamed reply', async () => {
    await editor.addKey('local', LOCAL_KEYS.userFull);
    await editor.waitForStatusBarItem(/local \(User\)/);
    await editor.clearNotifications();

    await editor.runCommand('AI Gateway: Open Chat in Editor');
    const chat = await editor.chatTab();
    // The model is a toolbar button that opens VS Code's own quick pick of the catalog's chat models.
    const model = chat.locator('#model');
    await model.waitFor({ state: 'visible' });
    await model.click();
    // The list is long and virtualised: filter it the way a user would, then pick.
    const filter = editor.page.locator('.quick-input-widget .quick-input-box input');
    await filter.waitFor({ state: 'visible', timeout: TIMEOUTS.ui });
    await filter.fill('GPT-5 mini');
    await editor.pickQuickPickItem(/GPT-5 mini/);
    await editor.expectVisible(chat.locator('#model', { hasText: /GPT-5 mini/ }), 'GPT-5 mini chosen in the model button');

    const input = chat.locator('#input');
    await input.fill('Write a haiku about a gateway.');
    await input.press('Enter');
    const reply = chat.getByText(/deterministic reply from/i).first();
    await reply.waitFor({ state: 'visible', timeout: TIMEOUTS.notification });
    // The usage line appears when the stream has ended.
    await chat.getByText(/credits/).first().waitFor({ state: 'visible', timeout: TIMEOUTS.notification });
    assert.match(await reply.innerText(), /GPT-5 mini/);
    await editor.screenshot('chat-reply', { docs: true });
  });

  // [#41.12] The sidebar as a new user finds it, in the default window (1280 x 800, Dark Modern).
  test('[#41.12] the sidebar under the open chat, default window: the catalog shows 10 rows, the chat keeps its message area with Models or Tools open', async () => {
    await sidebarLayoutJourney(editor, 'default', {
      'first look': { rows: 10, messages: 150 },
      'chat alone': { messages: 300 },
      Models: { rows: 10, messages: 150 },
      'Models and Tools': { messages: 150 },
      Tools: { messages: 150 },
    });
  });
});

describe('newcomer: the AI Gateway sidebar in a smaller window', () => {
  let editor: Editor;

  before(async () => {
    editor = await launchEditor({ name: 'newcomer-small', viewport: { width: 1024, height: 600 } });
  });

  after(async () => {
    await editor?.close();
  });

  // [#41.12] 1024 x 600, Light Modern, a 240 px side bar: less room to share, both still usable. Not
  // 'Models and Tools': the three views' minimum heights (VS Code's, 148 px each) fill this side bar.
  test('[#41.12] the sidebar under the open chat, 1024 x 600 window, 240 px side bar, light theme: the catalog and the chat both usable', async () => {
    await editor.addKey('local', LOCAL_KEYS.userFull);
    await editor.waitForStatusBarItem(/local \(User\)/);
    await editor.clearNotifications();
    await setColorTheme(editor, 'Light Modern');
    await sidebarLayoutJourney(editor, 'small-narrow-light', {
      'first look': { rows: 6, messages: 50 },
      'chat alone': { messages: 180 },
      Models: { rows: 6, messages: 50 },
      Tools: { messages: 80 },
    }, 240);
  });
});

type Goal = Record<string, { rows?: number; messages: number }>;

/**
 * Opens the AI Gateway sidebar as a new user finds it (the Chat on top, the catalog, Tools, Knowledge and
 * Agents under it), then opens and folds the catalog and Tools by their headers, measuring after each
 * what the user sees; screenshots in .e2e-artifacts/sidebar-layout-<name>-*.png. Every figure is printed,
 * then checked against `goal` (rows of the catalog, pixels of the chat's message area, per case), and
 * folding everything must give the chat its room back.
 */
async function sidebarLayoutJourney(editor: Editor, name: string, goal: Goal, sidebarWidth?: number): Promise<void> {
  const page = editor.page;
  await editor.openAiGatewaySidebar();
  if (sidebarWidth) await setSidebarWidth(page, sidebarWidth);
  const side = await editor.webviewFrame(/^Chat/);
  await side.locator('#input').waitFor({ state: 'visible' });
  const header = (view: string): Locator => page.locator('#workbench\\.parts\\.sidebar .pane-header', { hasText: new RegExp(`^\\s*${view}`) }).first();
  const setExpanded = async (view: string, expanded: boolean): Promise<void> => {
    await editor.expectVisible(header(view), `the ${view} view header`);
    // On the title, left: the middle of a narrow header can be one of the view's title actions.
    if (((await header(view).getAttribute('aria-expanded')) === 'true') !== expanded) await header(view).click({ position: { x: 40, y: 10 } });
    await pollUntil(() => header(view).getAttribute('aria-expanded'), (v) => v === String(expanded), `the ${view} view ${expanded ? 'expanded' : 'folded'}`);
  };
  const seen: Record<string, SidebarFigures> = {};
  /** What the user sees once the panes have settled (two equal readings in a row). */
  const measure = async (what: string): Promise<void> => {
    let last = '';
    const figures = await pollUntil(async () => {
      const f = await sidebarFigures(page, side);
      const same = JSON.stringify(f) === last;
      last = JSON.stringify(f);
      return same ? f : undefined;
    }, (f) => f !== undefined, `${name}, ${what}: the sidebar's panes to settle`);
    console.error(`[#41.12] ${name}, ${what}: ${JSON.stringify(figures)}`);
    seen[what] = figures!;
  };
  const catalogShown = async (): Promise<void> => { await editor.expectVisible(page.locator('#workbench\\.parts\\.sidebar .monaco-list-row', { hasText: /GPT-5 mini/ }).first(), 'GPT-5 mini in the Models view'); };

  // The first look: the sidebar as it opens (the catalog opened by its header if it starts folded).
  await setExpanded('Models', true);
  await catalogShown();
  await measure('first look');
  // The README's picture of the catalog under the chat (docs/screenshots/models-sidebar.png) is the default first look.
  await editor.screenshot(name === 'default' ? 'models-sidebar' : `sidebar-layout-${name}-first-look`, { docs: name === 'default' });
  await setExpanded('Models', false);
  await measure('chat alone');
  await setExpanded('Models', true);
  await catalogShown();
  await measure('Models');
  await setExpanded('Tools', true);
  await measure('Models and Tools');
  await editor.screenshot(`sidebar-layout-${name}-models-tools`);
  await setExpanded('Tools', false);
  await setExpanded('Models', false);
  await measure('folded again');
  // Tools alone, opened under the chat. (Folding Models while Tools is open gives its room to Tools, the
  // next open view below it: VS Code's rule.)
  await setExpanded('Tools', true);
  await measure('Tools');
  await editor.screenshot(`sidebar-layout-${name}-tools`);
  await setExpanded('Tools', false);

  for (const [what, want] of Object.entries(goal)) {
    const f = seen[what];
    assert.ok(f.inputShown, `${name}, ${what}: the chat's message box is whole ${JSON.stringify(f)}`);
    assert.ok(f.messagesPx >= want.messages, `${name}, ${what}: the chat keeps ${want.messages} px of messages ${JSON.stringify(f)}`);
    if (want.rows) assert.ok(f.modelsRows >= want.rows, `${name}, ${what}: the catalog shows ${want.rows} rows ${JSON.stringify(f)}`);
  }
  assert.ok(Math.abs(seen['folded again'].messagesPx - seen['chat alone'].messagesPx) <= 2, `${name}: folding the views gives the chat its room back ${JSON.stringify(seen)}`);
}

interface SidebarFigures {
  /** Catalog rows wholly inside the Models view (0 when folded). */
  modelsRows: number;
  /** Height of the chat's message area the user sees (the part of #messages inside the Chat view). */
  messagesPx: number;
  /** Whether the chat's message box is wholly inside the Chat view. */
  inputShown: boolean;
  /** Heights of the Chat and Models views (header included). */
  chatPx: number;
  modelsPx: number;
}

async function sidebarFigures(page: Page, side: FrameLocator): Promise<SidebarFigures> {
  const pane = (name: string): Locator => page.locator('#workbench\\.parts\\.sidebar .pane').filter({ has: page.locator('.pane-header', { hasText: new RegExp(`^\\s*${name}`) }) }).first();
  const box = async (l: Locator): Promise<{ y: number; height: number } | undefined> => (await l.count()) ? (await l.boundingBox({ timeout: 1_000 }).catch(() => null)) ?? undefined : undefined;
  const chat = await box(pane('Chat'));
  const chatBody = await box(pane('Chat').locator('.pane-body'));
  const models = await box(pane('Models'));
  const modelsBody = await box(pane('Models').locator('.pane-body'));
  const rows = modelsBody ? await pane('Models').locator('.monaco-list-row').evaluateAll((els) => els.map((e) => { const r = e.getBoundingClientRect(); return [r.top, r.bottom]; })) : [];
  const inside = (body: { y: number; height: number }, top: number, bottom: number): boolean => top >= body.y - 0.5 && bottom <= body.y + body.height + 0.5;
  const messages = await box(side.locator('#messages'));
  const input = await box(side.locator('.input-box').first());
  const overlap = (a: { y: number; height: number } | undefined, b: { y: number; height: number } | undefined): number =>
    a && b ? Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y)) : 0;
  return {
    modelsRows: modelsBody ? rows.filter(([t, b]) => inside(modelsBody, t, b)).length : 0,
    messagesPx: Math.round(overlap(messages, chatBody)),
    inputShown: !!(input && chatBody && inside(chatBody, input.y, input.y + input.height)),
    chatPx: Math.round(chat?.height ?? 0),
    modelsPx: Math.round(models?.height ?? 0),
  };
}
