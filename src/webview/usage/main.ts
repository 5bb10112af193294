/**
 * The Usage dashboard, browser side. Built with the webview kit's DOM helper (text from the gateway
 * or the ledger only ever becomes text). The chart is uPlot, bundled (no CDN; CSP intact): credits per
 * bucket stacked by the first grouping dimension, a legend that toggles series, a tooltip with exact
 * credits and request counts. Colours come only from the theme's CSS variables, read at run time and
 * again when the theme changes (light, dark, high contrast).
 */
import '../kit/l10n'; // first: the page's translations before anything builds an element
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
  type ControlsApply,
  DIMENSION_LABELS,
  dimensionValueLabel,
  GROUP_BY_DIMENSIONS,
  isHostToUsageWebview,
  usageRequestClient,
  type DashboardRequest,
  type UsageDataMessage,
  type UsagePageHandlers,
  type UsageWebviewToHost,
  type WireSeries,
  type WireView,
} from '../../protocol/usageProtocol';
import { dispatch } from '../../protocol/declare';
import * as l10n from '../../core/l10n';
import { formatDecimal, formatNumber, formatTick, NICE_STEPS } from '../kit/format';

declare function acquireVsCodeApi(): { postMessage(message: unknown): void; getState(): unknown; setState(state: unknown): void };
const vscode = acquireVsCodeApi();
const send = (m: UsageWebviewToHost): void => vscode.postMessage(m);
/** The query is a request: an answer to a query older than the last one asked for is dropped. */
const requests = usageRequestClient(send);
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
  ['day', l10n.t('Last 24 hours (10-minute buckets)')],
  ['week', l10n.t('Last 7 days (hourly)')],
  ['month', l10n.t('Last 30 days (daily)')],
  ['custom', l10n.t('Custom window…')],
]) presetSel.append(h('option', { value: v, text: t }));
const startIn = h('input', { id: 'start', 'data-param': 'start_time', placeholder: l10n.t('start: 2026-11-01 or -45d'), size: '18' });
const endIn = h('input', { id: 'end', 'data-param': 'end_time', placeholder: l10n.t('end (empty = now)'), size: '18' });
const widthSel = h('select', { id: 'width', 'data-param': 'bucket_width' });
for (const w of [...BUCKET_WIDTHS].reverse()) widthSel.append(h('option', { value: w, text: w }));
const custom = h('span', { class: 'custom', hidden: '' }, startIn, ' ', endIn, ' ', h('label', {}, `${l10n.t('bucket')} `, widthSel), ' ', h('button', { id: 'apply', text: l10n.t('Apply') }));
const siteIn = h('input', { id: 'site', 'data-param': 'client_id', placeholder: l10n.t("the site's client ID"), size: '16' });
const groupBox = h('fieldset', { id: 'groupBy', 'data-param': 'group_by' }, h('legend', { text: l10n.t('Group by') }));
for (const d of DIMENSIONS) {
  const cb = h('input', { type: 'checkbox', value: d, id: `g-${d}` });
  if (d === 'model' || d === 'operation') cb.checked = true;
  cb.addEventListener('change', query);
  groupBox.append(h('label', { for: `g-${d}` }, cb, ` ${DIMENSION_LABELS[d]}`));
}
// Why some controls are disabled, when they are (#41.7).
const controlsNote = h('p', { id: 'controlsNote', class: 'hint', hidden: '' });
const status = h('p', { id: 'status', role: 'status' });
const content = h('div', { id: 'content' });

presetSel.addEventListener('change', () => {
  custom.hidden = presetSel.value !== 'custom';
  if (presetSel.value !== 'custom') query();
});
custom.querySelector('#apply')?.addEventListener('click', query);
siteIn.addEventListener('change', query);

app.replaceChildren(
  h('h1', { text: l10n.t('AI Gateway Usage') }),
  h(
    'div',
    { class: 'controls' },
    h('label', {}, `${l10n.t('Window')} `, presetSel),
    custom,
    select('authMethod', 'auth_method', DIMENSION_LABELS.auth_method, AUTH_METHODS, (v) => dimensionValueLabel('auth_method', v), l10n.t('any')),
    select('actorType', 'actor_type', DIMENSION_LABELS.actor_type, ACTOR_TYPES, (v) => dimensionValueLabel('actor_type', v), l10n.t('anyone')),
    select('application', 'application', DIMENSION_LABELS.application, APPLICATIONS, (v) => v, l10n.t('all')),
    h('label', {}, `${DIMENSION_LABELS.client_id} `, siteIn),
    groupBox,
  ),
  controlsNote,
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
  requests.send('query', { request: { ...request, authMethod: value('authMethod'), actorType: value('actorType'), application: value('application'), groupBy, site: siteIn.value } });
}

const FILTER_IDS = ['authMethod', 'actorType', 'application', 'site'] as const;

