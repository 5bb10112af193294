import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { type KeyChange, KeyInputError, KeyStore, SECRET_KEY_PREFIX, STATE_KEY } from '../../../src/core/keys/keyStore';
import { SharedBackend, settle } from './memoryStores';

const USER = 'svc_pat_test_user_key_aaaa1111';
const USER2 = 'svc_pat_test_user_key_bbbb2222';
const ACCOUNT = 'svc_test_account_key_cccc3333';

function setup(backend = new SharedBackend()) {
  let n = 0;
  const w = backend.window();
  const store = new KeyStore(w.secrets, w.state, { newId: () => `id${++n}`, now: () => new Date('2026-01-02T03:04:05Z') });
  const events: KeyChange[] = [];
  store.onDidChange((e) => events.push(e));
  return { backend, store, events };
}

describe('KeyStore', () => {
  test('[G-AUTH-2] add detects the type, keeps the secret only in the secret store, and activates the first key', async () => {
    const { backend, store } = setup();
    const key = await store.add('  work ', USER);
    assert.deepEqual(key, { id: 'id1', name: 'work', type: 'User', suffix: '1111', addedAt: '2026-01-02T03:04:05.000Z' });
    assert.equal(store.active?.id, 'id1');
    assert.equal(backend.secrets.get(SECRET_KEY_PREFIX + 'id1'), USER);
    assert.ok(!backend.stateText().includes(USER), 'globalState must never hold the secret');
    assert.ok(!backend.stateText().includes('aaaa'), 'globalState holds the last 4 only');
    assert.equal(await store.getActiveSecret(), USER);
  });

  test('a second key is not activated unless asked; activate:true switches', async () => {
    const { store } = setup();
    await store.add('work', USER);
    await store.add('ci', ACCOUNT);
    assert.equal(store.active?.name, 'work');
    await store.add('home', USER2, { activate: true });
    assert.equal(store.active?.name, 'home');
    assert.deepEqual(
      store.list().map((k) => [k.name, k.type]),
      [
        ['work', 'User'],
        ['ci', 'Account'],
        ['home', 'User'],
      ],
    );
  });

  test('duplicate names (case-insensitive) and duplicate secrets are refused and change nothing', async () => {
    const { backend, store } = setup();
    await store.add('work', USER);
    const before = backend.stateText();
    await assert.rejects(store.add('WORK', USER2), (e: unknown) => e instanceof KeyInputError && /already exists/.test(e.message));
    await assert.rejects(store.add('other', USER), (e: unknown) => e instanceof KeyInputError && /already saved as "work"/.test(e.message));
    assert.equal(backend.stateText(), before);
    assert.equal(backend.secrets.size, 1);
    assert.equal(store.validateNewName('Work'), 'A key named "work" already exists: choose another name.');
    assert.equal(store.validateNewName('work', 'id1'), undefined, 'renaming a key to its own name is fine');
  });

  test('[G-AUTH-2] a secret with an unknown prefix is refused before anything is stored', async () => {
    const { backend, store } = setup();
    await assert.rejects(store.add('openai', 'sk-proj-1234567890abcdef'), /svc_pat_/);
    assert.equal(backend.secrets.size, 0);
    assert.equal(backend.state.size, 0);
  });

  test('switch changes the active key and fires once; switching to an unknown id is refused', async () => {
    const { store, events } = setup();
    await store.add('work', USER);
    const ci = await store.add('ci', ACCOUNT);
    events.length = 0;
    await store.switchTo(ci.id);
    await store.switchTo(ci.id);
    assert.equal(store.active?.name, 'ci');
    assert.deepEqual(
      events.filter((e) => e.reason === 'switched').map((e) => e.key?.name),
      ['ci'],
    );
    await assert.rejects(store.switchTo('nope'), KeyInputError);
    assert.equal(store.active?.name, 'ci');
  });

  test('removing the active key activates the next one, then the previous one, then none', async () => {
    const { backend, store } = setup();
    const a = await store.add('a', USER);
    const b = await store.add('b', USER2);
    const c = await store.add('c', ACCOUNT);
    await store.switchTo(b.id);
    assert.equal((await store.remove(b.id))?.id, c.id, 'next in list');
    assert.equal((await store.remove(c.id))?.id, a.id, 'previous when it was last');
    assert.equal(await store.remove(a.id), undefined);
    assert.equal(store.active, undefined);
    assert.deepEqual(store.status, { kind: 'none' });
    assert.equal(backend.secrets.size, 0, 'secrets of removed keys are deleted');
  });

  test('[#29.9] removing the active key makes the key the user chose active, or none; never a key that is gone', async () => {
    const { store } = setup();
    const a = await store.add('a', USER);
    const b = await store.add('b', USER2);
    const c = await store.add('c', ACCOUNT);
    await store.switchTo(b.id);
    assert.equal((await store.remove(b.id, { nextActiveId: a.id }))?.id, a.id, 'the chosen key, not the neighbour');
    assert.equal(store.active?.id, a.id);
    await assert.rejects(store.remove(a.id, { nextActiveId: b.id }), KeyInputError, 'a removed key cannot become active');
    assert.equal(store.active?.id, a.id, 'nothing changed');
    assert.equal(await store.remove(a.id, { nextActiveId: null }), undefined);
    assert.equal(store.active, undefined, 'no key is promoted');
    assert.equal(store.list().map((k) => k.id).join(), c.id);
  });

  test('removing an inactive key keeps the active one', async () => {
    const { store } = setup();
    await store.add('a', USER);
    const b = await store.add('b', USER2);
    assert.equal((await store.remove(b.id))?.name, 'a');
    assert.equal(store.active?.name, 'a');
  });

  test('a secret lost by the keyring turns into a missing-secret status, once, and restoring it clears it', async () => {
    const { backend, store, events } = setup();
    const key = await store.add('work', USER);
    backend.loseSecret(SECRET_KEY_PREFIX + key.id);
    assert.equal(await store.getActiveSecret(), undefined);
    assert.equal(await store.getActiveSecret(), undefined);
    assert.deepEqual(store.status, { kind: 'missing-secret', key });
    assert.equal(events.filter((e) => e.reason === 'missing-secret').length, 1);

    await assert.rejects(store.restoreSecret(key.id, USER2), /not the key "work"/);
    await assert.rejects(store.restoreSecret(key.id, 'svc_test_account_key_aaaa1111'), /not the key "work"/, 'same suffix, other type');
    assert.equal(store.status.kind, 'missing-secret');
    await store.restoreSecret(key.id, USER);
    assert.deepEqual(store.status, { kind: 'ok', key });
    assert.equal(await store.getActiveSecret(), USER);
  });

  test('another window adding, switching and removing keys is seen through secrets.onDidChange', async () => {
    const backend = new SharedBackend();
    const one = setup(backend);
    const two = setup(backend);
    const k = await one.store.add('work', USER);
    await settle();
    assert.equal(two.store.active?.name, 'work');
    assert.ok(two.events.some((e) => e.reason === 'external'), 'window two was told');

    await one.store.remove(k.id);
    await settle();
    assert.equal(two.store.active, undefined);
    assert.deepEqual(two.store.status, { kind: 'none' });
  });

  test('another window deleting the secret of our active key makes it missing-secret here', async () => {
    const backend = new SharedBackend();
    const one = setup(backend);
    const key = await one.store.add('work', USER);
    const w = backend.window();
    await w.secrets.delete(SECRET_KEY_PREFIX + key.id);
    await settle();
    assert.equal(one.store.status.kind, 'missing-secret');
  });

  test('a damaged state record reads as no keys and is not overwritten by reading', async () => {
    const { backend, store } = setup();
    backend.state.set(STATE_KEY, { version: 1, keys: [{ id: 1 }, 'junk'], activeId: 42 });
    assert.deepEqual(store.list(), []);
    assert.equal(store.active, undefined);
    assert.deepEqual(backend.state.get(STATE_KEY), { version: 1, keys: [{ id: 1 }, 'junk'], activeId: 42 });
  });

  test('concurrent adds run one at a time: the second sees the first and refuses its duplicate name', async () => {
    const { store } = setup();
    const results = await Promise.allSettled([store.add('work', USER), store.add('work', USER2)]);
    assert.equal(results[0].status, 'fulfilled');
    assert.equal(results[1].status, 'rejected');
    assert.equal(store.list().length, 1);
  });

  test('rename refuses a clash and keeps the old name', async () => {
    const { store } = setup();
    await store.add('a', USER);
    const b = await store.add('b', USER2);
    await assert.rejects(store.rename(b.id, 'A'), /already exists/);
    assert.equal(store.get(b.id)?.name, 'b');
    assert.equal((await store.rename(b.id, 'c')).name, 'c');
  });
});
