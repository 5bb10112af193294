/**
 * The tool runner webview: form, run/copy toolbar, result and this tool's history. Talks to the host
 * only through src/shared/toolsProtocol.ts.
 */
import { buildFormModel } from '../../core/mcp/schemaForm';
import { isHostToWebview, type CallView, type HostToWebview, type ToolView, type WebviewToHost } from '../../shared/toolsProtocol';
import { FormView } from './form';
import { renderMarkdown } from './markdown';
import { renderCall, type ResultActions } from './results';
import './tools.css';

declare function acquireVsCodeApi(): { postMessage(message: unknown): void; getState(): unknown; setState(state: unknown): void };
const vscode = acquireVsCodeApi();
const send = (m: WebviewToHost): void => vscode.postMessage(m);

const app = document.getElementById('app') as HTMLElement;
let tool: ToolView | undefined;
let form: FormView | undefined;
let history: CallView[] = [];
let running = false;

const actions: ResultActions = {
  retry: (callId) => send({ type: 'retry', callId }),
  openLink: (uri) => send({ type: 'openLink', uri }),
  copyText: (text) => send({ type: 'copyText', text }),
};

function el<K extends keyof HTMLElementTagNameMap>(tag: K, props: Partial<Record<string, string>> = {}, ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) if (v !== undefined) e.setAttribute(k, v);
  for (const c of children) e.append(c);
  return e;
}

function byId(id: string): HTMLElement {
  return document.getElementById(id) as HTMLElement;
}

function setStatus(text: string, kind: 'info' | 'error' | 'warning' = 'info'): void {
  const s = byId('status');
  s.replaceChildren();
  if (text) s.append(el('div', { class: `banner ${kind === 'info' ? '' : kind}`, role: kind === 'info' ? 'status' : 'alert' }, text));
}

function renderHistory(): void {
  const list = byId('history');
  list.replaceChildren();
  if (history.length === 0) {
    list.append(el('li', { class: 'muted' }, 'No calls yet.'));
    return;
  }
  for (const h of history) {
    const state = h.failure ? 'failed' : h.toolError ? h.toolError.code : 'ok';
    const b = el('button', { type: 'button', class: 'secondary' }, 'Show');
    b.addEventListener('click', () => send({ type: 'load', callId: h.id }));
    list.append(el('li', {}, b, ` ${new Date(h.startedAt).toLocaleTimeString()} · ${state} · ${h.durationMs} ms · `, el('code', {}, JSON.stringify(h.args).slice(0, 120))));
  }
}

function setNeedsUserKey(text: string | undefined): void {
  const slot = document.getElementById('needs-user-key-slot');
  if (!slot) return;
  slot.replaceChildren();
  if (text) slot.append(el('div', { class: 'banner warning', role: 'note', id: 'needs-user-key' }, el('strong', {}, 'Needs a User key. '), text));
}

function setRunning(value: boolean): void {
  running = value;
  (byId('run') as HTMLButtonElement).disabled = value;
  (byId('cancel') as HTMLButtonElement).disabled = !value;
}

function currentArgs(): Record<string, unknown> | undefined {
  const out = form?.collect();
  if (!out) return undefined;
  if ('errors' in out) {
    setStatus(`Fix the arguments first:\n${out.errors.join('\n')}`, 'error');
    return undefined;
  }
  return out.args;
}

function init(t: ToolView, args: Record<string, unknown> | undefined, h: CallView[]): void {
  tool = t;
  history = h;
  app.replaceChildren();
  const header = el('header', {}, el('h1', {}, t.title ?? t.name), el('div', { class: 'muted' }, `${t.name} · ${t.serverLabel}${t.readOnly ? ' · read-only' : ''}`));
  if (t.description) {
    const d = el('div', { class: 'description' });
    d.append(renderMarkdown(t.description));
    header.append(d);
  }
  app.append(header);
  app.append(el('div', { id: 'needs-user-key-slot' }));
  setNeedsUserKey(t.needsUserKey);

  const formEl = el('form', { id: 'tool-form', 'aria-label': `Arguments of ${t.name}` });
  const fields = el('div', { id: 'fields' });
  formEl.append(fields);
  const model = buildFormModel(t.inputSchema);
  const run = el('button', { type: 'submit', id: 'run' }, 'Run');
  const cancel = el('button', { type: 'button', id: 'cancel', class: 'secondary', disabled: '' }, 'Cancel');
  const rawToggle = el('button', { type: 'button', id: 'raw-toggle', class: 'secondary' }, 'Edit as JSON');
  const copyRpc = el('button', { type: 'button', class: 'secondary' }, 'Copy as JSON-RPC');
  const copyCurl = el('button', { type: 'button', class: 'secondary' }, 'Copy as curl');
  formEl.append(el('div', { class: 'toolbar' }, run, cancel, rawToggle, copyRpc, copyCurl));
  app.append(formEl, el('div', { id: 'status', 'aria-live': 'polite' }), el('div', { id: 'result' }), el('h2', {}, 'History'), el('ul', { id: 'history', class: 'history' }));
  form = new FormView(fields, model, args);
  if (!model.fullyExpressible) setStatus('Parts of this schema (anyOf, $ref, free-form objects) are edited as raw JSON.');
  rawToggle.textContent = form.rawMode ? 'Edit as form' : 'Edit as JSON';

  formEl.addEventListener('submit', (ev) => {
    ev.preventDefault();
    if (running) return;
    const a = currentArgs();
    if (a) send({ type: 'run', args: a });
  });
  cancel.addEventListener('click', () => send({ type: 'cancel' }));
  rawToggle.addEventListener('click', () => {
    const err = form?.toggleRaw();
    if (err) setStatus(err, 'error');
    else setStatus('');
    rawToggle.textContent = form?.rawMode ? 'Edit as form' : 'Edit as JSON';
  });
  copyRpc.addEventListener('click', () => {
    const a = currentArgs();
    if (a) send({ type: 'copy', format: 'jsonrpc', args: a });
  });
  copyCurl.addEventListener('click', () => {
    const a = currentArgs();
    if (a) send({ type: 'copy', format: 'curl', args: a });
  });
  renderHistory();
}

function onMessage(m: HostToWebview): void {
  switch (m.type) {
    case 'init':
      init(m.tool, m.args, m.history);
      return;
    case 'running':
      setRunning(true);
      setStatus(`Running ${tool?.name ?? ''}…`);
      return;
    case 'invalidArgs': {
      setRunning(false);
      const rest = form?.showIssues(m.issues) ?? [];
      setStatus(`Not sent: the arguments do not match the schema.${rest.length ? '\n' + rest.join('\n') : ''}`, 'error');
      return;
    }
    case 'notRun':
      setRunning(false);
      setStatus(m.reason, 'warning');
      return;
    case 'result':
      setRunning(false);
      setStatus('');
      byId('result').replaceChildren(renderCall(m.call, actions));
      return;
    case 'history':
      history = m.history;
      renderHistory();
      return;
    case 'needsUserKey':
      setNeedsUserKey(m.text);
      return;
  }
}

window.addEventListener('message', (ev: MessageEvent<unknown>) => {
  if (isHostToWebview(ev.data)) onMessage(ev.data);
});
send({ type: 'ready' });
