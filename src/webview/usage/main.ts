/**
 * The Usage dashboard, browser side. Built with the webview kit's DOM helper (text from the gateway
 * or the ledger only ever becomes text). The chart is uPlot, bundled (no CDN; CSP intact): credits per
 * bucket stacked by the first grouping dimension, a legend that toggles series, a tooltip with exact
 * credits and request counts. Colours come only from the theme's CSS variables, read at run time and
 * again when the theme changes (light, dark, high contrast).
 */
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import './usage.css';
import { h } from '../kit/dom';
import { installLinkInterceptor } from '../kit/links';
import {
  ACTOR_TYPES,
  APPLICATIONS,
  AUTH_METHODS,
  BUCKET_WIDTHS,
  DASHBOARD_PRESETS,
  DIMENSION_LABELS,
  dimensionValueLabel,
  GROUP_BY_DIMENSIONS,
  isHostToUsageWebview,
  type DashboardRequest,
  type UsageDataMessage,
  type UsageWebviewToHost,
  type WireSeries,
  type WireView,
} from '../../protocol/usageProtocol';

declare function acquireVsCodeApi(): { postMessage(message: unknown): void; getState(): unknown; setState(state: unknown): void };
const vscode = acquireVsCodeApi();
const send = (m: UsageWebviewToHost): void => vscode.postMessage(m);
// This page shows no links of its own; the kit's interceptor still stops any link before VS Code's
// webview wrapper could open it (every webview installs it), and opens nothing.
installLinkInterceptor(document, () => undefined);

// Documented values (G-AN-4, G-AN-5), from the protocol; the host checks them again before sending.
const DIMENSIONS = GROUP_BY_DIMENSIONS;
const THEME_VARS = ['--vscode-charts-blue', '--vscode-charts-orange', '--vscode-charts-green', '--vscode-charts-purple', '--vscode-charts-red', '--vscode-charts-yellow', '--vscode-charts-foreground'];

const app = document.getElementById('app') as HTMLElement;
const hidden = new Set<string>();
let lastData: UsageDataMessage | undefined;
let plot: uPlot | undefined;
// The chart follows the panel's width (the editor group is resized, the side bar toggled).
const sizer = new ResizeObserver((entries) => {
  const width = Math.max(320, Math.floor(entries[0]?.contentRect.width ?? 0));
  if (plot && width !== plot.width) plot.setSize({ width, height: plot.height });
});

/** A filter menu: `param` is the API's name (marked when the gateway refuses it); the user sees `label` and each value's words. */
function select(id: string, param: string, label: string, values: readonly string[], words: (v: string) => string, emptyLabel: string): HTMLLabelElement {
  const s = h('select', { id, 'data-param': param });
  s.append(h('option', { value: '', text: emptyLabel }));
  for (const v of values) s.append(h('option', { value: v, text: words(v) }));
  s.addEventListener('change', query);
  return h('label', {}, `${label} `, s);
}

const presetSel = h('select', { id: 'preset', 'data-param': 'preset' });
for (const [v, t] of [
  ['day', 'Last 24 hours (10-minute buckets)'],
  ['week', 'Last 7 days (hourly)'],
  ['month', 'Last 30 days (daily)'],
  ['custom', 'Custom window…'],
]) presetSel.append(h('option', { value: v, text: t }));
const startIn = h('input', { id: 'start', 'data-param': 'start_time', placeholder: 'start: 2026-11-01 or -45d', size: '18' });
const endIn = h('input', { id: 'end', 'data-param': 'end_time', placeholder: 'end (empty = now)', size: '18' });
const widthSel = h('select', { id: 'width', 'data-param': 'bucket_width' });
for (const w of [...BUCKET_WIDTHS].reverse()) widthSel.append(h('option', { value: w, text: w }));
const custom = h('span', { class: 'custom', hidden: '' }, startIn, ' ', endIn, ' ', h('label', {}, 'bucket ', widthSel), ' ', h('button', { id: 'apply', text: 'Apply' }));
const siteIn = h('input', { id: 'site', 'data-param': 'client_id', placeholder: "the site's client ID", size: '16' });
const groupBox = h('fieldset', { id: 'groupBy', 'data-param': 'group_by' }, h('legend', { text: 'Group by' }));
for (const d of DIMENSIONS) {
  const cb = h('input', { type: 'checkbox', value: d, id: `g-${d}` });
  if (d === 'model' || d === 'operation') cb.checked = true;
  cb.addEventListener('change', query);
  groupBox.append(h('label', { for: `g-${d}` }, cb, ` ${DIMENSION_LABELS[d]}`));
}
const status = h('p', { id: 'status', role: 'status' });
const content = h('div', { id: 'content' });

