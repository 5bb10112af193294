/**
 * The agent loop behind agent chat: send the conversation with tools, run the calls the model asks
 * for (in order, one at a time), send their results back, until the model answers without tool calls
 * or the round limit is reached. vscode-free; the chat controller supplies the tool runner, the
 * in-transcript approval and the outcome-unknown ledger.
 *
 * Safety rules, each decided here and nowhere else:
 *  - Approval (`approvalFor`): an identical repeat of a call whose outcome is unknown always asks
 *    (showing the earlier call); `run_site_ability` always asks unless the user's own
 *    `aiGateway.mcp.confirmReadOnlyAbilities` is off AND the site marks the ability read-only; any
 *    other tool runs without asking only when its server marks it read-only (readOnlyHint). Anything
 *    but Approve is a refusal, which the model is told.
 *  - `ambiguous_outcome`, and any write that may have reached the server without an answer (a broken
 *    connection, a timeout, Stop while it ran), goes into the ledger; the model is told not to repeat
 *    it. The ledger is persistent and shared with VS Code's agent path, so Regenerate and Retry of the
 *    turn meet it too: no code path repeats such a call without the user's explicit Approve.
 *  - A `timeout` tool error on a read is retried once, identically (the spec says that is safe).
 *  - Nothing is retried for a write, ever.
 *  - Every model round is priced and reported (`onRound`) as soon as its usage arrives, and the
 *    spending guard (`allowRound`) is asked before every billed round after the first, once the
 *    earlier rounds' spend is recorded: a turn stops at the round where the budget is exceeded, not
 *    `maxRounds` rounds later.
 */
import { chatRouteFor } from '../gateway/chatRoute';
import type { IGatewayClient } from '../gateway/api';
import type { Model, Usage } from '../gateway/types';
import { chargeOf, costBasisText, estimatedUsage, mayHaveBeenBilled, roughTokens, type Charge, type EstimateReason } from '../spend/charge';
import { isGatewayError } from '../http/errors';
import { FinishWatch, type ReplyEnd } from '../gateway/finishReason';
import {
  asChatRequest,
  readToolChunk,
  ToolCallAssembler,
  wireTools,
  type AssembledToolCall,
  type ToolChatRequest,
  type WireMessage,
  type WireTool,
  type WireToolCall,
} from '../gateway/toolWire';
import { abilityTarget, RUN_ABILITY_TOOL } from '../mcp/abilities';
import type { OutcomeLedger, OutcomeUnknownEntry } from '../mcp/outcomeLedger';
import { classifyToolError, type ToolErrorCode } from '../mcp/toolErrors';
import type { CallToolResult, ContentBlock, CredentialKind } from '../mcp/types';
import type { ToolCallStatusView } from '../../protocol/chatProtocol';
import { chatReasoningFields } from '../gateway/reasoningEffort';

export const DEFAULT_MAX_ROUNDS = 10;
/** Largest tool result text sent back to the model (the rest is cut, and the model is told). */
export const MAX_RESULT_CHARS_TO_MODEL = 100_000;
/** Largest arguments text and result text kept in history per call. */
export const MAX_STORED_ARGS_CHARS = 20_000;
export const MAX_STORED_RESULT_CHARS = 100_000;

export interface AgentTool {
  /** The name the model sees and calls (unique in the toolbox). */
  name: string;
  /** The server's own name for the tool (differs from `name` only for prefixed custom-server tools). */
  serverToolName: string;
  description?: string;
  inputSchema?: object;
  /** The server marks it read-only (MCP annotations.readOnlyHint). */
  readOnly: boolean;
  serverId: string;
  serverLabel: string;
  /** The gateway's /v1/mcp: the ability rules apply. */
  isGateway: boolean;
}

export interface AgentToolbox {
  tools: AgentTool[];
  /** Tools left out of the list, with the reason shown to the user (Account key: ability tools). */
  excluded?: { names: string[]; reason: string };
  /** The credential gateway calls use (decides the unauthorized advice). */
  credential: CredentialKind;
}

export interface ToolCallOutcome {
  result: CallToolResult;
  durationMs: number;
  requestIds: string[];
}

/** What a failed tools/call looks like (McpCallError, structurally: this file stays free of the SDK chunk). */
interface CallFailure {
  message?: unknown;
  reason?: unknown;
  outcomeUnknown?: unknown;
  requestIds?: unknown;
}

/** A tool call's state: the same set the transcript shows (one definition, in the chat protocol). */
export type ToolCallStatus = ToolCallStatusView;

