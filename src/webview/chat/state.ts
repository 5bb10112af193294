/**
 * The chat page's one state object: what the host last sent, what is built on screen, the reply
 * streaming in, and the window of a long conversation's messages this page has. The renderers
 * (chrome.ts, messages.ts, stream.ts, composer.ts) read and write it; nothing else is kept at module level.
 */
import type { ChatStateView, MessageView } from '../../protocol/chatProtocol';
import type { ReplyStream } from './rendererLoader';

/** The reply being streamed into the page. */
export interface ActiveStream {
  requestId: string;
  messageId: string;
  renderer: ReplyStream;
  /** The retry countdown's interval, while one runs. */
  countdown?: number;
}

/** A built message. `sig` covers the body (re-rendered only when it changes), `footSig` the footer. */
export interface RenderedMessage {
  el: HTMLElement;
  sig: string;
  footSig: string;
}

export interface ChatPage {
  /** The host's last state. */
  state: ChatStateView | undefined;
  /** Enter replaces the last user message instead of adding one. */
  editing: boolean;
  /** The message list follows its end (until the user scrolls up). */
  stickToBottom: boolean;
  active: ActiveStream | undefined;
  /** The open conversation's messages this page has, by id. */
  messageViews: Map<string, MessageView>;
  /** Built messages by id. */
  rendered: Map<string, RenderedMessage>;
  /** The conversation `rendered` belongs to. */
  renderedConversation: string;
  /** Why the last Thumbs Up / Thumbs Down of a reply was not sent, by message id (shown until the next try). */
  feedbackErrors: Map<string, string>;
  /** Index (in the conversation) of the first message built into the list. */
  windowStart: number;
  /**
   * The open conversation's messages this webview has: `known[i]` is message `knownFrom + i`. A state
   * carries only a long conversation's end (`earlier` says how many come before); the ones before are
   * asked for (`loadEarlier`) when the list's top comes near them.
   */
  known: MessageView[];
  knownFrom: number;
  knownConversation: string;
  loadingEarlier: boolean;
  /** The retry countdown on screen (one at most: the streaming reply's). */
  countdownBox: HTMLElement | undefined;
  /** The message list's last scroll position (a move up lets go of the bottom). */
  lastScrollTop: number;
  /** ‹ or › was pressed from the keyboard: focus goes back to it once the host's state redraws the reply. */
  versionFocus?: { messageId: string; dir: 'prev' | 'next' };
}

export const page: ChatPage = {
  state: undefined,
  editing: false,
  stickToBottom: true,
  active: undefined,
  messageViews: new Map(),
  rendered: new Map(),
  renderedConversation: '',
  feedbackErrors: new Map(),
  windowStart: 0,
  known: [],
  knownFrom: 0,
  knownConversation: '',
  loadingEarlier: false,
  countdownBox: undefined,
  lastScrollTop: 0,
};

export function isLast(id: string): boolean {
  const msgs = page.state?.conversation.messages;
  return !!msgs && msgs[msgs.length - 1]?.id === id;
}

export function isLastUser(id: string): boolean {
  const msgs = page.state?.conversation.messages ?? [];
  for (let i = msgs.length - 1; i >= 0; i--) if (msgs[i].role === 'user') return msgs[i].id === id;
  return false;
}

export function lastUserMessage(): MessageView | undefined {
  const msgs = page.state?.conversation.messages ?? [];
  for (let i = msgs.length - 1; i >= 0; i--) if (msgs[i].role === 'user') return msgs[i];
  return undefined;
}
