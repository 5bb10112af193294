/**
 * Renders one streaming assistant message.
 *
 * - The first chunk of a reply is painted at once (waiting for a frame would add up to one frame to
 *   the time to first text); later chunks are buffered and painted at most once per animation frame.
 * - Settled blocks are parsed, sanitised and highlighted once, then never touched again.
 * - Only the tail block (still being written) is re-rendered on each paint, without highlighting.
 * - Each settled block's text goes to a polite live region, so screen readers hear whole blocks
 *   rather than every frame.
 */
import { BlockSplitter } from './blockSplitter';
import { renderMarkdown } from './markdown';

export type FrameScheduler = (cb: () => void) => void;

export class StreamRenderer {
  private readonly splitter = new BlockSplitter();
  private readonly tailEl: HTMLElement;
  private pending = '';
  private scheduled = false;
  private finished = false;
  private paintedOnce = false;

  constructor(
    private readonly root: HTMLElement,
    private readonly announce: (text: string) => void = () => undefined,
    private readonly schedule: FrameScheduler = (cb) => void requestAnimationFrame(cb),
  ) {
    this.tailEl = document.createElement('div');
    this.tailEl.className = 'md-block md-tail';
    root.append(this.tailEl);
  }

  get text(): string {
    return this.splitter.fullText + this.pending;
  }

  append(chunk: string): void {
    if (this.finished || chunk.length === 0) return;
    this.pending += chunk;
    if (!this.paintedOnce) {
      this.paintedOnce = true;
      this.paint();
      return;
    }
    if (!this.scheduled) {
      this.scheduled = true;
      this.schedule(() => {
        this.scheduled = false;
        this.paint();
      });
    }
  }

  private addSettled(blocks: string[]): void {
    for (const block of blocks) {
      const el = document.createElement('div');
      el.className = 'md-block';
      el.append(renderMarkdown(block, true));
      this.root.insertBefore(el, this.tailEl);
      const spoken = el.textContent?.trim();
      if (spoken) this.announce(spoken);
    }
  }

  private paint(): void {
    if (this.finished) return;
    const chunk = this.pending;
    this.pending = '';
    this.addSettled(this.splitter.push(chunk));
    const tail = this.splitter.tail;
    this.tailEl.replaceChildren(tail.trim() ? renderMarkdown(tail, false) : '');
  }

  /** Ends the stream: flushes anything buffered and settles the tail. Synchronous, so the final paint is the next frame. */
  finish(): void {
    if (this.finished) return;
    const blocks = [...this.splitter.push(this.pending), ...this.splitter.finish()];
    this.pending = '';
    this.finished = true;
    // Settled blocks are inserted before the tail element, so it goes only after them.
    this.addSettled(blocks);
    this.tailEl.remove();
  }
}

/** Renders a complete message (history) into `root`, one element per block. */
export function renderStatic(root: HTMLElement, text: string, blocks: string[]): void {
  if (!text.trim()) return;
  for (const block of blocks) {
    const el = document.createElement('div');
    el.className = 'md-block';
    el.append(renderMarkdown(block, true));
    root.append(el);
  }
}
