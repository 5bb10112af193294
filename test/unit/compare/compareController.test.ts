/**
 * The Compare Models controller against the local gateway: one prompt to several models at once, each
 * column streamed with its stats and exact credits, recorded in the spend ledger; the estimate before
 * sending; the budget guard; Stop; Continue in Chat.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startGateway, type RunningGateway } from '../../localGateway/server';
import { LOCAL_KEYS } from '../../localGateway/keys';
import { createGatewayClient } from '../../../src/core/gateway/gatewayClient';
import { parseCatalog } from '../../../src/core/catalog/catalogStore';
import { CompareController, type ChatSeed, type CompareDeps } from '../../../src/core/compare/compareController';
import { costOfUsage, formatCredits } from '../../../src/core/pricing';
import type { Model } from '../../../src/core/gateway/types';
import { isHostToCompareWebview, type HostToCompareWebview } from '../../../src/protocol/compareProtocol';

describe('[#31.5] Compare models', () => {
  let gw: RunningGateway;
  let models: Model[];
  before(async () => {
    gw = await startGateway({ chunkSize: 8 });
    models = parseCatalog(await (await fetch(`${gw.url}/v1/models`)).json()).catalog.data;
  });
  after(async () => {
    await gw?.close();
  });

  function harness(over: Partial<CompareDeps> = {}) {
    const posted: HostToCompareWebview[] = [];
    const recorded: Parameters<CompareDeps['record']>[0][] = [];
    const seeds: ChatSeed[] = [];
    const budgetAsked: string[] = [];
    const client = createGatewayClient({ baseUrl: () => gw.url, getKey: async () => LOCAL_KEYS.userFull, userAgent: 'compare-test', env: {}, retry: { maxAttempts: 1 } });
    let t = Date.now();
    const deps: CompareDeps = {
      getClient: async () => client,
      models: () => models,
      allowSend: async (op) => {
        budgetAsked.push(op);
        return true;
      },
      record: (r) => recorded.push(r),
      countTokens: async (_m, text) => ({ tokens: Math.ceil(text.length / 4), counted: false }),
      continueInChat: async (s) => {
        seeds.push(s);
      },
      pickAttachments: async () => [{ label: 'notes.md', content: 'Rome in spring.' }],
      post: (m) => {
        assert.ok(isHostToCompareWebview(m), `a message the page accepts: ${JSON.stringify(m)}`);
        posted.push(m);
      },
      now: () => (t += 5),
      ...over,
    };
    return { controller: new CompareController(deps), posted, recorded, seeds, budgetAsked };
  }

  test('[#39.7] a column whose reply was cut off by the output limit (either route) says so; a normal one does not', async () => {
    const h = harness();
    await h.controller.handle({ type: 'ready' });
    const ids = ['openai/gpt-4o', 'anthropic/claude-sonnet-4'];
    await h.controller.handle({ type: 'send', models: ids, prompt: '[[finish:length]] Name three fountains.', systemPrompt: '' });
    const done = h.posted.filter((m): m is Extract<HostToCompareWebview, { type: 'columnDone' }> => m.type === 'columnDone');
    assert.deepEqual(done.map((d) => [ids[d.column], d.status, d.cutOff]).sort(), [
      ['anthropic/claude-sonnet-4', 'done', 'Cut off: the model reached its output limit.'],
      ['openai/gpt-4o', 'done', 'Cut off: the model reached its output limit.'],
    ]);
    // Continue in Chat carries the cut: the chat shows the reply cut off, with its Continue.
    const first = done[0];
    await h.controller.handle({ type: 'continueInChat', runId: first.runId, column: first.column });
    assert.equal(h.seeds[0]?.finish?.kind, 'length');
    await h.controller.handle({ type: 'send', models: ids, prompt: 'Name three fountains.', systemPrompt: '' });
    const later = h.posted.filter((m): m is Extract<HostToCompareWebview, { type: 'columnDone' }> => m.type === 'columnDone').slice(2);
    assert.deepEqual(later.map((d) => d.cutOff), [undefined, undefined]);
    gw.events.clear(); // the next tests count the requests they make
  });

  test('[#31.5] three models stream side by side; each column has its time to first token, total time, tokens and exact credits, recorded in the ledger', async () => {
    const h = harness();
    await h.controller.handle({ type: 'ready' });
    const init = h.posted.find((m) => m.type === 'init');
    assert.ok(init && init.type === 'init');
    assert.ok(!init.models.some((m) => m.id === 'openai/gpt-4-turbo'), 'a removed model is not offered');
    await h.controller.handle({ type: 'attach' });
    const ids = ['openai/gpt-5.1', 'anthropic/claude-sonnet-4.5', 'qwen/qwen3-max'];
    await h.controller.handle({ type: 'send', models: ids, prompt: 'Name three fountains.', systemPrompt: 'Be brief.' });
    assert.deepEqual(h.budgetAsked, ['Compare models'], 'the budget guard is asked once, before sending');
    const done = h.posted.filter((m): m is Extract<HostToCompareWebview, { type: 'columnDone' }> => m.type === 'columnDone');
    assert.equal(done.length, 3);
    for (const d of done) {
      assert.equal(d.status, 'done');
      assert.ok(d.stats.ttftMs !== undefined && d.stats.ttftMs <= d.stats.totalMs);
      assert.ok((d.stats.promptTokens ?? 0) > 0 && (d.stats.completionTokens ?? 0) > 0);
    }
    // Credits are exact: the catalog's rates times the usage of each reply.
    assert.equal(h.recorded.length, 3);
    let total = 0n;
    for (const r of h.recorded) {
      const col = done.find((d) => ids[d.column] === r.model);
      const nano = costOfUsage(r.usage, r.pricing!).totalNano;
      total += nano;
      assert.equal(col?.stats.credits, formatCredits(nano));
      assert.equal(r.operation, 'Compare models');
    }
    // A reasoning model's reasoning tokens are shown (and priced: G-CHAT-3, total_tokens counts them).
    assert.ok((done.find((d) => ids[d.column] === 'anthropic/claude-sonnet-4.5')?.stats.reasoningTokens ?? 0) > 0);
    const runDone = h.posted.find((m) => m.type === 'runDone');
    assert.ok(runDone && runDone.type === 'runDone' && runDone.totalCredits === formatCredits(total));
    // Each column streamed its own reply, and the prompt carried the attachment and the system prompt.
    const text = (c: number) => h.posted.filter((m) => m.type === 'delta' && m.column === c).map((m) => (m as { text: string }).text).join('');
    for (let c = 0; c < 3; c++) assert.match(text(c), /Name three fountains/);
    const streams = gw.events.list('chat-stream').map((e) => e.model);
    assert.deepEqual([...streams].sort(), [...ids].sort(), 'exactly one request per model');

    await h.controller.handle({ type: 'continueInChat', runId: 1, column: 1 });
    assert.equal(h.seeds.length, 1);
    assert.equal(h.seeds[0].modelId, 'anthropic/claude-sonnet-4.5');
    assert.equal(h.seeds[0].systemPrompt, 'Be brief.');
    assert.deepEqual(h.seeds[0].attachments, [{ label: 'notes.md', content: 'Rome in spring.' }]);
    assert.equal(h.seeds[0].reply, text(1));
  });

  test('[#31.5] a messages-only model is offered and compared through the messages route, beside a chat model', async () => {
    gw.events.clear();
    const h = harness();
    await h.controller.handle({ type: 'ready' });
    const init = h.posted.find((m) => m.type === 'init');
    assert.ok(init && init.type === 'init');
    assert.ok(init.models.some((m) => m.id === 'anthropic/claude-sonnet-4'), 'the messages-only model is offered');
    assert.ok(!init.models.some((m) => m.id === 'openai/gpt-image-1'), 'a model that holds no conversation is not');
    await h.controller.send(['openai/gpt-5.1', 'anthropic/claude-sonnet-4'], 'Name a fountain.', 'Be brief.');
    const done = h.posted.filter((m): m is Extract<HostToCompareWebview, { type: 'columnDone' }> => m.type === 'columnDone');
    assert.deepEqual(done.map((d) => [d.column, d.status]).sort(), [[0, 'done'], [1, 'done']]);
    const text = (column: number) => h.posted.filter((m) => m.type === 'delta' && m.column === column).map((m) => (m as { text: string }).text).join('');
    assert.ok(text(1).length > 0, 'the messages-only column has its reply');
    assert.deepEqual(gw.events.list('messages-stream').map((e) => e.model), ['anthropic/claude-sonnet-4']);
    assert.deepEqual(gw.events.list('chat-stream').map((e) => (e as { model?: string }).model), ['openai/gpt-5.1']);
    assert.ok(h.recorded.some((r) => r.model === 'anthropic/claude-sonnet-4'), 'its cost is in the ledger');
  });

  test('[#31.5] Stop stops every column; the text already received stays', async () => {
    const h = harness();
    const sending = h.controller.send(['openai/gpt-5.1', 'qwen/qwen3-max'], 'A long answer please [[slow]]', '');
    await new Promise<void>((resolve) => {
      const check = () => (h.posted.some((m) => m.type === 'delta') ? resolve() : setTimeout(check, 5));
      check();
    });
    h.controller.stop();
    await sending;
    const done = h.posted.filter((m) => m.type === 'columnDone');
    assert.deepEqual(done.map((d) => (d as { status: string }).status), ['stopped', 'stopped']);
    assert.ok(h.posted.some((m) => m.type === 'runDone'));
  });

  test('[#31.5] the budget guard refuses: nothing is sent; a removed model or one model only is refused before sending', async () => {
    gw.events.clear();
    const h = harness({ allowSend: async () => false });
    await h.controller.send(['openai/gpt-5.1', 'qwen/qwen3-max'], 'hello', '');
    await h.controller.send(['openai/gpt-5.1', 'openai/gpt-4-turbo'], 'hello', '');
    await h.controller.send(['openai/gpt-5.1', 'openai/gpt-5.1'], 'hello', '');
    assert.equal(gw.events.list('chat-stream').length, 0);
    assert.deepEqual(h.posted.filter((m) => m.type === 'notice').map((m) => (m as { message: string }).message), ['openai/gpt-4-turbo is not a chat model the gateway still serves.', 'Choose 2 to 4 different models.']);
  });

  test('[#31.5][#40.10] the estimate before sending: each model\'s prompt cost and the most the comparison can cost, answered with the request\'s id', async () => {
    const h = harness({ countTokens: async () => ({ tokens: 1000, counted: true }) });
    await h.controller.handle({ type: 'estimate', models: ['openai/gpt-5.1', 'qwen/qwen3-max'], prompt: 'hello', systemPrompt: '', rid: 7 });
    const e = h.posted.find((m) => m.type === 'estimate');
    assert.ok(e && e.type === 'estimate');
    assert.equal(e.rid, 7);
    assert.equal(e.counted, true);
    assert.equal(e.perModel.length, 2);
    assert.match(e.total ?? '', /^up to \d+(\.\d+)? credits$/);
    assert.match(e.perModel[0].text, /^prompt [\d.]+ credits/);
  });
});
