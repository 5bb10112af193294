import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { KeyStore, SECRET_KEY_PREFIX, type KeyInfo } from '../../../src/core/keys/keyStore';
import {
  rotationReducer,
  RotationTransitionError,
  runRotation,
  startRotation,
  temporaryReplacementName,
  replacementCheck,
  scopeDifferences,
  type ReplacementCheck,
  type RotationPrompts,
  type RotationState,
} from '../../../src/core/keys/rotation';
import { CHECKED_SCOPES, checkKeyScopes, type ScopeFindingLevel, type ScopeReport } from '../../../src/core/keys/scopeCheck';
import { createGatewayClient } from '../../../src/core/gateway/gatewayClient';
import { GatewayError } from '../../../src/core/http/errors';
import { LOCAL_KEYS, restrictedScopes } from '../../localGateway/keys';
import { startGateway } from '../../localGateway/server';
import { SharedBackend } from './memoryStores';

const OLD = 'svc_pat_rotation_old_key_0001';
const NEW = 'svc_pat_rotation_new_key_0002';
const ACCOUNT = 'svc_rotation_account_key_0003';

const oldKey: KeyInfo = { id: 'old', name: 'work', type: 'User', suffix: '0001', addedAt: '2026-01-01T00:00:00.000Z' };
const newKey: KeyInfo = { id: 'new', name: 'work (new)', type: 'User', suffix: '0002', addedAt: '2026-01-01T00:00:00.000Z' };
/** A per-scope report with every checked scope at `level` (or as given). */
function report(level: ScopeFindingLevel, overrides: Partial<Record<string, ScopeFindingLevel>> = {}): ScopeReport {
  return { kind: 'scopes', billed: false, findings: CHECKED_SCOPES.map((scope) => ({ scope, level: overrides[scope] ?? level })) };
}
const full = report('write');
const revokedReport: ScopeReport = { kind: 'invalid', message: 'invalid or revoked API key', requestId: 'r2' };
const valid: ReplacementCheck = { kind: 'usable', findings: full.kind === 'scopes' ? full.findings : [], differences: [], compared: true };
const revoked: ReplacementCheck = { kind: 'failed', report: revokedReport };

describe('rotation state machine (pure)', () => {
  test('[G-AUTH-8] the happy path: replacement of the same type -> verify -> switch -> revoke in portal -> remove old', () => {
    let s: RotationState = startRotation(oldKey);
    const steps = [s.step];
    for (const e of [
      { type: 'replacement-entered', name: 'work (new)', keyType: 'User' },
      { type: 'replacement-added', replacement: newKey },
      { type: 'verified', result: valid },
      { type: 'switched' },
      { type: 'revoke-confirmed' },
      { type: 'old-removed' },
    ] as const) {
      s = rotationReducer(s, e);
      steps.push(s.step);
    }
    assert.deepEqual(steps, ['awaiting-replacement', 'adding', 'verifying', 'switching', 'awaiting-revoke', 'removing-old', 'done']);
  });

  test('[G-AUTH-8] a replacement of the other type is refused and the flow waits for another', () => {
    const s = rotationReducer(startRotation(oldKey), { type: 'replacement-entered', name: 'x', keyType: 'Account' });
    assert.equal(s.step, 'awaiting-replacement');
    assert.match(s.step === 'awaiting-replacement' ? (s.error ?? '') : '', /must be a User key/);
  });

  test('[G-AUTH-8] a failed verification goes to verify-failed, never to switching; cancel keeps the old key active', () => {
    let s: RotationState = { step: 'verifying', old: oldKey, replacement: newKey };
    s = rotationReducer(s, { type: 'verified', result: revoked });
    assert.equal(s.step, 'verify-failed');
    assert.throws(() => rotationReducer(s, { type: 'switched' }), RotationTransitionError);
    const cancelled = rotationReducer(s, { type: 'cancel' });
    assert.deepEqual(cancelled, { step: 'cancelled', old: oldKey, replacement: newKey, activeId: 'old' });
  });

  test('[G-AUTH-9] the old key cannot be removed before the user confirmed its revocation', () => {
    const s: RotationState = { step: 'awaiting-revoke', old: oldKey, replacement: newKey };
    assert.throws(() => rotationReducer(s, { type: 'old-removed' }), RotationTransitionError);
    assert.deepEqual(rotationReducer(s, { type: 'cancel' }), { step: 'cancelled', old: oldKey, replacement: newKey, activeId: 'new' });
  });

  test('finished flows accept no more events', () => {
    const done: RotationState = { step: 'done', old: oldKey, replacement: newKey };
    assert.throws(() => rotationReducer(done, { type: 'cancel' }), RotationTransitionError);
    assert.throws(() => rotationReducer(done, { type: 'retry' }), RotationTransitionError);
  });
});

