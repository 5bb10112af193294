/**
 * The webview kit's link interceptor (src/webview/kit/links.ts), as chat uses it. Every click and
 * middle click on a link is stopped at the document in the capture phase, so VS Code's webview wrapper
 * (a bubble-phase listener on the window that opens any clicked <a href> itself, ignoring
 * defaultPrevented) never sees it; only the host, which confirms non-https links, opens it. The
 * Chromium test in test/e2e/chat.e2e.ts checks the same with the real bundle and a real window listener.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { handleLinkEvent, installLinkInterceptor, type LinkEvent } from '../../../src/webview/kit/links';
import { FakeDocument } from './fakeLinkDom';

function event(type: string, button = 0): LinkEvent & { calls: string[] } {
  const calls: string[] = [];
  return { type, button, calls, preventDefault: () => calls.push('preventDefault'), stopPropagation: () => calls.push('stopPropagation') };
}

/** The rest of the bubble path: the window's listener runs unless propagation was stopped. */
function bubble(ev: LinkEvent & { calls: string[] }, href: string | null, open: (h: string) => void, windowListener: () => void): void {
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

test('an image placeholder (data-href) in a reply opens through the host and never reaches the wrapper', () => {
  const doc = new FakeDocument();
  const opened: string[] = [];
  installLinkInterceptor(doc, (h) => opened.push(h));
  const reply = doc.body.child('div', { class: 'body' });
  const placeholder = reply.child('button', { 'data-href': 'https://xss.invalid/track.png', class: 'remote-image' });
  const r = doc.dispatch('click', placeholder);
  assert.deepEqual(opened, ['https://xss.invalid/track.png']);
  assert.equal(r.wrapperSaw, false);
  // A plain button is no link: its click goes on to the chat's own (bubble-phase) handlers.
  const plain = reply.child('button', { 'data-action': 'copyCode' });
  assert.equal(doc.dispatch('click', plain).wrapperSaw, true);
  assert.deepEqual(opened, ['https://xss.invalid/track.png']);
});
