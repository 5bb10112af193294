/**
 * [#43.3] The reasoning-effort button on the chat page (happy-dom, with media/chat.css, 280 px wide as
 * in a narrow sidebar): beside the model picker in the toolbar's one tab stop, reached with the arrow
 * keys, opening the host's menu; hidden for a model that takes none; a warning, never a value, for a
 * catalog form not read; in a narrow sidebar it keeps its place and cuts a long value (the full one
 * is its label).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { bootChat, message, type ChatPage } from './chatPage';
import type { ModelOptionView } from '../../../src/protocol/chatProtocol';

let chat: ChatPage;
before(async () => {
  chat = await bootChat({ width: 280, stylesheets: ['media/chat.css'] });
});
after(() => chat.close());

const TAKES: ModelOptionView = { id: 'm/r', label: 'Reasoner', deprecated: false, reasoning: { values: ['low', 'medium', 'high', 'extraordinarily-high'] } };
const PLAIN: ModelOptionView = { id: 'm/a', label: 'Model A', deprecated: false };

async function showModel(model: ModelOptionView, effort?: string): Promise<void> {
  await chat.show([message('u1', 'user', 'q')], {
    models: [model],
    selectedModelId: model.id,
    conversation: { id: 'c1', title: 'Chat', modelId: model.id, systemPrompt: '', messages: [message('u1', 'user', 'q')], ...(effort ? { reasoningEffort: effort } : {}) },
  });
}

test('[#43.3] hidden for a model the catalog does not say takes a reasoning effort', async () => {
  await showModel(PLAIN);
  assert.equal(chat.byId('reasoning-effort').hidden, true);
});

test('[#43.3] beside the model picker: the value chosen (or "default"), its label says what it is', async () => {
  await showModel(TAKES);
  const btn = chat.byId('reasoning-effort');
  assert.equal(btn.hidden, false);
  assert.equal(btn.previousElementSibling?.id, 'model', 'right after the model button');
  assert.equal(btn.textContent, 'default');
  assert.equal(btn.getAttribute('aria-label'), 'Reasoning effort: model default. Change');
  await showModel(TAKES, 'high');
  assert.equal(btn.textContent, 'high');
  assert.equal(btn.getAttribute('aria-label'), 'Reasoning effort: high. Change');
  assert.equal(btn.getAttribute('aria-haspopup'), 'true');
});

test('[#43.3] keys: the arrow keys reach it from the model button inside the toolbar\'s one tab stop, and it opens the host\'s menu', async () => {
  await showModel(TAKES, 'medium');
  const model = chat.byId('model');
  const btn = chat.byId('reasoning-effort');
  model.focus();
  assert.equal(chat.key(model, 'ArrowRight'), true);
  assert.equal(chat.where(), chat.where(btn));
  assert.equal(btn.tabIndex, 0, 'the roving tab stop moved to it');
  assert.equal(model.tabIndex, -1);
  assert.equal(btn.tagName, 'BUTTON', 'a real button: Enter and Space press it');
  assert.equal(btn.getAttribute('type'), 'button');
  btn.click();
  assert.equal(chat.postedOf('pickReasoningEffort').length, 1);
  chat.key(btn, 'ArrowLeft');
  assert.equal(chat.where(), chat.where(model));
});

test('[#43.3] a catalog form this version does not read: a warning naming the parameter, no value shown', async () => {
  await showModel({ ...PLAIN, id: 'm/x', reasoning: { unknown: 'reasoning' } });
  const btn = chat.byId('reasoning-effort');
  assert.equal(btn.hidden, false, 'said, not hidden');
  assert.ok(btn.classList.contains('unknown'));
  assert.ok(btn.querySelector('.codicon-warning'));
  assert.match(btn.getAttribute('aria-label') ?? '', /not available.*\(reasoning\).*nothing is sent/);
  assert.equal(btn.textContent, 'effort');
  assert.equal(chat.declared(btn, 'color'), 'var(--vscode-editorWarning-foreground)', 'the theme\'s warning colour');
});

test('[#43.3] at 280 px it keeps its place (the model name gives way first) and cuts a long value, whose full text is its label', async () => {
  await showModel(TAKES, 'extraordinarily-high');
  const btn = chat.byId('reasoning-effort');
  assert.equal(chat.declared(btn, 'flex'), '0 0 auto');
  const value = btn.querySelector('.effort-value');
  assert.ok(value);
  assert.equal(chat.declared(value, 'text-overflow'), 'ellipsis');
  assert.equal(chat.declared(value, 'white-space'), 'nowrap');
  const max = chat.declared(value, 'max-width');
  assert.ok(/px$/.test(max) && parseFloat(max) <= 120, `the value is at most 120 px wide, not ${max}`);
  assert.equal(btn.getAttribute('aria-label'), 'Reasoning effort: extraordinarily-high. Change');
  assert.equal(chat.declared(chat.byId('model'), 'flex'), '0 1 auto', 'the model button shrinks instead');
});
