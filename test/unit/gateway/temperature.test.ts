/**
 * [G-CAT-5] on the local gateway: a model whose temperature is `supported: false` rejects any explicit
 * value, even when its entry also publishes a min and a max (qwen/qwq-plus is such an entry), and the
 * gateway records whether a request carried one, so client tests can see it.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { chat, envelopeOf, useGateway, userSays } from './helpers';

interface Entry {
  id: string;
  capabilities?: string[];
  parameters?: { temperature?: { supported?: boolean; min?: number; max?: number } };
}

describe('local gateway: temperature of a supported:false model with a published range', () => {
  const gw = useGateway();

  test('[G-CAT-5] the catalog has a chat model with temperature supported:false and a published min and max', async () => {
    const { data } = (await (await fetch(`${gw().url}/v1/models`)).json()) as { data: Entry[] };
    const m = data.find((x) => x.id === 'qwen/qwq-plus');
    assert.deepEqual(m?.parameters?.temperature, { supported: false, min: 0.1, max: 1.5 });
    assert.ok(m?.capabilities?.includes('chat') && m.capabilities.includes('tools'));
  });

  test('[G-CAT-5] it rejects a temperature even inside its published range, records that one was sent, and accepts none', async () => {
    for (const t of [0.1, 0.7, 1.5, 0, 2]) {
      const res = await chat(gw(), userSays('hello', 'qwen/qwq-plus', { temperature: t }));
      assert.equal(res.status, 400, String(t));
      const err = await envelopeOf(res);
      assert.equal(err.type, 'invalid_request_error');
      assert.match(err.message, /does not accept a temperature/);
    }
    const sent = gw().events.list('chat-request').filter((e) => e.model === 'qwen/qwq-plus');
    assert.deepEqual(
      sent.map((e) => e.hasTemperature),
      [true, true, true, true, true],
    );
    const ok = await chat(gw(), userSays('hello', 'qwen/qwq-plus'));
    assert.equal(ok.status, 200);
    assert.equal(gw().events.list('chat-request').at(-1)?.hasTemperature, false);
  });

  test('[G-CAT-5] its schema publishes no temperature property', async () => {
    const schema = (await (await fetch(`${gw().url}/v1/models/qwen/qwq-plus/schema`)).json()) as { properties: Record<string, unknown> };
    assert.equal('temperature' in schema.properties, false);
    assert.ok('messages' in schema.properties);
  });
});
