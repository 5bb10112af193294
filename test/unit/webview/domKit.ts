/**
 * A webview page in plain Node (#40.4): a happy-dom Window stands in for the webview's document, and
 * `acquireVsCodeApi` records what the page posts to the host. `bootWebview` installs the window's
 * globals, then loads the page's real entry (the TypeScript source, through tsx) in a module graph of its
 * own (a fresh tsx namespace), so every boot gets fresh module state: a new page, not the last test's.
 * `page.load(file)` hands a test the same instance of any module of that page (to call what it exports).
 * Host → webview messages arrive as MessageEvents on the window, as VS Code delivers them.
 */
import { Node as HappyNode, Window, type Document, type Element, type HTMLElement, type HTMLInputElement, type HTMLTextAreaElement } from 'happy-dom';
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const bundles = new Map<string, string>();

// happy-dom answers `nodeName` in the subclasses (Element: its tag name), and its Node.prototype getter
// returns ''. DOMPurify reads the getter from Node.prototype (against clobbering), so every element was
// nameless to it and dropped (a <pre> lost around its code). As in a browser, the base getter answers
// for the node it is called on.
{
  const proto = HappyNode.prototype as object;
  const base = Object.getOwnPropertyDescriptor(proto, 'nodeName')?.get;
  Object.defineProperty(proto, 'nodeName', {
    configurable: true,
    get(this: object): string {
      for (let p = Object.getPrototypeOf(this) as object | null; p && p !== proto; p = Object.getPrototypeOf(p) as object | null) {
        const own = Object.getOwnPropertyDescriptor(p, 'nodeName')?.get;
        if (own) return own.call(this) as string;
      }
      return (base?.call(this) as string | undefined) ?? '';
    },
  });
}

/**
 * The page's real source, bundled in memory as the build does (esbuild, browser target; the chat's
 * renderer, an `import()` there, comes in the same bundle), with the named modules' exports. Run as a
 * function in this process's global scope, where bootWebview has put the window: a fresh page per boot.
 */
async function run(entry: string, modules: string[]): Promise<unknown> {
  const key = [entry, ...modules].join('\n');
  let code = bundles.get(key);
  if (code === undefined) {
    const contents = [`import ${JSON.stringify(resolve(entry))};`, ...modules.map((m, i) => `import * as m${i} from ${JSON.stringify(resolve(m))};`), `export default { ${modules.map((m, i) => `${JSON.stringify(m)}: m${i}`).join(', ')} };`].join('\n');
    const out = await build({
      stdin: { contents, resolveDir: resolve('.'), sourcefile: 'webview-test-entry.ts', loader: 'ts' },
      bundle: true,
      write: false,
      platform: 'browser',
      format: 'iife',
      globalName: '__webviewTestPage',
      target: 'es2022',
      loader: { '.css': 'empty' },
      sourcemap: 'inline',
      logLevel: 'silent',
    });
    code = `${out.outputFiles[0].text}\nreturn __webviewTestPage.default;`;
    bundles.set(key, code);
  }
  return new Function(code)();
}

export interface WebviewPage {
  readonly window: Window;
  readonly document: Document;
  /** Every message the page posted, in order. */
  readonly posted: unknown[];
  /** The state the page saved with setState (undefined until it does). */
  readonly savedState: unknown;
  /** A module of this page named in `modules` at boot (the same instance the entry uses). */
  module<T = Record<string, unknown>>(file: string): T;
  /** Delivers a host → webview message, as VS Code does, and lets the page react. */
  receive(message: unknown): Promise<void>;
  /** The posted messages of one type. */
  postedOf<T extends { type: string } = { type: string } & Record<string, unknown>>(type: string): T[];
  /** A key pressed on an element (keydown, then keyup), as the browser dispatches it. Returns whether the page prevented the default. */
  key(target: Element, key: string, mods?: { ctrlKey?: boolean; metaKey?: boolean; altKey?: boolean; shiftKey?: boolean }): boolean;
  /** Types text at the end of a text box (value, caret and an `input` event). */
  type(target: HTMLTextAreaElement | HTMLInputElement, text: string): void;
  /** Lets promise jobs and zero-delay timers run. */
  settle(): Promise<void>;
  /**
   * The value the page's stylesheets declare for `property` on `el`: the computed style when happy-dom
   * computes it, else the last declaration of a rule of the page's <style>s whose selector matches
   * (for properties happy-dom does not compute, such as -webkit-line-clamp).
   */
  declared(el: Element, property: string): string;
  /** The element with this id (the test fails when there is none). */
  byId<T extends HTMLElement = HTMLElement>(id: string): T;
  /** The element that has the keyboard. */
  focused(): Element | null;
  /**
   * A short name of an element (default: the one with the keyboard), e.g. `textarea#input` or
   * `button[data-action=approveTool]`: assert on it, not on elements (a failed assertion on two DOM
   * elements prints their whole object graph, which takes a minute).
   */
  where(el?: Element | null): string;
  close(): Promise<void>;
}

