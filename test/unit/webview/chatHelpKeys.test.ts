/**
 * The chat's Accessibility Help (#30.3) against the page (#40.4): every key line of the help is pressed
 * on the chat page booted in a DOM, and does what the help says. A key line the table below does not
 * know fails the first test, so a new key in the help comes with its behaviour test. (This replaces
 * assertions that matched the webview's source text for each key.)
 */
import { afterEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { HTMLButtonElement, HTMLElement } from 'happy-dom';
import { chatAccessibilityHelp } from '../../../src/core/chat/accessibilityHelp';
import { bootChat, message, type ChatPage } from './chatPage';

let chat: ChatPage | undefined;
afterEach(async () => {
  await chat?.close();
  chat = undefined;
});

const CONVERSATION = [message('u1', 'user', 'one'), message('a1', 'assistant', 'reply one'), message('u2', 'user', 'two'), message('a2', 'assistant', 'Code:\n\n```ts\nx\n```\n', { version: { index: 1, count: 2 } })];

async function fresh(platform?: string): Promise<ChatPage> {
  await chat?.close();
  chat = await bootChat(platform ? { platform } : {});
  await chat.show(CONVERSATION);
  chat.input.focus();
  return chat;
}

const keybindings = (JSON.parse(readFileSync('package.json', 'utf8')) as { contributes: { keybindings: Array<{ command: string; key: string; mac?: string }> } }).contributes.keybindings;

/** What each key line of the help does, checked on a fresh page. */
const CHECKS: Array<{ line: RegExp; check(): Promise<void> }> = [
  {
    line: /^Enter: Send/,
    async check() {
      const c = await fresh();
      c.type(c.input, 'hi');
      c.key(c.input, 'Enter');
      assert.deepEqual(c.postedOf('send'), [{ type: 'send', text: 'hi' }]);
    },
  },
  {
    line: /^Shift\+Enter: .*new line/,
    async check() {
      const c = await fresh();
      c.type(c.input, 'hi');
      assert.equal(c.key(c.input, 'Enter', { shiftKey: true }), false, 'left to the text box, which adds the line');
      assert.deepEqual(c.postedOf('send'), []);
    },
  },
  {
    line: /^Escape: Stop the reply that is streaming \(anywhere in the chat\); while editing, cancel the edit/,
    async check() {
      const c = await fresh();
      await c.receive({ type: 'streamStart', requestId: 'r', message: message('a3', 'assistant', '', { status: 'streaming' }) });
      c.key(c.input, 'Escape');
      c.key(c.byId('model'), 'Escape');
      assert.equal(c.postedOf('stop').length, 2, 'from the box and from the toolbar');
      const e = await fresh();
      e.key(e.input, 'ArrowUp');
      e.key(e.input, 'Escape');
      assert.equal(e.input.value, '');
      assert.equal(e.byId('edit-banner').hidden, true);
    },
  },
  {
    line: /^Up Arrow \(in an empty message box\): Edit your last message/,
    async check() {
      const c = await fresh();
      c.key(c.input, 'ArrowUp');
      assert.equal(c.input.value, 'two');
    },
  },
  {
    line: /^Ctrl\+Up Arrow \(in the message box\): Go to the last message/,
    async check() {
      for (const [platform, mods] of [[undefined, { ctrlKey: true }], ['MacIntel', { metaKey: true }]] as const) {
        const c = await fresh(platform);
        c.key(c.input, 'ArrowUp', mods);
        assert.equal(c.where(), 'article[data-message-id=a2]');
        assert.equal(c.input.value, '', 'and does not also edit');
      }
    },
  },
  {
    line: /^Up Arrow, Down Arrow, Home, End \(on a message\): Move between messages; each is read with its author/,
    async check() {
      const c = await fresh();
      c.key(c.input, 'ArrowUp', { ctrlKey: true });
      const seen: string[] = [];
      for (const k of ['ArrowUp', 'Home', 'ArrowDown', 'End']) {
        c.key(c.focused() as HTMLElement, k);
        seen.push(`${c.where()} ${(c.focused() as HTMLElement).getAttribute('aria-label')}`);
      }
      assert.deepEqual(seen, ['article[data-message-id=u2] You', 'article[data-message-id=u1] You', 'article[data-message-id=a1] Model A', 'article[data-message-id=a2] Model A']);
    },
  },
  {
    line: /^Ctrl\+Down Arrow \(on a message\): Go back to the message box/,
    async check() {
      const c = await fresh();
      c.key(c.input, 'ArrowUp', { ctrlKey: true });
      c.key(c.focused() as HTMLElement, 'ArrowDown', { ctrlKey: true });
      assert.equal(c.where(), 'textarea#input');
    },
  },
  {
    line: /^Tab \(in a message\): Reach the message's actions and each code block's Copy, Apply, Insert at Cursor and New File/,
    async check() {
      const c = await fresh();
      const reply = c.messages.querySelector<HTMLElement>('article[data-message-id=a2]');
      assert.ok(reply);
      const tabbable = [...reply.querySelectorAll<HTMLElement>('button, [tabindex]')].filter((b) => b.tabIndex >= 0 && !(b as HTMLButtonElement).disabled).map((b) => b.getAttribute('data-action') ?? b.tagName.toLowerCase());
      for (const want of ['copyCode', 'applyCode', 'insertCode', 'newFile', 'copyMessage', 'regenerate']) assert.ok(tabbable.includes(want), `${want} in ${tabbable.join(', ')}`);
    },
  },
  {
    line: /^Ctrl\+Shift\+Enter: Go to a tool call waiting for your approval \(the card, not its Approve button\); press it again to go back to the message box\. A waiting approval is announced/,
    async check() {
      const c = await fresh();
      await c.approvalArrives();
      assert.match(c.announced(), /waiting for your approval/);
      c.key(c.input, 'Enter', { ctrlKey: true, shiftKey: true });
      assert.equal(c.where(), 'div.tool-approval');
      c.key(c.focused() as HTMLElement, 'Enter', { ctrlKey: true, shiftKey: true });
      assert.equal(c.where(), 'textarea#input');
    },
  },
  {
    line: /^# \(in the message box\): Attach context: .*Up and Down choose, Enter or Tab picks, Escape closes the list/,
    async check() {
      const c = await fresh();
      c.type(c.input, '#x');
      const seq = c.postedOf<{ type: string; seq: number }>('contextQuery')[0]?.seq;
      await c.receive({ type: 'contextItems', seq, items: [{ id: 'a', kind: 'file', label: 'a.ts' }, { id: 'b', kind: 'file', label: 'b.ts' }] });
      c.key(c.input, 'ArrowDown');
      c.key(c.input, 'Tab');
      assert.deepEqual(c.postedOf('addContext'), [{ type: 'addContext', itemId: 'b' }]);
      c.type(c.input, '#y');
      c.key(c.input, 'Escape');
      assert.equal(c.byId('completion').hidden, true);
    },
  },
  {
    line: /^\/ \(at the start of the message box\): Run a chat command\. Up and Down choose, Enter or Tab picks/,
    async check() {
      const c = await fresh();
      c.type(c.input, '/');
      c.key(c.input, 'ArrowDown');
      c.key(c.input, 'ArrowUp');
      c.key(c.input, 'Enter');
      assert.equal(c.postedOf('slashCommand').length, 1);
      assert.deepEqual(c.postedOf('send'), []);
    },
  },
  {
    line: /^Previous version and Next version buttons \(‹ ›\): Switch between the versions of a regenerated reply/,
    async check() {
      const c = await fresh();
      const next = c.messages.querySelector<HTMLButtonElement>('article[data-message-id=a2] .version-switch button[data-dir="next"]');
      assert.equal(next?.getAttribute('aria-label'), 'Next version (2 of 2)');
      next?.click();
      assert.deepEqual(c.postedOf('showVersion'), [{ type: 'showVersion', messageId: 'a2', index: 2 }]);
    },
  },
  {
    line: /^Tab \(from the message box\): Go to the toolbar \(model, attach, settings, send\); Left and Right move inside it, Home and End go to its ends/,
    async check() {
      const c = await fresh();
      const toolbar = c.byId('chat-toolbar');
      const stops = (): string[] => [...toolbar.querySelectorAll<HTMLElement>('button')].filter((b) => b.tabIndex === 0 && !b.closest('[hidden]')).map((b) => b.id);
      assert.deepEqual(stops(), ['model'], 'the toolbar is one tab stop');
      c.byId('model').focus();
      c.key(c.byId('model'), 'ArrowRight');
      assert.equal(c.where(), 'button#attach', 'Right: the next visible button');
      c.key(c.focused() as HTMLElement, 'End');
      assert.equal(c.where(), 'button#send');
      c.key(c.focused() as HTMLElement, 'ArrowRight');
      assert.equal(c.where(), 'button#model', 'it wraps around');
      c.key(c.focused() as HTMLElement, 'ArrowLeft');
      assert.equal(c.where(), 'button#send');
      c.key(c.focused() as HTMLElement, 'Home');
      assert.equal(c.where(), 'button#model');
      c.key(c.focused() as HTMLElement, 'End');
      assert.deepEqual(stops(), ['send'], 'the stop follows the keyboard');
    },
  },
  // The editor's own keys (package.json keybindings), not the page's.
  {
    line: /^Ctrl\+Shift\+Alt\+Backspace: Stop the reply from anywhere in VS Code/,
    async check() {
      assert.ok(keybindings.some((k) => k.command === 'aiGateway.chat.stop' && k.key === 'ctrl+shift+alt+backspace' && k.mac === 'cmd+shift+alt+backspace'));
    },
  },
  {
    line: /^Ctrl\+Shift\+Alt\+K: Open the chat and put the keyboard in its message box/,
    async check() {
      assert.ok(keybindings.some((k) => k.command === 'aiGateway.chat.open' && k.key === 'ctrl+shift+alt+k'));
      const c = await fresh();
      c.byId('model').focus();
      await c.receive({ type: 'focusInput' });
      assert.equal(c.where(), 'textarea#input');
    },
  },
  {
    line: /^Alt\+F1 \(in the chat\): Show this help/,
    async check() {
      assert.ok(keybindings.some((k) => k.command === 'aiGateway.chat.accessibilityHelp' && k.key === 'alt+f1'));
    },
  },
];

const keyLines = chatAccessibilityHelp(false)
  .detail.split('\n')
  .filter((l) => /^[^ ].*?: /.test(l) && !/^(A reply|On macOS)/.test(l));

test('[#40.4][#30.3] every key line of the chat\'s Accessibility Help has a behaviour check on the page', () => {
  assert.ok(keyLines.length >= 15, `${keyLines.length} key lines`);
  for (const l of keyLines) assert.equal(CHECKS.filter((c) => c.line.test(l)).length, 1, `one check for: ${l}`);
  for (const c of CHECKS) assert.ok(keyLines.some((l) => c.line.test(l)), `the help still says ${c.line}`);
});

for (const { line, check } of CHECKS) test(`[#40.4][#30.3] the help's key does what it says: ${line.source.slice(1, 70).replace(/\\/g, '')}`, check);
