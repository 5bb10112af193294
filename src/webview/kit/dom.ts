/**
 * The webview kit's one DOM helper (browser side; see src/webview/kit/links.ts and markdown.ts, and
 * src/webviewKit/html.ts for the host side). Builds elements with the DOM API, never from HTML
 * strings, so text from a server or a model can only ever become text.
 *
 * `h(tag, props, ...children)`:
 * - props: attributes by name; `class` sets className, `text` sets textContent; an undefined value is
 *   skipped (so optional attributes need no branching).
 * - children: nodes or strings (appended as text); undefined, null and false are skipped.
 */
export type Child = Node | string | undefined | null | false;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Readonly<Record<string, string | undefined>> = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (v === undefined) continue;
    if (k === 'class') el.className = v;
    else if (k === 'text') el.textContent = v;
    else el.setAttribute(k, v);
  }
  for (const c of children) if (c !== undefined && c !== null && c !== false) el.append(c);
  return el;
}
