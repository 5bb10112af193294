/**
 * Review H2 / L4: links in the tools webview. Every click on a link (primary or middle) is stopped at
 * the link, so VS Code's webview wrapper (a bubble-phase listener on the window that opens any clicked
 * <a href> itself) never sees it; the host opens it after its own confirmation. Only http(s) URIs are
 * ever rendered as links.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isWebLink, linkHandler, type LinkEvent } from '../../../src/webview/tools/links';

function event(type: string, button = 0): LinkEvent & { calls: string[] } {
  const calls: string[] = [];
  return { type, button, calls, preventDefault: () => calls.push('preventDefault'), stopPropagation: () => calls.push('stopPropagation') };
}

/** A minimal bubble path: the anchor's listener runs, then the window's unless propagation stopped. */
function bubble(ev: LinkEvent & { calls: string[] }, anchor: (ev: LinkEvent) => void, windowListener: () => void): void {
  anchor(ev);
  if (!ev.calls.includes('stopPropagation')) windowListener();
}

test('a link click is prevented AND stopped, and only the host is asked to open it', () => {
  const opened: string[] = [];
  let wrapperSaw = 0;
  const handler = linkHandler('https://docs.example.test/a', (h) => opened.push(h));
  const click = event('click');
  bubble(click, handler, () => wrapperSaw++);
  assert.deepEqual(click.calls.sort(), ['preventDefault', 'stopPropagation']);
  assert.equal(wrapperSaw, 0, "VS Code's window listener must not see the click");
  assert.deepEqual(opened, ['https://docs.example.test/a']);
});

test('a middle click (auxclick) goes through the host too; other aux buttons open nothing', () => {
  const opened: string[] = [];
  let wrapperSaw = 0;
  const handler = linkHandler('mailto:someone@example.test', (h) => opened.push(h));
  const middle = event('auxclick', 1);
  bubble(middle, handler, () => wrapperSaw++);
  assert.deepEqual(opened, ['mailto:someone@example.test']);
  const right = event('auxclick', 2);
  bubble(right, handler, () => wrapperSaw++);
  assert.deepEqual(right.calls.sort(), ['preventDefault', 'stopPropagation']);
  assert.equal(opened.length, 1);
  assert.equal(wrapperSaw, 0);
});

test('only http(s) URIs count as web links', () => {
  for (const uri of ['https://a.test/x', 'http://a.test', 'HTTPS://A.TEST/']) assert.equal(isWebLink(uri), true, uri);
  for (const uri of ['vscode://ms-python.python/x', 'javascript:alert(1)', 'kb://col_docs/doc_intro', 'file:///etc/passwd', 'command:workbench.action.quit', 'not a uri', '']) {
    assert.equal(isWebLink(uri), false, uri);
  }
});
