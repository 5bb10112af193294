/**
 * Property tests for the gateway's error contract readers (src/core/http/classify.ts): the error
 * envelope classifier and the 403 permission-message parser. Both read server text, so:
 * - nothing escapes but a GatewayError (errorFromResponse, errorFromTransport) or a plain result
 *   (parseErrorEnvelope, parsePermissionMessage), whatever the server sends;
 * - the counted work is at most a constant per character, and stops growing at the documented cap;
 * - every phrasing the parser documents is read back from generated messages with noise around them.
 * Work is counted through a WorkCounter, never timed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { errorFromResponse, errorFromTransport, parseErrorEnvelope, parsePermissionMessage } from '../../../src/core/http/classify';
import { DEFAULT_LIMITS } from '../../../src/core/http/policy';
import { GatewayError } from '../../../src/core/http/errors';
import { MAX_SERVER_TEXT_CHARS, type WorkCounter } from '../../../src/core/log';

const RUNS = 10_000;
/** The envelope parser's limit is the network layer's error-body limit. */
const MAX_ERROR_BODY_CHARS = DEFAULT_LIMITS.maxErrorBodyBytes;
const STEPS_PER_CHAR = 64;
const LEVELS = ['none', 'read', 'write'] as const;
const REASONS = new Set([
  'authentication', 'permission', 'entitlement_required', 'account_required', 'content_policy', 'throttled', 'unavailable',
  'invalid_request', 'not_found', 'method_not_allowed', 'server', 'network', 'timeout', 'aborted', 'protocol',
]);

/** Words and characters the permission phrasings are made of, and their near-misses. */
const WORDS = [
  'scope', 'Scope', 'scopes', 'scope.', 'access', 'permission', 'to', 'on', 'for', 'require', 'requires', 'required', 'REQUIRED', 'need', 'needs',
  'lack', 'lacks', 'granted', 'has', 'have', 'current', 'actual', 'got', 'level', 'only', 'is', 'at', 'least', 'none', 'read', 'write', 'writer',
  'read-only', 'write.', 'chat', 'image', 'a.b-c', '9x', 'é', ' ', '  ', '\n', ':', '=', "'", '"', '`', '“', '’', '(', ')', ',', ';', '.', '-',
];
const permissionText = fc.array(fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...WORDS) }, { weight: 1, arbitrary: fc.string({ maxLength: 3 }) }), { maxLength: 40 }).map((a) => a.join(''));

function permissionWork(message: string): number {
  const w: WorkCounter = { steps: 0 };
  parsePermissionMessage(message, w);
  return w.steps;
}

test(`parsePermissionMessage returns only what it documents, on ${RUNS} hostile messages`, () => {
  fc.assert(
    fc.property(fc.oneof(permissionText, fc.string({ unit: 'binary', maxLength: 120 })), (message) => {
      const d = parsePermissionMessage(message);
      assert.deepEqual(Object.keys(d).filter((k) => !['scope', 'required', 'granted'].includes(k)), []);
      if (d.scope !== undefined) {
        assert.match(d.scope, /^[a-z][a-z0-9_.-]*$/);
        assert.ok(!(LEVELS as readonly string[]).includes(d.scope));
      }
      for (const level of [d.required, d.granted]) if (level !== undefined) assert.ok((LEVELS as readonly string[]).includes(level), level);
    }),
    { numRuns: RUNS },
  );
});