export interface ApprovalInfo {
  /** `repeat`: the identical call earlier had an unknown outcome. */
  kind: 'ability' | 'write' | 'repeat';
  site?: string;
  ability?: string;
  earlierAt?: string;
  earlierRequestId?: string;
  decision?: 'approved' | 'denied';
}

/** One tool call as kept in history and shown in the transcript. Plain data. */
export interface AgentToolCall {
  /** The model's call id. */
  id: string;
  /** The tool name the model asked for. */
  name: string;
  serverLabel?: string;
  /** The arguments as the model sent them (JSON text), cut at MAX_STORED_ARGS_CHARS. */
  args: string;
  status: ToolCallStatus;
  round: number;
  approval?: ApprovalInfo;
  result?: { content: ContentBlock[]; structuredContent?: Record<string, unknown>; isError?: boolean; truncated?: boolean };
  errorCode?: ToolErrorCode;
  /** What the user reads about the outcome: the fix for unauthorized, the outcome-unknown warning, ... */
  note?: string;
  durationMs?: number;
  requestId?: string;
  /** A timed-out read that was run a second time. */
  retried?: boolean;
}

export interface AgentRound {
  round: number;
  /** The gateway's usage, or the client's estimate when `estimated` is set (core/spend/charge.ts). */
  usage?: Usage;
  /** Exact nanocredits (decimal string) when the model is priced. */
  costNano?: string;
  requestId?: string;
  /** The round ended otherwise than normally (finishReason.ts): cut off, filtered, an unknown reason. */
  end?: ReplyEnd;
  /** `usage` and `costNano` are an estimate (the round was stopped or cut before usage came, or its usage could not be read): why. */
  estimated?: EstimateReason;
  /** What the cost was computed from (the round's cost tooltip). */
  costBasis?: string;
}

export type StopPhase = 'model' | 'tool' | 'approval';

export interface AgentOutcome {
  /** `budget`: the spending guard refused the next round (`allowRound`); nothing more was sent. */
  status: 'complete' | 'stopped' | 'error' | 'round-limit' | 'budget';
  /** All text the model wrote, over every round. */
  content: string;
  calls: AgentToolCall[];
  rounds: AgentRound[];
  stoppedDuring?: { phase: StopPhase; tool?: string };
  /** The failure when status is 'error' (a model request failed). */
  error?: unknown;
  /** Request id of the last model round. */
  requestId?: string;
  /** With status 'budget': the round that was not sent. */
  refusedRound?: number;
}

export interface ApprovalRequest {
  call: AgentToolCall;
  /** Earlier call with the same fingerprint whose outcome is unknown. */
  earlier?: OutcomeUnknownEntry;
}

export interface AgentLoopDeps {
  client: IGatewayClient;
  model: Model;
  /** Nanocredits of one round's usage at the model's rates; undefined when unpriced. */
  priceOf(usage: Usage): bigint | undefined;
  toolbox: AgentToolbox;
  ledger: OutcomeLedger;
  maxRounds: number;
  /** aiGateway.mcp.confirmReadOnlyAbilities (user setting only). */
  confirmReadOnlyAbilities: boolean;
  callTool(tool: AgentTool, args: Record<string, unknown>, signal: AbortSignal): Promise<ToolCallOutcome>;
  /** Whether the site marks `ability` read-only (a list_site_abilities read); false when unsure. */
  abilityReadOnly?(site: string, ability: string, signal: AbortSignal): Promise<boolean>;
  /** Asks the user in the transcript; true only on Approve. Must settle (false) when `signal` aborts. */
  approve(request: ApprovalRequest, signal: AbortSignal): Promise<boolean>;
  temperature?: number;
  /** Sent on every round (a value the catalog lists: reasoningEffort.ts effortToSend). */
  reasoningEffort?: string;
  onText?(text: string): void;
  /** A call was added or changed (same object, mutated): the transcript redraws it. */
  onCall?(call: AgentToolCall): void;
  /**
   * A model round finished with usage: price and record it (spend ledger). May return the record's
   * write: the next round's `allowRound` is asked only once it has settled, so it counts this round.
   */
  onRound?(round: AgentRound): void | Promise<unknown>;
  /**
   * The spending guard, asked before every billed round after the first (the caller asks before the
   * turn, while the user's text can still go back into the box). False: that round is not sent and the
   * turn ends with status 'budget'. Without it every round is sent (up to `maxRounds`).
   */
  allowRound?(round: number): Promise<boolean>;
  onRequestId?(requestId: string): void;
  onRetry?(n: { attempt: number; delayMs: number }): void;
  now?(): number;
}

