/**
 * [#40.5] Proxy credentials (src/platform/proxyCredentials.ts): asked in input boxes (the password
 * masked), kept only in SecretStorage per proxy origin; the spend-recording client
 * (src/platform/recordingClient.ts) and the shared fetch (src/platform/network.ts) with the real
 * Services against the local gateway.
 */
import { double } from '../../vscodeDouble'; // first: points `vscode` at the double
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { startGateway, type RunningGateway } from '../../../localGateway/server';
import { LOCAL_KEYS } from '../../../localGateway/keys';
import { Services } from '../../../../src/services';
import { parseSavedCredential, proxyCredentialHooks } from '../../../../src/platform/proxyCredentials';
import { recordingClient } from '../../../../src/platform/recordingClient';
import { proxyFetch } from '../../../../src/platform/network';

beforeEach(() => double.reset());

describe('[#40.5] proxy credentials', () => {
  test('[#40.5] asked for the proxy by name; the password box is masked; the answer is returned, not stored by asking', async () => {
    const ctx = double.extensionContext();
    const hooks = proxyCredentialHooks(ctx.secrets as unknown as vscode.SecretStorage);
    double.answer('alice', 's3cret');
    assert.deepEqual(await hooks.ask({ origin: 'http://proxy.corp:3128', realm: 'Corp', refused: false } as never), { username: 'alice', password: 's3cret' });
    const [user, pass] = double.inputBoxes;
    assert.match(String(user.options.prompt), /^The proxy http:\/\/proxy\.corp:3128 \("Corp"\) needs a username and password\. Username:$/);
    assert.equal(pass.options.password, true);
    assert.match(String(pass.options.prompt), /unencrypted \(http:\/\/\)/);
    assert.equal(await ctx.secrets.get('aiGateway.proxyCredential:http://proxy.corp:3128'), undefined);
  });

  test('[#40.5] a username with ":" is not accepted; Escape on the password gives nothing', async () => {
    const hooks = proxyCredentialHooks(double.extensionContext().secrets as unknown as vscode.SecretStorage);
    double.answer('a:b');
    assert.equal(await hooks.ask({ origin: 'https://p', refused: true } as never), undefined);
    assert.equal(double.inputBoxes[0].validation, 'A username for Basic authentication cannot contain ":".');
    assert.match(String(double.inputBoxes[0].options.prompt), /refused the saved username and password/);
    double.answer('bob');
    assert.equal(await hooks.ask({ origin: 'https://p', refused: false } as never), undefined);
  });

  test('[#40.5] saved in SecretStorage per origin (case-insensitive), loaded back, forgotten', async () => {
    const ctx = double.extensionContext();
    const hooks = proxyCredentialHooks(ctx.secrets as unknown as vscode.SecretStorage);
    await hooks.save('HTTP://Proxy.Corp:3128', { username: 'alice', password: 'pw' });
    assert.deepEqual(await hooks.load('http://proxy.corp:3128'), { username: 'alice', password: 'pw' });
    assert.equal(ctx.globalState.keys().length, 0, 'nothing in globalState');
    await hooks.forget('http://proxy.corp:3128');
    assert.equal(await hooks.load('http://proxy.corp:3128'), undefined);
  });

  test('[#40.5] a damaged or oversized saved value is ignored', () => {
    assert.equal(parseSavedCredential('{'), undefined);
    assert.equal(parseSavedCredential('{"username":1,"password":"x"}'), undefined);
    assert.equal(parseSavedCredential(JSON.stringify({ username: 'u', password: 'x'.repeat(9000) })), undefined);
    assert.deepEqual(parseSavedCredential('{"username":"u","password":"p"}'), { username: 'u', password: 'p' });
  });
});

describe('[#40.5] the recording client and the shared fetch (local gateway)', () => {
  let gw: RunningGateway;
  let services: Services;
  let storage: string;
  before(async () => {
    gw = await startGateway();
  });
  after(() => gw.close());
  beforeEach(async () => {
    double.setConfig('aiGateway.baseUrl', gw.url, 'global');
    storage = await mkdtemp(join(tmpdir(), 'glue3-rec-'));
    services = new Services(double.extensionContext({ globalStorageUri: vscode.Uri.file(storage) }) as unknown as vscode.ExtensionContext);
    await services.keys.add('local', LOCAL_KEYS.userFull, { activate: true });
  });
  afterEach(async () => {
    services.dispose();
    await rm(storage, { recursive: true, force: true });
  });

  test('[#40.5] a chat completion through the recording client lands in the spend ledger under its operation', async () => {
    await services.catalog.ensureLoaded();
    const model = services.catalog.resolveDefaultModel('summary')!.id;
    const ops: string[] = [];
    services.spend.onDidRecord((op) => ops.push(op));
    const client = recordingClient(await services.getClient(), services, 'summary');
    const res = await client.createChatCompletion({ model, messages: [{ role: 'user', content: 'hi' }] });
    for (let i = 0; i < 300 && ops.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    assert.deepEqual(ops, ['summary']);
    const now = Date.now();
    const entries = await services.spend.ledger.read({ fromMs: now - 60_000, toMs: now + 1 });
    assert.equal(JSON.stringify(entries).includes(res.requestId!), true, 'the entry carries the request id');
  });

  test('[#40.5] proxyFetch goes through the one network layer (the extension\'s user agent)', async () => {
    const res = await proxyFetch()(`${gw.url}/v1/models`, { headers: { Authorization: `Bearer ${LOCAL_KEYS.userFull}` } });
    assert.equal(res.status, 200);
    const req = gw.events.list('request').find((e) => e.path === '/v1/models');
    assert.match(String((req as { userAgent?: string } | undefined)?.userAgent ?? JSON.stringify(req)), /ai-gateway-vscode\//);
  });
});
