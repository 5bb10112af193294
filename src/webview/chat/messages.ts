/**
 * The message list: building a message (header, attachment chips, tool calls, body, footer), keeping
 * the list in step with the host's state without rebuilding what did not change, rendering reply
 * bodies lazily as they come near the view, and paging a long conversation's earlier messages in.
 */
import type { ChatStateView, ChatErrorAction, MessageView, ReplyRating, UsageView } from '../../protocol/chatProtocol';
import { h } from '../kit/dom';
import { renderReplyBody } from './rendererLoader';
import { renderToolCall } from './toolCalls';
import { post, requests } from './host';
import { announce, button, emptyState, formatSize, icon, iconButton, messagesEl } from './layout';
import { isLast, isLastUser, page } from './state';
import * as l10n from '../../core/l10n';
import { formatCostView } from '../kit/format';

// ---------- lazy rendering of long histories ----------
// While the view sticks to the bottom, any message that changes height (placeholder to real height,
// a late image, a tool call opening) keeps the end in view. Observed per message element.
export const sizes = new ResizeObserver(() => {
  if (page.stickToBottom) scrollToBottom();
});

const lazy = new IntersectionObserver(
  (entries) => {
    for (const e of entries) {
      if (!e.isIntersecting) continue;
      const body = e.target as HTMLElement;
      lazy.unobserve(body);
      const id = body.dataset.messageId;
      const m = id ? page.messageViews.get(id) : undefined;
      if (m) renderReplyBody(body, m.content, estimatedHeight(m));
    }
  },
  { root: messagesEl, rootMargin: '800px 0px' },
);

// ---------- one message ----------

export function signature(m: MessageView): string {
  const calls = (m.toolCalls ?? []).map((c) => `${c.id}:${c.status}:${c.approval?.decision ?? ''}`).join(',');
  return [m.status, m.content.length, m.content.slice(-24), JSON.stringify(m.error ?? null), m.cost?.nanocredits ?? '', m.usage?.totalTokens ?? '', calls, m.stopped ? `stopped:${m.stopped.note ?? ''}` : '', m.cutOff ? `cut:${m.cutOff.text}` : '', m.version ? `${m.version.index}/${m.version.count}` : ''].join('|');
}

export function footSigOf(m: MessageView): string {
  return `${signature(m)}|${isLast(m.id)}|${isLastUser(m.id)}|${m.feedback ? m.feedback.rating ?? 'none' : ''}|${page.feedbackErrors.get(m.id) ?? ''}`;
}

function usageLine(m: MessageView): string | undefined {
  if (!m.usage && !m.cost) return undefined;
  const parts: string[] = [];
  if (m.usage) parts.push(tokensText(m.usage));
  // A stopped reply the gateway reported no usage for: an estimate, and it says so.
  if (m.cost) parts.push(m.costEstimated ? l10n.t('≈{0} (estimated)', formatCostView(m.cost)) : formatCostView(m.cost));
  if (m.rounds && m.rounds.length > 1) parts.push(l10n.t('{0} rounds', m.rounds.length));
  return parts.join(' · ');
}

/** "120 prompt · 30 completion tokens", with reasoning and the prompt's cache reads and writes when there were any (#39.3). */
function tokensText(u: UsageView): string {
  const n = (x: number) => x.toLocaleString(l10n.displayLocale());
  const text = u.reasoningTokens
    ? l10n.t('{0} prompt · {1} completion · {2} reasoning tokens', n(u.promptTokens), n(u.completionTokens), n(u.reasoningTokens))
    : l10n.t('{0} prompt · {1} completion tokens', n(u.promptTokens), n(u.completionTokens));
  const cache: string[] = [];
  if (u.cacheReadTokens) cache.push(l10n.t('{0} cache read', n(u.cacheReadTokens)));
  if (u.cacheWriteTokens) cache.push(l10n.t('{0} cache write', n(u.cacheWriteTokens)));
  return cache.length ? `${text} (${cache.join(', ')})` : text;
}

