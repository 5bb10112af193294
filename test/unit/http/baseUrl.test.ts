/**
 * Which address receives the key. The environment variable AI_GATEWAY_BASE_URL replaces the
 * machine-scoped setting only in development (running from source): in an installed extension the
 * environment may come from a cloned repository's devcontainer.json.
 */
import { afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { allowEnvironmentOverrides, BASE_URL_ENV, bindSettingsSource, effectiveBaseUrl } from '../../../src/platform/config';

function bindBaseUrl(value: string): () => void {
  // The address is a user-only setting: the reader takes the user (global) value through inspect().
  const read = <T>(key: string): T | undefined => (key === 'aiGateway.baseUrl' ? (value as T) : undefined);
  return bindSettingsSource({ getConfiguration: () => ({ get: read, inspect: <T>(key: string) => ({ key, globalValue: read<T>(key) }) }) as never });
}

describe('gateway address from the environment', () => {
  afterEach(() => allowEnvironmentOverrides(false));

  test('an installed extension ignores AI_GATEWAY_BASE_URL (e.g. from a devcontainer.json) and keeps the setting', () => {
    const unbind = bindBaseUrl('https://gw.example.com/');
    try {
      allowEnvironmentOverrides(false);
      const r = effectiveBaseUrl({ [BASE_URL_ENV]: 'http://attacker.example.net' });
      assert.equal(r.url, 'https://gw.example.com');
      assert.equal(r.fromEnv, false);
    } finally {
      unbind();
    }
  });

  test('running from source (development or test mode) honours AI_GATEWAY_BASE_URL', () => {
    const unbind = bindBaseUrl('https://gw.example.com');
    try {
      allowEnvironmentOverrides(true);
      const r = effectiveBaseUrl({ [BASE_URL_ENV]: 'http://127.0.0.1:8787/' });
      assert.deepEqual(r, { url: 'http://127.0.0.1:8787', fromEnv: true });
    } finally {
      unbind();
    }
  });
});
