import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  describeTransfer,
  formatApiTime,
  formatUtcTime,
  parseScheduledTime,
  scheduleExamples,
  transferRequestFromForm,
  transferSummary,
  validateUuidInput,
} from '../../../src/core/account/transferForm';
import { HostingError, HostingValidationError, isHostingError } from '../../../src/core/account/hosting';
import { describeError } from '../../../src/core/errorText';
import { HostingClient } from '../../../src/core/account/hostingClient';
import { HOSTING_IDS, HOSTING_USERS } from '../../localGateway/hosting';
import { useGateway } from '../gateway/helpers';

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
const HOUR = 3_600_000;

describe('transfer form', () => {
  test('ids must be UUIDs; the message names the field', () => {
    assert.equal(validateUuidInput(HOSTING_IDS.siteNormal, 'site id'), undefined);
    assert.equal(validateUuidInput(` ${HOSTING_IDS.siteNormal} `, 'site id'), undefined);
    assert.match(validateUuidInput('blog', 'site id') ?? '', /site id must be a UUID/);
    assert.match(validateUuidInput('', 'transfer id') ?? '', /Enter the transfer id/);
  });

  test('[H-TR-4] scheduled time: relative or absolute, between 1 hour and 7 days ahead', () => {
    assert.deepEqual(parseScheduledTime('+2h', NOW), { date: new Date(NOW + 2 * HOUR) });
    assert.deepEqual(parseScheduledTime('2026-11-23 14:00', NOW), { date: new Date(Date.UTC(2026, 10, 23, 14)) });
    assert.deepEqual(parseScheduledTime('2026-11-23T14:00+01:00', NOW), { date: new Date(Date.UTC(2026, 10, 23, 13)) });
    assert.deepEqual(parseScheduledTime('+60m', NOW), { date: new Date(NOW + HOUR) }, 'exactly 1 hour is allowed');
    assert.deepEqual(parseScheduledTime('+7d', NOW), { date: new Date(NOW + 7 * 24 * HOUR) }, 'exactly 7 days is allowed');
    const soon = parseScheduledTime('+59m', NOW);
    assert.ok('error' in soon && /at least 1 hour ahead/.test(soon.error));
    const late = parseScheduledTime('+8d', NOW);
    assert.ok('error' in late && /at most 7 days ahead \(that is 8 days ahead\)/.test(late.error), JSON.stringify(late));
    const past = parseScheduledTime('2026-11-01 10:00', NOW);
    assert.ok('error' in past && /in the past/.test(past.error));
    assert.ok('error' in parseScheduledTime('tomorrow', NOW));
    assert.ok('error' in parseScheduledTime('2026-11-31 10:00', NOW), 'no rollover of impossible dates');
  });

  test('[H-TR-4] [H-TR-5] the request body: immediate omits scheduled_time; maintenance mode defaults to false', () => {
    const form = { siteId: HOSTING_IDS.siteNormal, destinationAccountId: HOSTING_IDS.accountDestination, maintenanceMode: false };
    assert.deepEqual(transferRequestFromForm(form, NOW), { destination_account_id: HOSTING_IDS.accountDestination, maintenance_mode: false });
    const at = new Date(NOW + 3 * HOUR);
    assert.deepEqual(transferRequestFromForm({ ...form, scheduledTime: at, maintenanceMode: true }, NOW), {
      destination_account_id: HOSTING_IDS.accountDestination,
      maintenance_mode: true,
      scheduled_time: at.toISOString(),
    });
    // The confirmation stayed open past the window: re-checked at send time.
    assert.throws(() => transferRequestFromForm({ ...form, scheduledTime: new Date(NOW + 2 * HOUR) }, NOW + 1.5 * HOUR), HostingValidationError);
    assert.throws(() => transferRequestFromForm({ ...form, siteId: 'blog' }, NOW), /site id must be a UUID/);
    assert.throws(() => transferRequestFromForm({ ...form, destinationAccountId: 'x' }, NOW), /destination account id must be a UUID/);
  });

  test('the confirmation summary states everything that will be sent', () => {
    const s = transferSummary({ siteId: HOSTING_IDS.siteNormal, destinationAccountId: HOSTING_IDS.accountDestination, scheduledTime: new Date(Date.UTC(2026, 10, 23, 14)), maintenanceMode: true });
    assert.match(s, new RegExp(`^Site: name not known yet\nID: ${HOSTING_IDS.siteNormal}\n`));
    assert.match(s, new RegExp(`\nDestination account: name not known yet\nID: ${HOSTING_IDS.accountDestination}\n`));
    assert.match(s, /When: scheduled for 2026-11-23 14:00 UTC\n/);
    assert.match(s, /Maintenance mode during the transfer: yes/);
    assert.match(transferSummary({ siteId: 'a', destinationAccountId: 'b', maintenanceMode: false }), /When: immediately\n.*maintenance mode during the transfer: no/i);
  });

  test('[#41.10] the summary names the site and the account as the API named them, each id alone on the line below; times without milliseconds', () => {
    const s = transferSummary({ siteId: HOSTING_IDS.siteNormal, destinationAccountId: HOSTING_IDS.accountDestination, scheduledTime: new Date(Date.UTC(2026, 10, 23, 14, 0, 30, 250)), maintenanceMode: false }, { site: 'blog', destination: 'Acme Agency' });
    assert.equal(s.split('\n').slice(0, 5).join('\n'), `Site: blog\nID: ${HOSTING_IDS.siteNormal}\nDestination account: Acme Agency\nID: ${HOSTING_IDS.accountDestination}\nWhen: scheduled for 2026-11-23 14:00:30 UTC`);
    assert.equal(formatUtcTime(new Date(Date.UTC(2026, 0, 5, 9, 7))), '2026-01-05 09:07 UTC');
    assert.equal(formatApiTime('2026-11-23T15:00:00.000+01:00'), '2026-11-23 14:00 UTC');
    assert.equal(formatApiTime('next tuesday'), 'next tuesday', 'a time the API wrote otherwise is shown as it came');
  });

  test('[#41.11] the scheduled-time examples are tomorrow at 14:00 UTC, inside the allowed window whatever the hour now', () => {
    assert.deepEqual(scheduleExamples(Date.UTC(2026, 10, 29, 5, 32)), { utc: '2026-11-30 14:00', withOffset: '2026-11-30T15:00+01:00' });
    assert.deepEqual(scheduleExamples(Date.UTC(2026, 11, 31, 23, 59)), { utc: '2027-01-01 14:00', withOffset: '2027-01-01T15:00+01:00' });
    for (const now of [Date.UTC(2026, 10, 29, 0, 0), Date.UTC(2026, 10, 29, 23, 59, 59)]) {
      const ex = scheduleExamples(now);
      for (const text of [ex.utc, ex.withOffset]) assert.ok('date' in parseScheduledTime(text, now), `${text} is accepted at ${new Date(now).toISOString()}`);
    }
    const bad = parseScheduledTime('soon', Date.UTC(2026, 10, 29, 5, 32));
    assert.ok('error' in bad);
    assert.match(bad.error, /such as 2026-11-30 14:00 \(UTC\), 2026-11-30T15:00\+01:00,/);
  });

  test('[H-ERR-1] error words: details listed, 401 offers credentials, docs link offered, transient offers retry', () => {
    const e401 = new HostingError('authentication', 'Bad credentials', 401);
    assert.deepEqual(describeError(e401, { operation: 'transfer' }).actions, ['setHostingCredentials']);
    const e422 = new HostingError('validation', 'Validation failed', 422, 'https://docs', [{ field: 'scheduled_time', message: 'must be at least 1 hour ahead' }]);
    const t = describeError(e422, { operation: 'transfer' });
    assert.match(t.message, /Refused \(422\): Validation failed \(scheduled_time: must be at least 1 hour ahead\)/);
    assert.deepEqual(t.actions, ['openDocs']);
    assert.deepEqual(describeError(new HostingError('unavailable', 'down', 503), { operation: 'cancelTransfer' }).actions, ['retry']);
    assert.match(describeError(new HostingError('validation', 'bad', 422), { operation: 'saveExclusions' }).message, /nothing was changed on the server\.$/);
    assert.match(describeError(new HostingError('unavailable', 'down', 503), { operation: 'saveExclusions' }).message, /may or may not have applied them/, 'a 503 after a PUT promises nothing');
    assert.match(describeError(new HostingError('network', 'Could not reach the hosting API', undefined), { operation: 'saveExclusions' }).message, /may or may not/);
    assert.ok(isHostingError(e401));
    assert.ok(!isHostingError(new Error('x')));
    assert.ok(isHostingError(Object.assign(new Error('x'), { name: 'HostingError', family: 'hosting', reason: 'conflict', partial: false })), 'duck-typed: the class from the lazy chunk is a different constructor');
  });
});

