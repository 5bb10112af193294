/**
 * The webview kit's one link interceptor: every link in every webview opens through the host, which
 * decides (and confirms) what may be opened. A webview calls `installLinkInterceptor(document, open)`
 * once at start-up; nothing else in a webview listens for link clicks, so a link rendered anywhere
 * (a result, a tool description, a chat reply, a later webview) is covered without extra code.
 *
 * Why the document, the capture phase, and stopPropagation as well as preventDefault: VS Code's
 * webview wrapper listens for clicks on the content window (bubble phase) and opens any clicked
 * `<a href>` itself, without checking `defaultPrevented`; a listener on each link is easy to forget
 * (a tool description once skipped it). Capturing at the document runs before any listener below it
 * and stopping there keeps the click from ever reaching the window. Middle clicks arrive as
 * `auxclick` and are handled the same way.
 *
 * What counts as a link: an `<a>` (its `href`), and an element with `data-href` (the markdown
 * pipeline's placeholder for an image that is never loaded).
 *
 * No DOM types here on purpose (plain-Node unit tests load this file): the handler only needs what a
 * MouseEvent and an Element have.
 */

/** What the handler uses of a MouseEvent. */
export interface LinkEvent {
  readonly type: string;
  readonly button: number;
  preventDefault(): void;
  stopPropagation(): void;
}

/** What the interceptor uses of an event target (an Element). */
export interface LinkTarget {
  closest(selector: string): LinkTarget | null;
  getAttribute(name: string): string | null;
  readonly tagName: string;
}

/** What the interceptor uses of the document. */
export interface LinkEventSource {
  addEventListener(type: 'click' | 'auxclick', listener: (ev: LinkEvent & { readonly target: unknown }) => void, capture: boolean): void;
}

export const LINK_SELECTOR = 'a, [data-href]';

/**
 * Handles a click or auxclick on a link: the webview never navigates and VS Code's wrapper never sees
 * the click; a primary or middle click on a non-fragment link asks the host to open it.
 */
export function handleLinkEvent(ev: LinkEvent, href: string | null, open: (href: string) => void): void {
  ev.preventDefault();
  ev.stopPropagation();
  const opens = ev.type === 'click' || (ev.type === 'auxclick' && ev.button === 1);
  if (opens && href && !href.startsWith('#')) open(href);
}

function hrefOf(link: LinkTarget): string | null {
  return link.tagName.toUpperCase() === 'A' ? link.getAttribute('href') : link.getAttribute('data-href');
}

/** Installs the one document-level, capture-phase listener for click and auxclick. Call once. */
export function installLinkInterceptor(doc: LinkEventSource, open: (href: string) => void): void {
  const listener = (ev: LinkEvent & { readonly target: unknown }): void => {
    const target = ev.target as Partial<LinkTarget> | null;
    const link = typeof target?.closest === 'function' ? target.closest(LINK_SELECTOR) : null;
    if (link) handleLinkEvent(ev, hrefOf(link), open);
  };
  doc.addEventListener('click', listener, true);
  doc.addEventListener('auxclick', listener, true);
}

/** http(s) only: anything else (vscode:, javascript:, kb:, file:) is shown as text with Copy. */
export function isWebLink(uri: string): boolean {
  try {
    const { protocol } = new URL(uri);
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
}