/** Prompts scripted by the test; every question asked is recorded. */
function scripted(answers: {
  replacements: ({ name: string; secret: string } | undefined)[];
  afterFailure?: ('retry' | undefined)[];
  differences?: ('switch' | 'retry' | undefined)[];
  revoked?: boolean;
}): RotationPrompts & { asked: string[]; errors: string[] } {
  const asked: string[] = [];
  const errors: string[] = [];
  return {
    asked,
    errors,
    askReplacement: async (s) => {
      asked.push('replacement');
      if (s.error) errors.push(s.error);
      return answers.replacements.shift();
    },
    askAfterVerifyFailure: async () => {
      asked.push('after-failure');
      return answers.afterFailure?.shift();
    },
    askAboutDifferences: async (s) => {
      asked.push(`differences: ${s.result.differences.map((d) => `${d.scope} ${d.old}->${d.replacement}`).join(', ')}`);
      return answers.differences?.shift();
    },
    askRevokeConfirmed: async () => {
      asked.push('revoke');
      return answers.revoked ?? true;
    },
  };
}

async function setup() {
  const backend = new SharedBackend();
  const w = backend.window();
  let n = 0;
  const store = new KeyStore(w.secrets, w.state, { newId: () => `k${++n}` });
  const old = await store.add('work', OLD);
  return { backend, store, old };
}

describe('runRotation over a KeyStore', () => {
  test('[G-AUTH-8] completes: the replacement is verified with its own secret, activated, the old key removed and its name taken over', async () => {
    const { backend, store, old } = await setup();
    const verified: string[] = [];
    const prompts = scripted({ replacements: [{ name: temporaryReplacementName('work'), secret: NEW }] });
    const final = await runRotation(old.id, {
      store,
      prompts,
      checkScopes: async (secret) => {
        verified.push(secret === NEW ? 'new' : secret === OLD ? 'old' : 'other');
        assert.equal(store.active?.id, old.id, 'the old key stays active while the replacement is verified');
        return full;
      },
    });
    assert.equal(final.step, 'done');
    assert.deepEqual(verified, ['new', 'old'], 'the replacement is checked with its own secret, then the old key once, to compare');
    assert.deepEqual(prompts.asked, ['replacement', 'revoke']);
    assert.deepEqual(
      store.list().map((k) => [k.name, k.suffix]),
      [['work', '0002']],
    );
    assert.equal(store.active?.suffix, '0002');
    assert.equal(backend.secrets.has(SECRET_KEY_PREFIX + old.id), false);
    assert.equal(await store.getActiveSecret(), NEW);
  });

  test('[G-AUTH-8] a replacement of another type is refused before it is stored, then a right one is accepted', async () => {
    const { backend, store, old } = await setup();
    const prompts = scripted({ replacements: [{ name: 'ci', secret: ACCOUNT }, { name: 'work 2', secret: NEW }] });
    const secretsSeen: number[] = [];
    const final = await runRotation(old.id, {
      store,
      prompts,
      checkScopes: async (secret) => {
        if (secret !== OLD) secretsSeen.push(backend.secrets.size);
        return full;
      },
    });
    assert.equal(final.step, 'done');
    assert.equal(prompts.errors.length, 1);
    assert.match(prompts.errors[0], /must be a User key/);
    assert.deepEqual(secretsSeen, [2], 'the Account key was never stored');
    assert.deepEqual(
      store.list().map((k) => k.name),
      ['work 2'],
      'a custom replacement name is kept',
    );
  });

  test('[G-AUTH-8] on verification failure the old key stays active and nothing is removed', async () => {
    const { store, old } = await setup();
    const prompts = scripted({ replacements: [{ name: 'work (new)', secret: NEW }], afterFailure: [undefined] });
    const final = await runRotation(old.id, { store, prompts, checkScopes: async (secret) => (secret === OLD ? full : revokedReport) });
    assert.equal(final.step, 'cancelled');
    assert.equal(store.active?.id, old.id);
    assert.deepEqual(
      store.list().map((k) => k.name),
      ['work', 'work (new)'],
    );
    assert.equal(await store.getActiveSecret(), OLD);
    assert.ok(!prompts.asked.includes('revoke'));
  });

  test('[G-AUTH-8] a network error during verification can be retried and then succeed', async () => {
    const { store, old } = await setup();
    const results: ScopeReport[] = [{ kind: 'error', error: new GatewayError({ reason: 'network', message: 'ECONNRESET' }) }, full];
    const prompts = scripted({ replacements: [{ name: 'work (new)', secret: NEW }], afterFailure: ['retry'] });
    const final = await runRotation(old.id, { store, prompts, checkScopes: async (secret) => (secret === OLD ? full : (results.shift() ?? revokedReport)) });
    assert.equal(final.step, 'done');
    assert.deepEqual(prompts.asked, ['replacement', 'after-failure', 'revoke']);
  });

  test('[G-AUTH-9] not confirming the revocation keeps both keys, with the replacement active', async () => {
    const { store, old } = await setup();
    const prompts = scripted({ replacements: [{ name: 'work (new)', secret: NEW }], revoked: false });
    const final = await runRotation(old.id, { store, prompts, checkScopes: async () => full });
    assert.equal(final.step, 'cancelled');
    assert.equal(store.list().length, 2);
    assert.equal(store.active?.name, 'work (new)');
    assert.ok(store.get(old.id), 'the old key is still there');
  });

  test('cancelling at the first question changes nothing', async () => {
    const { backend, store, old } = await setup();
    const before = backend.stateText();
    const final = await runRotation(old.id, { store, prompts: scripted({ replacements: [undefined] }), checkScopes: async () => full });
    assert.equal(final.step, 'cancelled');
    assert.equal(backend.stateText(), before);
    assert.equal(backend.secrets.size, 1);
  });

  test('a pasted secret that is not a key, or a duplicate of the old one, is refused and asked again', async () => {
    const { store, old } = await setup();
    const prompts = scripted({
      replacements: [{ name: 'x', secret: 'not-a-key' }, { name: 'y', secret: OLD }, { name: 'z', secret: NEW }],
    });
    const final = await runRotation(old.id, { store, prompts, checkScopes: async () => full });
    assert.equal(final.step, 'done');
    assert.equal(prompts.errors.length, 2);
    assert.match(prompts.errors[0], /Not an AI Gateway API key/);
    assert.match(prompts.errors[1], /already saved as "work"/);
  });
});

