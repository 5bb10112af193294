/**
 * The tool runner webview: form, run/copy toolbar, result and this tool's history. Talks to the host
 * only through src/protocol/toolsProtocol.ts.
 */
import '../kit/l10n'; // first: the page's translations before anything builds an element
import { buildFormModel } from '../../protocol/toolsForm';
import { isHostToWebview, type CallView, type HostToWebview, type ToolView, type WebviewToHost } from '../../protocol/toolsProtocol';
import { dispatch, type Handlers } from '../../protocol/declare';
import { h } from '../kit/dom';
import { installLinkInterceptor } from '../kit/links';
import { FormView } from './form';
import { renderMarkdown } from './markdown';
import { renderCall, type ResultActions } from './results';
import './tools.css';
import * as l10n from '../../core/l10n';

declare function acquireVsCodeApi(): { postMessage(message: unknown): void; getState(): unknown; setState(state: unknown): void };
const vscode = acquireVsCodeApi();
const send = (m: WebviewToHost): void => vscode.postMessage(m);

const app = document.getElementById('app') as HTMLElement;
let tool: ToolView | undefined;
let form: FormView | undefined;
let history: CallView[] = [];
let running = false;

// Every link (results, the tool's description, image placeholders) opens through the host, which
// confirms web links and offers other schemes for copying.
installLinkInterceptor(document, (href) => send({ type: 'openLink', href }));

const actions: ResultActions = {
  retry: (callId) => send({ type: 'retry', callId }),
  copyText: (text) => send({ type: 'copyText', text }),
  siteDetails: (siteId) => send({ type: 'siteDetails', siteId }),
};

const SAFE_ICON = /^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/]+={0,2}$/;

/** The tool's annotations as badges (#42.4); undefined when it has none. */
function hintBadges(t: ToolView): HTMLElement | undefined {
  const words: Array<[string, string]> = [];
  if (t.hints?.readOnly) words.push([l10n.t('read-only'), 'read-only']);
  if (t.hints?.destructive) words.push([l10n.t('destructive'), 'destructive']);
  if (t.hints?.idempotent) words.push([l10n.t('idempotent'), 'idempotent']);
  if (t.hints?.openWorld) words.push([l10n.t('open world'), 'open-world']);
  if (words.length === 0) return undefined;
  const list = h('ul', { class: 'hints', 'aria-label': l10n.t('What the server says about this tool') });
  for (const [word, key] of words) list.append(h('li', { class: `badge hint-${key}`, 'data-hint': key }, word));
  return list;
}

function byId(id: string): HTMLElement {
  return document.getElementById(id) as HTMLElement;
}

function setStatus(text: string, kind: 'info' | 'error' | 'warning' = 'info'): void {
  const s = byId('status');
  s.replaceChildren();
  if (text) s.append(h('div', { class: `banner ${kind === 'info' ? '' : kind}`, role: kind === 'info' ? 'status' : 'alert' }, text));
}

function renderHistory(): void {
  const list = byId('history');
  list.replaceChildren();
  if (history.length === 0) {
    list.append(h('li', { class: 'muted' }, l10n.t('No calls yet.')));
    return;
  }
  for (const call of history) {
    const state = call.failure ? l10n.t({ message: 'failed', comment: ['a tool call\'s status'] }) : call.toolError ? call.toolError.code : l10n.t({ message: 'ok', comment: ['a tool call that succeeded'] });
    const b = h('button', { type: 'button', class: 'secondary' }, l10n.t('Show'));
    b.addEventListener('click', () => send({ type: 'load', callId: call.id }));
    list.append(h('li', {}, b, ` ${new Date(call.startedAt).toLocaleTimeString(l10n.displayLocale())} · ${state} · ${l10n.t('{0} ms', call.durationMs.toLocaleString(l10n.displayLocale()))} · `, h('code', {}, JSON.stringify(call.args).slice(0, 120))));
  }
}

function setNeedsUserKey(text: string | undefined): void {
  const slot = document.getElementById('needs-user-key-slot');
  if (!slot) return;
  slot.replaceChildren();
  if (text) slot.append(h('div', { class: 'banner warning', role: 'note', id: 'needs-user-key' }, h('strong', {}, `${l10n.t('Needs a User key.')} `), text));
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
    setStatus(`${l10n.t('Fix the arguments first:')}\n${out.errors.join('\n')}`, 'error');
    return undefined;
  }
  return out.args;
}

