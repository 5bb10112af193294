import { test } from 'node:test';
import assert from 'node:assert/strict';
import { redactSecrets } from '../../src/core/log';

const USER_KEY = 'svc_pat_local_user_full_7f3a9c2e5b1d';
const ACCOUNT_KEY = 'svc_local_account_full_4e8b2a6c9d0f';
const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl';

const cases: Array<[string, string]> = [
  ['plain user key', `key ${USER_KEY} used`],
  ['plain account key', `key ${ACCOUNT_KEY}.`],
  ['key after an underscore', `x_${USER_KEY}`],
  ['URL-encoded key', `q=%3D${USER_KEY}%20`],
  ['key with symbols in its body', 'svc_pat_abcd$efgh!ijkl'],
  ['bearer header', `Authorization: Bearer ${JWT}`],
  ['basic header', 'Authorization: Basic b3duZXI6bG9jYWwtaG9zdGluZy1vd25lcg=='],
  ['bare JWT', `token ${JWT}`],
  ['URL userinfo', 'https://u:p4ssw0rd@host.example/x'],
  ['secret query parameter', 'https://host.example/x?access_token=abcdef123456&x=1'],
];

for (const [name, text] of cases) {
  test(`redactSecrets masks a ${name}`, () => {
    const out = redactSecrets(text);
    assert.match(out, /«redacted»/);
    for (const secret of [USER_KEY, ACCOUNT_KEY, JWT, 'p4ssw0rd', 'abcdef123456', 'efgh!ijkl', 'b3duZXI6bG9jYWwtaG9zdGluZy1vd25lcg==']) {
      assert.ok(!out.includes(secret), `${secret} leaked in: ${out}`);
    }
  });
}

test('redactSecrets keeps ordinary text and masks known secrets verbatim', () => {
  const line = 'POST /v1/chat/completions 200 41ms request 0af7651916cd43dd8448eb211c80319c';
  assert.equal(redactSecrets(line), line);
  assert.equal(redactSecrets('my hunter2 password', ['hunter2']), 'my «redacted» password');
  assert.equal(redactSecrets('Bearer abc.def'), 'Bearer «redacted»');
});
