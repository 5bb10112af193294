/**
 * Renders one streaming assistant message.
 *
 * - The first chunk of a reply is painted at once (waiting for a frame would add up to one frame to
 *   the time to first text); later chunks are buffered and painted at most once per animation frame.
 * - Settled blocks are parsed, sanitised and highlighted once, then never touched again.
 * - Only the tail block (still being written) is re-rendered on each paint, without highlighting.
 * - Nothing is announced while the reply streams: the page announces the whole reply once it has
 *   settled (stream.ts endStream), so a screen reader hears it once, not block by block (#30.3).
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
    private readonly schedule: FrameScheduler = (cb) => void requestAnimationFrame(cb),
  ) {
    this.tailEl = document.createElement('div');
    this.tailEl.className = 'md-block';
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

  private readonly groups = new BlockGroups((group) => this.root.insertBefore(group, this.tailEl));

  private addSettled(blocks: string[]): void {
    for (const block of blocks) {
      const el = settledBlock(block);
      this.groups.add(el);
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

function settledBlock(block: string): HTMLElement {
  const el = document.createElement('div');
  el.className = 'md-block';
  el.append(renderMarkdown(block, true));
  return el;
}

/** How many settled blocks share one `.md-group` (see BlockGroups). */
const GROUP_SIZE = 16;

/**
 * Settled blocks go into groups of GROUP_SIZE. A full group is sealed: off screen, it skips layout and
 * paint (`.md-group.sealed`, content-visibility: auto in chat.css). Per block, the browser would track
 * every block of a long reply for visibility in each frame (hundreds in a 20,000-token reply), a cost
 * paid in every frame of the stream and in the reply's final paint. The last group, not full, is laid
 * out as it is: a short reply has no skipped part whose placeholder height could differ from its own
 * (the message itself is skipped off screen, chat.css `.message`).
 */
class BlockGroups {
  private group: HTMLElement | undefined;

  constructor(private readonly insert: (group: HTMLElement) => void) {}

  add(block: HTMLElement): void {
    if (!this.group || this.group.childElementCount >= GROUP_SIZE) {
      this.group = document.createElement('div');
      this.group.className = 'md-group';
      this.insert(this.group);
    }
    this.group.append(block);
    if (this.group.childElementCount >= GROUP_SIZE) this.group.classList.add('sealed');
  }
}

/** Renders a complete message (history) into `root`, one element per block, in groups. */
export function renderStatic(root: HTMLElement, text: string, blocks: string[]): void {
  if (!text.trim()) return;
  const groups = new BlockGroups((group) => root.append(group));
  for (const block of blocks) groups.add(settledBlock(block));
}