function init(t: ToolView, args: Record<string, unknown> | undefined, calls: CallView[]): void {
  tool = t;
  history = calls;
  app.replaceChildren();
  const title = h('h1', {}, t.title ?? t.name);
  // The server's icon only as a data: URI of a raster image (checked by the host and again here); the CSP loads nothing else.
  if (t.icon && SAFE_ICON.test(t.icon) && t.icon.length <= 65_536) title.prepend(h('img', { class: 'tool-icon', src: t.icon, alt: '', width: '24', height: '24' }), ' ');
  const header = h('header', {}, title, h('div', { class: 'muted' }, `${t.name} · ${t.serverLabel}${t.readOnly && !t.hints ? ` · ${l10n.t('read-only')}` : ''}`));
  const hints = hintBadges(t);
  if (hints) header.append(hints);
  if (t.description) {
    const d = h('div', { class: 'description' });
    d.append(renderMarkdown(t.description));
    header.append(d);
  }
  if (t.hints?.destructive) header.append(h('div', { class: 'banner warning', role: 'note', id: 'destructive-note' }, l10n.t('This tool may be destructive (marked so, or not marked read-only or harmless): Run asks you to confirm before anything is sent, and Enter in the form does not run it.')));
  if (t.serverInstructions) {
    // Untrusted text from the server's initialize: shown as plain text (textContent), never Markdown or links.
    header.append(h('details', { class: 'server-instructions' }, h('summary', {}, l10n.t('Instructions of {0}', t.serverLabel)), h('pre', { class: 'plain' }, t.serverInstructions)));
  }
  app.append(header);
  app.append(h('div', { id: 'needs-user-key-slot' }));
  setNeedsUserKey(t.needsUserKey);

  const formEl = h('form', { id: 'tool-form', 'aria-label': l10n.t('Arguments of {0}', t.name) });
  const fields = h('div', { id: 'fields' });
  formEl.append(fields);
  const model = buildFormModel(t.inputSchema);
  // A destructive tool's Run is never the form's default action: Enter does not press it (#42.4); the host asks before sending.
  const destructive = t.hints?.destructive === true;
  const run = h('button', { type: destructive ? 'button' : 'submit', id: 'run', ...(destructive ? { class: 'destructive' } : {}) }, l10n.t({ message: 'Run', comment: ['a button: runs the tool'] }));
  const cancel = h('button', { type: 'button', id: 'cancel', class: 'secondary', disabled: '' }, l10n.t('Cancel'));
  const rawToggle = h('button', { type: 'button', id: 'raw-toggle', class: 'secondary' }, l10n.t('Edit as JSON'));
  const copyRpc = h('button', { type: 'button', class: 'secondary' }, l10n.t('Copy as JSON-RPC'));
  const copyCurl = h('button', { type: 'button', class: 'secondary' }, l10n.t('Copy as curl'));
  formEl.append(h('div', { class: 'toolbar' }, run, cancel, rawToggle, copyRpc, copyCurl));
  app.append(formEl, h('div', { id: 'status', 'aria-live': 'polite' }), h('div', { id: 'result' }), h('h2', {}, l10n.t('History')), h('ul', { id: 'history', class: 'history' }));
  form = new FormView(fields, model, args);
  if (!model.fullyExpressible) setStatus(l10n.t('Parts of this schema (anyOf, $ref, free-form objects) are edited as raw JSON.'));
  rawToggle.textContent = form.rawMode ? l10n.t('Edit as form') : l10n.t('Edit as JSON');

  const runNow = (): void => {
    if (running) return;
    const a = currentArgs();
    if (a) send({ type: 'run', args: a });
  };
  formEl.addEventListener('submit', (ev) => {
    ev.preventDefault();
    if (!destructive) runNow();
  });
  if (destructive) run.addEventListener('click', runNow);
  cancel.addEventListener('click', () => send({ type: 'cancel' }));
  rawToggle.addEventListener('click', () => {
    const err = form?.toggleRaw();
    if (err) setStatus(err, 'error');
    else setStatus('');
    rawToggle.textContent = form?.rawMode ? l10n.t('Edit as form') : l10n.t('Edit as JSON');
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

/** One handler per host message (the compiler refuses a missing one). */
const onHost: Handlers<HostToWebview, void> = {
  init: (m) => init(m.tool, m.args, m.history),
  running: () => {
    setRunning(true);
    setStatus(l10n.t('Running {0}…', tool?.name ?? ''));
  },
  invalidArgs: (m) => {
    setRunning(false);
    const rest = form?.showIssues(m.issues) ?? [];
    setStatus(`${l10n.t('Not sent: the arguments do not match the schema.')}${rest.length ? '\n' + rest.join('\n') : ''}`, 'error');
  },
  notRun: (m) => {
    setRunning(false);
    setStatus(m.reason, 'warning');
  },
  result: (m) => {
    setRunning(false);
    setStatus('');
    byId('result').replaceChildren(renderCall(m.call, actions));
  },
  history: (m) => {
    history = m.history;
    renderHistory();
  },
  needsUserKey: (m) => setNeedsUserKey(m.text),
};

window.addEventListener('message', (ev: MessageEvent<unknown>) => {
  if (isHostToWebview(ev.data)) dispatch(onHost, ev.data);
});
send({ type: 'ready' });
