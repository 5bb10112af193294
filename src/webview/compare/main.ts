/**
 * The Compare Models page, browser side: choose two to four models, a prompt (with the system prompt
 * and attachments), see the cost before sending, then each reply streams into its own column with its
 * time to first token, total time, tokens and exact credits. Built with the webview kit: elements
 * through `h()` (text from a model only ever becomes text or sanitised Markdown, `markdownRenderer`),
 * every link through the host. The state is one object; the renderers below own their parts.
 */
import '../kit/l10n'; // first: the page's translations before anything builds an element
import './compare.css';
import { h } from '../kit/dom';
import { installLinkInterceptor } from '../kit/links';
import { markdownRenderer } from '../kit/markdown';
import {
  MAX_COMPARE_MODELS,
  MIN_COMPARE_MODELS,
  compareRequestClient,
  isHostToCompareWebview,
  type ColumnStats,
  type ColumnStatus,
  type CompareAttachment,
  type CompareModelOption,
  type ComparePageHandlers,
  type CompareWebviewToHost,
  type HostToCompareWebview,
} from '../../protocol/compareProtocol';
import { dispatch } from '../../protocol/declare';
import * as l10n from '../../core/l10n';
import { formatCreditsText, formatNumber } from '../kit/format';

declare function acquireVsCodeApi(): { postMessage(message: unknown): void };
const host = acquireVsCodeApi();
const send = (m: CompareWebviewToHost): void => host.postMessage(m);
/** The estimate is a request: an answer to an estimate older than the last one asked for is dropped. */
const requests = compareRequestClient(send);
installLinkInterceptor(document, (href) => send({ type: 'openLink', href }));
const render = markdownRenderer();

interface ColumnView {
  model: string;
  label: string;
  text: string;
  status: ColumnStatus;
  stats?: ColumnStats;
  error?: string;
  body: HTMLElement;
  statsEl: HTMLElement;
  statusEl: HTMLElement;
  continueBtn: HTMLButtonElement;
  dirty: boolean;
}

const state = {
  models: [] as CompareModelOption[],
  selected: [] as string[],
  attachments: [] as CompareAttachment[],
  runId: 0,
  columns: [] as ColumnView[],
  streaming: false,
};

// ---------- layout (built once) ----------

const app = document.getElementById('app') as HTMLElement;
const slots = h('div', { class: 'slots', role: 'group', 'aria-label': l10n.t('Models to compare') });
const addModel = h('button', { class: 'secondary', type: 'button', text: l10n.t('Add Model') });
const systemPrompt = h('textarea', { id: 'system', rows: '2', placeholder: l10n.t('Optional: the system prompt every model gets'), 'aria-label': l10n.t('System prompt') });
const attachList = h('ul', { class: 'attachments', 'aria-label': l10n.t('Attached files') });
const attachBtn = h('button', { class: 'secondary', type: 'button', text: l10n.t('Attach Files…') });
const prompt = h('textarea', { id: 'prompt', rows: '4', placeholder: l10n.t('The prompt every model gets (Ctrl+Enter sends)'), 'aria-label': l10n.t('Prompt') });
const estimateEl = h('p', { class: 'estimate hint', 'aria-live': 'polite' });
// Reasoning effort (#43.3): one for the comparison, sent to each selected model that lists it.
const effortSelect = h('select', { id: 'effort' });
const effortNote = h('p', { id: 'effort-note', class: 'effort-note hint', role: 'status' });
const effortRow = h('div', { class: 'row effort-row', id: 'effort-row', hidden: '' }, h('label', { for: 'effort', text: l10n.t('Reasoning effort') }), effortSelect, effortNote);
const sendBtn = h('button', { id: 'send', type: 'button', text: l10n.t('Send to All') });
const stopBtn = h('button', { id: 'stop', class: 'secondary', type: 'button', text: l10n.t('Stop'), disabled: '' });
const noticeEl = h('p', { class: 'notice', role: 'status', hidden: '' });
const grid = h('section', { class: 'grid', 'aria-label': l10n.t('Replies') });
const totalEl = h('p', { class: 'total', 'aria-live': 'polite' });

