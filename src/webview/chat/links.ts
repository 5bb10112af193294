/**
 * Link clicks in the chat webview. No DOM types here on purpose (plain-Node unit tests load this
 * file): the handler only needs what a MouseEvent has.
 *
 * Why stopPropagation as well as preventDefault (review H2): VS Code's webview wrapper listens for
 * clicks on the content window (bubble phase) and opens any clicked `<a href>` itself, without
 * checking `defaultPrevented`. Our listener sits on the document, which the event passes before the
 * window, so stopping propagation there keeps the host (which confirms non-https links) the only
 * opener. Middle clicks arrive as `auxclick` and are handled the same way.
 */

/** What the handler uses of a MouseEvent. */
export interface ChatLinkEvent {
  readonly type: string;
  readonly button: number;
  preventDefault(): void;
  stopPropagation(): void;
}

/**
 * Handles a click or auxclick whose target is inside a link with attribute `href`: the webview never
 * navigates and VS Code's wrapper never sees the click; a primary or middle click on a non-fragment
 * link asks the host to open it.
 */
export function handleLinkEvent(ev: ChatLinkEvent, href: string | null, open: (href: string) => void): void {
  ev.preventDefault();
  ev.stopPropagation();
  const opens = ev.type === 'click' || (ev.type === 'auxclick' && ev.button === 1);
  if (opens && href && !href.startsWith('#')) open(href);
}
