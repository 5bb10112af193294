import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { modelDetails, temperatureAllowed, temperatureRange, temperatureText } from '../../../src/core/catalog/details';
import { rateLines, sameRate } from '../../../src/core/catalog/pricingDisplay';
import { at, model } from './fixtures';

const NOW = at('2026-06-10');
const value = (d: ReturnType<typeof modelDetails>, label: string) => d.lines.find((l) => l.label === label)?.value;

describe('model details', () => {
  test('lists id, provider, owned_by, capabilities, context window', () => {
    const d = modelDetails(model('openai/gpt-x', { owned_by: 'OpenAI Inc', capabilities: ['chat', 'tools'], context_window: 128000, max_output_tokens: 16384 }), NOW);
    assert.equal(value(d, 'ID'), 'openai/gpt-x');
    assert.equal(value(d, 'Provider'), 'OpenAI');
    assert.equal(value(d, 'Owned by'), 'OpenAI Inc');
    assert.equal(value(d, 'Capabilities'), 'chat, tools');
    assert.equal(value(d, 'Context window'), '128,000 tokens');
    assert.equal(value(d, 'Max output'), '16,384 tokens');
  });

  test('[#31.1] the provider is shown by its name ("openai" -> "OpenAI", "deepseek" -> "DeepSeek"); an id outside the documented set as sent', () => {
    assert.equal(value(modelDetails(model('deepseek/r', { provider: 'deepseek' }), NOW), 'Provider'), 'DeepSeek');
    assert.equal(value(modelDetails(model('acme/x', { provider: 'acme-labs' }), NOW), 'Provider'), 'acme-labs');
    assert.equal(value(modelDetails(model('acme/x', { provider: '' }), NOW), 'Provider'), 'unknown');
  });

  test('[G-CAT-4] omitted max_output_tokens shows "no published limit"', () => {
    const d = modelDetails(model('a/b', { context_window: 1000 }), NOW);
    assert.equal(value(d, 'Max output'), 'no published limit');
  });

  test('[G-CAT-5] temperature.supported false shows "fixed by provider" and allows no value', () => {
    const m = model('a/b', { parameters: { temperature: { supported: false } } });
    assert.equal(temperatureText(m), 'fixed by provider');
    assert.deepEqual(temperatureRange(m), { kind: 'fixed' });
    assert.equal(temperatureAllowed(m, 0), false);
    assert.equal(temperatureAllowed(m, 1), false);
    assert.equal(value(modelDetails(m, NOW), 'Temperature'), 'fixed by provider');
  });

  test('[G-CAT-6] missing temperature.min means 0, and max is inclusive', () => {
    const m = model('a/b', { parameters: { temperature: { max: 2 } } });
    assert.equal(temperatureText(m), '0 to 2 (inclusive)');
    assert.equal(temperatureAllowed(m, 0), true);
    assert.equal(temperatureAllowed(m, 2), true);
    assert.equal(temperatureAllowed(m, 2.0001), false);
    assert.equal(temperatureAllowed(m, -0.1), false);
    const withMin = model('a/c', { parameters: { temperature: { min: 0.5, max: 1 } } });
    assert.equal(temperatureText(withMin), '0.5 to 1 (inclusive)');
    assert.equal(temperatureAllowed(withMin, 0.4), false);
    assert.equal(temperatureAllowed(withMin, 0.5), true);
    assert.equal(temperatureText(model('a/d')), 'not constrained');
  });

  test('[G-CAT-7] response formats list every accepted value', () => {
    const d = modelDetails(model('a/b', { parameters: { response_format_type: { values: ['text', 'json_object', 'json_schema'] } } }), NOW);
    assert.equal(value(d, 'Response formats'), 'text, json_object, json_schema');
    assert.equal(value(modelDetails(model('a/c'), NOW), 'Response formats'), 'not listed');
  });

  test('[G-CAT-8] every rate present is shown exactly from the decimal string, absent rates are not', () => {
    const pricing = {
      input_per_million: '0.000000001',
      output_per_million: '12.3456789012345678',
      cache_read_per_million: '0.10',
      pricing_version: '2026-05-01',
      unit: 'credits',
    };
    const d = modelDetails(model('a/b', { pricing }), NOW);
    assert.equal(value(d, 'Input'), '0.000000001 credits / 1M tokens');
    assert.equal(value(d, 'Output'), '12.3456789012345678 credits / 1M tokens');
    assert.equal(value(d, 'Cache read'), '0.10 credits / 1M tokens');
    assert.equal(value(d, 'Cache write'), undefined);
    assert.equal(value(d, 'Image'), undefined);
    assert.equal(value(d, 'Pricing version'), '2026-05-01');
    const image = rateLines({ per_image: '40', pricing_version: 'v', unit: 'credits' });
    assert.deepEqual(image.map((r) => r.text), ['40 credits / image']);
    assert.deepEqual(rateLines({ per_image: '4O', pricing_version: 'v', unit: 'credits' }).map((r) => r.text), ['4O (not a valid rate) / image']);
    assert.deepEqual(rateLines({ per_million_characters: '15', per_megabyte_audio: '6.5', pricing_version: 'v', unit: 'credits' }).map((r) => r.text), [
      '15 credits / 1M characters',
      '6.5 credits / MB of audio',
    ]);
  });

  test('[G-CAT-8] exact decimal comparison without floating point', () => {
    assert.ok(sameRate('002.500', '2.5'));
    assert.ok(sameRate('0.000', '0'));
    assert.ok(!sameRate('1e3', '1000'));
    assert.ok(sameRate('2.50', '2.5'));
    // Float maths would call these equal (both round to the same double).
    assert.ok(!sameRate('0.30000000000000001', '0.3'));
    assert.ok(!sameRate('9007199254740993', '9007199254740992'));
    assert.ok(!sameRate(undefined, '1'));
  });

  test('deprecation notice gives both dates and the alternative named in the description', () => {
    const m = model('google/old', { description: 'Superseded: use google/new instead.', deprecation_date: '2026-05-01', removal_date: '2026-06-13' });
    const d = modelDetails(m, NOW, new Set(['google/old', 'google/new']));
    assert.equal(d.lifecycle.state, 'deprecated');
    assert.equal(d.warning, 'Deprecated since 2026-05-01. Removal date: 2026-06-13 (removed in 3 days). Alternative: google/new.');
    const noAlt = modelDetails(model('a/b', { description: 'Legacy model.', deprecation_date: '2026-05-01' }), NOW);
    assert.equal(noAlt.warning, 'Deprecated since 2026-05-01. No removal date announced. Legacy model.');
    assert.equal(modelDetails(model('a/c'), NOW).warning, undefined);
  });
});
