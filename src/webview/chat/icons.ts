/**
 * The codicons the chat page shows. The page cannot load VS Code's own codicon stylesheet (the CSP
 * allows only the extension's files), so media/chat.css maps each glyph it needs by its code point in
 * @vscode/codicons; a name without a rule there renders as nothing (an invisible button). Every icon
 * name the page uses is one of these, so the compiler refuses an unlisted one, and
 * test/unit/webview/codicons.test.ts checks that each name used in src/webview/chat has its rule in
 * media/chat.css with the right code point. Adding an icon: add its name here and its rule there.
 */
import { h } from '../kit/dom';

export type CodiconName =
  | 'account'
  | 'attach'
  | 'chevron-down'
  | 'chevron-left'
  | 'chevron-right'
  | 'comment-discussion'
  | 'copy'
  | 'debug-stop'
  | 'edit'
  | 'file'
  | 'git-compare'
  | 'insert'
  | 'key'
  | 'lightbulb'
  | 'list-selection'
  | 'new-file'
  | 'refresh'
  | 'send'
  | 'settings-gear'
  | 'sparkle'
  | 'symbol-method'
  | 'terminal'
  | 'thumbsdown'
  | 'thumbsdown-filled'
  | 'thumbsup'
  | 'thumbsup-filled'
  | 'tools'
  | 'warning';

/** A decorative codicon (hidden from screen readers: the control around it carries the words). */
export function icon(name: CodiconName): HTMLElement {
  return h('span', { class: `codicon codicon-${name}`, 'aria-hidden': 'true' });
}
