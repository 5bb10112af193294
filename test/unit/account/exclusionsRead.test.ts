import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { HostingClient, type HostingCredentials } from '../../../src/core/account/hostingClient';
import { isExclusionsReadUnrecognised, recogniseExclusionsRead, removedExclusions } from '../../../src/core/account/exclusionsRead';
import { summarizeReplacement } from '../../../src/core/account/exclusionsDocument';
import { HOSTING_IDS, HOSTING_USERS } from '../../localGateway/hosting';
import { EXCLUSIONS_READ_MODES, modesOf, resetModes } from '../../localGateway/modes';
import { useGateway } from '../gateway/helpers';

const OWNER: HostingCredentials = { username: 'owner', password: HOSTING_USERS.owner.password };

describe('the cache exclusions read envelope (#39.6)', () => {
  const gw = useGateway();
  const client = () => new HostingClient({ baseUrl: () => `${gw().url}/hosting`, getCredentials: async () => OWNER, fetch: (url, init) => fetch(url, init), userAgent: 'test' });
  const puts = () => gw().events.list('request').filter((e) => e.method === 'PUT').length;

  for (const mode of EXCLUSIONS_READ_MODES.filter((m) => m !== 'results')) {
    test(`[#39.6] an unrecognised read envelope never becomes an editable list: mode '${mode}' is refused with the raw answer`, async () => {
      resetModes(gw().events);
      modesOf(gw().events).exclusionsRead = mode;
      const before = puts();
      const e = await client()
        .getCacheExclusions(HOSTING_IDS.installNormal)
        .then(
          (list) => assert.fail(`became a list of ${list.length}`),
          (err: unknown) => err,
        );
      assert.ok(isExclusionsReadUnrecognised(e), `expected the unrecognised-read error, got ${String(e)}`);
      assert.equal(e.afterWrite, false);
      assert.equal(e.reason, 'protocol');
      assert.match(e.message, /does not recognise/);
      assert.match(e.message, /no save can replace the list/);
      assert.match(e.raw, /\^\/cart/, 'the raw answer is available');
      assert.ok(!e.raw.includes(OWNER.password), 'no secret in the raw answer');
      if (mode === 'paged' || mode === 'link') assert.equal(e.paged, true, 'a paged answer is called paged');
      assert.equal(puts(), before, 'no PUT was sent');
      resetModes(gw().events);
    });
  }

  test('[#39.6] the assumed envelope {results:[...]} is read as the list', async () => {
    resetModes(gw().events);
    const list = await client().getCacheExclusions(HOSTING_IDS.installNormal);
    assert.deepEqual(
      list.filter((e) => e.type !== 'cookie').map((e) => e.value),
      ['^/cart', '^utm_'],
    );
  });

  test('[#39.6] the recogniser refuses envelopes, paging, unknown fields and unknown entry types', () => {
    const ok = [{ type: 'url path', value: '^/a' }];
    assert.deepEqual(recogniseExclusionsRead({ results: ok }), { kind: 'recognised', exclusions: ok });
    assert.deepEqual(recogniseExclusionsRead({ results: [] }), { kind: 'recognised', exclusions: [] });
    const refused: unknown[] = [
      ok,
      { data: ok },
      { exclusions: ok },
      {},
      null,
      'text',
      { results: ok, next_cursor: 'x' },
      { results: ok, has_more: false },
      { results: ok, total: 1 },
      { results: ok, meta: {} },
      { results: 'x' },
      { results: [{ type: 'header', value: 'x' }] },
      { results: [{ type: 'url path', value: '^/a', enabled: false }] },
      { results: [{ type: 'url path' }] },
      { results: [null] },
    ];
    for (const body of refused) assert.equal(recogniseExclusionsRead(body).kind, 'unrecognised', JSON.stringify(body));
    const paged = recogniseExclusionsRead({ results: ok }, '<https://h/v1/x?page=2>; rel="next"');
    assert.deepEqual([paged.kind, paged.kind === 'unrecognised' && paged.paged], ['unrecognised', true]);
  });

  test('[#39.6] a PUT answered in an unrecognised shape says the save was applied and gives no list', async () => {
    const fake = async () => ({ status: 200, headers: { get: () => null }, text: async () => '{"data":[]}' });
    const c = new HostingClient({ baseUrl: () => 'https://h.example', getCredentials: async () => OWNER, fetch: fake, userAgent: 'test' });
    const e = await c.putCacheExclusions(HOSTING_IDS.installNormal, [{ type: 'url path', value: '^/a' }]).then(
      () => assert.fail('became a list'),
      (err: unknown) => err,
    );
    assert.ok(isExclusionsReadUnrecognised(e));
    assert.equal(e.afterWrite, true);
    assert.match(e.message, /applied the save/);
  });

  test('[#39.6] a save that removes entries names them, and the summary counts them', () => {
    const before = [
      { type: 'url path', value: '^/cart' },
      { type: 'query arg', value: '^utm_' },
      { type: 'cookie', value: '^wp_' },
    ] as const;
    const after = [{ type: 'url path', value: '^/basket' }] as const;
    assert.deepEqual(removedExclusions(before, after), [
      { type: 'url path', value: '^/cart' },
      { type: 'query arg', value: '^utm_' },
    ]);
    assert.match(summarizeReplacement(before, after), /1 added, 2 removed/);
  });
});
