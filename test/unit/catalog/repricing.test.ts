import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeRateChanges, detectRepricing } from '../../../src/core/catalog/repricing';
import { catalog, model } from './fixtures';

const priced = (id: string, version: string, rates: Record<string, string>) =>
  model(id, { pricing: { pricing_version: version, unit: 'credits', ...rates } });

test('[G-CAT-9] a pricing_version change is a repricing naming the models whose rates changed, old and new', () => {
  const before = catalog(priced('a/x', 'v1', { input_per_million: '2.50', output_per_million: '10' }), priced('a/y', 'v1', { input_per_million: '1' }), priced('a/img', 'v1', { per_image: '40' }));
  const after = catalog(priced('a/x', 'v2', { input_per_million: '2.5', output_per_million: '12' }), priced('a/y', 'v2', { input_per_million: '1' }), priced('a/img', 'v2', { per_image: '40', input_per_million: '3' }));
  const report = detectRepricing(before, after);
  assert.ok(report);
  assert.deepEqual(report.oldVersions, ['v1']);
  assert.deepEqual(report.newVersions, ['v2']);
  assert.deepEqual(report.models.map((m) => m.modelId), ['a/x', 'a/img']);
  // "2.50" -> "2.5" is the same rate and is not reported.
  assert.deepEqual(report.models[0].changes, [{ key: 'output_per_million', label: 'Output', per: '1M tokens', old: '10', new: '12' }]);
  assert.deepEqual(report.models[1].changes, [{ key: 'input_per_million', label: 'Input', per: '1M tokens', old: undefined, new: '3' }]);
  assert.equal(describeRateChanges(report.models[0]), 'x (a/x): output 10 → 12 credits / 1M tokens');
  assert.equal(describeRateChanges(report.models[1]), 'img (a/img): input none → 3 credits / 1M tokens');
});

test('[G-CAT-9] same pricing_version is no repricing; the first fetch is never one', () => {
  const c = catalog(priced('a/x', 'v1', { input_per_million: '2' }));
  assert.equal(detectRepricing(c, catalog(priced('a/x', 'v1', { input_per_million: '2' }))), undefined);
  assert.equal(detectRepricing(undefined, c), undefined);
});

test('[G-CAT-9] a version change with no rate change still reports, with no models named', () => {
  const r = detectRepricing(catalog(priced('a/x', 'v1', { input_per_million: '2' })), catalog(priced('a/x', 'v2', { input_per_million: '2.0' })));
  assert.ok(r);
  assert.deepEqual(r.models, []);
});
