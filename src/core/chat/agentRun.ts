/**
 * The agent run: agent mode on or off, the tools it may use, Approve/Deny of a tool call in the
 * transcript, and an agent-mode reply. The loop of src/core/agentLoop runs the rounds and the tool calls;
 * this posts the text and each call as they change, prices and records every round, asks the budget
 * guard before every billed round (allowRound), and saves the reply with its calls and rounds. One
 * `streamStart` ... `streamDone`/`streamError` per reply, as for a plain chat reply.
 */
import { isGatewayError } from '../http/errors';
import type { AgentStateView } from '../../protocol/chatProtocol';
import { wireRequestMessages, type StoredMessage } from './conversation';
import { toChatErrorView } from './errorView';
import { toolCallHeaders } from '../agentLoop/toolbox';
import { runAgent, toolboxWire, DEFAULT_MAX_ROUNDS, type AgentToolbox, type ApprovalRequest } from '../agentLoop/agentLoop';
import type { WireTool } from '../gateway/toolWire';
import type { LiveStream } from './liveConversations';
import { temperatureToSend } from './modelOptions';
import { effortToSend } from '../gateway/reasoningEffort';
import { sumRounds, toolCallView } from './messageViews';
import type { HandlersFor } from './chatDeps';
import type { ChatView } from './chatView';
import type { CostPart } from './costPart';
import { chunkPoster, retryPoster } from './replyStream';

export class AgentRun {
  /** The tool list last loaded (for the count), and what it was loaded for. */
  private toolbox: { key: string; box?: AgentToolbox; error?: string } | undefined;
  /** Tool calls waiting for Approve/Deny in the transcript, by call id. */
  private readonly approvals = new Map<string, (approved: boolean) => void>();

  constructor(
    private readonly view: ChatView,
    private readonly cost: CostPart,
  ) {
    view.agentState = () => this.state();
    view.answerApproval = (callId, approve) => this.answer(callId, approve);
    view.agentTools = () => this.toolsToOffer();
  }

  /** In agent mode, the tools the next reply offers (as runAgent sends them); undefined otherwise or when the list cannot be had. */
  private async toolsToOffer(): Promise<readonly WireTool[] | undefined> {
    if (!this.on()) return undefined;
    const cached = this.toolbox?.key === this.toolboxKey() ? this.toolbox.box : undefined;
    const box = cached ?? (await this.loadToolbox().catch(() => undefined));
    return box ? toolboxWire(box) : undefined;
  }

  readonly handlers: HandlersFor<'setAgent' | 'agentTools' | 'toolApproval'> = {
    setAgent: (msg) => this.setAgent(msg.on),
    agentTools: () => this.pickServers(),
    toolApproval: (msg) => {
      // A call of this view's reply, or of another view's reply to the same conversation.
      if (!this.answer(msg.callId, msg.approve)) this.view.live.answerApproval(this.view.member, msg.callId, msg.approve);
    },
  };

  private answer(callId: string, approve: boolean): boolean {
    const resolve = this.approvals.get(callId);
    if (!resolve) return false;
    this.approvals.delete(callId);
    resolve(approve);
    return true;
  }

  /** Whether the next reply runs the tool loop. */
  on(): boolean {
    const { view } = this;
    return !!view.deps.agent && view.conv.agent?.on === true && view.modelCanUseTools();
  }

  private state(): AgentStateView {
    const { view } = this;
    const available = view.modelCanUseTools();
    const on = available && view.conv.agent?.on === true;
    const box = this.toolbox?.key === this.toolboxKey() ? this.toolbox : undefined;
    return {
      available,
      on,
      ...(box?.box ? { toolCount: box.box.tools.length, toolNames: box.box.tools.map((t) => t.name) } : {}),
      ...(box?.box?.excluded ? { excluded: box.box.excluded.reason } : {}),
      ...(box?.error ? { error: box.error } : {}),
    };
  }

  private toolboxKey(): string {
    const { conv } = this.view;
    return JSON.stringify([conv.agent?.servers ?? [], conv.agent?.kbSearch === true]);
  }

  /** The tool list depends on the active key: loaded again when next needed. */
  forgetToolbox(): void {
    this.toolbox = undefined;
  }