presetSel.addEventListener('change', () => {
  custom.hidden = presetSel.value !== 'custom';
  if (presetSel.value !== 'custom') query();
});
custom.querySelector('#apply')?.addEventListener('click', query);
siteIn.addEventListener('change', query);

app.replaceChildren(
  h('h1', { text: 'AI Gateway Usage' }),
  h(
    'div',
    { class: 'controls' },
    h('label', {}, 'Window ', presetSel),
    custom,
    select('authMethod', 'auth_method', DIMENSION_LABELS.auth_method, AUTH_METHODS, (v) => dimensionValueLabel('auth_method', v), 'any'),
    select('actorType', 'actor_type', DIMENSION_LABELS.actor_type, ACTOR_TYPES, (v) => dimensionValueLabel('actor_type', v), 'anyone'),
    select('application', 'application', DIMENSION_LABELS.application, APPLICATIONS, (v) => v, 'all'),
    h('label', {}, `${DIMENSION_LABELS.client_id} `, siteIn),
    groupBox,
  ),
  status,
  content,
);

function query(): void {
  const groupBy = [...groupBox.querySelectorAll<HTMLInputElement>('input:checked')].map((c) => c.value);
  const value = (id: string): string => (document.getElementById(id) as HTMLSelectElement).value;
  const request: DashboardRequest =
    presetSel.value === 'custom'
      ? { start: startIn.value, end: endIn.value, width: widthSel.value }
      : { preset: DASHBOARD_PRESETS.find((p) => p === presetSel.value) ?? 'day' };
  send({ type: 'query', request: { ...request, authMethod: value('authMethod'), actorType: value('actorType'), application: value('application'), groupBy, site: siteIn.value } });
}

const normaliser = document.createElement('canvas').getContext('2d');

/**
 * The theme's chart colour, made opaque: the stacked bars are drawn over each other, so a colour with
 * alpha (some themes have them) would blend with the series underneath and match no legend swatch.
 */
function colour(i: number): string {
  const css = getComputedStyle(document.body);
  const v = css.getPropertyValue(THEME_VARS[i % THEME_VARS.length]).trim() || css.getPropertyValue('--vscode-foreground').trim();
  if (!v || !normaliser) return v || 'currentColor';
  normaliser.fillStyle = '#000';
  normaliser.fillStyle = v;
  const c = String(normaliser.fillStyle);
  const m = /^rgba\((\d+), (\d+), (\d+), [\d.]+\)$/.exec(c);
  return m ? `rgb(${m[1]}, ${m[2]}, ${m[3]})` : c;
}

function markParam(param: string | undefined): void {
  for (const el of document.querySelectorAll('[data-param]')) el.classList.toggle('invalid', el.getAttribute('data-param') === param);
}

function table(view: WireView): HTMLElement {
  const t = h('table', { class: 'totals', 'data-source': view.source });
  t.append(h('caption', { text: `Totals (${view.source === 'gateway' ? 'gateway analytics' : 'local ledger'}), ${view.total.credits} credits in ${view.total.requests} request${view.total.requests === 1 ? '' : 's'}` }));
  const dims = view.dims.map((d) => GROUP_BY_DIMENSIONS.find((g) => g === d));
  t.append(h('thead', {}, h('tr', {}, ...view.dims.map((d, i) => h('th', { text: dims[i] ? DIMENSION_LABELS[dims[i]] : d })), h('th', { text: 'requests' }), h('th', { text: 'credits' }))));
  // Column headers by scope (#30.3): a screen reader reads each cell with its column's name.
  t.querySelectorAll('thead th').forEach((th) => th.setAttribute('scope', 'col'));
  const body = h('tbody');
  for (const r of view.rows) body.append(h('tr', {}, ...r.dims.map((d, i) => h('td', { text: dims[i] ? dimensionValueLabel(dims[i], d) : d })), h('td', { class: 'num', text: String(r.requests) }), h('td', { class: 'num', text: r.credits })));
  t.append(body);
  return t;
}

const BUCKET_SECONDS: Record<string, number> = { '10m': 600, '1h': 3600, '1d': 86400 };
/** More buckets than this are drawn as they come (only those with usage), not on a full grid. */
const MAX_GRID_POINTS = 5000;
const bars = uPlot.paths.bars?.({ size: [0.9, 64], align: 1 });

