/**
 * What a failed request through VS Code's language model provider says (src/lm/lmErrorParts.ts, the
 * message and code of the LanguageModelError), for real refusals of the local gateway reached through
 * the shared client, exactly as the provider makes them.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createGatewayClient, type GatewayClient } from '../../../src/core/gateway/gatewayClient';
import { lmErrorParts } from '../../../src/lm/lmErrorParts';
import { LOCAL_KEYS } from '../../localGateway/keys';
import { startGateway, type RunningGateway } from '../../localGateway/server';

let gw: RunningGateway;
const clients: GatewayClient[] = [];
before(async () => {
  gw = await startGateway();
});
after(async () => {
  for (const c of clients) await c.dispose();
  await gw.close();
});

/** The provider's request (a streamed chat completion) with this key; returns what it threw. */
async function failWith(key: string): Promise<unknown> {
  const client = createGatewayClient({ baseUrl: gw.url, getKey: async () => key, userAgent: 'lm-errors-test', env: {} });
  clients.push(client);
  try {
    const stream = await client.streamChatCompletion({ model: 'openai/gpt-5.1', messages: [{ role: 'user', content: 'hi' }], stream: true });
    for await (const chunk of stream) void chunk;
  } catch (e) {
    return e;
  }
  assert.fail('the request was expected to be refused');
}

/** The request id the gateway itself assigned to its last /v1/chat/completions request. */
function lastRequestId(): string {
  const entries = gw.events.list('request').filter((e) => e.path === '/v1/chat/completions');
  const id = entries.at(-1)?.requestId;
  assert.ok(typeof id === 'string' && id.length > 0, 'the gateway logged a request id');
  return id;
}

describe('language model provider: errors', () => {
  test('[G-AUTH-4] a key below chat write gets NoPermissions naming the scope, both levels and the request id', async () => {
    const parts = lmErrorParts(await failWith(LOCAL_KEYS.userReadOnly));
    assert.equal(parts.code, 'NoPermissions');
    assert.match(parts.message, /lacks the "chat" scope at write level \(this key has read\)/);
    assert.ok(parts.message.endsWith(`(request id ${lastRequestId()})`), parts.message);
  });

  test('[G-AUTH-7] chat completions need chat write: a key without chat is refused and told the scope', async () => {
    // A Restricted key with image write and chat none, added through the gateway's control API.
    const secret = 'svc_pat_local_user_imageonly_5d7f9b1c3e2a';
    const added = await fetch(`${gw.url}/__control/keys`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ secret, name: 'Image only', permission: 'restricted', scopes: { image: 'write' } }),
    });
    assert.equal(added.status, 200, await added.text());
    const parts = lmErrorParts(await failWith(secret));
    assert.equal(parts.code, 'NoPermissions');
    assert.match(parts.message, /lacks the "chat" scope at write level \(this key has none\)/);
    assert.doesNotMatch(parts.message, /"image"/);
    assert.ok(parts.message.endsWith(`(request id ${lastRequestId()})`), parts.message);
  });

  test('[G-AUTH-3] a key revoked while in use: the next request says the key is revoked', async () => {
    const secret = 'svc_pat_local_user_soonrevoked_8c2e4a6f1b3d';
    const post = (path: string, body: unknown): Promise<Response> => fetch(`${gw.url}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    assert.equal((await post('/__control/keys', { secret, name: 'Soon revoked', permission: 'full' })).status, 200);
    const client = createGatewayClient({ baseUrl: gw.url, getKey: async () => secret, userAgent: 'lm-errors-test', env: {} });
    clients.push(client);
    const ok = await client.streamChatCompletion({ model: 'openai/gpt-5.1', messages: [{ role: 'user', content: 'hi' }], stream: true });
    for await (const chunk of ok) void chunk;
    assert.equal((await post('/__control/keys/revoke', { secret })).status, 200);
    const parts = lmErrorParts(await failWith(secret));
    assert.equal(parts.code, 'NoPermissions');
    assert.match(parts.message, /revoked/);
    assert.ok(parts.message.endsWith(`(request id ${lastRequestId()})`), parts.message);
  });

  test('[G-AUTH-3] a revoked key gets NoPermissions saying the key is revoked, with the request id, and no secret', async () => {
    const parts = lmErrorParts(await failWith(LOCAL_KEYS.revoked));
    assert.equal(parts.code, 'NoPermissions');
    assert.match(parts.message, /refused the API key \(401\): it is missing, invalid or revoked/);
    assert.ok(parts.message.endsWith(`(request id ${lastRequestId()})`), parts.message);
    assert.ok(!parts.message.includes(LOCAL_KEYS.revoked), 'the key never appears in the message');
  });

  test('a full key reaches the model (the refusals above are the keys, not the request)', async () => {
    const client = createGatewayClient({ baseUrl: gw.url, getKey: async () => LOCAL_KEYS.userFull, userAgent: 'lm-errors-test', env: {} });
    clients.push(client);
    const stream = await client.streamChatCompletion({ model: 'openai/gpt-5.1', messages: [{ role: 'user', content: 'hi' }], stream: true });
    let text = '';
    for await (const chunk of stream) text += (chunk as { choices?: Array<{ delta?: { content?: string } }> }).choices?.[0]?.delta?.content ?? '';
    assert.ok(text.length > 0);
  });

  test('an error that is not the gateway keeps its text, without a made-up request id', () => {
    assert.deepEqual(lmErrorParts(new Error('socket closed')), { message: 'socket closed', code: 'Unknown' });
  });
});