describe('transfers against the local gateway', () => {
  const gw = useGateway({ now: () => new Date(NOW) });
  const client = () =>
    new HostingClient({
      baseUrl: () => `${gw().url}/hosting`,
      getCredentials: async () => ({ username: 'owner', password: HOSTING_USERS.owner.password }),
      fetch: (url, init) => fetch(url, init),
      userAgent: 'test',
      now: () => NOW,
    });

  test('[H-TR-6] [H-TR-4] [#41.10] a scheduled transfer from the form is described with its status and id; it can be cancelled', async () => {
    const form = { siteId: HOSTING_IDS.siteNormal, destinationAccountId: HOSTING_IDS.accountDestination, scheduledTime: new Date(NOW + 3 * HOUR), maintenanceMode: true };
    const body = transferRequestFromForm(form, NOW);
    const t = await client().requestTransfer(form.siteId, { destinationAccountId: body.destination_account_id, scheduledTime: form.scheduledTime, maintenanceMode: body.maintenance_mode });
    assert.ok(['pending', 'scheduled'].includes(t.status));
    const text = describeTransfer(t);
    assert.match(text, new RegExp(`status ${t.status}, scheduled for 2026-11-22 15:00 UTC\\.`), '[#41.10] no ISO time with milliseconds');
    assert.match(text, new RegExp(`Transfer ID ${t.id}`));
    assert.match(await client().cancelTransfer(form.siteId, t.id), /Transfer cancelled/);
  });

  test('[H-TR-7] cancelling a started transfer: 409 explained as already started, nothing changed', async () => {
    const err = await client()
      .cancelTransfer(HOSTING_IDS.siteStarted, HOSTING_IDS.transferStarted)
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    assert.ok(err instanceof HostingError && err.status === 409);
    const text = describeError(err, { operation: 'cancelTransfer' }).message;
    assert.match(text, /^Cancelling the site transfer: the transfer has already started and can no longer be cancelled \(409/);
    assert.match(text, /Nothing was changed\.$/);
  });

  test('[H-TR-2] [H-TR-8] a sandbox site: 409 explained with the possible causes', async () => {
    const err = await client()
      .requestTransfer(HOSTING_IDS.siteSandbox, { destinationAccountId: HOSTING_IDS.accountDestination })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    assert.ok(err instanceof HostingError && err.status === 409, String(err));
    assert.match(describeError(err, { operation: 'transfer' }).message, /not in a transferable state/);
  });
});
