/**
 * The client's side of the schedule window and the exclusion types, with the spec's numbers and words
 * (never the client's constants): the client and the local gateway agree at both ends of "between 1 hour
 * and 7 days in the future", so a transfer the form allows is never refused by the server and the other
 * way round (issue 27, item 13).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { HostingValidationError, prepareExclusions, prepareTransfer } from '../../../src/core/account/hosting';
import { HostingClient, type HostingCredentials } from '../../../src/core/account/hostingClient';
import { HOSTING_IDS, HOSTING_USERS } from '../../localGateway/hosting';
import { useGateway } from '../gateway/helpers';

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
const ONE_HOUR = 60 * 60 * 1000;
const SEVEN_DAYS = 7 * 24 * ONE_HOUR;
const OWNER: HostingCredentials = { username: 'owner', password: HOSTING_USERS.owner.password };
const DEST = HOSTING_IDS.accountDestination;

describe('hosting schedule window and exclusion types, client against the spec', () => {
  const gw = useGateway({ now: () => new Date(NOW) });
  const client = () => new HostingClient({ baseUrl: () => `${gw().url}/hosting`, getCredentials: async () => OWNER, fetch: (url, init) => fetch(url, init), userAgent: 'test', now: () => NOW });

  test('[H-TR-4] the client allows exactly 1 hour and exactly 7 days ahead, and refuses a millisecond outside either end', () => {
    for (const ok of [ONE_HOUR, ONE_HOUR + 1, SEVEN_DAYS - 1, SEVEN_DAYS]) {
      assert.equal(prepareTransfer({ destinationAccountId: DEST, scheduledTime: new Date(NOW + ok) }, NOW).scheduled_time, new Date(NOW + ok).toISOString(), String(ok));
    }
    for (const bad of [ONE_HOUR - 1, SEVEN_DAYS + 1, 8 * 24 * ONE_HOUR, 0, -ONE_HOUR]) {
      assert.throws(() => prepareTransfer({ destinationAccountId: DEST, scheduledTime: new Date(NOW + bad) }, NOW), HostingValidationError, String(bad));
    }
  });

  test('[H-TR-4] what the client allows at both ends, the local gateway accepts', async () => {
    const c = client();
    for (const at of [ONE_HOUR, SEVEN_DAYS]) {
      const t = await c.requestTransfer(HOSTING_IDS.siteNormal, { destinationAccountId: DEST, scheduledTime: new Date(NOW + at) });
      assert.equal(t.status, 'scheduled');
      assert.equal(t.scheduled_time, new Date(NOW + at).toISOString());
      assert.equal(await c.cancelTransfer(HOSTING_IDS.siteNormal, t.id), 'Transfer cancelled');
    }
  });

  test('[H-CE-7] the client takes exactly query arg, url path and cookie', () => {
    assert.equal(prepareExclusions([{ type: 'query arg', value: 'a' }, { type: 'url path', value: 'b' }, { type: 'cookie', value: 'c' }]).length, 3);
    for (const type of ['header', 'Query Arg', 'url_path', '']) {
      assert.throws(() => prepareExclusions([{ type: type as 'cookie', value: 'x' }]), HostingValidationError, type);
    }
  });
});
