import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { HostingError, HostingValidationError, hostingErrorFromResponse, prepareExclusions, prepareTransfer, type CacheExclusion } from '../../../src/core/account/hosting';
import { HostingClient, basicCredentials, type HostingCredentials } from '../../../src/core/account/hostingClient';
import { HOSTING_IDS, HOSTING_USERS } from '../../localGateway/hosting';
import { useGateway } from '../gateway/helpers';
import { describeError } from '../../../src/core/errorText';

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
const HOUR = 3600_000;
const OWNER: HostingCredentials = { username: 'owner', password: HOSTING_USERS.owner.password };
const VIEWER: HostingCredentials = { username: 'viewer', password: HOSTING_USERS.viewer.password };

describe('hosting account API', () => {
  const gw = useGateway({ now: () => new Date(NOW) });
  const client = (creds: HostingCredentials | undefined = OWNER) =>
    new HostingClient({ baseUrl: () => `${gw().url}/hosting`, getCredentials: async () => creds, fetch: (url, init) => fetch(url, init), userAgent: 'test', now: () => NOW });
  const rejectsWith = async (p: Promise<unknown>, status: number): Promise<HostingError> => {
    const e = await p.then(
      () => undefined,
      (err: unknown) => err,
    );
    assert.ok(e instanceof HostingError, `expected a HostingError, got ${String(e)}`);
    assert.equal(e.status, status, e.message);
    return e;
  };

  test('[H-AUTH-1] requests carry Basic credentials; a bad one gets 401 with message text only; insufficient permission 403', async () => {
    assert.match(basicCredentials(OWNER), /^Basic [A-Za-z0-9+/=]+$/);
    const e = await rejectsWith(client({ username: 'owner', password: 'wrong' }).getCacheExclusions(HOSTING_IDS.installNormal), 401);
    assert.equal(e.reason, 'authentication');
    assert.deepEqual(e.errors, []);
    const raw = await fetch(`${gw().url}/hosting/v1/installs/${HOSTING_IDS.installNormal}/cache_exclusions`);
    assert.equal(raw.status, 401);
    assert.deepEqual(Object.keys((await raw.json()) as object), ['message']);
    await rejectsWith(client(VIEWER).putCacheExclusions(HOSTING_IDS.installNormal, []), 403);
  });

  test('[H-CE-1] [H-CE-3] PUT replaces the whole set; cookie entries are ignored on write and kept in the response', async () => {
    const c = client();
    const before = await c.getCacheExclusions(HOSTING_IDS.installNormal);
    assert.ok(before.some((e) => e.type === 'cookie'));
    // Sending back what was read changes nothing (H-CE-3).
    assert.deepEqual(await c.putCacheExclusions(HOSTING_IDS.installNormal, before), before);
    const replaced = await c.putCacheExclusions(HOSTING_IDS.installNormal, [{ type: 'url path', value: '^/account' }, { type: 'cookie', value: '^mine$' }]);
    assert.deepEqual(replaced.filter((e) => e.type !== 'cookie'), [{ type: 'url path', value: '^/account' }], 'absent exclusions are removed');
    assert.deepEqual(replaced.filter((e) => e.type === 'cookie'), before.filter((e) => e.type === 'cookie'), 'written cookie entries are ignored, platform ones stay');
    const cleared = await c.putCacheExclusions(HOSTING_IDS.installNormal, []);
    assert.deepEqual(cleared.filter((e) => e.type !== 'cookie'), [], 'an empty array clears every writable exclusion');
  });

  test('[H-CE-2] duplicate entries are collapsed (client preview and server)', async () => {
    const dup: CacheExclusion[] = [{ type: 'query arg', value: '^ref$' }, { type: 'query arg', value: '^ref$' }, { type: 'url path', value: '^ref$' }];
    assert.equal(prepareExclusions(dup).length, 2);
    const raw = await fetch(`${gw().url}/hosting/v1/installs/${HOSTING_IDS.installNormal}/cache_exclusions`, {
      method: 'PUT',
      headers: { Authorization: basicCredentials(OWNER), 'Content-Type': 'application/json' },
      body: JSON.stringify({ exclusions: dup }),
    });
    const results = ((await raw.json()) as { results: CacheExclusion[] }).results.filter((e) => e.type !== 'cookie');
    assert.equal(results.length, 2);
  });

  test('[H-CE-4] [H-ERR-1] an invalid regular expression gets 400 with errors[]; the client refuses it before sending', async () => {
    assert.throws(() => prepareExclusions([{ type: 'url path', value: '^/(cart' }]), HostingValidationError);
    const raw = await fetch(`${gw().url}/hosting/v1/installs/${HOSTING_IDS.installNormal}/cache_exclusions`, {
      method: 'PUT',
      headers: { Authorization: basicCredentials(OWNER), 'Content-Type': 'application/json' },
      body: JSON.stringify({ exclusions: [{ type: 'url path', value: '^/(cart' }] }),
    });
    assert.equal(raw.status, 400);
    const err = hostingErrorFromResponse(400, await raw.text());
    assert.equal(err.reason, 'invalid_request');
    assert.ok(err.documentationUrl);
    assert.equal(err.errors[0].code, 'invalid_regex');
    assert.match(describeError(err).message, /exclusions\[0\]\.value/);
  });

  test('[H-CE-5] an ineligible account gets 403', async () => {
    await rejectsWith(client().putCacheExclusions(HOSTING_IDS.installIneligible, []), 403);
  });

  test('[H-CE-6] while transferable, PUT gets 409 and changes nothing; GET still works', async () => {
    const c = client();
    const before = await c.getCacheExclusions(HOSTING_IDS.installTransferable);
    const e = await rejectsWith(c.putCacheExclusions(HOSTING_IDS.installTransferable, []), 409);
    assert.equal(e.reason, 'conflict');
    assert.deepEqual(await c.getCacheExclusions(HOSTING_IDS.installTransferable), before);
  });

  test('[H-CE-7] type is one of query arg, url path, cookie', () => {
    assert.throws(() => prepareExclusions([{ type: 'header' as 'cookie', value: 'x' }]), /query arg/);
    assert.doesNotThrow(() => prepareExclusions([{ type: 'query arg', value: 'a' }, { type: 'url path', value: 'b' }, { type: 'cookie', value: 'c' }]));
  });

  test('[H-TR-1] [H-TR-4] [H-TR-5] the client checks accounts, the schedule window and defaults maintenance_mode to false', () => {
    const dest = HOSTING_IDS.accountDestination;
    assert.throws(() => prepareTransfer({ originAccountId: dest, destinationAccountId: dest }, NOW), /differ/);
    assert.deepEqual(prepareTransfer({ destinationAccountId: dest }, NOW), { destination_account_id: dest, maintenance_mode: false });
    assert.throws(() => prepareTransfer({ destinationAccountId: dest, scheduledTime: new Date(NOW + HOUR - 1000) }, NOW), /1 hour and 7 days/);
    assert.throws(() => prepareTransfer({ destinationAccountId: dest, scheduledTime: new Date(NOW + 7 * 24 * HOUR + 1000) }, NOW), /1 hour and 7 days/);
    assert.equal(prepareTransfer({ destinationAccountId: dest, scheduledTime: new Date(NOW + 2 * HOUR) }, NOW).scheduled_time, new Date(NOW + 2 * HOUR).toISOString());
  });

  test('[H-TR-4] [H-TR-6] [H-TR-7] immediate transfer is pending with null scheduled_time; cancel before start works; a second cancel is a conflict', async () => {
    const c = client();
    const t = await c.requestTransfer(HOSTING_IDS.siteNormal, { destinationAccountId: HOSTING_IDS.accountDestination });
    assert.equal(t.status, 'pending');
    assert.equal(t.scheduled_time, null);
    assert.equal(t.site, 'blog');
    assert.equal(await c.cancelTransfer(HOSTING_IDS.siteNormal, t.id), 'Transfer cancelled');
    await rejectsWith(c.cancelTransfer(HOSTING_IDS.siteNormal, t.id), 409);
    const s = await c.requestTransfer(HOSTING_IDS.siteNormal, { destinationAccountId: HOSTING_IDS.accountDestination, scheduledTime: new Date(NOW + 3 * HOUR), maintenanceMode: true });
    assert.equal(s.status, 'scheduled');
    assert.equal(s.scheduled_time, new Date(NOW + 3 * HOUR).toISOString());
    const created = gw().events.list('hosting-transfer-created');
    assert.deepEqual(created.map((e) => e.maintenance_mode), [false, true], 'maintenance_mode defaults to false [H-TR-5]');
    // H-TR-8: an active transfer already exists now.
    const dupe = await rejectsWith(c.requestTransfer(HOSTING_IDS.siteNormal, { destinationAccountId: HOSTING_IDS.accountDestination }), 409);
    assert.equal(dupe.errors[0].code, 'active_transfer');
    await c.cancelTransfer(HOSTING_IDS.siteNormal, s.id);
  });

  test('[H-TR-7] a started transfer cannot be cancelled: 409 and nothing changes', async () => {
    const e = await rejectsWith(client().cancelTransfer(HOSTING_IDS.siteStarted, HOSTING_IDS.transferStarted), 409);
    assert.equal(e.errors[0].code, 'already_started');
    await rejectsWith(client().cancelTransfer(HOSTING_IDS.siteStarted, HOSTING_IDS.transferStarted), 409);
  });

  test('[H-TR-2] [H-TR-3] [H-TR-8] sandbox sites and destinations without a data centre get 409; bad parameters 422', async () => {
    const sandbox = await rejectsWith(client().requestTransfer(HOSTING_IDS.siteSandbox, { destinationAccountId: HOSTING_IDS.accountDestination }), 409);
    assert.equal(sandbox.errors[0].code, 'sandbox_site');
    const noDc = await rejectsWith(client().requestTransfer(HOSTING_IDS.siteNormal, { destinationAccountId: HOSTING_IDS.accountNoDataCenter }), 409);
    assert.equal(noDc.errors[0].code, 'no_preferred_data_center');
    // The server is the judge too: bypass the client's checks to see its 422 (H-TR-1, H-TR-4).
    const raw = await fetch(`${gw().url}/hosting/v1/sites/${HOSTING_IDS.siteNormal}/site_transfers`, {
      method: 'POST',
      headers: { Authorization: basicCredentials(OWNER), 'Content-Type': 'application/json' },
      body: JSON.stringify({ destination_account_id: HOSTING_IDS.accountDestination, scheduled_time: new Date(NOW + 60_000).toISOString() }),
    });
    assert.equal(raw.status, 422);
    const err = hostingErrorFromResponse(422, await raw.text());
    assert.equal(err.reason, 'validation');
    assert.equal(err.errors[0].field, 'scheduled_time');
    const same = await fetch(`${gw().url}/hosting/v1/sites/${HOSTING_IDS.siteNormal}/site_transfers`, {
      method: 'POST',
      headers: { Authorization: basicCredentials(OWNER), 'Content-Type': 'application/json' },
      body: JSON.stringify({ destination_account_id: HOSTING_IDS.accountOrigin }),
    });
    assert.equal(same.status, 422);
  });

  test('[H-ERR-1] error bodies by status: 401/403/404 message (+docs), 500 message, plain text tolerated', () => {
    const nf = hostingErrorFromResponse(404, '{"message":"Site not found","documentation_url":"https://d"}');
    assert.equal(nf.reason, 'not_found');
    assert.equal(nf.documentationUrl, 'https://d');
    assert.deepEqual(nf.errors, []);
    assert.equal(hostingErrorFromResponse(500, '{"message":"boom"}').message, 'boom');
    assert.equal(hostingErrorFromResponse(401, 'Invalid credentials').message, 'Invalid credentials');
    assert.equal(hostingErrorFromResponse(429, '<html>busy</html>').reason, 'throttled');
    const withErrors = hostingErrorFromResponse(409, '{"message":"m","errors":[{"resource":"site","field":"f","type":"access_error","code":"c","message":"x"},{"resource":"r"}]}');
    assert.equal(withErrors.errors.length, 2);
    assert.equal(withErrors.errors[1].field, undefined, 'field, type, code and message are optional');
  });
});
