/**
 * The media webviews' policy: the player may play audio from data: URIs only (the host hands it the
 * bytes it checked); every other page keeps media blocked by default-src 'none'.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { webviewCsp } from '../../../src/webviewKit/html';
import { isMediaWebviewToHost } from '../../../src/protocol/mediaProtocol';

test('player CSP: media-src is data: and nothing else; no remote source anywhere', () => {
  const csp = webviewCsp('vscode-resource:', 'n0nce', { dataMedia: true });
  const media = csp.split('; ').filter((d) => d.startsWith('media-src'));
  assert.deepEqual(media, ['media-src data:']);
  assert.match(csp, /default-src 'none'/);
  assert.doesNotMatch(csp, /https?:|\*/);
});

test('other pages: no media-src, so default-src none blocks audio', () => {
  assert.doesNotMatch(webviewCsp('vscode-resource:', 'n0nce'), /media-src/);
});

test('the host accepts only the four page messages', () => {
  for (const type of ['ready', 'save', 'insert', 'discard']) assert.equal(isMediaWebviewToHost({ type }), true);
  for (const m of [null, 'save', { type: 'openLink', href: 'https://x.test' }, { type: 'image' }]) assert.equal(isMediaWebviewToHost(m), false);
});

test('save and insert name the chosen image by a whole, non-negative index', () => {
  for (const index of [0, 1, 3]) {
    assert.equal(isMediaWebviewToHost({ type: 'save', index }), true);
    assert.equal(isMediaWebviewToHost({ type: 'insert', index }), true);
  }
  for (const index of [-1, 1.5, '1', null, Number.NaN, 2 ** 60]) {
    assert.equal(isMediaWebviewToHost({ type: 'save', index }), false, String(index));
    assert.equal(isMediaWebviewToHost({ type: 'insert', index }), false, String(index));
  }
});
