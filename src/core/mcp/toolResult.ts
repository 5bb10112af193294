/**
 * The one reader of a tools/call result as a server sent it. Total: any JSON value (any value at all)
 * gives either a typed result or a typed problem, never an exception, so a caller that records what
 * was sent (a batch, the history, the agent's tool turn) can always record it.
 *
 * MCP (G-MCP-7) says a result has `content` (an array of blocks, each an object with a string `type`),
 * an optional object `structuredContent` and an optional boolean `isError`. Anything else is a
 * problem: the call was sent and may have run, so callers treat it as an unknown outcome.
 */
import type { CallToolResult, ContentBlock } from './types';
import { isRecord } from '../guards';

export type ToolResultRead = { ok: true; result: CallToolResult } | { ok: false; problem: string };


function isBlock(v: unknown): v is ContentBlock {
  return isRecord(v) && typeof v.type === 'string';
}

/** A server's tools/call result, checked. */
export function readToolResult(value: unknown): ToolResultRead {
  if (!isRecord(value)) return { ok: false, problem: `the result is ${describe(value)}, not an object` };
  const content = value.content;
  if (!Array.isArray(content)) return { ok: false, problem: `its content is ${describe(content)}, not a list of blocks` };
  const bad = content.findIndex((b) => !isBlock(b));
  if (bad !== -1) return { ok: false, problem: `content block ${bad + 1} is ${describe(content[bad])}, not a block with a type` };
  if (value.structuredContent !== undefined && !isRecord(value.structuredContent)) {
    return { ok: false, problem: `its structuredContent is ${describe(value.structuredContent)}, not an object` };
  }
  if (value.isError !== undefined && typeof value.isError !== 'boolean') return { ok: false, problem: `its isError is ${describe(value.isError)}, not true or false` };
  return { ok: true, result: value as unknown as CallToolResult };
}

/**
 * The content blocks of something that should be a tool result, whatever it is: only objects with a
 * string `type` (for readers that must not fail, such as error classification and history).
 */
export function contentBlocksOf(result: unknown): ContentBlock[] {
  const content = isRecord(result) ? result.content : undefined;
  return Array.isArray(content) ? content.filter(isBlock) : [];
}

/** The structured content of something that should be a tool result, when it is an object. */
export function structuredContentOf(result: unknown): Record<string, unknown> | undefined {
  const sc = isRecord(result) ? result.structuredContent : undefined;
  return isRecord(sc) ? sc : undefined;
}

function describe(v: unknown): string {
  if (v === undefined) return 'missing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'string') return 'a string';
  if (typeof v === 'object') return 'an object';
  return `a ${typeof v}`;
}
