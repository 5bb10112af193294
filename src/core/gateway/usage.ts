/**
 * Reading a route's usage object into the ONE internal usage type (`Usage`, types.ts), which pricing,
 * the spend ledger and every view read. The chat-completions wire is read here (readChatUsage); the
 * messages wire in messagesWire.ts (usageFromMessages), with the same count rule (readCount).
 *
 * Documented (spec, chat completions "usage"): `prompt_tokens`, `completion_tokens`,
 * `completion_tokens_details.reasoning_tokens`, `total_tokens` (integers).
 *
 * Assumption (spec: cache token fields of the chat-completions usage not shown): the widely used
 * OpenAI-compatible `prompt_tokens_details.cached_tokens` (prompt tokens read from the prompt cache,
 * counted inside `prompt_tokens`) is read as cache reads and priced at cache_read_per_million. No
 * cache-write field is read on this route: none is documented, and in the OpenAI convention writing
 * the cache is billed as ordinary input, so every prompt token that is not a cache read is priced at
 * input_per_million. If the gateway answers otherwise (it bills cache writes on this route at another
 * rate, or reports them under some field), the reply's cost here is off by that difference: the
 * tooltip says what it was computed from, and the Usage dashboard's reconciliation shows the
 * gateway's own figure next to the ledger's.
 *
 * A count that is present but not a non-negative whole number (1e400 parses to Infinity, -5, 1.5, a
 * string) is never read as 0 silently: the field is named in `unreadable`, pricing refuses the usage,
 * and the reply is charged at a conservative estimate (core/spend/charge.ts) and flagged.
 */
import type { ChatUsageWire, Usage } from './types';

/** A count of `name` from the wire: absent (undefined/null) is 0; anything else not a safe non-negative integer is noted as unreadable. */
export function readCount(value: unknown, name: string, unreadable: string[], required = false): number {
  if (value === undefined || value === null) {
    if (required) unreadable.push(name);
    return 0;
  }
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
  unreadable.push(name);
  return 0;
}

/** The chat-completions route's usage object, read into the internal form; undefined when it is not an object. */
export function readChatUsage(raw: unknown): Usage | undefined {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined;
  const u = raw as ChatUsageWire;
  const unreadable: string[] = [];
  const prompt = readCount(u.prompt_tokens, 'prompt_tokens', unreadable, true);
  const completion = readCount(u.completion_tokens, 'completion_tokens', unreadable, true);
  const details = typeof u.completion_tokens_details === 'object' && u.completion_tokens_details !== null ? u.completion_tokens_details : undefined;
  const reasoning = readCount(details?.reasoning_tokens, 'completion_tokens_details.reasoning_tokens', unreadable);
  // Absent total: reasoning is taken to be reported outside completion_tokens (see costOfUsage).
  const total = u.total_tokens === undefined || u.total_tokens === null ? prompt + completion + reasoning : readCount(u.total_tokens, 'total_tokens', unreadable);
  // Assumption (see the header): OpenAI's cached_tokens are cache reads; no cache-write field is read.
  const promptDetails = typeof u.prompt_tokens_details === 'object' && u.prompt_tokens_details !== null ? u.prompt_tokens_details : undefined;
  const cacheRead = readCount(promptDetails?.cached_tokens, 'prompt_tokens_details.cached_tokens', unreadable);
  const usage: Usage = { prompt_tokens: prompt, completion_tokens: completion, total_tokens: total, source: 'chat_completions' };
  if (details?.reasoning_tokens !== undefined) usage.completion_tokens_details = { reasoning_tokens: reasoning };
  if (cacheRead > 0) usage.cache_read_tokens = cacheRead;
  if (unreadable.length > 0) usage.unreadable = unreadable;
  return usage;
}
