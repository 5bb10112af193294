/**
 * The chat's message box in a DOM (#40.4): its keys, where the keyboard goes when an approval arrives,
 * the go-to-approval key, `#` and `/` completion. The journeys (test/e2e/approvalFocus.e2e.ts,
 * chatComposer.e2e.ts, a11yKeyboard.e2e.ts) show the same in the real editor.
 */
import { afterEach, test } from 'node:test';
import assert from 'node:assert/strict';
import type { HTMLButtonElement, HTMLElement } from 'happy-dom';
import { bootChat, message, waitingCall, type ChatPage } from './chatPage';

let chat: ChatPage | undefined;
afterEach(async () => {
  await chat?.close();
  chat = undefined;
});

test('[#40.4] Enter sends the draft and clears the box; Shift+Enter does not send', async () => {
  chat = await bootChat({ modules: ['src/webview/chat/main.ts'] }); // the page's entry, which routes the keys and messages below
  await chat.show([]);
  chat.input.focus();
  chat.type(chat.input, 'hello');
  assert.equal(chat.key(chat.input, 'Enter', { shiftKey: true }), false, 'Shift+Enter is left to the text box (a new line)');
  assert.deepEqual(chat.postedOf('send'), []);
  assert.equal(chat.key(chat.input, 'Enter'), true);
  assert.deepEqual(chat.postedOf('send'), [{ type: 'send', text: 'hello' }]);
  assert.equal(chat.input.value, '');
  assert.deepEqual(chat.savedState, { draft: '' }, 'the saved draft is cleared too');
});

test('[#40.4] the draft is kept in the saved state and comes back when the page loads again', async () => {
  chat = await bootChat({ state: { draft: 'half a question' } });
  assert.equal(chat.input.value, 'half a question');
  chat.type(chat.input, '?');
  assert.deepEqual(chat.savedState, { draft: 'half a question?' });
  // A declared request (#40.10): it carries its request id, which the host's answer echoes.
  const { rid, ...draft } = chat.postedOf('draft').at(-1) as { rid?: unknown };
  assert.deepEqual(draft, { type: 'draft', text: 'half a question?' }, 'the host prices the draft');
  assert.equal(typeof rid, 'number');
});

test('[#40.4] Escape stops a streaming reply; Enter does not send while one streams', async () => {
  chat = await bootChat();
  await chat.show([message('u1', 'user', 'hi')]);
  await chat.receive({ type: 'streamStart', requestId: 'r1', message: message('a1', 'assistant', '', { status: 'streaming' }) });
  chat.type(chat.input, 'next');
  chat.key(chat.input, 'Enter');
  assert.deepEqual(chat.postedOf('send'), [], 'no send while a reply streams');
  assert.equal(chat.key(chat.input, 'Escape'), true);
  assert.deepEqual(chat.postedOf('stop'), [{ type: 'stop' }]);
});

test('[#40.4] Up in an empty box edits the last message; Enter then sends an edit, Escape cancels it', async () => {
  chat = await bootChat();
  await chat.show([message('u1', 'user', 'first'), message('a1', 'assistant', 'reply'), message('u2', 'user', 'second'), message('a2', 'assistant', 'reply 2')]);
  chat.input.focus();
  assert.equal(chat.key(chat.input, 'ArrowUp'), true);
  assert.equal(chat.input.value, 'second');
  assert.equal(chat.byId('edit-banner').hidden, false, 'the edit banner shows');
  chat.key(chat.input, 'Escape');
  assert.equal(chat.input.value, '');
  assert.equal(chat.byId('edit-banner').hidden, true);
  chat.key(chat.input, 'ArrowUp');
  chat.input.value = 'second, fixed';
  chat.key(chat.input, 'Enter');
  assert.deepEqual(chat.postedOf('editLast'), [{ type: 'editLast', text: 'second, fixed' }]);
  assert.deepEqual(chat.postedOf('send'), []);
});

test('[#40.4] Up in a box with text, or Ctrl+Up, does not start editing the last message', async () => {
  chat = await bootChat();
  await chat.show([message('u1', 'user', 'first'), message('a1', 'assistant', 'reply')]);
  chat.type(chat.input, 'draft');
  assert.equal(chat.key(chat.input, 'ArrowUp'), false);
  assert.equal(chat.input.value, 'draft');
  chat.input.value = '';
  chat.key(chat.input, 'ArrowUp', { ctrlKey: true });
  assert.equal(chat.input.value, '', 'Ctrl+Up goes to the messages, it does not also edit');
  assert.equal(chat.byId('edit-banner').hidden, true);
});

test('[#40.4] a failed edit put back by the host stays an edit: Enter replaces the last message again', async () => {
  chat = await bootChat();
  await chat.show([message('u1', 'user', 'first'), message('a1', 'assistant', 'reply')]);
  await chat.receive({ type: 'setInput', text: 'first, fixed', mode: 'editLast' });
  assert.equal(chat.input.value, 'first, fixed');
  chat.key(chat.input, 'Enter');
  assert.deepEqual(chat.postedOf('editLast'), [{ type: 'editLast', text: 'first, fixed' }]);
  // A newer draft is never overwritten.
  chat.type(chat.input, 'newer');
  await chat.receive({ type: 'setInput', text: 'older' });
  assert.equal(chat.input.value, 'newer');
});

