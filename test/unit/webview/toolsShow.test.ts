/**
 * [#42.4] The tool runner page (src/webview/tools/main.ts, results.ts) shows what a tool is and what it
 * answered, fully: annotations as badges, a destructive tool's Run never the form's default, the icon
 * only from a data: URI, the server's instructions as plain text, the output schema's verdict (mismatch,
 * missing, not checked) as a visible warning beside the text blocks, resource links and embedded
 * resources.
 */
import { afterEach, test } from 'node:test';
import assert from 'node:assert/strict';
import type { HTMLButtonElement } from 'happy-dom';
import { bootWebview, type WebviewPage } from './domKit';

let page: WebviewPage | undefined;
afterEach(async () => {
  await page?.close();
  page = undefined;
});

const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
const DESTRUCTIVE = {
  serverId: 's1',
  serverLabel: 'Records',
  name: 'delete_everything',
  title: 'Delete everything',
  readOnly: false,
  hints: { readOnly: false, destructive: true, idempotent: false, openWorld: true },
  serverInstructions: 'Call lookup first.\n<img src=x onerror=alert(1)> [quit](command:workbench.action.quit)',
  inputSchema: { type: 'object', properties: { confirm: { type: 'string' } } },
};

async function boot(tool: Record<string, unknown>): Promise<WebviewPage> {
  page = await bootWebview('src/webview/tools/main.ts', { modules: ['src/webview/tools/form.ts', 'src/webview/tools/results.ts', 'src/webview/tools/markdown.ts', 'src/webview/kit/dom.ts', 'src/webview/kit/markdown.ts'] });
  await page.receive({ type: 'init', tool, history: [] });
  return page;
}
const submit = (p: WebviewPage): void => void p.byId('tool-form').dispatchEvent(new p.window.Event('submit', { cancelable: true }));
const badges = (p: WebviewPage): string[] => [...p.document.querySelectorAll('header .hints [data-hint]')].map((b) => b.getAttribute('data-hint') ?? '');

test('[#42.4] a destructive tool: its annotations as badges, a warning, and Run is not the form\'s default (submitting sends nothing; only a click on Run does)', async () => {
  const p = await boot(DESTRUCTIVE);
  assert.deepEqual(badges(p), ['destructive', 'open-world']);
  assert.match(p.byId('destructive-note').textContent ?? '', /may be destructive \(marked so, or not marked read-only or harmless\): Run asks you to confirm/);
  const run = p.byId<HTMLButtonElement>('run');
  assert.equal(run.type, 'button', 'not a submit button: Enter in a field does not press it');
  assert.notEqual(p.document.activeElement, run, 'Run is not focused');
  submit(p);
  assert.deepEqual(p.postedOf('run'), [], 'Enter (the form\'s submit) runs nothing');
  run.click();
  assert.deepEqual(p.postedOf('run'), [{ type: 'run', args: {} }]);
});

test('[#42.4] a read-only tool keeps Run as the form\'s default, and shows its badges', async () => {
  const p = await boot({ ...DESTRUCTIVE, name: 'lookup', title: 'Look up', hints: { readOnly: true, destructive: false, idempotent: true, openWorld: false }, serverInstructions: undefined, readOnly: true });
  assert.deepEqual(badges(p), ['read-only', 'idempotent']);
  assert.equal(p.document.getElementById('destructive-note'), null);
  assert.equal(p.byId<HTMLButtonElement>('run').type, 'submit');
  submit(p);
  assert.deepEqual(p.postedOf('run'), [{ type: 'run', args: {} }]);
});

test('[#42.4] the server\'s instructions are plain text in the page (no element, no link from them), collapsed', async () => {
  const p = await boot(DESTRUCTIVE);
  const details = p.document.querySelector('details.server-instructions');
  assert.ok(details);
  assert.equal(details.hasAttribute('open'), false);
  assert.equal(details.querySelector('summary')?.textContent, 'Instructions of Records');
  assert.equal(details.querySelector('pre')?.textContent, DESTRUCTIVE.serverInstructions);
  assert.equal(details.querySelector('img, a'), null);
});

test('[#42.4] the icon is drawn only from a data: URI of a raster image; anything else draws nothing', async () => {
  let p = await boot({ ...DESTRUCTIVE, icon: PNG });
  assert.equal(p.document.querySelector('h1 img.tool-icon')?.getAttribute('src'), PNG);
  await p.close();
  p = await boot({ ...DESTRUCTIVE, icon: 'https://icons.example.test/x.png' });
  assert.equal(p.document.querySelector('img'), null);
  await p.close();
  p = await boot({ ...DESTRUCTIVE, icon: 'data:image/svg+xml;base64,PHN2Zy8+' });
  assert.equal(p.document.querySelector('img'), null);
});

