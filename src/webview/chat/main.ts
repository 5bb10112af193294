/**
 * Chat webview entry (browser). Talks to the host only through src/shared/chatProtocol.ts.
 * Holds no secrets: the webview never sees an API key, and its saved state is just the draft text.
 */
import './bootMark';
import {
  isHostToWebview,
  type ChatStateView,
  type ErrorAction,
  type InputMode,
  type MessageView,
  type ModelOptionView,
  type ReplyRating,
  type ToolCallView,
  type WebviewToHost,
} from '../../shared/chatProtocol';
import { GO_TO_APPROVAL_KEY, isGoToApprovalKey, renderToolCall } from './toolCalls';
import { splitBlocks } from './blockSplitter';
import { h } from '../kit/dom';
import { installLinkInterceptor } from '../kit/links';
import { codeLanguage, warmRenderer } from './markdown';
import { renderStatic, StreamRenderer } from './streamRenderer';

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const post = (m: WebviewToHost): void => vscode.postMessage(m);

// Every link (and image placeholder) opens through the host, which confirms non-https ones.
installLinkInterceptor(document, (href) => post({ type: 'openLink', href }));

function button(label: string, action: string, extra: Record<string, string> = {}): HTMLButtonElement {
  return h('button', { type: 'button', 'data-action': action, text: label, ...extra });
}

function icon(name: string): HTMLElement {
  return h('span', { class: `codicon codicon-${name}`, 'aria-hidden': 'true' });
}

/** An icon-only button like VS Code's action bar buttons: the label is for screen readers and the hover. */
function iconButton(name: string, label: string, action: string, extra: Record<string, string> = {}): HTMLButtonElement {
  return h('button', { type: 'button', class: 'icon-button', 'data-action': action, 'aria-label': label, title: label, ...extra }, icon(name));
}

// ---------- layout ----------
//
// No buttons above the messages: New Chat, History, Export and Open in Editor / Move to Sidebar are
// the view's and the tab's title actions (package.json menus). What people use while typing sits in
// one toolbar under the text box. The message layout leaves room for tool-call blocks (agent chat):
// a `.tool-call` <details> goes into a message's `.body` flow, styled in chat.css.

const app = document.getElementById('app') ?? document.body;
const systemPrompt = h('textarea', { id: 'system-prompt', rows: '3', 'aria-label': 'System prompt', placeholder: 'System prompt (optional)' });
const tempRange = h('input', { id: 'temperature', type: 'range', step: '0.05', 'aria-label': 'Temperature' });
const tempOut = h('output', { for: 'temperature', id: 'temperature-value' });
const tempDefault = h('input', { id: 'temperature-default', type: 'checkbox' });
const tempRow = h(
  'div',
  { class: 'temperature-row', id: 'temperature-row' },
  h('label', { for: 'temperature', text: 'Temperature' }),
  tempRange,
  tempOut,
  h('label', { class: 'inline' }, tempDefault, ' Model default'),
);
const settingsPanel = h(
  'div',
  { id: 'settings-panel', class: 'settings-panel', role: 'group', 'aria-label': 'Chat settings', hidden: '' },
  h('label', { for: 'system-prompt', class: 'settings-label', text: 'System prompt' }),
  systemPrompt,
  tempRow,
);
const modelWarning = h('div', { id: 'model-warning', class: 'warning', role: 'status', hidden: '' });
const removedBanner = h('div', { id: 'removed-banner', class: 'warning', role: 'alert', hidden: '' });
const messagesEl = h('div', { id: 'messages', class: 'messages', tabindex: '0', 'aria-label': 'Messages' });
const emptyState = h('div', { id: 'empty-state', class: 'empty-state' });
const live = h('div', { class: 'sr-only', 'aria-live': 'polite', 'aria-atomic': 'false', id: 'live' });
const chips = h('div', { id: 'chips', class: 'chips', 'aria-label': 'Attachments' });
const estimate = h('span', { id: 'estimate', class: 'muted' });
/** The prompt's cost before sending, from the host (count_tokens × the input rate). */
const promptCost = h('span', { id: 'prompt-cost', class: 'muted' });
const totalCost = h('span', { id: 'total-cost', class: 'muted' });
const notice = h('div', { id: 'notice', class: 'notice', role: 'status' });
const input = h('textarea', {
  id: 'input',
  rows: '3',
  'aria-label': 'Message',
  placeholder: 'Ask anything. Enter sends, Shift+Enter adds a line, Up edits your last message, Escape stops.',
});
const modelName = h('span', { class: 'model-name', text: 'Model' });
const modelBadge = h('span', { class: 'badge deprecated-badge', text: 'deprecated', hidden: '' });
const modelBtn = h('button', { type: 'button', id: 'model', class: 'toolbar-model', 'data-action': 'pickModel', 'aria-haspopup': 'true' }, modelName, modelBadge, icon('chevron-down'));
const attachBtn = iconButton('attach', 'Attach Context (selection, file, workspace files)', 'attachMenu', { id: 'attach', 'aria-haspopup': 'true' });
const settingsBtn = iconButton('settings-gear', 'Chat Settings (system prompt, temperature)', 'toggleSettings', { id: 'settings', 'aria-expanded': 'false', 'aria-controls': 'settings-panel' });
/**
 * Slot for agent chat: the agent-mode switch and the tool count go here, between the model and the
 * attach button, as toolbar buttons (`icon-button` or `toolbar-model` style) so roving focus covers them.
 */
const agentSlot = h('span', { id: 'agent-slot', class: 'agent-slot', hidden: '' });
const agentBtn = iconButton('tools', 'Agent Mode: let the model call tools', 'toggleAgent', { id: 'agent-toggle', 'aria-pressed': 'false' });
const toolCountBtn = h('button', { type: 'button', id: 'agent-tools', class: 'toolbar-model tool-count', 'data-action': 'agentTools', hidden: '' });
agentSlot.append(agentBtn, toolCountBtn);
const agentNote = h('div', { id: 'agent-note', class: 'muted agent-note', role: 'status', hidden: '' });
/** Send and Stop are one button: its icon, label and action follow whether a reply is streaming. */
const sendBtn = iconButton('send', 'Send (Enter)', 'send', { id: 'send', class: 'icon-button send-button' });
const toolbar = h(
  'div',
  { id: 'chat-toolbar', class: 'chat-toolbar', role: 'toolbar', 'aria-label': 'Message actions', 'aria-orientation': 'horizontal' },
  modelBtn,
  agentSlot,
  attachBtn,
  settingsBtn,
  h('span', { class: 'spacer' }),
  sendBtn,
);
const editBanner = h('div', { id: 'edit-banner', class: 'muted', hidden: '', text: 'Editing your last message. Escape cancels.' });

