import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { addKeyVerdict, checkKey, classifyKeyCheckError, describeKeyCheck, KEY_CHECK_BODY, KEY_CHECK_PATH } from '../../../src/core/keys/keyCheck';
import { createGatewayClient } from '../../../src/core/gateway/gatewayClient';
import { GatewayError } from '../../../src/core/http/errors';
import { LOCAL_KEYS } from '../../localGateway/keys';
import { startGateway, type RunningGateway } from '../../localGateway/server';
import { sendEnvelope, startServer } from '../http/helpers';

describe('Check API Key against the local gateway', () => {
  let gateway: RunningGateway;
  before(async () => {
    gateway = await startGateway();
  });
  after(async () => {
    await gateway.close();
  });

  async function check(key: string | undefined) {
    const client = createGatewayClient({ baseUrl: gateway.url, getKey: async () => key, userAgent: 'ai-gateway-vscode/test', retry: { maxAttempts: 1 } });
    try {
      return await checkKey(client);
    } finally {
      await client.dispose();
    }
  }

  test('[G-AUTH-2] a Full access User key and a Full access Account key are valid', async () => {
    const user = await check(LOCAL_KEYS.userFull);
    const account = await check(LOCAL_KEYS.accountFull);
    assert.equal(user.kind, 'valid');
    assert.equal(account.kind, 'valid');
    assert.ok(user.requestId, 'the probe keeps the request id');
  });

  test('[#29.9] Add API Key: a revoked key is refused and not saved; a working one is saved with a plain message', async () => {
    const revoked = addKeyVerdict(await check(LOCAL_KEYS.revoked), '"old"', gateway.url);
    assert.equal(revoked.save, false);
    assert.equal(revoked.level, 'error');
    assert.match(revoked.message, /was not saved: the gateway refused it \(401\), so it is invalid or has been revoked/);
    const ok = addKeyVerdict(await check(LOCAL_KEYS.userFull), '"work"', gateway.url);
    assert.deepEqual([ok.save, ok.level], [true, 'info']);
  });

  test('[#29.9] Add API Key: a gateway that cannot be reached saves the key with a warning that it is unchecked', async () => {
    const dead = createGatewayClient({ baseUrl: 'http://127.0.0.1:9', getKey: async () => LOCAL_KEYS.userFull, userAgent: 'ai-gateway-vscode/test', retry: { maxAttempts: 1 } });
    try {
      const verdict = addKeyVerdict(await checkKey(dead), '"work"', 'http://127.0.0.1:9');
      assert.deepEqual([verdict.save, verdict.level], [true, 'warning']);
      assert.match(verdict.message, /UNCHECKED: the gateway at http:\/\/127\.0\.0\.1:9 could not be reached/);
    } finally {
      await dead.dispose();
    }
  });

  test('[G-AUTH-3] a revoked key is told apart as invalid (401), with the request id', async () => {
    const result = await check(LOCAL_KEYS.revoked);
    assert.equal(result.kind, 'invalid');
    assert.ok(result.requestId);
    assert.match(describeKeyCheck(result, '"old"'), /invalid or has been revoked/);
  });

  test('[G-AUTH-3] no key at all is invalid too, not a crash', async () => {
    assert.equal((await check(undefined)).kind, 'invalid');
  });

  test('[G-AUTH-4] a Read only key is valid but misses chat write: the scope and levels are named', async () => {
    const result = await check(LOCAL_KEYS.userReadOnly);
    assert.equal(result.kind, 'missing-scope');
    if (result.kind !== 'missing-scope') return;
    assert.equal(result.scope, 'chat');
    assert.equal(result.required, 'write');
    assert.equal(result.granted, 'read');
    assert.match(describeKeyCheck(result, '"ro"'), /lacks the chat scope \(needs write, has read\)/);
  });

  test('the probe spends nothing: it authenticates, then the gateway refuses the empty body (400), no model runs', async () => {
    gateway.events.clear();
    assert.equal((await check(LOCAL_KEYS.userChatOnly)).kind, 'valid');
    const logged = await gateway.events.waitFor('request', (e) => e.path === KEY_CHECK_PATH);
    assert.equal(logged.status, 400);
    assert.equal(logged.authorization, 'bearer');
    assert.ok(logged.keyName, 'the key was authenticated before the body was refused');
  });
});

describe('key check classification', () => {
  test('[G-AUTH-10] entitlement_required and account_required are account problems, told apart', () => {
    const ent = classifyKeyCheckError(new GatewayError({ reason: 'entitlement_required', message: 'x', status: 403 }));
    const acc = classifyKeyCheckError(new GatewayError({ reason: 'account_required', message: 'y', status: 403 }));
    assert.deepEqual([ent.kind, acc.kind], ['account', 'account']);
    assert.notEqual(describeKeyCheck(ent, 'k'), describeKeyCheck(acc, 'k'));
  });

  test('network failures and throttling are errors, not verdicts on the key', () => {
    for (const reason of ['network', 'throttled', 'unavailable', 'timeout'] as const) {
      assert.equal(classifyKeyCheckError(new GatewayError({ reason, message: reason })).kind, 'error', reason);
    }
  });

  test('the probe is an invalid chat request, so no model can run', async () => {
    const calls: [string, unknown][] = [];
    const result = await checkKey({
      postJson: async <T>(path: string, body: unknown) => {
        calls.push([path, body]);
        return { data: { choices: [] } as T, status: 200, requestId: 'r1' };
      },
    });
    assert.deepEqual(calls, [[KEY_CHECK_PATH, KEY_CHECK_BODY]]);
    assert.deepEqual(result, { kind: 'valid', requestId: 'r1' });
  });
});

describe('Check API Key against an address that is not a gateway', () => {
  async function checkAgainst(handler: Parameters<typeof startServer>[0]) {
    const server = await startServer(handler);
    const client = createGatewayClient({ baseUrl: server.url, getKey: async () => LOCAL_KEYS.userFull, userAgent: 'ai-gateway-vscode/test', retry: { maxAttempts: 1 } });
    try {
      return await checkKey(client);
    } finally {
      await client.dispose();
      await server.close();
    }
  }

  test('a web server answering 404 HTML to everything is not a valid key', async () => {
    const result = await checkAgainst((_req, res) => {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<html><body>Not Found</body></html>');
    });
    assert.equal(result.kind, 'error');
    assert.match(describeKeyCheck(result, '"k"'), /did not answer like an AI gateway .*aiGateway\.baseUrl/);
  });

  test('a 200 JSON answer that is not a chat completion is not a valid key', async () => {
    const result = await checkAgainst((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
    });
    assert.equal(result.kind, 'error');
  });

  test('[G-ERR-1] a 404 carrying the documented error envelope still counts as a gateway that accepted the key', async () => {
    const result = await checkAgainst((_req, res) => sendEnvelope(res, 404, 'not_found_error', 'no such model', 'req-404'));
    assert.deepEqual(result, { kind: 'valid', requestId: 'req-404' });
  });
});
