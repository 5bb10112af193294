/**
 * The chat's look for screen readers and narrow sidebars (#29.13): a code block is a named group
 * ("Code block, TypeScript") with its language label hidden, and at 280 px the model name, the
 * token and cost line and the context warning wrap instead of being cut off.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { codeBlockLabel } from '../../../src/webview/chat/codeBlockLabel';

test('[#29.13] a code block is named "Code block, <language>" for screen readers, with its language label hidden', () => {
  assert.equal(codeBlockLabel('ts'), 'Code block, TypeScript');
  assert.equal(codeBlockLabel('py'), 'Code block, Python');
  assert.equal(codeBlockLabel('zig'), 'Code block, zig');
  assert.equal(codeBlockLabel(''), 'Code block');
  const src = readFileSync('src/webview/chat/markdown.ts', 'utf8');
  assert.match(src, /lang\.setAttribute\('aria-hidden', 'true'\)/);
  assert.match(src, /wrap\.setAttribute\('role', 'group'\)/);
  assert.match(src, /wrap\.setAttribute\('aria-label', codeBlockLabel\(language\)\)/);
});

const css = readFileSync('media/chat.css', 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
const rule = (selector: string): string => {
  const at = css.indexOf(`${selector} {`);
  assert.ok(at >= 0, `${selector} has a rule`);
  return css.slice(at, css.indexOf('}', at));
};

test('[#29.13] at 280 px the status line (tokens, cost) wraps, and the model name takes up to two lines instead of "Claude …"', () => {
  const status = rule('.composer-status');
  assert.match(status, /flex-wrap:\s*wrap/);
  assert.doesNotMatch(status, /white-space:\s*nowrap/);
  assert.doesNotMatch(rule('.composer-status > span'), /text-overflow:\s*ellipsis/);
  const name = rule('.model-name');
  assert.doesNotMatch(name, /white-space:\s*nowrap/);
  assert.match(name, /-webkit-line-clamp:\s*2/);
  assert.match(rule('.warning'), /overflow-wrap:\s*anywhere/);
});