app.append(
  h(
    'div',
    { class: 'column' },
    removedBanner,
    modelWarning,
    messagesEl,
    live,
    h(
      'footer',
      { class: 'composer' },
      notice,
      agentNote,
      settingsPanel,
      h('div', { class: 'input-box' }, chips, editBanner, input, toolbar),
      h('div', { class: 'composer-status' }, estimate, promptCost, totalCost),
    ),
  ),
);

// The toolbar is one tab stop; arrow keys, Home and End move inside it (WAI-ARIA toolbar pattern).
function toolbarItems(): HTMLElement[] {
  return Array.from(toolbar.querySelectorAll<HTMLElement>('button')).filter((b) => !b.hidden && !b.closest('[hidden]'));
}
function setRovingStop(target: HTMLElement): void {
  for (const b of toolbarItems()) b.tabIndex = b === target ? 0 : -1;
}
toolbar.addEventListener('keydown', (e) => {
  const items = toolbarItems();
  const i = items.indexOf(document.activeElement as HTMLElement);
  if (i < 0) return;
  const next =
    e.key === 'ArrowRight' ? items[(i + 1) % items.length] : e.key === 'ArrowLeft' ? items[(i - 1 + items.length) % items.length] : e.key === 'Home' ? items[0] : e.key === 'End' ? items[items.length - 1] : undefined;
  if (!next) return;
  e.preventDefault();
  setRovingStop(next);
  next.focus();
});
toolbar.addEventListener('focusin', (e) => {
  if (e.target instanceof HTMLElement && e.target.tagName === 'BUTTON') setRovingStop(e.target);
});
setRovingStop(modelBtn);

function setSettingsOpen(open: boolean): void {
  settingsPanel.hidden = !open;
  settingsBtn.setAttribute('aria-expanded', String(open));
  settingsBtn.classList.toggle('checked', open);
  if (open) systemPrompt.focus();
}

// ---------- state ----------

let state: ChatStateView | undefined;
let editing = false;
let stickToBottom = true;
const messageViews = new Map<string, MessageView>();
/** Rendered messages by id. `sig` covers the body (re-rendered only when it changes), `footSig` the footer. */
const rendered = new Map<string, { el: HTMLElement; sig: string; footSig: string }>();
let renderedConversation = '';
let active: { requestId: string; messageId: string; renderer: StreamRenderer; countdown?: number } | undefined;

const saved = vscode.getState();
if (typeof saved === 'object' && saved !== null && typeof (saved as { draft?: unknown }).draft === 'string') input.value = (saved as { draft: string }).draft;

function saveDraft(): void {
  vscode.setState({ draft: input.value });
}

function announce(text: string): void {
  // Keep the live region small: only the latest announcement matters.
  live.textContent = text.length > 500 ? `${text.slice(0, 500)}…` : text;
}

// ---------- lazy rendering of long histories ----------
// While the view sticks to the bottom, any message that changes height (placeholder to real height,
// a late image, a tool call opening) keeps the end in view. Observed per message element.
const sizes = new ResizeObserver(() => {
  if (stickToBottom) scrollToBottom();
});


const lazy = new IntersectionObserver(
  (entries) => {
    for (const e of entries) {
      if (!e.isIntersecting) continue;
      const body = e.target as HTMLElement;
      lazy.unobserve(body);
      const id = body.dataset.messageId;
      const m = id ? messageViews.get(id) : undefined;
      if (m) {
        renderStatic(body, m.content, splitBlocks(m.content));
        body.style.minHeight = '';
      }
    }
  },
  { root: messagesEl, rootMargin: '800px 0px' },
);

// ---------- messages ----------

function signature(m: MessageView): string {
  const calls = (m.toolCalls ?? []).map((c) => `${c.id}:${c.status}:${c.approval?.decision ?? ''}`).join(',');
  return [m.status, m.content.length, m.content.slice(-24), JSON.stringify(m.error ?? null), m.cost?.nanocredits ?? '', m.usage?.totalTokens ?? '', calls].join('|');
}

/** Why the last Thumbs Up / Thumbs Down of a reply was not sent, by message id (shown until the next try). */
const feedbackErrors = new Map<string, string>();

function footSigOf(m: MessageView): string {
  return `${signature(m)}|${isLast(m.id)}|${isLastUser(m.id)}|${m.feedback ? m.feedback.rating ?? 'none' : ''}|${feedbackErrors.get(m.id) ?? ''}`;
}

function usageLine(m: MessageView): string | undefined {
  if (!m.usage && !m.cost) return undefined;
  const parts: string[] = [];
  if (m.usage) {
    parts.push(`${m.usage.promptTokens} prompt`, `${m.usage.completionTokens} completion`);
    if (m.usage.reasoningTokens) parts.push(`${m.usage.reasoningTokens} reasoning`);
    parts[parts.length - 1] += ' tokens';
  }
  if (m.cost) parts.push(m.cost.display);
  if (m.rounds && m.rounds.length > 1) parts.push(`${m.rounds.length} rounds`);
  return parts.join(' · ');
}

/** Agent replies: each model round's tokens and exact cost (the usage line above is their sum). */
function roundsList(m: MessageView): HTMLElement | undefined {
  if (!m.rounds || m.rounds.length < 2) return undefined;
  const list = h('ul', { class: 'rounds muted', 'aria-label': 'Cost per round' });
  for (const r of m.rounds) {
    const bits = [`Round ${r.round}`];
    if (r.usage) bits.push(`${r.usage.promptTokens} prompt · ${r.usage.completionTokens} completion tokens`);
    if (r.cost) bits.push(r.cost.display);
    list.append(h('li', { text: bits.join(' · ') }));
  }
  return list;
}

