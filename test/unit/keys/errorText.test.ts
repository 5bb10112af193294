import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { describeError } from '../../../src/core/errorText';
import { toChatErrorView } from '../../../src/core/chat/errorView';
import { GatewayError } from '../../../src/core/http/errors';

describe('error words for notifications', () => {
  test('[G-AUTH-3] 401 suggests setting a key, keeps the request id, and names no scope', () => {
    const t = describeError(new GatewayError({ reason: 'authentication', status: 401, message: 'invalid or revoked API key', requestId: 'abc123' }));
    assert.equal(t.suggestSetKey, true);
    assert.equal(t.requestId, 'abc123');
    assert.doesNotMatch(t.message, /scope/);
  });

  test('[G-AUTH-4] 403 permission names the scope and both levels', () => {
    const t = describeError(
      new GatewayError({ reason: 'permission', status: 403, message: 'm', permission: { scope: 'image', required: 'write', granted: 'read' } }),
      'Alt text',
    );
    assert.equal(t.message, 'Alt text: This API key lacks the "image" scope at write level (this key has read). Use a key with that permission, or change the key\'s permissions in the portal.');
    assert.equal(t.suggestSetKey, false);
  });

  test('[G-ERR-4] throttling and outages suggest a retry; a policy block does not', () => {
    assert.equal(describeError(new GatewayError({ reason: 'throttled', message: '' })).suggestRetry, true);
    assert.equal(describeError(new GatewayError({ reason: 'unavailable', message: '' })).suggestRetry, true);
    assert.equal(describeError(new GatewayError({ reason: 'content_policy', message: '' })).suggestRetry, false);
  });

  test('an unreachable gateway points at the settings; an answered error does not', () => {
    assert.equal(describeError(new GatewayError({ reason: 'network', code: 'ECONNREFUSED', message: 'ECONNREFUSED', mayHaveReachedServer: false })).suggestSettings, true);
    assert.equal(describeError(new GatewayError({ reason: 'timeout', timeoutPhase: 'connect', message: '' })).suggestSettings, true);
    assert.equal(describeError(new GatewayError({ reason: 'timeout', timeoutPhase: 'idle', message: '' })).suggestSettings, false);
    assert.equal(describeError(new GatewayError({ reason: 'authentication', status: 401, message: '' })).suggestSettings, false);
  });

  test('a failure after the request may have reached the gateway says so, and leaves Retry to the user', () => {
    const reset = new GatewayError({ reason: 'network', code: 'UND_ERR_SOCKET', message: 'The connection to the gateway broke before the response (UND_ERR_SOCKET)' });
    const t = describeError(reset);
    assert.match(t.message, /the gateway may have received this request; check before retrying/i);
    assert.equal(t.suggestRetry, true);
    const chat = toChatErrorView(reset);
    assert.match(chat.message, /may have received this request; check before retrying/);
    assert.ok(chat.actions.includes('retry'));
    const refused = new GatewayError({ reason: 'network', code: 'ECONNREFUSED', message: 'Could not reach the gateway (ECONNREFUSED)', mayHaveReachedServer: false });
    assert.doesNotMatch(describeError(refused).message, /may have received/);
    assert.doesNotMatch(toChatErrorView(refused).message, /may have received/);
    const slow = new GatewayError({ reason: 'timeout', timeoutPhase: 'firstByte', message: 'x' });
    assert.match(describeError(slow).message, /may have received this request/);
  });

  test('a key inside any error text is redacted', () => {
    const t = describeError(new Error('failed with svc_pat_secret_value_123456 in it'));
    assert.doesNotMatch(t.message, /svc_pat_secret/);
    const g = describeError(new GatewayError({ reason: 'invalid_request', message: 'bad key svc_leaky_account_9999' }));
    assert.doesNotMatch(g.message, /svc_leaky/);
  });
});