test('[#40.4] the page does not take the keyboard on load; focusInput from the host does', async () => {
  chat = await bootChat();
  assert.notEqual(chat.where(), chat.where(chat.input));
  await chat.receive({ type: 'focusInput' });
  assert.equal(chat.where(), chat.where(chat.input));
});

test('[#40.8] a late focusInput (the page became ready after the ask) does not take the keyboard from another view; the input gets it when the page gets the focus', async () => {
  chat = await bootChat();
  const doc = chat.document as unknown as { hasFocus(): boolean };
  // The user moved on while the page loaded: the keyboard is in another view (the sidebar chat), not this page.
  let here = false;
  doc.hasFocus = () => here;
  await chat.receive({ type: 'focusInput', late: true });
  assert.notEqual(chat.where(), chat.where(chat.input), 'the page does not pull the keyboard to itself');
  // The user comes to this chat (or the workbench gives its page the focus): the input has the keyboard.
  here = true;
  chat.window.dispatchEvent(new chat.window.FocusEvent('focus'));
  assert.equal(chat.where(), chat.where(chat.input));
  // Late, with the page still having the keyboard (the user stayed on the new tab): at once.
  chat.input.blur();
  await chat.receive({ type: 'focusInput', late: true });
  assert.equal(chat.where(), chat.where(chat.input));
});

// ---------- approvals ----------

test('[#40.4] an approval that arrives while the user types does not take the keyboard (never onto Approve)', async () => {
  chat = await bootChat();
  await chat.show([message('u1', 'user', 'write it')]);
  chat.input.focus();
  chat.type(chat.input, 'still typ');
  await chat.approvalArrives();
  const approve = chat.document.querySelector('button[data-action="approveTool"]');
  assert.ok(approve, 'the Approve button is drawn');
  assert.equal(chat.where(), chat.where(chat.input), 'the keyboard stays in the message box');
  assert.notEqual(chat.where(), chat.where(approve));
  assert.match(chat.announced(), /write_file is waiting for your approval\. Press Ctrl\+Shift\+Enter to go to it\./);
  // Typing on (Space, Enter) answers nothing.
  chat.key(chat.input, ' ');
  assert.deepEqual(chat.postedOf('toolApproval'), []);
});

test('[#40.4] an approval that arrives while the keyboard is on a message stays there too', async () => {
  chat = await bootChat();
  await chat.show([message('u1', 'user', 'write it')]);
  const article = chat.messages.querySelector<HTMLElement>('article.message');
  assert.ok(article);
  chat.input.focus();
  chat.key(chat.input, 'ArrowUp', { ctrlKey: true });
  assert.equal(chat.where(), chat.where(article));
  await chat.approvalArrives();
  assert.equal(chat.where(), chat.where(article));
});

test('[#40.4] Ctrl+Shift+Enter goes to the approval card (not to Approve), opens it, and pressed there goes back to the box', async () => {
  chat = await bootChat();
  await chat.show([message('u1', 'user', 'write it')]);
  chat.input.focus();
  await chat.approvalArrives();
  const card = chat.document.querySelector<HTMLElement>('.tool-approval');
  assert.ok(card);
  assert.equal(card.getAttribute('aria-keyshortcuts'), 'Control+Shift+Enter');
  card.closest('details')?.removeAttribute('open');
  assert.equal(chat.key(chat.input, 'Enter', { ctrlKey: true, shiftKey: true }), true);
  assert.equal(chat.where(), chat.where(card), 'on the card, whose question a screen reader reads');
  assert.equal(card.closest('details')?.hasAttribute('open'), true);
  assert.deepEqual(chat.postedOf('toolApproval'), [], 'the key approves nothing');
  assert.deepEqual(chat.postedOf('send'), [], 'and sends nothing');
  // Tab from the card reaches Deny first: the safe one.
  assert.equal(card.querySelector('button')?.dataset.action, 'denyTool');
  chat.key(card, 'Enter', { ctrlKey: true, shiftKey: true });
  assert.equal(chat.where(), chat.where(chat.input), 'pressed on the card: back to the message box');
});

test('[#40.4] the go-to-approval key with nothing waiting says so and leaves the keyboard alone', async () => {
  chat = await bootChat();
  await chat.show([message('u1', 'user', 'hi')]);
  chat.input.focus();
  chat.key(chat.input, 'Enter', { ctrlKey: true, shiftKey: true });
  assert.equal(chat.where(), chat.where(chat.input));
  assert.equal(chat.announced(), 'No tool call is waiting for your approval.');
  assert.deepEqual(chat.postedOf('send'), []);
});

