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
  isHostToCompareWebview,
  type ColumnStats,
  type ColumnStatus,
  type CompareAttachment,
  type CompareModelOption,
  type CompareWebviewToHost,
  type HostToCompareWebview,
} from '../../protocol/compareProtocol';

declare function acquireVsCodeApi(): { postMessage(message: unknown): void };
const host = acquireVsCodeApi();
const send = (m: CompareWebviewToHost): void => host.postMessage(m);
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
const slots = h('div', { class: 'slots', role: 'group', 'aria-label': 'Models to compare' });
const addModel = h('button', { class: 'secondary', type: 'button', text: 'Add Model' });
const systemPrompt = h('textarea', { id: 'system', rows: '2', placeholder: 'Optional: the system prompt every model gets', 'aria-label': 'System prompt' });
const attachList = h('ul', { class: 'attachments', 'aria-label': 'Attached files' });
const attachBtn = h('button', { class: 'secondary', type: 'button', text: 'Attach Files…' });
const prompt = h('textarea', { id: 'prompt', rows: '4', placeholder: 'The prompt every model gets (Ctrl+Enter sends)', 'aria-label': 'Prompt' });
const estimateEl = h('p', { class: 'estimate hint', 'aria-live': 'polite' });
const sendBtn = h('button', { id: 'send', type: 'button', text: 'Send to All' });
const stopBtn = h('button', { id: 'stop', class: 'secondary', type: 'button', text: 'Stop', disabled: '' });
const noticeEl = h('p', { class: 'notice', role: 'status', hidden: '' });
const grid = h('section', { class: 'grid', 'aria-label': 'Replies' });
const totalEl = h('p', { class: 'total', 'aria-live': 'polite' });

app.replaceChildren(
  h('header', {}, h('h1', { text: 'Compare Models' }), h('div', { class: 'row' }, slots, addModel)),
  h('details', {}, h('summary', { text: 'System prompt and attachments' }), systemPrompt, h('div', { class: 'row' }, attachBtn, attachList)),
  prompt,
  h('div', { class: 'row actions' }, sendBtn, stopBtn, estimateEl),
  noticeEl,
  grid,
  totalEl,
);

// ---------- renderers ----------

function renderSlots(): void {
  slots.replaceChildren(
    ...state.selected.map((id, i) => {
      const select = h('select', { 'aria-label': `Model ${i + 1}`, 'data-slot': String(i) });
      for (const m of state.models) {
        const o = h('option', { value: m.id, text: `${m.id}${m.deprecated ? ' (deprecated)' : ''}`, title: `${m.label}: ${m.rates}` });
        if (m.id === id) o.selected = true;
        select.append(o);
      }
      select.addEventListener('change', () => {
        state.selected[i] = select.value;
        requestEstimate();
      });
      const remove = h('button', { class: 'icon', type: 'button', title: 'Remove this model', 'aria-label': `Remove model ${i + 1}`, text: '×' });
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
      const remove = h('button', { class: 'icon', type: 'button', 'aria-label': `Remove ${a.label}`, text: '×' });
      remove.addEventListener('click', () => send({ type: 'removeAttachment', index: i }));
      return h('li', {}, `${a.label} (${a.chars.toLocaleString('en')} characters) `, remove);
    }),
  );
}

function statsText(s: ColumnStats | undefined, status: ColumnStatus): string {
  if (!s) return status === 'streaming' ? 'waiting for the first token…' : '';
  const parts: string[] = [];
  if (s.ttftMs !== undefined) parts.push(`first token ${(s.ttftMs / 1000).toFixed(2)} s`);
  parts.push(`total ${(s.totalMs / 1000).toFixed(2)} s`);
  if (s.totalTokens !== undefined) parts.push(`${s.promptTokens ?? 0} in + ${s.completionTokens ?? 0} out${s.reasoningTokens ? ` + ${s.reasoningTokens} reasoning` : ''} tokens`);
  parts.push(s.credits ?? (status === 'stopped' ? 'stopped before the gateway reported usage' : 'no published rates'));
  return parts.join(' · ');
}

