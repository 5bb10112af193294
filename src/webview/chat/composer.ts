/**
 * The composer: the text box (its draft kept in the webview's saved state), its `#` and `/` completion
 * (completion.ts), Send and Edit, Escape to
 * stop or cancel, Up to edit the last message, the key to a waiting approval, and the settings panel's
 * system prompt and temperature.
 */
import type { InputMode } from '../../protocol/chatProtocol';
import { isGoToApprovalKey } from './toolCalls';
import { isEditLastKey } from './composerKeys';
import { post, requests, vscode } from './host';
import { announce, editBanner, input, messagesEl, promptCost, settingsBtn, settingsPanel, systemPrompt, tempDefault, tempOut, tempRange } from './layout';
import { setSettingsOpen, updateEstimate } from './chrome';
import { lastUserMessage, page } from './state';
import { closeCompletion, completionKey, updateCompletion } from './completion';
import * as l10n from '../../core/l10n';

const saved = vscode.getState();
if (typeof saved === 'object' && saved !== null && typeof (saved as { draft?: unknown }).draft === 'string') input.value = (saved as { draft: string }).draft;

function saveDraft(): void {
  vscode.setState({ draft: input.value });
}

function setEditing(on: boolean): void {
  page.editing = on;
  editBanner.hidden = !on;
}

/** Puts back text the host could not send, in the mode it was sent in; never overwrites a newer draft. */
export function restoreInput(text: string, mode: InputMode): void {
  if (input.value.trim()) return;
  input.value = text;
  // An edit that failed stays an edit: Enter must replace the last message again, not append a copy.
  setEditing(mode === 'editLast');
  saveDraft();
  updateEstimate();
}

export function send(): void {
  const text = input.value;
  if (!text.trim() || page.state?.busy || page.active) return;
  closeCompletion();
  post(page.editing ? { type: 'editLast', text } : { type: 'send', text });
  // Cleared optimistically; the host puts it back with setInput if the send cannot go out.
  input.value = '';
  saveDraft();
  setEditing(false);
  page.stickToBottom = true;
  updateEstimate();
}

/** The Edit action of your last message: its text into the input, in edit mode. */
export function editLastMessage(): void {
  const m = lastUserMessage();
  if (m) {
    input.value = m.content;
    setEditing(true);
    input.focus();
  }
}

/** The host's price of the current draft (empty: none to show). */
export function showPromptCost(text: string, estimate: boolean): void {
  promptCost.textContent = text;
  promptCost.title = text && (estimate ? l10n.t('{0}: an estimate (the gateway did not count these tokens)', text) : l10n.t("{0}: exact (tokens counted by the gateway × the model's input rate)", text));
}

input.addEventListener('keydown', (e) => {
  if (e.isComposing) return;
  // An open `#` / `/` list takes Up, Down, Enter, Tab and Escape first.
  if (completionKey(e)) {
    e.preventDefault();
    e.stopPropagation();
    return;
  }
  if (e.key === 'Enter' && !e.shiftKey) {
    e.preventDefault();
    send();
  } else if (e.key === 'Escape') {
    if (page.active || page.state?.busy) {
      e.preventDefault();
      post({ type: 'stop' });
    } else if (page.editing) {
      e.preventDefault();
      setEditing(false);
      input.value = '';
      saveDraft();
    }
  } else if (isEditLastKey(e) && input.value === '' && !page.active) {
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
  if (!card) return announce(l10n.t('No tool call is waiting for your approval.'));
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
  if (page.active || page.state?.busy) post({ type: 'stop' });
  else if (!settingsPanel.hidden && settingsPanel.contains(e.target as Node)) {
    setSettingsOpen(false);
    settingsBtn.focus();
  }
});
input.addEventListener('keyup', (e) => {
  if (e.key === 'ArrowLeft' || e.key === 'ArrowRight' || e.key === 'Home' || e.key === 'End') updateCompletion();
});
input.addEventListener('input', () => {
  updateCompletion();
  saveDraft();
  updateEstimate();
  // The host debounces and caches the count; an edit of the last message is not priced as a new one.
  if (!page.editing) requests.send('draft', { text: input.value });
  else promptCost.textContent = '';
});
systemPrompt.addEventListener('change', () => post({ type: 'setSystemPrompt', text: systemPrompt.value }));
tempRange.addEventListener('input', () => {
  tempOut.textContent = tempRange.value;
});
tempRange.addEventListener('change', () => post({ type: 'setTemperature', value: Number(tempRange.value) }));
tempDefault.addEventListener('change', () => post({ type: 'setTemperature', value: tempDefault.checked ? null : Number(tempRange.value) }));