/** The series on every bucket of the window (empty ones as 0), so the axis is the window's. */
function onFullGrid(view: WireView): { xs: number[]; series: WireSeries[]; step: number } {
  const step = BUCKET_SECONDS[view.bucketWidth] ?? 86400;
  const from = Math.floor(Date.parse(view.windowStart) / 1000 / step) * step;
  const to = Date.parse(view.windowEnd) / 1000;
  const count = Math.ceil((to - from) / step);
  if (!(count > 0 && count <= MAX_GRID_POINTS)) return { xs: view.chart.xs, series: view.chart.series, step };
  const xs = Array.from({ length: count }, (_, i) => from + i * step);
  const at = new Map(view.chart.xs.map((x, i) => [x, i]));
  const pick = <T>(values: T[], empty: T): T[] => xs.map((x) => {
    const i = at.get(x);
    return i === undefined ? empty : values[i];
  });
  return { xs, step, series: view.chart.series.map((s) => ({ label: s.label, values: pick(s.values, 0), exact: pick(s.exact, '0'), requests: pick(s.requests, 0) })) };
}

function chart(view: WireView, host: HTMLElement): void {
  plot?.destroy();
  plot = undefined;
  if (view.chart.xs.length === 0) {
    host.append(h('p', { text: 'No usage in this window.' }));
    return;
  }
  const { xs, series, step } = onFullGrid(view);
  // Stacked: each series is drawn as the running sum of the visible ones before it.
  const visible = series.filter((s) => !hidden.has(s.label));
  const stacked: number[][] = [];
  const acc = xs.map(() => 0);
  for (const s of visible) {
    s.values.forEach((v, i) => (acc[i] += v));
    stacked.push([...acc]);
  }
  const tooltip = h('div', { class: 'tooltip', hidden: '' });
  const fg = getComputedStyle(document.body).getPropertyValue('--vscode-foreground').trim() || 'currentColor';
  const grid = getComputedStyle(document.body).getPropertyValue('--vscode-editorWidget-border').trim() || fg;
  const opts: uPlot.Options = {
    width: Math.max(320, host.clientWidth || 800),
    height: 280,
    legend: { show: false },
    cursor: { drag: { x: false, y: false } },
    // The whole window, not just the buckets with usage (one bucket alone would get a range of years).
    scales: { x: { time: true, range: [xs[0], xs[xs.length - 1] + step] } },
    axes: [
      { stroke: fg, grid: { stroke: grid, width: 1 } },
      // Wide enough for the longest tick label (uPlot's default width clips "10,000,000").
      { stroke: fg, grid: { stroke: grid, width: 1 }, label: 'credits', size: (_u: uPlot, values: string[] | null) => 30 + 8 * Math.max(4, ...(values ?? []).map((v) => String(v).length)) },
    ],
    // Bars: one per bucket, starting at the bucket's start.
    series: [{}, ...visible.map((s) => ({ label: s.label, stroke: colour(series.indexOf(s)), fill: colour(series.indexOf(s)), width: 1, paths: bars })).reverse()],
    hooks: {
      setCursor: [
        (u: uPlot) => {
          const i = u.cursor.idx;
          if (i === null || i === undefined) {
            tooltip.hidden = true;
            return;
          }
          tooltip.replaceChildren(
            h('div', { text: new Date(xs[i] * 1000).toISOString().replace('T', ' ').slice(0, 16) + ' UTC' }),
            ...visible.map((s) => h('div', { text: `${s.label}: ${s.exact[i]} credits, ${s.requests[i]} request${s.requests[i] === 1 ? '' : 's'}` })),
          );
          tooltip.hidden = false;
        },
      ],
    },
  };
  // Draw the largest stack first so the smaller ones paint on top of it.
  const data: uPlot.AlignedData = [xs, ...[...stacked].reverse()];
  // A picture for screen readers (#30.3): its figures are in the totals table below.
  const holder = h('div', { class: 'chart', 'data-source': view.source, role: 'img', 'aria-label': `Chart of credits per bucket (${view.source === 'gateway' ? 'gateway analytics' : 'local ledger'}); the table below lists the figures` });
  host.append(holder, tooltip);
  plot = new uPlot(opts, data, holder);
  sizer.disconnect();
  sizer.observe(host);
  const legend = h('div', { class: 'legend', role: 'group', 'aria-label': 'Series' });
  series.forEach((s, i) => {
    const b = h('button', { class: `legend-item${hidden.has(s.label) ? ' off' : ''}`, 'aria-pressed': hidden.has(s.label) ? 'false' : 'true' }, h('span', { class: 'swatch' }), s.label);
    (b.firstChild as HTMLElement).style.background = colour(i);
    b.addEventListener('click', () => {
      if (hidden.has(s.label)) hidden.delete(s.label);
      else hidden.add(s.label);
      if (lastData) render(lastData);
    });
    legend.append(b);
  });
  host.append(legend);
}

