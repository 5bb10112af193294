import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { errorFromResponse, errorFromTransport, parseErrorEnvelope, parsePermissionMessage, parseRetryAfter } from '../../../src/core/http/classify';
import { GatewayError, isGatewayError } from '../../../src/core/http/errors';
import { backoffDelay, isRetryable } from '../../../src/core/http/retry';

describe('permission message parsing', () => {
  const cases: Array<[string, { scope?: string; required?: string; granted?: string }]> = [
    ["insufficient permission: scope 'image' requires write, key has none", { scope: 'image', required: 'write', granted: 'none' }],
    ['scope chat requires write; granted read', { scope: 'chat', required: 'write', granted: 'read' }],
    ['missing scope: mcp (required: write, granted: read)', { scope: 'mcp', required: 'write', granted: 'read' }],
    ['API key lacks write access to "search" scope (has read)', { scope: 'search', required: 'write', granted: 'read' }],
    ['The key has only read on scope `collections`; write is required', { scope: 'collections', required: 'write', granted: 'read' }],
    ['permission denied for scope=transcribe: required level is write, granted level is none', { scope: 'transcribe', required: 'write', granted: 'none' }],
    ['Scope "Agents" needs WRITE but the key has READ', { scope: 'agents', required: 'write', granted: 'read' }],
  ];
  for (const [message, expected] of cases) {
    test(`[G-AUTH-4] reads scope, required and granted from: ${message}`, () => {
      assert.deepEqual(parsePermissionMessage(message), expected);
    });
  }

  test('[G-AUTH-4] leaves out what the message does not say instead of guessing', () => {
    assert.deepEqual(parsePermissionMessage('you are not authorised for the target account'), {});
    assert.deepEqual(parsePermissionMessage("scope 'chat' is not granted at the required level"), { scope: 'chat' });
  });
});

describe('error envelope', () => {
  test('[G-ERR-1] parses message, type, code and request_id', () => {
    const env = parseErrorEnvelope('{"error":{"message":"bad","type":"invalid_request_error","code":400,"request_id":"abc"}}');
    assert.deepEqual(env, { message: 'bad', type: 'invalid_request_error', code: 400, request_id: 'abc' });
  });

  test('non-envelope bodies give undefined, never a throw', () => {
    for (const body of ['', '<html>oops</html>', '{"detail":"x"}', '{"error":"text"}', '{broken', 'null', '[1]']) {
      assert.equal(parseErrorEnvelope(body), undefined, body);
    }
  });

  test('[G-ERR-3] a 429 body is never parsed, even when it looks like an envelope', () => {
    const e = errorFromResponse({
      status: 429,
      headerRequestId: 'rid',
      retryAfterMs: undefined,
      bodyText: '{"error":{"message":"from body","type":"permission_error","code":429,"request_id":"other"}}',
    });
    assert.equal(e.reason, 'throttled');
    assert.equal(e.type, undefined);
    assert.notEqual(e.message, 'from body');
    assert.equal(e.requestId, 'rid');
  });

  test('[G-ERR-2] the header request id wins, the envelope one is the fallback', () => {
    const body = '{"error":{"message":"m","type":"server_error","code":500,"request_id":"from-envelope"}}';
    assert.equal(errorFromResponse({ status: 500, headerRequestId: 'from-header', retryAfterMs: undefined, bodyText: body }).requestId, 'from-header');
    assert.equal(errorFromResponse({ status: 500, headerRequestId: undefined, retryAfterMs: undefined, bodyText: body }).requestId, 'from-envelope');
  });

  test('server messages are stripped of secrets before they reach the error', () => {
    const body = JSON.stringify({ error: { message: 'key svc_pat_abcdef123456 and mysecretvalue are bad', type: 'authentication_error', code: 401 } });
    const e = errorFromResponse({ status: 401, headerRequestId: 'r', retryAfterMs: undefined, bodyText: body, knownSecrets: ['mysecretvalue'] });
    assert.doesNotMatch(e.message, /svc_pat_abcdef123456|mysecretvalue/);
    assert.equal(e.reason, 'authentication');
  });

  const statusCases: Array<[number, string | undefined, string]> = [
    [400, 'invalid_request_error', 'invalid_request'],
    [401, 'authentication_error', 'authentication'],
    [403, 'permission_error', 'permission'],
    [403, 'entitlement_required', 'entitlement_required'],
    [403, 'account_required', 'account_required'],
    [403, 'content_policy_violation', 'content_policy'],
    [404, 'not_found_error', 'not_found'],
    [405, 'invalid_request_error', 'method_not_allowed'],
    [409, undefined, 'server'],
    [500, 'server_error', 'server'],
    [502, undefined, 'server'],
    [503, 'entitlement_unavailable', 'unavailable'],
    [503, 'service_unavailable', 'unavailable'],
  ];
  for (const [status, type, reason] of statusCases) {
    test(`[G-ERR-1] ${status} ${type ?? '(no type)'} -> ${reason}`, () => {
      const bodyText = type ? JSON.stringify({ error: { message: 'm', type, code: status, request_id: 'x' } }) : 'plain text';
      const e = errorFromResponse({ status, headerRequestId: undefined, retryAfterMs: undefined, bodyText });
      assert.equal(e.reason, reason);
      assert.equal(e.status, status);
    });
  }
});