function renderColumns(columns: Array<{ model: string; label: string }>): void {
  state.columns = columns.map((c, i) => {
    const body = h('div', { class: 'body markdown' });
    const statsEl = h('p', { class: 'stats hint', text: 'waiting for the first token…' });
    const statusEl = h('span', { class: 'status', text: 'Streaming' });
    const continueBtn = h('button', { class: 'secondary', type: 'button', text: 'Continue in Chat', disabled: '' });
    const runId = state.runId;
    continueBtn.addEventListener('click', () => send({ type: 'continueInChat', runId, column: i }));
    const article = h('article', { class: 'column', 'aria-label': c.model }, h('header', {}, h('h2', { text: c.label }), h('span', { class: 'model hint', text: c.model }), statusEl), statsEl, body, h('footer', {}, continueBtn));
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
  clearTimeout(estimateTimer);
  estimateTimer = setTimeout(() => send({ type: 'estimate', models: [...state.selected], prompt: prompt.value, systemPrompt: systemPrompt.value }), 400);
}

function showEstimate(m: Extract<HostToCompareWebview, { type: 'estimate' }>): void {
  if (m.perModel.length === 0) {
    estimateEl.textContent = m.note ?? 'Type a prompt to see what the comparison costs.';
    return;
  }
  estimateEl.replaceChildren(
    h('strong', { text: m.total ? `Before sending: ${m.total} in all${m.counted ? '' : ' (estimate)'}` : 'Before sending: some models publish no rates' }),
    h('span', { text: ` — ${m.perModel.map((p) => `${p.model}: ${p.text}`).join('; ')}` }),
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
  send({ type: 'send', models: [...state.selected], prompt: prompt.value, systemPrompt: systemPrompt.value });
};
sendBtn.addEventListener('click', doSend);
prompt.addEventListener('keydown', (e) => {
  if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
    e.preventDefault();
    doSend();
  }
});
stopBtn.addEventListener('click', () => send({ type: 'stop' }));

window.addEventListener('message', (event: MessageEvent) => {
  const m: unknown = event.data;
  if (!isHostToCompareWebview(m)) return;
  switch (m.type) {
    case 'init':
      state.models = m.models;
      state.selected = m.selected.filter((id) => m.models.some((o) => o.id === id));
      state.attachments = m.attachments;
      systemPrompt.value = m.systemPrompt;
      renderSlots();
      renderAttachments();
      estimateEl.textContent = 'Type a prompt to see what the comparison costs.';
      prompt.focus();
      return;
    case 'attachments':
      state.attachments = m.attachments;
      renderAttachments();
      requestEstimate();
      return;
    case 'estimate':
      showEstimate(m);
      return;
    case 'started':
      state.runId = m.runId;
      totalEl.textContent = '';
      renderColumns(m.columns);
      setStreaming(true);
      return;
    case 'delta': {
      const c = m.runId === state.runId ? state.columns[m.column] : undefined;
      if (!c) return;
      c.text += m.text;
      c.dirty = true;
      scheduleBodies();
      return;
    }
    case 'columnDone': {
      const c = m.runId === state.runId ? state.columns[m.column] : undefined;
      if (!c) return;
      c.status = m.status;
      c.stats = m.stats;
      c.statsEl.textContent = statsText(m.stats, m.status);
      c.statusEl.textContent = m.status === 'done' ? 'Done' : m.status === 'stopped' ? 'Stopped' : 'Failed';
      c.statusEl.className = `status ${m.status}`;
      if (m.error) c.body.append(h('p', { class: 'error', role: 'alert', text: m.error }));
      c.continueBtn.disabled = m.status === 'error' && c.text === '';
      return;
    }
    case 'runDone':
      if (m.runId !== state.runId) return;
      setStreaming(false);
      totalEl.textContent = m.totalCredits ? `This comparison cost ${m.totalCredits} in all.` : '';
      return;
    case 'notice':
      notice(m.message);
      return;
  }
});

send({ type: 'ready' });
