/**
 * The one error vocabulary: GatewayError, McpCallError and HostingError share the AppError base
 * (src/core/appError.ts), and src/core/errorText.ts `describeError` is the only place that turns any of
 * them into words and actions. Expected words are written out here, never computed.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { AppError, isAppError } from '../../../src/core/appError';
import { GatewayError, isGatewayError, type GatewayErrorInit, type GatewayErrorReason } from '../../../src/core/http/errors';
import { HostingError, isHostingError, type HostingErrorReason } from '../../../src/core/account/hosting';
import { isMcpCallError, McpCallError, type McpFailureReason } from '../../../src/core/mcp/errors';
import { describeError, type ErrorAction } from '../../../src/core/errorText';

interface Row {
  message: string;
  actions: ErrorAction[];
}

function words(e: unknown, operation?: Parameters<typeof describeError>[1]): Row {
  const t = describeError(e, operation);
  return { message: t.message, actions: t.actions };
}

describe('gateway errors in words', () => {
  const g = (reason: GatewayErrorReason, message: string, extra: Partial<GatewayErrorInit> = {}): GatewayError => new GatewayError({ reason, message, ...extra });
  // Every reason of GatewayErrorReason, with the status or phase the classifier gives it.
  const cases: Array<[string, GatewayError, Row]> = [
    ['authentication', g('authentication', 'invalid or revoked API key', { status: 401 }), { message: 'The gateway refused the API key (401): it is missing, invalid or revoked. Set a valid API key.', actions: ['setApiKey'] }],
    ['permission (parsed)', g('permission', 'm', { status: 403, permission: { scope: 'image', required: 'write', granted: 'read' } }), { message: 'This API key lacks the "image" scope at write level (this key has read). Use a key with that permission, or change the key\'s permissions in the portal.', actions: [] }],
    ['permission (not parsed)', g('permission', 'no access to that', { status: 403 }), { message: 'Permission denied (403): no access to that', actions: [] }],
    ['entitlement_required', g('entitlement_required', 'x', { status: 403 }), { message: 'Your account is not entitled to the AI gateway (403 entitlement_required).', actions: [] }],
    ['account_required', g('account_required', 'x', { status: 403 }), { message: 'No billing account could be resolved for this key (403 account_required).', actions: [] }],
    ['content_policy', g('content_policy', 'category: violence', { status: 403 }), { message: 'Blocked by content moderation.', actions: [] }],
    ['throttled', g('throttled', 'x', { status: 429 }), { message: 'The gateway is throttling requests (429). Wait a moment and try again.', actions: ['retry'] }],
    ['unavailable', g('unavailable', 'x', { status: 503 }), { message: 'The gateway is temporarily unavailable (503). Try again shortly.', actions: ['retry'] }],
    ['invalid_request', g('invalid_request', 'max_tokens is too large', { status: 400 }), { message: 'The gateway rejected the request (400): max_tokens is too large', actions: [] }],
    ['not_found', g('not_found', 'no such model', { status: 404 }), { message: 'Not found (404): no such model', actions: [] }],
    ['method_not_allowed', g('method_not_allowed', 'Method not allowed on this gateway route', { status: 405 }), { message: 'Method not allowed on this gateway route', actions: [] }],
    ['server', g('server', 'The gateway answered with HTTP 502', { status: 502 }), { message: 'The gateway answered with HTTP 502', actions: ['retry'] }],
    [
      'network, never sent',
      g('network', 'Could not reach the gateway (ECONNREFUSED)', { code: 'ECONNREFUSED', mayHaveReachedServer: false }),
      { message: 'Could not reach the gateway: Could not reach the gateway (ECONNREFUSED). Check aiGateway.baseUrl and your proxy settings.', actions: ['retry', 'openSettings'] },
    ],
    [
      'network, maybe received',
      g('network', 'The connection to the gateway broke before the response (UND_ERR_SOCKET)', { code: 'UND_ERR_SOCKET' }),
      { message: 'The connection to the gateway broke before the response (UND_ERR_SOCKET). The gateway may have received this request; check before retrying.', actions: ['retry', 'openSettings'] },
    ],
    ['timeout, connect', g('timeout', 'x', { timeoutPhase: 'connect' }), { message: 'The gateway did not answer in time (connect timeout).', actions: ['retry', 'openSettings'] }],
    [
      'timeout, first byte',
      g('timeout', 'x', { timeoutPhase: 'firstByte' }),
      { message: 'The gateway did not answer in time (firstByte timeout). The gateway may have received this request; check before retrying.', actions: ['retry'] },
    ],
    ['aborted', g('aborted', 'The request was cancelled'), { message: 'Cancelled.', actions: [] }],
    ['protocol', g('protocol', 'The gateway sent a response that is not JSON'), { message: 'The gateway sent a response that is not JSON', actions: [] }],
  ];
  for (const [name, error, expected] of cases) {
    test(`${name}: words and actions`, () => assert.deepEqual(words(error), expected));
  }

  test('[G-CHAT-4] a moderation block names no category, even when the server sent one', () => {
    assert.doesNotMatch(describeError(g('content_policy', 'category: violence')).message, /violence/);
  });

  test('[G-AUTH-3] the request id and the settings key travel with the words; only aborted is a cancellation', () => {
    const t = describeError(g('network', 'Could not reach the gateway (ENOTFOUND)', { mayHaveReachedServer: false, requestId: 'req-7' }), 'Loading models');
    assert.equal(t.message, 'Loading models: Could not reach the gateway: Could not reach the gateway (ENOTFOUND). Check aiGateway.baseUrl and your proxy settings.');
    assert.equal(t.requestId, 'req-7');
    assert.equal(t.settingKey, 'aiGateway.baseUrl');
    assert.equal(t.cancelled, false);
    assert.equal(describeError(g('aborted', 'x')).cancelled, true);
  });
});

describe('MCP errors in words', () => {
  const m = (reason: McpFailureReason, message: string, extra: Partial<ConstructorParameters<typeof McpCallError>[0]> = {}): McpCallError => new McpCallError({ reason, message, ...extra });
  const ADVICE = 'The change may still have happened: the request was sent but no answer arrived. Check the site before running it again.';
  // Every reason of McpFailureReason.
  const cases: Array<[string, McpCallError, Row]> = [
    ['http', m('http', 'HTTP 500 from the MCP server', { status: 500 }), { message: 'HTTP 500 from the MCP server', actions: [] }],
    ['authentication', m('authentication', 'invalid or revoked API key', { status: 401 }), { message: 'invalid or revoked API key — check the API key (or identity token).', actions: ['setApiKey'] }],
    [
      'permission, mcp at read',
      m('permission', "insufficient permission: scope 'mcp' requires write, key has read", { status: 403 }),
      { message: "insufficient permission: scope 'mcp' requires write, key has read — tool calls need mcp at write; this key has read only.", actions: [] },
    ],
    ['permission, other', m('permission', 'forbidden', { status: 403 }), { message: 'forbidden', actions: [] }],
    ['jsonrpc', m('jsonrpc', 'Unknown tool: nope', { code: -32602 }), { message: 'Unknown tool: nope', actions: [] }],
    ['timeout (outcome unknown)', m('timeout', 'Request timed out', { outcomeUnknown: true }), { message: `Outcome unknown: Request timed out\n${ADVICE}`, actions: [] }],
    ['aborted', m('aborted', 'Cancelled.', { outcomeUnknown: true }), { message: 'Cancelled before the result arrived. If the tool writes, the change may still have happened.', actions: [] }],
    ['network, never sent', m('network', 'fetch failed (ECONNREFUSED)'), { message: 'fetch failed (ECONNREFUSED) — check the server address and your proxy settings.', actions: ['retry'] }],
    ['network, maybe received', m('network', 'socket hang up', { outcomeUnknown: true }), { message: `Outcome unknown: socket hang up\n${ADVICE}`, actions: [] }],
    ['protocol', m('protocol', 'The MCP server sent an event that is not JSON', { outcomeUnknown: true }), { message: `Outcome unknown: The MCP server sent an event that is not JSON\n${ADVICE}`, actions: [] }],
  ];
  for (const [name, error, expected] of cases) {
    test(`${name}: words and actions`, () => assert.deepEqual(words(error), expected));
  }

  test('[G-MCP-13] a call whose outcome is unknown never offers Retry, whatever its reason', () => {
    for (const reason of ['http', 'timeout', 'network', 'protocol', 'jsonrpc'] as const) {
      assert.ok(!describeError(m(reason, 'x', { outcomeUnknown: true })).actions.includes('retry'), reason);
    }
  });

  test('the first request id of the call is the base requestId', () => {
    const e = m('http', 'x', { requestIds: ['r1', 'r2'] });
    assert.equal(e.requestId, 'r1');
    assert.equal(describeError(e).requestId, 'r1');
  });
});

describe('hosting errors in words', () => {
  const h = (reason: HostingErrorReason, message: string, status?: number, docs?: string, details: HostingError['errors'] = []): HostingError => new HostingError(reason, message, status, docs, details);
  // Every reason of HostingErrorReason, without an operation.
  const cases: Array<[string, HostingError, Row]> = [
    ['invalid_request', h('invalid_request', 'Bad request', 400), { message: 'Refused (400): Bad request.', actions: [] }],
    ['authentication', h('authentication', 'Bad credentials', 401), { message: 'The hosting API refused the credentials (401): Bad credentials. Set your hosting API username and password.', actions: ['setHostingCredentials'] }],
    ['permission', h('permission', 'Forbidden', 403), { message: 'Not allowed (403): Forbidden. Your user needs the right access on this install, site or account.', actions: [] }],
    ['not_found', h('not_found', 'Not Found', 404), { message: 'Not found (404): Not Found. Check the id.', actions: [] }],
    ['conflict', h('conflict', 'Conflict', 409), { message: 'conflict (409): Conflict.', actions: [] }],
    [
      'validation, with details and docs',
      h('validation', 'Validation failed', 422, 'https://docs.example/errors', [{ field: 'scheduled_time', message: 'must be at least 1 hour ahead' }]),
      { message: 'Refused (422): Validation failed (scheduled_time: must be at least 1 hour ahead).', actions: ['openDocs'] },
    ],
    ['throttled', h('throttled', 'Too many requests to the hosting API; try again shortly', 429), { message: 'Too many requests to the hosting API; try again shortly.', actions: ['retry'] }],
    ['server', h('server', 'Internal error', 500), { message: 'Internal error.', actions: ['retry'] }],
    ['unavailable', h('unavailable', 'The hosting API is temporarily unavailable; try again shortly', 503), { message: 'The hosting API is temporarily unavailable; try again shortly.', actions: ['retry'] }],
    [
      'network',
      h('network', 'Could not reach the hosting API (ECONNREFUSED)'),
      { message: 'Could not reach the hosting API (ECONNREFUSED). Check aiGateway.hosting.baseUrl and your proxy settings.', actions: ['openSettings', 'retry'] },
    ],
    ['timeout', h('timeout', 'The hosting API did not answer in time'), { message: 'The hosting API did not answer in time.', actions: ['retry'] }],
    ['protocol', h('protocol', 'The hosting API sent a response that is not JSON', 200), { message: 'The hosting API sent a response that is not JSON.', actions: [] }],
    ['aborted', h('aborted', 'The request was cancelled'), { message: 'Cancelled.', actions: [] }],
  ];
  for (const [name, error, expected] of cases) {
    test(`${name}: words and actions`, () => assert.deepEqual(words(error), expected));
  }

  test('[H-CE-6] [H-TR-7] the operation names what failed and what a 409 means for it', () => {
    const conflict = h('conflict', 'Conflict', 409);
    assert.deepEqual(words(conflict, { operation: 'saveExclusions' }), {
      message:
        'Saving cache exclusions: the install is transferable, so its cache exclusions cannot be modified until the transfer is done or cancelled (409: Conflict). Your edits are kept in the editor; nothing was changed on the server.',
      actions: [],
    });
    assert.equal(
      describeError(conflict, { operation: 'cancelTransfer' }).message,
      'Cancelling the site transfer: the transfer has already started and can no longer be cancelled (409: Conflict). Nothing was changed.',
    );
    assert.equal(
      describeError(h('aborted', 'x'), { operation: 'saveExclusions' }).message,
      'Saving cache exclusions: Save cancelled. The server may or may not have applied it; your edits are kept in the editor (reopen the document to see the server list).',
    );
    assert.equal(
      describeError(h('server', 'Internal error', 500), { operation: 'saveExclusions' }).message,
      'Saving cache exclusions: Internal error. Your edits are kept in the editor; the server may or may not have applied them (close and reopen the document to see its list).',
    );
  });

  test('the documentation link and the settings key travel with the words', () => {
    const t = describeError(h('validation', 'x', 422, 'https://docs.example/errors'));
    assert.equal(t.documentationUrl, 'https://docs.example/errors');
    assert.equal(describeError(h('network', 'x')).settingKey, 'aiGateway.hosting.baseUrl');
  });
});

describe('anything else thrown', () => {
  test('an Error keeps its message and gets no action; a string is its own message', () => {
    assert.deepEqual(words(new Error('disk full')), { message: 'disk full', actions: [] });
    assert.deepEqual(words('plain text', 'Saving'), { message: 'Saving: plain text', actions: [] });
  });
});

describe('one base, one structural guard', () => {
  test('every family is an AppError carrying reason, status, requestId, partial and cause', () => {
    const cause = new Error('root');
    const errors: AppError[] = [
      new GatewayError({ reason: 'server', message: 'x', status: 502, requestId: 'g1', partial: true, cause }),
      new McpCallError({ reason: 'http', message: 'x', status: 502, requestIds: ['m1'], cause }),
      new HostingError('server', 'x', 502, undefined, [], { requestId: 'h1', partial: true, cause }),
    ];
    assert.deepEqual(
      errors.map((e) => [e instanceof AppError, e.family, e.reason, e.status, e.requestId, e.partial, e.cause === cause]),
      [
        [true, 'gateway', 'server', 502, 'g1', true, true],
        [true, 'mcp', 'http', 502, 'm1', false, true],
        [true, 'hosting', 'server', 502, 'h1', true, true],
      ],
    );
  });

  test('an error shaped like another bundle\'s copy is recognised by every guard; look-alikes are not', () => {
    const foreign = (family: string, extra: Record<string, unknown> = {}): Error => Object.assign(new Error('m'), { family, reason: 'server', partial: false, ...extra });
    assert.ok(isAppError(foreign('gateway')) && isGatewayError(foreign('gateway')) && !isMcpCallError(foreign('gateway')));
    assert.ok(isMcpCallError(foreign('mcp', { outcomeUnknown: false, requestIds: [] })) && !isHostingError(foreign('mcp')));
    assert.ok(isHostingError(foreign('hosting', { errors: [] })) && !isGatewayError(foreign('hosting')));
    assert.equal(isAppError(foreign('billing')), false, 'an unknown family');
    assert.equal(isAppError(Object.assign(new Error('m'), { family: 'gateway', reason: 'server' })), false, 'no partial flag');
    assert.equal(isAppError({ family: 'gateway', reason: 'server', partial: false, message: 'm' }), false, 'not an Error');
    assert.equal(isAppError(Object.assign(new Error('m'), { name: 'GatewayError', reason: 'server', partial: false })), false, 'a name alone is no brand');
    assert.equal(describeError(foreign('gateway', { reason: 'throttled' })).message, 'The gateway is throttling requests (429). Wait a moment and try again.');
  });

  test('the classes of a separately bundled copy (as in a second bundle) are recognised and described', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'app-error-bundle-'));
    try {
      const entry = path.join(dir, 'entry.ts');
      const root = path.resolve('src/core');
      writeFileSync(
        entry,
        [
          `export { GatewayError } from ${JSON.stringify(path.join(root, 'http/errors'))};`,
          `export { McpCallError } from ${JSON.stringify(path.join(root, 'mcp/errors'))};`,
          `export { HostingError } from ${JSON.stringify(path.join(root, 'account/hosting'))};`,
        ].join('\n'),
      );
      const out = path.join(dir, 'other.cjs');
      await esbuild.build({ entryPoints: [entry], bundle: true, platform: 'node', format: 'cjs', outfile: out, logLevel: 'silent' });
      const other = createRequire(path.join(process.cwd(), 'package.json'))(out) as { GatewayError: typeof GatewayError; McpCallError: typeof McpCallError; HostingError: typeof HostingError };
      const g = new other.GatewayError({ reason: 'authentication', message: 'x', status: 401 });
      const m = new other.McpCallError({ reason: 'jsonrpc', message: 'Unknown tool' });
      const h = new other.HostingError('authentication', 'Bad credentials', 401);
      assert.equal(g instanceof GatewayError, false, 'really a different class');
      assert.ok(isGatewayError(g) && isMcpCallError(m) && isHostingError(h));
      assert.deepEqual(words(g).actions, ['setApiKey']);
      assert.equal(words(m).message, 'Unknown tool');
      assert.deepEqual(words(h).actions, ['setHostingCredentials']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('secrets never reach the words', () => {
  const KEY = 'svc_pat_Leaked0123456789';
  const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VyIn0.c2lnbmF0dXJl';
  const PASSWORD = 'hunter2-hosting-pass';
  const text = `failed with ${KEY} and Bearer ${JWT} via https://owner:${PASSWORD}@hosting.example/ ?api_key=${PASSWORD}`;
  const leaks = (s: string): string[] => [KEY, JWT, PASSWORD, 'Leaked0123'].filter((x) => s.includes(x));

  const gatewayReasons: GatewayErrorReason[] = ['authentication', 'permission', 'entitlement_required', 'account_required', 'content_policy', 'throttled', 'unavailable', 'invalid_request', 'not_found', 'method_not_allowed', 'server', 'network', 'timeout', 'aborted', 'protocol'];
  const mcpReasons: McpFailureReason[] = ['http', 'authentication', 'permission', 'jsonrpc', 'timeout', 'aborted', 'network', 'protocol'];
  const hostingReasons: HostingErrorReason[] = ['invalid_request', 'authentication', 'permission', 'not_found', 'conflict', 'validation', 'throttled', 'server', 'unavailable', 'network', 'timeout', 'protocol', 'aborted'];

  test('no family and no reason lets a key, a JWT or a password through, in the message or a detail', () => {
    const all: unknown[] = [
      ...gatewayReasons.map((reason) => new GatewayError({ reason, message: text, permission: reason === 'permission' ? { scope: KEY } : undefined })),
      ...gatewayReasons.map((reason) => new GatewayError({ reason, message: text, mayHaveReachedServer: false })),
      ...mcpReasons.flatMap((reason) => [new McpCallError({ reason, message: text }), new McpCallError({ reason, message: text, outcomeUnknown: true })]),
      ...hostingReasons.map((reason) => new HostingError(reason, text, 422, undefined, [{ field: 'password', message: text }])),
      new Error(text),
      text,
    ];
    for (const e of all) {
      for (const operation of [undefined, 'saveExclusions', 'transfer'] as const) {
        const t = describeError(e, { operation, context: 'Doing it' });
        assert.deepEqual(leaks(t.message), [], `${String((e as { family?: string }).family)} ${String((e as { reason?: string }).reason)}: ${t.message}`);
      }
    }
  });

  test('a known secret of the caller is removed even when it looks like nothing', () => {
    const t = describeError(new HostingError('authentication', `user owner password plainpass42 refused`, 401), { knownSecrets: ['plainpass42'] });
    assert.doesNotMatch(t.message, /plainpass42/);
    assert.match(t.message, /refused/);
  });
});
