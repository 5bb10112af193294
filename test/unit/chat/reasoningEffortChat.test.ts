/**
 * [#43.3] Reasoning effort in the chat engine (the controller against the local gateway): the effort
 * button's menu offers the model's values, the choice is kept with the conversation, sent with the next
 * message (seen at the gateway), and the cost before sending says the reasoning tokens are extra and at
 * what rate. A model that takes none, or that the catalog describes in an unknown form, gets a notice
 * and nothing is sent.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ChatController } from '../../../src/core/chat/chatController';
import { HistoryStore } from '../../../src/core/chat/historyStore';
import { Emitter } from '../../../src/core/disposables';
import { createGatewayClient } from '../../../src/core/gateway/gatewayClient';
import type { Model } from '../../../src/core/gateway/types';
import { PromptCostEstimator } from '../../../src/core/spend/promptCost';
import type { ChatStateView, HostToWebview } from '../../../src/protocol/chatProtocol';
import { LOCAL_KEYS } from '../../localGateway/keys';
import { quietEditorHost, useControllerRig } from './controllerRig';

const rig = useControllerRig('chat-reasoning-');

type Choice = Parameters<NonNullable<import('../../../src/core/chat/chatDeps').ChatEditorHost['pickReasoningEffort']>>[0];

function harness(modelId: string, answer: { value: string | null } | undefined, models: () => Model[] = () => rig.models) {
  const posted: HostToWebview[] = [];
  const offered: Choice[] = [];
  const estimator = new PromptCostEstimator({
    count: async (_m, text) => ({ tokens: Math.ceil(text.length / 4), source: 'gateway' }),
    model: (id) => models().find((m) => m.id === id),
    delayMs: 0,
  });
  const client = createGatewayClient({ baseUrl: rig.gw.url, getKey: async () => LOCAL_KEYS.userFull, userAgent: 'test' });
  const controller = new ChatController({
    getClient: async () => client,
    models: {
      chatModels: () => models().filter((m) => m.capabilities?.includes('chat')),
      getModel: (id) => models().find((m) => m.id === id),
      onDidChange: new Emitter<unknown>().event,
    },
    store: new HistoryStore(rig.dir),
    prefs: { lastModelId: () => modelId, setLastModelId: () => undefined },
    host: quietEditorHost({
      pickReasoningEffort: async (choice) => {
        offered.push(choice);
        return answer;
      },
    }),
    post: (m) => void posted.push(m),
    log: { trace() {}, debug() {}, info() {}, warn() {}, error() {} },
    promptCost: { request: (m, t, e) => estimator.request(m, t, e), cancel: () => estimator.cancel() },
  });
  const lastState = (): ChatStateView => (posted.filter((m) => m.type === 'state').at(-1) as Extract<HostToWebview, { type: 'state' }>).state;
  const notices = () => posted.filter((m): m is Extract<HostToWebview, { type: 'notice' }> => m.type === 'notice').map((m) => m.text);
  const costLine = () => (posted.filter((m) => m.type === 'promptCost').at(-1) as Extract<HostToWebview, { type: 'promptCost' }> | undefined)?.text ?? '';
  return { controller, posted, offered, lastState, notices, costLine };
}

test('[#43.3] the menu offers the model\'s values; the choice shows in the state, is priced before sending, and is seen at the gateway', async () => {
  const h = harness('openai/gpt-5.1', { value: 'high' });
  try {
    await h.controller.handle({ type: 'ready' });
    const option = h.lastState().models.find((m) => m.id === 'openai/gpt-5.1');
    assert.deepEqual(option?.reasoning, { values: ['low', 'medium', 'high'] });
    await h.controller.handle({ type: 'pickReasoningEffort' });
    assert.deepEqual(h.offered[0]?.values, ['low', 'medium', 'high']);
    assert.equal(h.offered[0]?.current, undefined);
    assert.match(h.offered[0]?.costNote ?? '', /billed as output at 10(\.00)? credits \/ 1M tokens/);
    assert.equal(h.lastState().conversation.reasoningEffort, 'high');
    await h.controller.handle({ type: 'draft', text: 'How many primes below 100?' });
    assert.match(h.costLine(), /^Prompt .*· reasoning tokens not included: billed as output at 10(\.00)? credits \/ 1M tokens$/);
    await h.controller.handle({ type: 'send', text: 'How many primes below 100?' });
    assert.equal(rig.gw.events.list('chat-request').at(-1)?.reasoningEffort, 'high');
  } finally {
    h.controller.dispose();
  }
});

test('[#43.3] Model default (null) removes the choice: nothing is sent and the cost line says nothing of reasoning', async () => {
  const h = harness('openai/gpt-5.1', { value: null });
  try {
    await h.controller.handle({ type: 'ready' });
    await h.controller.handle({ type: 'pickReasoningEffort' });
    assert.equal(h.lastState().conversation.reasoningEffort, undefined);
    await h.controller.handle({ type: 'draft', text: 'hello' });
    assert.doesNotMatch(h.costLine(), /reasoning/);
    await h.controller.handle({ type: 'send', text: 'hello' });
    assert.equal('reasoningEffort' in (rig.gw.events.list('chat-request').at(-1) ?? {}), false);
  } finally {
    h.controller.dispose();
  }
});

test('[#43.3] a model that takes no effort: no control in the state, a notice on the button, no menu', async () => {
  const h = harness('openai/gpt-4.1', { value: 'high' });
  try {
    await h.controller.handle({ type: 'ready' });
    assert.equal(h.lastState().models.find((m) => m.id === 'openai/gpt-4.1')?.reasoning, undefined);
    await h.controller.handle({ type: 'pickReasoningEffort' });
    assert.equal(h.offered.length, 0);
    assert.match(h.notices().at(-1) ?? '', /does not take a reasoning effort/);
  } finally {
    h.controller.dispose();
  }
});

test('[#43.3] a catalog entry in a form this version does not read: the state says unknown, the button says so, nothing is offered or sent', async () => {
  const odd = () => rig.models.map((m) => (m.id === 'openai/gpt-5.1' ? { ...m, parameters: { reasoning: { effort: { values: ['low', 'high'] } } } as Model['parameters'] } : m));
  const h = harness('openai/gpt-5.1', { value: 'high' }, odd);
  try {
    await h.controller.handle({ type: 'ready' });
    assert.deepEqual(h.lastState().models.find((m) => m.id === 'openai/gpt-5.1')?.reasoning, { unknown: 'reasoning' });
    await h.controller.handle({ type: 'pickReasoningEffort' });
    assert.equal(h.offered.length, 0, 'no value is offered from a form not read');
    assert.match(h.notices().at(-1) ?? '', /openai\/gpt-5\.1 \(reasoning\) in a form this version does not read/);
    await h.controller.handle({ type: 'send', text: 'hello' });
    assert.equal('reasoningEffort' in (rig.gw.events.list('chat-request').at(-1) ?? {}), false);
  } finally {
    h.controller.dispose();
  }
});