test(`parsePermissionMessage reads every documented phrasing back, with noise around it, on ${RUNS} messages`, () => {
  const scopeName = fc.stringMatching(/^[a-z][a-z0-9_]{0,10}$/).filter((s) => !['none', 'read', 'write', 'scope', 'is', 'to', 'on', 'for'].includes(s));
  const level = fc.constantFrom(...LEVELS);
  const quote = fc.constantFrom('', "'", '"', '`', '“');
  const scopePhrase = fc.tuple(fc.constantFrom(0, 1, 2, 3), scopeName, quote).map(([form, name, q]) => {
    const close = q === '“' ? '”' : q;
    return [`scope ${q}${name}${close}`, `scope: ${name}`, `scope=${name}`, `the ${q}${name}${close} scope`][form];
  });
  const requiredPhrase = fc.tuple(fc.constantFrom(0, 1, 2, 3, 4, 5), level).map(([form, l]) =>
    [`requires ${l}`, `required: ${l}`, `required level is ${l}`, `needs ${l.toUpperCase()}`, `lacks ${l} access`, `${l} is required`][form],
  );
  const grantedPhrase = fc.tuple(fc.constantFrom(0, 1, 2, 3, 4), level).map(([form, l]) => [`key has ${l}`, `granted: ${l}`, `has only ${l}`, `granted level is ${l}`, `${l} granted`][form]);
  // Noise made of words that are not part of any phrasing.
  const noise = fc.array(fc.constantFrom('the', 'key', 'denied', 'API', 'sorry', '(', ')', ';', ',', 'x9', 'please', 'contact', 'admin'), { maxLength: 6 }).map((a) => a.join(' '));
  fc.assert(
    fc.property(noise, scopePhrase, noise, requiredPhrase, noise, grantedPhrase, noise, (n1, s, n2, r, n3, g, n4) => {
      const message = `${n1} ${s}, ${n2} ${r}; ${n3} ${g} ${n4}`;
      const d = parsePermissionMessage(message);
      const scope = /(?:scope[ :=]+[`'"“]?|the [`'"“]?)([a-z][a-z0-9_]*)/.exec(s)?.[1];
      const required = /(none|read|write)/i.exec(r)?.[1].toLowerCase();
      const granted = /(none|read|write)/.exec(g)?.[1];
      assert.deepEqual(d, { scope, required, granted }, message);
    }),
    { numRuns: RUNS },
  );
});

test(`parsePermissionMessage work is linear and stops growing at the cap, on ${RUNS} repeated fragments`, () => {
  fc.assert(
    fc.property(permissionText.filter((t) => t.length > 0), fc.integer({ min: 1, max: 300 }), (unit, times) => {
      const text = unit.repeat(times);
      const steps = permissionWork(text);
      assert.ok(steps > 0, 'the work counter must count');
      const read = Math.min(text.length, MAX_SERVER_TEXT_CHARS);
      assert.ok(steps <= STEPS_PER_CHAR * (read + 1), `${steps} steps for ${text.length} characters of ${JSON.stringify(unit)}`);
    }),
    { numRuns: RUNS },
  );
});

test('a 128 K-character permission message costs no more than one at the cap', () => {
  for (const unit of ['a', 'a ', "'x' ", 'scope ', 'requires ', 'has level ', 'write ']) {
    const atCap = permissionWork(unit.repeat(Math.ceil(MAX_SERVER_TEXT_CHARS / unit.length)));
    assert.ok(atCap > 0, 'the work counter must count');
    assert.equal(permissionWork(unit.repeat(Math.ceil((128 * 1024) / unit.length))), atCap, JSON.stringify(unit));
  }
});

// Bodies: envelopes with hostile fields, JSON that is not an envelope, and text that is not JSON.
const jsonish = fc.oneof(
  fc.record(
    {
      error: fc.oneof(
        fc.record({ message: fc.oneof(permissionText, fc.string(), fc.jsonValue()), type: fc.oneof(fc.constantFrom('permission_error', 'entitlement_required', 'account_required', 'content_policy_violation', 'x'), fc.jsonValue()), code: fc.oneof(fc.integer(), fc.string(), fc.jsonValue()), request_id: fc.oneof(fc.string(), fc.jsonValue()) }, { requiredKeys: [] }),
        fc.jsonValue(),
      ),
    },
    { requiredKeys: [] },
  ).map((v) => JSON.stringify(v)),
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc.string({ unit: 'binary', maxLength: 100 }),
  fc.constantFrom('{', '{"error":', '{"error":{"message":', ' \n{"error":{}}', '<html>429</html>'),
);

test(`errorFromResponse turns every status and body into a GatewayError, on ${RUNS} responses`, () => {
  fc.assert(
    fc.property(fc.integer({ min: 100, max: 599 }), fc.option(jsonish, { nil: undefined }), fc.option(fc.string({ maxLength: 20 }), { nil: undefined }), (status, bodyText, headerRequestId) => {
      const w: WorkCounter = { steps: 0 };
      const e = errorFromResponse({ status, headerRequestId, retryAfterMs: undefined, bodyText, knownSecrets: ['svc_pat_fuzzkey'], work: w });
      assert.ok(e instanceof GatewayError);
      assert.ok(REASONS.has(e.reason), e.reason);
      assert.equal(e.status, status);
      assert.equal(typeof e.message, 'string');
      assert.ok(e.message.length > 0 && e.message.length <= MAX_SERVER_TEXT_CHARS + 64);
      assert.ok(w.steps <= STEPS_PER_CHAR * 2 * ((bodyText?.length ?? 0) + 1), `${w.steps} steps for a ${bodyText?.length}-character body`);
      if (e.permission) assert.equal(e.reason, 'permission');
    }),
    { numRuns: RUNS },
  );
});

test(`parseErrorEnvelope never throws and reads only the documented fields, on ${RUNS} bodies`, () => {
  fc.assert(
    fc.property(jsonish, (body) => {
      const env = parseErrorEnvelope(body);
      if (env === undefined) return;
      assert.deepEqual(Object.keys(env).sort(), ['code', 'message', 'request_id', 'type']);
      if (env.code !== undefined) assert.equal(typeof env.code, 'number');
      for (const k of ['message', 'type', 'request_id'] as const) if (env[k] !== undefined) assert.equal(typeof env[k], 'string');
    }),
    { numRuns: RUNS },
  );
});

test('a long server message is cut to the cap before it is redacted, parsed or shown', () => {
  const message = `insufficient permission: scope 'image' requires write, key has none. ${'svc_pat_abcdef1234 -eyJ-eyJ '.repeat(2_000)}`;
  const body = JSON.stringify({ error: { message, type: 'permission_error', code: 403 } });
  assert.ok(body.length < MAX_ERROR_BODY_CHARS);
  const e = errorFromResponse({ status: 403, headerRequestId: 'r', retryAfterMs: undefined, bodyText: body });
  assert.ok(e.message.length <= MAX_SERVER_TEXT_CHARS + 64, String(e.message.length));
  assert.match(e.message, /more characters not shown\]$/);
  assert.doesNotMatch(e.message, /svc_pat_abcdef1234/);
  assert.deepEqual(e.permission, { scope: 'image', required: 'write', granted: 'none' });
});

test('a body over the parse limit is not parsed: the status decides', () => {
  const body = JSON.stringify({ error: { message: 'x'.repeat(MAX_ERROR_BODY_CHARS), type: 'entitlement_required', code: 403 } });
  const e = errorFromResponse({ status: 403, headerRequestId: undefined, retryAfterMs: undefined, bodyText: body });
  assert.equal(e.reason, 'permission');
  assert.equal(e.type, undefined);
});

test(`errorFromTransport turns anything thrown into a GatewayError, on ${RUNS} values`, () => {
  const codes = fc.constantFrom('ECONNREFUSED', 'ECONNRESET', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_ABORTED', 'ABORT_ERR', 'CERT_HAS_EXPIRED', 'x');
  const thrown = fc.oneof(
    fc.anything(),
    fc.tuple(fc.string(), fc.option(codes)).map(([m, code]) => Object.assign(new Error(m), code ? { code } : {})),
    fc.tuple(fc.string(), codes).map(([m, code]) => new TypeError(m, { cause: { code } })),
  );
  fc.assert(
    fc.property(thrown, fc.boolean(), fc.boolean(), (err, aborted, partial) => {
      const ac = new AbortController();
      if (aborted) ac.abort();
      const e = errorFromTransport(err, { signal: ac.signal, partial });
      assert.ok(e instanceof GatewayError);
      assert.ok(REASONS.has(e.reason));
      if (aborted) assert.equal(e.reason, 'aborted');
    }),
    { numRuns: RUNS },
  );
});