// ---------- model-facing texts (the instructions the model gets back) ----------

export const TEXT = {
  denied: 'Not run: the user denied this tool call. Do not retry it unless the user asks.',
  deniedRepeat:
    'Not run: an identical call earlier had an UNKNOWN outcome (ambiguous_outcome) and the user did not approve a repeat. Do not retry; ask the user to check the site.',
  unknownTool: (name: string) => `Not run: no tool named ${name} is available in this conversation.`,
  invalid: (why: string) => `Not run: ${why}. Send the call again with a JSON object as arguments.`,
  ambiguous: (msg: string, ids: string) =>
    `ambiguous_outcome: ${msg}${ids}. The write may or may not have happened. Do NOT repeat this call; tell the user to check the site first.`,
  unknownAfterSend: (msg: string) =>
    `Outcome unknown: the call was sent but no answer arrived (${msg}). It may have happened. Do NOT repeat this call; tell the user to check the site first.`,
  skipped: (max: number) => `Not run: the round limit (${max}) was reached.`,
} as const;

export const OUTCOME_UNKNOWN_NOTE = 'Outcome unknown: the write may or may not have happened. Check the site before running it again; it will not be repeated without your approval.';

function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function clip(text: string, max: number): { text: string; cut: boolean } {
  return text.length <= max ? { text, cut: false } : { text: `${text.slice(0, max)}\n… (${text.length - max} more characters)`, cut: true };
}

/** The ledger's key for a call: abilities by (site, ability, input), shared with VS Code's agent path; other tools by server and name. */
export function ledgerKey(tool: AgentTool, args: Record<string, unknown>): { site: string; ability: string; input: unknown } {
  if (tool.isGateway && tool.serverToolName === RUN_ABILITY_TOOL) {
    const t = abilityTarget(args);
    return { site: t.site ?? '', ability: t.ability ?? '', input: t.input ?? {} };
  }
  return { site: `mcp:${tool.serverId}`, ability: tool.serverToolName, input: args };
}

/** The text the model gets for a result (text blocks; structuredContent when there is no text). */
export function resultTextForModel(result: CallToolResult): string {
  const parts: string[] = [];
  for (const b of result.content ?? []) {
    if (b.type === 'text') parts.push(String((b as { text?: unknown }).text ?? ''));
    else if (b.type === 'resource_link') parts.push(`[resource ${String((b as { uri?: unknown }).uri ?? '')}]`);
    else parts.push(`[${b.type} content]`);
  }
  let text = parts.join('\n').trim();
  if (!text && result.structuredContent !== undefined) text = JSON.stringify(result.structuredContent);
  return clip(text || '(empty result)', MAX_RESULT_CHARS_TO_MODEL).text;
}

function storedResult(result: CallToolResult): AgentToolCall['result'] {
  let budget = MAX_STORED_RESULT_CHARS;
  let truncated = false;
  const content: ContentBlock[] = [];
  for (const b of result.content ?? []) {
    const size = JSON.stringify(b).length;
    if (size > budget) {
      truncated = true;
      if (b.type === 'text') {
        content.push({ type: 'text', text: clip(String((b as { text?: unknown }).text ?? ''), Math.max(0, budget - 100)).text });
        budget = 0;
      }
      continue;
    }
    budget -= size;
    content.push(b);
  }
  let structuredContent = result.structuredContent;
  if (structuredContent !== undefined && JSON.stringify(structuredContent).length > budget) {
    structuredContent = undefined;
    truncated = true;
  }
  return { content, ...(structuredContent !== undefined ? { structuredContent } : {}), ...(result.isError ? { isError: true } : {}), ...(truncated ? { truncated } : {}) };
}

/**
 * Whether a call must wait for the user's Approve, and what the approval shows. `readOnlyAbility` is
 * asked only when the setting allows skipping the question for read-only abilities.
 */
