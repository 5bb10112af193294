/**
 * [#39.15] The compatibility report: rendered per assumption with what the extension does when one
 * does not hold, and the copied text carries no key, token, Basic credential or other secret, even
 * when the gateway echoes them in an answer.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { renderReport, scrubReport, type CompatReport } from '../../../src/core/compat/report';
import { ASSUMPTIONS } from '../../../src/core/compat/assumptions';

const KEY = 'svc_pat_compat_secret_key_123456';
const ACCOUNT_KEY = 'svc_account_key_abcdef987654';
const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VyIn0.c2lnbmF0dXJlLXBhcnQ';
const PASSWORD = 'hunter2-hosting-pw';
const BASIC = Buffer.from(`owner:${PASSWORD}`).toString('base64');

function reportWith(raw: string, found: string): CompatReport {
  return {
    startedAt: '2026-11-28T00:00:00.000Z',
    gatewayUrl: 'https://user:pass@gateway.example.com',
    hostingUrl: 'https://hosting.example.com',
    client: 'ai-gateway-vscode/1.0.0 VSCode/1.104.0',
    findings: [
      { id: 'catalog.envelope', verdict: 'not_held', found, requestId: 'abc123', raw },
      { id: 'analytics.fields', verdict: 'not_checked', found: 'needs an identity token' },
      { id: 'mcp.initialize', verdict: 'held', found: 'protocol 2025-11-25' },
    ],
    requests: [{ method: 'GET', what: '/v1/models', status: 200, requestId: 'abc123' }],
  };
}

describe('[#39.15] compatibility report', () => {
  test('[#39.15] the copied report removes the API key, identity token, hosting password and Basic credentials, known or not', () => {
    const raw = [
      `{"error":{"message":"invalid key ${KEY}"},"echo":{"authorization":"Bearer ${JWT}","password":"${PASSWORD}"}}`,
      `Authorization: Basic ${BASIC}`,
      `another key ${ACCOUNT_KEY} and token=${'s3cr3tvalue'}&x=1`,
      `{"api_key": "unknown-secret-value-42", "client_secret": "zzz-not-known"}`,
    ].join('\n');
    const text = renderReport(reportWith(raw, `the gateway said ${KEY} was wrong`), [KEY, JWT, PASSWORD, BASIC]);
    for (const secret of [KEY, ACCOUNT_KEY, JWT, PASSWORD, BASIC, 's3cr3tvalue', 'unknown-secret-value-42', 'zzz-not-known', 'user:pass@']) assert.ok(!text.includes(secret), `${secret} leaked`);
    assert.match(text, /«redacted»/);
    // What is not secret stays readable.
    assert.match(text, /request id `abc123`/);
    assert.match(text, /gateway\.example\.com/);
  });

  test('[#39.15] scrubbing masks JSON fields named like secrets in linear time, even on hostile text', () => {
    assert.equal(scrubReport('{"password":"a\\"b"}', []), '{"password":"«redacted»"}');
    const hostile = `"password":"${'\\'.repeat(200_000)}`;
    const t0 = Date.now();
    scrubReport(hostile, []);
    assert.ok(Date.now() - t0 < 2_000);
  });

  test('[#39.15] each finding says held / not held / not checked, where the assumption lives, and for a failure what the extension does', () => {
    const text = renderReport(reportWith('[]', 'the catalog is an array of 0 items'), []);
    assert.match(text, /### Not held: The catalog is an object with object "list"/);
    assert.match(text, /What the extension does: The Models view keeps the last catalog it read/);
    assert.match(text, /Where the assumption lives: `src\/core\/catalog\/catalogStore\.ts`/);
    assert.match(text, /### Not checked: .*\n\n.*\n- Found: needs an identity token/);
    assert.match(text, /### Held: initialize answers/);
    assert.match(text, /1 held, 1 not held, 1 not checked, 0 without a usable answer/);
    assert.match(text, /`GET \/v1\/models` · HTTP 200/);
    assert.match(text, /\| Assumption \| Result \|\n\|---\|---\|\n\| The catalog is an object .* \| Not held \|/);
  });

  test('[#39.15] server text cannot break out of its code block or add Markdown lines', () => {
    const text = renderReport(reportWith('```\n# injected heading\n```', 'x\n# injected | cell'), []);
    assert.ok(!/^# injected/m.test(text.replace(/````text\n[\s\S]*?\n````/g, '')), text);
    assert.match(text, /````text\n```\n# injected heading\n```\n````/);
  });

  test('[#39.15] every assumption names a file that exists; an assumed one says there that it is assumed', () => {
    for (const a of ASSUMPTIONS) {
      assert.ok(existsSync(a.lives), `${a.id}: ${a.lives} does not exist`);
      if (a.basis === 'assumed') assert.match(readFileSync(a.lives, 'utf8'), /assum/i, `${a.id}: ${a.lives} does not say what it assumes`);
    }
  });
});
