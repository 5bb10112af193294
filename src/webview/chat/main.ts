/**
 * Chat webview entry (browser). Talks to the host only through src/protocol/chatProtocol.ts.
 * Holds no secrets: the webview never sees an API key, and its saved state is just the draft text.
 *
 * The page is one state object (state.ts) and renderers that each own a part of the page: layout.ts
 * builds the elements, chrome.ts the toolbar, banners and status line, messages.ts the message list,
 * stream.ts the reply streaming in, composer.ts the text box and its keys. This file routes the
 * host's messages and the page's clicks to them.
 */
import './bootMark';
import '../kit/l10n'; // first: the page's translations before anything builds an element
import { isHostToWebview, type HostHandlers } from '../../protocol/chatProtocol';
import { dispatch } from '../../protocol/declare';
import { installLinkInterceptor } from '../kit/links';
import { codeLanguage } from './codeLanguage';
import { loadRendererAfterPageLoad } from './rendererLoader';
import { post, requests } from './host';
import { page } from './state';
import * as l10n from '../../core/l10n';
import { announce, input, notice, settingsBtn } from './layout';
import { renderChrome, setSettingsOpen } from './chrome';
import { applyRating, mergeMessages, renderMessages, showEarlier, takeEarlier } from './messages';
import { appendChunk, endStream, showCountdown, startStream, upsertToolCall } from './stream';
import { editLastMessage, restoreInput, send, showPromptCost } from './composer';
import { showContextItems } from './completion';
import './messageNav';

// Every link (and image placeholder) opens through the host, which confirms non-https ones.
installLinkInterceptor(document, (href) => post({ type: 'openLink', href }));

/** Copies through the host; a screen reader hears it done, as a sighted user sees it in the status bar (#30.3). */
function copied(text: string): void {
  post({ type: 'copy', text });
  announce(l10n.t('Copied to clipboard.'));
}

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
    case 'pickReasoningEffort':
      return post({ type: 'pickReasoningEffort' });
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
    case 'continueReply':
      if (messageId) post({ type: 'continueReply', messageId });
      return;
    case 'copyRequestIdOf':
      return post({ type: 'copy', text: btn.dataset.requestId ?? '' });
    case 'toggleSettings':
      return setSettingsOpen(settingsBtn.getAttribute('aria-expanded') !== 'true');
    case 'setApiKey':
      return post({ type: 'setApiKey' });
    case 'removeAttachment':
      return post({ type: 'removeAttachment', attachmentId: btn.dataset.attachmentId ?? '' });
    case 'implicitContext':
      // The chip's button goes away with the chip: the keyboard goes back to the message box.
      input.focus();
      return post({ type: 'implicitContext', include: btn.dataset.include === 'true' });
    case 'switchTo':
      return post({ type: 'selectModel', modelId: btn.dataset.modelId ?? '' });
    case 'copyCode':
    case 'insertCode':
    case 'applyCode':
    case 'newFile': {
      const code = btn.closest('.code-block')?.querySelector('pre code') ?? btn.closest('.code-block')?.querySelector('pre');
      if (!code) return;
      const text = code.textContent ?? '';
      const language = code.tagName === 'CODE' ? codeLanguage(code) : undefined;
      if (action === 'copyCode') return copied(text);
      return post({ type: action, code: text, ...(language ? { language } : {}) });
    }
    case 'copyMessage': {
      const m = messageId ? page.messageViews.get(messageId) : undefined;
      if (m) copied(m.content);
      return;
    }
    case 'regenerate':
      return post({ type: 'regenerate' });
    case 'showVersion': {
      const index = Number(btn.dataset.index);
      if (!messageId || !Number.isSafeInteger(index) || index < 1) return;
      if (btn === document.activeElement) page.versionFocus = { messageId, dir: btn.dataset.dir === 'prev' ? 'prev' : 'next' };
      return post({ type: 'showVersion', messageId, index });
    }
    case 'editMessage':
      return editLastMessage();
    case 'rateReply': {
      const rating = btn.dataset.rating;
      if (!messageId || (rating !== 'up' && rating !== 'down') || btn.getAttribute('aria-busy') === 'true') return;
      // Both thumbs wait for the host's answer; the pressed one changes only once the gateway accepted it.
      btn.closest('.message-actions')?.querySelectorAll<HTMLElement>('button[data-action="rateReply"]').forEach((b) => b.setAttribute('aria-busy', 'true'));
      requests.send('rateReply', { messageId, rating });
      return;
    }
    case 'errorAction': {
      const a = btn.dataset.errorAction;
      if (messageId && (a === 'setApiKey' || a === 'retry' || a === 'copyRequestId' || a === 'switchModel')) post({ type: 'errorAction', action: a, messageId });
      return;
    }
  }
});

