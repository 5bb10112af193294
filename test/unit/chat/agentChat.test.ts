/**
 * Agent chat through the chat controller: real gateway client, real local gateway (scripted model and
 * /v1/mcp through a real MCP session), real history files; the webview and the editor are recorders.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LOCAL_KEYS } from '../../localGateway/keys';
import { quietEditorHost, useControllerRig } from './controllerRig';
import { createGatewayClient } from '../../../src/core/gateway/gatewayClient';
import type { Usage } from '../../../src/core/gateway/types';
import { ChatController, sumRounds, type ChatAgentHost } from '../../../src/core/chat/chatController';
import { HistoryStore } from '../../../src/core/chat/historyStore';
import { newConversation, toMarkdown } from '../../../src/core/chat/conversation';
import { Emitter } from '../../../src/core/disposables';
import { McpConnection } from '../../../src/core/mcp/mcpClient';
import { OutcomeLedger, type OutcomeUnknownEntry } from '../../../src/core/mcp/outcomeLedger';
import { buildToolbox } from '../../../src/core/agentLoop/toolbox';
import type { HostToWebview, ToolCallView } from '../../../src/protocol/chatProtocol';

const rig = useControllerRig('agent-chat-');

const runsAtGateway = (tool: string): number => rig.gw.events.list('mcp-dispatch').filter((e) => e.method === 'tools/call' && e.tool === tool).length;

/**
 * `budgetTokens`: a budget guard (allowSend) over a spend ledger whose writes settle a turn of the event
 * loop after the reply is priced (like a file append); spend is counted in tokens.
 */
function harness(opts: { key?: string; credential?: 'user' | 'account'; ledger?: OutcomeUnknownEntry[]; pick?: { servers: string[]; kbSearch: boolean }; budgetTokens?: number } = {}) {
  const posted: HostToWebview[] = [];
  const waiters: Array<() => void> = [];
  const store = new HistoryStore(rig.dir);
  const key = opts.key ?? LOCAL_KEYS.userFull;
  let stored: OutcomeUnknownEntry[] = opts.ledger ?? [];
  const priced: Array<{ usage: Usage; requestId?: string }> = [];
  let spentTokens = 0;
  /** The spend the budget guard saw, once per time it was asked. */
  const guard: number[] = [];
  let conn: Promise<McpConnection> | undefined;
  const connection = () => (conn ??= McpConnection.connect({ url: `${rig.gw.url}/v1/mcp`, fetch: (u, i) => fetch(u, i), getHeaders: async () => ({ Authorization: `Bearer ${key}` }) }));
  const agent: ChatAgentHost = {
    maxRounds: () => 10,
    confirmReadOnlyAbilities: () => true,
    ledger: new OutcomeLedger({ get: () => stored, set: (e) => void (stored = e) }),
    toolbox: async (_servers, choice) => {
      const { tools } = await (await connection()).listTools();
      return buildToolbox([{ serverId: 'gateway', serverLabel: 'AI Gateway', isGateway: true, tools }], opts.credential ?? 'user', { kbSearch: choice?.kbSearch === true });
    },
    callTool: async (tool, args, signal, headers) => (await connection()).callTool(tool.serverToolName, args, { signal, ...(headers ? { headers } : {}) }),
    abilityReadOnly: async () => false,
    pickServers: async () => opts.pick,
  };
  const host = quietEditorHost({ showError: (m: string) => void posted.push({ type: 'notice', text: `error:${m}` }) });
  const client = createGatewayClient({ baseUrl: rig.gw.url, getKey: async () => key, userAgent: 'agent-chat-test', retry: { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 1 } });
  const changed = new Emitter<unknown>();
  const controller = new ChatController({
    getClient: async () => client,
    models: {
      chatModels: () => rig.models.filter((m) => m.capabilities?.includes('chat')),
      getModel: (id) => rig.models.find((m) => m.id === id),
      toolModels: () => rig.models.filter((m) => m.capabilities?.includes('tools')),
      visionModels: () => rig.models.filter((m) => m.capabilities?.includes('vision')),
      onDidChange: changed.event,
    },
    store,
    prefs: { lastModelId: () => 'openai/gpt-4.1', setLastModelId: () => {} },
    host,
    post: (m) => {
      posted.push(m);
      waiters.splice(0).forEach((w) => w());
    },
    log: { trace() {}, debug() {}, info() {}, warn() {}, error() {} },
    onPriced: (r) => {
      priced.push({ usage: r.usage, ...(r.requestId ? { requestId: r.requestId } : {}) });
      if (opts.budgetTokens === undefined) return;
      return new Promise<void>((resolve) => setImmediate(() => {
        spentTokens += r.usage.total_tokens;
        resolve();
      }));
    },
    ...(opts.budgetTokens !== undefined
      ? {
          allowSend: async () => {
            guard.push(spentTokens);
            return spentTokens < opts.budgetTokens!;
          },
        }
      : {}),
    agent,
  });
  // Safety net so a broken engine fails the test instead of hanging it; not a timing assertion.
  const waitUntil = async <T>(what: string, pick: () => T | undefined): Promise<T> => {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const v = pick();
      if (v !== undefined) return v;
      if (Date.now() > deadline) throw new Error(`never happened: ${what}`);
      await new Promise<void>((r) => {
        waiters.push(r);
        setTimeout(r, 200);
      });
    }
  };
  const lastCall = (pred: (c: ToolCallView) => boolean) => () => posted.flatMap((m) => (m.type === 'toolCall' && pred(m.call) ? [m.call] : [])).at(-1);
  const end = (from = 0) => () => posted.slice(from).find((m): m is Extract<HostToWebview, { type: 'streamDone' | 'streamError' }> => m.type === 'streamDone' || m.type === 'streamError');
  return { controller, posted, store, priced, guard, waitUntil, lastCall, end, ledger: () => stored, close: async () => (await conn)?.close() };
}