app.replaceChildren(
  h('header', {}, h('h1', { text: l10n.t('Compare Models') }), h('div', { class: 'row' }, slots, addModel)),
  effortRow,
  h('details', {}, h('summary', { text: l10n.t('System prompt and attachments') }), systemPrompt, h('div', { class: 'row' }, attachBtn, attachList)),
  prompt,
  h('div', { class: 'row actions' }, sendBtn, stopBtn, estimateEl),
  noticeEl,
  grid,
  totalEl,
);

// ---------- renderers ----------

/**
 * A model as the lists name it (#41.10): its name, with the id only when two models share the name;
 * the id and rates are in the tooltip.
 */
function optionText(m: CompareModelOption): string {
  const shared = state.models.filter((o) => o.label === m.label).length > 1;
  const name = shared && m.label !== m.id ? l10n.t('{0} ({1})', m.label, m.id) : m.label;
  return m.deprecated ? l10n.t('{0} (deprecated)', name) : name;
}

/** A model id as the page names it: its option's text, or the id for a model the list does not have. */
function nameOf(id: string): string {
  const m = state.models.find((o) => o.id === id);
  return m ? optionText(m) : id;
}

function renderSlots(): void {
  slots.replaceChildren(
    ...state.selected.map((id, i) => {
      const select = h('select', { 'aria-label': l10n.t('Model {0}', i + 1), 'data-slot': String(i) });
      for (const m of state.models) {
        const o = h('option', { value: m.id, text: optionText(m), title: `${m.id}: ${m.rates}` });
        if (m.id === id) o.selected = true;
        select.append(o);
      }
      select.addEventListener('change', () => {
        state.selected[i] = select.value;
        requestEstimate();
      });
      const remove = h('button', { class: 'icon', type: 'button', title: l10n.t('Remove this model'), 'aria-label': l10n.t('Remove model {0}', i + 1), text: '×' });
      remove.disabled = state.selected.length <= MIN_COMPARE_MODELS;
      remove.addEventListener('click', () => {
        state.selected.splice(i, 1);
        renderSlots();
        requestEstimate();
      });
      return h('span', { class: 'slot' }, select, remove);
    }),
  );
  addModel.disabled = state.selected.length >= MAX_COMPARE_MODELS || state.selected.length >= state.models.length;
}

function renderAttachments(): void {
  attachList.replaceChildren(
    ...state.attachments.map((a, i) => {
      const remove = h('button', { class: 'icon', type: 'button', 'aria-label': l10n.t('Remove {0}', a.label), text: '×' });
      remove.addEventListener('click', () => send({ type: 'removeAttachment', index: i }));
      return h('li', {}, `${a.chars === 1 ? l10n.t('{0} (1 character)', a.label) : l10n.t('{0} ({1} characters)', a.label, formatNumber(a.chars))} `, remove);
    }),
  );
}

