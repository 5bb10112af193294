/**
 * [#39.7] VS Code's chat through the provider: a reply cut off by the output limit (or ending otherwise
 * than normally) ends with a text part saying so; a normal reply, and tool_calls when tools were
 * offered, add nothing. Streams from the local gateway on both conversation routes.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startGateway, type RunningGateway } from '../../localGateway/server';
import { LOCAL_KEYS } from '../../localGateway/keys';
import { createGatewayClient } from '../../../src/core/gateway/gatewayClient';
import { chatRouteFor } from '../../../src/core/gateway/chatRoute';
import { FinishWatch } from '../../../src/core/gateway/finishReason';
import { asChatRequest, wireTools } from '../../../src/core/gateway/toolWire';
import type { Model } from '../../../src/core/gateway/types';
import { endNote } from '../../../src/core/lm/endNote';

describe('[#39.7] language model provider: how a reply ended', () => {
  let gw: RunningGateway;
  let models: Model[];
  before(async () => {
    gw = await startGateway();
    models = (await createGatewayClient({ baseUrl: gw.url, getKey: async () => undefined, userAgent: 't' }).listModels()).data.data;
  });
  after(async () => {
    await gw?.close();
  });

  async function noteFor(modelId: string, text: string, withTools: boolean): Promise<string | undefined> {
    const client = createGatewayClient({ baseUrl: gw.url, getKey: async () => LOCAL_KEYS.userFull, userAgent: 't' });
    const model = models.find((m) => m.id === modelId);
    const tools = withTools ? wireTools([{ name: 'get_weather', description: 'Weather', inputSchema: { type: 'object', properties: { city: { type: 'string' } } } }]) : undefined;
    const stream = await client.streamChatCompletion(asChatRequest({ model: modelId, messages: [{ role: 'user', content: text }], stream: true, ...(tools ? { tools } : {}) }), { route: chatRouteFor(model) });
    const watch = new FinishWatch();
    for await (const chunk of stream) watch.see(chunk);
    return endNote(watch, withTools);
  }

  test('[#39.7] a cut-off reply ends with a visible note, on the chat and the messages route', async () => {
    for (const id of ['openai/gpt-4.1', 'anthropic/claude-sonnet-4']) {
      assert.equal(await noteFor(id, '[[finish:length]] Tell me everything', false), '\n\n> ⚠ Cut off: the model reached its output limit.\n', id);
      assert.equal(await noteFor(id, 'Tell me everything', false), undefined, `${id}: a normal reply adds nothing`);
    }
  });

  test('[#39.7] an unknown end is named; a tool call with tools offered adds nothing', async () => {
    assert.match((await noteFor('openai/gpt-4.1', '[[finish:mystery]] hi', false)) ?? '', /does not know \(mystery\)/);
    assert.equal(await noteFor('openai/gpt-4.1', 'weather? [[tool:get_weather {"city":"Oslo"}]]', true), undefined);
  });
});