function render(d: UsageDataMessage): void {
  lastData = d;
  markParam(d.gatewayNote?.param);
  const main = d.gateway ?? d.ledger;
  const parts: Node[] = [];
  if (d.gatewayNote) {
    const note = h('div', { class: 'note', id: 'gatewayNote' }, h('p', { text: d.gatewayNote.message }));
    if (d.gatewayNote.credentialAction) {
      const b = h('button', { id: 'setToken', text: 'Set Identity Token…' });
      b.addEventListener('click', () => send({ type: 'setToken' }));
      note.append(b);
    }
    parts.push(note);
  }
  if (d.parts > 1) parts.push(h('p', { class: 'hint', text: `This window is ${d.parts} documented windows, fetched separately and joined (start inclusive, end exclusive).` }));
  const chartHost = h('section', { id: 'chart' }, h('h2', { text: `Credits per ${main.bucketWidth} bucket — ${main.source === 'gateway' ? 'gateway analytics' : 'local ledger'}` }));
  parts.push(chartHost, table(main));
  if (d.gateway) parts.push(h('h2', { text: 'Local ledger (this editor, every window)' }), table(d.ledger));
  if (d.skipped > 0) parts.push(h('p', { class: 'hint', text: `${d.skipped} unreadable ledger line(s) were skipped (see the log).` }));
  if (d.recon.length > 0) {
    const t = h('table', { class: 'recon', id: 'recon' });
    t.append(h('caption', { text: 'Reconciliation: local ledger vs gateway (API-key traffic), per model and day' }));
    t.append(h('thead', {}, h('tr', {}, ...['day', 'model', 'ledger credits', 'gateway credits', 'difference', ''].map((x) => h('th', { text: x })))));
    t.querySelectorAll('thead th').forEach((th) => th.setAttribute('scope', 'col'));
    const body = h('tbody');
    for (const r of d.recon) {
      body.append(
        h(
          'tr',
          { class: r.flagged ? 'flagged' : '' },
          h('td', { text: r.day }),
          h('td', { text: r.model }),
          h('td', { class: 'num', text: `${r.ledger} (${r.ledgerRequests})` }),
          h('td', { class: 'num', text: `${r.gateway} (${r.gatewayRequests})` }),
          h('td', { class: 'num', text: r.diff }),
          h('td', { text: r.flagged ? '⚠ differs' : 'within rounding' }),
        ),
      );
      // The explanation gets the table's full width on a row of its own (a narrow cell would wrap it
      // one word per line).
      if (r.flagged && r.explanation) body.append(h('tr', { class: 'flagged explain' }, h('td', { colspan: '6', text: r.explanation })));
    }
    t.append(body);
    parts.push(t);
  }
  const exp = h('div', { class: 'export' });
  for (const [what, label] of [
    ['table', 'Export table (CSV)'],
    ['buckets', 'Export buckets (CSV)'],
    ['reconciliation', 'Export reconciliation (CSV)'],
  ] as const) {
    if (what === 'reconciliation' && d.recon.length === 0) continue;
    const b = h('button', { 'data-export': what, text: label });
    b.addEventListener('click', () => send({ type: 'export', what }));
    exp.append(b);
  }
  parts.push(exp);
  content.replaceChildren(...parts);
  status.textContent = `Showing ${main.windowStart.replace('T', ' ').slice(0, 16)} to ${main.windowEnd.replace('T', ' ').slice(0, 16)} UTC.`;
  chart(main, chartHost);
}

window.addEventListener('message', (e: MessageEvent) => {
  const m: unknown = e.data;
  // Anything that is not one of the protocol's messages is ignored (src/protocol/usageProtocol.ts).
  if (!isHostToUsageWebview(m)) return;
  if (m.type === 'loading') status.textContent = 'Loading…';
  else if (m.type === 'status') status.textContent = m.message;
  else if (m.type === 'error') {
    status.textContent = m.message;
    markParam(m.param);
  } else if (m.type === 'data') render(m);
});

// The theme changed (body class): redraw with the new colours.
new MutationObserver(() => {
  if (lastData) render(lastData);
}).observe(document.body, { attributes: true, attributeFilter: ['class'] });

query();