/** Agent replies: each model round's tokens and exact cost (the usage line above is their sum). */
function roundsList(m: MessageView): HTMLElement | undefined {
  if (!m.rounds || m.rounds.length < 2) return undefined;
  const list = h('ul', { class: 'rounds muted', 'aria-label': l10n.t('Cost per round') });
  for (const r of m.rounds) {
    const bits = [l10n.t('Round {0}', r.round)];
    if (r.usage) bits.push(tokensText(r.usage));
    if (r.cost) bits.push(r.costEstimated ? l10n.t('≈{0} (estimated)', formatCostView(r.cost)) : formatCostView(r.cost));
    if (r.cutOff) bits.push(r.cutOff);
    const item = h('li', { text: bits.join(' · ') });
    if (r.costBasis) item.title = r.costBasis;
    list.append(item);
  }
  return list;
}

/** Copy, Edit (your last message) and Regenerate (the last reply): shown on hover and on keyboard focus. */
function actionsFor(m: MessageView): HTMLElement {
  const bar = h('div', { class: 'message-actions', role: 'group', 'aria-label': l10n.t('Message actions') });
  if (m.status !== 'streaming') {
    bar.append(iconButton('copy', l10n.t('Copy'), 'copyMessage'));
    if (m.role === 'user' && isLastUser(m.id)) bar.append(iconButton('edit', l10n.t('Edit (Up in the empty input)'), 'editMessage'));
    if (m.role === 'assistant' && isLast(m.id)) bar.append(iconButton('refresh', l10n.t('Regenerate'), 'regenerate'));
    // Agent-session replies: response feedback. The thumb the gateway accepted is pressed (filled icon).
    if (m.feedback) bar.append(thumb(m, 'up'), thumb(m, 'down'));
  }
  return bar;
}

/**
 * "‹ 2/3 ›": the versions of a regenerated reply; the buttons at either end are disabled, and their
 * label then says there is none (not "Next version (3 of 2)", a version that does not exist).
 */
function versionSwitch(index: number, count: number): HTMLElement {
  const first = index <= 1;
  const last = index >= count;
  const prevLabel = first ? l10n.t('Previous version: none, this is the first of {0}', count) : l10n.t('Previous version ({0} of {1})', index - 1, count);
  const nextLabel = last ? l10n.t('Next version: none, this is the last of {0}', count) : l10n.t('Next version ({0} of {1})', index + 1, count);
  const prev = iconButton('chevron-left', prevLabel, 'showVersion', { 'data-index': String(index - 1), 'data-dir': 'prev' });
  const next = iconButton('chevron-right', nextLabel, 'showVersion', { 'data-index': String(index + 1), 'data-dir': 'next' });
  prev.disabled = first;
  next.disabled = last;
  return h('span', { class: 'version-switch', role: 'group', 'aria-label': l10n.t('Version {0} of {1}', index, count) }, prev, h('span', { class: 'version-count muted', 'aria-hidden': 'true', text: `${index}/${count}` }), next);
}

function thumb(m: MessageView, rating: ReplyRating): HTMLButtonElement {
  const pressed = m.feedback?.rating === rating;
  const name = rating === 'up' ? 'thumbsup' : 'thumbsdown';
  const label = rating === 'up' ? l10n.t('Thumbs Up (send feedback: helpful)') : l10n.t('Thumbs Down (send feedback: not helpful)');
  const b = iconButton(pressed ? `${name}-filled` : name, label, 'rateReply', { 'data-rating': rating, 'aria-pressed': String(pressed) });
  b.classList.toggle('checked', pressed);
  return b;
}

/** The model's display name for a reply's header, from the catalog when it still lists the model. */
function speaker(m: MessageView): string {
  if (m.role === 'user') return l10n.t('You');
  const { state } = page;
  const agent = state?.conversation.agentSession;
  if (agent) return agent.agentName;
  const id = m.modelId ?? state?.conversation.modelId;
  return state?.models.find((o) => o.id === id)?.label ?? id ?? l10n.t('Assistant');
}