test('[#40.4] on macOS the key is Cmd+Shift+Enter', async () => {
  chat = await bootChat({ platform: 'MacIntel' });
  await chat.show([message('u1', 'user', 'write it')]);
  chat.input.focus();
  await chat.approvalArrives();
  assert.match(chat.announced(), /Press Cmd\+Shift\+Enter/);
  assert.equal(chat.document.querySelector('.tool-approval')?.getAttribute('aria-keyshortcuts'), 'Meta+Shift+Enter');
  chat.key(chat.input, 'Enter', { metaKey: true, shiftKey: true });
  assert.equal(chat.where(), 'div.tool-approval');
});

test('[#40.4] Approve from the keyboard answers once and the keyboard goes back to the message box', async () => {
  chat = await bootChat();
  await chat.show([message('u1', 'user', 'write it')]);
  await chat.approvalArrives(waitingCall('call-7'));
  const approve = chat.document.querySelector<HTMLButtonElement>('button[data-action="approveTool"]');
  assert.ok(approve);
  approve.focus();
  approve.click();
  assert.deepEqual(chat.postedOf('toolApproval'), [{ type: 'toolApproval', callId: 'call-7', approve: true }]);
  assert.equal(chat.where(), chat.where(chat.input));
  assert.equal(approve.disabled, true);
  assert.equal(chat.document.querySelector<HTMLButtonElement>('button[data-action="denyTool"]')?.disabled, true, 'both buttons go inert');
  approve.click();
  assert.equal(chat.postedOf('toolApproval').length, 1, 'answered once');
});

// ---------- completion ----------

test('[#40.4] # asks the host for context, lists its answer as a listbox, and Enter picks an item', async () => {
  chat = await bootChat();
  await chat.show([]);
  chat.input.focus();
  chat.type(chat.input, 'look at #rea');
  const queries = chat.postedOf<{ type: string; query: string; seq: number }>('contextQuery');
  assert.equal(queries.at(-1)?.query, 'rea');
  const list = chat.byId('completion');
  assert.ok(list);
  assert.equal(list.hidden, false);
  assert.equal(chat.input.getAttribute('aria-expanded'), 'true');
  const seq = queries.at(-1)?.seq;
  await chat.receive({ type: 'contextItems', seq, items: [{ id: 'f1', kind: 'file', label: 'README.md', detail: 'docs' }, { id: 'f2', kind: 'file', label: 'read.ts' }] });
  assert.deepEqual([...list.querySelectorAll('[role="option"]')].map((o) => o.querySelector('.completion-label')?.textContent), ['README.md', 'read.ts']);
  assert.equal(chat.announced(), '2 suggestions. Up and Down to choose, Enter to pick, Escape to close.');
  assert.equal(chat.key(chat.input, 'ArrowDown'), true);
  assert.equal(chat.input.getAttribute('aria-activedescendant'), 'completion-1');
  assert.equal(chat.announced(), 'read.ts (2 of 2)');
  assert.equal(chat.key(chat.input, 'Enter'), true);
  assert.deepEqual(chat.postedOf('addContext'), [{ type: 'addContext', itemId: 'f2' }]);
  assert.deepEqual(chat.postedOf('send'), [], 'Enter picked; it did not send');
  assert.equal(chat.input.value, 'look at ', 'the #query is taken out of the text');
  assert.equal(list.hidden, true);
  assert.equal(chat.where(), chat.where(chat.input));
});

test('[#40.4] an answer to an older # query is dropped; Escape closes the list without stopping or sending', async () => {
  chat = await bootChat();
  await chat.show([]);
  chat.input.focus();
  chat.type(chat.input, '#a');
  chat.type(chat.input, 'b');
  const [first, second] = chat.postedOf<{ type: string; seq: number }>('contextQuery');
  await chat.receive({ type: 'contextItems', seq: first.seq, items: [{ id: 'old', kind: 'file', label: 'old.ts' }] });
  const list = chat.byId('completion');
  assert.equal(list.querySelector('[role="option"]'), null, 'the stale answer is not shown');
  await chat.receive({ type: 'contextItems', seq: second.seq, items: [{ id: 'new', kind: 'symbol', label: 'abc' }] });
  assert.equal(list.querySelector('.completion-label')?.textContent, 'abc');
  assert.equal(chat.key(chat.input, 'Escape'), true);
  assert.equal(list.hidden, true);
  assert.deepEqual(chat.postedOf('stop'), []);
  assert.equal(chat.input.value, '#ab');
});

test('[#40.4] / at the start lists the chat commands; Tab runs the chosen one', async () => {
  chat = await bootChat();
  await chat.show([]);
  chat.input.focus();
  chat.type(chat.input, '/su');
  const labels = [...chat.document.querySelectorAll('#completion .completion-label')].map((e) => e.textContent);
  assert.equal(labels[0], '/summary');
  assert.equal(chat.postedOf('contextQuery').length, 0, 'commands are the page\'s own list');
  assert.equal(chat.key(chat.input, 'Tab'), true);
  assert.deepEqual(chat.postedOf('slashCommand'), [{ type: 'slashCommand', command: 'summary' }]);
  assert.equal(chat.input.value, '');
  assert.equal(chat.announced(), 'Running /summary.');
});
