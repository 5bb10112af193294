/**
 * Chat end to end.
 *
 * Part 1 (this file, always): the real chat webview (src/webview/chat/main.ts, an ES module, and its
 * Markdown renderer loaded with import(), built as esbuild.mjs builds them) in headless Chromium under the real CSP, wired to the real ChatController, gateway client and local gateway.
 * The XSS corpus (fixtures/xss-corpus.json) is typed into the chat and streamed back by the local
 * gateway (its reply quotes the user message); request interception proves nothing ran and nothing
 * was fetched.
 *
 * Part 2 (the real editor: code-server + the packaged VSIX + the local gateway, via harness.ts): send
 * and see it stream, Escape stops it and the gateway's /__control/events shows the closed stream, a
 * window reload keeps the history, a revoked key shows the inline error whose Set API Key opens the
 * key picker, the XSS corpus in the real webview with request interception, history in a quick pick.
 * The steps build on each other (one editor for the file), in order. The look in the four themes at
 * 280 and 1,200 px is chatLook.e2e.ts (its own editor: one file must finish within the tier's budget).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import * as esbuild from 'esbuild';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startGateway, type RunningGateway } from '../localGateway/server';
import { LOCAL_KEYS } from '../localGateway/keys';
import { createGatewayClient } from '../../src/core/gateway/gatewayClient';
import type { Model } from '../../src/core/gateway/types';
import { ChatController, type ChatEditorHost } from '../../src/core/chat/chatController';
import { HistoryStore, nodeHistoryFs } from '../../src/core/chat/historyStore';
import { newConversation } from '../../src/core/chat/conversation';
import { Emitter } from '../../src/core/disposables';
import { webviewHtml } from '../../src/webviewKit/html';
import { isWebviewToHost, type HostToWebview, type WebviewToHost } from '../../src/protocol/chatProtocol';
import { assertLayout, type Editor, focusedControl, launchEditor, layoutProbe, opacityOf, pollUntil, TIMEOUTS } from './harness';
import { stepWithScreenshot } from './steps';
import type { FrameLocator, Locator } from 'playwright-core';

const ROOT = resolve(__dirname, '../..');

const ORIGIN = 'https://chat-webview.test';
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const TITLE = 'Chat XSS test';

interface Corpus {
  vectors: string[];
}

/** Packs vectors into messages the local gateway quotes back whole (it clips quotes at 200 characters). */
function pack(vectors: readonly string[], max = 190): string[] {
  const out: string[] = [];
  let cur = '';
  for (const v of vectors) {
    const next = cur ? `${cur}\n\n${v}` : v;
    if (Array.from(next).length > max && cur) {
      out.push(cur);
      cur = v;
    } else cur = next;
  }
  if (cur) out.push(cur);
  return out;
}

/** Waiters of waitUntil(), run after every host-side record (Part 1). */
const hostEvents = new Set<() => void>();
const recorded = (): void => {
  for (const w of [...hostEvents]) w();
};