/** Milliseconds as seconds with two decimals, in the display language. */
function seconds(ms: number): string {
  return (ms / 1000).toLocaleString(l10n.displayLocale(), { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

function statsText(s: ColumnStats | undefined, status: ColumnStatus): string {
  if (!s) return status === 'streaming' ? l10n.t('waiting for the first token…') : '';
  const parts: string[] = [];
  if (s.ttftMs !== undefined) parts.push(l10n.t('first token {0} s', seconds(s.ttftMs)));
  parts.push(l10n.t('total {0} s', seconds(s.totalMs)));
  if (s.totalTokens !== undefined) {
    const [inT, outT] = [formatNumber(s.promptTokens ?? 0), formatNumber(s.completionTokens ?? 0)];
    parts.push(s.reasoningTokens ? l10n.t('{0} in + {1} out + {2} reasoning tokens', inT, outT, formatNumber(s.reasoningTokens)) : l10n.t('{0} in + {1} out tokens', inT, outT));
    // The prompt's cache reads and writes (inside "in"), when there were any (#39.3).
    if (s.cacheReadTokens) parts.push(l10n.t('{0} cache read', formatNumber(s.cacheReadTokens)));
    if (s.cacheWriteTokens) parts.push(l10n.t('{0} cache write', formatNumber(s.cacheWriteTokens)));
  }
  if (s.credits) parts.push(s.creditsEstimated ? l10n.t('≈{0} (estimated)', formatCreditsText(s.credits)) : formatCreditsText(s.credits));
  else parts.push(status === 'stopped' ? l10n.t('stopped before the gateway reported usage') : l10n.t('no published rates'));
  return parts.join(' · ');
}

function renderColumns(columns: Array<{ model: string; label: string }>): void {
  state.columns = columns.map((c, i) => {
    const body = h('div', { class: 'body markdown' });
    const statsEl = h('p', { class: 'stats hint', text: l10n.t('waiting for the first token…') });
    const statusEl = h('span', { class: 'status', text: l10n.t('Streaming') });
    const continueBtn = h('button', { class: 'secondary', type: 'button', text: l10n.t('Continue in Chat'), disabled: '' });
    const runId = state.runId;
    continueBtn.addEventListener('click', () => send({ type: 'continueInChat', runId, column: i }));
    const article = h('article', { class: 'column', 'aria-label': c.label }, h('header', {}, h('h2', { text: c.label }), h('span', { class: 'model hint', text: c.model }), statusEl), statsEl, body, h('footer', {}, continueBtn));
    grid.append(article);
    return { model: c.model, label: c.label, text: '', status: 'streaming' as ColumnStatus, body, statsEl, statusEl, continueBtn, dirty: false };
  });
  grid.replaceChildren(...Array.from(grid.children).slice(-columns.length));
}

let frame = 0;
function scheduleBodies(): void {
  if (frame) return;
  frame = requestAnimationFrame(() => {
    frame = 0;
    for (const c of state.columns) {
      if (!c.dirty) continue;
      c.dirty = false;
      c.body.replaceChildren(render(c.text));
    }
  });
}

function setStreaming(on: boolean): void {
  state.streaming = on;
  sendBtn.disabled = on;
  stopBtn.disabled = !on;
}

function notice(text: string): void {
  noticeEl.textContent = text;
  noticeEl.hidden = text === '';
}

// ---------- the estimate before sending (debounced; the host counts) ----------

let estimateTimer: ReturnType<typeof setTimeout> | undefined;
function requestEstimate(): void {
  renderEffort();
  clearTimeout(estimateTimer);
  estimateTimer = setTimeout(() => requests.send('estimate', { models: [...state.selected], prompt: prompt.value, systemPrompt: systemPrompt.value, ...effortField() }), 400);
}

// ---------- reasoning effort (#43.3) ----------

/** The effort chosen, as the message field (none: the models' defaults, nothing sent). */
function effortField(): { effort?: string } {
  return !effortRow.hidden && effortSelect.value ? { effort: effortSelect.value } : {};
}

/**
 * The effort list: "Model default", then every value a selected model lists (first seen first); the
 * row hides when no selected model takes one. The note names the models that get nothing: those that
 * do not list the value, and those whose catalog entry is in a form this version does not read.
 */
function renderEffort(): void {
  const chosen = state.selected.map((id) => state.models.find((m) => m.id === id)).filter((m): m is CompareModelOption => m !== undefined);
  const values: string[] = [];
  for (const m of chosen) if (m.reasoning && 'values' in m.reasoning) for (const v of m.reasoning.values) if (!values.includes(v)) values.push(v);
  const unknown = chosen.filter((m) => m.reasoning && 'unknown' in m.reasoning);
  effortRow.hidden = values.length === 0 && unknown.length === 0;
  const current = values.includes(effortSelect.value) ? effortSelect.value : '';
  effortSelect.replaceChildren(h('option', { value: '', text: l10n.t('Model default') }), ...values.map((v) => h('option', { value: v, text: v })));
  effortSelect.value = current;
  effortSelect.disabled = values.length === 0;
  const notes: string[] = unknown.map((m) => l10n.t('{0}: the catalog describes its reasoning setting in a form this version does not read; nothing is sent.', m.id));
  if (current) for (const m of chosen) if (!(m.reasoning && 'values' in m.reasoning && m.reasoning.values.includes(current)) && !unknown.includes(m)) notes.push(l10n.t('{0}: takes no reasoning effort "{1}"; nothing is sent.', m.id, current));
  effortNote.textContent = notes.join(' ');
  effortNote.hidden = notes.length === 0;
}
effortSelect.addEventListener('change', requestEstimate);

function showEstimate(m: Extract<HostToCompareWebview, { type: 'estimate' }>): void {
  if (m.perModel.length === 0) {
    estimateEl.textContent = m.note ?? l10n.t('Type a prompt to see what the comparison costs.');
    return;
  }
  estimateEl.replaceChildren(
    h('strong', { text: m.total ? (m.counted ? l10n.t('Before sending: {0} in all', formatCreditsText(m.total)) : l10n.t('Before sending: {0} in all (estimate)', formatCreditsText(m.total))) : l10n.t('Before sending: some models publish no rates') }),
    h('span', { text: ` — ${m.perModel.map((p) => `${nameOf(p.model)}: ${formatCreditsText(p.text)}`).join('; ')}` }),
  );
}

// ---------- events ----------

addModel.addEventListener('click', () => {
  const next = state.models.find((m) => !state.selected.includes(m.id));
  if (!next) return;
  state.selected.push(next.id);
  renderSlots();
  requestEstimate();
});
attachBtn.addEventListener('click', () => send({ type: 'attach' }));
prompt.addEventListener('input', requestEstimate);
systemPrompt.addEventListener('input', requestEstimate);
const doSend = (): void => {
  if (state.streaming) return;
  notice('');
  send({ type: 'send', models: [...state.selected], prompt: prompt.value, systemPrompt: systemPrompt.value, ...effortField() });
};
sendBtn.addEventListener('click', doSend);
prompt.addEventListener('keydown', (e) => {
  if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
    e.preventDefault();
    doSend();
  }
});
stopBtn.addEventListener('click', () => send({ type: 'stop' }));

/** One handler per host message (the compiler refuses a map that misses one). */
const handlers: ComparePageHandlers = {
  init: (m) => {
    state.models = m.models;
    state.selected = m.selected.filter((id) => m.models.some((o) => o.id === id));
    state.attachments = m.attachments;
    systemPrompt.value = m.systemPrompt;
    renderSlots();
    renderEffort();
    renderAttachments();
    estimateEl.textContent = l10n.t('Type a prompt to see what the comparison costs.');
    prompt.focus();
  },
  attachments: (m) => {
    state.attachments = m.attachments;
    renderAttachments();
    requestEstimate();
  },
  estimate: showEstimate,
  started: (m) => {
    state.runId = m.runId;
    totalEl.textContent = '';
    renderColumns(m.columns);
    setStreaming(true);
  },
  delta: (m) => {
    const c = m.runId === state.runId ? state.columns[m.column] : undefined;
    if (!c) return;
    c.text += m.text;
    c.dirty = true;
    scheduleBodies();
  },
  columnDone: (m) => {
    const c = m.runId === state.runId ? state.columns[m.column] : undefined;
    if (!c) return;
    c.status = m.status;
    c.stats = m.stats;
    c.statsEl.textContent = statsText(m.stats, m.status);
    // What the credits were computed from (the gateway's usage or an estimate, the pricing_version).
    if (m.stats.costBasis) c.statsEl.title = m.stats.costBasis;
    else c.statsEl.removeAttribute('title');
    c.statusEl.textContent = m.status === 'done' ? l10n.t('Done') : m.status === 'stopped' ? l10n.t('Stopped') : l10n.t('Failed');
    c.statusEl.className = `status ${m.status}`;
    if (m.error) c.body.append(h('p', { class: 'error', role: 'alert', text: m.error }));
    if (m.cutOff) c.body.append(h('p', { class: 'cut-off', role: 'note', text: m.cutOff }));
    c.continueBtn.disabled = m.status === 'error' && c.text === '';
  },
  runDone: (m) => {
    if (m.runId !== state.runId) return;
    setStreaming(false);
    totalEl.textContent = m.totalCredits ? l10n.t('This comparison cost {0} in all.', formatCreditsText(m.totalCredits)) : '';
  },
  notice: (m) => notice(m.message),
};

window.addEventListener('message', (event: MessageEvent) => {
  const m: unknown = event.data;
  // Not one of the protocol's messages, or the answer to an estimate no longer asked for: ignored.
  if (!isHostToCompareWebview(m) || !requests.accept(m)) return;
  dispatch(handlers, m);
});

send({ type: 'ready' });