export async function approvalFor(
  tool: AgentTool,
  args: Record<string, unknown>,
  deps: Pick<AgentLoopDeps, 'ledger' | 'confirmReadOnlyAbilities' | 'abilityReadOnly'>,
  signal: AbortSignal,
): Promise<{ approval?: ApprovalInfo; earlier?: OutcomeUnknownEntry; readOnly: boolean }> {
  const key = ledgerKey(tool, args);
  const earlier = deps.ledger.find(key.site, key.ability, key.input);
  const isAbility = tool.isGateway && tool.serverToolName === RUN_ABILITY_TOOL;
  const target = isAbility ? abilityTarget(args) : undefined;
  const shown = target ? { ...(target.site ? { site: target.site } : {}), ...(target.ability ? { ability: target.ability } : {}) } : {};
  let readOnly = tool.readOnly && !isAbility;
  if (isAbility && !deps.confirmReadOnlyAbilities && target?.site && target.ability && deps.abilityReadOnly) {
    try {
      readOnly = await deps.abilityReadOnly(target.site, target.ability, signal);
    } catch {
      readOnly = false; // unsure: ask
    }
  }
  if (earlier) return { approval: { kind: 'repeat', ...shown, earlierAt: earlier.at, ...(earlier.requestId ? { earlierRequestId: earlier.requestId } : {}) }, earlier, readOnly };
  if (isAbility) return readOnly ? { readOnly } : { approval: { kind: 'ability', ...shown }, readOnly };
  if (readOnly) return { readOnly };
  return { approval: { kind: 'write' }, readOnly };
}

/** `code: message`, without saying the code twice when the server's text starts with it. */
function withCode(code: string, message: string): string {
  return message.toLowerCase().startsWith(`${code}:`) ? message : `${code}: ${message}`;
}

class Stopped extends Error {
  constructor(readonly phase: StopPhase, readonly tool?: string) {
    super('stopped');
  }
}

/** The tools of `toolbox` as every round offers them (and as the cost before sending counts them). */
export function toolboxWire(toolbox: Pick<AgentToolbox, 'tools'>): WireTool[] {
  return wireTools(toolbox.tools.map((t) => ({ name: t.name, ...(t.description ? { description: t.description } : {}), ...(t.inputSchema ? { inputSchema: t.inputSchema } : {}) })));
}

/** Runs the loop for `messages` (the conversation so far, ending with the user's turn). */
export async function runAgent(messages: readonly WireMessage[], deps: AgentLoopDeps, signal: AbortSignal): Promise<AgentOutcome> {
  const wire: WireMessage[] = [...messages];
  const tools = toolboxWire(deps.toolbox);
  const byName = new Map(deps.toolbox.tools.map((t) => [t.name, t]));
  const out: AgentOutcome = { status: 'complete', content: '', calls: [], rounds: [] };
  const maxRounds = Math.max(1, Math.floor(deps.maxRounds));
  // The spend records of the rounds so far: the guard reads the ledger they go to.
  const records: Array<Promise<unknown>> = [];
  try {
    for (let round = 1; ; round++) {
      if (round > 1 && deps.allowRound) {
        await Promise.allSettled(records);
        if (signal.aborted) throw new Stopped('model');
        let allowed: boolean;
        try {
          allowed = await deps.allowRound(round);
        } catch {
          allowed = false; // a guard that cannot answer does not let a billed round through mid-turn
        }
        if (signal.aborted) throw new Stopped('model');
        if (!allowed) {
          out.status = 'budget';
          out.refusedRound = round;
          return out;
        }
      }
      const { content, calls } = await modelRound(round, wire, tools, deps, signal, out, records);
      if (calls.length === 0) return out;
      if (round >= maxRounds) {
        // The model still wants tools: none of them runs, and the reply says why.
        for (const c of calls) {
          const rec: AgentToolCall = { id: c.id, name: c.name, args: clip(c.arguments, MAX_STORED_ARGS_CHARS).text, status: 'skipped', round, note: TEXT.skipped(maxRounds) };
          out.calls.push(rec);
          deps.onCall?.(rec);
        }
        out.status = 'round-limit';
        return out;
      }
      const echo: WireToolCall[] = calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } }));
      wire.push({ role: 'assistant', content: content || null, tool_calls: echo });
      for (const c of calls) {
        const text = await runOne(c, round, byName, deps, signal, out);
        wire.push({ role: 'tool', tool_call_id: c.id, content: text });
      }
    }
  } catch (e) {
    if (e instanceof Stopped) {
      out.status = 'stopped';
      out.stoppedDuring = { phase: e.phase, ...(e.tool ? { tool: e.tool } : {}) };
      return out;
    }
    out.status = 'error';
    out.error = e;
    return out;
  }
}

