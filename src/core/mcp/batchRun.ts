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
import type { CallToolResult, CredentialKind } from './types';

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
    // shape, since the editor bundle and dist/mcp.js each hold a copy of the class.
    if (!isMcpCallError(e)) throw e;
    error = e;
  }
  const durationMs = Date.now() - started;
  const entries: HistoryEntry[] = [];
  let failures = 0;
  for (const [i, call] of calls.entries()) {
    const base = { id: newId(i), serverId: ctx.serverId, serverLabel: ctx.serverLabel, tool: call.name, args: call.arguments, startedAt: started, durationMs };
    let entry: HistoryEntry;
    if (error) {
      entry = {
        ...base,
        requestIds: error.requestIds,
        failure: error.outcomeUnknown
          ? { message: `Outcome unknown: the batch failed (${error.message}).\n${OUTCOME_UNKNOWN_ADVICE}`, status: error.status, outcomeUnknown: true }
          : { message: `The batch failed: ${error.message}`, status: error.status, code: error.code },
      };
    } else {
      const r = out!.responses[i];
      const result = r?.result as CallToolResult | undefined;
      const usable = result !== undefined && typeof result === 'object' && result !== null && Array.isArray(result.content);
      entry = {
        ...base,
        requestIds: out!.requestId ? [out!.requestId] : [],
        result: usable ? result : undefined,
        toolError: usable ? classifyToolError(call.name, result, ctx.credential) : undefined,
        failure: r?.error
          ? { message: r.error.message, code: r.error.code }
          : !r
            ? { message: `Outcome unknown: the server sent no response for this call in the batch.\n${OUTCOME_UNKNOWN_ADVICE}`, outcomeUnknown: true }
            : !usable
              ? { message: `Outcome unknown: the server's response for this call is not a tool result.\n${OUTCOME_UNKNOWN_ADVICE}`, outcomeUnknown: true }
              : undefined,
      };
    }
    if (entry.failure || entry.toolError) failures++;
    entries.push(entry);
    await ctx.record(entry);
  }
  return { entries, failures, error };
}
