/**
 * Splits streaming markdown into settled blocks and the one block still being written, so the
 * renderer parses each settled block exactly once and re-renders only the tail on each frame.
 *
 * DOM-free and incremental: each push scans only the newly completed lines. A boundary is placed
 *  - before a non-indented line that follows a blank line (outside a code fence),
 *  - before a fence opener or ATX heading at column 0, and after a fence closer or heading line.
 * Indented lines after a blank line stay in the current block, so list items with continuation
 * paragraphs or nested code are not cut apart.
 *
 * Known trade-off: a reference-style link definition that arrives in a later block does not resolve
 * links in earlier settled blocks (rare in model output; the link text is still shown).
 */

const FENCE_RE = /^ {0,3}(`{3,}|~{3,})/;
const HEADING_RE = /^#{1,6}(?:\s|$)/;

export class BlockSplitter {
  private text = '';
  /** Start of the unsettled tail. */
  private settledEnd = 0;
  /** Start of the first line not scanned yet (always a line start). */
  private scanPos = 0;
  private fence: { char: string; len: number } | undefined;
  private prevBlank = false;

  /** Adds streamed text; returns the blocks that became settled, in order. */
  push(chunk: string): string[] {
    this.text += chunk;
    const out: string[] = [];
    let nl: number;
    while ((nl = this.text.indexOf('\n', this.scanPos)) !== -1) {
      const lineStart = this.scanPos;
      const line = this.text.slice(lineStart, nl);
      this.scanPos = nl + 1;
      this.scanLine(line, lineStart, this.scanPos, out);
    }
    return out;
  }

  private settleAt(pos: number, out: string[]): void {
    if (pos <= this.settledEnd) return;
    const block = this.text.slice(this.settledEnd, pos);
    this.settledEnd = pos;
    if (block.trim().length > 0) out.push(block);
  }

  private scanLine(line: string, start: number, end: number, out: string[]): void {
    if (this.fence) {
      const m = FENCE_RE.exec(line);
      if (m && m[1][0] === this.fence.char && m[1].length >= this.fence.len && line.slice(m[0].length).trim() === '') {
        this.fence = undefined;
        this.settleAt(end, out);
      }
      this.prevBlank = false;
      return;
    }
    if (line.trim() === '') {
      this.prevBlank = true;
      return;
    }
    const atColumn0 = !/^[ \t]/.test(line);
    const fence = atColumn0 ? FENCE_RE.exec(line) : null;
    // A backtick fence's info string may not contain backticks; such a line is inline code, not a fence.
    const isFence = !!fence && !(fence[1][0] === '`' && line.slice(fence[0].length).includes('`'));
    if ((this.prevBlank && atColumn0) || isFence || (atColumn0 && HEADING_RE.test(line))) this.settleAt(start, out);
    this.prevBlank = false;
    if (isFence && fence) {
      this.fence = { char: fence[1][0], len: fence[1].length };
    } else if (atColumn0 && HEADING_RE.test(line)) {
      this.settleAt(end, out);
    }
  }

  /** The block still being written (may be empty). */
  get tail(): string {
    return this.text.slice(this.settledEnd);
  }

  get fullText(): string {
    return this.text;
  }

  /** Ends the stream: the tail becomes the last settled block. */
  finish(): string[] {
    const out: string[] = [];
    this.settleAt(this.text.length, out);
    this.scanPos = this.text.length;
    return out;
  }
}

/** Splits a complete markdown text into the same blocks the streaming path would produce. */
export function splitBlocks(text: string): string[] {
  const s = new BlockSplitter();
  return [...s.push(text), ...s.finish()];
}
