/**
 * A minimal browser event path for link tests: capture from the document down to the target, then
 * bubble back up to the window (where VS Code's webview wrapper listens). Enough to show where a
 * click stops; no DOM library needed.
 */
import assert from 'node:assert/strict';
import type { LinkEvent, LinkEventSource, LinkTarget } from '../../../src/webview/kit/links';

export type Listener = (ev: LinkEvent & { target: unknown }) => void;
type Registered = { type: string; fn: Listener; capture: boolean };

export class FakeElement implements LinkTarget {
  readonly listeners: Registered[] = [];
  constructor(
    readonly tagName: string,
    readonly attrs: Record<string, string>,
    readonly parent: FakeElement | undefined,
  ) {}
  child(tag: string, attrs: Record<string, string> = {}): FakeElement {
    return new FakeElement(tag.toUpperCase(), attrs, this);
  }
  getAttribute(name: string): string | null {
    return this.attrs[name] ?? null;
  }
  /** Enough of `closest` for the kit's selector: `a, [data-href]`. */
  closest(selector: string): FakeElement | null {
    assert.equal(selector, 'a, [data-href]');
    if (this.tagName === 'A' || 'data-href' in this.attrs) return this;
    return this.parent ? this.parent.closest(selector) : null;
  }
  addEventListener(type: string, fn: Listener, capture = false): void {
    this.listeners.push({ type, fn, capture });
  }
}

export class FakeDocument implements LinkEventSource {
  private readonly listeners: Registered[] = [];
  readonly body = new FakeElement('BODY', {}, undefined);
  addEventListener(type: 'click' | 'auxclick', fn: Listener, capture: boolean): void {
    this.listeners.push({ type, fn, capture });
  }
  /** Dispatches like a browser; `wrapperSaw` is whether the window's bubble listener ran. */
  dispatch(type: string, target: FakeElement, button = type === 'auxclick' ? 1 : 0): { wrapperSaw: boolean; defaultPrevented: boolean } {
    let stopped = false;
    let defaultPrevented = false;
    const ev = { type, button, target, preventDefault: () => void (defaultPrevented = true), stopPropagation: () => void (stopped = true) };
    const path: FakeElement[] = [];
    for (let e: FakeElement | undefined = target; e; e = e.parent) path.unshift(e);
    const run = (ls: Registered[], capture: boolean): void => {
      for (const l of ls) if (!stopped && l.type === type && l.capture === capture) l.fn(ev);
    };
    run(this.listeners, true);
    for (const e of path) if (!stopped) run(e.listeners, true);
    for (const e of [...path].reverse()) if (!stopped) run(e.listeners, false);
    if (!stopped) run(this.listeners, false);
    return { wrapperSaw: !stopped, defaultPrevented };
  }
}
