/**
 * Issue 39, items 4 and 5: what is read from each route's usage into the one internal usage type, the
 * cost's tooltip, and odd usage (overflowing, negative) failing closed: flagged, charged at a
 * conservative estimate, never priced as 0. Against the local gateway where the wire matters; the
 * expected costs are worked out by hand here.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startGateway, type RunningGateway } from '../../localGateway/server';
import { LOCAL_KEYS } from '../../localGateway/keys';
import { createGatewayClient, type GatewayClient } from '../../../src/core/gateway/gatewayClient';
import { readChatUsage } from '../../../src/core/gateway/usage';
import { usageFromMessages } from '../../../src/core/gateway/messagesWire';
import { costOfUsage, PricingError, usageCostNano } from '../../../src/core/pricing';
import { chargeOf, costBasisText } from '../../../src/core/spend/charge';
import { spendEntry } from '../../../src/core/spend/ledger';
import { isGatewayError } from '../../../src/core/http/errors';
import { describeError } from '../../../src/core/errorText';
import type { ChatCompletionChunk, ChatCompletionRequest, ModelPricing, Usage } from '../../../src/core/gateway/types';

const PRICING: ModelPricing = { input_per_million: '3', output_per_million: '15', cache_read_per_million: '0.30', cache_write_per_million: '3.75', pricing_version: 'pv-39', unit: 'credits' };

let gw: RunningGateway;
let client: GatewayClient;

before(async () => {
  gw = await startGateway({ chunkSize: 40 });
  client = createGatewayClient({ baseUrl: gw.url, getKey: async () => LOCAL_KEYS.userFull, retry: { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 1 } });
});

after(async () => {
  await client.dispose();
  await gw.close();
});

async function collect(stream: AsyncIterable<ChatCompletionChunk>): Promise<{ text: string; usage?: Usage }> {
  let text = '';
  let usage: Usage | undefined;
  for await (const c of stream) {
    text += c.choices[0]?.delta?.content ?? '';
    if (c.usage) usage = c.usage;
  }
  return { text, usage };
}

/** The raw SSE text of a chat-completions stream, straight off the wire. */
async function rawStream(body: ChatCompletionRequest): Promise<string> {
  const res = await fetch(`${gw.url}/v1/chat/completions`, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${LOCAL_KEYS.userFull}` }, body: JSON.stringify({ ...body, stream: true }) });
  return res.text();
}

describe('[#39.4] one internal usage type, read from each wire in one place', () => {
  test('[#39.4] chat completions: the documented fields and OpenAI\'s cached_tokens are read; the invented prompt_tokens_details.cache_write_tokens is not', () => {
    const usage = readChatUsage({ prompt_tokens: 10_000, completion_tokens: 100, total_tokens: 10_100, prompt_tokens_details: { cached_tokens: 6_000, cache_write_tokens: 1_000 } });
    assert.ok(usage);
    assert.equal(usage.cache_read_tokens, 6_000);
    assert.equal(usage.cache_write_tokens, undefined, 'no cache writes are read from the chat-completions wire');
    assert.equal(usage.source, 'chat_completions');
    // 4,000 input at 3 + 6,000 cache reads at 0.30 + 100 output at 15 (credits per million), in nanocredits:
    // 12,000,000 + 1,800,000 + 1,500,000.
    assert.equal(costOfUsage(usage, PRICING).totalNano, 15_300_000n);
  });

  test('[#39.4] the messages route keeps its cache writes exact through the internal type', () => {
    const usage = usageFromMessages({ input_tokens: 1_000, cache_read_input_tokens: 2_000, cache_creation_input_tokens: 500, output_tokens: 400 });
    assert.deepEqual({ read: usage.cache_read_tokens, write: usage.cache_write_tokens, prompt: usage.prompt_tokens, source: usage.source }, { read: 2_000, write: 500, prompt: 3_500, source: 'messages' });
    // 1,000 * 3,000 + 2,000 * 300 + 500 * 3,750 + 400 * 15,000 nanocredits.
    assert.equal(costOfUsage(usage, PRICING).totalNano, 3_000_000n + 600_000n + 1_875_000n + 6_000_000n);
  });

  test('[#39.4] the local gateway answers chat completions as a compatible gateway would: no cache_write_tokens, cached_tokens on a later turn, and the client\'s cost is its bill', async () => {
    const model = 'google/gemini-2.5-pro'; // input 1.25, output 10.00, cache read 0.31, cache write 4.50
    const first: ChatCompletionRequest = { model, messages: [{ role: 'system', content: 'You are terse and kind, always.' }, { role: 'user', content: 'Hello there' }] };
    const raw = await rawStream(first);
    assert.ok(!raw.includes('cache_write_tokens'), 'the invented field is not on the wire');
    const pricing = { input_per_million: '1.25', output_per_million: '10.00', cache_read_per_million: '0.31', cache_write_per_million: '4.50', pricing_version: 'x', unit: 'credits' };
    for (const request of [first, { model, messages: [...first.messages, { role: 'assistant' as const, content: 'Hi.' }, { role: 'user' as const, content: 'And again' }] }]) {
      gw.events.clear();
      const got = await collect(await client.streamChatCompletion({ ...request, stream: true }));
      assert.ok(got.usage);
      const billed = gw.events.list('billed').at(-1) as { credits_nano?: string } | undefined;
      assert.equal(costOfUsage(got.usage, pricing).totalNano.toString(), billed?.credits_nano);
    }
  });

  test('[#39.4] the cost\'s tooltip says what it was computed from: the route, the token kinds, the catalog\'s rates and pricing_version', () => {
    const fromMessages = costBasisText({ usage: usageFromMessages({ input_tokens: 10, cache_read_input_tokens: 5, cache_creation_input_tokens: 7, output_tokens: 3 }) }, PRICING);
    assert.equal(fromMessages, 'From the gateway’s usage (messages route): prompt, completion, cache read, cache write tokens at the catalog’s rates, pricing_version pv-39.');
    const fromChat = costBasisText({ usage: readChatUsage({ prompt_tokens: 10, completion_tokens: 3, total_tokens: 13 })! }, PRICING);
    assert.equal(fromChat, 'From the gateway’s usage (chat completions): prompt, completion tokens at the catalog’s rates, pricing_version pv-39.');
    assert.match(costBasisText(chargeOf(undefined, () => ({ prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 }), 'stopped'), PRICING), /^Estimated: the reply was stopped.*pricing_version pv-39\.$/);
  });
});

describe('[#39.5] odd usage never escapes the budget', () => {
  test('[#39.5] an overflowing or negative count is flagged, never read as 0, and pricing refuses it', () => {
    const u = readChatUsage(JSON.parse('{"prompt_tokens":1e400,"completion_tokens":-7,"total_tokens":12}'));
    assert.ok(u);
    assert.deepEqual(u.unreadable, ['prompt_tokens', 'completion_tokens']);
    assert.throws(() => costOfUsage(u, PRICING), PricingError);
    assert.equal(usageCostNano(PRICING, u), undefined);
    const m = usageFromMessages({ input_tokens: -3, output_tokens: 5 });
    assert.deepEqual(m.unreadable, ['input_tokens']);
  });

  test('[#39.5] an unpriceable reply is charged at a conservative estimate, flagged in the ledger entry, and counted (cost_nano is not null)', () => {
    const u = readChatUsage(JSON.parse('{"prompt_tokens":1e400,"completion_tokens":50,"total_tokens":1e400,"prompt_tokens_details":{"cached_tokens":40}}'))!;
    const charge = chargeOf(u, () => ({ prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 }));
    assert.equal(charge.estimated, 'unreadable_usage');
    // Prompt from the estimate (the gateway's is unreadable), completion the larger of 50 and 20, no cache-read discount.
    assert.deepEqual({ p: charge.usage.prompt_tokens, c: charge.usage.completion_tokens, read: charge.usage.cache_read_tokens }, { p: 100, c: 50, read: undefined });
    // 100 * 3,000 + 50 * 15,000 nanocredits.
    assert.equal(costOfUsage(charge.usage, PRICING).totalNano, 1_050_000n);
    // The ledger's own guard, for a caller that passes the unreadable usage as it came.
    const entry = spendEntry({ model: 'm', operation: 'summary', usage: readChatUsage({ prompt_tokens: 1000, completion_tokens: -1, total_tokens: 999 })!, pricing: PRICING });
    assert.equal(entry.estimated, 'unreadable_usage');
    assert.equal(entry.cost_nano, '3000000');
  });

  test('[#39.5] against the local gateway: [[usage:overflow]] and [[usage:negative]] arrive flagged, not as zeros', async () => {
    const got = await collect(await client.streamChatCompletion({ model: 'openai/gpt-4o', messages: [{ role: 'user', content: 'odd [[usage:overflow]] [[usage:negative]]' }], stream: true }));
    assert.ok(got.text.length > 0);
    assert.deepEqual(got.usage?.unreadable, ['prompt_tokens', 'completion_tokens']);
  });

  test('[#39.5] a stream error event with code 1e400 is a server error, never "HTTP Infinity"', async () => {
    const stream = await client.streamChatCompletion({ model: 'openai/gpt-4o', messages: [{ role: 'user', content: 'fail late [[fault:error-event]]' }], stream: true });
    let failure: unknown;
    try {
      await collect(stream);
    } catch (e) {
      failure = e;
    }
    assert.ok(isGatewayError(failure));
    assert.equal(failure.status, 500);
    assert.equal(failure.partial, true);
    const words = `${failure.message} ${describeError(failure).message}`;
    assert.ok(!/Infinity/.test(words), words);
  });
});
