/**
 * #29.2: hosting ids are offered again (with the names the API gave) instead of typed from memory, and
 * the hosting address is checked (https or loopback, reachable, a hosting API) before a password is
 * asked for.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { hostingAddressProblem } from '../../../src/core/account/hostingUrl';
import { idChoices, idsFromTransfer, MAX_RECENT_PER_KIND, readRecentIds, rememberId, type RecentId } from '../../../src/core/account/recentIds';
import { HostingClient } from '../../../src/core/account/hostingClient';
import { HOSTING_IDS, HOSTING_USERS } from '../../localGateway/hosting';
import { useGateway } from '../gateway/helpers';

const SITE = '4c5d6e7f-8091-42a3-b485-d6e7f8091008';
const ACCOUNT = '5e2d7c19-8a4b-4f3e-b6d2-1c9a0e8f7b02';
const TRANSFER = '7f8091a2-b3c4-45d6-a718-091a2b3c4011';

describe('recent hosting ids', () => {
  test('[#29.2] a transfer answer names the site, the destination account and the transfer, offered newest first', () => {
    let list: RecentId[] = [];
    for (const e of idsFromTransfer(SITE, ACCOUNT, { id: TRANSFER, site: 'blog', destination_account: 'destination-agency' })) list = rememberId(list, e, 1_000);
    list = rememberId(list, { kind: 'site', id: HOSTING_IDS.siteSandbox }, 2_000);
    const sites = idChoices(list, 'site', { now: 62_000 });
    assert.deepEqual(
      sites.map((c) => [c.label, c.description]),
      [
        [HOSTING_IDS.siteSandbox, undefined],
        ['blog', SITE],
      ],
    );
    assert.equal(sites[1].detail, 'used 1 minute ago');
    assert.deepEqual(idChoices(list, 'account', { now: 0 }).map((c) => c.label), ['destination-agency']);
    assert.deepEqual(idChoices(list, 'transfer', { now: 0, siteId: SITE }).map((c) => c.id), [TRANSFER]);
    assert.deepEqual(idChoices(list, 'transfer', { now: 0, siteId: HOSTING_IDS.siteSandbox }), [], 'transfers of another site are not offered');
  });

  test('[#29.2] a pasted or copied UUID is offered; text that is not a UUID is not', () => {
    const typed = idChoices([], 'install', { typed: ` ${HOSTING_IDS.installNormal.toUpperCase()} `, clipboard: 'hello', now: 0 });
    assert.deepEqual(typed.map((c) => [c.id, c.source]), [[HOSTING_IDS.installNormal, 'typed']]);
    const clip = idChoices([], 'install', { typed: 'blogpr', clipboard: HOSTING_IDS.installNormal, now: 0 });
    assert.deepEqual(clip.map((c) => [c.id, c.source]), [[HOSTING_IDS.installNormal, 'clipboard']]);
  });

  test('[#29.2] a use moves an id to the front and keeps its name; each kind keeps a bounded list; stored junk is dropped', () => {
    let list = rememberId([], { kind: 'site', id: SITE, name: 'blog' }, 1);
    list = rememberId(list, { kind: 'site', id: SITE.toUpperCase() }, 2);
    assert.deepEqual(list, [{ kind: 'site', id: SITE, name: 'blog', usedAt: 2 }]);
    for (let i = 0; i < MAX_RECENT_PER_KIND + 5; i++) list = rememberId(list, { kind: 'install', id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}` }, 10 + i);
    assert.equal(list.filter((r) => r.kind === 'install').length, MAX_RECENT_PER_KIND);
    assert.equal(list.filter((r) => r.kind === 'site').length, 1, 'another kind is not pushed out');
    assert.deepEqual(readRecentIds([{ kind: 'site', id: 'not-a-uuid', usedAt: 1 }, { kind: 'x', id: SITE, usedAt: 1 }, null, 'x', { kind: 'site', id: SITE, usedAt: 3 }]), [{ kind: 'site', id: SITE, usedAt: 3 }]);
    assert.deepEqual(readRecentIds({}), []);
  });
});

describe('the hosting address is checked before a password is asked for', () => {
  const gw = useGateway();
  const probe = (baseUrl: string) => new HostingClient({ baseUrl: () => baseUrl, getCredentials: async () => ({ username: 'owner', password: HOSTING_USERS.owner.password }), fetch: (url, init) => fetch(url, init), userAgent: 'test' }).probe();

  test('[#29.2] the placeholder, a plain http address off this machine and a malformed address are refused without a request', () => {
    assert.match(hostingAddressProblem('https://hosting-api.example.com', true) ?? '', /still the placeholder/);
    assert.match(hostingAddressProblem('http://hosting.example.net', false) ?? '', /must be an https:\/\/ address/);
    assert.match(hostingAddressProblem('not a url', false) ?? '', /not a valid address/);
    assert.equal(hostingAddressProblem('https://hosting.example.net', false), undefined);
    assert.equal(hostingAddressProblem('http://127.0.0.1:8080/hosting', false), undefined);
    assert.equal(hostingAddressProblem('http://[::1]:8080/hosting', false), undefined);
    assert.equal(hostingAddressProblem('http://localhost:8080', false), undefined);
  });

  test('[#29.2] the local hosting API is recognised; the gateway itself (no /hosting) and a closed port are not, and no credential is sent', async () => {
    assert.deepEqual(await probe(`${gw().url}/hosting`), { kind: 'ok' });
    const notHosting = await probe(gw().url);
    assert.equal(notHosting.kind, 'not-hosting');
    const closed = await probe('http://127.0.0.1:9');
    assert.equal(closed.kind, 'unreachable');
    const sent = gw().events.list('request').filter((e) => String(e.path).includes('cache_exclusions'));
    assert.deepEqual(
      sent.map((e) => [e.status, e.authorization]),
      [
        [401, 'none'],
        [404, 'none'],
      ],
      'the probe carries no Authorization; the hosting API answers 401, the gateway 404',
    );
  });
});