const GLOBALS = [
  'window', 'document', 'navigator', 'HTMLElement', 'HTMLButtonElement', 'HTMLTextAreaElement', 'HTMLInputElement', 'HTMLSelectElement', 'HTMLAnchorElement',
  'HTMLImageElement', 'HTMLAudioElement', 'HTMLDetailsElement', 'HTMLPreElement', 'HTMLTableElement', 'Element', 'Node', 'Text', 'DocumentFragment', 'Event', 'KeyboardEvent', 'MouseEvent', 'FocusEvent',
  'InputEvent', 'CustomEvent', 'MessageEvent', 'UIEvent', 'getComputedStyle', 'requestAnimationFrame', 'cancelAnimationFrame', 'requestIdleCallback', 'cancelIdleCallback',
  'IntersectionObserver', 'ResizeObserver', 'MutationObserver', 'DOMParser', 'NodeFilter', 'Range', 'Selection', 'getSelection', 'matchMedia', 'CSS', 'innerHeight', 'innerWidth',
  'SVGElement', 'ShadowRoot', 'customElements', 'HTMLCollection', 'NodeList', 'ClipboardEvent', 'PointerEvent', 'WheelEvent', 'AbortController', 'Image', 'Audio', 'localStorage',
];

let current: WebviewPage | undefined;

export function describeElement(el: Element | null | undefined): string {
  if (!el) return '(none)';
  const tag = el.tagName.toLowerCase();
  if (el.id) return `${tag}#${el.id}`;
  const action = el.getAttribute('data-action');
  if (action) return `${tag}[data-action=${action}${el.getAttribute('data-dir') ? ` ${el.getAttribute('data-dir')}` : ''}]`;
  const message = el.getAttribute('data-message-id');
  if (message) return `${tag}[data-message-id=${message}]`;
  return `${tag}${el.classList.length ? `.${[...el.classList].join('.')}` : ''}`;
}

export interface BootOptions {
  /** What `acquireVsCodeApi().getState()` returns (the page's saved state from an earlier load). */
  state?: unknown;
  /** `data-*` of the body (e.g. `{ locale: 'de', l10n: '{...}' }`). */
  bodyData?: Record<string, string>;
  /** navigator.platform (e.g. 'MacIntel'). */
  platform?: string;
  /** Modules of the page (paths from the repository root) whose exports the test uses: `page.module(path)`. */
  modules?: string[];
  /** The view's width in CSS pixels (400 unless given). */
  width?: number;
  /** Stylesheets (paths from the repository root) put in the page's head before the entry runs. */
  stylesheets?: string[];
  /** HTML put in the body before the entry runs. */
  bodyHtml?: string;
}

