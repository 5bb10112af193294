/**
 * The agent loop against the real local gateway (its scripted tool-calling model) with a scripted
 * tool runner and user: every safety rule of agent chat, in plain Node.
 */
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startGateway, type RunningGateway } from '../../localGateway/server';
import { LOCAL_KEYS } from '../../localGateway/keys';
import { createGatewayClient } from '../../../src/core/gateway/gatewayClient';
import type { IGatewayClient } from '../../../src/core/gateway/api';
import type { Model, Usage } from '../../../src/core/gateway/types';
import { approvalFor, runAgent, TEXT, type AgentLoopDeps, type AgentTool, type ApprovalRequest, type ToolCallOutcome } from '../../../src/core/agentLoop/agentLoop';
import { buildToolbox, ACCOUNT_KEY_EXCLUSION } from '../../../src/core/agentLoop/toolbox';
import { OutcomeLedger, type OutcomeUnknownEntry } from '../../../src/core/mcp/outcomeLedger';
import type { CallToolResult, McpTool } from '../../../src/core/mcp/types';
import { McpCallError } from '../../../src/core/mcp/errors';
import type { WireMessage } from '../../../src/core/gateway/toolWire';

let gw: RunningGateway;
let models: Model[];

before(async () => {
  gw = await startGateway();
  const client = createGatewayClient({ baseUrl: gw.url, getKey: async () => undefined, userAgent: 'test' });
  models = (await client.listModels()).data.data;
});
after(async () => {
  await gw.close();
});
beforeEach(() => gw.reset());

