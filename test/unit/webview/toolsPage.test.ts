/**
 * The tool runner page (src/webview/tools/main.ts) booted in a DOM (#40.5): the form built from the
 * tool's input schema, Run with the collected arguments, invalid input kept from the host, the host's
 * issues placed on their fields, results (sanitised) and history.
 */
import { afterEach, test } from 'node:test';
import assert from 'node:assert/strict';
import type { HTMLButtonElement, HTMLElement, HTMLInputElement, HTMLTextAreaElement } from 'happy-dom';
import { bootWebview, type WebviewPage } from './domKit';

let page: WebviewPage | undefined;
afterEach(async () => {
  await page?.close();
  page = undefined;
});

const TOOL = {
  serverId: 's1',
  serverLabel: 'Site tools',
  name: 'create_post',
  title: 'Create a post',
  description: 'Makes a **draft** post. <img src=x onerror=alert(1)>',
  readOnly: false,
  inputSchema: { type: 'object', required: ['title'], properties: { title: { type: 'string', maxLength: 80 }, count: { type: 'integer', minimum: 1 }, publish: { type: 'boolean' } } },
};

async function boot(): Promise<WebviewPage> {
  page = await bootWebview('src/webview/tools/main.ts', { modules: ['src/webview/tools/form.ts', 'src/webview/tools/results.ts', 'src/webview/tools/markdown.ts', 'src/webview/kit/dom.ts', 'src/webview/kit/markdown.ts'] });
  assert.deepEqual(page.posted, [{ type: 'ready' }]);
  await page.receive({ type: 'init', tool: TOOL, history: [] });
  return page;
}

const field = (p: WebviewPage, pointer: string): HTMLInputElement => {
  const el = p.document.querySelector<HTMLInputElement>(`[data-pointer="${pointer}"] input`);
  assert.ok(el, pointer);
  return el;
};
const submit = (p: WebviewPage): void => void p.byId('tool-form').dispatchEvent(new p.window.Event('submit', { cancelable: true }));

test('[#40.5] the form is built from the schema; Run sends the typed arguments', async () => {
  const p = await boot();
  assert.equal(p.document.querySelector('h1')?.textContent, 'Create a post');
  assert.equal(p.document.querySelector('.description strong')?.textContent, 'draft', 'the description is Markdown');
  assert.equal(p.document.querySelector('.description img'), null, 'and sanitised');
  assert.equal(field(p, '/title').getAttribute('aria-required'), 'true');
  assert.equal(field(p, '/count').type, 'number');
  assert.equal(field(p, '/publish').type, 'checkbox');
  assert.equal(p.byId('history').textContent, 'No calls yet.');
  field(p, '/title').value = 'Hello';
  field(p, '/title').dispatchEvent(new p.window.Event('input'));
  field(p, '/count').value = '3';
  field(p, '/count').dispatchEvent(new p.window.Event('input'));
  field(p, '/publish').checked = true;
  field(p, '/publish').dispatchEvent(new p.window.Event('change'));
  submit(p);
  assert.deepEqual(p.postedOf('run'), [{ type: 'run', args: { title: 'Hello', count: 3, publish: true } }]);
});

test('[#40.5] a value that does not fit its field is not sent, and says why', async () => {
  const p = await boot();
  field(p, '/count').value = '1.5';
  field(p, '/count').dispatchEvent(new p.window.Event('input'));
  submit(p);
  assert.deepEqual(p.postedOf('run'), []);
  assert.match(p.byId('status').textContent ?? '', /Fix the arguments first/);
  assert.equal(p.byId('status').querySelector('[role="alert"]') !== null, true);
});

test('[#40.5] while running, Run is disabled and Cancel enabled; the host\'s issues go next to their fields', async () => {
  const p = await boot();
  await p.receive({ type: 'running', args: {} });
  assert.equal(p.byId<HTMLButtonElement>('run').disabled, true);
  assert.equal(p.byId<HTMLButtonElement>('cancel').disabled, false);
  p.byId('cancel').click();
  assert.deepEqual(p.postedOf('cancel'), [{ type: 'cancel' }]);
  await p.receive({ type: 'invalidArgs', issues: [{ path: '/title', message: 'too long' }, { path: '/nope', message: 'unknown' }] });
  assert.equal(p.byId<HTMLButtonElement>('run').disabled, false);
  assert.equal(p.document.querySelector('[data-pointer="/title"] .err')?.textContent, 'too long');
  assert.match(p.byId('status').textContent ?? '', /\/nope unknown/);
});

test('[#40.5] Edit as JSON switches to one JSON editor and refuses invalid JSON; Copy as curl sends the arguments', async () => {
  const p = await boot();
  const toggle = p.byId('raw-toggle');
  toggle.click();
  assert.equal(toggle.textContent, 'Edit as form');
  const raw = p.byId<HTMLTextAreaElement>('raw-json');
  raw.value = '{"title": "From JSON"}';
  [...p.document.querySelectorAll<HTMLButtonElement>('.toolbar button')].find((b) => b.textContent === 'Copy as curl')?.click();
  assert.deepEqual(p.postedOf('copy'), [{ type: 'copy', format: 'curl', args: { title: 'From JSON' } }]);
  raw.value = '{oops';
  toggle.click();
  assert.match(p.byId('status').textContent ?? '', /Not valid JSON/);
  assert.equal(toggle.textContent, 'Edit as form', 'still JSON');
});

