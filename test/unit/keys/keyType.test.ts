import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { describeKey, detectKeyType, maskedSuffix, parseKey, validateKeyName } from '../../../src/core/keys/keyType';

describe('key type detection', () => {
  test('[G-AUTH-2] svc_pat_ is a User key', () => {
    assert.equal(detectKeyType('svc_pat_local_user_full_7f3a9c2e5b1d'), 'User');
  });

  test('[G-AUTH-2] svc_ without pat_ is an Account key', () => {
    assert.equal(detectKeyType('svc_local_account_full_4e8b2a6c9d0f'), 'Account');
  });

  test('[G-AUTH-2] a key that merely contains "pat" later is still an Account key', () => {
    assert.equal(detectKeyType('svc_patty_account_0123456789'), 'Account');
  });

  test('[G-AUTH-2] anything else is refused with a message naming both prefixes and never echoing the input', () => {
    for (const bad of ['sk-live-1234567890abcdef', 'SVC_PAT_UPPERCASE_1234567890', 'pat_svc_12345678', 'hello']) {
      const parsed = parseKey(bad);
      assert.equal(parsed.ok, false, bad);
      if (!parsed.ok) {
        assert.match(parsed.message, /svc_pat_/);
        assert.match(parsed.message, /svc_/);
        assert.ok(!parsed.message.includes(bad), 'message must not echo the input');
      }
    }
  });

  test('surrounding whitespace from a paste is trimmed; inner whitespace is refused', () => {
    const parsed = parseKey('  svc_pat_local_user_full_7f3a9c2e5b1d\n');
    assert.deepEqual(parsed, { ok: true, type: 'User', secret: 'svc_pat_local_user_full_7f3a9c2e5b1d' });
    assert.equal(parseKey('svc_pat_local user_full_7f3a').ok, false);
  });

  test('an empty, prefix-only or "Bearer …" input gets its own clear refusal', () => {
    const empty = parseKey('   ');
    const prefixOnly = parseKey('svc_pat_');
    const bearer = parseKey('Bearer svc_pat_local_user_full_7f3a9c2e5b1d');
    assert.ok(!empty.ok && /Enter an API key/.test(empty.message));
    assert.ok(!prefixOnly.ok && /incomplete/.test(prefixOnly.message));
    assert.ok(!bearer.ok && /without "Bearer "/.test(bearer.message));
  });

  test('the masked suffix is the last 4 characters only', () => {
    assert.equal(maskedSuffix('svc_pat_local_user_full_7f3a9c2e5b1d'), '5b1d');
    assert.equal(describeKey({ name: 'work', type: 'User', suffix: '5b1d' }), 'work (User) …5b1d');
  });

  test('key names: empty, too long, control characters and pasted secrets are refused', () => {
    assert.equal(validateKeyName('work'), undefined);
    assert.match(validateKeyName('  ') ?? '', /Enter a name/);
    assert.match(validateKeyName('x'.repeat(61)) ?? '', /under 60/);
    assert.match(validateKeyName('a\tb') ?? '', /control/);
    assert.match(validateKeyName('svc_pat_local_user_full_7f3a9c2e5b1d') ?? '', /secret itself/);
  });
});