async function modelRound(
  round: number,
  wire: WireMessage[],
  tools: ReturnType<typeof wireTools>,
  deps: AgentLoopDeps,
  signal: AbortSignal,
  out: AgentOutcome,
  records: Array<Promise<unknown>>,
): Promise<{ content: string; calls: AssembledToolCall[] }> {
  if (signal.aborted) throw new Stopped('model');
  const request: ToolChatRequest = { model: deps.model.id, messages: [...wire], stream: true, stream_options: { include_usage: true } };
  if (tools.length > 0) request.tools = tools;
  if (deps.temperature !== undefined) request.temperature = deps.temperature;
  if (deps.reasoningEffort !== undefined) Object.assign(request, chatReasoningFields(deps.reasoningEffort));
  const rec: AgentRound = { round };
  let content = '';
  let reported: Usage | undefined;
  let streamStarted = false;
  let toolText = '';
  const assembler = new ToolCallAssembler();
  const finish = new FinishWatch();
  // The round's usage when the gateway reported none (or none it could read): about 4 characters a
  // token of what was sent (messages and tool schemas) and of what came back.
  const estimate = (): Usage => estimatedUsage(roughTokens(JSON.stringify(request.messages)) + roughTokens(JSON.stringify(tools)), content + toolText);
  try {
    const stream = await deps.client.streamChatCompletion(asChatRequest(request), { signal, route: chatRouteFor(deps.model), ...(deps.onRetry ? { onRetry: deps.onRetry } : {}) });
    streamStarted = true;
    rec.requestId = stream.requestId;
    out.requestId = stream.requestId;
    if (stream.requestId) deps.onRequestId?.(stream.requestId);
    for await (const chunk of stream) {
      const view = readToolChunk(chunk);
      if (view.content) {
        content += view.content;
        out.content += view.content;
        deps.onText?.(view.content);
      }
      assembler.push(view.toolCalls);
      finish.see(chunk);
      if (view.toolCalls) toolText += JSON.stringify(view.toolCalls);
      const u = (chunk as { usage?: Usage | null }).usage;
      if (u) reported = u;
    }
    const end = finish.end({ toolsOffered: tools.length > 0 });
    if (end) rec.end = end;
  } catch (e) {
    if (isGatewayError(e) && e.requestId) rec.requestId = e.requestId;
    const stopped = signal.aborted || (isGatewayError(e) && e.reason === 'aborted');
    // A round that may have been billed is charged (#39.1): the gateway's usage, else an estimate.
    if (reported || mayHaveBeenBilled(e, streamStarted)) charge(rec, chargeOf(reported, estimate, stopped ? 'stopped' : 'failed'), deps);
    finishRound(rec, deps, out, records);
    if (stopped) throw new Stopped('model');
    throw e;
  }
  charge(rec, chargeOf(reported ?? undefined, estimate, 'failed'), deps, reported === undefined);
  finishRound(rec, deps, out, records);
  return { content, calls: assembler.finish() };
}

/**
 * Sets the round's usage and cost from its charge. `quietWithoutUsage`: a round that completed without
 * any usage keeps none (as before: nothing says it was billed differently from a normal reply).
 */
function charge(rec: AgentRound, c: Charge, deps: AgentLoopDeps, quietWithoutUsage = false): void {
  if (quietWithoutUsage) return;
  rec.usage = c.usage;
  if (c.estimated) rec.estimated = c.estimated;
  const nano = deps.priceOf(c.usage);
  if (nano !== undefined) {
    rec.costNano = nano.toString();
    rec.costBasis = costBasisText(c, deps.model.pricing);
  }
}

function finishRound(rec: AgentRound, deps: AgentLoopDeps, out: AgentOutcome, records: Array<Promise<unknown>>): void {
  out.rounds.push(rec);
  const written = deps.onRound?.(rec);
  if (written) records.push(Promise.resolve(written));
}

