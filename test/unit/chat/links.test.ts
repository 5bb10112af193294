/**
 * Review H2 (chat part): link clicks in the chat webview. The document-level handler stops every
 * click and middle click on a link, so VS Code's webview wrapper (a bubble-phase listener on the
 * window that opens any clicked <a href> itself, ignoring defaultPrevented) never sees it; only the
 * host, which confirms non-https links, opens it. The Chromium test in test/e2e/chat.e2e.ts checks
 * the same with the real bundle and a real window listener.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { handleLinkEvent, type ChatLinkEvent } from '../../../src/webview/chat/links';

function event(type: string, button = 0): ChatLinkEvent & { calls: string[] } {
  const calls: string[] = [];
  return { type, button, calls, preventDefault: () => calls.push('preventDefault'), stopPropagation: () => calls.push('stopPropagation') };
}

/** The rest of the bubble path: the window's listener runs unless propagation was stopped. */
function bubble(ev: ChatLinkEvent & { calls: string[] }, href: string | null, open: (h: string) => void, windowListener: () => void): void {
  handleLinkEvent(ev, href, open);
  if (!ev.calls.includes('stopPropagation')) windowListener();
}

test('a link click is prevented AND stopped, and only the host is asked to open it', () => {
  const opened: string[] = [];
  let wrapperSaw = 0;
  const click = event('click');
  bubble(click, 'mailto:someone@example.test', (h) => opened.push(h), () => wrapperSaw++);
  assert.deepEqual([...click.calls].sort(), ['preventDefault', 'stopPropagation']);
  assert.equal(wrapperSaw, 0, "VS Code's window listener must not see the click");
  assert.deepEqual(opened, ['mailto:someone@example.test']);
});

test('a middle click opens through the host; a right click and fragment links open nothing, and none reach the wrapper', () => {
  const opened: string[] = [];
  let wrapperSaw = 0;
  bubble(event('auxclick', 1), 'https://docs.example.test/a', (h) => opened.push(h), () => wrapperSaw++);
  bubble(event('auxclick', 2), 'https://docs.example.test/b', (h) => opened.push(h), () => wrapperSaw++);
  bubble(event('click'), '#section', (h) => opened.push(h), () => wrapperSaw++);
  bubble(event('click'), null, (h) => opened.push(h), () => wrapperSaw++);
  assert.deepEqual(opened, ['https://docs.example.test/a']);
  assert.equal(wrapperSaw, 0);
});
