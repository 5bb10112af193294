/**
 * "Copy as JSON-RPC request" and "Copy as curl". The token and secret header values
 * never appear; plain headers (Service-Account, Service-Project, a server's non-secret headers) stay
 * readable, also where their text appears in the body; secret header names cannot inject shell text.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { ALWAYS_SECRET_HEADERS, composeExport, secretHeaderValuesFor, toCurl } from '../../../src/core/mcp/requestExport';

const KEY = 'svc_pat_local_user_full_7f3a9c2e5b1d';
const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJhY2NvdW50IjoiYWNtZSJ9.c2lnbmF0dXJlLXZhbHVl';

test('[G-MCP-15] curl for a JWT call keeps Service-Account and Service-Project, hides the JWT', () => {
  const curl = composeExport({
    format: 'curl',
    toolName: 'list_account_sites',
    args: { site: 'acme-project-site' },
    url: 'https://gw.example/v1/mcp',
    headers: { Authorization: `Bearer ${JWT}`, 'Service-Account': 'acme-account', 'Service-Project': 'acme-project' },
  });
  assert.ok(!curl.includes(JWT));
  assert.ok(!curl.includes('«redacted»'), curl);
  assert.match(curl, /-H "Authorization: Bearer \$AI_GATEWAY_TOKEN"/);
  assert.match(curl, /-H 'Service-Account: acme-account'/);
  assert.match(curl, /-H 'Service-Project: acme-project'/);
  assert.match(curl, /"site": "acme-project-site"/, 'body text equal to a plain header value stays');
});

test('curl for a custom server: secret headers become variables, plain headers stay', () => {
  const curl = composeExport({
    format: 'curl',
    toolName: 't',
    args: { tenant: 'tenant-blue-42' },
    url: 'https://mcp.example.com/mcp',
    headers: { 'X-Tenant': 'tenant-blue-42', 'X-Api-Token': 'very-secret-token-value', Cookie: 'sid=cookie-secret-value' },
    secretHeaderNames: ['X-Api-Token'],
  });
  for (const secret of ['very-secret-token-value', 'cookie-secret-value']) assert.ok(!curl.includes(secret), `${secret} leaked`);
  assert.match(curl, /-H "X-Api-Token: \$SECRET_X_API_TOKEN"/);
  assert.match(curl, /-H "Cookie: \$SECRET_COOKIE"/);
  assert.match(curl, /-H 'X-Tenant: tenant-blue-42'/);
  assert.match(curl, /"tenant": "tenant-blue-42"/);
});

test('JSON-RPC export never contains the token, even when an argument repeats it', () => {
  const out = composeExport({ format: 'jsonrpc', toolName: 'echo', args: { note: `key ${KEY}`, plain: 'hello' }, url: 'u', headers: { Authorization: `Bearer ${KEY}` } });
  assert.ok(!out.includes(KEY));
  assert.equal(JSON.parse(out).params.arguments.plain, 'hello');
});

test('with no credential yet, the curl still shows where the token goes', () => {
  const curl = composeExport({ format: 'curl', toolName: 't', args: {}, url: 'https://gw.example/v1/mcp', headers: undefined });
  assert.match(curl, /-H "Authorization: Bearer \$AI_GATEWAY_TOKEN"/);
});

test('only secret header values are known secrets (with and without the Bearer scheme)', () => {
  const values = secretHeaderValuesFor({ Authorization: `Bearer ${KEY}`, 'Service-Account': 'acme-account', 'X-Secret': 'sss-value', 'X-Plain': 'ppp-value' }, ['x-secret']);
  assert.deepEqual(values.sort(), [`Bearer ${KEY}`, KEY, 'sss-value'].sort());
  assert.deepEqual([...ALWAYS_SECRET_HEADERS].sort(), ['authorization', 'cookie', 'proxy-authorization', 'x-api-key']);
});

test('a secret header name with shell syntax is refused with a clear error', () => {
  for (const name of ['X"; touch /tmp/pwned; "', '$(id)', 'X Y', 'X_Y']) {
    assert.throws(() => toCurl({ url: 'https://x/mcp', body: '{}', headers: { [name]: 'v' }, secretHeaderNames: [name] }), /Invalid header name/);
  }
});

test('the exported curl is runnable: the shell expands the token variable and passes plain headers and body verbatim', () => {
  const curl = composeExport({
    format: 'curl',
    toolName: 'kb_search',
    args: { query: `it's "quoted" $HOME` },
    url: 'https://gw.example/v1/mcp',
    headers: { Authorization: `Bearer ${KEY}`, 'Service-Account': 'acme-account' },
  });
  // Replace the curl binary with a function that prints its arguments, one per line.
  const script = `curl() { for a in "$@"; do printf '%s\\n' "$a"; done; }\n${curl}`;
  const out = execFileSync('sh', ['-c', script], { env: { AI_GATEWAY_TOKEN: 'token-from-env', PATH: process.env.PATH ?? '' }, encoding: 'utf8' });
  const args = out.split('\n');
  assert.ok(args.includes('Authorization: Bearer token-from-env'), out);
  assert.ok(args.includes('Service-Account: acme-account'), out);
  assert.ok(args.includes('--data-raw'), out);
  assert.ok(out.includes(`"query": "it's \\"quoted\\" $HOME"`), 'body passed verbatim (no expansion, quotes kept)');
  assert.ok(!out.includes(KEY));
});
