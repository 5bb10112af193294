/**
 * Context by typing in the message box: `#` lists workspace files, symbols and the selection (the host
 * answers `contextQuery` with `contextItems`), `/` at the start lists the commands. The list is an
 * ARIA listbox under the text box, which is its combobox: Up and Down move, Enter or Tab pick, Escape
 * closes; the count is announced in the page's live region.
 */
import { findTrigger, slashMatches, type Trigger } from '../../protocol/chatCompose';
import type { ContextItemView } from '../../protocol/chatProtocol';
import { h } from '../kit/dom';
import { post, requests } from './host';
import { announce, icon, input } from './layout';
import type { CodiconName } from './icons';
import * as l10n from '../../core/l10n';

interface Item {
  id: string;
  label: string;
  detail?: string;
  icon: CodiconName;
  pick(): void;
}

export const completionList = h('div', { id: 'completion', class: 'completion', role: 'listbox', 'aria-label': l10n.t('Suggestions'), hidden: '' });

input.before(completionList);
input.setAttribute('role', 'combobox');
input.setAttribute('aria-autocomplete', 'list');
input.setAttribute('aria-controls', 'completion');
input.setAttribute('aria-expanded', 'false');

let trigger: Trigger | undefined;
let items: Item[] = [];
let active = 0;
let lastAnnounced = '';

export function completionOpen(): boolean {
  return !completionList.hidden;
}

export function closeCompletion(): void {
  trigger = undefined;
  items = [];
  completionList.hidden = true;
  completionList.replaceChildren();
  input.setAttribute('aria-expanded', 'false');
  input.removeAttribute('aria-activedescendant');
  lastAnnounced = '';
}

/** Removes the `#query` or `/query` being completed from the text box, leaving the caret where it was. */
function takeTriggerText(t: Trigger): void {
  const end = t.start + 1 + t.query.length;
  const after = input.value.slice(end);
  input.value = input.value.slice(0, t.start) + (t.kind === '/' ? after.replace(/^\s+/, '') : after);
  input.setSelectionRange(t.start, t.start);
  input.dispatchEvent(new Event('input'));
}

const KIND_ICON: Record<ContextItemView['kind'], CodiconName> = { file: 'file', symbol: 'symbol-method', selection: 'list-selection' };

function render(withCount = true): void {
  if (!trigger) return;
  completionList.replaceChildren(
    ...items.map((it, i) =>
      h(
        'div',
        { id: `completion-${i}`, class: `completion-item${i === active ? ' active' : ''}`, role: 'option', 'aria-selected': String(i === active), 'data-index': String(i) },
        icon(it.icon),
        h('span', { class: 'completion-label', text: it.label }),
        it.detail ? h('span', { class: 'completion-detail muted', text: it.detail }) : '',
      ),
    ),
  );
  if (items.length === 0) completionList.append(h('div', { class: 'completion-empty muted', text: trigger.kind === '#' ? l10n.t('No matching files or symbols') : l10n.t('No matching command') }));
  completionList.hidden = false;
  input.setAttribute('aria-expanded', 'true');
  if (items[active]) {
    input.setAttribute('aria-activedescendant', `completion-${active}`);
    completionList.children[active]?.scrollIntoView({ block: 'nearest' });
  } else input.removeAttribute('aria-activedescendant');
  const say = items.length ? `${items.length} suggestion${items.length === 1 ? '' : 's'}. Up and Down to choose, Enter to pick, Escape to close.` : (completionList.textContent ?? '');
  if (withCount && say !== lastAnnounced) announce(say);
  lastAnnounced = say;
}

function slashItems(t: Trigger): Item[] {
  return slashMatches(t.query).map((c) => ({
    id: c.id,
    label: `/${c.id}`,
    detail: c.description,
    icon: 'terminal',
    pick: () => {
      takeTriggerText(t);
      announce(l10n.t('Running /{0}.', c.id));
      post({ type: 'slashCommand', command: c.id });
    },
  }));
}

/** Call on every change of the text or the caret: opens, updates or closes the list. */
export function updateCompletion(): void {
  const t = input.selectionStart === input.selectionEnd ? findTrigger(input.value, input.selectionStart ?? input.value.length) : undefined;
  if (!t) return closeCompletion();
  const same = trigger && trigger.kind === t.kind && trigger.start === t.start && trigger.query === t.query;
  if (same) return;
  trigger = t;
  active = 0;
  if (t.kind === '/') {
    items = slashItems(t);
    render();
    return;
  }
  requests.send('contextQuery', { query: t.query });
  if (completionList.hidden) {
    items = [];
    completionList.replaceChildren(h('div', { class: 'completion-empty muted', text: l10n.t('Searching…') }));
    completionList.hidden = false;
    input.setAttribute('aria-expanded', 'true');
  }
}

/** The host's answer to the latest `#` query (an answer to an older one never gets here: `requests` drops it). */
export function showContextItems(list: ContextItemView[]): void {
  const t = trigger;
  if (!t || t.kind !== '#') return;
  items = list.map((it) => ({
    id: it.id,
    label: it.label,
    ...(it.detail ? { detail: it.detail } : {}),
    icon: KIND_ICON[it.kind],
    pick: () => {
      takeTriggerText(t);
      announce(it.detail ? l10n.t('Added {0} ({1}).', it.label, it.detail) : l10n.t('Added {0}.', it.label));
      post({ type: 'addContext', itemId: it.id });
    },
  }));
  active = Math.min(active, Math.max(0, items.length - 1));
  render();
}

function pick(i: number): void {
  const it = items[i];
  closeCompletion();
  it?.pick();
  input.focus();
}

/** The list's keys, asked first by the text box's keydown; true when the key was the list's. */
export function completionKey(e: KeyboardEvent): boolean {
  if (!completionOpen()) return false;
  if (e.key === 'Escape') {
    closeCompletion();
    return true;
  }
  if (!items.length) return false;
  if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
    active = (active + (e.key === 'ArrowDown' ? 1 : items.length - 1)) % items.length;
    render(false);
    const it = items[active];
    if (it) announce(it.detail ? l10n.t('{0}, {1} ({2} of {3})', it.label, it.detail, active + 1, items.length) : l10n.t('{0} ({1} of {2})', it.label, active + 1, items.length));
    return true;
  }
  if ((e.key === 'Enter' && !e.shiftKey) || e.key === 'Tab') {
    pick(active);
    return true;
  }
  return false;
}

// A click keeps the keyboard in the text box (mousedown would move it) and picks the item.
completionList.addEventListener('mousedown', (e) => e.preventDefault());
completionList.addEventListener('click', (e) => {
  const el = (e.target as Element | null)?.closest<HTMLElement>('.completion-item');
  if (el?.dataset.index !== undefined) pick(Number(el.dataset.index));
});
input.addEventListener('blur', () => closeCompletion());
input.addEventListener('click', () => updateCompletion());
