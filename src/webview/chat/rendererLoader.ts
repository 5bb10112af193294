/**
 * Loads the chat's Markdown renderer (renderer.ts: markdown-it, DOMPurify, highlight.js) once the page
 * has loaded, and holds what needs it until then. The composer (message box, Send, the model) is built
 * without it, so the page is usable after a few milliseconds of script instead of after the renderer's
 * libraries have been evaluated.
 *
 * - The `import()` starts after the page's `load` event and the frame after it, never before: VS Code
 *   shows a new webview only once its document has loaded, and a script fetched before that would hold
 *   the load event, and the page, back; evaluated before that frame, it would hold the frame back. (The
 *   HTML preloads the file without holding the load event: src/chat/webviewHtml.ts.)
 * - What arrives before it loads is not lost and keeps its order: each use waits in one queue, run in
 *   the order it was asked for; a reply that streams in meanwhile is buffered (`LazyStream`) and drawn
 *   in one go; restored history renders as soon as the renderer is there, with its placeholder height
 *   kept until then.
 * - If the renderer cannot load (it is our own file: this should not happen), replies show as plain
 *   text rather than not at all.
 */
import type * as Renderer from './renderer';

/** What the page uses of renderer.ts (the plain-text fallback below has the same shape). */
export interface ChatRenderer {
  StreamRenderer: new (root: HTMLElement) => ReplyStream;
  renderBlock: typeof Renderer.renderBlock;
  renderReply: typeof Renderer.renderReply;
  warmRenderer: typeof Renderer.warmRenderer;
}

let loaded: ChatRenderer | undefined;
const waiting: Array<(r: ChatRenderer) => void> = [];

/** Runs `use` with the renderer: now if it is loaded, else once it is, after every use asked for before. */
export function withRenderer(use: (r: ChatRenderer) => void): void {
  if (loaded) use(loaded);
  else waiting.push(use);
}

function take(r: ChatRenderer): void {
  loaded = r;
  // One failing use (a detached element, a bad block) must not cost the others their turn.
  for (const use of waiting.splice(0)) {
    try {
      use(r);
    } catch (e) {
      console.error(e);
    }
  }
  // bench/chatOpen.ts reads it: the renderer is there and what waited for it (restored history) is drawn.
  performance.mark('aiGateway/chat/rendered');
}

/** Replies as plain text: used only when the renderer could not be loaded. */
const plainText: ChatRenderer = {
  StreamRenderer: class {
    private readonly el = document.createElement('div');
    constructor(root: HTMLElement) {
      this.el.className = 'plain';
      root.append(this.el);
    }
    append(chunk: string): void {
      this.el.textContent += chunk;
    }
    finish(): void {}
  },
  renderBlock: (block) => {
    const el = document.createElement('pre');
    el.textContent = typeof block.text === 'string' ? block.text : JSON.stringify(block, null, 2);
    return el;
  },
  renderReply: (body, text) => {
    const el = document.createElement('div');
    el.className = 'plain';
    el.textContent = text;
    body.append(el);
  },
  warmRenderer: () => undefined,
};

/**
 * Starts loading the renderer once the page has loaded and the frame after that has painted; `then`
 * runs after the uses that waited for it (the warm-up goes there).
 */
export function loadRendererAfterPageLoad(then: (r: ChatRenderer) => void): void {
  let started = false;
  const start = (): void => {
    if (started) return;
    started = true;
    import('./renderer').then(
      (r) => {
        take(r);
        then(r);
      },
      (e: unknown) => {
        console.error('The chat renderer did not load; replies are shown as plain text.', e);
        take(plainText);
      },
    );
  };
  // The workbench shows the webview at its load event, in its next frame: the renderer's evaluation
  // (tens of ms on a first open) must not come before that frame. A task queued from a frame's
  // animation callbacks runs after its paint; the timer covers a page that draws no frame (hidden).
  const afterLoad = (): void => {
    requestAnimationFrame(() => setTimeout(start, 0));
    setTimeout(start, 250);
  };
  if (document.readyState === 'complete') afterLoad();
  else window.addEventListener('load', afterLoad, { once: true });
}

/**
 * A finished reply's body, rendered now or as soon as the renderer is there. Until then the body keeps
 * `placeholderPx` as its minimum height (the list's scroll range stays about right); it is cleared
 * once the body is drawn.
 */
export function renderReplyBody(body: HTMLElement, text: string, placeholderPx: number): void {
  const draw = (r: ChatRenderer): void => {
    r.renderReply(body, text);
    body.style.minHeight = '';
  };
  if (loaded) return draw(loaded);
  if (!body.style.minHeight) body.style.minHeight = `${placeholderPx}px`;
  withRenderer(draw);
}

/** What the page asks of a streaming reply's renderer (streamRenderer.ts's StreamRenderer). */
export interface ReplyStream {
  append(chunk: string): void;
  finish(): void;
}

/**
 * A streaming reply's renderer: the real StreamRenderer when the renderer is loaded; before that, the
 * text is buffered in order and handed to one when it arrives (its first paint draws it all), and a
 * `finish` that came first is applied after it.
 */
export class LazyStream implements ReplyStream {
  private real: ReplyStream | undefined;
  private buffered = '';
  private finished = false;

  constructor(root: HTMLElement) {
    withRenderer((r) => {
      const real = new r.StreamRenderer(root);
      if (this.buffered) real.append(this.buffered);
      this.buffered = '';
      if (this.finished) real.finish();
      this.real = real;
    });
  }

  append(chunk: string): void {
    if (this.real) this.real.append(chunk);
    else if (!this.finished) this.buffered += chunk;
  }

  finish(): void {
    if (this.real) this.real.finish();
    else this.finished = true;
  }
}