describe('agent chat in the chat controller', () => {
  test('[G-CAT-3] agent mode is offered only for tools models; turning it on shows the tool count', async () => {
    const h = harness();
    await h.controller.handle({ type: 'ready' });
    await h.controller.handle({ type: 'selectModel', modelId: 'google/gemini-2.0-flash' });
    let state = (await h.controller.state()).agent;
    assert.equal(state?.available, false);
    await h.controller.handle({ type: 'setAgent', on: true });
    assert.equal((await h.controller.state()).agent?.on, false);
    await h.controller.handle({ type: 'selectModel', modelId: 'openai/gpt-4.1' });
    await h.controller.handle({ type: 'setAgent', on: true });
    state = (await h.controller.state()).agent;
    assert.equal(state?.available, true);
    assert.equal(state?.on, true);
    assert.ok((state?.toolCount ?? 0) >= 5);
    assert.ok(state?.toolNames?.includes('run_site_ability'));
    await h.close();
  });

  test('[G-MCP-10] with an Account key the ability tools are absent and the chat says why', async () => {
    const h = harness({ key: LOCAL_KEYS.accountFull, credential: 'account' });
    await h.controller.handle({ type: 'ready' });
    await h.controller.handle({ type: 'setAgent', on: true });
    const state = (await h.controller.state()).agent;
    assert.equal(state?.toolNames?.includes('run_site_ability'), false);
    assert.equal(state?.toolNames?.includes('list_account_sites'), true);
    assert.match(state?.excluded ?? '', /Account key.*User key/s);
    await h.close();
  });

  test('[G-CHAT-3] a tool call and the answer: priced per round, summed in the reply, saved with its calls, exported', async () => {
    const h = harness();
    await h.controller.handle({ type: 'ready' });
    await h.controller.handle({ type: 'setAgent', on: true });
    await h.controller.handle({ type: 'send', text: 'Which sites? [[tool:list_account_sites {}]]' });
    const done = await h.waitUntil('reply done', h.end());
    assert.equal(done.type, 'streamDone');
    const m = done.message;
    assert.equal(m.toolCalls?.length, 1);
    assert.equal(m.toolCalls?.[0]?.status, 'done');
    assert.ok(m.toolCalls?.[0]?.requestId);
    assert.ok((m.toolCalls?.[0]?.durationMs ?? -1) >= 0);
    assert.match(m.content, /Tool results:\n- list_account_sites: [^]*"site_blog"/);
    assert.equal(m.rounds?.length, 2);
    assert.equal(h.priced.length, 2, 'each round recorded in the spend ledger');
    assert.deepEqual(h.priced.map((p) => p.requestId), m.rounds?.map((r) => r.requestId));
    const roundSum = (m.rounds ?? []).reduce((n, r) => n + BigInt(r.cost?.nanocredits ?? 'x'), 0n);
    assert.equal(m.cost?.nanocredits, roundSum.toString());
    assert.equal(m.usage?.promptTokens, h.priced.reduce((n, p) => n + p.usage.prompt_tokens, 0));
    assert.equal(done.type === 'streamDone' && done.totalCost?.nanocredits, roundSum.toString());
    // Saved with its calls: a new controller (a reload) sees them.
    const [summary] = await h.store.list();
    const saved = await new HistoryStore(rig.dir).load(summary!.id);
    assert.equal(saved?.messages[1]?.toolCalls?.[0]?.name, 'list_account_sites');
    assert.equal(saved?.agent?.on, true);
    const md = toMarkdown(saved!);
    assert.match(md, /\*\*Tool call: list_account_sites\*\* \(AI Gateway\) · done/);
    assert.match(md, /Result:/);
    await h.close();
  });

  test('[#27.7] the budget guard runs before every billed round: over budget after round 1, round 2 is not sent and the reply says why', async () => {
    const h = harness({ budgetTokens: 1 });
    await h.controller.handle({ type: 'ready' });
    await h.controller.handle({ type: 'setAgent', on: true });
    const requests = () => rig.gw.events.list('chat-request').length;
    await h.controller.handle({ type: 'send', text: 'Which sites? [[tool:list_account_sites {}]]' });
    const done = await h.waitUntil('reply done', h.end());
    assert.equal(requests(), 1, 'one billed round, not two');
    assert.equal(h.priced.length, 1);
    // Asked before the send (nothing spent yet) and before round 2, with round 1's spend recorded.
    assert.deepEqual(h.guard, [0, h.priced[0]!.usage.total_tokens]);
    const m = done.message;
    assert.equal(m.status, 'incomplete');
    assert.match(m.error?.message ?? '', /Stopped before round 2: the spending budget is used up/);
    assert.equal(m.toolCalls?.[0]?.status, 'done', 'the call of round 1 ran and is kept');
    assert.equal(m.rounds?.length, 1);
    // Saved as it is, with its billed round.
    const [summary] = await h.store.list();
    const saved = await new HistoryStore(rig.dir).load(summary!.id);
    assert.equal(saved?.messages[1]?.rounds?.length, 1);
    await h.close();
  });

  test('[G-MCP-13] run_site_ability waits for Approve in the transcript, then runs once', async () => {
    const h = harness();
    await h.controller.handle({ type: 'ready' });
    await h.controller.handle({ type: 'setAgent', on: true });
    void h.controller.handle({ type: 'send', text: '[[tool:run_site_ability {"site_id":"site_blog","ability":"core/get-site-info","input":{}}]]' });
    const waiting = await h.waitUntil('approval asked', h.lastCall((c) => c.status === 'awaiting-approval'));
    assert.deepEqual(waiting.approval, { kind: 'ability', site: 'site_blog', ability: 'core/get-site-info' });
    assert.equal(runsAtGateway('run_site_ability'), 0, 'nothing sent before Approve');
    await h.controller.handle({ type: 'toolApproval', callId: waiting.id, approve: true });
    const done = await h.waitUntil('reply done', h.end());
    assert.equal(done.message.toolCalls?.[0]?.status, 'done');
    assert.equal(done.message.toolCalls?.[0]?.approval?.decision, 'approved');
    assert.equal(runsAtGateway('run_site_ability'), 1);
    await h.close();
  });

  test('[G-MCP-13] ambiguous_outcome: the repeat is refused on Deny, and Regenerate asks again instead of repeating', async () => {
    const h = harness();
    await h.controller.handle({ type: 'ready' });
    await h.controller.handle({ type: 'setAgent', on: true });
    void h.controller.handle({ type: 'send', text: '[[tool-repeat]] [[tool:run_site_ability {"site_id":"site_blog","ability":"demo/flaky-publish","input":{"post_id":3}}]]' });
    const first = await h.waitUntil('first approval', h.lastCall((c) => c.status === 'awaiting-approval'));
    await h.controller.handle({ type: 'toolApproval', callId: first.id, approve: true });
    const repeat = await h.waitUntil('repeat approval', h.lastCall((c) => c.status === 'awaiting-approval' && c.approval?.kind === 'repeat'));
    assert.ok(repeat.approval?.earlierAt);
    await h.controller.handle({ type: 'toolApproval', callId: repeat.id, approve: false });
    const done = await h.waitUntil('reply done', h.end());
    assert.deepEqual(done.message.toolCalls?.map((c) => c.status), ['outcome-unknown', 'denied']);
    assert.equal(runsAtGateway('run_site_ability'), 1);
    assert.equal(h.ledger().length, 1);
    // Regenerate: the model asks for the write again; it waits as a repeat, never runs by itself.
    const from = h.posted.length;
    void h.controller.handle({ type: 'regenerate' });
    const again = await h.waitUntil('regenerate approval', () => h.posted.slice(from).flatMap((m) => (m.type === 'toolCall' && m.call.status === 'awaiting-approval' ? [m.call] : [])).at(-1));
    assert.equal(again.approval?.kind, 'repeat');
    await h.controller.handle({ type: 'stop' });
    const stopped = await h.waitUntil('regenerate ended', h.end(from));
    assert.match(stopped.message.stopped?.note ?? '', /waited for approval; it was not sent/);
    assert.equal(stopped.message.error, undefined, 'a stop is not shown as an error');
    assert.equal(runsAtGateway('run_site_ability'), 1);
    await h.close();
  });

  test('knowledge-base search is off until the conversation turns it on in the tools choice, and the choice is saved with it', async () => {
    const h = harness({ pick: { servers: [], kbSearch: true } });
    await h.controller.handle({ type: 'ready' });
    await h.controller.handle({ type: 'setAgent', on: true });
    const before = (await h.controller.state()).agent?.toolNames ?? [];
    assert.ok(before.includes('list_account_sites'));
    assert.equal(before.includes('kb_search'), false);
    await h.controller.handle({ type: 'agentTools' });
    assert.ok((await h.controller.state()).agent?.toolNames?.includes('kb_search'));
    await h.controller.handle({ type: 'send', text: 'Search my docs [[tool:kb_search {"collection_id":"col_docs","query":"install"}]]' });
    const done = await h.waitUntil('reply done', h.end());
    assert.equal(done.type, 'streamDone');
    assert.equal(done.type === 'streamDone' && done.message.toolCalls?.[0]?.status, 'done');
    assert.equal(runsAtGateway('kb_search'), 1);
    const [summary] = await h.store.list();
    const saved = await new HistoryStore(rig.dir).load(summary!.id);
    assert.deepEqual(saved?.agent, { on: true, servers: [], kbSearch: true });
    await h.close();
  });

  test('[G-MCP-16] knowledge-base tool calls of a conversation bound to an agent session carry the session header; other calls and other conversations do not', async () => {
    const store = new HistoryStore(rig.dir);
    const bound = { ...newConversation('conv-bound', 'openai/gpt-4.1', 1), agent: { on: true, kbSearch: true }, agentSession: { agentId: 'agent_local_1', sessionId: 'sess_local_1' } };
    const unbound = { ...newConversation('conv-unbound', 'openai/gpt-4.1', 1), agent: { on: true, kbSearch: true } };
    const seed = { id: 'seed', role: 'user' as const, content: 'hi', createdAt: 1, status: 'complete' as const };
    await store.save({ ...bound, messages: [seed] });
    await store.save({ ...unbound, messages: [seed] });
    const script = '[[tool-split]] [[tool:kb_search {"collection_id":"col_docs","query":"install"}]] [[tool:list_account_sites {}]]';
    const h = harness();
    await h.controller.handle({ type: 'ready' });
    const sessionEvents = () => rig.gw.events.list('mcp-session') as unknown as Array<{ session: string; tools: string[] }>;

    await h.controller.handle({ type: 'openConversation', conversationId: 'conv-unbound' });
    let from = h.posted.length;
    await h.controller.handle({ type: 'send', text: script });
    const plain = await h.waitUntil('unbound reply', h.end(from));
    assert.equal(plain.type, 'streamDone');
    assert.equal(runsAtGateway('kb_search'), 1);
    assert.deepEqual(sessionEvents(), [], 'no request of an unbound conversation names a session');

    await h.controller.handle({ type: 'openConversation', conversationId: 'conv-bound' });
    from = h.posted.length;
    await h.controller.handle({ type: 'send', text: script });
    const grouped = await h.waitUntil('bound reply', h.end(from));
    assert.equal(grouped.type, 'streamDone');
    const kbResult = (d: typeof plain) => d.type === 'streamDone' ? d.message.toolCalls?.find((c) => c.name === 'kb_search')?.result : undefined;
    assert.ok(kbResult(plain)?.content.length);
    assert.deepEqual(kbResult(grouped), kbResult(plain), 'the header never changes the response');
    assert.equal(runsAtGateway('kb_search'), 2);
    assert.equal(runsAtGateway('list_account_sites'), 2);
    assert.deepEqual(sessionEvents().map((e) => [e.session, e.tools]), [['sess_local_1', ['kb_search']]], 'only the kb_search call carried the header');
    await h.close();
  });

  test('the round sums are exact and a round without a price leaves the reply unpriced', () => {
    const u = (p: number, c: number): Usage => ({ prompt_tokens: p, completion_tokens: c, total_tokens: p + c });
    assert.deepEqual(sumRounds([{ round: 1, usage: u(10, 2), costNano: '123456789012345678901' }, { round: 2, usage: u(5, 1), costNano: '1' }]).costNano, '123456789012345678902');
    assert.equal(sumRounds([{ round: 1, usage: u(1, 1), costNano: '5' }, { round: 2, usage: u(1, 1) }]).costNano, undefined);
    assert.equal(sumRounds([{ round: 1, usage: u(10, 2) }, { round: 2, usage: u(5, 1) }]).usage?.total_tokens, 18);
  });
});