// ---------- host messages ----------

/**
 * A late `focusInput` (the user asked for this chat before the page was ready) found the keyboard
 * elsewhere: the input takes it when this page gets the focus next, never by taking it from the view
 * the user is typing in meanwhile.
 */
let inputOnArrival = false;

/** One handler per host message (the compiler refuses a missing one). */
const onHost: HostHandlers = {
  state: (msg) => {
    const { state } = page;
    // A new reasoning effort changes the prompt cost's line too (what it says about reasoning tokens).
    const modelChanged =
      state?.selectedModelId !== msg.state.selectedModelId || state?.conversation.id !== msg.state.conversation.id || state?.conversation.reasoningEffort !== msg.state.conversation.reasoningEffort;
    page.state = msg.state;
    mergeMessages(msg.state.conversation);
    renderChrome(msg.state);
    renderMessages(msg.state);
    // Another model or conversation prices the same draft differently (cached counts answer at once).
    if (modelChanged && !page.editing && input.value.trim()) requests.send('draft', { text: input.value });
  },
  conversations: () => {},
  conversationsChanged: () => {},
  streamStart: (msg) => startStream(msg.requestId, msg.message),
  streamChunk: (msg) => appendChunk(msg.requestId, msg.text),
  streamDone: (msg) => endStream(msg.requestId, msg.message),
  streamError: (msg) => endStream(msg.requestId, msg.message),
  retryCountdown: (msg) => showCountdown(msg.requestId, msg.attempt, msg.seconds),
  toolCall: (msg) => upsertToolCall(msg.requestId, msg.call),
  setInput: (msg) => restoreInput(msg.text, msg.mode ?? 'send'),
  focusInput: (msg) => {
    inputOnArrival = false;
    if (!msg.late || document.hasFocus()) input.focus();
    else inputOnArrival = true;
  },
  promptCost: (msg) => showPromptCost(msg.text, msg.estimate),
  replyRating: (msg) => applyRating(msg.messageId, msg.rating, msg.error),
  earlierMessages: (msg) => takeEarlier(msg.conversationId, msg.start, msg.messages),
  contextItems: (msg) => showContextItems(msg.items),
  notice: (msg) => {
    notice.textContent = msg.text;
    window.setTimeout(() => {
      if (notice.textContent === msg.text) notice.textContent = '';
    }, 8000);
  },
};

window.addEventListener('message', (e: MessageEvent<unknown>) => {
  const msg = e.data;
  // Anything not in the protocol, and an answer to a question no longer asked, is ignored.
  if (!isHostToWebview(msg) || !requests.accept(msg)) return;
  dispatch(onHost, msg);
});

post({ type: 'ready' });
performance.mark('aiGateway/chat/built');
// The Markdown renderer loads after the page (rendererLoader.ts); what waited for it is drawn first,
// then the first reply's first paint should not pay for the renderer's first use (see warmRenderer).
loadRendererAfterPageLoad((r) => r.warmRenderer(() => page.active !== undefined));
// No input.focus() here: a view that loads in the sidebar must not take the keyboard from the editor
// or close an open QuickPick. The host sends `focusInput` when the user asked for the chat.

// The keyboard comes back where it was (#30.3): a picker the page opened (the model button, the paperclip)
// closes, the host gives the webview the focus again, and the page would otherwise have it on <body>.
let lastFocused: HTMLElement | undefined;
document.addEventListener('focusin', (e) => {
  if (e.target instanceof HTMLElement && e.target !== document.body) lastFocused = e.target;
});
window.addEventListener('focus', () => {
  if (document.activeElement !== document.body && document.activeElement !== null) return;
  if (inputOnArrival) {
    inputOnArrival = false;
    return input.focus();
  }
  if (lastFocused?.isConnected && !lastFocused.closest('[hidden]') && !(lastFocused as HTMLButtonElement).disabled) lastFocused.focus();
});
