/**
 * The chat in a narrow sidebar (#29.13), on the page with its stylesheet (media/chat.css) at 280 px:
 * the status line (tokens, cost) wraps, the model name takes up to two lines instead of "Claude …",
 * a warning breaks anywhere, a wide code block scrolls sideways. (These replace assertions that matched
 * the stylesheet's text.)
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { bootChat, message, type ChatPage } from './chatPage';

let chat: ChatPage;
before(async () => {
  chat = await bootChat({ width: 280, stylesheets: ['media/chat.css'] });
  await chat.show([message('u1', 'user', 'q'), message('a1', 'assistant', '```ts\nconst aVeryLongName = 1;\n```\n')], {
    models: [{ id: 'm/a', label: 'Anthropic: Claude 3.7 Sonnet (thinking, extended output)', deprecated: true, warning: 'This model is deprecated; use m/b.' }],
  });
});
after(() => chat.close());

const one = (selector: string) => {
  const el = chat.document.querySelector(selector);
  assert.ok(el, selector);
  return el;
};

test('[#29.13] at 280 px the status line (tokens, cost) wraps, its parts break anywhere and are never cut with an ellipsis', () => {
  const status = one('.composer-status');
  assert.equal(chat.declared(status, 'flex-wrap'), 'wrap');
  assert.notEqual(chat.declared(status, 'white-space'), 'nowrap');
  for (const id of ['estimate', 'prompt-cost', 'total-cost']) {
    const part = chat.byId(id);
    assert.equal(part.parentElement, status, `${id} is in the status line`);
    assert.notEqual(chat.declared(part, 'text-overflow'), 'ellipsis', id);
    assert.equal(chat.declared(part, 'overflow-wrap'), 'anywhere', id);
  }
});

test('[#29.13] the model name takes up to two lines instead of being cut to one', () => {
  const name = one('#model .model-name');
  assert.match(name.textContent ?? '', /Claude 3\.7 Sonnet/);
  assert.notEqual(chat.declared(name, 'white-space'), 'nowrap');
  assert.equal(chat.declared(name, '-webkit-line-clamp'), '2');
  assert.equal(chat.declared(name, 'overflow-wrap'), 'anywhere');
});

test('[#29.13] a warning (a deprecated model) breaks anywhere rather than overflowing the sidebar', () => {
  const warning = chat.byId('model-warning');
  assert.equal(warning.hidden, false, 'the deprecated model\'s warning shows');
  assert.equal(chat.declared(warning, 'overflow-wrap'), 'anywhere');
});

test('[#30.3] a code block wider than the sidebar scrolls sideways (and its code is a tab stop)', () => {
  const pre = one('article[data-message-id=a1] .body pre');
  assert.equal(chat.declared(pre, 'overflow-x'), 'auto');
  assert.equal((pre as unknown as { tabIndex: number }).tabIndex, 0);
});
