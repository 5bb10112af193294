/**
 * One "Run Several Calls" batch end to end, without the editor: send, then turn the answer - or the
 * failure - into one history entry per call that was sent. A batch that fails after it may have
 * reached the server still records every call, marked outcome unknown, so the user can see what may
 * have run (and a later batch asks before sending those again, batchPlan.ts).
 */
import type { BatchCall, BatchResult } from './batch';
import { isMcpCallError, type McpCallError, OUTCOME_UNKNOWN_ADVICE } from './errors';
import type { HistoryEntry } from './history';
import { classifyToolError } from './toolErrors';
import { readToolResult } from './toolResult';
import type { CredentialKind } from './types';

export interface BatchRunContext {
  serverId: string;
  serverLabel: string;
  credential: CredentialKind;
  /** Sends the batch (sendToolCallBatch with the server's URL, headers, signal...). */
  send(calls: readonly BatchCall[]): Promise<BatchResult>;
  record(entry: HistoryEntry): Promise<unknown>;
}

export interface BatchRunOutcome {
  entries: HistoryEntry[];
  /** Calls that failed, had a tool error, or whose outcome is unknown. */
  failures: number;
  /** Set when the batch as a whole failed (every entry then carries its message). */
  error?: McpCallError;
}

function newId(i: number): string {
  return `${Date.now().toString(36)}-${i}-${Math.random().toString(36).slice(2, 6)}`;
}

export async function runBatchCalls(calls: readonly BatchCall[], ctx: BatchRunContext): Promise<BatchRunOutcome> {
  const started = Date.now();
  let out: BatchResult | undefined;
  let error: McpCallError | undefined;
  try {
    out = await ctx.send(calls);
  } catch (e) {
    // Refused before sending (too many calls, empty): nothing went out, nothing to record. Checked by
    // shape, so that a copy of the class from another bundle is recognised too.
    if (!isMcpCallError(e)) throw e;
    error = e;
  }
  const durationMs = Date.now() - started;
  const baseOf = (call: BatchCall, i: number) => ({ id: newId(i), serverId: ctx.serverId, serverLabel: ctx.serverLabel, tool: call.name, args: call.arguments, startedAt: started, durationMs });
  const failedEntry = (call: BatchCall, i: number, e: McpCallError): HistoryEntry => ({
    ...baseOf(call, i),
    requestIds: e.requestIds,
    failure: e.outcomeUnknown
      ? { message: `Outcome unknown: the batch failed (${e.message}).\n${OUTCOME_UNKNOWN_ADVICE}`, status: e.status, outcomeUnknown: true }
      : { message: `The batch failed: ${e.message}`, status: e.status, code: e.code },
  });
  const answeredEntry = (call: BatchCall, i: number, answer: BatchResult): HistoryEntry => {
    const base = { ...baseOf(call, i), requestIds: answer.requestId ? [answer.requestId] : [] };
    const r = answer.responses[i];
    if (!r) return { ...base, failure: { message: `Outcome unknown: the server sent no response for this call in the batch.\n${OUTCOME_UNKNOWN_ADVICE}`, outcomeUnknown: true } };
    if (r.error) return { ...base, failure: { message: r.error.message, code: r.error.code } };
    const read = readToolResult(r.result);
    if (!read.ok) {
      return { ...base, failure: { message: `Outcome unknown: the server's response for this call is not a tool result (${read.problem}).\n${OUTCOME_UNKNOWN_ADVICE}`, outcomeUnknown: true } };
    }
    return { ...base, result: read.result, toolError: classifyToolError(call.name, read.result, ctx.credential) };
  };
  const entries: HistoryEntry[] = [];
  let failures = 0;
  // Every entry is built first (total: whatever the server answered, each sent call gets one), then
  // each is recorded; a record that fails does not keep the others from being recorded.
  for (const [i, call] of calls.entries()) {
    const entry = error ? failedEntry(call, i, error) : answeredEntry(call, i, out!);
    if (entry.failure || entry.toolError) failures++;
    entries.push(entry);
  }
  let recordError: unknown;
  for (const entry of entries) {
    try {
      await ctx.record(entry);
    } catch (e) {
      recordError ??= e;
    }
  }
  if (recordError !== undefined) throw recordError;
  return { entries, failures, error };
}
