/**
 * VS Code's chat through the language model provider (src/lm/lmRequests.ts): a reply that did not end
 * normally (finishReason.ts: cut off by the output limit, filtered, an unknown reason, tool_calls with
 * no tools offered) ends with one more text part saying so, so the user sees it under the reply.
 */
import { FinishWatch, replyEndText } from '../gateway/finishReason';

/** The closing text part for a reply whose stream `watch` read; undefined when it ended normally. */
export function endNote(watch: FinishWatch, toolsOffered: boolean): string | undefined {
  const end = watch.end({ toolsOffered });
  return end ? `\n\n> ⚠ ${replyEndText(end)}\n` : undefined;
}
