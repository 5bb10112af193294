/**
 * [#41] A newcomer's first message before Add API Key: no key is set, so nothing is sent and the words
 * say so, instead of "the gateway refused the API key (401)" for a request the gateway never saw.
 * Real client, real local gateway; the expected words are written out.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startGateway, type RunningGateway } from '../../localGateway/server';
import { createGatewayClient } from '../../../src/core/gateway/gatewayClient';
import { describeError } from '../../../src/core/errorText';
import { GatewayError } from '../../../src/core/http/errors';

let gw: RunningGateway;
before(async () => {
  gw = await startGateway();
});
after(async () => {
  await gw.close();
});

test('without any API key a chat request is not sent, and the error says no key is set (Set API Key offered), not that the gateway refused one', async () => {
  const client = createGatewayClient({ baseUrl: gw.url, getKey: async () => undefined, userAgent: 'no-key-test' });
  let caught: unknown;
  try {
    await client.createChatCompletion({ model: 'anthropic/claude-haiku-4.5', messages: [{ role: 'user', content: 'Hello' }] });
  } catch (e) {
    caught = e;
  } finally {
    await client.dispose();
  }
  assert.ok(caught instanceof GatewayError, String(caught));
  assert.equal(caught.mayHaveReachedServer, false);
  const text = describeError(caught);
  assert.equal(text.message, 'No API key is set yet, so nothing was sent. Add one with AI Gateway: Add API Key.');
  assert.deepEqual(text.actions, ['setApiKey']);
  assert.equal(gw.events.list('request').filter((e) => (e as { path?: string }).path === '/v1/chat/completions').length, 0, 'nothing reached the gateway');
  // A key the gateway does refuse keeps the 401 words.
  assert.match(describeError(new GatewayError({ reason: 'authentication', message: 'invalid', status: 401 })).message, /^The gateway refused the API key \(401\)/);
});