/** Copy, Edit (your last message) and Regenerate (the last reply): shown on hover and on keyboard focus. */
function actionsFor(m: MessageView): HTMLElement {
  const bar = h('div', { class: 'message-actions', role: 'group', 'aria-label': 'Message actions' });
  if (m.status !== 'streaming') {
    bar.append(iconButton('copy', 'Copy', 'copyMessage'));
    if (m.role === 'user' && isLastUser(m.id)) bar.append(iconButton('edit', 'Edit (Up in the empty input)', 'editMessage'));
    if (m.role === 'assistant' && isLast(m.id)) bar.append(iconButton('refresh', 'Regenerate', 'regenerate'));
    // Agent-session replies: response feedback. The thumb the gateway accepted is pressed (filled icon).
    if (m.feedback) bar.append(thumb(m, 'up'), thumb(m, 'down'));
  }
  return bar;
}

function thumb(m: MessageView, rating: ReplyRating): HTMLButtonElement {
  const pressed = m.feedback?.rating === rating;
  const name = rating === 'up' ? 'thumbsup' : 'thumbsdown';
  const label = rating === 'up' ? 'Thumbs Up (send feedback: helpful)' : 'Thumbs Down (send feedback: not helpful)';
  const b = iconButton(pressed ? `${name}-filled` : name, label, 'rateReply', { 'data-rating': rating, 'aria-pressed': String(pressed) });
  b.classList.toggle('checked', pressed);
  return b;
}

/** The model's display name for a reply's header, from the catalog when it still lists the model. */
function speaker(m: MessageView): string {
  if (m.role === 'user') return 'You';
  const agent = state?.conversation.agentSession;
  if (agent) return agent.agentName;
  const id = m.modelId ?? state?.conversation.modelId;
  return state?.models.find((o) => o.id === id)?.label ?? id ?? 'Assistant';
}

function footerFor(m: MessageView): HTMLElement {
  const footer = h('div', { class: 'message-footer' });
  footer.append(actionsFor(m));
  const feedbackError = feedbackErrors.get(m.id);
  if (feedbackError) footer.append(h('div', { class: 'feedback-error', role: 'alert', text: feedbackError }));
  if (m.status === 'incomplete') footer.append(h('span', { class: 'badge', text: 'Incomplete' }));
  const usage = usageLine(m);
  if (usage) footer.append(h('span', { class: 'muted usage', text: usage }));
  const rounds = roundsList(m);
  if (rounds) footer.append(rounds);
  if (m.error) {
    const err = h('div', { class: 'error', role: 'alert' }, h('div', { class: 'error-message', text: m.error.message }));
    if (m.error.detail) err.append(h('div', { class: 'error-detail', text: m.error.detail }));
    if (m.error.requestId) err.append(h('div', { class: 'muted request-id', text: `Request ID: ${m.error.requestId}` }));
    const actions = h('div', { class: 'error-actions' });
    const labels: Record<ErrorAction, string> = { setApiKey: 'Set API Key', retry: 'Retry', copyRequestId: 'Copy Request ID', switchModel: 'Switch Model' };
    for (const a of m.error.actions) actions.append(button(labels[a], 'errorAction', { 'data-error-action': a }));
    err.append(actions);
    footer.append(err);
  }
  return footer;
}

function isLast(id: string): boolean {
  const msgs = state?.conversation.messages;
  return !!msgs && msgs[msgs.length - 1]?.id === id;
}

function isLastUser(id: string): boolean {
  const msgs = state?.conversation.messages ?? [];
  for (let i = msgs.length - 1; i >= 0; i--) if (msgs[i].role === 'user') return msgs[i].id === id;
  return false;
}

function buildMessage(m: MessageView, eager = false): HTMLElement {
  const who = speaker(m);
  const el = h('article', { class: `message ${m.role} ${m.status}`, 'data-message-id': m.id, 'aria-label': who });
  el.append(h('div', { class: 'message-header' }, icon(m.role === 'user' ? 'account' : 'sparkle'), h('span', { class: 'role', text: who })));
  if (m.attachments?.length) {
    el.append(h('div', { class: 'chips' }, ...m.attachments.map((a) => h('span', { class: 'chip', text: `${a.label} (${formatSize(a.size)})` }))));
  }
  if (m.role === 'assistant') {
    const calls = h('div', { class: 'tool-calls', 'aria-label': 'Tool calls' });
    for (const c of m.toolCalls ?? []) calls.append(renderToolCall(c, toolActions));
    el.append(calls);
  }
  const body = h('div', { class: 'body', 'data-message-id': m.id });
  if (m.role === 'user') {
    body.classList.add('plain');
    body.textContent = m.content;
  } else if (m.status !== 'streaming' && m.content) {
    if (eager) renderStatic(body, m.content, splitBlocks(m.content));
    else {
      body.style.minHeight = `${estimatedHeight(m)}px`;
      lazy.observe(body);
    }
  }
  el.append(body, footerFor(m));
  return el;
}

/**
 * One part of a built message (`buildMessage`: header, chips, tool calls, body, footer are its children).
 * Looks at the message's children only: a querySelector would walk a long reply's whole body first.
 */
function part(el: HTMLElement, cls: 'body' | 'message-footer' | 'tool-calls'): HTMLElement | undefined {
  for (const c of Array.from(el.children)) if (c.classList.contains(cls)) return c as HTMLElement;
  return undefined;
}

const toolActions = { copyText: (text: string) => post({ type: 'copy', text }) };

