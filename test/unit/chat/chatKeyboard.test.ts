/**
 * The chat by keyboard (#30.3), the parts that need no page: one key, one action in the message box, and
 * the keyboard back after a picker. On the page (a DOM): test/unit/webview/chatMessages.test.ts (copy
 * announced, code blocks a tab stop), chatHelpKeys.test.ts; the journey is test/e2e/a11yKeyboard.e2e.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChatController } from '../../../src/core/chat/chatController';
import { HistoryStore } from '../../../src/core/chat/historyStore';
import { Emitter } from '../../../src/core/disposables';
import type { IGatewayClient } from '../../../src/core/gateway/api';
import type { Model } from '../../../src/core/gateway/types';
import { quietEditorHost } from './controllerRig';
import { isEditLastKey, isGoToMessagesKey, type KeyLike } from '../../../src/webview/chat/composerKeys';

const key = (k: string, mods: Partial<KeyLike> = {}): KeyLike => ({ key: k, ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, ...mods });

test('[#30.3] Ctrl+Up (Cmd+Up) in the message box goes to the messages and does not also start editing the last message', () => {
  for (const mods of [{ ctrlKey: true }, { metaKey: true }]) {
    assert.equal(isGoToMessagesKey(key('ArrowUp', mods)), true);
    assert.equal(isEditLastKey(key('ArrowUp', mods)), false, JSON.stringify(mods));
  }
  // Up alone edits; it does not move to the messages.
  assert.equal(isEditLastKey(key('ArrowUp')), true);
  assert.equal(isGoToMessagesKey(key('ArrowUp')), false);
  // Other modifiers do neither.
  for (const mods of [{ altKey: true }, { shiftKey: true }, { ctrlKey: true, shiftKey: true }]) {
    assert.equal(isEditLastKey(key('ArrowUp', mods)), false);
    assert.equal(isGoToMessagesKey(key('ArrowUp', mods)), false);
  }
  assert.equal(isEditLastKey(key('ArrowDown')), false);
  // The page's use of them is tested on the page: test/unit/webview/chatComposer.test.ts, chatMessages.test.ts.
});

test('[#30.3] after the model picker or the attach menu closes (picked or dismissed), the chat takes the keyboard back', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'chat-keyboard-'));
  try {
    const MODELS = [{ id: 'm/a', name: 'A', display_name: 'A', capabilities: ['chat'], pricing: {} }, { id: 'm/b', name: 'B', display_name: 'B', capabilities: ['chat'], pricing: {} }] as unknown as Model[];
    let focused = 0;
    let answer: string | undefined = 'm/b';
    const c = new ChatController({
      getClient: async () => ({}) as unknown as IGatewayClient,
      models: { chatModels: () => MODELS, getModel: (id) => MODELS.find((m) => m.id === id), onDidChange: new Emitter<unknown>().event },
      store: new HistoryStore(dir),
      prefs: { lastModelId: () => 'm/a', setLastModelId: () => undefined },
      host: quietEditorHost({ pickModel: async () => answer, pickAttachKind: async () => undefined }),
      post: () => undefined,
      log: { trace() {}, debug() {}, info() {}, warn() {}, error() {} },
      takeFocus: () => void focused++,
    });
    await c.handle({ type: 'ready' });
    await c.handle({ type: 'pickModel' });
    assert.equal(focused, 1, 'picked');
    answer = undefined;
    await c.handle({ type: 'pickModel' });
    assert.equal(focused, 2, 'dismissed');
    await c.handle({ type: 'attachMenu' });
    assert.equal(focused, 3, 'attach menu dismissed');
    c.dispose();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