describe('Retry-After', () => {
  const now = Date.UTC(2026, 0, 1, 12, 0, 0);
  test('delta seconds', () => {
    assert.equal(parseRetryAfter('3', now), 3000);
    assert.equal(parseRetryAfter('0', now), 0);
    assert.equal(parseRetryAfter(' 1.5 ', now), 1500);
  });
  test('HTTP-date, relative to the clock; past dates give 0', () => {
    assert.equal(parseRetryAfter('Thu, 01 Jan 2026 12:00:07 GMT', now), 7000);
    assert.equal(parseRetryAfter('Thu, 01 Jan 2026 11:00:00 GMT', now), 0);
  });
  test('absent or unreadable values give undefined', () => {
    for (const v of [undefined, '', 'soon', '-1', '1e3']) assert.equal(parseRetryAfter(v, now), undefined, String(v));
  });
});

describe('back-off', () => {
  const settings = { maxAttempts: 5, maxTotalMs: 60_000, baseDelayMs: 100, maxDelayMs: 1000 };
  test('full jitter: uniform below an exponentially growing, capped ceiling', () => {
    assert.deepEqual([1, 2, 3, 4, 5].map((a) => backoffDelay(a, settings, () => 0.999999)), [99, 199, 399, 799, 999]);
    assert.deepEqual([1, 2, 3].map((a) => backoffDelay(a, settings, () => 0)), [0, 0, 0]);
  });
  test('Retry-After wins over the jittered delay', () => {
    assert.equal(backoffDelay(1, settings, () => 0.5, 5000), 5000);
  });
  test('only 429, 503 and failures that provably never reached the server are retryable', () => {
    const mk = (init: Partial<ConstructorParameters<typeof GatewayError>[0]>) => new GatewayError({ reason: 'server', message: 'm', ...init });
    assert.equal(isRetryable(mk({ reason: 'throttled', status: 429 })), true);
    assert.equal(isRetryable(mk({ reason: 'unavailable', status: 503 })), true);
    const transport = (code: string | undefined) => errorFromTransport(Object.assign(new Error('x'), { code }));
    for (const code of ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT']) {
      assert.equal(isRetryable(transport(code)), true, code);
      assert.equal(transport(code).mayHaveReachedServer, false, code);
    }
    // A reset or "other side closed" may come after the gateway read the whole body: not for a POST.
    for (const code of ['ECONNRESET', 'UND_ERR_SOCKET', 'EPIPE', undefined]) {
      assert.equal(isRetryable(transport(code)), false, String(code));
      assert.equal(transport(code).retryable, false, String(code));
      assert.equal(transport(code).mayHaveReachedServer, true, String(code));
      assert.equal(isRetryable(transport(code), { idempotent: true }), true, `GET ${String(code)}`);
    }
    assert.equal(mk({ reason: 'network' }).mayHaveReachedServer, true, 'without proof, assume it was sent');
    assert.equal(isRetryable(transport('DEPTH_ZERO_SELF_SIGNED_CERT')), false);
    assert.equal(transport('DEPTH_ZERO_SELF_SIGNED_CERT').mayHaveReachedServer, false);
    assert.equal(isRetryable(mk({ reason: 'timeout', timeoutPhase: 'connect' })), true);
    assert.equal(isRetryable(mk({ reason: 'timeout', timeoutPhase: 'firstByte' })), false);
    assert.equal(isRetryable(mk({ reason: 'network', partial: true })), false);
    assert.equal(isRetryable(mk({ reason: 'server', status: 500 })), false);
    assert.equal(isRetryable(mk({ reason: 'invalid_request', status: 400 })), false);
  });
});

describe('transport errors', () => {
  test('an abort wins over whatever undici reported', () => {
    const ac = new AbortController();
    ac.abort();
    assert.equal(errorFromTransport(Object.assign(new Error('x'), { code: 'ECONNRESET' }), { signal: ac.signal }).reason, 'aborted');
  });
  test('undici timeout codes map to phases', () => {
    assert.equal(errorFromTransport(Object.assign(new Error('x'), { code: 'UND_ERR_CONNECT_TIMEOUT' })).timeoutPhase, 'connect');
    assert.equal(errorFromTransport(Object.assign(new Error('x'), { code: 'UND_ERR_HEADERS_TIMEOUT' })).timeoutPhase, 'firstByte');
    assert.equal(errorFromTransport(Object.assign(new Error('x'), { code: 'UND_ERR_BODY_TIMEOUT' })).timeoutPhase, 'idle');
    assert.equal(errorFromTransport(new TypeError('fetch failed', { cause: Object.assign(new Error('x'), { code: 'ECONNREFUSED' }) })).reason, 'network');
  });
  test('isGatewayError recognises a GatewayError from another bundle copy', () => {
    const foreign = Object.assign(new Error('m'), { name: 'GatewayError', family: 'gateway', reason: 'throttled', partial: false });
    assert.equal(isGatewayError(foreign), true);
    assert.equal(isGatewayError(new Error('m')), false);
    assert.equal(isGatewayError(new GatewayError({ reason: 'network', message: 'm' })), true);
  });
});
