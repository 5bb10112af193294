/**
 * A chat page starts loading before the chat's code (src/chat/chatPage.ts): whatever the page posts
 * before the controller exists (its `ready`) must reach the controller, once, in order, and the
 * holding queue must stay bounded whatever the page sends.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { ChatPage } from '../../../src/chat/chatPage';

/** Just enough of a webview: message listeners that can be added and disposed. */
function fakeWebview(): { webview: vscode.Webview; send(m: unknown): void; listeners(): number } {
  const listeners = new Set<(m: unknown) => void>();
  const webview = {
    onDidReceiveMessage: (fn: (m: unknown) => void) => {
      listeners.add(fn);
      return { dispose: () => listeners.delete(fn) };
    },
  } as unknown as vscode.Webview;
  return { webview, send: (m) => [...listeners].forEach((fn) => fn(m)), listeners: () => listeners.size };
}

test('messages the page posts before the controller listens reach it first, in order, then the later ones', () => {
  const w = fakeWebview();
  const page = new ChatPage(w.webview);
  w.send({ type: 'ready' });
  w.send({ type: 'draft', text: 'hi' });
  const got: unknown[] = [];
  page.listen((m) => got.push(m));
  w.send({ type: 'send', text: 'hi' });
  assert.deepEqual(got, [{ type: 'ready' }, { type: 'draft', text: 'hi' }, { type: 'send', text: 'hi' }]);
  assert.equal(w.listeners(), 1, 'the holding listener is gone; only the controller listens');
});

test('a page that floods before its controller exists is held to a bounded queue', () => {
  const w = fakeWebview();
  const page = new ChatPage(w.webview);
  for (let i = 0; i < 100_000; i++) w.send({ type: 'draft', text: String(i) });
  const got: unknown[] = [];
  page.listen((m) => got.push(m));
  assert.ok(got.length > 0 && got.length <= 64, `held ${got.length}`);
  assert.deepEqual(got[0], { type: 'draft', text: '0' }, 'the first ones (the page\'s ready) are the ones kept');
});

test('disposing the listener stops delivery', () => {
  const w = fakeWebview();
  const page = new ChatPage(w.webview);
  const got: unknown[] = [];
  page.listen((m) => got.push(m)).dispose();
  w.send({ type: 'ready' });
  assert.deepEqual(got, []);
  assert.equal(w.listeners(), 0);
});
