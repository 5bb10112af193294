/**
 * Token counts for VS Code's `provideTokenCount`, which the editor calls for every message it weighs
 * while building a prompt, often many times for the same text.
 *
 * ASSUMED (spec: not shown): `POST /v1/messages/count_tokens` takes `{ model, messages: [{ role:
 * 'user', content: <text> }] }` and answers `{ input_tokens: <integer> }` (the Anthropic-style shape).
 * The path, the request and the reading of the answer live in COUNT_TOKENS_PATH, countRequestBody and
 * readCount below and nowhere else.
 *
 * Never one request per keystroke:
 *  - texts shorter than REMOTE_MIN_CHARS are estimated locally (a keystroke-sized text never goes out);
 *  - answers are cached per (model, SHA-256 of the text), LRU, at most CACHE_ENTRIES;
 *  - concurrent counts of the same text share one request, and at most MAX_IN_FLIGHT run at once
 *    (beyond that the estimate is returned);
 *  - a 404/405 or an answer of another shape marks the endpoint unsupported until reset() (base URL or
 *    key change); any other failure pauses remote counting for FAILURE_PAUSE_MS.
 *
 * Local estimate (documented): one token per 4 characters (code points), rounded up, at least 1 for
 * non-empty text; for a message, plus MESSAGE_OVERHEAD_TOKENS for its role and framing. It is the
 * usual rule of thumb for English prose and code; non-Latin scripts are undercounted by it.
 */
import { createHash } from 'node:crypto';

export const COUNT_TOKENS_PATH = '/v1/messages/count_tokens';
export const REMOTE_MIN_CHARS = 256;
export const CACHE_ENTRIES = 1000;
export const MAX_IN_FLIGHT = 2;
export const FAILURE_PAUSE_MS = 60_000;
export const MESSAGE_OVERHEAD_TOKENS = 4;

export function estimateTokens(text: string): number {
  if (text === '') return 0;
  let points = 0;
  for (const _ of text) points++;
  return Math.ceil(points / 4);
}

export function countRequestBody(model: string, text: string): unknown {
  return { model, messages: [{ role: 'user', content: text }] };
}

/** The count from the answer, or undefined when the answer has another shape. */
export function readCount(data: unknown): number | undefined {
  const n = (data as { input_tokens?: unknown } | null)?.input_tokens;
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

export interface TokenCounterOptions {
  /** POSTs `body` to COUNT_TOKENS_PATH through the shared client; resolves to the JSON answer. */
  post(body: unknown, signal: AbortSignal | undefined): Promise<unknown>;
  /** True for a failure meaning "this gateway has no such endpoint" (404, 405). */
  isUnsupported(error: unknown): boolean;
  now?: () => number;
  log?: (line: string) => void;
}

/** A count and where it came from: the gateway's count_tokens, or the local estimate (then label it so). */
export interface TokenCount {
  tokens: number;
  source: 'gateway' | 'estimate';
}

export class TokenCounter {
  private readonly cache = new Map<string, number>();
  private readonly inFlight = new Map<string, Promise<TokenCount>>();
  private unsupported = false;
  private pausedUntil = 0;
  private generation = 0;
  /** Remote requests made (for tests and the log). */
  requests = 0;

  constructor(private readonly options: TokenCounterOptions) {}

  /** Forget everything: the base URL or key changed. */
  reset(): void {
    this.cache.clear();
    this.inFlight.clear();
    this.unsupported = false;
    this.pausedUntil = 0;
    this.generation++;
  }

  async count(model: string, text: string, signal?: AbortSignal): Promise<number> {
    return (await this.countWithSource(model, text, signal)).tokens;
  }

  /**
   * The count and its source. `minRemoteChars` lowers the size below which only the local estimate is
   * used, for callers that debounce themselves (the cost before sending); VS Code's provideTokenCount
   * keeps REMOTE_MIN_CHARS.
   */
  async countWithSource(model: string, text: string, signal?: AbortSignal, minRemoteChars = REMOTE_MIN_CHARS): Promise<TokenCount> {
    const estimate: TokenCount = { tokens: estimateTokens(text), source: 'estimate' };
    if (text === '' || text.length < minRemoteChars || this.unsupported) return estimate;
    const key = `${model}\u0000${createHash('sha256').update(text, 'utf8').digest('base64')}`;
    const hit = this.cache.get(key);
    if (hit !== undefined) {
      this.cache.delete(key);
      this.cache.set(key, hit);
      return { tokens: hit, source: 'gateway' };
    }
    const pending = this.inFlight.get(key);
    if (pending) return pending;
    const now = (this.options.now ?? Date.now)();
    if (now < this.pausedUntil || this.inFlight.size >= MAX_IN_FLIGHT) return estimate;
    const generation = this.generation;
    const p = this.remote(model, text, signal, estimate.tokens).then((n): TokenCount => {
      if (generation === this.generation && n.remote) this.remember(key, n.value);
      return { tokens: n.value, source: n.remote ? 'gateway' : 'estimate' };
    });
    this.inFlight.set(key, p);
    try {
      return await p;
    } finally {
      if (this.inFlight.get(key) === p) this.inFlight.delete(key);
    }
  }

  private async remote(model: string, text: string, signal: AbortSignal | undefined, estimate: number): Promise<{ value: number; remote: boolean }> {
    this.requests++;
    try {
      const value = readCount(await this.options.post(countRequestBody(model, text), signal));
      if (value !== undefined) return { value, remote: true };
      this.unsupported = true;
      this.options.log?.('Token count: the gateway answered count_tokens in an unexpected shape; using the local estimate from now on.');
    } catch (e) {
      if (signal?.aborted) return { value: estimate, remote: false };
      if (this.options.isUnsupported(e)) {
        this.unsupported = true;
        this.options.log?.('Token count: the gateway has no count_tokens endpoint; using the local estimate.');
      } else {
        this.pausedUntil = (this.options.now ?? Date.now)() + FAILURE_PAUSE_MS;
        this.options.log?.(`Token count failed (${e instanceof Error ? e.message : String(e)}); local estimates for a minute.`);
      }
    }
    return { value: estimate, remote: false };
  }

  private remember(key: string, value: number): void {
    this.cache.set(key, value);
    if (this.cache.size > CACHE_ENTRIES) {
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) this.cache.delete(oldest);
    }
  }
}
