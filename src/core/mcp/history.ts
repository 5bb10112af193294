/**
 * The persisted history of tool calls. Storage is injected (the editor passes globalState), so the
 * rules live here: newest first, bounded, large payloads truncated, and no credentials ever stored
 * (entries hold arguments and results only; headers are never part of an entry).
 */
import type { CallToolResult, ContentBlock } from './types';
import type { ToolErrorInfo } from './toolErrors';
import type { OutputVerdict } from './toolShow';

export interface HistoryEntry {
  id: string;
  serverId: string;
  serverLabel: string;
  tool: string;
  args: Record<string, unknown>;
  startedAt: number;
  durationMs: number;
  /** X-Request-ID of every HTTP response of the call (usually one). */
  requestIds: string[];
  result?: CallToolResult;
  toolError?: ToolErrorInfo;
  /**
   * Transport / protocol failure (no result). `outcomeUnknown`: the call was sent and may have run
   * (connection dropped after sending, timeout, cancel, unreadable answer); shown as "outcome
   * unknown" and never re-run with one click.
   */
  failure?: { message: string; status?: number; code?: number | string; outcomeUnknown?: boolean };
  /** Outcome of validating structuredContent against the outputSchema (toolShow.ts checkOutput). */
  outputValidation?: OutputVerdict;
  truncated?: boolean;
}

export interface HistoryStorage {
  get(): readonly HistoryEntry[] | undefined;
  set(entries: readonly HistoryEntry[]): Thenable<void> | Promise<void>;
}

type Thenable<T> = PromiseLike<T>;

export const MAX_HISTORY = 200;
/** Results bigger than this are stored shortened (images are the usual culprit). */
export const MAX_STORED_RESULT_CHARS = 200_000;

export class CallHistory {
  constructor(private readonly storage: HistoryStorage, private readonly max = MAX_HISTORY) {}

  list(): readonly HistoryEntry[] {
    return this.storage.get() ?? [];
  }

  get(id: string): HistoryEntry | undefined {
    return this.list().find((e) => e.id === id);
  }

  async add(entry: HistoryEntry): Promise<HistoryEntry> {
    const stored = shrink(entry);
    await this.storage.set([stored, ...this.list().filter((e) => e.id !== entry.id)].slice(0, this.max));
    return stored;
  }

  async remove(id: string): Promise<void> {
    await this.storage.set(this.list().filter((e) => e.id !== id));
  }

  async clear(): Promise<void> {
    await this.storage.set([]);
  }
}

/** Total over whatever result a server sent: blocks that are not objects with a type are kept as they are. */
function shrink(entry: HistoryEntry): HistoryEntry {
  if (!entry.result || JSON.stringify(entry.result).length <= MAX_STORED_RESULT_CHARS) return entry;
  const blocks: unknown = (entry.result as { content?: unknown }).content;
  if (!Array.isArray(blocks)) return { ...entry, result: { content: [{ type: 'text', text: '(a result too large for history, not stored)' }] }, truncated: true };
  const content = (blocks as unknown[]).map((b) => {
    if (typeof b !== 'object' || b === null || typeof (b as { type?: unknown }).type !== 'string') return b as ContentBlock;
    const block = b as ContentBlock;
    if ((block.type === 'image' || block.type === 'audio') && typeof block.data === 'string' && block.data.length > 1000) {
      return { type: 'text' as const, text: `[${block.type} ${String(block.mimeType)} omitted from history: ${block.data.length} base64 chars]` };
    }
    if (block.type === 'text' && typeof block.text === 'string' && block.text.length > 20_000) {
      return { type: 'text' as const, text: block.text.slice(0, 20_000) + '\n… (truncated in history)' };
    }
    return block;
  });
  return { ...entry, result: { ...entry.result, content }, truncated: true };
}
