import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChatController, type ChatEditorHost } from '../../../src/core/chat/chatController';
import { HistoryStore } from '../../../src/core/chat/historyStore';
import type { IGatewayClient } from '../../../src/core/gateway/api';
import type { Model } from '../../../src/core/gateway/types';
import { Emitter } from '../../../src/core/disposables';
import type { HostToWebview } from '../../../src/protocol/chatProtocol';

const chatModel: Model = { id: 'openai/gpt-5-mini', object: 'model', owned_by: 'OpenAI', provider: 'openai', display_name: 'GPT-5 mini', capabilities: ['chat'] };

test('a new conversation created before the catalog arrived takes the default model when it does', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'chat-arrival-'));
  try {
    let models: Model[] = [];
    const changed = new Emitter<unknown>();
    const posted: HostToWebview[] = [];
    const host = new Proxy({} as ChatEditorHost, { get: () => async () => undefined });
    const controller = new ChatController({
      getClient: async () => ({}) as IGatewayClient,
      models: { chatModels: () => models, getModel: (id) => models.find((m) => m.id === id), onDidChange: changed.event },
      store: new HistoryStore(dir),
      prefs: { lastModelId: () => undefined, setLastModelId: () => undefined },
      host,
      post: (m) => void posted.push(m),
      log: { trace() {}, debug() {}, info() {}, warn() {}, error() {} },
    });
    await controller.handle({ type: 'ready' });
    const stateModel = (): string | undefined => {
      const states = posted.filter((m): m is Extract<HostToWebview, { type: 'state' }> => m.type === 'state');
      return states[states.length - 1]?.state.selectedModelId;
    };
    assert.ok(!stateModel(), 'no model while the catalog is empty');
    models = [chatModel];
    changed.fire(undefined);
    // postState is asynchronous (it lists history): wait for the next state, not for a time.
    for (let i = 0; i < 200 && stateModel() !== chatModel.id; i++) await new Promise((r) => setTimeout(r, 10));
    assert.equal(stateModel(), chatModel.id);
    controller.dispose();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
