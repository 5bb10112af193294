/**
 * The chat's look for screen readers and narrow sidebars (#29.13): a code block is a named group
 * ("Code block, TypeScript") with its language label hidden. On the page: test/unit/webview/
 * chatMessages.test.ts (the code block's group) and chatNarrow.test.ts (at 280 px the model name, the
 * token and cost line and the warning wrap instead of being cut off).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { codeBlockLabel } from '../../../src/webview/chat/codeBlockLabel';

test('[#29.13] a code block is named "Code block, <language>" for screen readers, with its language label hidden', () => {
  assert.equal(codeBlockLabel('ts'), 'Code block, TypeScript');
  assert.equal(codeBlockLabel('py'), 'Code block, Python');
  assert.equal(codeBlockLabel('zig'), 'Code block, zig');
  assert.equal(codeBlockLabel(''), 'Code block');
  // On the page (role, label, hidden language label): test/unit/webview/chatMessages.test.ts.
});
