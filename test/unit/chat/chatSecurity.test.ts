import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chatCsp, judgeLink } from '../../../src/chat/chatSecurity';

test('the chat CSP allows nothing by default and only nonce scripts', () => {
  const csp = chatCsp('vscode-resource:', 'abc123');
  assert.match(csp, /^default-src 'none';/);
  assert.match(csp, /script-src 'nonce-abc123'(;|$)/);
  assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|https?:|\*/);
  assert.match(csp, /img-src vscode-resource: data:(;|$)/);
});

test('https links open directly; http and mailto need confirmation', () => {
  assert.equal(judgeLink('https://example.com/a').kind, 'open');
  assert.equal(judgeLink('http://example.com/a').kind, 'confirm');
  assert.equal(judgeLink('mailto:a@example.com').kind, 'confirm');
});

test('script, data, file and command links are never opened', () => {
  for (const href of ['javascript:alert(1)', ' JAVASCRIPT:alert(1)', 'data:text/html,<script>alert(1)</script>', 'file:///etc/passwd', 'command:workbench.action.terminal.new', 'vscode://x', '/relative', '']) {
    assert.equal(judgeLink(href).kind, 'refuse', href);
  }
});