test('[#40.5] a result: tool errors with their advice and Retry (disabled when not allowed); text content as Markdown; history Show', async () => {
  const p = await boot();
  const call = { id: 'k1', tool: 'create_post', args: { title: 'x' }, startedAt: Date.UTC(2026, 0, 1), durationMs: 1234, requestIds: ['req-9'], toolError: { code: 'ambiguous_outcome', message: 'm', advice: 'Check the site first.', retryAllowed: false, retryReason: 'It may have happened.' } };
  await p.receive({ type: 'result', call });
  const result = p.byId('result');
  assert.equal(result.querySelector('h2')?.textContent, 'Tool error');
  assert.equal(result.querySelector('.banner.warning[role="alert"]')?.textContent?.includes('Check the site first.'), true);
  const retry = [...result.querySelectorAll<HTMLButtonElement>('button')].find((b) => b.textContent === 'Retry');
  assert.equal(retry?.disabled, true);
  [...result.querySelectorAll<HTMLButtonElement>('button')].find((b) => b.textContent === 'Request req-9')?.click();
  assert.deepEqual(p.postedOf('copyText'), [{ type: 'copyText', text: 'req-9' }]);
  await p.receive({ type: 'result', call: { ...call, id: 'k2', toolError: undefined, result: { content: [{ type: 'text', text: 'Made [it](https://example.com)' }], structuredContent: { id: 7 } }, outputValidation: { valid: false, issues: ['/id: not a string'] } } });
  assert.equal(result.querySelector('h2')?.textContent, 'Result');
  assert.equal(result.querySelector('a')?.getAttribute('href'), 'https://example.com');
  assert.match(result.textContent ?? '', /does not match output schema/);
  assert.match(result.textContent ?? '', /\/id: not a string/);
  await p.receive({ type: 'history', history: [call] });
  p.byId('history').querySelector<HTMLButtonElement>('button')?.click();
  assert.deepEqual(p.postedOf('load'), [{ type: 'load', callId: 'k1' }]);
  await p.receive({ type: 'needsUserKey', text: 'Use a User key for abilities.' });
  assert.match(p.byId('needs-user-key').textContent ?? '', /Needs a User key\. Use a User key for abilities\./);
  await p.receive({ type: 'needsUserKey' });
  assert.equal(p.document.getElementById('needs-user-key'), null);
});

test('[#40.5] kit/dom.ts h() builds through the DOM (text stays text); the kit Markdown and sanitiser drop images, scripts, inputs, styles and script links', async () => {
  const p = await boot();
  const { h } = p.module<{ h(tag: string, props?: Record<string, string | undefined>, ...children: unknown[]): HTMLElement }>('src/webview/kit/dom.ts');
  const el = h('div', { class: 'a b', title: 'T', 'data-x': undefined, text: '<b>not html</b>' });
  assert.equal(el.className, 'a b');
  assert.equal(el.getAttribute('title'), 'T');
  assert.equal(el.hasAttribute('data-x'), false);
  assert.equal(el.textContent, '<b>not html</b>');
  assert.equal(el.querySelector('b'), null);
  const list = h('ul', {}, h('li', {}, 'one'), undefined, null, false, '<i>two</i>');
  assert.equal(list.children.length, 1);
  assert.equal(list.textContent, 'one<i>two</i>');
  const { renderMarkdown } = p.module<{ renderMarkdown(t: string): { querySelector(s: string): HTMLElement | null } }>('src/webview/tools/markdown.ts');
  const frag = renderMarkdown('![pic](https://evil.example/x.png) <script>alert(1)</script>');
  assert.equal(frag.querySelector('img'), null, 'images never load');
  assert.equal(frag.querySelector('button.remote-image')?.dataset.href, 'https://evil.example/x.png');
  assert.equal(frag.querySelector('script'), null);
  const { sanitize } = p.module<{ sanitize(html: string): { querySelector(s: string): HTMLElement | null; textContent: string | null } }>('src/webview/kit/markdown.ts');
  // One case per call: happy-dom's NodeIterator is not live as a browser's is, so after DOMPurify removes
  // a node it skips that node's next sibling (a browser does not); that is no property of the product.
  const html = (x: string): string => {
    const div = p.document.createElement('div');
    div.append(sanitize(x) as never);
    return div.innerHTML;
  };
  assert.equal(html('<a href="javascript:alert(1)">a</a>'), '<a>a</a>');
  assert.equal(html('<input>'), '');
  assert.equal(html('<p style="color:red" onclick="x()">p</p>'), '<p>p</p>');
  assert.equal(html('<a href="mailto:a@b.c">m</a>'), '<a href="mailto:a@b.c">m</a>');
});
