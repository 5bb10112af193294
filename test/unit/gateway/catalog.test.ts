import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CAPABILITIES, PROVIDERS, type Model, type ModelCatalog } from '../../../src/core/gateway/types';
import { startGateway } from '../../localGateway/server';
import { chat, envelopeOf, useGateway, userSays } from './helpers';

// A fixed clock, so the dates below are exact; the catalog computes every date from it.
const NOW = new Date('2031-03-15T12:00:00Z');

async function catalog(url: string): Promise<ModelCatalog> {
  const res = await fetch(`${url}/v1/models`);
  assert.equal(res.status, 200);
  return (await res.json()) as ModelCatalog;
}

function byId(models: Model[], id: string): Model {
  const m = models.find((x) => x.id === id);
  assert.ok(m, `model ${id} missing`);
  return m;
}

describe('local gateway: catalog', () => {
  const gw = useGateway({ now: () => NOW });

  test('[G-CAT-1] GET /v1/models needs no auth and returns {object:"list", data} of object:"model" entries', async () => {
    const res = await fetch(`${gw().url}/v1/models`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    const body = (await res.json()) as ModelCatalog;
    assert.equal(body.object, 'list');
    assert.ok(body.data.length >= 30, `only ${body.data.length} models`);
    for (const m of body.data) {
      assert.equal(m.object, 'model', m.id);
      assert.match(m.id, /^[^/]+\/[^/]+$/, 'id is <owner>/<model>');
      assert.equal(typeof m.owned_by, 'string');
      assert.equal(typeof m.display_name, 'string');
    }
    assert.equal(new Set(body.data.map((m) => m.id)).size, body.data.length, 'ids are unique');
  });

  test('[G-CAT-2] every provider of the documented nine appears, and only those', async () => {
    const { data } = await catalog(gw().url);
    assert.deepEqual(new Set(data.map((m) => m.provider)), new Set(PROVIDERS));
  });

  test('[G-CAT-3] capabilities come from the documented set and every value is used; some models lack tools', async () => {
    const { data } = await catalog(gw().url);
    const used = new Set(data.flatMap((m) => m.capabilities ?? []));
    for (const c of used) assert.ok((CAPABILITIES as readonly string[]).includes(c), `undocumented capability ${c}`);
    assert.deepEqual(used, new Set(CAPABILITIES));
    const chatOnly = data.filter((m) => m.capabilities?.includes('chat') && !m.capabilities.includes('tools'));
    assert.ok(chatOnly.length > 0, 'a chat model without tools exists, so tool pickers have something to hide');
  });

  test('[G-CAT-4] some chat models omit max_output_tokens (no published limit), others publish it', async () => {
    const { data } = await catalog(gw().url);
    const chatModels = data.filter((m) => m.capabilities?.includes('chat'));
    assert.ok(chatModels.some((m) => !('max_output_tokens' in m)));
    assert.ok(chatModels.some((m) => typeof m.max_output_tokens === 'number'));
  });

  test('[G-CAT-5] temperature.supported:false models reject any explicit temperature and accept none', async () => {
    const { data } = await catalog(gw().url);
    const model = data.find((m) => m.parameters?.temperature?.supported === false && m.capabilities?.includes('chat'));
    assert.ok(model);
    assert.equal(model.parameters?.temperature?.max, undefined, 'supported:false publishes no max');
    for (const t of [0, 1]) {
      const res = await chat(gw(), userSays('hello', model.id, { temperature: t }));
      assert.equal(res.status, 400);
      const err = await envelopeOf(res);
      assert.equal(err.type, 'invalid_request_error');
      assert.match(err.message, /temperature/);
    }
    const ok = await chat(gw(), userSays('hello', model.id));
    assert.equal(ok.status, 200);
  });

  test('[G-CAT-6] a missing temperature.min means 0 and max is inclusive; a published min is enforced', async () => {
    const { data } = await catalog(gw().url);
    const noMin = data.find((m) => m.parameters?.temperature?.max !== undefined && m.parameters.temperature.min === undefined && m.capabilities?.includes('chat'));
    assert.ok(noMin);
    const max = noMin.parameters?.temperature?.max ?? NaN;
    for (const [t, status] of [
      [0, 200],
      [max, 200],
      [-0.01, 400],
      [max + 0.01, 400],
    ] as const) {
      const res = await chat(gw(), userSays('hi', noMin.id, { temperature: t }));
      assert.equal(res.status, status, `temperature ${t} on ${noMin.id}`);
      await res.arrayBuffer();
    }
    const withMin = data.find((m) => (m.parameters?.temperature?.min ?? 0) > 0);
    assert.ok(withMin);
    const min = withMin.parameters?.temperature?.min ?? NaN;
    assert.equal((await chat(gw(), userSays('hi', withMin.id, { temperature: 0 }))).status, 400);
    const atMin = await chat(gw(), userSays('hi', withMin.id, { temperature: min }));
    assert.equal(atMin.status, 200);
  });

  test('[G-CAT-7] response_format_type.values lists every accepted value: each is accepted, others are not', async () => {
    const { data } = await catalog(gw().url);
    const model = data.find((m) => (m.parameters?.response_format_type?.values.length ?? 0) > 1);
    assert.ok(model);
    for (const type of model.parameters?.response_format_type?.values ?? []) {
      const res = await chat(gw(), userSays('json please', model.id, { response_format: { type } }));
      assert.equal(res.status, 200, type);
      await res.arrayBuffer();
    }
    const res = await chat(gw(), userSays('json please', model.id, { response_format: { type: 'yaml' } }));
    assert.equal(res.status, 400);
    assert.equal((await envelopeOf(res)).type, 'invalid_request_error');
  });

  test('[G-CAT-8] pricing values are decimal strings, unit is credits, only applicable rates appear, every field is used', async () => {
    const { data } = await catalog(gw().url);
    const seen = new Set<string>();
    for (const m of data) {
      if (m.pricing === undefined) continue;
      assert.equal(m.pricing.unit, 'credits');
      assert.equal(typeof m.pricing.pricing_version, 'string');
      for (const [field, value] of Object.entries(m.pricing)) {
        if (field === 'unit' || field === 'pricing_version') continue;
        assert.equal(typeof value, 'string', `${m.id}.${field} is a string`);
        assert.match(value as string, /^\d+(\.\d+)?$/, `${m.id}.${field} is a plain decimal`);
        seen.add(field);
      }
      if (m.capabilities?.includes('image_generation')) {
        assert.ok(m.pricing.per_image !== undefined && m.pricing.input_per_million === undefined, `${m.id}: image models carry per_image only`);
      }
    }
    assert.deepEqual(
      seen,
      new Set(['input_per_million', 'output_per_million', 'cache_read_per_million', 'cache_write_per_million', 'reasoning_per_million', 'per_image', 'per_million_characters', 'per_megabyte_audio']),
    );
    const rates = data.flatMap((m) => Object.values(m.pricing ?? {}));
    assert.ok(rates.includes('0.0000001') && rates.includes('0.3333333333'), 'awkward decimals are present');
    assert.ok(data.some((m) => m.pricing === undefined), 'a model without pricing exists');
  });

  test('[G-CAT-9] repricing changes pricing_version and some rates (API and control endpoint)', async () => {
    const before = await catalog(gw().url);
    gw().configure({ repriced: true });
    try {
      const after = await catalog(gw().url);
      const versions = new Set(after.data.flatMap((m) => (m.pricing ? [m.pricing.pricing_version] : [])));
      assert.equal(versions.size, 1);
      assert.notEqual([...versions][0], before.data.find((m) => m.pricing)?.pricing?.pricing_version);
      const changed = after.data.filter((m) => JSON.stringify({ ...m.pricing, pricing_version: '' }) !== JSON.stringify({ ...byId(before.data, m.id).pricing, pricing_version: '' }));
      assert.ok(changed.length >= 2, 'some rates changed');
    } finally {
      gw().configure({ repriced: false });
    }
    const control = await fetch(`${gw().url}/__control/config`, { method: 'POST', body: JSON.stringify({ pricingVersion: 'test-v9' }) });
    assert.equal(control.status, 200);
    const third = await catalog(gw().url);
    assert.equal(third.data.find((m) => m.pricing)?.pricing?.pricing_version, 'test-v9');
    gw().reset();
  });

  test('[G-CAT-10] a model whose deprecation_date has passed is still served and its description names the alternative', async () => {
    const { data } = await catalog(gw().url);
    const m = byId(data, 'openai/gpt-4o');
    assert.equal(m.deprecation_date, '2031-02-13', '30 days before the gateway clock');
    assert.equal(m.removal_date, '2031-04-29', '45 days after the gateway clock');
    assert.match(m.description ?? '', /use openai\/gpt-5\.1 instead/);
    const res = await chat(gw(), userSays('still there?', m.id));
    assert.equal(res.status, 200);
    assert.ok(data.some((x) => x.deprecation_date !== undefined && x.deprecation_date > '2031-03-15'), 'a future deprecation exists too');
  });

  test('[G-CAT-11] a model whose removal_date has passed is rejected by chat completions with 400', async () => {
    const { data } = await catalog(gw().url);
    const removed = data.filter((m) => m.removal_date !== undefined && m.removal_date <= '2031-03-15');
    assert.ok(removed.length >= 2);
    for (const m of removed) {
      const res = await chat(gw(), userSays('hello', m.id));
      assert.equal(res.status, 400, m.id);
      const err = await envelopeOf(res);
      assert.equal(err.type, 'invalid_request_error');
      assert.match(err.message, /removed/);
    }
  });

  test('[G-CAT-12] a model can be deprecated with no removal date', async () => {
    const { data } = await catalog(gw().url);
    const m = data.find((x) => x.deprecation_date !== undefined && x.removal_date === undefined);
    assert.ok(m);
    assert.ok(m.deprecation_date !== undefined && m.deprecation_date < '2031-03-15');
    assert.equal((await chat(gw(), userSays('hi', m.id))).status, 200);
  });

  test('[G-CAT-11] catalog dates follow the gateway clock, so removed models stay removed and deprecated ones stay served', async () => {
    const later = await startGateway({ now: () => new Date('2031-06-13T12:00:00Z') });
    try {
      const { data } = await catalog(later.url);
      const m = byId(data, 'openai/gpt-4o');
      assert.equal(m.removal_date, '2031-07-28');
      const res = await chat(later, userSays('hi', 'openai/gpt-4o'));
      assert.equal(res.status, 200, 'not yet removed on the later clock either');
      await res.arrayBuffer();
      const gone = await chat(later, userSays('hi', 'openai/gpt-4-turbo'));
      assert.equal(gone.status, 400);
      await gone.arrayBuffer();
    } finally {
      await later.close();
    }
  });

  test('[G-CAT-13] the catalog route can answer 429 (HTML) and recovers on the next request', async () => {
    gw().faults.add({ kind: 'throttled', route: '/v1/models' });
    const res = await fetch(`${gw().url}/v1/models`);
    assert.equal(res.status, 429);
    assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(await res.text(), /<html/i);
    const again = await fetch(`${gw().url}/v1/models`);
    assert.equal(again.status, 200);
    await again.arrayBuffer();
  });

  test('[G-CAT-14] GET /v1/models/{owner}/{model}/schema needs no auth; unknown models get a 404 envelope', async () => {
    const res = await fetch(`${gw().url}/v1/models/minimax/minimax-m2/schema`);
    assert.equal(res.status, 200);
    const schema = (await res.json()) as { type: string; required: string[]; properties: Record<string, { minimum?: number; maximum?: number }> };
    assert.equal(schema.type, 'object');
    assert.deepEqual(schema.required, ['model', 'messages']);
    assert.equal(schema.properties.temperature?.minimum, 0.01);
    assert.equal(schema.properties.temperature?.maximum, 1);
    const none = (await (await fetch(`${gw().url}/v1/models/openai/gpt-5.1/schema`)).json()) as { properties: Record<string, unknown> };
    assert.equal(none.properties.temperature, undefined, 'no temperature when supported:false');
    const missing = await fetch(`${gw().url}/v1/models/nobody/nothing/schema`);
    assert.equal(missing.status, 404);
    assert.equal((await envelopeOf(missing)).type, 'not_found_error');
  });
});