describe('[#39.12] rotation verifies the replacement scope by scope and compares it with the old key', () => {
  test('[#39.12] [G-AUTH-8] pure: differing scopes go to scopes-differ, never straight to switching; retry re-verifies, cancel keeps the old key active', () => {
    const differing = replacementCheck(report('none', { mcp: 'write' }), full);
    assert.equal(differing.kind, 'usable');
    let s: RotationState = rotationReducer({ step: 'verifying', old: oldKey, replacement: newKey }, { type: 'verified', result: differing });
    assert.equal(s.step, 'scopes-differ');
    assert.throws(() => rotationReducer(s, { type: 'switched' }), RotationTransitionError);
    assert.equal(rotationReducer(s, { type: 'retry' }).step, 'verifying');
    assert.deepEqual(rotationReducer(s, { type: 'cancel' }), { step: 'cancelled', old: oldKey, replacement: newKey, activeId: 'old' });
    s = rotationReducer(s, { type: 'accept-differences' });
    assert.equal(s.step, 'switching');
  });

  test('[#39.12] pure: only certain differences count ("read or none" vs read is not one; an unanswered scope is not compared); no usable scope fails', () => {
    const findings = (r: ScopeReport) => (r.kind === 'scopes' ? r.findings : []);
    assert.deepEqual(scopeDifferences(findings(report('write')), findings(report('write', { chat: 'unknown' }))), []);
    const old = report('none', { chat: 'not-write', mcp: 'read', image: 'write' });
    const rep = report('none', { chat: 'read', mcp: 'write', image: 'unknown' });
    assert.deepEqual(scopeDifferences(findings(old), findings(rep)), [{ scope: 'mcp', old: 'read', replacement: 'write' }]);
    assert.equal(replacementCheck(report('none'), full).kind, 'failed');
    assert.equal(replacementCheck(revokedReport, full).kind, 'failed');
    const uncompared = replacementCheck(report('none', { mcp: 'write' }), revokedReport);
    assert.deepEqual(uncompared.kind === 'usable' ? [uncompared.compared, uncompared.differences.length] : [], [false, 0]);
  });

  describe('against the local gateway', () => {
    /** A second tool-server-only key (the portal can mint any number), for an mcp-only to mcp-only rotation. */
    const MCP_ONLY_2 = 'svc_pat_local_user_mcponly_second_7e9a';
    let gw: Awaited<ReturnType<typeof startGateway>>;

    /** Runs `body` against a fresh local gateway (extra keys as given), closed afterwards. */
    async function onGateway(options: Parameters<typeof startGateway>[0], body: () => Promise<void>): Promise<void> {
      gw = await startGateway(options);
      try {
        await body();
      } finally {
        await gw.close();
      }
    }

    async function checkScopes(secret: string): Promise<ScopeReport> {
      const client = createGatewayClient({ baseUrl: gw.url, getKey: async () => secret, userAgent: 'ai-gateway-vscode/test', retry: { maxAttempts: 1 } });
      try {
        return await checkKeyScopes(client);
      } finally {
        await client.dispose();
      }
    }

    async function rotate(oldSecret: string, answers: Parameters<typeof scripted>[0]) {
      const backend = new SharedBackend();
      const w = backend.window();
      const store = new KeyStore(w.secrets, w.state);
      const old = await store.add('work', oldSecret);
      const prompts = scripted(answers);
      const final = await runRotation(old.id, { store, prompts, checkScopes });
      return { final, prompts, store, old };
    }

    test('[#39.12] [G-AUTH-8] an mcp-only key rotated to an mcp-only replacement completes: not reported as lacking chat, no warning', async () => {
      await onGateway({ keys: [{ secret: MCP_ONLY_2, name: 'Local user (Restricted: mcp) 2', type: 'user', permission: 'restricted', scopes: restrictedScopes({ mcp: 'write' }), revoked: false }] }, async () => {
        const { final, prompts, store } = await rotate(LOCAL_KEYS.userMcpOnly, { replacements: [{ name: 'work (new)', secret: MCP_ONLY_2 }] });
        assert.equal(final.step, 'done');
        assert.deepEqual(prompts.asked, ['replacement', 'revoke']);
        assert.equal(await store.getActiveSecret(), MCP_ONLY_2);
      });
    });

    test('[#39.12] [G-AUTH-8] a replacement with other permissions is named scope by scope before anything switches; the default keeps the old key active', async () => {
      await onGateway({}, async () => {
        const { final, prompts, store, old } = await rotate(LOCAL_KEYS.userFull, { replacements: [{ name: 'work (new)', secret: LOCAL_KEYS.userMcpOnly }], differences: [undefined] });
        assert.equal(final.step, 'cancelled');
        assert.deepEqual(prompts.asked, ['replacement', 'differences: chat write->none, image write->none, speech write->none, transcribe write->none, collections write->none, documents write->none, search read->none, agents write->none']);
        assert.equal(store.active?.id, old.id);
        assert.equal(await store.getActiveSecret(), LOCAL_KEYS.userFull);
        assert.equal(store.list().length, 2, 'the replacement stays saved, unused');
      });
    });

    test('[#39.12] choosing Switch Anyway on differing scopes (chat, mcp read -> mcp write) switches and completes', async () => {
      await onGateway({}, async () => {
        const { final, prompts, store } = await rotate(LOCAL_KEYS.userMcpRead, { replacements: [{ name: 'work (new)', secret: LOCAL_KEYS.userMcpOnly }], differences: ['switch'] });
        assert.equal(final.step, 'done');
        assert.deepEqual(prompts.asked, ['replacement', 'differences: chat write->none, mcp read->write', 'revoke']);
        assert.equal(await store.getActiveSecret(), LOCAL_KEYS.userMcpOnly);
      });
    });

    test('[G-AUTH-8] a revoked replacement fails verification and the old key stays active', async () => {
      await onGateway({}, async () => {
        const { final, prompts, store, old } = await rotate(LOCAL_KEYS.userMcpOnly, { replacements: [{ name: 'work (new)', secret: LOCAL_KEYS.revoked }], afterFailure: [undefined] });
        assert.equal(final.step, 'cancelled');
        assert.deepEqual(prompts.asked, ['replacement', 'after-failure']);
        assert.equal(store.active?.id, old.id);
      });
    });
  });
});
