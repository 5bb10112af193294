/**
 * "Focus never lands inside a hidden element" (#30.3): where the keyboard is, in whichever webview has
 * it, and whether a sighted user can see it there. A function from a string runs in every frame (the
 * test tsconfig has no DOM types); the frame that has the focus on a leaf (not an iframe) answers.
 */
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';

const FOCUS_PROBE = new Function(`
  if (!document.hasFocus()) return undefined;
  const a = document.activeElement;
  if (!a || a === document.body || a.tagName === 'IFRAME') return undefined;
  const name = a.id ? '#' + a.id : a.tagName + '.' + String(a.className) + '[' + (a.getAttribute('aria-label') || a.getAttribute('data-action') || '') + ']';
  let why = '';
  for (let e = a; e && !why; e = e.parentElement) {
    const s = getComputedStyle(e);
    if (e.hidden) why = 'inside a hidden element (' + e.tagName + (e.id ? '#' + e.id : '') + ')';
    else if (e.getAttribute('aria-hidden') === 'true') why = 'inside aria-hidden (' + e.tagName + ')';
    else if (e.inert) why = 'inside an inert element';
    else if (s.display === 'none') why = 'display: none (' + e.tagName + ')';
    else if (s.visibility === 'hidden') why = 'visibility: hidden (' + e.tagName + ')';
    else if (e.tagName === 'DETAILS' && e !== a && !e.open && !(a.closest('summary') && a.closest('summary').parentElement === e)) why = 'inside a closed <details>';
  }
  const r = a.getBoundingClientRect();
  if (!why && (r.width <= 1 || r.height <= 1)) why = 'a ' + Math.round(r.width) + 'x' + Math.round(r.height) + ' box';
  return { name, why };
`) as () => { name: string; why: string } | undefined;

/**
 * Asserts that the element with the keyboard inside a webview is visible: not inside a hidden,
 * aria-hidden, inert, display:none, visibility:hidden or closed <details> element, and not a 1-pixel box.
 * Some webview must have the keyboard (unless `required` is false: it may be in the workbench). Returns what has it.
 */
export async function keyboardFocusIsVisible(page: Page, what: string, required = true): Promise<string> {
  const found: Array<{ name: string; why: string }> = [];
  for (const frame of page.frames()) {
    if (frame === page.mainFrame()) continue;
    const r = await frame.evaluate(FOCUS_PROBE).catch(() => undefined);
    if (r) found.push(r);
  }
  if (required) assert.ok(found.length > 0, `${what}: no webview has the keyboard`);
  for (const f of found) assert.equal(f.why, '', `${what}: the keyboard is on ${f.name}, ${f.why}`);
  return found.map((f) => f.name).join(' ');
}