/** Adds or redraws one tool call of the streaming reply, keeping the user's open/closed choice. */
function upsertToolCall(requestId: string, c: ToolCallView): void {
  if (!active || active.requestId !== requestId) return;
  const el = rendered.get(active.messageId)?.el;
  const box = el && part(el, 'tool-calls');
  if (!box) return;
  const m = messageViews.get(active.messageId);
  if (m) m.toolCalls = [...(m.toolCalls ?? []).filter((x) => x.id !== c.id), c];
  const fresh = renderToolCall(c, toolActions);
  const old = Array.from(box.children).find((x) => (x as HTMLElement).dataset.callId === c.id) as HTMLElement | undefined;
  if (old) {
    // A call the user opened stays open; one that now needs them opens.
    if ((old as HTMLDetailsElement).open) fresh.setAttribute('open', '');
    old.replaceWith(fresh);
  } else box.append(fresh);
  // Announced, never focused: the keyboard stays where the user is (a user still typing would answer
  // with Space or Enter). GO_TO_APPROVAL_KEY reaches it (goToApproval).
  if (c.status === 'awaiting-approval') announce(`${c.name} is waiting for your approval. Press ${GO_TO_APPROVAL_KEY} to go to it.`);
  if (stickToBottom) scrollToBottom();
}

function formatSize(chars: number): string {
  return chars < 1024 ? `${chars} chars` : `${(chars / 1024).toFixed(1)}k chars`;
}

/**
 * A long conversation is built from its end: the last WINDOW messages when it opens, then WINDOW more
 * each time the user scrolls near the top (or presses "Show earlier messages"). Opening a 500-message
 * conversation then costs what opening a 40-message one does.
 */
const WINDOW = 40;
/** At least this many of the last messages render their body when a conversation opens. */
const EAGER_MIN = 6;
/** Index (in the conversation) of the first message built into the list. */
let windowStart = 0;
/**
 * The open conversation's messages this webview has: `known[i]` is message `knownFrom + i`. A state
 * carries only a long conversation's end (`earlier` says how many come before); the ones before are
 * asked for (`loadEarlier`) when the list's top comes near them.
 */
let known: MessageView[] = [];
let knownFrom = 0;
let knownConversation = '';
let loadingEarlier = false;

/** Takes a state's messages into `known`, keeping earlier ones already loaded for the same conversation. */
function mergeMessages(c: ChatStateView['conversation']): void {
  const from = c.earlier ?? 0;
  if (knownConversation === c.id && from >= knownFrom && from <= knownFrom + known.length) {
    known = known.slice(0, from - knownFrom).concat(c.messages);
    return;
  }
  known = c.messages.slice();
  knownFrom = from;
  knownConversation = c.id;
  loadingEarlier = false;
}

/** The host's answer to loadEarlier: the messages just before `known`. */
function takeEarlier(conversationId: string, start: number, messages: MessageView[]): void {
  loadingEarlier = false;
  if (conversationId !== knownConversation || start + messages.length !== knownFrom) return;
  known = messages.concat(known);
  knownFrom = start;
  // Still near the top (or the button was pressed while they came): build them now.
  if (earlier.parentElement) {
    nearTop.unobserve(earlier);
    nearTop.observe(earlier);
  }
}

const earlier = h('button', { type: 'button', id: 'earlier-messages', class: 'earlier-messages', 'data-action': 'showEarlier' });
const nearTop = new IntersectionObserver((entries) => {
  if (entries.some((e) => e.isIntersecting)) showEarlier();
}, { root: messagesEl, rootMargin: '800px 0px 0px 0px' });

/** Builds the next WINDOW older messages above the ones shown, keeping what is on screen where it is. */
function showEarlier(): void {
  if (!state || windowStart === 0) return;
  if (windowStart - WINDOW < knownFrom && knownFrom > 0 && !loadingEarlier) {
    loadingEarlier = true;
    post({ type: 'loadEarlier', conversationId: knownConversation, end: knownFrom });
  }
  if (windowStart === knownFrom) return; // the rest comes with the host's answer
  // Reading upward: the list lets go of its bottom now, even if the scroll event that got the user
  // here has not been handled yet (it would otherwise pull the view back down first).
  stickToBottom = false;
  const anchor = messagesEl.querySelector<HTMLElement>('article.message');
  const before = anchor?.getBoundingClientRect().top ?? 0;
  const hadFocus = document.activeElement === earlier;
  windowStart = Math.max(knownFrom, windowStart - WINDOW);
  renderMessages(state);
  if (anchor) messagesEl.scrollTop += anchor.getBoundingClientRect().top - before;
  if (hadFocus && windowStart === 0) messagesEl.focus({ preventScroll: true });
  // Still near the top (short messages): observing afresh reports the current intersection again.
  nearTop.unobserve(earlier);
  if (windowStart > 0) nearTop.observe(earlier);
}

/** A reply's placeholder height before its body is rendered (the list's scroll range stays about right). */
function estimatedHeight(m: MessageView): number {
  return Math.min(1200, 24 + Math.ceil(m.content.length / 90) * 18);
}