/**
 * Disables the controls the answer shown cannot honour (#41.7), with the reason beside them and on
 * each one, and clears what they held (the host no longer applies it); every control applies again
 * once the gateway answers.
 */
function applyControls(controls: ControlsApply | undefined): void {
  const reason = controls?.reason ?? '';
  for (const cb of groupBox.querySelectorAll<HTMLInputElement>('input[type=checkbox]')) {
    const off = controls !== undefined && !controls.groupBy.some((d) => d === cb.value);
    if (off) cb.checked = false;
    cb.disabled = off;
    (cb.parentElement as HTMLElement).title = off ? reason : '';
    (cb.parentElement as HTMLElement).classList.toggle('unavailable', off);
  }
  for (const id of FILTER_IDS) {
    const el = document.getElementById(id) as HTMLInputElement | HTMLSelectElement;
    const off = controls !== undefined && !controls.filters;
    if (off) el.value = '';
    el.disabled = off;
    (el.parentElement as HTMLElement).title = off ? reason : '';
    (el.parentElement as HTMLElement).classList.toggle('unavailable', off);
  }
  controlsNote.textContent = reason;
  controlsNote.hidden = controls === undefined;
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

function sourceName(source: WireView['source']): string {
  return source === 'gateway' ? l10n.t('gateway analytics') : l10n.t('local ledger');
}

/** A window's edge or a bucket's start (an ISO time) in the display language, in UTC as the API's buckets are. */
function formatUtc(iso: string): string {
  const t = Date.parse(iso);
  if (!Number.isFinite(t)) return iso;
  return new Intl.DateTimeFormat(l10n.displayLocale(), { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', timeZone: 'UTC', timeZoneName: 'short' }).format(t);
}

function markParam(param: string | undefined): void {
  for (const el of document.querySelectorAll('[data-param]')) el.classList.toggle('invalid', el.getAttribute('data-param') === param);
}

function table(view: WireView): HTMLElement {
  const t = h('table', { class: 'totals', 'data-source': view.source });
  const totals = { source: sourceName(view.source), credits: formatDecimal(view.total.credits), requests: formatNumber(view.total.requests) };
  t.append(h('caption', { text: view.total.requests === 1 ? l10n.t('Totals ({source}), {credits} credits in {requests} request', totals) : l10n.t('Totals ({source}), {credits} credits in {requests} requests', totals) }));
  const dims = view.dims.map((d) => GROUP_BY_DIMENSIONS.find((g) => g === d));
  t.append(h('thead', {}, h('tr', {}, ...view.dims.map((d, i) => h('th', { text: dims[i] ? DIMENSION_LABELS[dims[i]] : d })), h('th', { text: l10n.t('requests') }), h('th', { text: l10n.t('credits') }))));
  // Column headers by scope (#30.3): a screen reader reads each cell with its column's name.
  t.querySelectorAll('thead th').forEach((th) => th.setAttribute('scope', 'col'));
  const body = h('tbody');
  for (const r of view.rows) body.append(h('tr', {}, ...r.dims.map((d, i) => h('td', { text: dims[i] ? dimensionValueLabel(dims[i], d) : d })), h('td', { class: 'num', text: formatNumber(r.requests) }), h('td', { class: 'num', text: formatDecimal(r.credits) })));
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
    host.append(h('p', { text: l10n.t('No usage in this window.') }));
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
      {
        stroke: fg,
        grid: { stroke: grid, width: 1 },
        label: l10n.t('credits'),
        // Nice steps (1, 2, 5 × 10ⁿ) printed with the decimals their spacing needs: small credit
        // amounts are not all "0", and no tick is rounded (#41.11).
        incrs: [...NICE_STEPS],
        values: (_u: uPlot, splits: number[], _axis: number, _space: number, increment: number) => splits.map((v) => formatTick(v, increment)),
        size: (_u: uPlot, values: string[] | null) => 30 + 8 * Math.max(4, ...(values ?? []).map((v) => String(v).length)),
      },
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
            h('div', { text: formatUtc(new Date(xs[i] * 1000).toISOString()) }),
            ...visible.map((s) => {
              const a = { series: s.label, credits: formatDecimal(s.exact[i]), requests: formatNumber(s.requests[i]) };
              return h('div', { text: s.requests[i] === 1 ? l10n.t('{series}: {credits} credits, {requests} request', a) : l10n.t('{series}: {credits} credits, {requests} requests', a) });
            }),
          );
          tooltip.hidden = false;
        },
      ],
    },
  };
  // Draw the largest stack first so the smaller ones paint on top of it.
  const data: uPlot.AlignedData = [xs, ...[...stacked].reverse()];
  // A picture for screen readers (#30.3): its figures are in the totals table below.
  const holder = h('div', { class: 'chart', 'data-source': view.source, role: 'img', 'aria-label': l10n.t('Chart of credits per bucket ({0}); the table below lists the figures', sourceName(view.source)) });
  host.append(holder, tooltip);
  plot = new uPlot(opts, data, holder);
  sizer.disconnect();
  sizer.observe(host);
  const legend = h('div', { class: 'legend', role: 'group', 'aria-label': l10n.t('Series') });
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
  applyControls(d.controls);
  markParam(d.gatewayNote?.param);
  const main = d.gateway ?? d.ledger;
  const parts: Node[] = [];
  if (d.gatewayNote) {
    const note = h('div', { class: 'note', id: 'gatewayNote' }, h('p', { text: d.gatewayNote.message }));
    // An answer the extension does not recognise: the gateway's figures are unknown, never zeros (#39.11).
    if (d.gatewayNote.unknown) note.prepend(h('h2', { id: 'gatewayUnknown', text: l10n.t('Gateway usage: unknown') }));
    if (d.gatewayNote.credentialAction) {
      const b = h('button', { id: 'setToken', text: l10n.t('Set Identity Token…') });
      b.addEventListener('click', () => send({ type: 'setToken' }));
      note.append(b);
    }
    parts.push(note);
  }
  if (d.parts > 1) parts.push(h('p', { class: 'hint', text: l10n.t('This window is {0} documented windows, fetched separately and joined (start inclusive, end exclusive).', d.parts) }));
  const chartHost = h('section', { id: 'chart' }, h('h2', { text: l10n.t('Credits per {0} bucket — {1}', main.bucketWidth, sourceName(main.source)) }));
  parts.push(chartHost, table(main));
  if (d.gateway) parts.push(h('h2', { text: l10n.t('Local ledger (this editor, every window)') }), table(d.ledger));
  if (d.skipped > 0) parts.push(h('p', { class: 'hint', text: l10n.t('{0} unreadable ledger line(s) were skipped (see the log).', d.skipped) }));
  if (d.recon.length > 0) {
    const t = h('table', { class: 'recon', id: 'recon' });
    t.append(h('caption', { text: l10n.t('Reconciliation: local ledger vs gateway (API-key traffic), per model and day') }));
    t.append(h('thead', {}, h('tr', {}, ...[l10n.t('day'), l10n.t({ message: 'model', comment: ['a table column'] }), l10n.t('ledger credits'), l10n.t('gateway credits'), l10n.t('difference'), ''].map((x) => h('th', { text: x })))));
    t.querySelectorAll('thead th').forEach((th) => th.setAttribute('scope', 'col'));
    const body = h('tbody');
    for (const r of d.recon) {
      body.append(
        h(
          'tr',
          { class: r.flagged ? 'flagged' : '' },
          h('td', { text: r.day }),
          h('td', { text: r.model }),
          h('td', { class: 'num', text: `${formatDecimal(r.ledger)} (${formatNumber(r.ledgerRequests)})` }),
          h('td', { class: 'num', text: `${formatDecimal(r.gateway)} (${formatNumber(r.gatewayRequests)})` }),
          h('td', { class: 'num', text: formatDecimal(r.diff) }),
          h('td', { text: r.flagged ? `⚠ ${l10n.t('differs')}` : l10n.t('within rounding') }),
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
    ['table', l10n.t('Export table (CSV)')],
    ['buckets', l10n.t('Export buckets (CSV)')],
    ['reconciliation', l10n.t('Export reconciliation (CSV)')],
    ['entries', l10n.t('Export ledger entries with tokens (CSV)')],
  ] as const) {
    if (what === 'reconciliation' && d.recon.length === 0) continue;
    const b = h('button', { 'data-export': what, text: label });
    b.addEventListener('click', () => send({ type: 'export', what }));
    exp.append(b);
  }
  parts.push(exp);
  content.replaceChildren(...parts);
  status.textContent = l10n.t('Showing {0} to {1}.', formatUtc(main.windowStart), formatUtc(main.windowEnd));
  chart(main, chartHost);
}

/** One handler per host message (the compiler refuses a map that misses one). */
const handlers: UsagePageHandlers = {
  loading: () => {
    status.textContent = l10n.t('Loading…');
  },
  status: (m) => {
    status.textContent = m.message;
  },
  error: (m) => {
    status.textContent = m.message;
    markParam(m.param);
  },
  data: render,
};

window.addEventListener('message', (e: MessageEvent) => {
  const m: unknown = e.data;
  // Anything that is not one of the protocol's messages is ignored (src/protocol/usageProtocol.ts).
  // So is the answer to a query older than the last one asked for.
  if (!isHostToUsageWebview(m) || !requests.accept(m)) return;
  dispatch(handlers, m);
});

// The theme changed (body class): redraw with the new colours.
new MutationObserver(() => {
  if (lastData) render(lastData);
}).observe(document.body, { attributes: true, attributeFilter: ['class'] });

query();