const CALL = { id: 'c1', tool: 'forecast', args: {}, startedAt: Date.UTC(2026, 10, 29), durationMs: 12, requestIds: [] };

test('[#42.4] an answer that does not match the output schema: a warning listing the reasons, the structured content and the text still shown', async () => {
  const p = await boot(DESTRUCTIVE);
  await p.receive({ type: 'result', call: { ...CALL, result: { content: [{ type: 'text', text: 'Lisbon: warm' }], structuredContent: { city: 'Lisbon', celsius: 'warm' } }, outputValidation: { valid: false, issues: ['/celsius must be number'] } } });
  const result = p.byId('result');
  assert.equal(result.querySelector('[data-verdict]')?.getAttribute('data-verdict'), 'invalid');
  const banner = result.querySelector('.output-verdict[role="alert"]');
  assert.match(banner?.textContent ?? '', /does not match the tool's output schema/);
  assert.deepEqual([...(banner?.querySelectorAll('li') ?? [])].map((li) => li.textContent), ['/celsius must be number']);
  assert.match(result.querySelector('pre.structured')?.textContent ?? '', /"celsius": "warm"/);
  assert.match(result.querySelector('[data-block="text"]')?.textContent ?? '', /Lisbon: warm/);
});

test('[#42.4] an answer without the structured content its schema promises is flagged, not hidden', async () => {
  const p = await boot(DESTRUCTIVE);
  await p.receive({ type: 'result', call: { ...CALL, result: { content: [{ type: 'text', text: 'Lisbon: 21' }] }, outputValidation: { valid: false, issues: ['The tool declares an output schema but sent no structured content.'] } } });
  const result = p.byId('result');
  assert.match(result.querySelector('.output-verdict')?.textContent ?? '', /sent no structured content/);
  assert.equal(result.querySelector('pre.structured'), null);
  assert.match(result.textContent ?? '', /Lisbon: 21/);
});

test('[#42.4] an output schema that could not be used: "not checked", with the reason', async () => {
  const p = await boot(DESTRUCTIVE);
  await p.receive({ type: 'result', call: { ...CALL, result: { content: [], structuredContent: { a: 1 } }, outputValidation: { valid: false, issues: [], notChecked: 'its $ref at / leads back to itself' } } });
  const result = p.byId('result');
  assert.equal(result.querySelector('[data-verdict]')?.getAttribute('data-verdict'), 'not-checked');
  assert.match(result.querySelector('.output-verdict')?.textContent ?? '', /was not checked.*leads back to itself/);
  await p.receive({ type: 'result', call: { ...CALL, result: { content: [], structuredContent: { a: 1 } }, outputValidation: { valid: true, issues: [] } } });
  assert.equal(result.querySelector('[data-verdict]')?.getAttribute('data-verdict'), 'valid');
  assert.equal(result.querySelector('.output-verdict'), null);
});

test('[#42.4] resource links: a web link opens through the host (its host beside it), other URIs are copied; an embedded resource shows its text, an embedded image only as data', async () => {
  const p = await boot(DESTRUCTIVE);
  await p.receive({
    type: 'result',
    call: {
      ...CALL,
      result: {
        content: [
          { type: 'resource_link', uri: 'http://127.0.0.1:9/admin', name: 'admin', title: 'Admin page' },
          { type: 'resource_link', uri: 'kb://col_docs/doc_intro', name: 'doc_intro' },
          { type: 'resource', resource: { uri: 'file:///notes.md', mimeType: 'text/plain', text: 'Embedded notes' } },
          { type: 'resource', resource: { uri: 'mem://logo', mimeType: 'image/png', blob: PNG.split(',')[1] } },
        ],
      },
    },
  });
  const blocks = [...p.byId('result').querySelectorAll('[data-block]')];
  const link = blocks[0].querySelector('a');
  assert.equal(link?.textContent, 'Admin page');
  assert.equal(blocks[0].querySelector('.link-host')?.textContent, '(127.0.0.1:9)');
  link?.click();
  assert.deepEqual(p.postedOf('openLink'), [{ type: 'openLink', href: 'http://127.0.0.1:9/admin' }], 'the host decides and confirms');
  assert.equal(blocks[1].querySelector('a'), null);
  blocks[1].querySelector<HTMLButtonElement>('button')?.click();
  assert.deepEqual(p.postedOf('copyText'), [{ type: 'copyText', text: 'kb://col_docs/doc_intro' }]);
  assert.match(blocks[2].textContent ?? '', /Embedded notes/);
  assert.equal(blocks[3].querySelector('img')?.getAttribute('src'), PNG);
});
