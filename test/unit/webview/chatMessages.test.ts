/**
 * The chat's message list in a DOM (#40.4, #30.3): moving between messages by keyboard, switching a
 * regenerated reply's versions, copying (heard by a screen reader), code blocks a keyboard can reach.
 * These replace assertions that matched the webview's source text (chatKeyboard, chatA11y).
 */
import { afterEach, test } from 'node:test';
import assert from 'node:assert/strict';
import type { HTMLButtonElement, HTMLElement } from 'happy-dom';
import { bootChat, message, type ChatPage } from './chatPage';

let chat: ChatPage | undefined;
afterEach(async () => {
  await chat?.close();
  chat = undefined;
});

const CONVERSATION = [message('u1', 'user', 'one'), message('a1', 'assistant', 'reply one'), message('u2', 'user', 'two'), message('a2', 'assistant', 'reply two')];

test('[#40.4][#30.3] Ctrl+Up in the message box goes to the last message; Up, Down, Home, End move between messages; Ctrl+Down goes back', async () => {
  chat = await bootChat();
  await chat.show(CONVERSATION);
  chat.input.focus();
  assert.equal(chat.key(chat.input, 'ArrowUp', { ctrlKey: true }), true);
  assert.equal(chat.where(), 'article[data-message-id=a2]');
  const on = (): HTMLElement => chat!.focused() as HTMLElement;
  chat.key(on(), 'ArrowUp');
  assert.equal(chat.where(), 'article[data-message-id=u2]');
  chat.key(on(), 'Home');
  assert.equal(chat.where(), 'article[data-message-id=u1]');
  chat.key(on(), 'ArrowUp');
  assert.equal(chat.where(), 'article[data-message-id=u1]', 'Up on the first message stays there');
  chat.key(on(), 'ArrowDown');
  assert.equal(chat.where(), 'article[data-message-id=a1]');
  chat.key(on(), 'End');
  assert.equal(chat.where(), 'article[data-message-id=a2]');
  chat.key(on(), 'ArrowDown');
  assert.equal(chat.where(), 'article[data-message-id=a2]', 'Down on the last message stays there');
  assert.equal(on().getAttribute('aria-label'), 'Model A', 'a message is read with who wrote it');
  chat.key(on(), 'ArrowDown', { ctrlKey: true });
  assert.equal(chat.where(), 'textarea#input');
  assert.equal(chat.input.value, '', 'moving around edits nothing');
  assert.deepEqual(chat.postedOf('editLast'), []);
});

test('[#40.4] Cmd+Up and Cmd+Down do the same (macOS); Up on the list itself goes to the last message', async () => {
  chat = await bootChat({ platform: 'MacIntel' });
  await chat.show(CONVERSATION);
  chat.input.focus();
  chat.key(chat.input, 'ArrowUp', { metaKey: true });
  assert.equal(chat.where(), 'article[data-message-id=a2]');
  chat.key(chat.focused() as HTMLElement, 'ArrowDown', { metaKey: true });
  assert.equal(chat.where(), 'textarea#input');
  chat.messages.focus();
  chat.key(chat.messages, 'ArrowUp');
  assert.equal(chat.where(), 'article[data-message-id=a2]');
});

test('[#40.4] the arrow keys inside a message (a code block, its buttons) are not taken for moving between messages', async () => {
  chat = await bootChat();
  await chat.show([message('u1', 'user', 'one'), message('a1', 'assistant', 'code:\n\n```ts\nconst a = 1;\n```\n')]);
  const pre = chat.messages.querySelector<HTMLElement>('article[data-message-id=a1] pre');
  assert.ok(pre, 'the reply is rendered with its code block');
  pre.focus();
  assert.equal(chat.key(pre, 'ArrowUp'), false);
  assert.equal(chat.where(), chat.where(pre));
});

