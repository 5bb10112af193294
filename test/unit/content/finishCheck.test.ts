/**
 * [#39.7] The content commands see how each chat reply ended (finishCheck.ts): a summary, taxonomy or
 * rewrite cut off by the output limit is flagged (src/content/contentRunner.ts then asks before using
 * it), on the chat fallback of either route and on a stream; a normal reply and the dedicated endpoints
 * (no finish reason documented) are not.
 */
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startGateway, type RunningGateway } from '../../localGateway/server';
import { LOCAL_KEYS } from '../../localGateway/keys';
import { setContentEndpointMissing } from '../../localGateway/content';
import { createGatewayClient } from '../../../src/core/gateway/gatewayClient';
import { suggestTaxonomy, summarize } from '../../../src/core/content/contentClient';
import { finishChecked } from '../../../src/core/content/finishCheck';
import { nullLogger } from '../../../src/core/log';

describe('[#39.7] content commands: a truncated result is flagged', () => {
  let gw: RunningGateway;
  before(async () => {
    gw = await startGateway();
  });
  after(async () => {
    await gw?.close();
  });
  beforeEach(() => gw.reset());

  const checkedClient = () => finishChecked(createGatewayClient({ baseUrl: gw.url, getKey: async () => LOCAL_KEYS.userFull, userAgent: 't', retry: { maxAttempts: 1 } }));

  test('[#39.7] a summary from the chat fallback cut off by the output limit is flagged, on the chat and the messages route', async () => {
    for (const model of [{ id: 'openai/gpt-5.1', capabilities: ['chat'] }, { id: 'anthropic/claude-sonnet-4', capabilities: ['messages'] }]) {
      gw.reset();
      setContentEndpointMissing(gw, 'summarize', 404);
      const c = checkedClient();
      const out = await summarize({ client: c.client, log: nullLogger, model }, { text: '[[finish:length]] A long post about gardens.' });
      assert.equal(out.via, 'chat');
      assert.deepEqual(c.ends().map((e) => e.kind), ['length'], model.id);
    }
  });

  test('[#39.7] a normal fallback reply and a dedicated endpoint are not flagged', async () => {
    const c = checkedClient();
    await summarize({ client: c.client, log: nullLogger, model: { id: 'openai/gpt-5.1' } }, { text: 'A post about gardens.' });
    setContentEndpointMissing(gw, 'suggestTaxonomy', 404);
    await suggestTaxonomy({ client: c.client, log: nullLogger, model: { id: 'openai/gpt-5.1' } }, { text: 'Categories: Gardening\nTags: roses' });
    assert.deepEqual(c.ends(), []);
  });

  test('[#39.7] a streamed reply (Rewrite Selection) read to its end is flagged when cut off, with an unknown reason named', async () => {
    const c = checkedClient();
    const stream = await c.client.streamChatCompletion({ model: 'openai/gpt-4.1', messages: [{ role: 'user', content: '[[finish:length]] rewrite this' }], stream: true });
    for await (const _ of stream) void _;
    const other = await c.client.streamChatCompletion({ model: 'openai/gpt-4.1', messages: [{ role: 'user', content: '[[finish:odd_end]] rewrite this' }], stream: true });
    for await (const _ of other) void _;
    assert.deepEqual(c.ends().map((e) => [e.kind, e.reason]), [['length', 'length'], ['unknown', 'odd_end']]);
  });
});
