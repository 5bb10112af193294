/**
 * Link handling for untrusted tool output. No DOM types here on purpose (plain-Node unit tests load
 * this file): the handler only needs what a MouseEvent has.
 *
 * Why stopPropagation (review H2): VS Code's webview wrapper listens for clicks on the content window
 * (bubble phase) and opens any clicked `<a href>` itself, without checking `defaultPrevented`. So
 * preventDefault alone lets the click reach it: http links open twice and other schemes skip the
 * host's confirmation. Stopping propagation at the anchor keeps the host as the only opener. Middle
 * clicks arrive as `auxclick` and are handled the same way.
 */

/** What the handler uses of a MouseEvent. */
export interface LinkEvent {
  readonly type: string;
  readonly button: number;
  preventDefault(): void;
  stopPropagation(): void;
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

/**
 * The click/auxclick listener for one link: never lets the browser or VS Code's wrapper act on it,
 * and asks the host (which confirms) to open `href` on a primary or middle click.
 */
export function linkHandler(href: string, open: (href: string) => void): (ev: LinkEvent) => void {
  return (ev) => {
    ev.preventDefault();
    ev.stopPropagation();
    if (ev.type === 'click' || (ev.type === 'auxclick' && ev.button === 1)) open(href);
  };
}
