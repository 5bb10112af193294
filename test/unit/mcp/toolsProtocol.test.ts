import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isHostToWebview, isWebviewToHost } from '../../../src/protocol/toolsProtocol';

test('the host accepts only well-formed webview messages', () => {
  assert.equal(isWebviewToHost({ type: 'run', args: { a: 1 } }), true);
  assert.equal(isWebviewToHost({ type: 'run', args: [1] }), false);
  assert.equal(isWebviewToHost({ type: 'run' }), false);
  assert.equal(isWebviewToHost({ type: 'copy', format: 'curl', args: {} }), true);
  assert.equal(isWebviewToHost({ type: 'copy', format: 'wget', args: {} }), false);
  assert.equal(isWebviewToHost({ type: 'retry', callId: 7 }), false);
  assert.equal(isWebviewToHost({ type: 'openLink', href: 'https://x' }), true);
  assert.equal(isWebviewToHost({ type: 'eval', code: '1' }), false);
  assert.equal(isWebviewToHost(null), false);
});

test('the webview accepts only known host messages', () => {
  assert.equal(isHostToWebview({ type: 'notRun', reason: 'x' }), true);
  assert.equal(isHostToWebview({ type: 'unknown' }), false);
});