function renderMessages(s: ChatStateView): void {
  const total = knownFrom + known.length;
  const at = (i: number): MessageView => known[i - knownFrom];
  /** Replies from this index render their body at once; older ones when they come near the view. */
  let eagerFrom = total;
  if (renderedConversation !== s.conversation.id) {
    for (const { el } of rendered.values()) {
      const body = part(el, 'body');
      if (body) lazy.unobserve(body);
    }
    rendered.clear();
    sizes.disconnect();
    feedbackErrors.clear();
    messagesEl.replaceChildren();
    renderedConversation = s.conversation.id;
    stickToBottom = true;
    windowStart = Math.max(knownFrom, total - WINDOW);
    // What fills the view at the bottom is rendered in this frame, not one observer callback later:
    // twice the view's height by estimate, and at least the last EAGER_MIN messages (an estimate can
    // run high, and a reply half in view at the top would otherwise wait for the observer).
    let room = 2 * (messagesEl.clientHeight || 800);
    while (eagerFrom > windowStart && (room > 0 || total - eagerFrom < EAGER_MIN)) room -= estimatedHeight(at(--eagerFrom));
  }
  windowStart = Math.max(knownFrom, Math.min(windowStart, total - WINDOW));
  messageViews.clear();
  for (const m of known) messageViews.set(m.id, m);
  const wanted: HTMLElement[] = [];
  const ids = new Set<string>();
  for (let i = windowStart; i < total; i++) {
    const m = at(i);
    ids.add(m.id);
    const sig = signature(m);
    const footSig = footSigOf(m);
    const prev = rendered.get(m.id);
    if (prev && (prev.sig === sig || active?.messageId === m.id)) {
      // Same body (or the stream renderer owns it): at most the footer changes, e.g. which message
      // is last and so carries Regenerate or Edit.
      if (prev.footSig !== footSig) {
        part(prev.el, 'message-footer')?.replaceWith(footerFor(m));
        prev.el.className = `message ${m.role} ${m.status}`;
        prev.footSig = footSig;
      }
      prev.sig = sig;
      wanted.push(prev.el);
      continue;
    }
    const el = buildMessage(m, i >= eagerFrom);
    if (prev) {
      const body = part(prev.el, 'body');
      if (body) lazy.unobserve(body);
      sizes.unobserve(prev.el);
      prev.el.replaceWith(el);
    }
    sizes.observe(el);
    rendered.set(m.id, { el, sig, footSig });
    wanted.push(el);
  }
  if (emptyState.parentElement !== messagesEl) messagesEl.append(emptyState);
  for (const [id, r] of rendered) {
    if (!ids.has(id)) {
      sizes.unobserve(r.el);
      r.el.remove();
      rendered.delete(id);
    }
  }
  if (windowStart > 0) {
    earlier.textContent = windowStart === 1 ? 'Show 1 earlier message' : `Show ${windowStart} earlier messages`;
    if (messagesEl.firstChild !== earlier) {
      messagesEl.prepend(earlier);
      nearTop.observe(earlier);
    }
  } else if (earlier.parentElement) {
    nearTop.unobserve(earlier);
    earlier.remove();
  }
  const first = windowStart > 0 ? 1 : 0;
  // Move only what is out of place, so settled messages are not re-laid out needlessly.
  wanted.forEach((el, i) => {
    if (messagesEl.children[i + first] !== el) messagesEl.insertBefore(el, messagesEl.children[i + first] ?? null);
  });
  if (stickToBottom) scrollToBottom();
}

function scrollToBottom(): void {
  messagesEl.scrollTop = messagesEl.scrollHeight;
}

let lastScrollTop = 0;
messagesEl.addEventListener('scroll', () => {
  const top = messagesEl.scrollTop;
  const atBottom = messagesEl.scrollHeight - top - messagesEl.clientHeight < 40;
  // Only a move up lets go of the bottom. Messages off screen are laid out with a placeholder height
  // (content-visibility) and take their real one when they come near the view; the scroll events that
  // causes must not count as the user scrolling away, or a long conversation opens above its end.
  if (atBottom) stickToBottom = true;
  else if (top < lastScrollTop) stickToBottom = false;
  lastScrollTop = top;
});


// ---------- header / footer ----------

function selectedModel(s: ChatStateView): ModelOptionView | undefined {
  return s.models.find((m) => m.id === s.selectedModelId);
}

// The saved conversations are listed by the host's Conversation History quick pick (a title action);
// the webview keeps no list of its own and ignores the list messages.

function renderModelButton(s: ChatStateView): void {
  const model = selectedModel(s);
  const name = model?.label ?? (s.selectedModelId ? `${s.selectedModelId} (unavailable)` : s.models.length ? 'Pick a model' : 'No chat models');
  modelName.textContent = name;
  modelBadge.hidden = !model?.deprecated;
  const hover = [`Model: ${name}`, model?.rates, model?.warning, 'Click to change'].filter(Boolean).join('\n');
  modelBtn.title = hover;
  modelBtn.setAttribute('aria-label', `Model: ${name}${model?.deprecated ? ' (deprecated)' : ''}. Change model`);
}

function renderEmptyState(s: ChatStateView): void {
  const empty = s.conversation.messages.length === 0 && !active;
  emptyState.hidden = !empty;
  if (!empty) return;
  const key = s.apiKey;
  const model = selectedModel(s);
  const agent = s.conversation.agentSession;
  if (agent) {
    emptyState.replaceChildren(
      h('div', { class: 'empty-icon' }, icon('comment-discussion')),
      h('h2', { text: `Chat with the agent ${agent.agentName}` }),
      h(
        'ul',
        { class: 'empty-list' },
        h('li', { text: 'An agent conversation: each message goes to this agent session on the gateway, which answers with the agent.' }),
        h('li', { text: 'Rate a reply with Thumbs Up or Thumbs Down in its actions; the feedback goes to the gateway.' }),
        h('li', { text: 'The conversation is kept in Conversation History; opening it again continues the same session.' }),
      ),
    );
    return;
  }
  emptyState.replaceChildren(
    h('div', { class: 'empty-icon' }, icon('comment-discussion')),
    h('h2', { text: 'Chat with the AI Gateway' }),
    h(
      'ul',
      { class: 'empty-list' },
      h('li', { text: 'Ask about code, or attach a selection, a file or workspace files.' }),
      h('li', { text: 'Copy, insert or save code blocks from a reply.' }),
      h('li', { text: 'Edit your last message or regenerate a reply; history stays on this machine.' }),
    ),
    h('p', { class: 'empty-line' }, icon('sparkle'), ` Model: ${model?.label ?? s.selectedModelId ?? 'none yet'}`),
    key?.kind === 'ok'
      ? h('p', { class: 'empty-line' }, icon('key'), ` API key: ${key.name}`)
      : key
        ? h(
            'div',
            { class: 'empty-key' },
            h('p', { class: 'empty-line', text: key.kind === 'none' ? 'No API key yet: add one to start chatting.' : `The key "${key.name}" needs to be entered again.` }),
            button(key.kind === 'none' ? 'Add API Key' : 'Set API Key', 'setApiKey', { class: 'primary', id: 'add-api-key' }),
          )
        : '',
  );
}

