/**
 * The page's chrome: everything around the messages that follows the host's state. The toolbar (the
 * model button, agent mode and its tool count, attach, settings, Send/Stop), the banners, the settings
 * panel, the empty state, the attachment chips and the status line (token estimate, total cost).
 */
import type { ChatStateView, ModelOptionView } from '../../protocol/chatProtocol';
import { h } from '../kit/dom';
import { page } from './state';
import {
  agentBtn,
  agentNote,
  agentSlot,
  attachBtn,
  button,
  chips,
  effortBtn,
  effortIcon,
  effortValue,
  emptyState,
  estimate,
  formatSize,
  icon,
  input,
  modelBadge,
  modelBtn,
  modelName,
  modelWarning,
  removedBanner,
  sendBtn,
  settingsBtn,
  settingsPanel,
  systemPrompt,
  tempDefault,
  tempOut,
  tempRange,
  tempRow,
  toolbar,
  toolCountBtn,
  totalCost,
} from './layout';
import * as l10n from '../../core/l10n';
import { formatCostView } from '../kit/format';

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

export function setSettingsOpen(open: boolean): void {
  settingsPanel.hidden = !open;
  settingsBtn.setAttribute('aria-expanded', String(open));
  settingsBtn.classList.toggle('checked', open);
  if (open) systemPrompt.focus();
}

function selectedModel(s: ChatStateView): ModelOptionView | undefined {
  return s.models.find((m) => m.id === s.selectedModelId);
}

// The saved conversations are listed by the host's Conversation History quick pick (a title action);
// the webview keeps no list of its own and ignores the list messages.

function renderModelButton(s: ChatStateView): void {
  const model = selectedModel(s);
  const name = model?.label ?? (s.selectedModelId ? l10n.t('{0} (unavailable)', s.selectedModelId) : s.models.length ? l10n.t('Pick a model') : l10n.t('No chat models'));
  modelName.textContent = name;
  modelBadge.hidden = !model?.deprecated;
  const hover = [l10n.t('Model: {0}', name), model?.rates, model?.warning, l10n.t('Click to change')].filter(Boolean).join('\n');
  modelBtn.title = hover;
  modelBtn.setAttribute('aria-label', model?.deprecated ? l10n.t('Model: {0} (deprecated). Change model', name) : l10n.t('Model: {0}. Change model', name));
}

/**
 * The reasoning-effort button (#43.3): hidden when the model takes none; the value chosen, or "default"
 * (nothing sent); a warning, never a value, when the catalog describes it in a form not read here.
 */
function renderEffort(s: ChatStateView): void {
  const r = selectedModel(s)?.reasoning;
  effortBtn.hidden = !r || !!s.conversation.agentSession;
  effortBtn.classList.toggle('unknown', !!r && 'unknown' in r);
  if (!r) return;
  if ('unknown' in r) {
    effortIcon.className = 'codicon codicon-warning';
    effortValue.textContent = l10n.t({ message: 'effort', comment: ['short label of the reasoning-effort button when it cannot be set'] });
    const why = l10n.t('Reasoning effort: not available. The catalog describes it ({0}) in a form this version does not read; nothing is sent.', r.unknown);
    effortBtn.setAttribute('aria-label', why);
    effortBtn.title = why;
    return;
  }
  effortIcon.className = 'codicon codicon-lightbulb';
  const chosen = s.conversation.reasoningEffort;
  const value = chosen !== undefined && r.values.includes(chosen) ? chosen : undefined;
  effortValue.textContent = value ?? l10n.t({ message: 'default', comment: ['the reasoning-effort button: the model decides, nothing is sent'] });
  const label = value !== undefined ? l10n.t('Reasoning effort: {0}. Change', value) : l10n.t('Reasoning effort: model default. Change');
  effortBtn.setAttribute('aria-label', label);
  effortBtn.title = label;
}

function renderEmptyState(s: ChatStateView): void {
  const empty = s.conversation.messages.length === 0 && !page.active;
  emptyState.hidden = !empty;
  if (!empty) return;
  const key = s.apiKey;
  const model = selectedModel(s);
  const agent = s.conversation.agentSession;
  if (agent) {
    emptyState.replaceChildren(
      h('div', { class: 'empty-icon' }, icon('comment-discussion')),
      h('h2', { text: l10n.t('Chat with the agent {0}', agent.agentName) }),
      h(
        'ul',
        { class: 'empty-list' },
        h('li', { text: l10n.t('An agent conversation: each message goes to this agent session on the gateway, which answers with the agent.') }),
        h('li', { text: l10n.t('Rate a reply with Thumbs Up or Thumbs Down in its actions; the feedback goes to the gateway.') }),
        h('li', { text: l10n.t('The conversation is kept in Conversation History; opening it again continues the same session.') }),
      ),
    );
    return;
  }
  emptyState.replaceChildren(
    h('div', { class: 'empty-icon' }, icon('comment-discussion')),
    h('h2', { text: l10n.t('Chat with the AI Gateway') }),
    h(
      'ul',
      { class: 'empty-list' },
      h('li', { text: l10n.t('Ask about code, or attach a selection, a file or workspace files.') }),
      h('li', { text: l10n.t('Copy, insert or save code blocks from a reply.') }),
      h('li', { text: l10n.t('Edit your last message or regenerate a reply; history stays on this machine.') }),
    ),
    h('p', { class: 'empty-line' }, icon('sparkle'), ` ${l10n.t('Model: {0}', model?.label ?? s.selectedModelId ?? l10n.t('none yet'))}`),
    key?.kind === 'ok'
      ? h('p', { class: 'empty-line' }, icon('key'), ` ${l10n.t('API key: {0}', key.name)}`)
      : key
        ? h(
            'div',
            { class: 'empty-key' },
            h('p', { class: 'empty-line', text: key.kind === 'none' ? l10n.t('No API key yet: add one to start chatting.') : l10n.t('The key "{0}" needs to be entered again.', key.name) }),
            button(key.kind === 'none' ? l10n.t('Add API Key') : l10n.t('Set API Key'), 'setApiKey', { class: 'primary', id: 'add-api-key' }),
          )
        : '',
  );
}

