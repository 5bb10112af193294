import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chatModelOptions, temperatureBounds, temperatureToSend } from '../../../src/core/chat/modelOptions';
import type { Model } from '../../../src/core/gateway/types';

const NOW = Date.UTC(2026, 5, 15);
const m = (id: string, extra: Partial<Model> = {}): Model => ({
  id,
  object: 'model',
  owned_by: 'x',
  provider: 'openai',
  display_name: id.toUpperCase(),
  capabilities: ['chat'],
  ...extra,
});

test('[G-CAT-5] temperature supported:false hides the control and sends none', () => {
  const model = m('a/nt', { parameters: { temperature: { supported: false } } });
  assert.equal(temperatureBounds(model), undefined);
  assert.equal(temperatureToSend(model, 0.7), undefined);
  assert.equal(chatModelOptions([model], NOW)[0].temperature, undefined);
});

test('[G-CAT-6] a missing temperature min means 0 and max is inclusive', () => {
  const model = m('a/t', { parameters: { temperature: { max: 1.5 } } });
  assert.deepEqual(temperatureBounds(model), { min: 0, max: 1.5 });
  assert.equal(temperatureToSend(model, 1.5), 1.5);
  assert.equal(temperatureToSend(model, 9), 1.5);
  assert.equal(temperatureToSend(model, -1), 0);
  assert.equal(temperatureToSend(m('a/min', { parameters: { temperature: { min: 0.2, max: 1 } } }), 0), 0.2);
});

test('no explicit choice sends no temperature (provider default)', () => {
  assert.equal(temperatureToSend(m('a/t', { parameters: { temperature: { max: 2 } } }), undefined), undefined);
});

test('[G-CAT-3] [G-CAT-11] the picker offers chat-capable models that are not removed', () => {
  const models = [
    m('a/chat'),
    m('a/image', { capabilities: ['image_generation'] }),
    m('a/gone', { deprecation_date: '2025-01-01', removal_date: '2026-01-01' }),
    m('a/nocaps', { capabilities: undefined }),
  ];
  assert.deepEqual(
    chatModelOptions(models, NOW).map((o) => o.id),
    ['a/chat'],
  );
});

test('[G-CAT-10] a deprecated model stays selectable with a warning naming its alternative', () => {
  const models = [m('a/old', { deprecation_date: '2026-01-01', description: 'Deprecated: use a/new instead.' }), m('a/new')];
  const old = chatModelOptions(models, NOW).find((o) => o.id === 'a/old');
  assert.ok(old?.deprecated);
  assert.match(old?.warning ?? '', /A\/NEW \(a\/new\)/);
});

test('[G-CAT-12] deprecated with no removal date: no removal date is claimed', () => {
  const [o] = chatModelOptions([m('a/old', { deprecation_date: '2026-01-01' })], NOW);
  assert.ok(o.deprecated);
  assert.doesNotMatch(o.warning ?? '', /removed on/);
});