  /** Loads the tool list (for the count and for a send); a failure is kept for the toolbar and thrown. */
  private async loadToolbox(): Promise<AgentToolbox> {
    const key = this.toolboxKey();
    const { conv, deps } = this.view;
    try {
      const box = await deps.agent!.toolbox(conv.agent?.servers ?? [], { kbSearch: conv.agent?.kbSearch === true });
      this.toolbox = { key, box };
      return box;
    } catch (e) {
      this.toolbox = { key, error: e instanceof Error ? e.message : String(e) };
      throw e;
    }
  }

  /** In agent mode, loads the tool list once for the toolbar's count (and the Account-key note). */
  async ensureToolCount(): Promise<void> {
    if (!this.on() || this.toolbox?.key === this.toolboxKey()) return;
    await this.loadToolbox().catch(() => undefined);
    await this.view.postState();
  }

  private async setAgent(on: boolean): Promise<void> {
    const { view } = this;
    if (!view.deps.agent) return;
    if (on && !view.modelCanUseTools()) {
      view.notice('This model cannot call tools. Choose a model with tool calling for agent mode.');
      return view.postState();
    }
    if (!(await view.commit({ ...view.conv, agent: { ...view.conv.agent, on } }, 'Could not save the agent-mode choice'))) return;
    await view.postState();
    if (on) {
      await this.loadToolbox().catch(() => undefined);
      await view.postState();
    }
  }

  private async pickServers(): Promise<void> {
    const { view } = this;
    if (!view.deps.agent) return;
    const picked = await view.deps.agent.pickServers(view.conv.agent?.servers ?? [], view.conv.agent?.kbSearch === true);
    if (picked === undefined) return;
    const agent = { on: view.conv.agent?.on ?? false, servers: picked.servers, ...(picked.kbSearch ? { kbSearch: true } : {}) };
    if (!(await view.commit({ ...view.conv, agent }, 'Could not save the agent tools choice'))) return;
    await view.postState();
    await this.loadToolbox().catch(() => undefined);
    await view.postState();
  }

  /** Waits for Approve/Deny of `request.call` in the transcript; Stop (the signal) counts as Deny. */
  private askApproval(request: ApprovalRequest, signal: AbortSignal): Promise<boolean> {
    return new Promise<boolean>((resolve) => {
      const id = request.call.id;
      const done = (v: boolean) => {
        signal.removeEventListener('abort', onAbort);
        this.approvals.delete(id);
        resolve(v);
      };
      const onAbort = () => done(false);
      if (signal.aborted) return resolve(false);
      signal.addEventListener('abort', onAbort, { once: true });
      this.approvals.set(id, done);
    });
  }

