/**
 * Moving between messages by keyboard (#30.3): Ctrl+Up (Cmd+Up on macOS) in the message box goes to the
 * last message; in the list, Up and Down go to the previous and next message, Home and End to the first
 * and last, and Ctrl/Cmd+Down goes back to the message box. A message takes the focus as a whole (its
 * label says who wrote it), so a screen reader reads it; Tab then reaches its actions and code blocks.
 */
import { input, messagesEl } from './layout';
import { isGoToMessagesKey, isMod } from './composerKeys';

function focusMessage(el: HTMLElement | undefined): void {
  if (!el) return;
  if (!el.hasAttribute('tabindex')) el.setAttribute('tabindex', '-1');
  el.focus();
  el.scrollIntoView({ block: 'nearest' });
}

const articles = (): HTMLElement[] => [...messagesEl.querySelectorAll<HTMLElement>(':scope > article.message')];

input.addEventListener('keydown', (e) => {
  if (!isGoToMessagesKey(e) || e.isComposing) return;
  const all = articles();
  if (all.length === 0) return;
  e.preventDefault();
  focusMessage(all[all.length - 1]);
});

messagesEl.addEventListener('keydown', (e) => {
  const target = e.target as HTMLElement;
  // Only on a message itself or the list: inside a message the keys are its controls' (a text box in a tool form, a code block's scroll).
  const onMessage = target === messagesEl || (target.matches('article.message') && target.parentElement === messagesEl);
  if (!onMessage) return;
  if (e.key === 'ArrowDown' && isMod(e)) {
    e.preventDefault();
    return input.focus();
  }
  if (e.ctrlKey || e.metaKey || e.altKey || e.shiftKey) return;
  const all = articles();
  if (all.length === 0) return;
  const at = target === messagesEl ? -1 : all.indexOf(target);
  const next =
    e.key === 'ArrowDown' ? all[Math.min(at + 1, all.length - 1)] : e.key === 'ArrowUp' ? all[at < 0 ? all.length - 1 : Math.max(at - 1, 0)] : e.key === 'Home' ? all[0] : e.key === 'End' ? all[all.length - 1] : undefined;
  if (!next) return;
  e.preventDefault();
  focusMessage(next);
});
