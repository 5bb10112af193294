/**
 * What the compiler enforces from the chat protocol's one declaration (#40.10): each `@ts-expect-error`
 * below is a mistake that must NOT compile. `npx tsc --noEmit -p .` (the typecheck of `bash .ci/run`)
 * compiles this file; if one of these mistakes ever compiled, the unused `@ts-expect-error` would fail it.
 * The run-time part checks that `dispatch` reaches the handler of the message's own type.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { answerChat, chatRequestClient, type HostHandlers, type HostToWebview, type WebviewToHost } from '../../../src/protocol/chatProtocol';
import { dispatch } from '../../../src/protocol/declare';
import type { ChatHandlers } from '../../../src/core/chat/chatDeps';

const seen: string[] = [];
const note = (m: { type: string }): void => {
  seen.push(m.type);
};

/** The webview's map, complete: compiles. */
const complete: HostHandlers = {
  state: note,
  conversations: note,
  conversationsChanged: note,
  streamStart: note,
  streamChunk: note,
  streamDone: note,
  streamError: note,
  retryCountdown: note,
  toolCall: note,
  setInput: note,
  focusInput: note,
  promptCost: note,
  replyRating: note,
  earlierMessages: note,
  contextItems: note,
  notice: note,
};

// A webview map missing a host message (`notice`) does not compile.
const { notice: _notice, ...withoutNotice } = complete;
// @ts-expect-error -- property 'notice' is missing
const missingOnWebview: HostHandlers = withoutNotice;

// The host's map missing a webview message (`draft`) does not compile.
const { draft: _draft, ...hostWithoutDraft } = {} as ChatHandlers;
// @ts-expect-error -- property 'draft' is missing
const missingOnHost: ChatHandlers = hostWithoutDraft;

// A handler given the wrong message type does not compile.
const wrongHandler: HostHandlers = {
  ...complete,
  // @ts-expect-error -- a notice has no `items`
  notice: (m: Extract<HostToWebview, { type: 'contextItems' }>) => void m.items,
};

// A message missing a required field, or a field out of its declared set, does not compile.
// @ts-expect-error -- `text` is required
const noText: WebviewToHost = { type: 'send' };
// @ts-expect-error -- not a declared `/` command
const badCommand: WebviewToHost = { type: 'slashCommand', command: 'clear' };
// @ts-expect-error -- not a declared message type
const unknownType: WebviewToHost = { type: 'evalThis' };

// The host answers a request only with its declared answer.
// @ts-expect-error -- `draft` is answered by `promptCost`, not `notice`
const wrongAnswer = () => answerChat({ type: 'draft', text: '' }, { type: 'notice', text: 'x' });

// Only declared requests go through the request client, without their id (the client sets it).
const requests = chatRequestClient(() => {});
// @ts-expect-error -- `send` is a message, not a request
const notARequest = () => requests.send('send', { text: 'x' });
// @ts-expect-error -- `loadEarlier` needs its `end`
const missingEnd = () => requests.send('loadEarlier', { conversationId: 'c' });

void [missingOnWebview, missingOnHost, wrongHandler, noText, badCommand, unknownType, wrongAnswer, notARequest, missingEnd];

test('[#40.10] dispatch reaches the handler of the message\'s own type, through a map the compiler checked complete', () => {
  seen.length = 0;
  const messages: HostToWebview[] = [
    { type: 'notice', text: 'x' },
    { type: 'focusInput' },
    { type: 'promptCost', text: '', estimate: false },
  ];
  for (const m of messages) dispatch(complete, m);
  assert.deepEqual(seen, ['notice', 'focusInput', 'promptCost']);
});
