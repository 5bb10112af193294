/**
 * The chat's Accessibility Help (#30.3): every key the chat page handles is listed, with the macOS
 * modifier on a Mac and a note on it elsewhere.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chatAccessibilityHelp } from '../../../src/core/chat/accessibilityHelp';

test('[#30.3] the chat\'s Accessibility Help lists send, new line, stop, edit last, moving between messages, code-block actions, approvals, # and /, versions', () => {
  const { title, detail } = chatAccessibilityHelp(false);
  assert.match(title, /Accessibility Help/);
  for (const want of [
    /^Enter: Send/m,
    /^Shift\+Enter: .*new line/m,
    /^Escape: Stop the reply/m,
    /^Up Arrow \(in an empty message box\): Edit your last message/m,
    /^Ctrl\+Up Arrow \(in the message box\): Go to the last message/m,
    /^Up Arrow, Down Arrow, Home, End \(on a message\): Move between messages/m,
    /^Ctrl\+Down Arrow \(on a message\): Go back to the message box/m,
    /code block's Copy, Apply, Insert at Cursor and New File/,
    /^Ctrl\+Shift\+Enter: Go to a tool call waiting for your approval/m,
    /^# \(in the message box\): Attach context/m,
    /^\/ \(at the start of the message box\): Run a chat command/m,
    /‹ ›\): Switch between the versions/,
    /^Alt\+F1 \(in the chat\): Show this help/m,
    /announced once it is complete/,
    /On macOS, press Cmd where Ctrl is written/,
  ]) assert.match(detail, want);
  const mac = chatAccessibilityHelp(true).detail;
  assert.match(mac, /^Cmd\+Shift\+Enter: Go to a tool call/m);
  assert.match(mac, /^Cmd\+Up Arrow/m);
  assert.doesNotMatch(mac, /On macOS/);
});

// That the page handles each key the help names: test/unit/webview/chatHelpKeys.test.ts (each key pressed on the page).
