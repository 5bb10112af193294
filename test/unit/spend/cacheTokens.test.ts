/**
 * Issue 39, item 3: cache read and write token counts are shown wherever tokens are shown: the chat
 * reply (and its sum over agent rounds, and each round), Compare's columns, and the ledger's CSV.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startGateway, type RunningGateway } from '../../localGateway/server';
import { LOCAL_KEYS } from '../../localGateway/keys';
import { createGatewayClient } from '../../../src/core/gateway/gatewayClient';
import { parseCatalog } from '../../../src/core/catalog/catalogStore';
import { CompareController } from '../../../src/core/compare/compareController';
import { messageView, sumRounds } from '../../../src/core/chat/messageViews';
import { ledgerEntriesCsv } from '../../../src/core/usage/csv';
import type { Model, Usage } from '../../../src/core/gateway/types';
import type { HostToCompareWebview } from '../../../src/protocol/compareProtocol';

const cached = (read: number, write: number): Usage => ({ prompt_tokens: 100 + read + write, completion_tokens: 20, total_tokens: 120 + read + write, cache_read_tokens: read, cache_write_tokens: write, source: 'messages' });

describe('[#39.3] cache tokens are shown wherever tokens are', () => {
  let gw: RunningGateway;
  let models: Model[];
  before(async () => {
    gw = await startGateway({ chunkSize: 16 });
    models = parseCatalog(await (await fetch(`${gw.url}/v1/models`)).json()).catalog.data;
  });
  after(async () => {
    await gw.close();
  });

  test('[#39.3] a reply\'s footer and each agent round carry the cache reads and writes; none are added when there were none', () => {
    const v = messageView({ id: 'r', role: 'assistant', content: 'hi', status: 'complete', createdAt: 1, usage: cached(30, 7), costNano: '5', costBasis: 'From the gateway’s usage (messages route)' }, false);
    assert.deepEqual({ read: v.usage?.cacheReadTokens, write: v.usage?.cacheWriteTokens, basis: v.costBasis }, { read: 30, write: 7, basis: 'From the gateway’s usage (messages route)' });
    const plain = messageView({ id: 'p', role: 'assistant', content: 'hi', status: 'complete', createdAt: 1, usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 } }, false);
    assert.equal('cacheReadTokens' in (plain.usage ?? {}), false);
    const rounds = [
      { round: 1, usage: cached(30, 7), costNano: '5' },
      { round: 2, usage: cached(40, 0), costNano: '6' },
    ];
    const sum = sumRounds(rounds);
    assert.deepEqual({ read: sum.usage?.cache_read_tokens, write: sum.usage?.cache_write_tokens }, { read: 70, write: 7 });
    const agent = messageView({ id: 'a', role: 'assistant', content: 'x', status: 'complete', createdAt: 1, rounds, ...sum }, false);
    assert.deepEqual(agent.rounds?.map((r) => [r.usage?.cacheReadTokens, r.usage?.cacheWriteTokens]), [[30, 7], [40, undefined]]);
  });

  test('[#39.3] Compare: a messages-only model\'s column shows its cache writes, with a tooltip saying what the credits came from', async () => {
    const posted: HostToCompareWebview[] = [];
    const client = createGatewayClient({ baseUrl: gw.url, getKey: async () => LOCAL_KEYS.userFull, userAgent: 'cache-test', retry: { maxAttempts: 1 } });
    const controller = new CompareController({
      getClient: async () => client,
      models: () => models,
      allowSend: async () => true,
      record: () => {},
      countTokens: async (_m, text) => ({ tokens: Math.ceil(text.length / 4), counted: false }),
      continueInChat: async () => {},
      pickAttachments: async () => [],
      post: (m) => void posted.push(m),
      now: () => Date.now(),
    });
    await controller.send(['anthropic/claude-sonnet-4', 'openai/gpt-5.1'], 'Name a fountain.', 'You answer in one short paragraph, kindly.');
    const done = posted.filter((m): m is Extract<HostToCompareWebview, { type: 'columnDone' }> => m.type === 'columnDone');
    const claude = done.find((d) => d.column === 0);
    assert.ok((claude?.stats.cacheWriteTokens ?? 0) > 0, JSON.stringify(claude?.stats));
    assert.match(claude?.stats.costBasis ?? '', /^From the gateway’s usage \(messages route\): prompt, completion, cache write tokens at the catalog’s rates, pricing_version /);
    const gpt = done.find((d) => d.column === 1);
    assert.equal(gpt?.stats.cacheWriteTokens, undefined);
  });

  test('[#39.3] the ledger\'s CSV export has cache read and write columns, and says which costs are estimates', () => {
    const csv = ledgerEntriesCsv([
      { time: '2026-11-28T10:00:00.000Z', model: 'anthropic/claude-sonnet-4', operation: 'chat-panel', usage: cached(30, 7), cost_nano: '1234', pricing_version: 'v1', request_id: 'req_1' },
      { time: '2026-11-28T10:01:00.000Z', model: 'openai/gpt-4o', operation: 'chat-panel', usage: { prompt_tokens: 50, completion_tokens: 3, total_tokens: 53 }, cost_nano: '99', estimated: 'stopped' },
    ]);
    assert.equal(
      csv,
      'time,model,operation,operation_name,prompt_tokens,cache_read_tokens,cache_write_tokens,completion_tokens,reasoning_tokens,credits,credits_nano,estimated,pricing_version,request_id\r\n' +
        '2026-11-28T10:00:00.000Z,anthropic/claude-sonnet-4,chat-panel,AI Gateway Chat,137,30,7,20,0,0.000001234,1234,,v1,req_1\r\n' +
        '2026-11-28T10:01:00.000Z,openai/gpt-4o,chat-panel,AI Gateway Chat,50,0,0,3,0,0.000000099,99,stopped,,\r\n',
    );
  });
});
