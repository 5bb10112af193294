import { test } from 'node:test';
import assert from 'node:assert/strict';
import { capText, MAX_LOG_MESSAGE_CHARS, MAX_SERVER_TEXT_CHARS, redactLogArg, redactSecrets } from '../../src/core/log';

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
  // Forms the hand-written scanners must keep catching exactly as the regexes did.
  ['JWT after a hyphen', `--token-${JWT}`],
  ['JWT after a dot', `a.${JWT}`],
  ['JWT whose first part holds hyphens', `x -a-${JWT}`],
  ['upper-case bearer scheme', `authorization: BEARER ${JWT}`],
  ['bearer after several spaces and a tab', `Bearer  \t${USER_KEY}`],
  ['userinfo after an extra slash', 'file:///u:p4ssw0rd@host'],
  ['userinfo whose password holds a colon', 'https://u:p4ssw0rd:x@host.example'],
  ['upper-case secret parameter', 'https://h/x?API_KEY=abcdef123456'],
  ['passwd parameter', 'passwd=abcdef123456'],
  ['apikey parameter', 'apikey=abcdef123456'],
  ['id_token parameter', '#id_token=abcdef123456&state=1'],
  ['gateway key right after svc_ text', `svc_svc_${'x'.repeat(8)} ${USER_KEY}`],
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

test('redactSecrets leaves near-misses alone, as the regexes did', () => {
  for (const line of ['Basically fine', 'svc_abc', 'eyJ.a.b', 'x_eyJa.b.c', '//host:8080/path', 'monkey=banana', 'token=', 'Bearer ', 'abearer x']) {
    assert.equal(redactSecrets(line), line);
  }
});

test('capText keeps short text, cuts long text at whitespace and says how much was left out', () => {
  assert.equal(capText('short', 10), 'short');
  assert.equal(capText('aaaa bbbb cccc', 12), 'aaaa bbbb… [5 more characters not shown]');
  assert.equal(capText('x'.repeat(20), 8), `${'x'.repeat(8)}… [12 more characters not shown]`);
  // A surrogate pair is never split.
  assert.equal(capText(`${'x'.repeat(7)}😀yyy`, 8), `${'x'.repeat(7)}… [5 more characters not shown]`);
});

test('capText never leaves a credential cut short of what redaction recognises', () => {
  const line = `${'word '.repeat(MAX_SERVER_TEXT_CHARS / 5 - 2)}user:p4ssw0rd //u:p4ssw0rd@host ${JWT} tail`;
  const out = redactSecrets(capText(line));
  assert.ok(out.length < line.length);
  assert.ok(!out.includes('p4ssw0rd'), out.slice(-200));
  assert.ok(!out.includes(JWT.slice(0, 12)), out.slice(-200));
});

test('the log channel cuts every message and stack to the limit and redacts it', () => {
  const huge = `${USER_KEY} ${'z'.repeat(MAX_LOG_MESSAGE_CHARS * 2)}`;
  const line = redactLogArg(huge) as string;
  assert.ok(line.length < MAX_LOG_MESSAGE_CHARS + 100, String(line.length));
  assert.match(line, /more characters not shown\]$/);
  assert.ok(!line.includes(USER_KEY));
  const err = new Error(huge);
  const copy = redactLogArg(err) as Error;
  assert.ok(copy.message.length < MAX_LOG_MESSAGE_CHARS + 100);
  assert.ok(copy.stack !== undefined && copy.stack.length < MAX_LOG_MESSAGE_CHARS + 100 && !copy.stack.includes(USER_KEY));
  assert.equal(redactLogArg(42), 42);
});
