import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseStoredHostingCredentials, serializeHostingCredentials, validateHostingPassword, validateHostingUsername, validateJwtInput } from '../../../src/core/account/credentials';
import { HOSTING_BASE_URL_ENV, resolveHostingBaseUrl } from '../../../src/core/account/hostingUrl';
import { PLACEHOLDER_HOSTING_BASE_URL, settings } from '../../../src/platform/config';
import { LOCAL_KEYS } from '../../localGateway/keys';
import { mintLocalJwt } from '../../localGateway/mcpJwt';

test('[G-AN-1] the identity-token input refuses API keys and non-JWTs, without echoing the value', () => {
  assert.equal(validateJwtInput(mintLocalJwt()), undefined);
  const key = LOCAL_KEYS.userFull;
  const refusal = validateJwtInput(key) ?? '';
  assert.match(refusal, /That is an API key/);
  assert.ok(!refusal.includes(key));
  assert.match(validateJwtInput('not a token') ?? '', /does not look like a JWT/);
  assert.match(validateJwtInput('  ') ?? '', /Paste/);
});

test('[H-AUTH-1] hosting credentials: username without colon, non-empty password; stored pair round-trips, junk reads as unset', () => {
  assert.equal(validateHostingUsername('owner'), undefined);
  assert.match(validateHostingUsername('a:b') ?? '', /colon/);
  assert.match(validateHostingUsername('') ?? '', /Enter/);
  assert.match(validateHostingPassword('') ?? '', /Enter/);
  assert.equal(validateHostingPassword('p:w with spaces'), undefined);
  const c = { username: 'owner', password: 'p:w"\\' };
  assert.deepEqual(parseStoredHostingCredentials(serializeHostingCredentials(c)), c);
  assert.equal(parseStoredHostingCredentials(undefined), undefined);
  assert.equal(parseStoredHostingCredentials('{"username":"x"}'), undefined);
  assert.equal(parseStoredHostingCredentials('not json'), undefined);
});

test('hosting base URL: placeholder by default, the setting, and the environment variable wins', () => {
  assert.equal(settings.hostingBaseUrl.default, PLACEHOLDER_HOSTING_BASE_URL);
  assert.deepEqual(resolveHostingBaseUrl('', PLACEHOLDER_HOSTING_BASE_URL, {}), { url: PLACEHOLDER_HOSTING_BASE_URL, fromEnv: false, isPlaceholder: true });
  assert.deepEqual(resolveHostingBaseUrl('https://h.test/api/', PLACEHOLDER_HOSTING_BASE_URL, {}), { url: 'https://h.test/api', fromEnv: false, isPlaceholder: false });
  assert.deepEqual(resolveHostingBaseUrl('https://h.test', PLACEHOLDER_HOSTING_BASE_URL, { [HOSTING_BASE_URL_ENV]: 'http://127.0.0.1:9/hosting/' }), {
    url: 'http://127.0.0.1:9/hosting',
    fromEnv: true,
    isPlaceholder: false,
  });
});
