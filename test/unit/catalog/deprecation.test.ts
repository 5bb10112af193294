import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { modelLifecycle, parseUtcDay, removalPhrase, utcDayOf } from '../../../src/core/catalog/deprecation';
import { at } from './fixtures';

describe('deprecation arithmetic in whole UTC days', () => {
  test('parseUtcDay accepts real calendar dates only', () => {
    assert.equal(parseUtcDay('1970-01-02'), 1);
    assert.equal(parseUtcDay('2024-02-29'), parseUtcDay('2024-02-28')! + 1);
    assert.equal(parseUtcDay('2026-02-29'), undefined);
    assert.equal(parseUtcDay('2026-13-01'), undefined);
    assert.equal(parseUtcDay('2026-1-01'), undefined);
    assert.equal(parseUtcDay('2026-01-01T00:00:00Z'), undefined);
    assert.equal(parseUtcDay(undefined), undefined);
  });

  test('utcDayOf uses UTC, not the local zone: 23:59:59.999 and 00:00 are different days', () => {
    assert.equal(utcDayOf(new Date('2026-03-10T23:59:59.999Z')), parseUtcDay('2026-03-10'));
    assert.equal(utcDayOf(new Date('2026-03-11T00:00:00.000Z')), parseUtcDay('2026-03-11'));
    // 2026-03-10T23:30 in UTC-05:00 is already the 11th in UTC.
    assert.equal(utcDayOf(new Date('2026-03-10T23:30:00-05:00')), parseUtcDay('2026-03-11'));
  });

  test('[G-CAT-10] deprecated from the start of deprecation_date (UTC), active the instant before', () => {
    const m = { deprecation_date: '2026-05-01' };
    assert.equal(modelLifecycle(m, new Date('2026-04-30T23:59:59.999Z')).state, 'active');
    assert.equal(modelLifecycle(m, new Date('2026-05-01T00:00:00.000Z')).state, 'deprecated');
    assert.equal(modelLifecycle(m, at('2026-05-02')).state, 'deprecated');
    assert.equal(modelLifecycle(m, at('2027-05-02')).state, 'deprecated');
  });

  test('[G-CAT-11] removed from the start of removal_date (UTC); counts down in whole days before', () => {
    const m = { deprecation_date: '2026-05-01', removal_date: '2026-06-01' };
    const before = modelLifecycle(m, at('2026-05-29', '00:00:01'));
    assert.equal(before.state, 'deprecated');
    assert.equal(before.daysUntilRemoval, 3);
    assert.equal(removalPhrase(before), 'removed in 3 days');
    // Any instant of the last day counts 1, including one millisecond before midnight.
    const lastDay = modelLifecycle(m, new Date('2026-05-31T23:59:59.999Z'));
    assert.equal(lastDay.daysUntilRemoval, 1);
    assert.equal(removalPhrase(lastDay), 'removed in 1 day');
    assert.equal(modelLifecycle(m, new Date('2026-05-31T00:00:00.000Z')).daysUntilRemoval, 1);
    const onDay = modelLifecycle(m, new Date('2026-06-01T00:00:00.000Z'));
    assert.equal(onDay.state, 'removed');
    assert.equal(onDay.daysUntilRemoval, undefined);
    assert.equal(modelLifecycle(m, at('2026-06-02')).state, 'removed');
  });

  test('[G-CAT-11] removal counts across a month end and a leap day', () => {
    assert.equal(modelLifecycle({ removal_date: '2028-03-01' }, at('2028-02-28')).daysUntilRemoval, 2);
    assert.equal(modelLifecycle({ removal_date: '2027-03-01' }, at('2027-02-28')).daysUntilRemoval, 1);
    assert.equal(modelLifecycle({ removal_date: '2027-01-01' }, at('2026-12-31')).daysUntilRemoval, 1);
  });

  test('[G-CAT-12] deprecated with no removal date: deprecated, no countdown', () => {
    const l = modelLifecycle({ deprecation_date: '2026-01-01' }, at('2026-09-09'));
    assert.equal(l.state, 'deprecated');
    assert.equal(l.removalDate, undefined);
    assert.equal(l.daysUntilRemoval, undefined);
    assert.equal(removalPhrase(l), undefined);
  });

  test('a future deprecation_date alone is not yet deprecated; a scheduled removal alone is', () => {
    assert.equal(modelLifecycle({ deprecation_date: '2026-10-01' }, at('2026-09-30')).state, 'active');
    const l = modelLifecycle({ removal_date: '2026-10-01' }, at('2026-09-20'));
    assert.equal(l.state, 'deprecated');
    assert.equal(l.daysUntilRemoval, 11);
  });

  test('malformed dates are ignored rather than crashing or removing the model', () => {
    const l = modelLifecycle({ deprecation_date: 'soon', removal_date: '2026-02-30' }, at('2030-01-01'));
    assert.equal(l.state, 'active');
    assert.equal(l.removalDate, undefined);
  });
});
