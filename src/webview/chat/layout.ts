/**
 * The chat page's elements, built once when the script runs: the message list, the banners and the
 * composer (the text box, its toolbar, the settings panel and the status line).
 *
 * No buttons above the messages: New Chat, History, Export and Open in Editor / Move to Sidebar are
 * the view's and the tab's title actions (package.json menus). What people use while typing sits in
 * one toolbar under the text box. The message layout leaves room for tool-call blocks (agent chat):
 * a `.tool-call` <details> goes into a message's `.body` flow, styled in chat.css.
 */
import { h } from '../kit/dom';
import * as l10n from '../../core/l10n';
import { icon, type CodiconName } from './icons';

export { icon };

export function button(label: string, action: string, extra: Record<string, string> = {}): HTMLButtonElement {
  return h('button', { type: 'button', 'data-action': action, text: label, ...extra });
}

/** An icon-only button like VS Code's action bar buttons: the label is for screen readers and the hover. */
export function iconButton(name: CodiconName, label: string, action: string, extra: Record<string, string> = {}): HTMLButtonElement {
  return h('button', { type: 'button', class: 'icon-button', 'data-action': action, 'aria-label': label, title: label, ...extra }, icon(name));
}

export function formatSize(chars: number): string {
  const locale = l10n.displayLocale();
  return chars < 1024 ? l10n.t('{0} chars', chars) : l10n.t('{0}k chars', (chars / 1024).toLocaleString(locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 }));
}

const app = document.getElementById('app') ?? document.body;
export const systemPrompt = h('textarea', { id: 'system-prompt', rows: '3', 'aria-label': l10n.t('System prompt'), placeholder: l10n.t('System prompt (optional)') });
export const tempRange = h('input', { id: 'temperature', type: 'range', step: '0.05', 'aria-label': l10n.t('Temperature') });
export const tempOut = h('output', { for: 'temperature', id: 'temperature-value' });
export const tempDefault = h('input', { id: 'temperature-default', type: 'checkbox' });
export const tempRow = h(
  'div',
  { class: 'temperature-row', id: 'temperature-row' },
  h('label', { for: 'temperature', text: l10n.t('Temperature') }),
  tempRange,
  tempOut,
  h('label', { class: 'inline' }, tempDefault, ` ${l10n.t('Model default')}`),
);
export const settingsPanel = h(
  'div',
  { id: 'settings-panel', class: 'settings-panel', role: 'group', 'aria-label': l10n.t('Chat settings'), hidden: '' },
  h('label', { for: 'system-prompt', class: 'settings-label', text: l10n.t('System prompt') }),
  systemPrompt,
  tempRow,
);
export const modelWarning = h('div', { id: 'model-warning', class: 'warning', role: 'status', hidden: '' });
export const removedBanner = h('div', { id: 'removed-banner', class: 'warning', role: 'alert', hidden: '' });
export const messagesEl = h('div', { id: 'messages', class: 'messages', tabindex: '0', 'aria-label': l10n.t('Messages') });
export const emptyState = h('div', { id: 'empty-state', class: 'empty-state' });
const live = h('div', { class: 'sr-only', 'aria-live': 'polite', 'aria-atomic': 'false', id: 'live' });
export const chips = h('div', { id: 'chips', class: 'chips', 'aria-label': l10n.t('Attachments') });
export const estimate = h('span', { id: 'estimate', class: 'muted' });
/** The prompt's cost before sending, from the host (count_tokens × the input rate). */
export const promptCost = h('span', { id: 'prompt-cost', class: 'muted' });
export const totalCost = h('span', { id: 'total-cost', class: 'muted' });
export const notice = h('div', { id: 'notice', class: 'notice', role: 'status' });
export const input = h('textarea', {
  id: 'input',
  rows: '3',
  'aria-label': l10n.t('Message'),
  placeholder: l10n.t('Ask anything. Enter sends, Shift+Enter adds a line, Up edits your last message, Escape stops.'),
});
export const modelName = h('span', { class: 'model-name', text: l10n.t('Model') });
export const modelBadge = h('span', { class: 'badge deprecated-badge', text: l10n.t('deprecated'), hidden: '' });
export const modelBtn = h('button', { type: 'button', id: 'model', class: 'toolbar-model', 'data-action': 'pickModel', 'aria-haspopup': 'true' }, modelName, modelBadge, icon('chevron-down'));
/**
 * Reasoning effort (#43.3), beside the model: the chosen value (or "default"), hidden when the catalog
 * does not say the model takes one; a warning when it describes one in a form this version does not read.
 * A toolbar button like the model's, so roving focus covers it; the values are a quick pick of the host.
 */
export const effortIcon = icon('lightbulb');
export const effortValue = h('span', { class: 'effort-value' });
export const effortBtn = h('button', { type: 'button', id: 'reasoning-effort', class: 'toolbar-model reasoning-effort', 'data-action': 'pickReasoningEffort', 'aria-haspopup': 'true', hidden: '' }, effortIcon, effortValue);
export const attachBtn = iconButton('attach', l10n.t('Attach Context (selection, file, workspace files)'), 'attachMenu', { id: 'attach', 'aria-haspopup': 'true' });
export const settingsBtn = iconButton('settings-gear', l10n.t('Chat Settings (system prompt, temperature)'), 'toggleSettings', { id: 'settings', 'aria-expanded': 'false', 'aria-controls': 'settings-panel' });
/**
 * Slot for agent chat: the agent-mode switch and the tool count go here, between the model and the
 * attach button, as toolbar buttons (`icon-button` or `toolbar-model` style) so roving focus covers them.
 */
export const agentSlot = h('span', { id: 'agent-slot', class: 'agent-slot', hidden: '' });
export const agentBtn = iconButton('tools', l10n.t('Agent Mode: let the model call tools'), 'toggleAgent', { id: 'agent-toggle', 'aria-pressed': 'false' });
export const toolCountBtn = h('button', { type: 'button', id: 'agent-tools', class: 'toolbar-model tool-count', 'data-action': 'agentTools', hidden: '' });
agentSlot.append(agentBtn, toolCountBtn);
export const agentNote = h('div', { id: 'agent-note', class: 'muted agent-note', role: 'status', hidden: '' });
/** Send and Stop are one button: its icon, label and action follow whether a reply is streaming. */
export const sendBtn = iconButton('send', l10n.t('Send (Enter)'), 'send', { id: 'send', class: 'icon-button send-button' });
export const toolbar = h(
  'div',
  { id: 'chat-toolbar', class: 'chat-toolbar', role: 'toolbar', 'aria-label': l10n.t('Message actions'), 'aria-orientation': 'horizontal' },
  modelBtn,
  effortBtn,
  agentSlot,
  attachBtn,
  settingsBtn,
  h('span', { class: 'spacer' }),
  sendBtn,
);
export const editBanner = h('div', { id: 'edit-banner', class: 'muted', hidden: '', text: l10n.t('Editing your last message. Escape cancels.') });

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

export function announce(text: string): void {
  // Keep the live region small: only the latest announcement matters.
  live.textContent = text.length > 500 ? `${text.slice(0, 500)}…` : text;
}