function renderChrome(s: ChatStateView): void {
  renderModelButton(s);
  renderEmptyState(s);

  const model = selectedModel(s);
  modelWarning.hidden = !model?.warning;
  modelWarning.textContent = model?.warning ?? '';

  const removed = s.conversation.removedModel;
  removedBanner.hidden = !removed;
  removedBanner.replaceChildren();
  if (removed) {
    removedBanner.append(h('span', { text: `The model ${removed.modelId} of this conversation has been removed. ` }));
    if (removed.suggestion) removedBanner.append(button(`Switch to ${removed.suggestion}`, 'switchTo', { 'data-model-id': removed.suggestion }));
  }

  if (document.activeElement !== systemPrompt) systemPrompt.value = s.conversation.systemPrompt;
  const t = model?.temperature;
  tempRow.hidden = !t; // hidden when the model does not accept a temperature (G-CAT-5)
  if (t) {
    tempRange.min = String(t.min);
    tempRange.max = String(t.max);
    const v = s.conversation.temperature;
    tempDefault.checked = v === undefined;
    tempRange.disabled = v === undefined;
    tempRange.value = String(v ?? (t.min + t.max) / 2);
    tempOut.textContent = v === undefined ? 'default' : String(Math.min(t.max, Math.max(t.min, v)));
  }

  chips.replaceChildren(
    ...s.attachments.map((a) =>
      h('span', { class: 'chip' }, `${a.label} (${formatSize(a.size)}) `, button('×', 'removeAttachment', { 'data-attachment-id': a.id, 'aria-label': `Remove ${a.label}` })),
    ),
  );
  renderAgent(s);
  // An agent session answers with its own agent: no model, agent mode, system prompt or temperature here.
  const agentSession = !!s.conversation.agentSession;
  modelBtn.hidden = agentSession;
  settingsBtn.hidden = agentSession;
  if (agentSession) {
    agentSlot.hidden = true;
    agentNote.hidden = true;
    if (!settingsPanel.hidden) setSettingsOpen(false);
    modelWarning.hidden = true;
  }
  const first = toolbarItems()[0];
  if (first && !toolbarItems().some((b) => b.tabIndex === 0)) setRovingStop(first);
  attachBtn.setAttribute('aria-label', s.imageInput ? 'Attach Context (selection, file, workspace files, image)' : 'Attach Context (selection, file, workspace files)');
  attachBtn.title = attachBtn.getAttribute('aria-label') ?? '';
  totalCost.textContent = s.conversation.totalCost ? `Conversation: ${s.conversation.totalCost.display}` : '';
  updateEstimate();
  setBusy(s.busy);
}

/** The agent-mode switch (only for models that can call tools) and, when on, the tool count. */
function renderAgent(s: ChatStateView): void {
  const a = s.agent;
  agentSlot.hidden = !a?.available;
  if (!a?.available) {
    agentNote.hidden = true;
    return;
  }
  agentBtn.setAttribute('aria-pressed', String(a.on));
  agentBtn.classList.toggle('checked', a.on);
  const label = a.on ? 'Agent Mode is on: the model may call tools. Click to turn off' : 'Agent Mode: let the model call tools';
  agentBtn.setAttribute('aria-label', label);
  agentBtn.title = label;
  toolCountBtn.hidden = !a.on;
  const count = a.error ? 'tools: error' : a.toolCount === undefined ? 'tools…' : `${a.toolCount} tools`;
  toolCountBtn.textContent = count;
  const hover = [a.error ? `The tool list could not be loaded: ${a.error}` : a.toolNames?.length ? `Tools: ${a.toolNames.join(', ')}` : '', 'Click to turn knowledge-base search on or off and choose other MCP servers for this conversation'].filter(Boolean).join('\n');
  toolCountBtn.title = hover;
  toolCountBtn.setAttribute('aria-label', `${count}. Choose knowledge-base search and tool servers`);
  const note = a.on ? a.excluded ?? a.error : undefined;
  agentNote.hidden = !note;
  agentNote.textContent = note ?? '';
}

/** The one Send/Stop button: Stop while a reply streams, Send otherwise. */
function setBusy(busy: boolean): void {
  const label = busy ? 'Stop (Escape)' : 'Send (Enter)';
  sendBtn.dataset.action = busy ? 'stop' : 'send';
  sendBtn.setAttribute('aria-label', label);
  sendBtn.title = label;
  sendBtn.classList.toggle('stop', busy);
  sendBtn.replaceChildren(icon(busy ? 'debug-stop' : 'send'));
}

function updateEstimate(): void {
  const e = state?.contextEstimate;
  if (!e) return;
  // An agent session's context is the agent's, on the gateway: a token estimate here would mean nothing.
  if (state?.conversation.agentSession) {
    estimate.textContent = '';
    return;
  }
  const tokens = e.tokens + Math.ceil(input.value.length / 4);
  estimate.textContent = e.limit ? `≈${tokens.toLocaleString()} / ${e.limit.toLocaleString()} tokens` : `≈${tokens.toLocaleString()} tokens`;
  estimate.classList.toggle('over', !!e.limit && tokens > e.limit);
}

// ---------- streaming ----------

function startStream(requestId: string, m: MessageView): void {
  messageViews.set(m.id, m);
  setBusy(true);
  emptyState.hidden = true;
  let entry = rendered.get(m.id);
  if (!entry) {
    entry = { el: buildMessage(m), sig: '', footSig: '' };
    sizes.observe(entry.el);
    rendered.set(m.id, entry);
    messagesEl.append(entry.el);
  }
  const body = part(entry.el, 'body');
  if (!body) return;
  body.replaceChildren();
  body.setAttribute('aria-busy', 'true');
  // Keeping the end in view as the reply grows is the size observer's job (`sizes`, observing this message).
  const renderer = new StreamRenderer(body, announce);
  active = { requestId, messageId: m.id, renderer };
}

function endStream(requestId: string, m: MessageView): void {
  if (!active || active.requestId !== requestId) return;
  active.renderer.finish();
  stopCountdown();
  const entry = rendered.get(m.id);
  if (entry) {
    part(entry.el, 'body')?.removeAttribute('aria-busy');
    part(entry.el, 'message-footer')?.replaceWith(footerFor(m));
    entry.el.className = `message ${m.role} ${m.status}`;
    // The streamed DOM is final: the next state must not rebuild (re-parse) this message.
    entry.sig = signature(m);
    entry.footSig = footSigOf(m);
  }
  messageViews.set(m.id, m);
  announce(m.status === 'complete' ? 'Response complete.' : m.error?.message ?? 'Response incomplete.');
  active = undefined;
  // The host is idle from here; don't wait for its next state to accept the next message.
  if (state) state.busy = false;
  setBusy(false);
  if (stickToBottom) scrollToBottom();
}

