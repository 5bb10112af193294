import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Model } from '../../../src/core/gateway/types';
import { LmMappingError, toWireMessages } from '../../../src/core/lm/messages';
import { DEFAULT_MAX_INPUT_TOKENS, DEFAULT_MAX_OUTPUT_TOKENS, lmModelInfos } from '../../../src/core/lm/modelInfo';
import { estimateTokens, FAILURE_PAUSE_MS, REMOTE_MIN_CHARS, TokenCounter } from '../../../src/core/lm/tokenCount';

describe('language model provider: message mapping', () => {
  test('text, tool calls, tool results and images map onto chat-completions messages', () => {
    const wire = toWireMessages(
      [
        { role: 'system', parts: [{ kind: 'text', text: 'Be brief.' }] },
        { role: 'user', parts: [{ kind: 'text', text: 'Weather in ' }, { kind: 'text', text: 'Oslo?' }] },
        { role: 'assistant', parts: [{ kind: 'text', text: 'Checking.' }, { kind: 'toolCall', callId: 'c1', name: 'get_weather', input: { city: 'Oslo' } }] },
        { role: 'user', parts: [{ kind: 'toolResult', callId: 'c1', text: 'sunny' }, { kind: 'text', text: 'And this?' }, { kind: 'image', mimeType: 'image/png', data: new Uint8Array([1, 2, 3]) }] },
      ],
      { imageInput: true },
    );
    assert.deepEqual(wire, [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Weather in Oslo?' },
      { role: 'assistant', content: 'Checking.', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: 'sunny' },
      { role: 'user', content: [{ type: 'text', text: 'And this?' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,AQID' } }] },
    ]);
  });

  test('an assistant message with only tool calls has null content; a user message with only results adds no empty user message', () => {
    const wire = toWireMessages(
      [
        { role: 'assistant', parts: [{ kind: 'toolCall', callId: 'a', name: 't', input: {} }] },
        { role: 'user', parts: [{ kind: 'toolResult', callId: 'a', text: 'ok' }] },
      ],
      { imageInput: false },
    );
    assert.deepEqual(wire, [
      { role: 'assistant', content: null, tool_calls: [{ id: 'a', type: 'function', function: { name: 't', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'a', content: 'ok' },
    ]);
  });

  test('an image for a model without vision, or of another type, is refused', () => {
    const img = (mimeType: string) => [{ role: 'user' as const, parts: [{ kind: 'image' as const, mimeType, data: new Uint8Array([1]) }] }];
    assert.throws(() => toWireMessages(img('image/png'), { imageInput: false }), LmMappingError);
    assert.throws(() => toWireMessages(img('image/svg+xml'), { imageInput: true }), /cannot be sent/);
  });
});

function model(partial: Partial<Model> & { id: string }): Model {
  return { object: 'model', owned_by: 'x', provider: 'openai', display_name: partial.id, ...partial };
}

describe('language model provider: models offered', () => {
  const now = new Date('2026-03-10T12:00:00Z');
  const catalog: Model[] = [
    model({
      id: 'openai/big',
      display_name: 'Big',
      capabilities: ['chat', 'tools', 'vision'],
      context_window: 128000,
      max_output_tokens: 16384,
      pricing: { input_per_million: '0.150', output_per_million: '0.600', cache_read_per_million: '0.075', pricing_version: '2026-01', unit: 'credits' },
    }),
    model({ id: 'openai/small', capabilities: ['chat'] }),
    model({ id: 'openai/gone', capabilities: ['chat'], removal_date: '2026-03-01' }),
    model({ id: 'openai/old', capabilities: ['chat'], deprecation_date: '2026-03-01', removal_date: '2026-03-13', description: 'Use openai/big instead.' }),
    model({ id: 'openai/image', capabilities: ['image_generation'] }),
  ];
  const infos = lmModelInfos(catalog, now);

  test('[G-CAT-11] chat models only, removed ones absent', () => {
    assert.deepEqual(
      infos.map((i) => i.id),
      ['openai/big', 'openai/small', 'openai/old'],
    );
  });

  test('[#41.11] Manage Language Models (input + output, as VS Code adds them) shows the context window the catalog states', () => {
    const haiku = lmModelInfos([model({ id: 'anthropic/claude-haiku-4.5', display_name: 'Claude Haiku 4.5', capabilities: ['chat'], context_window: 200000, max_output_tokens: 64000 })], now)[0];
    assert.deepEqual([haiku.maxInputTokens, haiku.maxOutputTokens], [136000, 64000]);
    assert.equal(haiku.maxInputTokens + haiku.maxOutputTokens, 200000, 'not 264K');
    const noOutputLimit = lmModelInfos([model({ id: 'x/y', capabilities: ['chat'], context_window: 32000 })], now)[0];
    assert.deepEqual([noOutputLimit.maxInputTokens, noOutputLimit.maxOutputTokens], [32000 - DEFAULT_MAX_OUTPUT_TOKENS, DEFAULT_MAX_OUTPUT_TOKENS]);
  });

  test('limits, capabilities and exact rates in the fields VS Code reads', () => {
    const big = infos[0];
    // [#41.11] context window 128,000 with up to 16,384 out: VS Code shows their sum, so input is the rest.
    assert.equal(big?.maxInputTokens, 111616);
    assert.equal(big?.maxOutputTokens, 16384);
    assert.deepEqual(big?.capabilities, { toolCalling: true, imageInput: true });
    assert.equal(big?.inputCost, '0.150');
    assert.equal(big?.outputCost, '0.600');
    assert.equal(big?.cacheCost, '0.075');
    assert.equal(big?.cacheWriteCost, undefined);
    assert.match(big?.tooltip ?? '', /Input: 0\.150 credits \/ 1M tokens/);
    const small = infos[1];
    assert.equal(small?.maxInputTokens, DEFAULT_MAX_INPUT_TOKENS);
    assert.equal(small?.maxOutputTokens, DEFAULT_MAX_OUTPUT_TOKENS);
    assert.deepEqual(small?.capabilities, { toolCalling: false, imageInput: false });
    assert.equal(small?.inputCost, undefined);
  });

  test('[G-CAT-10] a deprecated model says when it goes and what to use', () => {
    assert.equal(infos[2]?.detail, 'removed in 3 days; use openai/big');
  });
});

describe('language model provider: token counting', () => {
  const long = 'x'.repeat(REMOTE_MIN_CHARS + 40);

  function counter(answer: (body: unknown) => unknown, clock = { t: 0 }) {
    const bodies: unknown[] = [];
    const c = new TokenCounter({
      post: async (body) => {
        bodies.push(body);
        const a = answer(body);
        if (a instanceof Error) throw a;
        return a;
      },
      isUnsupported: (e) => e instanceof Error && e.message === '404',
      now: () => clock.t,
    });
    return { c, bodies };
  }

  test('the local estimate is a quarter of the code points, rounded up', () => {
    assert.equal(estimateTokens(''), 0);
    assert.equal(estimateTokens('abcde'), 2);
    assert.equal(estimateTokens('🙂🙂🙂🙂'), 1);
  });

  test('short texts never go to the network; a long one is asked once and then cached', async () => {
    const { c, bodies } = counter(() => ({ input_tokens: 77 }));
    assert.equal(await c.count('m', 'hello'), 2);
    assert.equal(bodies.length, 0);
    assert.equal(await c.count('m', long), 77);
    assert.equal(await c.count('m', long), 77);
    assert.deepEqual(await Promise.all([c.count('m', long), c.count('m', long)]), [77, 77]);
    assert.equal(bodies.length, 1);
    assert.deepEqual(bodies[0], { model: 'm', messages: [{ role: 'user', content: long }] });
    assert.equal(await c.count('other', long), 77);
    assert.equal(bodies.length, 2, 'the cache is per model');
  });

  test('concurrent counts of one text share a request', async () => {
    const { c, bodies } = counter(() => ({ input_tokens: 5 }));
    assert.deepEqual(await Promise.all([c.count('m', long), c.count('m', long), c.count('m', long)]), [5, 5, 5]);
    assert.equal(bodies.length, 1);
  });

  test('a gateway without the endpoint is asked once, then the estimate is used until reset', async () => {
    const { c, bodies } = counter(() => new Error('404'));
    assert.equal(await c.count('m', long), estimateTokens(long));
    assert.equal(await c.count('m', long + 'y'), estimateTokens(long + 'y'));
    assert.equal(bodies.length, 1);
    c.reset();
    await c.count('m', long);
    assert.equal(bodies.length, 2);
  });

  test('another failure pauses remote counting for a while', async () => {
    const clock = { t: 1000 };
    const { c, bodies } = counter(() => new Error('boom'), clock);
    await c.count('m', long);
    await c.count('m', long + 'a');
    assert.equal(bodies.length, 1);
    clock.t += FAILURE_PAUSE_MS;
    await c.count('m', long + 'b');
    assert.equal(bodies.length, 2);
  });
});