test('[#40.4] with no messages Ctrl+Up leaves the keyboard in the box', async () => {
  chat = await bootChat();
  await chat.show([]);
  chat.input.focus();
  assert.equal(chat.key(chat.input, 'ArrowUp', { ctrlKey: true }), false);
  assert.equal(chat.where(), 'textarea#input');
});

// ---------- versions ----------

const versions = (index: number, count = 3) => [message('u1', 'user', 'q'), message('a1', 'assistant', `answer ${index}`, { version: { index, count } })];

test('[#40.4] a regenerated reply shows ‹ n/m ›; › asks the host for the next version, ‹ for the previous, ends disabled', async () => {
  chat = await bootChat();
  await chat.show(versions(2));
  const sw = chat.messages.querySelector<HTMLElement>('article[data-message-id=a1] .version-switch');
  assert.ok(sw);
  assert.equal(sw.getAttribute('aria-label'), 'Version 2 of 3');
  assert.equal(sw.querySelector('.version-count')?.textContent, '2/3');
  sw.querySelector<HTMLButtonElement>('button[data-dir="next"]')?.click();
  sw.querySelector<HTMLButtonElement>('button[data-dir="prev"]')?.click();
  assert.deepEqual(chat.postedOf('showVersion'), [
    { type: 'showVersion', messageId: 'a1', index: 3 },
    { type: 'showVersion', messageId: 'a1', index: 1 },
  ]);
  await chat.show(versions(3));
  const next = chat.messages.querySelector<HTMLButtonElement>('article[data-message-id=a1] button[data-dir="next"]');
  assert.equal(next?.disabled, true, 'no version after the last');
  await chat.show(versions(1));
  assert.equal(chat.messages.querySelector<HTMLButtonElement>('article[data-message-id=a1] button[data-dir="prev"]')?.disabled, true);
  await chat.show([message('u1', 'user', 'q'), message('a1', 'assistant', 'only', { version: { index: 1, count: 1 } })]);
  assert.equal(chat.messages.querySelector('.version-switch'), null, 'one version: no switch');
});

test('[#41.6] the version arrows are named for the version they go to; at either end the disabled one says there is none (never "3 of 2")', async () => {
  chat = await bootChat();
  const labels = () => {
    const sw = chat!.messages.querySelector<HTMLElement>('article[data-message-id=a1] .version-switch');
    return ['prev', 'next'].map((dir) => sw?.querySelector<HTMLButtonElement>(`button[data-dir="${dir}"]`)?.getAttribute('aria-label'));
  };
  await chat.show(versions(2, 2)); // just regenerated: the new reply is the last of two
  assert.deepEqual(labels(), ['Previous version (1 of 2)', 'Next version: none, this is the last of 2']);
  await chat.show(versions(1, 2));
  assert.deepEqual(labels(), ['Previous version: none, this is the first of 2', 'Next version (2 of 2)']);
  await chat.show(versions(2, 3));
  assert.deepEqual(labels(), ['Previous version (1 of 3)', 'Next version (3 of 3)']);
  // The hover says the same as the screen reader.
  const next = chat.messages.querySelector<HTMLButtonElement>('article[data-message-id=a1] button[data-dir="next"]');
  assert.equal(next?.title, 'Next version (3 of 3)');
});

test('[#40.4] › pressed from the keyboard keeps the keyboard on the switch after the host redraws the reply (the other button at the end)', async () => {
  chat = await bootChat();
  await chat.show(versions(1));
  const next = chat.messages.querySelector<HTMLButtonElement>('article[data-message-id=a1] button[data-dir="next"]');
  assert.ok(next);
  next.focus();
  next.click();
  await chat.show(versions(2));
  assert.equal(chat.where(), 'button[data-action=showVersion next]');
  assert.equal((chat.focused() as HTMLElement).dataset.index, '3', 'the redrawn button, not the old one');
  assert.equal(chat.announced(), 'Version 2 of 3');
  (chat.focused() as HTMLButtonElement).click();
  await chat.show(versions(3));
  assert.equal(chat.where(), 'button[data-action=showVersion prev]', '› is disabled at the last version: the keyboard goes to ‹');
  // Clicked with the mouse, the keyboard stays where it was.
  chat.input.focus();
  chat.messages.querySelector<HTMLButtonElement>('article[data-message-id=a1] button[data-dir="prev"]')?.click();
  await chat.show(versions(2));
  assert.equal(chat.where(), 'textarea#input');
});