export function renderChrome(s: ChatStateView): void {
  renderModelButton(s);
  renderEffort(s);
  renderEmptyState(s);

  const model = selectedModel(s);
  modelWarning.hidden = !model?.warning;
  modelWarning.textContent = model?.warning ?? '';

  const removed = s.conversation.removedModel;
  removedBanner.hidden = !removed;
  removedBanner.replaceChildren();
  if (removed) {
    removedBanner.append(h('span', { text: `${l10n.t('The model {0} of this conversation has been removed.', removed.modelId)} ` }));
    if (removed.suggestion) removedBanner.append(button(l10n.t('Switch to {0}', removed.suggestion), 'switchTo', { 'data-model-id': removed.suggestion }));
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
    tempOut.textContent = v === undefined ? l10n.t({ message: 'default', comment: ['the temperature slider: the model decides'] }) : String(Math.min(t.max, Math.max(t.min, v)));
  }

  const imp = s.implicit;
  const implicitChip = !imp
    ? ''
    : imp.included
      ? h(
          'span',
          { class: 'chip implicit', title: l10n.t('The file open in the editor goes with your next message. Remove it to send without it.') },
          icon('file'),
          `${imp.label} (${formatSize(imp.size)}${imp.cost ? `, ${imp.cost}` : ''}) `,
          button('×', 'implicitContext', { 'data-include': 'false', 'aria-label': l10n.t('Remove the current file {0}: it will not be sent', imp.label) }),
        )
      : button(`+ ${imp.label}`, 'implicitContext', { class: 'chip implicit off', 'data-include': 'true', 'aria-label': l10n.t('Add the current file {0} to the next message', imp.label), title: l10n.t('Send the file open in the editor with your next message') });
  chips.replaceChildren(
    ...(implicitChip ? [implicitChip] : []),
    ...s.attachments.map((a) =>
      h('span', { class: 'chip' }, `${a.label} (${formatSize(a.size)}${a.cost ? `, ${a.cost}` : ''}) `, button('×', 'removeAttachment', { 'data-attachment-id': a.id, 'aria-label': l10n.t('Remove {0}', a.label) })),
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
  attachBtn.setAttribute('aria-label', s.imageInput ? l10n.t('Attach Context (selection, file, workspace files, image)') : l10n.t('Attach Context (selection, file, workspace files)'));
  attachBtn.title = attachBtn.getAttribute('aria-label') ?? '';
  totalCost.textContent = s.conversation.totalCost ? l10n.t('Conversation: {0}', formatCostView(s.conversation.totalCost)) : '';
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
  const label = a.on ? l10n.t('Agent Mode is on: the model may call tools. Click to turn off') : l10n.t('Agent Mode: let the model call tools');
  agentBtn.setAttribute('aria-label', label);
  agentBtn.title = label;
  toolCountBtn.hidden = !a.on;
  const count = a.error ? l10n.t('tools: error') : a.toolCount === undefined ? l10n.t('tools…') : l10n.t('{0} tools', a.toolCount.toLocaleString(l10n.displayLocale()));
  toolCountBtn.textContent = count;
  const hover = [a.error ? l10n.t('The tool list could not be loaded: {0}', a.error) : a.toolNames?.length ? l10n.t('Tools: {0}', a.toolNames.join(', ')) : '', l10n.t('Click to turn knowledge-base search on or off and choose other MCP servers for this conversation')].filter(Boolean).join('\n');
  toolCountBtn.title = hover;
  toolCountBtn.setAttribute('aria-label', l10n.t('{0}. Choose knowledge-base search and tool servers', count));
  const note = a.on ? a.excluded ?? a.error : undefined;
  agentNote.hidden = !note;
  agentNote.textContent = note ?? '';
}

/** The one Send/Stop button: Stop while a reply streams, Send otherwise. */
export function setBusy(busy: boolean): void {
  const label = busy ? l10n.t('Stop (Escape)') : l10n.t('Send (Enter)');
  sendBtn.dataset.action = busy ? 'stop' : 'send';
  sendBtn.setAttribute('aria-label', label);
  sendBtn.title = label;
  sendBtn.classList.toggle('stop', busy);
  sendBtn.replaceChildren(icon(busy ? 'debug-stop' : 'send'));
}

export function updateEstimate(): void {
  const e = page.state?.contextEstimate;
  if (!e) return;
  // An agent session's context is the agent's, on the gateway: a token estimate here would mean nothing.
  if (page.state?.conversation.agentSession) {
    estimate.textContent = '';
    return;
  }
  const tokens = e.tokens + Math.ceil(input.value.length / 4);
  const locale = l10n.displayLocale();
  estimate.textContent = e.limit ? l10n.t('≈{0} / {1} tokens', tokens.toLocaleString(locale), e.limit.toLocaleString(locale)) : l10n.t('≈{0} tokens', tokens.toLocaleString(locale));
  estimate.classList.toggle('over', !!e.limit && tokens > e.limit);
}
