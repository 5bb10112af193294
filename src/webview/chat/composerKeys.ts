/**
 * Which key does what in the message box, as pure predicates (no DOM: tested in plain Node). Up in an
 * empty box edits your last message; Ctrl+Up (Cmd+Up on macOS) goes to the messages (messageNav.ts).
 * One key, one action (#30.3): Ctrl+Up once also started the edit.
 */
export interface KeyLike {
  readonly key: string;
  readonly ctrlKey: boolean;
  readonly metaKey: boolean;
  readonly altKey: boolean;
  readonly shiftKey: boolean;
}

/** Ctrl or Cmd and nothing else held. */
export const isMod = (e: KeyLike): boolean => (e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey;

const plain = (e: KeyLike): boolean => !e.ctrlKey && !e.metaKey && !e.altKey && !e.shiftKey;

/** Up, alone: in an empty message box, edit your last message. */
export const isEditLastKey = (e: KeyLike): boolean => e.key === 'ArrowUp' && plain(e);

/** Ctrl/Cmd+Up in the message box: to the last message. */
export const isGoToMessagesKey = (e: KeyLike): boolean => e.key === 'ArrowUp' && isMod(e);