  /** An agent-mode reply to the conversation as it stands (its last message is the user's). */
  async run(): Promise<void> {
    const { view, cost } = this;
    const model = view.currentModel()!;
    const agent = view.deps.agent!;
    const requestId = view.newId();
    const reply: StoredMessage = { id: view.newId(), role: 'assistant', content: '', status: 'streaming', createdAt: view.now(), modelId: view.conv.modelId, toolCalls: [], rounds: [] };
    const abort = new AbortController();
    const act: LiveStream = { requestId, abort, message: reply, pending: '' };
    view.active = act;
    const messages = wireRequestMessages(view.conv, { imageInput: view.imageInput() });
    view.conv = { ...view.conv, messages: [...view.conv.messages, reply] };
    const conv = view.conv;
    // Knowledge-base tool calls of a conversation bound to an agent session are grouped with it (G-MCP-16).
    const sessionId = conv.agentSession?.sessionId;
    const post = view.poster();
    await view.postState();
    post({ type: 'streamStart', requestId, message: view.messageView(reply) });

    const chunks = chunkPoster(act, post);
    let failure: unknown;
    let outcome: Awaited<ReturnType<typeof runAgent>> | undefined;
    try {
      const box = await this.loadToolbox();
      const client = await view.deps.getClient();
      const temperature = temperatureToSend(model, view.conv.temperature);
      const reasoningEffort = effortToSend(model, view.conv.reasoningEffort);
      outcome = await runAgent(
        messages,
        {
          client,
          model,
          priceOf: (usage) => cost.priceOf(model, usage),
          toolbox: box,
          ledger: agent.ledger,
          maxRounds: agent.maxRounds() || DEFAULT_MAX_ROUNDS,
          confirmReadOnlyAbilities: agent.confirmReadOnlyAbilities(),
          callTool: (tool, args, signal) => agent.callTool(tool, args, signal, toolCallHeaders(tool, sessionId)),
          abilityReadOnly: (site, ability, signal) => agent.abilityReadOnly(site, ability, signal),
          approve: (request, signal) => this.askApproval(request, signal),
          ...(temperature !== undefined ? { temperature } : {}),
          ...(reasoningEffort !== undefined ? { reasoningEffort } : {}),
          onText: (text) => {
            reply.content += text;
            act.pending += text;
            chunks.later();
          },
          onCall: (call) => {
            chunks.flush();
            if (!reply.toolCalls!.includes(call)) reply.toolCalls!.push(call);
            post({ type: 'toolCall', requestId, call: toolCallView(call) });
          },
          onRound: (round) => {
            reply.rounds!.push(round);
            if (!round.usage) return;
            return cost.record({ model: model.id, usage: round.usage, ...(model.pricing ? { pricing: model.pricing } : {}), ...(round.requestId ? { requestId: round.requestId } : {}), ...(round.estimated ? { estimated: round.estimated } : {}) }, 'an agent round');
          },
          // The budget guard before every billed round, not once per turn (the turn's first round was
          // checked by the send); the rounds so far are in the ledger when it reads it.
          allowRound: () => view.allowed(),
          onRequestId: (id) => (reply.requestId = id),
          onRetry: retryPoster(post, requestId),
          now: view.now,
        },
        abort.signal,
      );
    } catch (e) {
      failure = e; // the tool list or the client could not be had: nothing was sent
    } finally {
      chunks.flush();
      view.active = undefined;
      for (const resolve of [...this.approvals.values()]) resolve(false);
    }
    const sum = sumRounds(reply.rounds ?? []);
    if (sum.usage) reply.usage = sum.usage;
    if (sum.costNano !== undefined) reply.costNano = sum.costNano;
    if (sum.estimated) reply.costEstimated = true;
    if (outcome?.status === 'complete') {
      reply.status = 'complete';
      // The last round is the reply's end: cut off (or an unknown end) says so under it, with Continue.
      const end = reply.rounds?.at(-1)?.end;
      if (end) reply.finish = end;
    } else if (outcome?.status === 'stopped') {
      // The user's choice, not a failure: kept quietly as stopped, saying what was going on.
      reply.status = 'incomplete';
      reply.stopped = true;
      const d = outcome.stoppedDuring;
      reply.stopNote =
        d?.phase === 'tool'
          ? `Stopped while the tool ${d.tool ?? ''} ran.`
          : d?.phase === 'approval'
            ? `Stopped while ${d.tool ?? 'a tool call'} waited for approval; it was not sent.`
            : 'Stopped while waiting for the model.';
    } else if (outcome?.status === 'budget') {
      reply.status = 'incomplete';
      reply.error = { message: `Stopped before round ${outcome.refusedRound ?? ''}: the spending budget is used up, so nothing more was sent.`, actions: ['retry'] };
    } else if (outcome?.status === 'round-limit') {
      reply.status = 'incomplete';
      reply.error = { message: `Stopped after ${agent.maxRounds() || DEFAULT_MAX_ROUNDS} rounds (aiGateway.chat.agent.maxRounds): the model still wanted to call tools.`, actions: ['retry'] };
    } else {
      const e = outcome?.error ?? failure;
      if (isGatewayError(e) && e.requestId) reply.requestId = e.requestId;
      const partial = reply.content.length > 0 || (reply.toolCalls?.length ?? 0) > 0;
      reply.status = partial ? 'incomplete' : 'error';
      reply.error = isGatewayError(e) ? toChatErrorView(e, partial) : { message: `Agent chat failed: ${e instanceof Error ? e.message : String(e)}`, actions: ['retry'] };
      view.deps.log.warn(`Agent chat failed: ${isGatewayError(e) ? `${e.reason}${e.status ? ` ${e.status}` : ''}` : 'tool list or client unavailable'}${reply.requestId ? ` (request id ${reply.requestId})` : ''}`);
    }
    await view.finishReply(conv, reply, requestId, post);
  }
}
