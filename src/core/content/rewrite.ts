/**
 * Rewrite Selection's request: the prompt that asks a chat model to rewrite a passage as the user
 * instructs, answering with the passage only. Pure; the command (src/content/rewriteCommand.ts)
 * streams it and proposes the answer as a diff.
 */
import type { ChatMessage } from '../gateway/types';

/** Longest selection sent (characters); longer ones are refused before anything is billed. */
export const MAX_REWRITE_CHARS = 100_000;

const SYSTEM =
  'You rewrite a passage taken from a document as the user instructs. Keep its language, its meaning unless told ' +
  'otherwise, and its format (Markdown, HTML or code stays as it is: links, images, emphasis, line structure). ' +
  'Answer with the rewritten passage only: no preamble, no explanation, no quotes and no code fence around it.';

export function rewriteMessages(passage: string, instruction: string, languageId: string): ChatMessage[] {
  return [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: `Instruction: ${instruction.trim()}\n\nThe passage (from a ${languageId} document):\n<passage>\n${passage}\n</passage>` },
  ];
}