export function footerFor(m: MessageView): HTMLElement {
  const footer = h('div', { class: 'message-footer' });
  // Always visible (not only on hover like the actions): which version of a regenerated reply this is.
  if (m.version && m.version.count > 1 && m.status !== 'streaming') footer.append(versionSwitch(m.version.index, m.version.count));
  footer.append(actionsFor(m));
  const feedbackError = page.feedbackErrors.get(m.id);
  if (feedbackError) footer.append(h('div', { class: 'feedback-error', role: 'alert', text: feedbackError }));
  // Stopped by the user: said quietly, not as a failure (no error box, no Incomplete badge, no Retry).
  if (m.stopped) footer.append(h('span', { class: 'stopped-note muted' }, icon('debug-stop'), h('span', { text: m.stopped.note ?? l10n.t('Stopped') })));
  else if (m.status === 'incomplete') footer.append(h('span', { class: 'badge', text: l10n.t('Incomplete') }));
  // Cut off by the output limit (or another end than a normal one): said plainly, never as finished.
  if (m.cutOff) {
    const note = h('div', { class: 'cut-off-note', role: 'note' }, icon('warning'), h('span', { text: m.cutOff.text }));
    if (m.cutOff.continuable && m.role === 'assistant' && isLast(m.id) && m.status !== 'streaming') note.append(button(l10n.t('Continue'), 'continueReply'));
    footer.append(note);
  }
  const usage = usageLine(m);
  if (usage) {
    const line = h('span', { class: 'muted usage', text: usage });
    // What the cost was computed from (the host's words: the gateway's usage or an estimate, the pricing_version).
    if (m.costBasis) line.title = m.costBasis;
    else if (m.costEstimated) line.title = l10n.t('Estimated: the reply was stopped before the gateway reported its usage (about 4 characters per token at the model’s rates).');
    footer.append(line);
  }
  const rounds = roundsList(m);
  if (rounds) footer.append(rounds);
  if (m.error) {
    const err = h('div', { class: 'error', role: 'alert' }, h('div', { class: 'error-message', text: m.error.message }));
    if (m.error.detail) err.append(h('div', { class: 'error-detail', text: m.error.detail }));
    if (m.error.requestId) err.append(h('div', { class: 'muted request-id', text: l10n.t('Request ID: {0}', m.error.requestId) }));
    const actions = h('div', { class: 'error-actions' });
    const labels: Record<ChatErrorAction, string> = { setApiKey: l10n.t('Set API Key'), retry: l10n.t('Retry'), copyRequestId: l10n.t('Copy Request ID'), switchModel: l10n.t('Switch Model') };
    for (const a of m.error.actions) actions.append(button(labels[a], 'errorAction', { 'data-error-action': a }));
    err.append(actions);
    footer.append(err);
  }
  return footer;
}

export const toolActions = { copyText: (text: string) => post({ type: 'copy', text }) };

