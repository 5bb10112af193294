/**
 * [#43.3] Reasoning effort, core: how the catalog's entry is read (the assumed shape, and every other
 * shape failing closed), what is sent on each route (`reasoning_effort` on chat completions, `thinking`
 * on the messages route; nothing when the entry does not list the value), and the same against the
 * local gateway with the real client: the effort seen at the gateway and its reasoning tokens priced,
 * and, with the gateway describing the capability in another shape, nothing sent.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startGateway, type RunningGateway } from '../../localGateway/server';
import { LOCAL_KEYS } from '../../localGateway/keys';
import { modesOf } from '../../localGateway/modes';
import { createGatewayClient, type GatewayClient } from '../../../src/core/gateway/gatewayClient';
import { effortToSend, readReasoningEffort, reasoningCostNote } from '../../../src/core/gateway/reasoningEffort';
import { toMessagesRequest } from '../../../src/core/gateway/messagesWire';
import { chatRequestBody } from '../../../src/core/chat/requestBody';
import { newConversation, type Conversation } from '../../../src/core/chat/conversation';
import { costOfUsage, formatCredits } from '../../../src/core/pricing';
import type { ChatCompletionChunk, Model, Usage } from '../../../src/core/gateway/types';

const entry = (parameters: unknown): Pick<Model, 'parameters'> => ({ parameters: parameters as Model['parameters'] });

function model(id: string, parameters: unknown, extra: Partial<Model> = {}): Model {
  return { id, object: 'model', owned_by: 'x', provider: 'openai', display_name: id, capabilities: ['chat', 'reasoning'], parameters: parameters as Model['parameters'], ...extra };
}

function conv(modelId: string, effort?: string): Conversation {
  const c = newConversation('c1', modelId, 0);
  c.messages.push({ id: 'u1', role: 'user', content: 'think hard', status: 'complete', createdAt: 0 });
  if (effort !== undefined) c.reasoningEffort = effort;
  return c;
}

describe('[#43.3] the catalog entry, read in one place', () => {
  test('[#43.3] the assumed shape parameters.reasoning_effort.values gives the values, in order, and the default when named', () => {
    assert.deepEqual(readReasoningEffort(entry({ reasoning_effort: { values: ['low', 'medium', 'high'] } })), { kind: 'effort', values: ['low', 'medium', 'high'] });
    assert.deepEqual(readReasoningEffort(entry({ reasoning_effort: { values: ['minimal', 'high'], default: 'high' } })), { kind: 'effort', values: ['minimal', 'high'], defaultValue: 'high' });
  });

  test('[#43.3] no entry, or the reasoning capability alone, means the model takes none', () => {
    assert.deepEqual(readReasoningEffort(undefined), { kind: 'none' });
    assert.deepEqual(readReasoningEffort(entry(undefined)), { kind: 'none' });
    assert.deepEqual(readReasoningEffort(model('a/b', { temperature: { max: 1 } })), { kind: 'none' }, 'capability reasoning, no parameter');
  });

  test('[#43.3] every other plausible shape fails closed as unknown, naming the parameter; no value is read from it', () => {
    const cases: Array<[unknown, string]> = [
      [{ reasoning: { effort: { values: ['low', 'high'] } } }, 'reasoning'],
      [{ reasoning_effort: ['low', 'medium', 'high'] }, 'reasoning_effort'],
      [{ thinking: { budget_tokens: { min: 1024, max: 32000 } } }, 'thinking'],
      [{ reasoning_effort: { supported: true } }, 'reasoning_effort'],
      [{ reasoning_effort: { values: ['low', 'high'], budget_tokens: { low: 1024 } } }, 'reasoning_effort'],
      [{ reasoning_effort: { values: [] } }, 'reasoning_effort'],
      [{ reasoning_effort: { values: ['low', 3] } }, 'reasoning_effort'],
      [{ reasoning_effort: { values: ['Low <b>'] } }, 'reasoning_effort'],
      [{ reasoning_effort: { values: ['low', 'low'] } }, 'reasoning_effort'],
      [{ reasoning_effort: { values: ['low'], default: 'high' } }, 'reasoning_effort'],
      [{ reasoning_effort: { values: Array.from({ length: 9 }, (_, i) => `v${i}`) } }, 'reasoning_effort'],
      [{ max_thinking_tokens: 4096 }, 'max_thinking_tokens'],
    ];
    for (const [parameters, parameter] of cases) {
      assert.deepEqual(readReasoningEffort(entry(parameters)), { kind: 'unknown', parameter }, JSON.stringify(parameters));
      assert.equal(effortToSend(entry(parameters), 'low'), undefined, `nothing is sent for ${JSON.stringify(parameters)}`);
    }
  });
});

describe('[#43.3] what a request carries', () => {
  const takes = model('openai/r', { reasoning_effort: { values: ['low', 'medium', 'high'] } });

  test('[#43.3] chat completions: reasoning_effort with a listed value', () => {
    assert.equal(chatRequestBody(conv('openai/r', 'high'), { imageInput: false, model: takes }).reasoning_effort, 'high');
  });

  test('[#43.3] chat completions: nothing when no effort is chosen, the value is not listed, the model lists none, or its shape is unknown', () => {
    const bodies = [
      chatRequestBody(conv('openai/r'), { imageInput: false, model: takes }),
      chatRequestBody(conv('openai/r', 'extreme'), { imageInput: false, model: takes }),
      chatRequestBody(conv('openai/r', 'high'), { imageInput: false, model: model('openai/r', { temperature: { max: 1 } }) }),
      chatRequestBody(conv('openai/r', 'high'), { imageInput: false, model: model('openai/r', { reasoning: { effort: { values: ['high'] } } }) }),
      chatRequestBody(conv('openai/r', 'high'), { imageInput: false, model: undefined }),
    ];
    for (const [i, b] of bodies.entries()) assert.equal('reasoning_effort' in b, false, `case ${i}: ${JSON.stringify(b)}`);
  });

  test('[#43.3] the messages route: thinking {type: enabled, effort}, and no reasoning_effort field', () => {
    const chat = chatRequestBody(conv('anthropic/r', 'medium'), { imageInput: false, model: takes });
    const m = toMessagesRequest(chat, 4096, true) as unknown as Record<string, unknown>;
    assert.deepEqual(m.thinking, { type: 'enabled', effort: 'medium' });
    assert.equal('reasoning_effort' in m, false);
    const none = toMessagesRequest(chatRequestBody(conv('anthropic/r'), { imageInput: false, model: takes }), 4096, true) as unknown as Record<string, unknown>;
    assert.equal('thinking' in none, false);
  });

  test('[#43.3] the cost note names the rate reasoning tokens are billed at: the output rate, or the reasoning rate when the catalog has one', () => {
    assert.equal(reasoningCostNote({ output_per_million: '10.00', pricing_version: 'v', unit: 'credits' }), 'reasoning tokens not included: billed as output at 10.00 credits / 1M tokens');
    assert.equal(reasoningCostNote({ output_per_million: '10', reasoning_per_million: '12.5', pricing_version: 'v', unit: 'credits' }), 'reasoning tokens not included: billed at 12.5 credits / 1M tokens');
    assert.equal(reasoningCostNote({ pricing_version: 'v', unit: 'credits' }), 'reasoning tokens not included and not priced: no output rate');
  });
});

describe('[#43.3] against the local gateway', () => {
  let gw: RunningGateway;
  let client: GatewayClient;
  before(async () => {
    gw = await startGateway({ chunkSize: 64 });
    client = createGatewayClient({ baseUrl: gw.url, getKey: async () => LOCAL_KEYS.userFull, retry: { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 2 } });
  });
  after(async () => {
    await client.dispose();
    await gw.close();
  });

  async function catalog(): Promise<Model[]> {
    return (await client.listModels()).data.data;
  }

  async function usageOf(stream: AsyncIterable<ChatCompletionChunk>): Promise<Usage | undefined> {
    let usage: Usage | undefined;
    for await (const c of stream) if (c.usage) usage = c.usage;
    return usage;
  }

  test('[#43.3] chat completions: the effort is seen at the gateway and its reasoning tokens are priced at the output rate', async () => {
    gw.reset();
    const m = (await catalog()).find((x) => x.id === 'openai/gpt-5.1');
    assert.ok(m);
    assert.deepEqual(readReasoningEffort(m), { kind: 'effort', values: ['low', 'medium', 'high'] });
    const stream = await client.streamChatCompletion(chatRequestBody(conv(m.id, 'high'), { imageInput: false, model: m }), { route: { kind: 'chat' } });
    const usage = await usageOf(stream);
    assert.equal(gw.events.list('chat-request').at(-1)?.reasoningEffort, 'high');
    assert.equal(usage?.completion_tokens_details?.reasoning_tokens, 1024, 'the local gateway bills 1,024 reasoning tokens at high');
    const cost = costOfUsage(usage!, m.pricing!);
    const reasoning = cost.lines.find((l) => l.kind === 'reasoning');
    // 1,024 tokens at 10.00 credits / 1M = 0.01024 credits, billed at the output rate (no reasoning rate).
    assert.equal(reasoning?.rateField, 'output_per_million');
    assert.equal(reasoning?.nano, 10_240_000n);
  });

  test('[#43.3] the messages route: thinking is seen at the gateway with the effort, and its reasoning tokens are in the usage', async () => {
    gw.reset();
    const m = (await catalog()).find((x) => x.id === 'anthropic/claude-opus-4.1');
    assert.ok(m);
    const stream = await client.streamChatCompletion(chatRequestBody(conv(m.id, 'low'), { imageInput: false, model: m }), { route: { kind: 'messages', maxTokens: 4096 } });
    const usage = await usageOf(stream);
    assert.deepEqual(gw.events.list('messages-request').at(-1)?.thinking, { type: 'enabled', effort: 'low' });
    assert.equal(usage?.completion_tokens_details?.reasoning_tokens, 64);
    const reasoning = costOfUsage(usage!, m.pricing!).lines.find((l) => l.kind === 'reasoning');
    assert.equal(formatCredits(reasoning!.nano), formatCredits(64n * 75n * 1000n), '64 tokens at 75 credits / 1M');
  });

  test('[#43.3] a model the catalog does not say takes an effort: nothing is sent (and the gateway would refuse one)', async () => {
    gw.reset();
    const m = (await catalog()).find((x) => x.id === 'openai/gpt-4.1');
    assert.ok(m);
    await usageOf(await client.streamChatCompletion(chatRequestBody(conv(m.id, 'high'), { imageInput: false, model: m }), { route: { kind: 'chat' } }));
    assert.equal('reasoningEffort' in (gw.events.list('chat-request').at(-1) ?? {}), false);
  });

  test('[#43.3] the local gateway refuses an effort the model does not list, and thinking in another form', async () => {
    const post = (path: string, body: unknown) =>
      fetch(`${gw.url}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${LOCAL_KEYS.userFull}` }, body: JSON.stringify(body) });
    const say = [{ role: 'user', content: 'hi' }];
    assert.equal((await post('/v1/chat/completions', { model: 'openai/gpt-4.1', messages: say, reasoning_effort: 'high' })).status, 400, 'a model that lists none');
    assert.equal((await post('/v1/chat/completions', { model: 'openai/gpt-5.1', messages: say, reasoning_effort: 'extreme' })).status, 400, 'a value not listed');
    assert.equal((await post('/v1/chat/completions', { model: 'openai/gpt-5.1', messages: say, reasoning_effort: 'low' })).status, 200);
    assert.equal((await post('/v1/messages', { model: 'anthropic/claude-opus-4.1', max_tokens: 100, messages: say, thinking: { type: 'enabled', budget_tokens: 2048 } })).status, 400, 'thinking by budget');
    assert.equal((await post('/v1/messages', { model: 'anthropic/claude-opus-4.1', max_tokens: 100, messages: say, thinking: { type: 'enabled', effort: 'high' } })).status, 200);
  });

  for (const mode of ['nested', 'bare', 'thinking_budget'] as const) {
    test(`[#43.3] the gateway describing the capability as '${mode}': the client reads it as unknown and sends nothing`, async () => {
      gw.reset();
      modesOf(gw.events).reasoningEffort = mode;
      try {
        const m = (await catalog()).find((x) => x.id === 'openai/gpt-5.1');
        assert.ok(m);
        assert.equal(readReasoningEffort(m).kind, 'unknown');
        await usageOf(await client.streamChatCompletion(chatRequestBody(conv(m.id, 'high'), { imageInput: false, model: m }), { route: { kind: 'chat' } }));
        const seen = gw.events.list('chat-request').at(-1);
        assert.equal(seen?.model, 'openai/gpt-5.1');
        assert.equal('reasoningEffort' in (seen ?? {}), false);
      } finally {
        modesOf(gw.events).reasoningEffort = 'assumed';
      }
    });
  }
});