function showCountdown(requestId: string, attempt: number, seconds: number): void {
  if (!active || active.requestId !== requestId) return;
  stopCountdown();
  const el = rendered.get(active.messageId)?.el;
  if (!el) return;
  const box = h('div', { class: 'countdown', role: 'status' });
  part(el, 'message-footer')?.prepend(box);
  countdownBox = box;
  let left = seconds;
  const tick = () => {
    box.textContent = `Gateway busy (attempt ${attempt} failed). Retrying in ${left} s…`;
    left -= 1;
    if (left < 0) stopCountdown();
  };
  tick();
  active.countdown = window.setInterval(tick, 1000);
}

/** The retry countdown on screen (one at most: the streaming reply's). */
let countdownBox: HTMLElement | undefined;

function stopCountdown(): void {
  if (active?.countdown !== undefined) window.clearInterval(active.countdown);
  if (active) active.countdown = undefined;
  countdownBox?.remove();
  countdownBox = undefined;
}

// ---------- input ----------

function lastUserMessage(): MessageView | undefined {
  const msgs = state?.conversation.messages ?? [];
  for (let i = msgs.length - 1; i >= 0; i--) if (msgs[i].role === 'user') return msgs[i];
  return undefined;
}

function setEditing(on: boolean): void {
  editing = on;
  editBanner.hidden = !on;
}

/** Puts back text the host could not send, in the mode it was sent in; never overwrites a newer draft. */
function restoreInput(text: string, mode: InputMode): void {
  if (input.value.trim()) return;
  input.value = text;
  // An edit that failed stays an edit: Enter must replace the last message again, not append a copy.
  setEditing(mode === 'editLast');
  saveDraft();
  updateEstimate();
}

function send(): void {
  const text = input.value;
  if (!text.trim() || state?.busy || active) return;
  post(editing ? { type: 'editLast', text } : { type: 'send', text });
  // Cleared optimistically; the host puts it back with setInput if the send cannot go out.
  input.value = '';
  saveDraft();
  setEditing(false);
  stickToBottom = true;
  updateEstimate();
}

input.addEventListener('keydown', (e) => {
  if (e.isComposing) return;
  if (e.key === 'Enter' && !e.shiftKey) {
    e.preventDefault();
    send();
  } else if (e.key === 'Escape') {
    if (active || state?.busy) {
      e.preventDefault();
      post({ type: 'stop' });
    } else if (editing) {
      e.preventDefault();
      setEditing(false);
      input.value = '';
      saveDraft();
    }
  } else if (e.key === 'ArrowUp' && input.value === '' && !active) {
    const last = lastUserMessage();
    if (last) {
      e.preventDefault();
      input.value = last.content;
      setEditing(true);
      saveDraft();
    }
  }
});
/** GO_TO_APPROVAL_KEY: to the first waiting approval card (not to its buttons); pressed there, back to the message box. */
function goToApproval(): void {
  const card = messagesEl.querySelector<HTMLElement>('.tool-call[data-status="awaiting-approval"] .tool-approval');
  if (!card) return announce('No tool call is waiting for your approval.');
  if (card.contains(document.activeElement)) return input.focus();
  card.closest('details')?.setAttribute('open', '');
  card.focus();
  card.scrollIntoView({ block: 'nearest' });
}
document.addEventListener('keydown', (e) => {
  if (isGoToApprovalKey(e)) {
    e.preventDefault();
    return goToApproval();
  }
  if (e.key !== 'Escape' || e.target === input) return;
  if (active || state?.busy) post({ type: 'stop' });
  else if (!settingsPanel.hidden && settingsPanel.contains(e.target as Node)) {
    setSettingsOpen(false);
    settingsBtn.focus();
  }
});
input.addEventListener('input', () => {
  saveDraft();
  updateEstimate();
  // The host debounces and caches the count; an edit of the last message is not priced as a new one.
  if (!editing) post({ type: 'draft', text: input.value });
  else promptCost.textContent = '';
});
systemPrompt.addEventListener('change', () => post({ type: 'setSystemPrompt', text: systemPrompt.value }));
tempRange.addEventListener('input', () => {
  tempOut.textContent = tempRange.value;
});
tempRange.addEventListener('change', () => post({ type: 'setTemperature', value: Number(tempRange.value) }));
tempDefault.addEventListener('change', () => post({ type: 'setTemperature', value: tempDefault.checked ? null : Number(tempRange.value) }));

// ---------- clicks (event delegation) ----------