export function buildMessage(m: MessageView, eager = false): HTMLElement {
  const who = speaker(m);
  const el = h('article', { class: `message ${m.role} ${m.status}`, 'data-message-id': m.id, 'aria-label': who });
  el.append(h('div', { class: 'message-header' }, icon(m.role === 'user' ? 'account' : 'sparkle'), h('span', { class: 'role', text: who })));
  if (m.attachments?.length) {
    el.append(h('div', { class: 'chips' }, ...m.attachments.map((a) => h('span', { class: 'chip', text: `${a.label} (${formatSize(a.size)})` }))));
  }
  if (m.role === 'assistant') {
    const calls = h('div', { class: 'tool-calls', 'aria-label': l10n.t('Tool calls') });
    for (const c of m.toolCalls ?? []) calls.append(renderToolCall(c, toolActions));
    el.append(calls);
  }
  const body = h('div', { class: 'body', 'data-message-id': m.id });
  if (m.role === 'user') {
    body.classList.add('plain');
    body.textContent = m.content;
  } else if (m.status !== 'streaming' && m.content) {
    if (eager) renderReplyBody(body, m.content, estimatedHeight(m));
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
export function part(el: HTMLElement, cls: 'body' | 'message-footer' | 'tool-calls'): HTMLElement | undefined {
  for (const c of Array.from(el.children)) if (c.classList.contains(cls)) return c as HTMLElement;
  return undefined;
}

/** A reply's placeholder height before its body is rendered (the list's scroll range stays about right). */
function estimatedHeight(m: MessageView): number {
  return Math.min(1200, 24 + Math.ceil(m.content.length / 90) * 18);
}

/** The host's answer to a thumb: redraws that reply's footer, keeping keyboard focus on the thumb. */
export function applyRating(messageId: string, rating: ReplyRating | null, error: string | undefined): void {
  const m = page.messageViews.get(messageId);
  if (!m?.feedback) return;
  m.feedback = rating ? { rating } : {};
  const inState = page.state?.conversation.messages.find((x) => x.id === messageId);
  if (inState) inState.feedback = m.feedback;
  if (error) page.feedbackErrors.set(messageId, error);
  else page.feedbackErrors.delete(messageId);
  const entry = page.rendered.get(messageId);
  const footer = entry && part(entry.el, 'message-footer');
  if (!entry || !footer) return;
  const focused = document.activeElement instanceof HTMLElement && footer.contains(document.activeElement) ? document.activeElement.dataset.rating : undefined;
  footer.replaceWith(footerFor(m));
  entry.sig = signature(m);
  entry.footSig = footSigOf(m);
  if (focused) part(entry.el, 'message-footer')?.querySelector<HTMLElement>(`button[data-rating="${focused}"]`)?.focus();
  announce(error ?? (rating === 'up' ? l10n.t('Thumbs up sent.') : rating === 'down' ? l10n.t('Thumbs down sent.') : ''));
}

// ---------- the list, and a long conversation's window ----------

/**
 * A long conversation is built from its end: the last WINDOW messages when it opens, then WINDOW more
 * each time the user scrolls near the top (or presses "Show earlier messages"). Opening a 500-message
 * conversation then costs what opening a 40-message one does.
 */
const WINDOW = 40;
/** At least this many of the last messages render their body when a conversation opens. */
const EAGER_MIN = 6;

/** Takes a state's messages into `known`, keeping earlier ones already loaded for the same conversation. */
export function mergeMessages(c: ChatStateView['conversation']): void {
  const from = c.earlier ?? 0;
  if (page.knownConversation === c.id && from >= page.knownFrom && from <= page.knownFrom + page.known.length) {
    page.known = page.known.slice(0, from - page.knownFrom).concat(c.messages);
    return;
  }
  page.known = c.messages.slice();
  page.knownFrom = from;
  page.knownConversation = c.id;
  page.loadingEarlier = false;
}

/** The host's answer to loadEarlier: the messages just before `known`. */
export function takeEarlier(conversationId: string, start: number, messages: MessageView[]): void {
  page.loadingEarlier = false;
  if (conversationId !== page.knownConversation || start + messages.length !== page.knownFrom) return;
  page.known = messages.concat(page.known);
  page.knownFrom = start;
  // Still near the top (or the button was pressed while they came): build them now.
  if (earlier.parentElement) {
    nearTop.unobserve(earlier);
    nearTop.observe(earlier);
  }
}

const earlier = h('button', { type: 'button', id: 'earlier-messages', class: 'earlier-messages', 'data-action': 'showEarlier' });
const nearTop = new IntersectionObserver(
  (entries) => {
    if (entries.some((e) => e.isIntersecting)) showEarlier();
  },
  { root: messagesEl, rootMargin: '800px 0px 0px 0px' },
);

/** Builds the next WINDOW older messages above the ones shown, keeping what is on screen where it is. */
export function showEarlier(): void {
  if (!page.state || page.windowStart === 0) return;
  if (page.windowStart - WINDOW < page.knownFrom && page.knownFrom > 0 && !page.loadingEarlier) {
    page.loadingEarlier = true;
    requests.send('loadEarlier', { conversationId: page.knownConversation, end: page.knownFrom });
  }
  if (page.windowStart === page.knownFrom) return; // the rest comes with the host's answer
  // Reading upward: the list lets go of its bottom now, even if the scroll event that got the user
  // here has not been handled yet (it would otherwise pull the view back down first).
  page.stickToBottom = false;
  const anchor = messagesEl.querySelector<HTMLElement>('article.message');
  const before = anchor?.getBoundingClientRect().top ?? 0;
  const hadFocus = document.activeElement === earlier;
  page.windowStart = Math.max(page.knownFrom, page.windowStart - WINDOW);
  renderMessages(page.state);
  if (anchor) messagesEl.scrollTop += anchor.getBoundingClientRect().top - before;
  if (hadFocus && page.windowStart === 0) messagesEl.focus({ preventScroll: true });
  // Still near the top (short messages): observing afresh reports the current intersection again.
  nearTop.unobserve(earlier);
  if (page.windowStart > 0) nearTop.observe(earlier);
}

export function renderMessages(s: ChatStateView): void {
  const { known, knownFrom, rendered } = page;
  const total = knownFrom + known.length;
  const at = (i: number): MessageView => known[i - knownFrom];
  /** Replies from this index render their body at once; older ones when they come near the view. */
  let eagerFrom = total;
  if (page.renderedConversation !== s.conversation.id) {
    for (const { el } of rendered.values()) {
      const body = part(el, 'body');
      if (body) lazy.unobserve(body);
    }
    rendered.clear();
    sizes.disconnect();
    page.feedbackErrors.clear();
    messagesEl.replaceChildren();
    page.renderedConversation = s.conversation.id;
    page.stickToBottom = true;
    page.windowStart = Math.max(knownFrom, total - WINDOW);
    // What fills the view at the bottom is rendered in this frame, not one observer callback later:
    // twice the view's height by estimate, and at least the last EAGER_MIN messages (an estimate can
    // run high, and a reply half in view at the top would otherwise wait for the observer).
    let room = 2 * (messagesEl.clientHeight || 800);
    while (eagerFrom > page.windowStart && (room > 0 || total - eagerFrom < EAGER_MIN)) room -= estimatedHeight(at(--eagerFrom));
  }
  page.windowStart = Math.max(knownFrom, Math.min(page.windowStart, total - WINDOW));
  const { windowStart } = page;
  page.messageViews.clear();
  for (const m of known) page.messageViews.set(m.id, m);
  const wanted: HTMLElement[] = [];
  const ids = new Set<string>();
  for (let i = windowStart; i < total; i++) {
    const m = at(i);
    ids.add(m.id);
    const sig = signature(m);
    const footSig = footSigOf(m);
    const prev = rendered.get(m.id);
    if (prev && (prev.sig === sig || page.active?.messageId === m.id)) {
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
    earlier.textContent = windowStart === 1 ? l10n.t('Show 1 earlier message') : l10n.t('Show {0} earlier messages', windowStart);
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
  if (page.stickToBottom) scrollToBottom();
  restoreVersionFocus();
}

/** After ‹ or › the footer is rebuilt: the keyboard goes back to the same button (or the other one at an end). */
function restoreVersionFocus(): void {
  const want = page.versionFocus;
  if (!want) return;
  const el = page.rendered.get(want.messageId)?.el;
  const sw = el && part(el, 'message-footer')?.querySelector('.version-switch');
  if (!sw) return;
  page.versionFocus = undefined;
  const same = sw.querySelector<HTMLButtonElement>(`button[data-dir="${want.dir}"]`);
  const target = same && !same.disabled ? same : sw.querySelector<HTMLButtonElement>('button:not([disabled])');
  target?.focus();
  announce(sw.getAttribute('aria-label') ?? '');
}

export function scrollToBottom(): void {
  messagesEl.scrollTop = messagesEl.scrollHeight;
}

messagesEl.addEventListener('scroll', () => {
  const top = messagesEl.scrollTop;
  const atBottom = messagesEl.scrollHeight - top - messagesEl.clientHeight < 40;
  // Only a move up lets go of the bottom. Messages off screen are laid out with a placeholder height
  // (content-visibility) and take their real one when they come near the view; the scroll events that
  // causes must not count as the user scrolling away, or a long conversation opens above its end.
  if (atBottom) page.stickToBottom = true;
  else if (top < page.lastScrollTop) page.stickToBottom = false;
  page.lastScrollTop = top;
});