/** Runs one requested call; returns the text the model gets. Throws Stopped. */
async function runOne(c: AssembledToolCall, round: number, byName: Map<string, AgentTool>, deps: AgentLoopDeps, signal: AbortSignal, out: AgentOutcome): Promise<string> {
  const tool = byName.get(c.name);
  const rec: AgentToolCall = { id: c.id, name: c.name, args: clip(c.arguments, MAX_STORED_ARGS_CHARS).text, status: 'running', round, ...(tool ? { serverLabel: tool.serverLabel } : {}) };
  out.calls.push(rec);
  const update = (patch: Partial<AgentToolCall>): void => {
    Object.assign(rec, patch);
    deps.onCall?.(rec);
  };
  if (!c.ok) {
    update({ status: 'invalid', note: `Not run: ${c.error}.` });
    return TEXT.invalid(c.error);
  }
  if (!tool) {
    update({ status: 'refused', note: `Not run: no tool named ${c.name} is offered.` });
    return TEXT.unknownTool(c.name);
  }
  if (signal.aborted) {
    update({ status: 'stopped', note: 'Stopped before it ran: not sent.' });
    throw new Stopped('tool', tool.name);
  }
  const args = c.input;
  const decision = await approvalFor(tool, args, deps, signal);
  if (decision.approval) {
    update({ status: 'awaiting-approval', approval: decision.approval });
    const approved = await deps.approve({ call: rec, ...(decision.earlier ? { earlier: decision.earlier } : {}) }, signal).catch(() => false);
    if (signal.aborted) {
      update({ status: 'stopped', approval: { ...decision.approval, decision: 'denied' }, note: 'Stopped while waiting for approval: not sent.' });
      throw new Stopped('approval', tool.name);
    }
    if (!approved) {
      update({ status: 'denied', approval: { ...decision.approval, decision: 'denied' }, note: 'Denied: not sent.' });
      return decision.approval.kind === 'repeat' ? TEXT.deniedRepeat : TEXT.denied;
    }
    update({ status: 'running', approval: { ...decision.approval, decision: 'approved' } });
  } else update({ status: 'running' });

  const key = ledgerKey(tool, args);
  const recordUnknown = async (requestId?: string): Promise<void> => {
    try {
      await deps.ledger.recordUnknown(key.site, key.ability, key.input, requestId);
    } catch {
      // The in-memory transcript still says "outcome unknown"; nothing else to do.
    }
  };
  const started = deps.now?.() ?? Date.now();
  for (let attempt = 1; ; attempt++) {
    let outcome: ToolCallOutcome;
    try {
      outcome = await deps.callTool(tool, args, signal);
    } catch (e) {
      const f = (e ?? {}) as CallFailure;
      const ids = Array.isArray(f.requestIds) ? (f.requestIds as unknown[]).filter((x): x is string => typeof x === 'string') : [];
      const durationMs = (deps.now?.() ?? Date.now()) - started;
      const requestId = ids[0];
      if (signal.aborted || f.reason === 'aborted') {
        if (decision.readOnly) update({ status: 'stopped', note: 'Stopped while it ran (a read: nothing changed).', durationMs, ...(requestId ? { requestId } : {}) });
        else {
          await recordUnknown(requestId);
          update({ status: 'outcome-unknown', note: `Stopped while it ran. ${OUTCOME_UNKNOWN_NOTE}`, durationMs, ...(requestId ? { requestId } : {}) });
        }
        throw new Stopped('tool', tool.name);
      }
      if (f.reason === 'timeout' && decision.readOnly && attempt === 1) {
        update({ retried: true });
        continue;
      }
      const msg = errorMessage(e);
      if (f.outcomeUnknown === true && !decision.readOnly) {
        await recordUnknown(requestId);
        update({ status: 'outcome-unknown', note: `${msg}\n${OUTCOME_UNKNOWN_NOTE}`, durationMs, ...(requestId ? { requestId } : {}) });
        return TEXT.unknownAfterSend(msg);
      }
      update({ status: 'error', note: msg, durationMs, ...(requestId ? { requestId } : {}) });
      return `Error: the tool call failed (${msg}).`;
    }
    const requestId = outcome.requestIds[0];
    const ids = outcome.requestIds.length ? ` (request id ${outcome.requestIds.join(', ')})` : '';
    const base = { durationMs: outcome.durationMs, result: storedResult(outcome.result), ...(requestId ? { requestId } : {}) };
    const err = classifyToolError(tool.serverToolName, outcome.result, tool.isGateway ? deps.toolbox.credential : 'custom');
    if (!err) {
      update({ status: 'done', ...base });
      return resultTextForModel(outcome.result);
    }
    if (err.code === 'timeout' && decision.readOnly && attempt === 1) {
      update({ retried: true });
      continue;
    }
    if (err.code === 'ambiguous_outcome') {
      await recordUnknown(requestId);
      update({ status: 'outcome-unknown', errorCode: err.code, note: OUTCOME_UNKNOWN_NOTE, ...base });
      return TEXT.ambiguous(err.message.replace(/^\s*ambiguous_outcome:\s*/i, ''), ids);
    }
    update({ status: 'error', errorCode: err.code, note: err.advice, ...base });
    return `${withCode(err.code, err.message)}${ids}. ${err.advice}`;
  }
}