document.addEventListener('click', (e) => {
  // Links never get here: the kit's interceptor stops them in the capture phase.
  const target = e.target as Element | null;
  const btn = target?.closest<HTMLElement>('button[data-action]');
  if (!btn) return;
  const action = btn.dataset.action;
  const messageId = btn.closest<HTMLElement>('.message')?.dataset.messageId;
  switch (action) {
    case 'send':
      return send();
    case 'stop':
      return post({ type: 'stop' });
    case 'pickModel':
      return post({ type: 'pickModel' });
    case 'attachMenu':
      return post({ type: 'attachMenu' });
    case 'toggleAgent':
      return post({ type: 'setAgent', on: btn.getAttribute('aria-pressed') !== 'true' });
    case 'agentTools':
      return post({ type: 'agentTools' });
    case 'approveTool':
    case 'denyTool': {
      const callId = btn.dataset.callId;
      if (!callId) return;
      // Answered once: both buttons go inert until the host's update redraws the call.
      btn.closest('.tool-approval')?.querySelectorAll('button').forEach((b) => b.setAttribute('disabled', ''));
      // Answered from the keyboard: back to the message box (a disabled button keeps no focus).
      if (btn === document.activeElement) input.focus();
      return post({ type: 'toolApproval', callId, approve: action === 'approveTool' });
    }
    case 'showEarlier':
      return showEarlier();
    case 'copyRequestIdOf':
      return post({ type: 'copy', text: btn.dataset.requestId ?? '' });
    case 'toggleSettings':
      return setSettingsOpen(settingsBtn.getAttribute('aria-expanded') !== 'true');
    case 'setApiKey':
      return post({ type: 'setApiKey' });
    case 'removeAttachment':
      return post({ type: 'removeAttachment', attachmentId: btn.dataset.attachmentId ?? '' });
    case 'switchTo':
      return post({ type: 'selectModel', modelId: btn.dataset.modelId ?? '' });
    case 'copyCode':
    case 'insertCode':
    case 'newFile': {
      const code = btn.closest('.code-block')?.querySelector('pre code') ?? btn.closest('.code-block')?.querySelector('pre');
      if (!code) return;
      const text = code.textContent ?? '';
      const language = code.tagName === 'CODE' ? codeLanguage(code) : undefined;
      if (action === 'copyCode') return post({ type: 'copy', text });
      return post({ type: action, code: text, ...(language ? { language } : {}) });
    }
    case 'copyMessage': {
      const m = messageId ? messageViews.get(messageId) : undefined;
      if (m) post({ type: 'copy', text: m.content });
      return;
    }
    case 'regenerate':
      return post({ type: 'regenerate' });
    case 'editMessage': {
      const m = lastUserMessage();
      if (m) {
        input.value = m.content;
        setEditing(true);
        input.focus();
      }
      return;
    }
    case 'rateReply': {
      const rating = btn.dataset.rating;
      if (!messageId || (rating !== 'up' && rating !== 'down') || btn.getAttribute('aria-busy') === 'true') return;
      // Both thumbs wait for the host's answer; the pressed one changes only once the gateway accepted it.
      btn.closest('.message-actions')?.querySelectorAll<HTMLElement>('button[data-action="rateReply"]').forEach((b) => b.setAttribute('aria-busy', 'true'));
      return post({ type: 'rateReply', messageId, rating });
    }
    case 'errorAction': {
      const a = btn.dataset.errorAction;
      if (messageId && (a === 'setApiKey' || a === 'retry' || a === 'copyRequestId' || a === 'switchModel')) post({ type: 'errorAction', action: a, messageId });
      return;
    }
  }
});

/** The host's answer to a thumb: redraws that reply's footer, keeping keyboard focus on the thumb. */
function applyRating(messageId: string, rating: ReplyRating | null, error: string | undefined): void {
  const m = messageViews.get(messageId);
  if (!m?.feedback) return;
  m.feedback = rating ? { rating } : {};
  const inState = state?.conversation.messages.find((x) => x.id === messageId);
  if (inState) inState.feedback = m.feedback;
  if (error) feedbackErrors.set(messageId, error);
  else feedbackErrors.delete(messageId);
  const entry = rendered.get(messageId);
  const footer = entry && part(entry.el, 'message-footer');
  if (!entry || !footer) return;
  const focused = document.activeElement instanceof HTMLElement && footer.contains(document.activeElement) ? document.activeElement.dataset.rating : undefined;
  footer.replaceWith(footerFor(m));
  entry.sig = signature(m);
  entry.footSig = footSigOf(m);
  if (focused) part(entry.el, 'message-footer')?.querySelector<HTMLElement>(`button[data-rating="${focused}"]`)?.focus();
  announce(error ?? (rating === 'up' ? 'Thumbs up sent.' : rating === 'down' ? 'Thumbs down sent.' : ''));
}

// ---------- host messages ----------

window.addEventListener('message', (e: MessageEvent<unknown>) => {
  const msg = e.data;
  if (!isHostToWebview(msg)) return;
  switch (msg.type) {
    case 'state': {
      const modelChanged = state?.selectedModelId !== msg.state.selectedModelId || state?.conversation.id !== msg.state.conversation.id;
      state = msg.state;
      mergeMessages(msg.state.conversation);
      renderChrome(msg.state);
      renderMessages(msg.state);
      // Another model or conversation prices the same draft differently (cached counts answer at once).
      if (modelChanged && !editing && input.value.trim()) post({ type: 'draft', text: input.value });
      return;
    }
    case 'conversations':
    case 'conversationsChanged':
      return;
    case 'streamStart':
      startStream(msg.requestId, msg.message);
      return;
    case 'streamChunk':
      if (active?.requestId === msg.requestId) {
        if (active.countdown !== undefined) stopCountdown();
        active.renderer.append(msg.text);
      }
      return;
    case 'streamDone':
    case 'streamError':
      endStream(msg.requestId, msg.message);
      return;
    case 'retryCountdown':
      showCountdown(msg.requestId, msg.attempt, msg.seconds);
      return;
    case 'toolCall':
      upsertToolCall(msg.requestId, msg.call);
      return;
    case 'setInput':
      restoreInput(msg.text, msg.mode ?? 'send');
      return;
    case 'focusInput':
      input.focus();
      return;
    case 'promptCost':
      promptCost.textContent = msg.text;
      promptCost.title = msg.text && `${msg.text}: ${msg.estimate ? 'an estimate (the gateway did not count these tokens)' : "exact (tokens counted by the gateway × the model's input rate)"}`;
      return;
    case 'replyRating':
      return applyRating(msg.messageId, msg.rating, msg.error);
    case 'earlierMessages':
      return takeEarlier(msg.conversationId, msg.start, msg.messages);
    case 'notice':
      notice.textContent = msg.text;
      window.setTimeout(() => {
        if (notice.textContent === msg.text) notice.textContent = '';
      }, 8000);
      return;
  }
});

post({ type: 'ready' });
performance.mark('aiGateway/chat/built');
// The first reply's first paint should not pay for the renderer's first use (see warmRenderer).
warmRenderer(() => active !== undefined);
// No input.focus() here: a view that loads in the sidebar must not take the keyboard from the editor
// or close an open QuickPick. The host sends `focusInput` when the user asked for the chat.