describe('chat webview in Chromium with the local gateway', () => {
  let gw: RunningGateway;
  let browser: Browser;
  /** The chat page (chat.js) and its Markdown renderer (chat-renderer.js), built as esbuild.mjs builds them. */
  const scripts = new Map<string, string>();
  let css: string;
  let dir: string;
  let models: Model[];

  before(async () => {
    const { chatWebviewOptions } = await import('../../esbuild.mjs');
    for (const options of chatWebviewOptions) {
      const built = await esbuild.build({ ...options, absWorkingDir: ROOT, outdir: join(ROOT, 'dist'), write: false, logLevel: 'silent' });
      for (const f of built.outputFiles) scripts.set(f.path.slice(join(ROOT, 'dist', 'webview').length + 1), f.text);
    }
    css = await readFile(join(ROOT, 'media/chat.css'), 'utf8');
    gw = await startGateway();
    models = (await createGatewayClient({ baseUrl: gw.url, getKey: async () => undefined, userAgent: 'e2e' }).listModels()).data.data;
    dir = await mkdtemp(join(tmpdir(), 'chat-e2e-'));
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
  });

  after(async () => {
    await browser?.close();
    await gw?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  async function openChat(opts: { store?: HistoryStore; holdRenderer?: Promise<void> } = {}): Promise<{
    page: Page;
    external: string[];
    dialogs: string[];
    opened: string[];
    posted: HostToWebview[];
    /** Every message the webview sent to the host, in order. */
    received: WebviewToHost[];
    controller: ChatController;
  }> {
    const page = await browser.newPage();
    const received: WebviewToHost[] = [];
    const external: string[] = [];
    const dialogs: string[] = [];
    const opened: string[] = [];
    const posted: HostToWebview[] = [];
    const nonce = `n${Math.random().toString(36).slice(2)}`;
    page.on('request', (r) => {
      if (!r.url().startsWith(ORIGIN)) external.push(r.url());
    });
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await page.route('**/*', async (route) => {
      const url = route.request().url();
      if (url === `${ORIGIN}/`) {
        await route.fulfill({
          contentType: 'text/html',
          // The kit's shell (src/webviewKit/html.ts) with chat's options, as src/chat/webviewHtml.ts builds it.
          body: webviewHtml({
            cspSource: ORIGIN,
            nonce,
            scriptUri: `${ORIGIN}/chat.js`,
            module: true,
            preloadModules: [`${ORIGIN}/chat-renderer.js`],
            styleUris: [`${ORIGIN}/chat.css`],
            title: TITLE,
            body: '<div id="app"></div>',
            localImages: true,
            preludeScript: `
window.__violations = [];
document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));
window.acquireVsCodeApi = () => ({ postMessage: (m) => window.__toHost(JSON.stringify(m)), getState: () => undefined, setState: () => {} });
`,
          }),
        });
      } else if (scripts.has(url.slice(ORIGIN.length + 1))) {
        if (url.endsWith('/chat-renderer.js')) await opts.holdRenderer;
        await route.fulfill({ contentType: 'text/javascript', body: scripts.get(url.slice(ORIGIN.length + 1)) });
      } else if (url === `${ORIGIN}/chat.css`) {
        await route.fulfill({ contentType: 'text/css', body: css });
      } else if (url === `${ORIGIN}/codicons/codicon.ttf`) {
        // The icon font shipped in media/codicons, as the webview's resource root serves it.
        await route.fulfill({ contentType: 'font/ttf', body: await readFile(join(ROOT, 'media/codicons/codicon.ttf')) });
      } else {
        await route.abort();
      }
    });
    const host: ChatEditorHost = {
      copy: async () => undefined,
      insertCode: async () => undefined,
      newFile: async () => undefined,
      openLink: async (href) => {
        opened.push(href);
        recorded();
      },
      setApiKey: async () => undefined,
      pickAttachments: async () => [],
      askTitle: async () => undefined,
      confirmDelete: async () => false,
      confirmContextOverflow: async () => true,
      exportMarkdown: async () => undefined,
      showError: () => undefined,
    };
    const client = createGatewayClient({ baseUrl: gw.url, getKey: async () => LOCAL_KEYS.userFull, userAgent: 'e2e' });
    let queue = Promise.resolve();
    const controller = new ChatController({
      getClient: async () => client,
      models: { chatModels: () => models.filter((m) => m.capabilities?.includes('chat')), getModel: (id) => models.find((m) => m.id === id), onDidChange: new Emitter<unknown>().event },
      store: opts.store ?? new HistoryStore(join(dir, `h${Date.now()}`)),
      prefs: { lastModelId: () => 'openai/gpt-4.1', setLastModelId: () => undefined },
      host,
      // Delivered in order, as VS Code's webview.postMessage does.
      post: (m) => {
        posted.push(m);
        recorded();
        queue = queue.then(() => page.evaluate(`window.postMessage(${JSON.stringify(m)}, '*')`)).then(
          () => undefined,
          () => undefined,
        );
      },
      log: { trace() {}, debug() {}, info() {}, warn() {}, error() {} },
    });
    await page.exposeFunction('__toHost', (json: string) => {
      const m: unknown = JSON.parse(json);
      if (isWebviewToHost(m)) {
        received.push(m);
        recorded();
        void controller.handle(m);
      }
    });
    await page.goto(`${ORIGIN}/`);
    return { page, external, dialogs, opened, posted, received, controller };
  }

  /** Waits until the toolbar's model button names `label` (the first state with the catalog arrived). */
  async function modelShown(page: Page, label: string): Promise<void> {
    await page.locator('#model .model-name', { hasText: label }).waitFor({ state: 'attached' });
  }

  /**
   * Resolves once `check()` holds. Re-checked whenever the host side records something (a message
   * posted or received, a link opened): an event-driven wait on a condition, never a fixed delay.
   */
  function waitUntil(check: () => boolean): Promise<void> {
    if (check()) return Promise.resolve();
    return new Promise((resolve) => {
      const w = () => {
        if (!check()) return;
        hostEvents.delete(w);
        resolve();
      };
      hostEvents.add(w);
    });
  }

  async function sendAndWait(page: Page, posted: HostToWebview[], text: string): Promise<void> {
    const before = posted.filter((m) => m.type === 'streamDone' || m.type === 'streamError').length;
    await page.fill('#input', text);
    await page.press('#input', 'Enter');
    // Waits for the reply to end in the webview (polling, not a timing assertion).
    // (Locators, not waitForFunction: the CSP forbids the eval that a string predicate needs.)
    await page.locator('article.message.assistant:is(.complete, .incomplete, .error)').nth(before).waitFor({ state: 'attached' });
  }

  test('[G-CHAT-2] a message typed and sent with Enter streams into the webview and completes', async () => {
    const { page, posted, external } = await openChat();
    await modelShown(page, 'GPT-4.1');
    await sendAndWait(page, posted, 'Hello from **Chromium**');
    const text = await page.textContent('article.message.assistant .body');
    assert.match(text ?? '', /You said: "Hello from Chromium"/);
    // The whole reply, down to its last block, is on screen and rendered as Markdown.
    assert.match(text ?? '', /Done ✓ — réponse 😊\s*$/);
    assert.equal(await page.textContent('article.message.assistant .body strong'), 'Chromium');
    assert.equal(await page.getAttribute('article.message.assistant .body', 'aria-busy'), null);
    // Code blocks keep Copy / Apply / Insert at Cursor / New File in a header bar, as labelled icon buttons.
    const codeActions = page.locator('article.message.assistant .code-block .code-actions button');
    assert.deepEqual(await codeActions.evaluateAll((bs) => bs.slice(0, 4).map((b) => b.getAttribute('aria-label'))), ['Copy', 'Apply (review as a diff)', 'Insert at Cursor', 'New File']);
    assert.ok(posted.some((m) => m.type === 'streamChunk'));
    assert.match((await page.textContent('article.message.assistant .usage')) ?? '', /prompt .* completion tokens .*credits/);
    assert.deepEqual(external, []);
    await page.close();
  });

  test('the XSS corpus streamed back by the local gateway executes nothing and fetches nothing', async () => {
    const corpus = JSON.parse(await readFile(join(__dirname, 'fixtures/xss-corpus.json'), 'utf8')) as Corpus;
    assert.ok(corpus.vectors.length >= 30);
    const { page, posted, external, dialogs, opened } = await openChat();
    await modelShown(page, 'GPT-4.1');
    const messages = pack(corpus.vectors);
    for (const m of messages) await sendAndWait(page, posted, m);

    // Every vector really was rendered (as inert text), not dropped.
    const shown = (await page.textContent('#messages')) ?? '';
    assert.ok(shown.includes(`document.title='XSS'`), 'vectors are shown as text');
    // One element per message, and only the last reply offers Regenerate.
    assert.equal(await page.locator('article.message').count(), messages.length * 2);
    assert.equal(await page.locator('button[data-action="regenerate"]').count(), 1);
    const failed = posted.filter((m) => m.type === 'streamError').map((m) => (m.type === 'streamError' ? m.message.error : undefined));
    assert.deepEqual(failed, []);
    assert.equal(posted.filter((m) => m.type === 'streamDone').length, messages.length);

    // Nothing ran.
    assert.equal(await page.title(), TITLE);
    assert.deepEqual(dialogs, []);
    // Nothing was fetched: not the tracker images, scripts, styles, frames or forms.
    assert.deepEqual(external, []);
    assert.deepEqual(await page.evaluate('window.__violations'), []);
    // And nothing dangerous is even in the DOM.
    const dom = (await page.evaluate(`(() => {
      const root = document.getElementById('messages');
      const bad = root.querySelectorAll('script,img,iframe,frame,object,embed,svg,math,style,link,meta,base,form,input,video,audio,source,template,noscript');
      const onAttrs = [...root.querySelectorAll('*')].flatMap((el) => [...el.attributes].filter((a) => /^on/i.test(a.name)).map((a) => el.tagName + ' ' + a.name));
      const hrefs = [...root.querySelectorAll('[href]')].map((a) => a.getAttribute('href')).filter((h) => !/^(https?:|mailto:|#)/i.test(h));
      const styled = root.querySelectorAll('[style]:not(.body)').length;
      return { bad: [...bad].map((e) => e.tagName), onAttrs, hrefs, styled };
    })()`)) as { bad: string[]; onAttrs: string[]; hrefs: string[]; styled: number };
    assert.deepEqual(dom, { bad: [], onAttrs: [], hrefs: [], styled: 0 });

    // A remote image is a placeholder; clicking it asks the host to open the address (which confirms
    // non-https) instead of loading it.
    const placeholder = page.locator('.remote-image[data-href^="https://xss.invalid/track.png"]').first();
    await placeholder.click();
    // A link is intercepted and handed to the host too; the webview never navigates.
    await page.locator('#messages a[href="https://xss.invalid/autolink"]').first().click();
    await waitUntil(() => opened.length >= 2);
    assert.deepEqual(opened, ['https://xss.invalid/track.png?secret=abc', 'https://xss.invalid/autolink']);
    assert.deepEqual(external, []);
    assert.equal(page.url(), `${ORIGIN}/`);
    await page.close();
  });

  test('link clicks and middle clicks never reach a window listener (VS Code\'s wrapper); only the host opens them', async () => {
    const { page, posted, opened } = await openChat();
    await modelShown(page, 'GPT-4.1');
    await sendAndWait(page, posted, 'See [the docs](https://docs.example.test/a) or [mail us](mailto:help@example.test)');
    // Stand-in for VS Code's webview wrapper: a bubble-phase click/auxclick listener on the window
    // that, like the real one, ignores defaultPrevented and would open any clicked <a href>.
    await page.evaluate(`window.__wrapperSaw = [];
for (const t of ['click', 'auxclick']) window.addEventListener(t, (e) => { const a = e.target && e.target.closest && e.target.closest('a'); if (a) window.__wrapperSaw.push(t + ' ' + a.getAttribute('href')); });`);
    await page.locator('article.message.assistant a[href="https://docs.example.test/a"]').first().click();
    await page.locator('article.message.assistant a[href="mailto:help@example.test"]').first().click({ button: 'middle' });
    await waitUntil(() => opened.length >= 2);
    assert.deepEqual(await page.evaluate('window.__wrapperSaw'), []);
    assert.deepEqual(opened, ['https://docs.example.test/a', 'mailto:help@example.test']);
    assert.equal(page.url(), `${ORIGIN}/`);
    await page.close();
  });

  test('[#28.9] the composer is usable before the Markdown renderer has loaded; history and a reply that came meanwhile are drawn once it has, in order', async () => {
    let release = (): void => undefined;
    const held = new Promise<void>((r) => (release = r));
    const { page, posted } = await openChat({ holdRenderer: held });
    await modelShown(page, 'GPT-4.1');
    // The renderer is still held back: the page is usable all the same.
    assert.equal(await page.locator('#input').isEnabled(), true);
    await page.locator('#input').fill('typed before the renderer');
    assert.equal(await page.locator('.md-block').count(), 0);
    // A restored conversation, then a reply streaming in, all before the renderer is there.
    const first = posted.find((m): m is Extract<HostToWebview, { type: 'state' }> => m.type === 'state');
    assert.ok(first);
    const reply = (id: string, content: string) => ({ id, role: 'assistant' as const, content, status: 'complete' as const });
    const state = {
      ...first,
      state: {
        ...first.state,
        conversation: {
          ...first.state.conversation,
          id: 'restored',
          messages: [{ id: 'u1', role: 'user' as const, content: 'Earlier question', status: 'complete' as const }, reply('a1', 'An **earlier** answer\n\n```ts\nconst x = 1;\n```\n')],
        },
      },
    };
    const chunks = ['# Streamed', ' title\n\nfirst ', 'paragraph *one*\n\n', '- item 1\n- item 2\n\n', 'last **words**'];
    const streamed = { id: 'a2', role: 'assistant' as const, content: '', status: 'streaming' as const };
    const toPage: HostToWebview[] = [
      state,
      { type: 'streamStart', requestId: 'r1', message: streamed },
      ...chunks.map((text): HostToWebview => ({ type: 'streamChunk', requestId: 'r1', text })),
      { type: 'streamDone', requestId: 'r1', message: { ...streamed, content: chunks.join(''), status: 'complete' } },
    ];
    for (const m of toPage) await page.evaluate(`window.postMessage(${JSON.stringify(m)}, '*')`);
    // Built, but not drawn: the replies wait for the renderer (the earlier one with its placeholder height).
    await page.locator('article.message[data-message-id="a2"].complete').waitFor({ state: 'attached' });
    assert.equal(await page.locator('.md-block').count(), 0);
    assert.equal(await page.locator('#input').inputValue(), 'typed before the renderer');
    release();
    await page.locator('article.message[data-message-id="a2"] .body h1').waitFor({ state: 'attached' });
    const earlier = page.locator('article.message[data-message-id="a1"] .body');
    assert.equal(await earlier.locator('strong').textContent(), 'earlier');
    assert.equal(await earlier.locator('.code-block pre code').textContent(), 'const x = 1;\n');
    assert.doesNotMatch((await earlier.getAttribute('style')) ?? '', /min-height/);
    // Every chunk, in order, rendered once as Markdown.
    const body = page.locator('article.message[data-message-id="a2"] .body');
    assert.equal(await body.locator('h1').textContent(), 'Streamed title');
    assert.deepEqual(await body.locator('p, li').allTextContents(), ['first paragraph one', 'item 1', 'item 2', 'last words']);
    assert.equal(await body.locator('strong').textContent(), 'words');
    assert.deepEqual(await page.evaluate('window.__violations'), []);
    await page.close();
  });

  test('the chat does not take the keyboard when it loads, only when the host sends focusInput', async () => {
    const { page, controller } = await openChat();
    await modelShown(page, 'GPT-4.1');
    const focused = () => page.evaluate('document.activeElement ? document.activeElement.id || document.activeElement.tagName : ""');
    assert.notEqual(await focused(), 'input', 'a sidebar view loading must not steal focus from the editor or a QuickPick');
    controller.focusInput(); // what Open Chat in Editor / Open Chat with Model do
    await page.locator('#input:focus').waitFor({ state: 'attached' });
    assert.equal(await focused(), 'input');
    await page.close();
  });

  test('a 200-message conversation opens on its last message with only the last ones built; earlier ones are built in place on the way up', async () => {
    const store = new HistoryStore(join(dir, `long${Date.now()}`));
    const long = newConversation('long200', 'openai/gpt-4.1', 1);
    long.title = 'A long conversation';
    for (let k = 0; k < 200; k++) {
      long.messages.push({ id: `m${k}`, role: k % 2 === 0 ? 'user' : 'assistant', content: `Message ${k}\n\n${'Some **text** in a paragraph. '.repeat(8)}`, status: 'complete', createdAt: k + 1 });
    }
    await store.save(long);
    const { page, controller, posted } = await openChat({ store });
    await modelShown(page, 'GPT-4.1');
    assert.equal(await controller.openConversation('long200'), true);
    const article = (k: number): Locator => page.locator(`article.message[data-message-id="m${k}"]`);
    // The last reply is rendered and on screen at once; only the end of the conversation is built.
    await article(199).locator('.body strong').first().waitFor({ state: 'visible' });
    const list = await page.locator('#messages').boundingBox();
    const last = await article(199).boundingBox();
    assert.ok(list && last && last.y < list.y + list.height && last.y + last.height <= list.y + list.height + 1, 'the last message is in view');
    const built = await page.locator('article.message').count();
    assert.ok(built >= 20 && built <= 60, `${built} messages built, not 200`);
    const earlier = page.locator('#earlier-messages');
    assert.equal(await earlier.textContent(), `Show ${200 - built} earlier messages`);

    // Scrolled to the top: the next earlier messages are built above, and what was on top stays put.
    const firstId = await page.locator('article.message').first().getAttribute('data-message-id');
    const topOfFirst = (): Promise<number> => page.locator(`article.message[data-message-id="${firstId}"]`).evaluate((el) => el.getBoundingClientRect().top);
    const before = await page.locator('#messages').evaluate((el, id) => {
      el.scrollTop = 0;
      return el.querySelector(`article.message[data-message-id="${id}"]`)!.getBoundingClientRect().top;
    }, firstId);
    await page.locator('article.message').nth(built).waitFor({ state: 'attached' });
    // Built above it, they do not push it away (without the anchoring it moves down by their height,
    // thousands of pixels); replies above that render their Markdown as they come near can still move
    // it by a line or two.
    assert.ok(Math.abs((await topOfFirst()) - before) < 150, `the message on top stayed about in place: ${before} -> ${await topOfFirst()}`);

    // By keyboard: Enter on "Show … earlier messages" builds more; the focus stays in the list.
    const count = await page.locator('article.message').count();
    await earlier.focus();
    await page.keyboard.press('Enter');
    await page.locator('article.message').nth(Math.min(199, count + 39)).waitFor({ state: 'attached' });
    assert.ok(['earlier-messages', 'messages'].includes((await page.locator(':focus').getAttribute('id')) ?? ''), 'the keyboard focus is not lost');

    // Each time the top comes near, more are built, until the first message.
    for (let round = 0; round < 10 && (await article(0).count()) === 0; round++) {
      const n = await page.locator('article.message').count();
      await page.locator('#messages').evaluate((el) => (el.scrollTop = 0));
      await page.locator('article.message').nth(n).waitFor({ state: 'attached' });
    }
    await article(0).waitFor({ state: 'attached' });
    assert.equal(await page.locator('article.message').count(), 200);
    assert.equal(await earlier.count(), 0, 'nothing earlier is left to show');

    // Back at the bottom, a new reply streams in and its end is in view when it completes.
    await page.locator('#messages').evaluate((el) => (el.scrollTop = el.scrollHeight));
    await page.fill('#input', 'And one more');
    await page.press('#input', 'Enter');
    await waitUntil(() => posted.some((m) => m.type === 'streamDone'));
    const reply = page.locator('article.message.assistant.complete').last();
    await reply.locator('.body', { hasText: 'And one more' }).waitFor({ state: 'visible' });
    const box = await page.locator('#messages').boundingBox();
    const end = await reply.boundingBox();
    assert.equal(await page.locator('article.message').count(), 202);
    assert.ok(box && end && end.y + end.height <= box.y + box.height + 1 && end.y + end.height > box.y, 'the reply\'s end is in view');
    await page.close();
  });

  test('a long reply is drawn in groups of 16 blocks, full ones skipped off screen, its text whole and in order', async () => {
    const store = new HistoryStore(join(dir, `groups${Date.now()}`));
    const conv = newConversation('groups40', 'openai/gpt-4.1', 1);
    conv.title = 'A long reply';
    const paragraphs = Array.from({ length: 40 }, (_, k) => `Paragraph ${k} of the reply.`);
    conv.messages.push({ id: 'q', role: 'user', content: 'Write 40 paragraphs', status: 'complete', createdAt: 1 });
    conv.messages.push({ id: 'r', role: 'assistant', content: paragraphs.join('\n\n'), status: 'complete', createdAt: 2 });
    await store.save(conv);
    const { page, controller } = await openChat({ store });
    await modelShown(page, 'GPT-4.1');
    assert.equal(await controller.openConversation('groups40'), true);
    const body = page.locator('article.message[data-message-id="r"] .body');
    await body.locator('.md-group').first().waitFor({ state: 'attached' });
    // One group per 16 blocks; only full ones are sealed (content-visibility: auto in chat.css).
    const groups = await body.locator(':scope > .md-group').evaluateAll((gs) => gs.map((g) => `${g.querySelectorAll(':scope > .md-block').length}${g.classList.contains('sealed') ? ' sealed' : ''}`));
    assert.equal(groups.length, 3, groups.join(', '));
    assert.deepEqual(groups.slice(0, 2), ['16 sealed', '16 sealed']);
    assert.match(groups[2], /^\d+$/, 'the last group, not full, is laid out as it is');
    assert.deepEqual((await body.innerText()).split(/\n+/).filter(Boolean), paragraphs);
    await page.close();
  });

  test('a failed edit comes back as an edit: Enter replaces the last message instead of adding a copy', async () => {
    let failWrites = false;
    const store = new HistoryStore(join(dir, `edit${Date.now()}`), {
      ...nodeHistoryFs,
      writeFileDurable: async (path, data) => {
        if (failWrites) throw new Error('ENOSPC: no space left on device');
        return nodeHistoryFs.writeFileDurable(path, data);
      },
    });
    const { page, posted, received } = await openChat({ store });
    await modelShown(page, 'GPT-4.1');
    await sendAndWait(page, posted, 'first version');
    failWrites = true;
    await page.press('#input', 'ArrowUp'); // empty input: edit the last message
    await page.locator('#edit-banner').waitFor({ state: 'visible' });
    await page.fill('#input', 'second version');
    await page.press('#input', 'Enter');
    // The host could not save the edit and puts it back, in edit mode.
    await waitUntil(() => posted.some((m) => m.type === 'setInput'));
    assert.deepEqual(posted.filter((m) => m.type === 'setInput'), [{ type: 'setInput', text: 'second version', mode: 'editLast' }]);
    await page.locator('#edit-banner').waitFor({ state: 'visible' });
    assert.equal(await page.inputValue('#input'), 'second version');
    failWrites = false;
    const done = posted.filter((m) => m.type === 'streamDone').length;
    await page.press('#input', 'Enter');
    await waitUntil(() => posted.filter((m) => m.type === 'streamDone').length > done);
    await page.locator('article.message.user', { hasText: 'second version' }).waitFor({ state: 'attached' });
    assert.deepEqual(
      received.filter((m) => m.type === 'send' || m.type === 'editLast').map((m) => m.type),
      ['send', 'editLast', 'editLast'],
    );
    assert.equal(await page.locator('article.message.user').count(), 1, 'the edit replaced the message; no duplicate user turn');
    assert.equal(await page.locator('article.message').count(), 2);
    await page.close();
  });

  test('narrow (280 px) and wide (1,200 px): nothing overflows, the toolbar stays one line, the column is centred; keyboard reaches every action', async () => {
    const { page, posted, received } = await openChat();
    await modelShown(page, 'GPT-4.1');
    // The empty state says what the chat does and names the model.
    assert.match((await page.textContent('#empty-state')) ?? '', /Chat with the AI Gateway[\s\S]*Model: GPT-4\.1/);
    await sendAndWait(page, posted, 'Show me `code` with a long_identifier_that_does_not_wrap_easily_in_a_narrow_sidebar_at_all');
    for (const width of [280, 1200]) {
      await page.setViewportSize({ width, height: 700 });
      await page.locator('body').evaluate(layoutProbe); // settle a layout pass after the resize
      const r = await page.locator('body').evaluate(layoutProbe);
      assert.equal(r.width, width);
      await mkdir(join(ROOT, '.e2e-artifacts'), { recursive: true });
      await page.screenshot({ path: join(ROOT, '.e2e-artifacts', `chat-webview-${width}.png`) });
      assertLayout(r, `${width} px`);
      if (width === 1200) {
        assert.ok(r.column.width <= 840, `readable width: ${r.column.width}`);
        assert.ok(Math.abs(r.column.left - r.column.right) <= 2, `centred: ${JSON.stringify(r.column)}`);
      }
    }
    // Keyboard: Tab from the input enters the toolbar (one tab stop); arrows move inside it.
    await page.setViewportSize({ width: 280, height: 700 });
    await page.focus('#input');
    await page.keyboard.press('Tab');
    const seen = [await page.locator('body').evaluate(focusedControl)];
    for (let i = 0; i < 4; i++) {
      await page.keyboard.press('ArrowRight');
      seen.push(await page.locator('body').evaluate(focusedControl));
    }
    assert.deepEqual(seen, ['model', 'attach', 'settings', 'send', 'model']);
    await page.keyboard.press('End');
    assert.equal(await page.locator('body').evaluate(focusedControl), 'send');
    await page.keyboard.press('Home');
    await page.keyboard.press('Enter');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Enter');
    // The settings (gear) button opens system prompt and temperature, and focus goes to the prompt.
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Enter');
    await page.locator('#settings-panel').waitFor({ state: 'visible' });
    assert.equal(await page.locator('body').evaluate(focusedControl), 'system-prompt');
    assert.equal(await page.getAttribute('#settings', 'aria-expanded'), 'true');
    await page.keyboard.press('Escape');
    await page.locator('#settings-panel').waitFor({ state: 'hidden' });
    assert.equal(await page.locator('body').evaluate(focusedControl), 'settings');
    await waitUntil(() => received.some((m) => m.type === 'attachMenu'));
    assert.deepEqual(
      received.filter((m) => m.type === 'pickModel' || m.type === 'attachMenu').map((m) => m.type),
      ['pickModel', 'attachMenu'],
    );
    // A message's actions are reachable by Tab (they show on focus) and named for screen readers.
    const reply = page.locator('article.message.assistant').last();
    await reply.locator('button[aria-label="Copy"]').first().focus();
    assert.equal(await reply.locator('.message-actions').evaluate(opacityOf), '1');
    assert.deepEqual(await reply.locator('.message-actions button').evaluateAll((bs) => bs.map((b) => b.getAttribute('aria-label'))), ['Copy', 'Regenerate']);
    // New replies are announced politely.
    assert.equal(await page.getAttribute('#live', 'aria-live'), 'polite');
    assert.equal(await page.getAttribute('#chat-toolbar', 'role'), 'toolbar');
    await page.close();
  });

  test('[#30.3] a streamed reply is announced once, when it has settled, not block by block', async () => {
    const { page } = await openChat();
    await modelShown(page, 'GPT-4.1');
    // Every text the polite live region takes, in order (a screen reader speaks each change).
    await page.evaluate(`window.__said = [];
new MutationObserver(() => window.__said.push(document.getElementById('live').textContent)).observe(document.getElementById('live'), { childList: true, characterData: true, subtree: true });`);
    assert.equal(await page.getAttribute('#live', 'aria-live'), 'polite');
    const toPage: HostToWebview[] = [
      { type: 'streamStart', requestId: 'live1', message: { id: 'l1', role: 'assistant', content: '', status: 'streaming' } },
      ...['First paragraph.\n\n', 'Second ', 'paragraph.\n\n', '- one\n- two\n\n', 'The end.'].map((text): HostToWebview => ({ type: 'streamChunk', requestId: 'live1', text })),
      { type: 'streamDone', requestId: 'live1', message: { id: 'l1', role: 'assistant', content: 'First paragraph.\n\nSecond paragraph.\n\n- one\n- two\n\nThe end.', status: 'complete' } },
    ];
    for (const m of toPage) await page.evaluate(`window.postMessage(${JSON.stringify(m)}, '*')`);
    await page.locator('article.message[data-message-id="l1"].complete').waitFor({ state: 'attached' });
    await page.locator('#live', { hasText: 'Response complete' }).waitFor({ state: 'attached' });
    const said = (await page.evaluate('window.__said')) as string[];
    assert.equal(said.length, 1, `one announcement, not one per block: ${JSON.stringify(said)}`);
    assert.match(said[0], /^Response complete\. First paragraph\. Second paragraph\. ?one ?two ?The end\.$/);
    await page.close();
  });

  test('[#30.3] by keyboard only: Ctrl+Up goes to the last message, arrows move between messages, Tab reaches a code block\'s actions, Ctrl+Down goes back', async () => {
    const { page, posted } = await openChat();
    await modelShown(page, 'GPT-4.1');
    await page.focus('#input');
    for (const text of ['First question', 'Second question']) {
      await page.keyboard.type(text);
      const before = posted.filter((m) => m.type === 'streamDone').length;
      await page.keyboard.press('Enter');
      await page.locator('article.message.assistant.complete').nth(before).waitFor({ state: 'attached' });
    }
    const focusedMessage = () => page.evaluate('(() => { const a = document.activeElement; return a && a.matches("article.message") ? a.dataset.messageId : (a ? a.id || a.tagName : ""); })()') as Promise<string>;
    const ids = await page.locator('#messages > article.message').evaluateAll((els) => els.map((e) => e.getAttribute('data-message-id') ?? ''));
    assert.equal(ids.length, 4);
    await page.keyboard.press('Control+ArrowUp');
    assert.equal(await focusedMessage(), ids[3], 'the last message');
    // Each message is read with who wrote it.
    assert.match((await page.locator(':focus').getAttribute('aria-label')) ?? '', /\w/);
    await page.keyboard.press('ArrowUp');
    assert.equal(await focusedMessage(), ids[2]);
    await page.keyboard.press('Home');
    assert.equal(await focusedMessage(), ids[0]);
    await page.keyboard.press('ArrowDown');
    assert.equal(await focusedMessage(), ids[1]);
    await page.keyboard.press('End');
    assert.equal(await focusedMessage(), ids[3]);
    // Tab from the reply reaches its code block's Copy (the block quotes the code back).
    const inCodeBlock = () => page.locator(':focus').evaluate((el) => !!el.closest('.code-block'));
    for (let i = 0; i < 12 && !(await inCodeBlock()); i++) await page.keyboard.press('Tab');
    assert.equal(await inCodeBlock(), true, 'a code block\'s action is reached by Tab');
    assert.equal(await page.locator(':focus').getAttribute('aria-label'), 'Copy');
    assert.equal(await page.locator(':focus').evaluate((el) => el.closest('article.message')?.getAttribute('data-message-id')), ids[3], 'in the reply that had the focus');
    await page.locator(`article.message[data-message-id="${ids[3]}"]`).focus();
    await page.keyboard.press('Control+ArrowDown');
    assert.equal(await focusedMessage(), 'input');
    await page.close();
  });

  test('Escape stops a streaming reply and the gateway sees the connection closed', async () => {
    const { page, posted } = await openChat();
    await modelShown(page, 'GPT-4.1');
    await page.fill('#input', '[[slow]] stop me');
    await page.press('#input', 'Enter');
    await page.locator('article.message.assistant.streaming .body', { hasText: 'You said' }).waitFor({ state: 'attached' });
    await page.press('#input', 'Escape');
    await gw.events.waitFor('client-closed-stream');
    await page.waitForSelector('article.message.assistant.incomplete');
    assert.ok(posted.some((m) => m.type === 'streamError'));
    // A stop the user chose is shown quietly as stopped (#29.6), not as an error.
    assert.match((await page.textContent('article.message.assistant.incomplete .stopped-note')) ?? '', /Stopped/);
    assert.equal(await page.locator('article.message.assistant.incomplete .badge').count(), 0, 'no Incomplete badge');
    await page.close();
  });
});

// ---------------------------------------------------------------------------------------------------
// Part 2: the real editor.

/** Runs in the page (the host tsconfig has no DOM types). */
const activeElementId = new Function('el', 'const a = el.ownerDocument.activeElement; return a ? a.id || a.tagName : "";') as (el: unknown) => string;

describe('chat in VS Code (code-server) with the local gateway', () => {
  let editor: Editor;
  /** Like test(), plus a screenshot of the workbench when the step fails (.e2e-artifacts/). */
  const step = stepWithScreenshot('chat', () => editor);
  let chat: FrameLocator;
  const remote: string[] = [];
  const dialogs: string[] = [];

  /** Picks the conversation's model through the toolbar's model button (a quick pick, as a user does). */
  async function pickModel(frame: FrameLocator, search: string, label: RegExp): Promise<void> {
    await frame.locator('#model').click();
    await editor.page.locator('.quick-input-widget .quick-input-box input').fill(search);
    await editor.pickQuickPickItem(label);
  }

  const completed = (): Locator => chat.locator('article.message.assistant:is(.complete, .incomplete, .error)');

  async function openChatTab(): Promise<FrameLocator> {
    await editor.runCommand('AI Gateway: Open Chat in Editor');
    const frame = await editor.chatTab();
    await frame.locator('#input').waitFor({ state: 'visible' });
    return frame;
  }

  async function send(text: string): Promise<void> {
    const before = await completed().count();
    await chat.locator('#input').fill(text);
    await chat.locator('#input').press('Enter');
    await completed().nth(before).waitFor({ state: 'attached' });
  }

  async function gatewayEvents(type: string): Promise<Array<Record<string, unknown>>> {
    const r = await fetch(`${editor.gatewayUrl}/__control/events?type=${encodeURIComponent(type)}`);
    const body = (await r.json()) as unknown;
    return Array.isArray(body) ? (body as Array<Record<string, unknown>>) : ((body as { events?: Array<Record<string, unknown>> }).events ?? []);
  }

  before(async () => {
    editor = await launchEditor({ name: 'chat' });
    // Anything the webview tries to fetch from the corpus hosts is recorded and refused.
    await editor.page.context().route(/xss\.invalid/, async (route) => {
      remote.push(route.request().url());
      await route.abort();
    });
    editor.page.context().on('request', (r) => {
      if (/xss\.invalid/.test(r.url()) && !remote.includes(r.url())) remote.push(r.url());
    });
    editor.page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
  });

  after(async () => {
    await editor?.close();
  });

  step('[G-CHAT-2] a message sent from the chat tab streams in and shows usage and cost', async () => {
    await editor.addKey('work', LOCAL_KEYS.userFull);
    await editor.waitForStatusBarItem(/work \(User\)/);
    await editor.clearNotifications();
    chat = await openChatTab();
    // The empty state names the active key and the model in use.
    await chat.locator('#empty-state', { hasText: 'API key: work' }).waitFor({ state: 'visible' });
    await pickModel(chat, 'openai/gpt-4.1', /GPT-4\.1/);
    await chat.locator('#model .model-name', { hasText: /^GPT-4\.1$/ }).waitFor({ state: 'attached' });
    await send('Hello from the editor');
    const reply = chat.locator('article.message.assistant').last();
    assert.match((await reply.locator('.body').textContent()) ?? '', /You said: "Hello from the editor"[\s\S]*Done ✓/);
    assert.match((await reply.locator('.usage').textContent()) ?? '', /prompt .*completion tokens .*credits/);
    assert.match((await chat.locator('#total-cost').textContent()) ?? '', /Conversation: .*credits/);
    await editor.screenshot('chat-reply', { docs: true });
  });

  step('Escape stops a streaming reply, and the local gateway saw the connection closed', async () => {
    const closedBefore = (await gatewayEvents('client-closed-stream')).length;
    await chat.locator('#input').fill('[[slow]] a reply to stop');
    await chat.locator('#input').press('Enter');
    // Wait for streamed text, not just the stream's start: Stop must cut a reply that is under way.
    await chat.locator('article.message.assistant.streaming .body', { hasText: 'You said' }).waitFor({ state: 'attached' });
    await chat.locator('#input').press('Escape');
    await chat.locator('article.message.assistant.incomplete').last().waitFor({ state: 'attached' });
    const closed = await pollUntil(() => gatewayEvents('client-closed-stream'), (c) => c.length > closedBefore, 'the gateway to log client-closed-stream');
    assert.ok(closed.length > closedBefore, 'the gateway logged client-closed-stream');
    assert.equal(closed.at(-1)?.path, '/v1/chat/completions');
    assert.match((await chat.locator('article.message.assistant.incomplete .stopped-note').last().textContent()) ?? '', /Stopped/);
  });

  step('after a window reload the chat tab comes back with the conversation intact', async () => {
    await editor.reload();
    // Restored by the panel serializer, without running a command. On a busy machine the extension
    // activates, loads the history and sends the state well after the workbench is up, so every wait
    // here is on the restored webview's own content, with the workbench's generous timeout.
    chat = await editor.chatTab(undefined, { timeout: TIMEOUTS.workbench });
    await chat.locator('article.message.user', { hasText: 'Hello from the editor' }).waitFor({ state: 'attached', timeout: TIMEOUTS.workbench });
    // Replies of a restored conversation render lazily (when scrolled into view, an IntersectionObserver
    // callback): reading them right after the user message appeared raced that render on a busy
    // machine. Wait for the rendered reply text itself.
    await chat.locator('article.message.assistant .body', { hasText: 'You said: "Hello from the editor"' }).waitFor({ state: 'attached', timeout: TIMEOUTS.workbench });
    const bodies = await chat.locator('article.message .body').allTextContents();
    assert.ok(bodies.some((b) => /You said: "Hello from the editor"/.test(b)), 'the first reply is back');
    assert.ok(bodies.some((b) => /a reply to stop/.test(b)), 'the stopped exchange is back');
    assert.equal(await chat.locator('article.message').count(), 4);
  });

  step('[G-AUTH-3] a revoked key shows the error inline, and Set API Key opens the key picker', async () => {
    await editor.addKeyThenRevoke('old');
    await editor.waitForStatusBarItem(/old \(User\)/);
    await editor.clearNotifications();
    chat = await editor.chatTab();
    await send('Is my key still good?');
    const error = chat.locator('article.message.assistant.error .error').last();
    assert.match((await error.textContent()) ?? '', /invalid or revoked/);
    assert.match((await error.locator('.request-id').textContent()) ?? '', /Request ID: \S+/);
    assert.doesNotMatch((await chat.locator('body').textContent()) ?? '', /svc_pat_/);
    await editor.screenshot('chat-revoked-key', { docs: true });
    await error.getByRole('button', { name: 'Set API Key' }).click();
    await editor.page.locator('.quick-input-widget .monaco-list-row', { hasText: 'work' }).first().waitFor({ state: 'visible' });
    await editor.pickQuickPickItem(/work/);
    await editor.waitForStatusBarItem(/work \(User\)/);
    await editor.clearNotifications();
  });

  step("[#40.8] the harness finds a notification whose toast is gone in the Notifications center: its button works there, and the center closes again", async () => {
    const page = editor.page;
    const summary = /API key "work" is valid and can use/;
    const noToken = /No identity token is stored/;
    const center = page.locator('.notifications-center.visible');
    const inCenter = (text: RegExp) => center.locator('.notification-list-item', { hasText: text });
    await editor.clearNotifications();
    // Do Not Disturb: VS Code shows no toast for an information message at all, only the bell's dot, as when
    // it has hidden a toast by itself before the journey got there. (Without the center, these waits fail.)
    await editor.runCommand('Notifications: Toggle Do Not Disturb Mode');
    try {
      // (No identity token in this journey: a message and nothing else.)
      await editor.runCommand('AI Gateway: Clear Identity Token (JWT)');
      await editor.waitForNotification(noToken, { timeout: TIMEOUTS.workbench });
      assert.equal(await inCenter(noToken).count(), 1, 'found in the Notifications center');
      // The next step closes the center the wait opened (its notification is still there, so VS Code would not).
      await editor.runCommand('AI Gateway: Check API Key');
      assert.equal(await center.count(), 0, 'the center closed before the next command');
      const found = await editor.waitForNotification(summary, { timeout: TIMEOUTS.workbench });
      assert.equal(await inCenter(summary).count(), 1, 'the summary in the center');
      assert.equal(await page.locator('.notifications-toasts .notification-toast').filter({ visible: true }).count(), 0, 'no toast');
      // Its button works as a toast's does: Show Scopes lists the key's scopes.
      await editor.notificationAction(found, 'Show Scopes').click();
      await editor.expectVisible(page.locator('.quick-input-widget .monaco-list-row', { hasText: /chat: / }).first(), 'the scope list from Show Scopes in the center');
      assert.equal(await inCenter(noToken).count(), 1, 'the other notification still in the open center');
      await page.keyboard.press('Escape');
    } finally {
      await editor.runCommand('Notifications: Toggle Do Not Disturb Mode');
    }
    // Clearing empties the center too and leaves it closed.
    await editor.clearNotifications();
    assert.equal(await center.count(), 0, 'the center is closed');
    const left = await editor.notificationTexts();
    assert.equal(left.filter((t) => summary.test(t) || noToken.test(t)).length, 0, JSON.stringify(left));
  });

  step('the XSS corpus in the real webview: nothing runs, nothing is fetched', async () => {
    const corpus = JSON.parse(await readFile(join(__dirname, 'fixtures/xss-corpus.json'), 'utf8')) as Corpus;
    chat = await editor.chatTab();
    // New Chat is a title action of the chat tab (no buttons above the messages).
    assert.equal(await chat.locator('[data-action="newConversation"]').count(), 0);
    await editor.page.locator('.editor-actions .action-label[aria-label^="New Chat"]').first().click();
    await chat.locator('article.message').first().waitFor({ state: 'detached' });
    const messages = pack(corpus.vectors);
    for (const m of messages) await send(m);
    assert.equal(await chat.locator('article.message.assistant.complete').count(), messages.length);
    assert.ok(((await chat.locator('#messages').textContent()) ?? '').includes(`document.title='XSS'`), 'vectors shown as text');
    assert.equal(await chat.locator('head > title').textContent(), 'AI Gateway Chat');
    assert.equal(
      await chat.locator('#messages :is(script, img, iframe, object, embed, svg, math, style, link, meta, base, form, input, video, audio, template)').count(),
      0,
    );
    assert.equal(await chat.locator('#messages :is([onerror], [onload], [onclick], [onfocus], [ontoggle], [onbegin], [onmouseover])').count(), 0);
    assert.equal(await chat.locator('#messages a[href^="javascript:" i], #messages a[href^="data:" i], #messages a[href^="vbscript:" i]').count(), 0);
    // Clicking a remote image placeholder does not load it: the host asks before opening a browser.
    await chat.locator('.remote-image').first().click();
    await editor.clearNotifications();
    await editor.page.keyboard.press('Escape');
    assert.deepEqual(remote, []);
    assert.deepEqual(dialogs, []);
    await editor.screenshot('chat-xss-corpus');
  });

  step('"Open Chat with Model..." starts a conversation on that model; the sidebar Chat view shares the history', async () => {
    // One chat tab at a time: two tabs with the same title would be ambiguous for webviewFrame().
    await editor.runCommand('View: Close All Editors');
    await editor.runCommand('AI Gateway: Open Chat with Model...');
    await editor.page.locator('.quick-input-widget .quick-input-box input').fill('Claude Haiku 4.5');
    await editor.pickQuickPickItem(/Claude Haiku 4\.5/);
    chat = await editor.chatTab();
    await chat.locator('#model .model-name', { hasText: 'Claude Haiku 4.5' }).waitFor({ state: 'attached' });
    assert.equal(await chat.locator('article.message').count(), 0);
    // The user asked for this chat: the host sends focusInput once the webview is ready.
    await pollUntil(() => chat.locator('body').evaluate(activeElementId), (f) => f === 'input', 'Open Chat with Model to focus the message input');

    await editor.runCommand('View: Close All Editors');
    await editor.openAiGatewaySidebar();
    const side = await editor.webviewFrame(/^Chat/);
    await side.locator('#input').waitFor({ state: 'visible' });
    // Conversation History (a title action of the view) lists what the tab saved, with its text searchable.
    await editor.runCommand('AI Gateway: Chat Conversation History...');
    await editor.page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Hello from the editor' }).first().waitFor({ state: 'visible' });
    await editor.page.locator('.quick-input-widget .quick-input-box input').fill('a reply to stop');
    await editor.page.locator('.quick-input-widget .monaco-list-row', { hasText: 'a reply to stop' }).first().waitFor({ state: 'visible' });
    await editor.page.keyboard.press('Escape');
    // Loaded on its own (no command asked for the chat), the view leaves the keyboard where it was.
    assert.notEqual(await side.locator('body').evaluate(activeElementId), 'input', 'the sidebar Chat view must not focus itself on load');
    chat = side;
    await send('From the sidebar');
    assert.match((await side.locator('article.message.assistant').last().textContent()) ?? '', /You said: "From the sidebar"/);
    await editor.screenshot('chat-sidebar', { docs: true });
  });

  step('with the chat hidden, Conversation History from the palette shows the sidebar chat and opens the pick there', async () => {
    const sidebarTitle = editor.page.locator('.part.sidebar .composite.title .title-label');
    await editor.runCommand('View: Show Explorer');
    await sidebarTitle.filter({ hasText: /explorer/i }).waitFor({ state: 'visible' });
    await editor.runCommand('AI Gateway: Chat Conversation History...');
    // The chat is shown without the keyboard: a view focused while its webview loads is focused again
    // by the workbench once the webview's frame is ready, which would close the pick. So once the chat
    // has loaded, the pick is still open.
    await sidebarTitle.filter({ hasText: /AI Gateway/i }).waitFor({ state: 'visible' });
    const side = await editor.webviewFrame(/^Chat/);
    await side.locator('footer.composer #input').waitFor({ state: 'visible' });
    assert.ok(await editor.page.locator('.quick-input-widget .quick-input-box input').isVisible(), 'the pick is still open after the chat loaded');
    await editor.page.locator('.quick-input-widget .quick-input-box input').fill('Hello from the editor');
    await editor.page.locator('.quick-input-widget .monaco-list-row.focused', { hasText: 'Hello from the editor' }).first().waitFor({ state: 'visible' });
    await editor.page.keyboard.press('Enter');
    await side.locator('article.message.user', { hasText: 'Hello from the editor' }).first().waitFor({ state: 'visible' });
  });
});
