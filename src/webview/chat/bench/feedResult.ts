/**
 * What one stream of the chat render bench measured: written by the browser side
 * (src/webview/chat/bench/harness.ts), read by bench/chatRender.bench.ts in Node. No DOM types here, so
 * both sides compile it.
 */
export interface FeedResult {
  tokens: number;
  durationMs: number;
  longestTaskMs: number;
  longTaskTotalMs: number;
  longTasks: number;
  /** When each long task started, ms after the first chunk was sent (where the cost lies). */
  longTaskStartsMs: number[];
  lastChunkToFinalPaintMs: number;
  /** The same end split: the last chunk -> its messages handled -> the next frame's callbacks (ms after the last chunk). */
  finalHandledMs: number;
  finalFrameMs: number;
  /**
   * The reply's first chunk: posted alone, in a page that loaded `thinkMs` before (the user typing the
   * first message) and has drawn the reply's start -> handled -> the frame that shows it painted, ms
   * after it was posted.
   */
  firstChunkHandledMs: number;
  firstChunkPaintMs: number;
}
