import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KeyCheckResult } from '../../../src/core/keys/keyCheck';
import { KeyStore, SECRET_KEY_PREFIX, type KeyInfo } from '../../../src/core/keys/keyStore';
import {
  rotationReducer,
  RotationTransitionError,
  runRotation,
  startRotation,
  temporaryReplacementName,
  type RotationPrompts,
  type RotationState,
} from '../../../src/core/keys/rotation';
import { GatewayError } from '../../../src/core/http/errors';
import { SharedBackend } from './memoryStores';

const OLD = 'svc_pat_rotation_old_key_0001';
const NEW = 'svc_pat_rotation_new_key_0002';
const ACCOUNT = 'svc_rotation_account_key_0003';

const oldKey: KeyInfo = { id: 'old', name: 'work', type: 'User', suffix: '0001', addedAt: '2026-01-01T00:00:00.000Z' };
const newKey: KeyInfo = { id: 'new', name: 'work (new)', type: 'User', suffix: '0002', addedAt: '2026-01-01T00:00:00.000Z' };
const valid: KeyCheckResult = { kind: 'valid', requestId: 'r' };
const revoked: KeyCheckResult = { kind: 'invalid', message: 'invalid or revoked API key', requestId: 'r2' };

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
      verify: async (secret) => {
        verified.push(secret === NEW ? 'new' : 'other');
        assert.equal(store.active?.id, old.id, 'the old key stays active while the replacement is verified');
        return valid;
      },
    });
    assert.equal(final.step, 'done');
    assert.deepEqual(verified, ['new']);
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
      verify: async () => {
        secretsSeen.push(backend.secrets.size);
        return valid;
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
    const final = await runRotation(old.id, { store, prompts, verify: async () => revoked });
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
    const results: KeyCheckResult[] = [{ kind: 'error', error: new GatewayError({ reason: 'network', message: 'ECONNRESET' }) }, valid];
    const prompts = scripted({ replacements: [{ name: 'work (new)', secret: NEW }], afterFailure: ['retry'] });
    const final = await runRotation(old.id, { store, prompts, verify: async () => results.shift() ?? revoked });
    assert.equal(final.step, 'done');
    assert.deepEqual(prompts.asked, ['replacement', 'after-failure', 'revoke']);
  });

  test('[G-AUTH-9] not confirming the revocation keeps both keys, with the replacement active', async () => {
    const { store, old } = await setup();
    const prompts = scripted({ replacements: [{ name: 'work (new)', secret: NEW }], revoked: false });
    const final = await runRotation(old.id, { store, prompts, verify: async () => valid });
    assert.equal(final.step, 'cancelled');
    assert.equal(store.list().length, 2);
    assert.equal(store.active?.name, 'work (new)');
    assert.ok(store.get(old.id), 'the old key is still there');
  });

  test('cancelling at the first question changes nothing', async () => {
    const { backend, store, old } = await setup();
    const before = backend.stateText();
    const final = await runRotation(old.id, { store, prompts: scripted({ replacements: [undefined] }), verify: async () => valid });
    assert.equal(final.step, 'cancelled');
    assert.equal(backend.stateText(), before);
    assert.equal(backend.secrets.size, 1);
  });

  test('a pasted secret that is not a key, or a duplicate of the old one, is refused and asked again', async () => {
    const { store, old } = await setup();
    const prompts = scripted({
      replacements: [{ name: 'x', secret: 'not-a-key' }, { name: 'y', secret: OLD }, { name: 'z', secret: NEW }],
    });
    const final = await runRotation(old.id, { store, prompts, verify: async () => valid });
    assert.equal(final.step, 'done');
    assert.equal(prompts.errors.length, 2);
    assert.match(prompts.errors[0], /Not an AI Gateway API key/);
    assert.match(prompts.errors[1], /already saved as "work"/);
  });
});
