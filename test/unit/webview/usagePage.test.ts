/**
 * The Usage dashboard page (src/webview/usage/main.ts) booted in a DOM: controls the answer shown
 * cannot honour are disabled with the reason (#41.7); the chart's value axis has nice ticks printed
 * exactly (#41.11), read from what uPlot draws on a recording canvas; figures never wrap inside a number.
 */
import { afterEach, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { HTMLCanvasElement as HappyCanvas, type HTMLInputElement, type HTMLSelectElement } from 'happy-dom';
import { bootWebview, type WebviewPage } from './domKit';
import { formatTick, NICE_STEPS, stepDecimals } from '../../../src/webview/kit/format';

const USAGE = 'src/webview/usage/main.ts';
/** Text uPlot drew on its canvases (axis ticks and labels), in order. */
let drawn: string[] = [];

before(() => {
  // uPlot reads the pixel ratio and draws on a 2D context, which happy-dom does not have: a context
  // that does nothing but record the text drawn (the axes' tick labels).
  (globalThis as Record<string, unknown>).devicePixelRatio = 1;
  (globalThis as Record<string, unknown>).Path2D = class {
    moveTo(): void {}
    lineTo(): void {}
    rect(): void {}
    arc(): void {}
    closePath(): void {}
    bezierCurveTo(): void {}
    quadraticCurveTo(): void {}
    addPath(): void {}
  };
  const context = new Proxy(
    {},
    {
      get(target: Record<string | symbol, unknown>, key) {
        if (key in target) return target[key];
        if (key === 'fillText') return (text: string) => void drawn.push(String(text));
        if (key === 'measureText') return (text: string) => ({ width: String(text).length * 7, actualBoundingBoxAscent: 8, actualBoundingBoxDescent: 2 });
        if (key === 'getLineDash') return () => [];
        return () => undefined;
      },
      set(target: Record<string | symbol, unknown>, key, value) {
        target[key] = value;
        return true;
      },
    },
  );
  (HappyCanvas.prototype as unknown as { getContext: () => unknown }).getContext = () => context;
});

let page: WebviewPage | undefined;
afterEach(async () => {
  await page?.close();
  page = undefined;
  drawn = [];
});

const HOUR = 3600;
const START = Date.parse('2026-11-22T00:00:00Z') / 1000;

function view(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    source: 'ledger',
    windowStart: '2026-11-22T00:00:00.000Z',
    windowEnd: '2026-11-29T00:00:00.000Z',
    bucketWidth: '1h',
    dims: ['model', 'operation'],
    total: { credits: '0.3', requests: 3 },
    rows: [{ dims: ['openai/gpt-4.1', 'chat-panel'], requests: 3, credits: '0.3' }],
    chart: { xs: [START, START + HOUR], series: [{ label: 'openai/gpt-4.1', values: [0.15, 0.15], exact: ['0.15', '0.15'], requests: [2, 1] }] },
    ...extra,
  };
}

const LEDGER_ONLY = { groupBy: ['model', 'operation'], filters: false, reason: 'The local ledger records only the model and the operation.' };

test('[#41.7] without the gateway the filters and the groupings the ledger lacks are disabled, with the reason, and cleared', async () => {
  page = await bootWebview(USAGE);
  const doc = page.document;
  const select = (id: string): HTMLSelectElement => page!.byId<HTMLSelectElement>(id);
  const box = (d: string): HTMLInputElement => page!.byId<HTMLInputElement>(`g-${d}`);
  // Before any answer, everything can be chosen.
  assert.equal(select('authMethod').disabled, false);
  assert.equal(box('site_id').disabled, false);
  select('application').value = 'svc-agents';
  box('site_id').checked = true;

  await page.receive({ type: 'data', parts: 1, ledger: view(), skipped: 0, recon: [], controls: LEDGER_ONLY });
  for (const id of ['authMethod', 'actorType', 'application', 'site']) {
    const el: HTMLSelectElement = page.byId<HTMLSelectElement>(id);
    assert.equal(el.disabled, true, `${id} is disabled`);
    assert.equal(el.value, '', `${id} holds nothing the view does not apply`);
    assert.equal((el.parentElement as unknown as { title: string }).title, LEDGER_ONLY.reason);
  }
  const boxes = [...doc.querySelectorAll<HTMLInputElement>('#groupBy input[type=checkbox]')];
  assert.deepEqual(boxes.filter((b) => !b.disabled).map((b) => b.value), ['model', 'operation']);
  assert.deepEqual(boxes.filter((b) => b.checked).map((b) => b.value), ['model', 'operation']);
  assert.equal(box('site_id').checked, false);
  const note = page.byId('controlsNote');
  assert.equal(note.hidden, false);
  assert.equal(note.textContent, LEDGER_ONLY.reason);

  // The ledger's own groupings still work: unchecking Model asks for operation only.
  box('model').click();
  const last = page.postedOf<{ type: 'query'; request: { groupBy: string[] } }>('query').at(-1);
  assert.deepEqual(last?.request.groupBy, ['operation']);

  // The gateway answers: every control applies again.
  await page.receive({ type: 'data', parts: 1, gateway: view({ source: 'gateway' }), ledger: view(), skipped: 0, recon: [] });
  assert.equal(select('authMethod').disabled, false);
  assert.equal(box('site_id').disabled, false);
  assert.equal(note.hidden, true);
});

test('[#41.7] a data message whose controls name an unknown dimension is dropped', async () => {
  page = await bootWebview(USAGE);
  await page.receive({ type: 'data', parts: 1, ledger: view(), skipped: 0, recon: [], controls: { ...LEDGER_ONLY, groupBy: ['colour'] } });
  assert.equal(page.byId<HTMLSelectElement>('authMethod').disabled, false);
  assert.equal(page.document.querySelector('table.totals'), null);
});