test('[#40.4] Regenerate is offered on the last reply only, and asks the host', async () => {
  chat = await bootChat();
  await chat.show(CONVERSATION);
  assert.equal(chat.messages.querySelector('article[data-message-id=a1] button[data-action="regenerate"]'), null);
  chat.messages.querySelector<HTMLButtonElement>('article[data-message-id=a2] button[data-action="regenerate"]')?.click();
  assert.deepEqual(chat.postedOf('regenerate'), [{ type: 'regenerate' }]);
  // Edit is on your last message only, and puts it in the box in edit mode.
  assert.equal(chat.messages.querySelector('article[data-message-id=u1] button[data-action="editMessage"]'), null);
  chat.messages.querySelector<HTMLButtonElement>('article[data-message-id=u2] button[data-action="editMessage"]')?.click();
  assert.equal(chat.input.value, 'two');
  assert.equal(chat.where(), 'textarea#input');
  assert.equal(chat.byId('edit-banner').hidden, false);
});

// ---------- copy, code blocks ----------

test('[#30.3] Copy on a code block or a message goes through the host and is announced to screen readers', async () => {
  chat = await bootChat();
  await chat.show([message('u1', 'user', 'q'), message('a1', 'assistant', 'Here:\n\n```ts\nconst a = 1;\n```\n')]);
  const copyCode = chat.messages.querySelector<HTMLButtonElement>('.code-block button[data-action="copyCode"]');
  assert.ok(copyCode, 'the code block has Copy');
  copyCode.click();
  assert.deepEqual(chat.postedOf('copy'), [{ type: 'copy', text: 'const a = 1;\n' }]);
  assert.equal(chat.announced(), 'Copied to clipboard.');
  chat.byId('live').textContent = '';
  chat.messages.querySelector<HTMLButtonElement>('article[data-message-id=u1] button[data-action="copyMessage"]')?.click();
  assert.deepEqual(chat.postedOf('copy').at(-1), { type: 'copy', text: 'q' });
  assert.equal(chat.announced(), 'Copied to clipboard.');
  // Insert and Apply send the code with its language.
  chat.messages.querySelector<HTMLButtonElement>('.code-block button[data-action="insertCode"]')?.click();
  assert.deepEqual(chat.postedOf('insertCode'), [{ type: 'insertCode', code: 'const a = 1;\n', language: 'ts' }]);
});

test('[#29.13][#30.3] a code block is a group named "Code block, <language>", its language label hidden, its code a tab stop', async () => {
  chat = await bootChat();
  await chat.show([message('u1', 'user', 'q'), message('a1', 'assistant', '```py\nprint(1)\n```\n\n```\nplain\n```\n')]);
  const blocks = [...chat.messages.querySelectorAll<HTMLElement>('.code-block')];
  assert.equal(blocks.length, 2);
  assert.equal(blocks[0].getAttribute('role'), 'group');
  assert.equal(blocks[0].getAttribute('aria-label'), 'Code block, Python');
  assert.equal(blocks[1].getAttribute('aria-label'), 'Code block');
  const lang = blocks[0].querySelector('.code-language');
  assert.equal(lang?.textContent, 'py');
  assert.equal(lang?.getAttribute('aria-hidden'), 'true');
  for (const b of blocks) assert.equal(b.querySelector<HTMLElement>('pre')?.tabIndex, 0, 'a wide block scrolls by keyboard');
});
