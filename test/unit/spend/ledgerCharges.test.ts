/**
 * Issue 39, item 1: every billed request that may have reached the gateway lands in the spend ledger,
 * with the gateway's figure when it reported usage, else an estimate marked as such, so the status
 * bar total, the Usage dashboard and the budget guard count it. The chat, agent rounds and Compare
 * against the local gateway (it bills a request when it starts serving it), written to a real ledger.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useControllerRig, quietEditorHost } from '../chat/controllerRig';
import { LOCAL_KEYS } from '../../localGateway/keys';
import { createGatewayClient } from '../../../src/core/gateway/gatewayClient';
import { ChatController } from '../../../src/core/chat/chatController';
import { HistoryStore } from '../../../src/core/chat/historyStore';
import { Emitter } from '../../../src/core/disposables';
import { SpendLedger, spendEntry } from '../../../src/core/spend/ledger';
import { spendTotals } from '../../../src/core/spend/budget';
import { mayHaveBeenBilled } from '../../../src/core/spend/charge';
import { GatewayError } from '../../../src/core/http/errors';
import { runAgent, type AgentLoopDeps, type AgentRound } from '../../../src/core/agentLoop/agentLoop';
import { buildToolbox } from '../../../src/core/agentLoop/toolbox';
import { OutcomeLedger } from '../../../src/core/mcp/outcomeLedger';
import { CompareController, type CompareDeps } from '../../../src/core/compare/compareController';
import { ledgerResult } from '../../../src/core/usage/dashboard';
import { reconcile } from '../../../src/core/usage/reconcile';
import type { HostToWebview } from '../../../src/protocol/chatProtocol';

const rig = useControllerRig('ledger-charges-');

function chat(ledger: SpendLedger) {
  const posted: HostToWebview[] = [];
  const writes: Array<Promise<unknown>> = [];
  const client = createGatewayClient({ baseUrl: rig.gw.url, getKey: async () => LOCAL_KEYS.userFull, userAgent: 'ledger-test', retry: { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 1 } });
  const changed = new Emitter<unknown>();
  const controller = new ChatController({
    getClient: async () => client,
    models: { chatModels: () => rig.models.filter((m) => m.capabilities?.includes('chat')), getModel: (id) => rig.models.find((m) => m.id === id), onDidChange: changed.event },
    store: new HistoryStore(rig.dir),
    prefs: { lastModelId: () => 'openai/gpt-4o', setLastModelId: () => {} },
    host: quietEditorHost(),
    post: (m) => void posted.push(m),
    log: { trace() {}, debug() {}, info() {}, warn() {}, error() {} },
    onPriced: (r) => {
      const w = ledger.append(spendEntry({ ...r, operation: 'chat-panel' }));
      writes.push(w);
      return w;
    },
  });
  return { controller, posted, settled: () => Promise.all(writes) };
}

async function until(check: () => boolean): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition never held');
    await new Promise((r) => setTimeout(r, 5));
  }
}

function billedNano(): bigint {
  return rig.gw.events.list('billed').reduce((n, e) => n + BigInt((e as { credits_nano?: string }).credits_nano ?? '0'), 0n);
}

describe('[#39.1] a billed request always reaches the spend ledger', () => {
  test('[#39.1] chat: a reply stopped before usage came is in the ledger as an estimate marked stopped, and the budget\'s totals and the dashboard count it', async () => {
    const ledger = new SpendLedger({ dir: rig.dir + '/spend' });
    const c = chat(ledger);
    const sending = c.controller.handle({ type: 'send', text: '[[slow]] a long answer please' });
    await until(() => c.posted.some((m) => m.type === 'streamChunk'));
    await c.controller.handle({ type: 'stop' });
    await sending;
    await c.settled();
    assert.ok(billedNano() > 0n, 'the local gateway billed the request');
    const read = await ledger.read();
    assert.equal(read.entries.length, 1, 'the stopped reply is in the ledger');
    const e = read.entries[0];
    assert.equal(e.estimated, 'stopped');
    assert.equal(e.operation, 'chat-panel');
    assert.match(e.cost_nano ?? '', /^[1-9]\d*$/);
    const end = c.posted.find((m): m is Extract<HostToWebview, { type: 'streamError' }> => m.type === 'streamError');
    assert.equal(end?.message.cost?.nanocredits, e.cost_nano, 'the ledger holds the figure the chat shows');
    assert.equal(end?.message.costEstimated, true);
    assert.match(end?.message.costBasis ?? '', /^Estimated: the reply was stopped/);
    assert.equal(spendTotals(read, Date.now()).dayNano, BigInt(e.cost_nano!), 'the budget guard and the status bar count it');
    const now = Math.floor(Date.now() / 1000);
    const view = ledgerResult(read, { startTime: now - 3600, endTime: now + 60, bucketWidth: '1h' });
    assert.deepEqual(view.totals.models.map((m) => [m.operation, m.credits_nano]), [['chat-panel (estimated)', BigInt(e.cost_nano!)]], 'the dashboard shows it, marked estimated');
  });

  test('[#39.1] chat: a stream cut mid-reply is in the ledger as an estimate marked failed', async () => {
    rig.gw.configure({ faultAfterChunks: 2 });
    const ledger = new SpendLedger({ dir: rig.dir + '/spend' });
    const c = chat(ledger);
    await c.controller.handle({ type: 'send', text: 'cut me [[fault:disconnect]]' });
    await c.settled();
    const read = await ledger.read();
    assert.equal(read.entries.length, 1);
    assert.equal(read.entries[0].estimated, 'failed');
    assert.match(read.entries[0].cost_nano ?? '', /^[1-9]\d*$/);
  });

  test('[#39.1] chat: a request the gateway refused with an error status is not charged', async () => {
    const ledger = new SpendLedger({ dir: rig.dir + '/spend' });
    const c = chat(ledger);
    await c.controller.handle({ type: 'send', text: 'refuse [[fault:429]]' });
    await c.settled();
    assert.equal((await ledger.read()).entries.length, 0);
    assert.equal(mayHaveBeenBilled(new GatewayError({ reason: 'throttled', status: 429, message: 'x' }), false), false);
    assert.equal(mayHaveBeenBilled(new GatewayError({ reason: 'network', message: 'reset', partial: true }), false), true);
    assert.equal(mayHaveBeenBilled(new GatewayError({ reason: 'timeout', timeoutPhase: 'firstByte', message: 't' }), false), true);
  });

  test('[#39.1] agent chat: a round stopped before usage came is charged at an estimate, marked stopped', async () => {
    const client = createGatewayClient({ baseUrl: rig.gw.url, getKey: async () => LOCAL_KEYS.userFull, userAgent: 'ledger-test', retry: { maxAttempts: 1 } });
    const model = rig.models.find((m) => m.id === 'openai/gpt-4.1')!;
    const rounds: AgentRound[] = [];
    const abort = new AbortController();
    let stored: never[] = [];
    const deps: AgentLoopDeps = {
      client,
      model,
      priceOf: (u) => BigInt(u.prompt_tokens) * 1000n + BigInt(u.completion_tokens) * 3000n,
      toolbox: buildToolbox([], 'user', { kbSearch: false }),
      ledger: new OutcomeLedger({ get: () => stored, set: (e) => void (stored = e as never[]) }),
      maxRounds: 3,
      confirmReadOnlyAbilities: true,
      abilityReadOnly: async () => false,
      callTool: async () => {
        throw new Error('no tools here');
      },
      approve: async () => false,
      onText: () => abort.abort(),
      onRound: (r) => void rounds.push({ ...r }),
    };
    const out = await runAgent([{ role: 'user', content: '[[slow]] a long answer please' }], deps, abort.signal);
    assert.equal(out.status, 'stopped');
    assert.equal(rounds.length, 1);
    assert.equal(rounds[0].estimated, 'stopped');
    assert.ok(rounds[0].usage && rounds[0].usage.prompt_tokens > 0);
    assert.match(rounds[0].costNano ?? '', /^[1-9]\d*$/);
  });

  test('[#39.1] Compare: stopped columns are recorded as estimates marked stopped', async () => {
    const recorded: Array<Parameters<CompareDeps['record']>[0]> = [];
    const client = createGatewayClient({ baseUrl: rig.gw.url, getKey: async () => LOCAL_KEYS.userFull, userAgent: 'ledger-test', retry: { maxAttempts: 1 } });
    const posted: unknown[] = [];
    const controller = new CompareController({
      getClient: async () => client,
      models: () => rig.models,
      allowSend: async () => true,
      record: (r) => void recorded.push(r),
      countTokens: async (_m, text) => ({ tokens: Math.ceil(text.length / 4), counted: false }),
      continueInChat: async () => {},
      pickAttachments: async () => [],
      post: (m) => void posted.push(m),
      now: () => Date.now(),
    });
    const sending = controller.send(['openai/gpt-5.1', 'qwen/qwen3-max'], 'A long answer please [[slow]]', '');
    await until(() => posted.some((m) => (m as { type: string }).type === 'delta'));
    controller.stop();
    await sending;
    assert.deepEqual(recorded.map((r) => r.estimated).sort(), ['stopped', 'stopped']);
    for (const r of recorded) assert.ok(r.usage.prompt_tokens > 0);
  });

  test('[#39.1] an estimated entry is reconciled like the rest: a difference from the bill is flagged and says the local figure was an estimate', () => {
    const day = '2026-11-28';
    const entry = spendEntry({ model: 'openai/gpt-4o', operation: 'chat-panel', usage: { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110, source: 'estimate' }, pricing: { input_per_million: '2.5', output_per_million: '10', pricing_version: 'v1', unit: 'credits' }, estimated: 'stopped', now: new Date(`${day}T10:00:00Z`) });
    assert.equal(entry.cost_nano, '350000');
    const gateway = {
      bucket_width: '1d' as const,
      window_start: `${day}T00:00:00.000Z`,
      window_end: '2026-11-29T00:00:00.000Z',
      totals: { credits_nano: 1_042_000n, requests: 1, models: [{ model: 'openai/gpt-4o', operation: 'chat', credits_nano: 1_042_000n, requests: 1 }] },
      buckets: [{ start: `${day}T00:00:00.000Z`, credits_nano: 1_042_000n, requests: 1, models: [{ model: 'openai/gpt-4o', operation: 'chat', credits_nano: 1_042_000n, requests: 1 }] }],
    };
    const [row] = reconcile({ entries: [entry], summaries: [] }, gateway as never, new Map([['openai/gpt-4o', 'v1']]));
    assert.equal(row.ledgerNano, 350_000n);
    assert.equal(row.flagged, true);
    assert.match(row.explanation ?? '', /1 local reply\(ies\) are estimates \(stopped or cut before the gateway reported usage/);
  });
});