test('[#41.11] the chart of buckets up to 0.15 credits has nice ticks printed exactly, none rounded', async () => {
  page = await bootWebview(USAGE, { width: 900 });
  await page.receive({ type: 'data', parts: 1, ledger: view(), skipped: 0, recon: [] });
  const ticks = drawn.filter((t) => /^\d+([.,]\d+)?$/.test(t)).map(Number).filter((n) => n < 1);
  assert.ok(ticks.length >= 3, `value ticks drawn: ${drawn.join(' | ')}`);
  const steps = new Set(ticks.slice(1).map((t, i) => Math.round(Math.abs(t - ticks[i]) * 1e9) / 1e9));
  assert.equal(steps.size, 1, `evenly spaced: ${ticks.join(', ')}`);
  const step = [...steps][0];
  assert.ok([0.01, 0.02, 0.05, 0.1].includes(step), `a nice step, not ${step}`);
  for (const t of ticks) assert.ok(Math.abs(Math.round(t / step) * step - t) < 1e-12, `${t} is a multiple of ${step}`);
});

test('[#41.11] a figure in the tables never wraps inside the number', async () => {
  page = await bootWebview(USAGE, { width: 200, stylesheets: ['src/webview/usage/usage.css'] });
  await page.receive({ type: 'data', parts: 1, ledger: view({ total: { credits: '12345.123456789', requests: 1234567 }, rows: [{ dims: ['openai/gpt-4.1', 'chat-panel'], requests: 1234567, credits: '12345.123456789' }] }), skipped: 0, recon: [] });
  const cells = [...page.document.querySelectorAll('table.totals td.num')];
  assert.equal(cells.length, 2);
  for (const td of cells) {
    assert.equal(page.declared(td, 'white-space'), 'nowrap', td.textContent ?? '');
    assert.notEqual(page.declared(td, 'overflow-wrap'), 'anywhere', td.textContent ?? '');
  }
});

test('[#41.11] a tick is printed with the decimals its step needs: 0.025 apart reads 0.075, never 0.08', () => {
  assert.deepEqual([0.025, 0.05, 0.075, 0.1].map((v) => formatTick(v, 0.025)), ['0.025', '0.050', '0.075', '0.100']);
  assert.deepEqual([0.000000001, 0.000000003].map((v) => formatTick(v, 1e-9)), ['0.000000001', '0.000000003']);
  assert.deepEqual([stepDecimals(0.5), stepDecimals(5000), stepDecimals(0.00002)], [1, 0, 5]);
  // Every step of the axis is 1, 2 or 5 times a power of ten.
  for (const s of NICE_STEPS) assert.ok([1, 2, 5].includes(Number((s / 10 ** Math.floor(Math.log10(s) + 1e-9)).toPrecision(12))), String(s));
  assert.ok(!NICE_STEPS.includes(0.025) && NICE_STEPS.includes(0.05) && NICE_STEPS.includes(0.02));
});

test('[#41.10] the tables name operations in words: chat-panel, image-generation and Compare models beside an id the extension does not know', async () => {
  page = await bootWebview(USAGE);
  const rows = [
    { dims: ['openai/gpt-4.1', 'chat-panel'], requests: 1, credits: '0.1' },
    { dims: ['openai/gpt-image-1', 'image-generation'], requests: 1, credits: '0.1' },
    { dims: ['openai/gpt-4.1', 'Compare models'], requests: 1, credits: '0.05' },
    { dims: ['openai/gpt-4.1', 'chat-panel (estimated)'], requests: 1, credits: '0.04' },
    { dims: ['x/y', 'brand-new-op'], requests: 1, credits: '0.01' },
  ];
  await page.receive({ type: 'data', parts: 1, ledger: view({ rows }), skipped: 0, recon: [] });
  const operations = [...page.document.querySelectorAll('table.totals tbody tr')].map((tr) => tr.querySelectorAll('td')[1]?.textContent);
  assert.deepEqual(operations, ['AI Gateway Chat', 'Image generation', 'Compare Models', 'AI Gateway Chat (estimated)', 'brand-new-op']);
});

test('[#40.10] the page draws the answer to its last query, not a slower answer to an older one; a refresh pushed without id is drawn', async () => {
  page = await bootWebview(USAGE);
  const totals = (): string => page!.document.querySelector('table.totals')?.textContent ?? '';
  page.byId<HTMLInputElement>('g-operation').click();
  const queries = page.postedOf<{ type: 'query'; rid: number }>('query');
  assert.ok(queries.length >= 2, 'the first query on load, then one per change');
  const [older, last] = queries.slice(-2);
  assert.notEqual(older.rid, last.rid);
  await page.receive({ type: 'data', parts: 1, ledger: view({ total: { credits: '7.77', requests: 7 }, rows: [{ dims: ['old', 'x'], requests: 7, credits: '7.77' }] }), skipped: 0, recon: [], rid: older.rid });
  assert.doesNotMatch(totals(), /7\.77/, 'the older query\'s answer is not drawn');
  await page.receive({ type: 'data', parts: 1, ledger: view(), skipped: 0, recon: [], rid: last.rid });
  assert.match(totals(), /0\.3/);
  await page.receive({ type: 'data', parts: 1, ledger: view({ total: { credits: '0.9', requests: 9 }, rows: [{ dims: ['openai/gpt-4.1', 'chat-panel'], requests: 9, credits: '0.9' }] }), skipped: 0, recon: [] });
  assert.match(totals(), /0\.9/, 'a push (a reply was priced) is drawn');
});