const GATEWAY_TOOLS: McpTool[] = [
  { name: 'list_account_sites', description: 'Lists sites', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
  { name: 'list_site_abilities', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
  { name: 'search_abilities', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
  { name: 'run_site_ability', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false, destructiveHint: true } },
  { name: 'kb_search', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
  { name: 'notes_write', inputSchema: { type: 'object' } },
];

const ok = (text: string): CallToolResult => ({ content: [{ type: 'text', text }] });
const toolError = (code: string, text: string): CallToolResult => ({ content: [{ type: 'text', text: `${code}: ${text}` }], structuredContent: { error: { code } }, isError: true });

interface Rig {
  deps: AgentLoopDeps;
  calls: Array<{ name: string; args: Record<string, unknown> }>;
  approvals: ApprovalRequest[];
  requests: Array<{ messages: WireMessage[]; tools?: unknown[] }>;
  rounds: Array<{ usage?: Usage; costNano?: string }>;
  ledger: OutcomeLedger;
  stored: () => OutcomeUnknownEntry[];
}

function rig(opts: {
  modelId?: string;
  key?: string;
  credential?: 'user' | 'account';
  results?: (name: string, args: Record<string, unknown>, n: number, signal: AbortSignal) => Promise<ToolCallOutcome> | ToolCallOutcome;
  approve?: (r: ApprovalRequest, signal: AbortSignal) => Promise<boolean> | boolean;
  confirmReadOnlyAbilities?: boolean;
  abilityReadOnly?: (site: string, ability: string) => boolean;
  maxRounds?: number;
  ledgerEntries?: OutcomeUnknownEntry[];
  client?: (c: IGatewayClient) => IGatewayClient;
} = {}): Rig {
  let stored: OutcomeUnknownEntry[] = opts.ledgerEntries ?? [];
  const ledger = new OutcomeLedger({ get: () => stored, set: (e) => void (stored = e) });
  const base = createGatewayClient({ baseUrl: gw.url, getKey: async () => opts.key ?? LOCAL_KEYS.userFull, userAgent: 'agent-test', retry: { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 1 } });
  const requests: Rig['requests'] = [];
  const recording: IGatewayClient = {
    ...base,
    listModels: (o) => base.listModels(o),
    getModelSchema: (id, o) => base.getModelSchema(id, o),
    createChatCompletion: (r, o) => base.createChatCompletion(r, o),
    postJson: (p, b, o) => base.postJson(p, b, o),
    getJson: (p, o) => base.getJson(p, o),
    streamChatCompletion: (r, o) => {
      requests.push(JSON.parse(JSON.stringify(r)) as Rig['requests'][number]);
      return base.streamChatCompletion(r, o);
    },
  };
  const client = opts.client ? opts.client(recording) : recording;
  const model = models.find((m) => m.id === (opts.modelId ?? 'openai/gpt-4.1'))!;
  const calls: Rig['calls'] = [];
  const approvals: ApprovalRequest[] = [];
  const rounds: Rig['rounds'] = [];
  const count = new Map<string, number>();
  const deps: AgentLoopDeps = {
    client,
    model,
    priceOf: (u) => BigInt(u.prompt_tokens) * 1000n + BigInt(u.completion_tokens) * 3000n,
    toolbox: buildToolbox([{ serverId: 'gateway', serverLabel: 'AI Gateway', isGateway: true, tools: GATEWAY_TOOLS }], opts.credential ?? 'user', { kbSearch: true }),
    ledger,
    maxRounds: opts.maxRounds ?? 10,
    confirmReadOnlyAbilities: opts.confirmReadOnlyAbilities ?? true,
    abilityReadOnly: async (site, ability) => opts.abilityReadOnly?.(site, ability) ?? false,
    callTool: async (tool: AgentTool, args, signal) => {
      calls.push({ name: tool.name, args });
      const n = (count.get(tool.name) ?? 0) + 1;
      count.set(tool.name, n);
      if (opts.results) return opts.results(tool.name, args, n, signal);
      return { result: ok(`${tool.name} ran with ${JSON.stringify(args)}`), durationMs: 5, requestIds: [`req_${tool.name}_${n}`] };
    },
    approve: async (r, signal) => {
      approvals.push(structuredClone(r));
      return opts.approve ? opts.approve(r, signal) : true;
    },
    onRound: (r) => void rounds.push({ ...r }),
  };
  return { deps, calls, approvals, requests, rounds, ledger, stored: () => stored };
}

const user = (text: string): WireMessage[] => [{ role: 'user', content: text }];

function toolMessages(req: { messages: WireMessage[] }): Array<{ tool_call_id: string; content: string }> {
  return req.messages.filter((m): m is Extract<WireMessage, { role: 'tool' }> => m.role === 'tool');
}

describe('agent loop: rounds, wire and answers', () => {
  test('[#33.3] a messages-only model runs the agent loop on the messages route: tool use and results in that route\'s form, priced per round', async () => {
    gw.events.clear();
    const r = rig({ modelId: 'anthropic/claude-sonnet-4' });
    const out = await runAgent(user('Which sites? [[tool:list_account_sites {}]]'), r.deps, new AbortController().signal);
    assert.equal(out.status, 'complete', JSON.stringify(out.error));
    assert.deepEqual(r.calls.map((c) => c.name), ['list_account_sites']);
    assert.match(out.content, /Tool results:\n- list_account_sites: list_account_sites ran with \{\}/);
    // Both rounds went to POST /v1/messages (the gateway checks each tool_result answers a tool_use), none to chat completions.
    assert.deepEqual(gw.events.list('messages-request').map((e) => [e.model, e.toolCount]), [['anthropic/claude-sonnet-4', GATEWAY_TOOLS.length], ['anthropic/claude-sonnet-4', GATEWAY_TOOLS.length]]);
    assert.equal(gw.events.list('chat-request').length, 0);
    assert.equal(r.rounds.filter((x) => x.usage !== undefined).length, 2, 'every round carries its usage');
  });

  test('[G-MCP-6] a read-only tool runs without asking; its result goes back; the model answers from it', async () => {
    const r = rig();
    const out = await runAgent(user('Which sites? [[tool:list_account_sites {}]]'), r.deps, new AbortController().signal);
    assert.equal(out.status, 'complete');
    assert.deepEqual(r.calls.map((c) => c.name), ['list_account_sites']);
    assert.equal(r.approvals.length, 0);
    assert.equal(r.requests.length, 2);
    assert.ok(Array.isArray(r.requests[0].tools) && r.requests[0].tools.length === GATEWAY_TOOLS.length);
    const second = r.requests[1].messages;
    const echo = second.find((m) => m.role === 'assistant') as Extract<WireMessage, { role: 'assistant' }>;
    assert.equal(echo.tool_calls?.[0]?.function.name, 'list_account_sites');
    assert.equal(toolMessages(r.requests[1])[0]?.content, 'list_account_sites ran with {}');
    assert.match(out.content, /Tool results:\n- list_account_sites: list_account_sites ran with \{\}/);
    assert.equal(out.calls[0]?.status, 'done');
    assert.equal(out.calls[0]?.requestId, 'req_list_account_sites_1');
  });

  test('parallel calls run in the order asked, each once, and split arguments arrive whole', async () => {
    const r = rig();
    const out = await runAgent(user('[[tool-split]] [[tool:kb_search {"query":"héllo wörld 🙂"}]] [[tool:list_account_sites {"filter":"a"}]]'), r.deps, new AbortController().signal);
    assert.equal(out.status, 'complete');
    assert.deepEqual(r.calls, [
      { name: 'kb_search', args: { query: 'héllo wörld 🙂' } },
      { name: 'list_account_sites', args: { filter: 'a' } },
    ]);
    assert.deepEqual(toolMessages(r.requests[1]).map((m) => m.content), ['kb_search ran with {"query":"héllo wörld 🙂"}', 'list_account_sites ran with {"filter":"a"}']);
  });

  test('invalid JSON arguments are not run; the model is told why', async () => {
    const r = rig();
    const out = await runAgent(user('[[tool-invalid:kb_search]]'), r.deps, new AbortController().signal);
    assert.equal(r.calls.length, 0);
    assert.equal(out.calls[0]?.status, 'invalid');
    assert.match(toolMessages(r.requests[1])[0]?.content ?? '', /^Not run: its arguments are not valid JSON/);
  });

  test('[G-CHAT-3] every round is priced; the reply is their sum', async () => {
    const r = rig();
    const out = await runAgent(user('[[tool:list_account_sites {}]]'), r.deps, new AbortController().signal);
    assert.equal(out.rounds.length, 2);
    assert.equal(r.rounds.length, 2);
    for (const round of out.rounds) {
      assert.ok(round.usage && round.usage.prompt_tokens > 0);
      assert.equal(round.costNano, (BigInt(round.usage.prompt_tokens) * 1000n + BigInt(round.usage.completion_tokens) * 3000n).toString());
      assert.ok(round.requestId);
    }
    assert.notEqual(out.rounds[0]?.requestId, out.rounds[1]?.requestId);
  });

  test('the round limit stops the loop: the calls of the last allowed round are not run', async () => {
    const r = rig({ maxRounds: 1 });
    const out = await runAgent(user('[[tool:list_account_sites {}]]'), r.deps, new AbortController().signal);
    assert.equal(out.status, 'round-limit');
    assert.equal(r.calls.length, 0);
    assert.equal(r.requests.length, 1);
    assert.equal(out.calls[0]?.status, 'skipped');
    assert.equal(out.calls[0]?.note, TEXT.skipped(1));
  });

  test('[#39.7] an agent round cut off by the output limit says so; a tool_calls round (tools offered) is a normal end', async () => {
    for (const modelId of ['openai/gpt-4.1', 'anthropic/claude-sonnet-4']) {
      const r = rig({ modelId });
      const out = await runAgent(user('Which sites? [[tool:list_account_sites {}]] [[finish:length]]'), r.deps, new AbortController().signal);
      assert.equal(out.status, 'complete', JSON.stringify(out.error));
      assert.equal(out.rounds.length, 2);
      assert.equal(out.rounds[0].end, undefined, `${modelId}: asking for a tool that was offered is a normal end`);
      assert.deepEqual(out.rounds[1].end, { kind: 'length', reason: 'length', continuable: true }, modelId);
    }
  });

  test('a model without the tools capability refuses a request carrying tools with 400', async () => {
    const r = rig({ modelId: 'google/gemini-2.0-flash' });
    const out = await runAgent(user('hello'), r.deps, new AbortController().signal);
    assert.equal(out.status, 'error');
    assert.equal((out.error as { status?: number }).status, 400);
    assert.match(String((out.error as Error).message), /does not support tool calling/);
  });
});

describe('agent loop: confirmation', () => {
  const ability = '[[tool:run_site_ability {"site_id":"site_blog","ability":"core/create-post","input":{"title":"Hi"}}]]';

  test('[G-MCP-13] run_site_ability asks, showing site and ability; Deny goes back to the model as a refusal', async () => {
    const r = rig({ approve: () => false });
    const out = await runAgent(user(ability), r.deps, new AbortController().signal);
    assert.equal(r.approvals.length, 1);
    assert.deepEqual(r.approvals[0]?.call.approval, { kind: 'ability', site: 'site_blog', ability: 'core/create-post' });
    assert.equal(r.calls.length, 0);
    assert.equal(out.calls[0]?.status, 'denied');
    assert.equal(toolMessages(r.requests[1])[0]?.content, TEXT.denied);
  });

  test('run_site_ability runs after Approve', async () => {
    const r = rig();
    const out = await runAgent(user(ability), r.deps, new AbortController().signal);
    assert.equal(r.calls.length, 1);
    assert.equal(out.calls[0]?.status, 'done');
    assert.equal(out.calls[0]?.approval?.decision, 'approved');
  });

  test('confirmReadOnlyAbilities: on, a read-only ability still asks; off, it runs without asking; a write ability asks either way', async () => {
    const readOnly = (_s: string, a: string) => a === 'core/get-post';
    const get = '[[tool:run_site_ability {"site_id":"site_blog","ability":"core/get-post","input":{"id":1}}]]';
    const on = rig({ confirmReadOnlyAbilities: true, abilityReadOnly: readOnly });
    await runAgent(user(get), on.deps, new AbortController().signal);
    assert.equal(on.approvals.length, 1);
    const off = rig({ confirmReadOnlyAbilities: false, abilityReadOnly: readOnly });
    await runAgent(user(get), off.deps, new AbortController().signal);
    assert.equal(off.approvals.length, 0);
    assert.equal(off.calls.length, 1);
    const write = rig({ confirmReadOnlyAbilities: false, abilityReadOnly: readOnly });
    await runAgent(user(ability), write.deps, new AbortController().signal);
    assert.equal(write.approvals.length, 1);
  });

  test('a tool its server does not mark read-only asks', async () => {
    const r = rig({ approve: () => false });
    await runAgent(user('[[tool:notes_write {"text":"x"}]]'), r.deps, new AbortController().signal);
    assert.equal(r.approvals[0]?.call.approval?.kind, 'write');
    assert.equal(r.calls.length, 0);
  });
});

describe('agent loop: tool errors', () => {
  test('[G-MCP-12] a timeout on a read is retried once, identically, then reported', async () => {
    const r = rig({ results: () => ({ result: toolError('timeout', 'upstream returned REST 504'), durationMs: 3, requestIds: ['req_t'] }) });
    const out = await runAgent(user('[[tool:kb_search {"query":"q"}]]'), r.deps, new AbortController().signal);
    assert.equal(r.calls.length, 2);
    assert.deepEqual(r.calls[0], r.calls[1]);
    assert.equal(out.calls[0]?.retried, true);
    assert.equal(out.calls[0]?.status, 'error');
    assert.match(toolMessages(r.requests[1])[0]?.content ?? '', /^timeout: /);
  });

  test('a timeout that succeeds on the second try gives the result', async () => {
    const r = rig({ results: (_n, _a, n) => (n === 1 ? { result: toolError('timeout', 'slow'), durationMs: 3, requestIds: [] } : { result: ok('fine'), durationMs: 3, requestIds: [] }) });
    const out = await runAgent(user('[[tool:kb_search {"query":"q"}]]'), r.deps, new AbortController().signal);
    assert.equal(r.calls.length, 2);
    assert.equal(out.calls[0]?.status, 'done');
    assert.equal(toolMessages(r.requests[1])[0]?.content, 'fine');
  });

  test('a timeout on a write is not retried', async () => {
    const r = rig({ results: () => ({ result: toolError('timeout', 'slow'), durationMs: 3, requestIds: [] }) });
    await runAgent(user('[[tool:notes_write {"t":1}]]'), r.deps, new AbortController().signal);
    assert.equal(r.calls.length, 1);
  });

  const flaky = '[[tool-repeat]] [[tool:run_site_ability {"site_id":"site_blog","ability":"demo/flaky-publish","input":{"post_id":7}}]]';
  const ambiguous = () => ({ result: toolError('ambiguous_outcome', 'the write was sent, but the site did not confirm it'), durationMs: 4, requestIds: ['req_amb'] });

  test('[G-MCP-13] ambiguous_outcome: ledger entry, the model is told not to repeat, its repeat is refused when the user does not approve it', async () => {
    let n = 0;
    const r = rig({ results: ambiguous, approve: () => ++n === 1 });
    const out = await runAgent(user(flaky), r.deps, new AbortController().signal);
    assert.equal(r.calls.length, 1, 'the write ran once only');
    assert.equal(out.calls[0]?.status, 'outcome-unknown');
    assert.equal(r.stored().length, 1);
    assert.equal(r.stored()[0]?.ability, 'demo/flaky-publish');
    assert.equal(r.stored()[0]?.requestId, 'req_amb');
    assert.match(toolMessages(r.requests[1])[0]?.content ?? '', /^ambiguous_outcome: .*Do NOT repeat this call/);
    // The scripted model asked again for the same call: the user was asked (showing the earlier one) and said no.
    assert.equal(r.approvals.length, 2);
    assert.equal(r.approvals[1]?.call.approval?.kind, 'repeat');
    assert.equal(r.approvals[1]?.earlier?.requestId, 'req_amb');
    assert.equal(out.calls[1]?.status, 'denied');
    assert.equal(toolMessages(r.requests[2]).at(-1)?.content, TEXT.deniedRepeat);
  });

  test('[G-MCP-13] Regenerate (the same turn run again) meets the ledger: the write asks as a repeat, and runs only on Approve', async () => {
    const first = rig({ results: ambiguous });
    await runAgent(user('[[tool:run_site_ability {"site_id":"site_blog","ability":"demo/flaky-publish","input":{"post_id":7}}]]'), first.deps, new AbortController().signal);
    const entries = first.stored();
    assert.equal(entries.length, 1);
    // Keys in another order are the same call.
    const denied = rig({ ledgerEntries: entries, approve: () => false });
    await runAgent(user('[[tool:run_site_ability {"input":{"post_id":7},"ability":"demo/flaky-publish","site_id":"site_blog"}]]'), denied.deps, new AbortController().signal);
    assert.equal(denied.approvals[0]?.call.approval?.kind, 'repeat');
    assert.equal(denied.calls.length, 0);
    const approved = rig({ ledgerEntries: entries, approve: () => true });
    await runAgent(user('[[tool:run_site_ability {"site_id":"site_blog","ability":"demo/flaky-publish","input":{"post_id":7}}]]'), approved.deps, new AbortController().signal);
    assert.equal(approved.calls.length, 1);
  });

  test('a read-only tool with an earlier unknown outcome also asks (the ledger applies to every tool)', async () => {
    const first = rig({ results: () => { throw new McpCallError({ reason: 'network', message: 'connection broke', outcomeUnknown: true }); } });
    const out = await runAgent(user('[[tool:notes_write {"a":1}]]'), first.deps, new AbortController().signal);
    assert.equal(out.calls[0]?.status, 'outcome-unknown');
    assert.match(toolMessages(first.requests[1])[0]?.content ?? '', /^Outcome unknown: /);
    const again = rig({ ledgerEntries: first.stored(), approve: () => false });
    await runAgent(user('[[tool:notes_write {"a":1}]]'), again.deps, new AbortController().signal);
    assert.equal(again.approvals[0]?.call.approval?.kind, 'repeat');
  });

  test('[G-MCP-11] unauthorized goes back to the model and the user gets the fix', async () => {
    const r = rig({ results: () => ({ result: toolError('unauthorized', 'not connected to site_shop'), durationMs: 2, requestIds: ['req_u'] }) });
    const out = await runAgent(user('[[tool:run_site_ability {"site_id":"site_shop","ability":"core/get-post","input":{"id":1}}]]'), r.deps, new AbortController().signal);
    assert.equal(out.calls[0]?.status, 'error');
    assert.equal(out.calls[0]?.errorCode, 'unauthorized');
    assert.match(out.calls[0]?.note ?? '', /connect your WordPress account to the site/);
    assert.match(toolMessages(r.requests[1])[0]?.content ?? '', /^unauthorized: not connected to site_shop/);
  });
});

describe('agent loop: Account key', () => {
  test('[G-MCP-10] ability tools are left out with the reason; a call for one is refused without running', async () => {
    const r = rig({ credential: 'account' });
    assert.deepEqual(r.deps.toolbox.excluded, { names: ['list_site_abilities', 'search_abilities', 'run_site_ability'], reason: ACCOUNT_KEY_EXCLUSION });
    assert.match(ACCOUNT_KEY_EXCLUSION, /User key/);
    const out = await runAgent(user('[[tool:list_account_sites {}]]'), r.deps, new AbortController().signal);
    const names = (r.requests[0].tools as Array<{ function: { name: string } }>).map((t) => t.function.name);
    assert.deepEqual(names, ['list_account_sites', 'kb_search', 'notes_write']);
    assert.equal(out.status, 'complete');
    // The scripted model cannot call what was not offered; the host refuses such a call too.
    const hostile = rig({ credential: 'account' });
    hostile.deps.toolbox.tools.push({ ...hostile.deps.toolbox.tools[0]!, name: 'decoy' });
    const out2 = await runAgent(user('[[tool:decoy {}]]'), { ...hostile.deps, toolbox: { ...hostile.deps.toolbox, tools: hostile.deps.toolbox.tools.slice(0, -1) } }, new AbortController().signal);
    assert.equal(out2.calls.length, 0, 'the model was not offered decoy, so it answered in text');
  });
});

describe('agent loop: Stop', () => {
  test('Stop while the model request runs says so and runs nothing', async () => {
    const abort = new AbortController();
    const r = rig({ client: (c) => ({ ...c, streamChatCompletion: async (req, o) => { abort.abort(); return c.streamChatCompletion(req, o); } }) });
    const out = await runAgent(user('[[tool:list_account_sites {}]]'), r.deps, abort.signal);
    assert.equal(out.status, 'stopped');
    assert.deepEqual(out.stoppedDuring, { phase: 'model' });
    assert.equal(r.calls.length, 0);
  });

  test('Stop while a write runs: the call is marked outcome unknown and goes into the ledger', async () => {
    const abort = new AbortController();
    const r = rig({
      results: (_n, _a, _i, signal) => {
        abort.abort();
        assert.ok(signal.aborted);
        throw new McpCallError({ reason: 'aborted', message: 'Cancelled.', outcomeUnknown: true });
      },
    });
    const out = await runAgent(user('[[tool:run_site_ability {"site_id":"site_blog","ability":"core/create-post","input":{"title":"x"}}]]'), r.deps, abort.signal);
    assert.equal(out.status, 'stopped');
    assert.deepEqual(out.stoppedDuring, { phase: 'tool', tool: 'run_site_ability' });
    assert.equal(out.calls[0]?.status, 'outcome-unknown');
    assert.equal(r.stored().length, 1);
    assert.equal(r.requests.length, 1, 'no further model round');
  });

  test('Stop while a read runs: stopped, nothing in the ledger', async () => {
    const abort = new AbortController();
    const r = rig({
      results: () => {
        abort.abort();
        throw new McpCallError({ reason: 'aborted', message: 'Cancelled.', outcomeUnknown: true });
      },
    });
    const out = await runAgent(user('[[tool:kb_search {}]]'), r.deps, abort.signal);
    assert.equal(out.calls[0]?.status, 'stopped');
    assert.equal(r.stored().length, 0);
  });

  test('Stop while waiting for approval: not sent, said so', async () => {
    const abort = new AbortController();
    const r = rig({ approve: (_r, signal) => new Promise<boolean>((resolve) => { signal.addEventListener('abort', () => resolve(false)); abort.abort(); }) });
    const out = await runAgent(user('[[tool:notes_write {}]]'), r.deps, abort.signal);
    assert.deepEqual(out.stoppedDuring, { phase: 'approval', tool: 'notes_write' });
    assert.equal(out.calls[0]?.status, 'stopped');
    assert.equal(r.calls.length, 0);
  });
});

describe('[#27.6] agent approval never depends on what the server says about a tool', () => {
  // The gateway's run_site_ability as a lenient or hostile server might describe it: read-only, harmless.
  const claimsReadOnly: McpTool[] = GATEWAY_TOOLS.map((t) => (t.name === 'run_site_ability' ? { ...t, annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true } } : t));
  const write = '[[tool:run_site_ability {"site_id":"site_blog","ability":"core/create-post","input":{"title":"Hi"}}]]';

  test('[#27.6] run_site_ability marked readOnlyHint by its server still asks; Deny sends nothing', async () => {
    const r = rig({ approve: () => false });
    r.deps.toolbox = buildToolbox([{ serverId: 'gateway', serverLabel: 'AI Gateway', isGateway: true, tools: claimsReadOnly }], 'user');
    // The server's claim is kept as it said it (the toolbox does not rewrite it) ...
    assert.equal(r.deps.toolbox.tools.find((t) => t.name === 'run_site_ability')?.readOnly, true);
    const out = await runAgent(user(write), r.deps, new AbortController().signal);
    // ... and the loop does not act on it.
    assert.equal(r.approvals.length, 1, 'asked although the server says read-only');
    assert.deepEqual(r.approvals[0]?.call.approval, { kind: 'ability', site: 'site_blog', ability: 'core/create-post' });
    assert.equal(r.calls.length, 0);
    assert.equal(out.calls[0]?.status, 'denied');
  });

  test('[#27.6] with confirmReadOnlyAbilities off, only the site\'s own answer for the ability counts, never the tool\'s readOnlyHint', async () => {
    const r = rig({ approve: () => false, confirmReadOnlyAbilities: false, abilityReadOnly: () => false });
    r.deps.toolbox = buildToolbox([{ serverId: 'gateway', serverLabel: 'AI Gateway', isGateway: true, tools: claimsReadOnly }], 'user');
    await runAgent(user(write), r.deps, new AbortController().signal);
    assert.equal(r.approvals.length, 1);
    assert.equal(r.calls.length, 0);
    // A site that cannot say (no abilityReadOnly) is asked about too.
    const unsure = rig({ approve: () => false, confirmReadOnlyAbilities: false });
    delete unsure.deps.abilityReadOnly;
    unsure.deps.toolbox = r.deps.toolbox;
    await runAgent(user(write), unsure.deps, new AbortController().signal);
    assert.equal(unsure.approvals.length, 1);
    assert.equal(unsure.calls.length, 0);
  });

  test('[#27.6] approvalFor: run_site_ability from the gateway asks whatever its readOnly flag, for every user setting where the site does not say read-only', async () => {
    const ledger = new OutcomeLedger({ get: () => [], set: () => {} });
    const tool: AgentTool = { name: 'run_site_ability', serverToolName: 'run_site_ability', readOnly: true, serverId: 'gateway', serverLabel: 'AI Gateway', isGateway: true };
    const args = { site_id: 'site_blog', ability: 'core/create-post', input: {} };
    for (const confirmReadOnlyAbilities of [true, false]) {
      const d = await approvalFor(tool, args, { ledger, confirmReadOnlyAbilities, abilityReadOnly: async () => false }, new AbortController().signal);
      assert.equal(d.approval?.kind, 'ability', `confirmReadOnlyAbilities ${confirmReadOnlyAbilities}`);
      assert.equal(d.readOnly, false, 'not treated as a read (a timeout is not retried, Stop records outcome unknown)');
    }
  });
});

describe('[#27.7] the budget guard runs before every billed round', () => {
  const flakyTwice = '[[tool-repeat]] [[tool:run_site_ability {"site_id":"site_blog","ability":"demo/flaky-publish","input":{"post_id":7}}]]';
  const ambiguous = () => ({ result: toolError('ambiguous_outcome', 'not confirmed'), durationMs: 4, requestIds: ['req_amb'] });

  /**
   * A spend ledger whose writes settle a turn of the event loop after the round (like a file append),
   * and a guard that reads it: over once the spend reaches `limit(rounds priced so far)`.
   */
  function budgeted(r: Rig, limit: (costs: bigint[]) => bigint) {
    const costs: bigint[] = [];
    let recorded = 0n;
    const asked: Array<{ round: number; recorded: bigint }> = [];
    r.deps.onRound = (round) => {
      r.rounds.push({ ...round });
      const cost = BigInt(round.costNano ?? '0');
      costs.push(cost);
      return new Promise<void>((resolve) => setImmediate(() => {
        recorded += cost;
        resolve();
      }));
    };
    r.deps.allowRound = async (round) => {
      asked.push({ round, recorded });
      return recorded < limit(costs);
    };
    return { asked, costs, recorded: () => recorded };
  }

  test('[#27.7] a turn stops at the round where the budget is exceeded: the earlier rounds\' spend counted, nothing more sent', async () => {
    // Three rounds are wanted (the call, its repeat after ambiguous_outcome, the answer); the budget
    // is a little more than the first round, so round 2 may go and round 3 may not.
    const r = rig({ results: ambiguous });
    const b = budgeted(r, (costs) => (costs[0] ?? 0n) + 1n);
    const out = await runAgent(user(flakyTwice), r.deps, new AbortController().signal);
    assert.equal(out.status, 'budget');
    assert.equal(out.refusedRound, 3);
    assert.equal(r.requests.length, 2, 'two billed rounds, not three');
    assert.deepEqual(b.asked.map((a) => a.round), [2, 3], 'asked before every round after the first');
    assert.equal(b.asked[0]?.recorded, b.costs[0], 'round 1 recorded before round 2 was allowed');
    assert.equal(b.asked[1]?.recorded, (b.costs[0] ?? 0n) + (b.costs[1] ?? 0n), 'rounds 1 and 2 recorded before round 3 was refused');
    assert.ok((b.costs[0] ?? 0n) > 0n && (b.costs[1] ?? 0n) > 0n);
    assert.equal(out.rounds.length, 2);
  });

  test('[#27.7] over budget after round 1: its tool calls ran, round 2 is not sent', async () => {
    const r = rig();
    const b = budgeted(r, () => 1n);
    const out = await runAgent(user('[[tool:list_account_sites {}]]'), r.deps, new AbortController().signal);
    assert.equal(out.status, 'budget');
    assert.equal(out.refusedRound, 2);
    assert.equal(r.requests.length, 1);
    assert.deepEqual(r.calls.map((c) => c.name), ['list_account_sites'], 'the call asked for in round 1 ran');
    assert.equal(out.calls[0]?.status, 'done');
    assert.deepEqual(b.asked.map((a) => a.round), [2]);
  });

  test('[#27.7] under budget every round goes; a guard that throws mid-turn sends nothing more', async () => {
    const r = rig();
    const b = budgeted(r, () => 10n ** 18n);
    const out = await runAgent(user('[[tool:list_account_sites {}]]'), r.deps, new AbortController().signal);
    assert.equal(out.status, 'complete');
    assert.equal(r.requests.length, 2);
    assert.deepEqual(b.asked.map((a) => a.round), [2]);
    const broken = rig();
    broken.deps.allowRound = async () => {
      throw new Error('ledger unreadable');
    };
    const out2 = await runAgent(user('[[tool:list_account_sites {}]]'), broken.deps, new AbortController().signal);
    assert.equal(out2.status, 'budget');
    assert.equal(broken.requests.length, 1);
  });
});