/** Boots the page whose entry is `entry` (a path from the repository root, e.g. 'src/webview/chat/main.ts'). */
export async function bootWebview(entry: string, options: BootOptions = {}): Promise<WebviewPage> {
  if (current) await current.close();
  const window = new Window({ url: 'https://webview.test/index.html', width: options.width ?? 400, height: 800, settings: { disableCSSFileLoading: true, disableJavaScriptFileLoading: true, navigator: { userAgent: options.platform === 'MacIntel' ? 'Mozilla/5.0 (Macintosh)' : 'Mozilla/5.0 (X11; Linux x86_64)' } } });
  const document = window.document;
  if (options.platform) Object.defineProperty(window.navigator, 'platform', { value: options.platform, configurable: true });
  document.body.innerHTML = options.bodyHtml ?? '<div id="app"></div>';
  for (const [k, v] of Object.entries(options.bodyData ?? {})) document.body.dataset[k] = v;
  for (const sheet of options.stylesheets ?? []) {
    const style = document.createElement('style');
    style.textContent = readFileSync(sheet, 'utf8');
    document.head.append(style);
  }
  const posted: unknown[] = [];
  let savedState: unknown = options.state;
  const api = {
    postMessage: (m: unknown) => void posted.push(JSON.parse(JSON.stringify(m))),
    getState: () => savedState,
    setState: (s: unknown) => void (savedState = s),
  };
  let acquired = 0;
  const g = globalThis as Record<string, unknown>;
  const saved = new Map<string, PropertyDescriptor | undefined>();
  const install = (name: string, value: unknown): void => {
    if (!saved.has(name)) saved.set(name, Object.getOwnPropertyDescriptor(g, name));
    Object.defineProperty(g, name, { value, configurable: true, writable: true });
  };
  const w = window as unknown as Record<string, unknown>;
  for (const name of GLOBALS) if (w[name] !== undefined) install(name, typeof w[name] === 'function' && !/^[A-Z]/.test(name) ? (w[name] as (...a: unknown[]) => unknown).bind(window) : w[name]);
  install('acquireVsCodeApi', () => {
    if (++acquired > 1) throw new Error('acquireVsCodeApi called twice');
    return api;
  });
  // The page's timers run on the window's clock (closed with it).
  for (const name of ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval']) install(name, (w[name] as (...a: unknown[]) => unknown).bind(window));
  const modules = (await run(entry, options.modules ?? [])) as Record<string, Record<string, unknown>>;
  const settle = async (): Promise<void> => {
    for (let i = 0; i < 3; i++) {
      await new Promise<void>((r) => setImmediate(r));
      await window.happyDOM.waitUntilComplete();
    }
  };
  const page: WebviewPage = {
    window,
    document,
    posted,
    get savedState() {
      return savedState;
    },
    module: <T,>(file: string) => {
      const m = modules[file];
      if (!m) throw new Error(`${file} was not named in bootWebview's modules`);
      return m as T;
    },
    async receive(message) {
      window.dispatchEvent(new window.MessageEvent('message', { data: message }));
      await settle();
    },
    postedOf: (type) => posted.filter((m): m is never => (m as { type?: unknown }).type === type),
    key(target, key, mods = {}) {
      const init = { key, bubbles: true, cancelable: true, ...mods };
      const down = new window.KeyboardEvent('keydown', init);
      target.dispatchEvent(down);
      target.dispatchEvent(new window.KeyboardEvent('keyup', init));
      return down.defaultPrevented;
    },
    type(target, text) {
      target.value += text;
      target.selectionStart = target.selectionEnd = target.value.length;
      target.dispatchEvent(new window.Event('input', { bubbles: true }));
    },
    settle,
    declared(el, property) {
      const computed = window.getComputedStyle(el).getPropertyValue(property);
      if (computed) return computed;
      let value = '';
      for (const style of [...document.querySelectorAll('style')]) {
        const css = (style.textContent ?? '').replace(/\/\*[\s\S]*?\*\//g, '');
        for (const [, selector, body] of css.matchAll(/([^{}]+)\{([^{}]*)\}/g)) {
          let matches = false;
          try {
            matches = el.matches(selector.trim());
          } catch {
            // an at-rule's prelude or a selector happy-dom does not parse
          }
          if (!matches) continue;
          for (const decl of body.split(';')) {
            const at = decl.indexOf(':');
            if (at > 0 && decl.slice(0, at).trim() === property) value = decl.slice(at + 1).replace(/!important/, '').trim();
          }
        }
      }
      return value;
    },
    byId: <T extends HTMLElement = HTMLElement>(id: string) => {
      const el = document.getElementById(id);
      if (!el) throw new Error(`no #${id} on the page`);
      return el as T;
    },
    focused: () => document.activeElement,
    where: (el = document.activeElement) => describeElement(el),
    async close() {
      if (current === page) current = undefined;
      await window.happyDOM.abort();
      await window.happyDOM.close();
      for (const [name, d] of saved) {
        if (d) Object.defineProperty(g, name, d);
        else delete g[name];
      }
    },
  };
  current = page;
  await settle();
  return page;
}
