/**
 * The reply streaming in: its message is built when it starts, its body belongs to the stream
 * renderer (streamRenderer.ts) until it ends, its tool calls are redrawn as they change, and a retry
 * countdown shows in its footer while the gateway is busy.
 */
import type { MessageView, ToolCallView } from '../../protocol/chatProtocol';
import { h } from '../kit/dom';
import { LazyStream } from './rendererLoader';
import { GO_TO_APPROVAL_KEY, renderToolCall } from './toolCalls';
import { announce, emptyState, messagesEl } from './layout';
import { setBusy } from './chrome';
import { buildMessage, footSigOf, footerFor, part, scrollToBottom, signature, sizes, toolActions } from './messages';
import { page } from './state';
import * as l10n from '../../core/l10n';
import { formatCostView } from '../kit/format';

export function startStream(requestId: string, m: MessageView): void {
  page.messageViews.set(m.id, m);
  setBusy(true);
  emptyState.hidden = true;
  let entry = page.rendered.get(m.id);
  if (!entry) {
    entry = { el: buildMessage(m), sig: '', footSig: '' };
    sizes.observe(entry.el);
    page.rendered.set(m.id, entry);
    messagesEl.append(entry.el);
  }
  const body = part(entry.el, 'body');
  if (!body) return;
  body.replaceChildren();
  body.setAttribute('aria-busy', 'true');
  // Keeping the end in view as the reply grows is the size observer's job (`sizes`, observing this message).
  const renderer = new LazyStream(body);
  page.active = { requestId, messageId: m.id, renderer };
}

/** A chunk of the streaming reply's text. */
export function appendChunk(requestId: string, text: string): void {
  const { active } = page;
  if (active?.requestId !== requestId) return;
  if (active.countdown !== undefined) stopCountdown();
  active.renderer.append(text);
}

export function endStream(requestId: string, m: MessageView): void {
  const { active } = page;
  if (!active || active.requestId !== requestId) return;
  active.renderer.finish();
  stopCountdown();
  const entry = page.rendered.get(m.id);
  if (entry) {
    part(entry.el, 'body')?.removeAttribute('aria-busy');
    part(entry.el, 'message-footer')?.replaceWith(footerFor(m));
    entry.el.className = `message ${m.role} ${m.status}`;
    // The streamed DOM is final: the next state must not rebuild (re-parse) this message.
    entry.sig = signature(m);
    entry.footSig = footSigOf(m);
  }
  page.messageViews.set(m.id, m);
  // One announcement per reply, once it has settled (#30.3): its text, not each block as it streamed in.
  const said = (entry && part(entry.el, 'body')?.textContent?.replace(/\s+/g, ' ').trim()) || m.content;
  announce(
    m.status === 'complete'
      ? m.cutOff
        ? l10n.t('Response ended. {0} {1}', m.cutOff.text, said)
        : l10n.t('Response complete. {0}', said)
      : m.stopped
        ? !m.cost
          ? l10n.t('Stopped.')
          : m.costEstimated
            ? l10n.t('Stopped. Cost about {0} (estimated).', formatCostView(m.cost))
            : l10n.t('Stopped. Cost {0}.', formatCostView(m.cost))
        : (m.error?.message ?? l10n.t('Response incomplete.')),
  );
  page.active = undefined;
  // The host is idle from here; don't wait for its next state to accept the next message.
  if (page.state) page.state.busy = false;
  setBusy(false);
  if (page.stickToBottom) scrollToBottom();
}

export function showCountdown(requestId: string, attempt: number, seconds: number): void {
  const { active } = page;
  if (!active || active.requestId !== requestId) return;
  stopCountdown();
  const el = page.rendered.get(active.messageId)?.el;
  if (!el) return;
  const box = h('div', { class: 'countdown', role: 'status' });
  part(el, 'message-footer')?.prepend(box);
  page.countdownBox = box;
  let left = seconds;
  const tick = () => {
    box.textContent = l10n.t('Gateway busy (attempt {0} failed). Retrying in {1} s…', attempt, left);
    left -= 1;
    if (left < 0) stopCountdown();
  };
  tick();
  active.countdown = window.setInterval(tick, 1000);
}

function stopCountdown(): void {
  const { active } = page;
  if (active?.countdown !== undefined) window.clearInterval(active.countdown);
  if (active) active.countdown = undefined;
  page.countdownBox?.remove();
  page.countdownBox = undefined;
}

/** Adds or redraws one tool call of the streaming reply, keeping the user's open/closed choice. */
export function upsertToolCall(requestId: string, c: ToolCallView): void {
  const { active } = page;
  if (!active || active.requestId !== requestId) return;
  const el = page.rendered.get(active.messageId)?.el;
  const box = el && part(el, 'tool-calls');
  if (!box) return;
  const m = page.messageViews.get(active.messageId);
  if (m) m.toolCalls = [...(m.toolCalls ?? []).filter((x) => x.id !== c.id), c];
  const fresh = renderToolCall(c, toolActions);
  const old = Array.from(box.children).find((x) => (x as HTMLElement).dataset.callId === c.id) as HTMLElement | undefined;
  if (old) {
    // A call the user opened stays open; one that now needs them opens.
    if ((old as HTMLDetailsElement).open) fresh.setAttribute('open', '');
    old.replaceWith(fresh);
  } else box.append(fresh);
  // Announced, never focused: the keyboard stays where the user is (a user still typing would answer
  // with Space or Enter). GO_TO_APPROVAL_KEY reaches it (goToApproval in composer.ts).
  if (c.status === 'awaiting-approval') announce(`${c.name} is waiting for your approval. Press ${GO_TO_APPROVAL_KEY} to go to it.`);
  if (page.stickToBottom) scrollToBottom();
}
