/**
 * The local gateway's hosting routes against hosting-account-api.md, in plain HTTP with the spec's own
 * numbers and words: no client code and no client constant, so a mistake the client makes cannot hide
 * one the gateway makes (issue 27, item 13).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { HOSTING_IDS, HOSTING_USERS } from '../../localGateway/hosting';
import { useGateway } from './helpers';

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
// H-TR-4 in the spec's words: "between 1 hour and 7 days in the future".
const ONE_HOUR = 60 * 60 * 1000;
const SEVEN_DAYS = 7 * 24 * ONE_HOUR;
const AUTH = `Basic ${Buffer.from(`owner:${HOSTING_USERS.owner.password}`).toString('base64')}`;

describe('local gateway: hosting account API', () => {
  const gw = useGateway({ now: () => new Date(NOW) });
  const call = async (method: string, path: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> => {
    const res = await fetch(`${gw().url}/hosting/v1${path}`, {
      method,
      headers: { Authorization: AUTH, ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  };
  const transfer = (scheduledMs: number) =>
    call('POST', `/sites/${HOSTING_IDS.siteNormal}/site_transfers`, { destination_account_id: HOSTING_IDS.accountDestination, scheduled_time: new Date(scheduledMs).toISOString() });

  for (const [label, offset, accepted] of [
    ['1 millisecond short of 1 hour ahead', ONE_HOUR - 1, false],
    ['exactly 1 hour ahead', ONE_HOUR, true],
    ['1 millisecond past 1 hour ahead', ONE_HOUR + 1, true],
    ['1 millisecond short of 7 days ahead', SEVEN_DAYS - 1, true],
    ['exactly 7 days ahead', SEVEN_DAYS, true],
    ['1 millisecond past 7 days ahead', SEVEN_DAYS + 1, false],
    ['8 days ahead', 8 * 24 * ONE_HOUR, false],
    ['1 hour in the past', -ONE_HOUR, false],
  ] as const) {
    test(`[H-TR-4] a transfer scheduled ${label} is ${accepted ? 'accepted (202, scheduled)' : 'a 422 on scheduled_time'}`, async () => {
      const { status, json } = await transfer(NOW + offset);
      if (!accepted) {
        assert.equal(status, 422, JSON.stringify(json));
        assert.equal((json.errors as Array<{ field?: string }>)[0].field, 'scheduled_time');
        return;
      }
      assert.equal(status, 202, JSON.stringify(json));
      assert.equal(json.status, 'scheduled');
      assert.equal(json.scheduled_time, new Date(NOW + offset).toISOString());
      // Cancelled again, so the next case meets no active transfer (H-TR-8).
      assert.equal((await call('DELETE', `/sites/${HOSTING_IDS.siteNormal}/site_transfers/${String(json.id)}`)).status, 200);
    });
  }

  test('[H-CE-7] the gateway takes exactly the three documented types: query arg, url path, cookie', async () => {
    const path = `/installs/${HOSTING_IDS.installNormal}/cache_exclusions`;
    for (const type of ['query arg', 'url path', 'cookie']) {
      assert.equal((await call('PUT', path, { exclusions: [{ type, value: '^x' }] })).status, 200, type);
    }
    for (const type of ['header', 'Query Arg', 'url_path', 'query-arg', 'path', '', 'cookie ']) {
      const { status, json } = await call('PUT', path, { exclusions: [{ type, value: '^x' }] });
      assert.equal(status, 400, type);
      assert.equal((json.errors as Array<{ field?: string }>)[0].field, 'exclusions[0].type');
    }
  });

  test('[H-CE-1] after PUT replaces or clears the set, a GET reads back exactly that set', async () => {
    const path = `/installs/${HOSTING_IDS.installNormal}/cache_exclusions`;
    const before = (await call('GET', path)).json.results as Array<{ type: string; value: string }>;
    const cookies = before.filter((e) => e.type === 'cookie');
    assert.ok(cookies.length > 0, 'the install has platform cookie entries');
    const replaced = await call('PUT', path, { exclusions: [{ type: 'url path', value: '^/account' }, { type: 'query arg', value: '^ref$' }] });
    assert.equal(replaced.status, 200);
    assert.deepEqual((await call('GET', path)).json.results, replaced.json.results);
    assert.deepEqual(
      (replaced.json.results as Array<{ type: string }>).filter((e) => e.type !== 'cookie'),
      [
        { type: 'url path', value: '^/account' },
        { type: 'query arg', value: '^ref$' },
      ],
    );
    const cleared = await call('PUT', path, { exclusions: [] });
    assert.equal(cleared.status, 200);
    const read = await call('GET', path);
    assert.equal(read.status, 200);
    assert.deepEqual(read.json.results, cookies, 'every writable exclusion is gone; the platform cookie entries stay (H-CE-3)');
    assert.deepEqual(read.json.results, cleared.json.results);
  });
});
