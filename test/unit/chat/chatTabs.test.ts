/**
 * Tabs and pickers you can tell apart (#29.7): a chat tab carries its conversation's title (agent
 * chats too) and follows it, and the model picker groups models by provider display name with
 * capability badges, context size, rates and deprecation dates.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChatController } from '../../../src/core/chat/chatController';
import { HistoryStore } from '../../../src/core/chat/historyStore';
import { newConversation } from '../../../src/core/chat/conversation';
import { tabTitle } from '../../../src/core/chat/messageViews';
import { chatModelOptions, contextSize, groupByProvider, modelOptionDescription, modelOptionDetail } from '../../../src/core/chat/modelOptions';
import { providerDisplayName } from '../../../src/core/catalog/providerNames';
import { Emitter } from '../../../src/core/disposables';
import type { IGatewayClient } from '../../../src/core/gateway/api';
import type { Model } from '../../../src/core/gateway/types';
import { quietEditorHost } from './controllerRig';

const NOW = Date.UTC(2026, 5, 1);
const MODELS = [
  { id: 'openai/gpt-4o', object: 'model', owned_by: 'x', provider: 'openai', display_name: 'GPT-4o', capabilities: ['chat', 'tools', 'vision'], context_window: 128_000, pricing: { input_per_million: '2.5', output_per_million: '10', pricing_version: 'v1', unit: 'credits' } },
  { id: 'anthropic/claude', object: 'model', owned_by: 'x', provider: 'anthropic', display_name: 'Claude 3.5 Sonnet', capabilities: ['chat', 'reasoning'], context_window: 200_000 },
  { id: 'openai/old', object: 'model', owned_by: 'x', provider: 'openai', display_name: 'Old One', capabilities: ['chat'], deprecation_date: '2026-01-01', removal_date: '2026-12-01' },
  { id: 'acme/x', object: 'model', owned_by: 'x', provider: 'acme', display_name: 'Acme X', capabilities: ['chat'] },
] as Model[];

test('[#29.7] a tab is titled after its conversation; a new one is "New Chat"; an agent chat names the agent; long titles are cut', () => {
  const c = newConversation('c1', 'm', 1);
  assert.equal(tabTitle(c), 'New Chat');
  assert.equal(tabTitle({ ...c, title: 'Fix the header  layout' }), 'Fix the header layout');
  assert.equal(tabTitle({ ...c, agentSession: { agentId: 'a1', sessionId: 's1', agentName: 'Support Bot' } }), 'Agent: Support Bot');
  assert.equal(tabTitle({ ...c, title: 'x'.repeat(80) }).length, 50);
});

test('[#29.7] the controller tells the editor the title each time it changes (send, rename, new chat), not on every state', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'chat-tabs-'));
  const titles: string[] = [];
  const client = {
    streamChatCompletion: async () =>
      Object.assign(
        (async function* () {
          yield { choices: [{ delta: { content: 'ok' } }] };
        })(),
        { requestId: 'r' },
      ),
  } as unknown as IGatewayClient;
  const c = new ChatController({
    getClient: async () => client,
    models: { chatModels: () => MODELS, getModel: (id) => MODELS.find((m) => m.id === id), onDidChange: new Emitter<unknown>().event },
    store: new HistoryStore(dir),
    prefs: { lastModelId: () => 'openai/gpt-4o', setLastModelId: () => undefined },
    host: quietEditorHost({ askTitle: async () => 'Renamed chat' }),
    post: () => undefined,
    log: { trace() {}, debug() {}, info() {}, warn() {}, error() {} },
    onTitle: (t) => void titles.push(t),
  });
  try {
    await c.handle({ type: 'ready' });
    await c.handle({ type: 'send', text: 'How do I center a div?' });
    await c.handle({ type: 'draft', text: 'more' });
    await c.rename(c.conversationInfo.id);
    await c.handle({ type: 'newConversation' });
    assert.deepEqual(titles, ['New Chat', 'How do I center a div?', 'Renamed chat', 'New Chat']);
  } finally {
    c.dispose();
    await rm(dir, { recursive: true, force: true });
  }
});

test('[#29.7] providers are shown by their names, not their ids; an unknown one is kept', () => {
  assert.equal(providerDisplayName('openai'), 'OpenAI');
  assert.equal(providerDisplayName('deepseek'), 'DeepSeek');
  assert.equal(providerDisplayName('acme'), 'Acme');
  assert.equal(providerDisplayName(''), 'Other');
});

test('[#29.7] the model picker groups by provider with capability badges, context size, rates and deprecation dates', () => {
  const options = chatModelOptions(MODELS, NOW);
  const groups = groupByProvider(options);
  assert.deepEqual(
    groups.map((g) => [g.provider, g.options.map((o) => o.id)]),
    [
      ['Acme', ['acme/x']],
      ['Anthropic', ['anthropic/claude']],
      ['OpenAI', ['openai/gpt-4o', 'openai/old']],
    ],
  );
  const gpt = options.find((o) => o.id === 'openai/gpt-4o')!;
  assert.equal(modelOptionDescription(gpt), 'tools · vision · 128K context');
  assert.equal(modelOptionDetail(gpt), 'Input 2.5 credits / 1M tokens · Output 10 credits / 1M tokens');
  assert.equal(modelOptionDescription(options.find((o) => o.id === 'anthropic/claude')!), 'reasoning · 200K context');
  const old = options.find((o) => o.id === 'openai/old')!;
  assert.match(modelOptionDetail(old) ?? '', /2026-01-01/);
  assert.match(modelOptionDetail(old) ?? '', /2026-12-01/);
  assert.equal(contextSize(1_000_000), '1M');
  assert.equal(contextSize(8192), '8K');
  assert.equal(contextSize(1500), '1,500');
});
