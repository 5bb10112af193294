/**
 * Custom MCP servers and their keychain headers. The id that binds a stored secret to a
 * URL must not collide, workspace settings must not add servers, and old stored secrets move over
 * only for the user's own, non-colliding servers.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  customServerId,
  headerSecretKey,
  legacyCustomServerId,
  migrateLegacySecretHeaders,
  normaliseServerUrl,
  readServers,
  secretHeaderValues,
  userCustomServers,
  type ServerEntry,
} from '../../../src/platform/mcpServers';

// These two URLs collide under the old 32-bit `h*31+c` id (found by the security review).
const REAL = 'https://mcp.example.com/mcp';
const EVIL = 'https://evil.test/eiby0lzv';

class FakeSecrets {
  readonly map = new Map<string, string>();
  async get(key: string): Promise<string | undefined> {
    return this.map.get(key);
  }
  async store(key: string, value: string): Promise<void> {
    this.map.set(key, value);
  }
  async delete(key: string): Promise<void> {
    this.map.delete(key);
  }
}

function custom(url: string, secretHeaders: string[] = ['Authorization']): ServerEntry {
  const [entry] = readServers([{ name: url, url, secretHeaders }]).filter((s) => s.kind === 'custom');
  assert.ok(entry, `readServers kept ${url}`);
  return entry;
}

test('the server id is a SHA-256 of the normalised URL, so a colliding URL of the old id gets another id', () => {
  assert.equal(legacyCustomServerId(REAL), legacyCustomServerId(EVIL), 'precondition: the old ids collide');
  assert.notEqual(customServerId(REAL), customServerId(EVIL));
  assert.match(customServerId(REAL), /^custom-[0-9a-f]{64}$/);
  // Same server written differently (case of the host, default port, fragment) -> same id.
  assert.equal(normaliseServerUrl('HTTPS://MCP.Example.com:443/mcp#x'), REAL);
  assert.equal(customServerId('HTTPS://MCP.Example.com:443/mcp#x'), customServerId(REAL));
  // Path and query matter.
  assert.notEqual(customServerId(`${REAL}?tenant=a`), customServerId(`${REAL}?tenant=b`));
});

test('a URL whose old id collides with a stored server gets no secret headers', async () => {
  const secrets = new FakeSecrets();
  const real = custom(REAL);
  await secrets.store(headerSecretKey(real.id, 'Authorization'), 'Bearer real-server-secret');
  assert.deepEqual(await secretHeaderValues(secrets, real), { Authorization: 'Bearer real-server-secret' });
  assert.deepEqual(await secretHeaderValues(secrets, custom(EVIL)), {});
});

test('custom servers come from user settings only: workspace and folder values are ignored', () => {
  const inspected = {
    key: 'aiGateway.mcp.servers',
    globalValue: [{ name: 'Mine', url: REAL, secretHeaders: ['Authorization'] }],
    workspaceValue: [{ name: 'Evil', url: EVIL, secretHeaders: ['Authorization'] }],
    workspaceFolderValue: [{ name: 'Evil 2', url: 'https://evil.test/2', secretHeaders: ['Authorization'] }],
  };
  const config = { inspect: <T>(key: string) => (key === 'aiGateway.mcp.servers' ? (inspected as unknown as { key: string; globalValue?: T }) : undefined) };
  const servers = readServers(userCustomServers(config));
  assert.deepEqual(servers.map((s) => s.url).slice(1), [REAL]);
  assert.equal(servers[0].kind, 'gateway');
  // Nothing in user settings (or a non-array there) -> only the gateway.
  const none = { inspect: <T>() => ({ key: 'aiGateway.mcp.servers', workspaceValue: inspected.workspaceValue }) as unknown as { key: string; globalValue?: T } };
  assert.deepEqual(readServers(userCustomServers(none)).map((s) => s.kind), ['gateway']);
});

test('secret header names that are not letters, digits and dashes are dropped', () => {
  const s = custom(REAL, ['Authorization', 'X-Ok-1', 'X"; rm -rf ~; "', '$(id)']);
  assert.deepEqual(s.secretHeaders, ['Authorization', 'X-Ok-1']);
});

test('secrets stored under the old id move to the new id, once, for a non-colliding user server', async () => {
  const secrets = new FakeSecrets();
  const real = custom(REAL);
  await secrets.store(headerSecretKey(legacyCustomServerId(REAL), 'Authorization'), 'Bearer moved');
  assert.equal(await migrateLegacySecretHeaders(secrets, [real]), 1);
  assert.deepEqual(await secretHeaderValues(secrets, real), { Authorization: 'Bearer moved' });
  assert.equal(secrets.map.has(headerSecretKey(legacyCustomServerId(REAL), 'authorization')), false, 'old key deleted');
  assert.equal(await migrateLegacySecretHeaders(secrets, [real]), 0);
});

test('a legacy id shared by two listed servers is a collision: neither gets the old secret', async () => {
  const secrets = new FakeSecrets();
  const legacyKey = headerSecretKey(legacyCustomServerId(REAL), 'Authorization');
  await secrets.store(legacyKey, 'Bearer real-server-secret');
  const real = custom(REAL);
  const evil = custom(EVIL);
  assert.equal(await migrateLegacySecretHeaders(secrets, [real, evil]), 0);
  assert.deepEqual(await secretHeaderValues(secrets, evil), {});
  assert.deepEqual(await secretHeaderValues(secrets, real), {});
  assert.equal(secrets.map.get(legacyKey), 'Bearer real-server-secret', 'left in place, not handed to anyone');
});
