import { test } from 'node:test';
import assert from 'node:assert/strict';
import { costView, defaultCostFn, replyCostNano, sumNano } from '../../../src/core/chat/cost';
import { CONTENT_POLICY_TEXT, toChatErrorView } from '../../../src/core/chat/errorView';
import { GatewayError } from '../../../src/core/http/errors';
import type { Model, Usage } from '../../../src/core/gateway/types';

const model: Model = {
  id: 'openai/gpt-test',
  object: 'model',
  owned_by: 'OpenAI',
  provider: 'openai',
  display_name: 'GPT Test',
  capabilities: ['chat', 'reasoning'],
  pricing: { input_per_million: '0.15', output_per_million: '0.6', reasoning_per_million: '1.2', pricing_version: 'v1', unit: 'credits' },
};

test('[G-CAT-8] reply cost is exact nanocredits from decimal-string rates', () => {
  const usage: Usage = { prompt_tokens: 1000, completion_tokens: 500, total_tokens: 1500 };
  // 1000 * 0.15 / 1e6 credits = 150,000 nano; 500 * 0.6 / 1e6 = 300,000 nano.
  assert.equal(replyCostNano(defaultCostFn, model, usage), 450_000n);
});

test('[G-CHAT-3] reasoning tokens are priced at their own rate when total exceeds prompt + completion', () => {
  const usage: Usage = { prompt_tokens: 1000, completion_tokens: 500, completion_tokens_details: { reasoning_tokens: 2000 }, total_tokens: 3500 };
  // 150,000 + 300,000 + 2000 * 1.2 / 1e6 credits (2,400,000 nano)
  assert.equal(replyCostNano(defaultCostFn, model, usage), 2_850_000n);
});

test('no pricing means no cost, never a made-up one', () => {
  const { pricing: _p, ...unpriced } = model;
  assert.equal(replyCostNano(defaultCostFn, unpriced, { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 }), undefined);
});

test('[G-CAT-8] the conversation total is an exact bigint sum, beyond float precision', () => {
  const big = '9007199254740993'; // 2^53 + 1: a float would round it
  assert.equal(sumNano([big, '1', '2']), 9007199254740996n);
  assert.deepEqual(costView(1_234_567n), { nanocredits: '1234567', display: '0.001234567 credits' });
});

const err = (init: ConstructorParameters<typeof GatewayError>[0]) => new GatewayError(init);

test('[G-AUTH-3] 401 shows the key is invalid or revoked, with Set API Key and Copy Request ID', () => {
  const v = toChatErrorView(err({ reason: 'authentication', status: 401, message: 'invalid or revoked API key', requestId: 'req-1' }));
  assert.match(v.message, /invalid or revoked/);
  assert.deepEqual(v.actions, ['setApiKey', 'copyRequestId']);
  assert.equal(v.requestId, 'req-1');
});

test('[G-AUTH-4] 403 permission_error shows scope, required and granted level', () => {
  const v = toChatErrorView(err({ reason: 'permission', status: 403, message: 'x', permission: { scope: 'chat', required: 'write', granted: 'read' } }));
  assert.equal(v.message, 'This API key lacks the "chat" scope at write level (this key has read). Use a key with that permission, or change the key\'s permissions in the portal.');
  assert.deepEqual(v.actions, []);
});

test('[G-CHAT-4] content policy shows exactly "Blocked by content moderation" and nothing more', () => {
  const v = toChatErrorView(err({ reason: 'content_policy', status: 403, type: 'content_policy_violation', message: 'filter: violence (category 7)' }));
  assert.equal(v.message, CONTENT_POLICY_TEXT);
  assert.equal(CONTENT_POLICY_TEXT, 'Blocked by content moderation');
  assert.equal(v.detail, undefined);
  assert.ok(!JSON.stringify(v).includes('violence'));
});

test('[G-ERR-3] [G-ERR-4] 429 and 503 after automatic retries offer Retry', () => {
  assert.deepEqual(toChatErrorView(err({ reason: 'throttled', status: 429, message: '<html>' })).actions, ['retry']);
  assert.deepEqual(toChatErrorView(err({ reason: 'unavailable', status: 503, message: 'x', requestId: 'r' })).actions, ['retry', 'copyRequestId']);
});

test('a broken stream is marked incomplete with Retry', () => {
  const v = toChatErrorView(err({ reason: 'network', message: 'socket hang up', partial: true }), true);
  assert.match(v.message, /incomplete/);
  assert.deepEqual(v.actions, ['retry']);
});

test('a non-gateway error still maps to a readable view without internals', () => {
  const v = toChatErrorView(new TypeError('undefined is not a function'));
  assert.ok(!v.message.includes('undefined is not a function'));
  assert.deepEqual(v.actions, ['retry']);
});
