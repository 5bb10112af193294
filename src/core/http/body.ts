/**
 * The one body reader of every HTTP client (gateway, analytics, hosting, MCP): bytes to text with a
 * fatal UTF-8 decoder and an optional byte limit. No library imports, so the activation bundle, the
 * core chunk and the MCP chunk can all use it.
 *
 * Invalid UTF-8 is never replaced by U+FFFD: a body that is not UTF-8 is not the documented answer,
 * and silently "repairing" it could change a value (a site name, an amount) the user then acts on.
 * Each client maps the failures below to its own typed 'protocol' error.
 */
import { isAscii } from 'node:buffer';

/** The bytes were not valid UTF-8. */
export class InvalidUtf8Error extends Error {
  constructor(cause?: unknown) {
    super('the response is not valid UTF-8', cause === undefined ? undefined : { cause });
    this.name = 'InvalidUtf8Error';
  }
}

/** More than `limit` bytes arrived; the rest was not read. */
export class BodyLimitError extends Error {
  constructor(readonly limit: number) {
    super(`the response is larger than the limit of ${limit} bytes`);
    this.name = 'BodyLimitError';
  }
}

export interface Utf8Decoder {
  /** Text of one chunk; a character cut between two chunks comes out whole with the second. */
  decode(chunk: Uint8Array): string;
  /** Flushes the decoder: a character cut at the very end of the body is invalid. */
  end(): string;
}

/**
 * How many leading bytes of `bytes` end on a character boundary: all of them, unless the last
 * character is cut (its lead byte, among the last four bytes, announces more bytes than follow).
 * Bytes that can never start a character count as whole, so the decoder rejects them at once.
 */
function completeLength(bytes: Uint8Array): number {
  const n = bytes.length;
  for (let i = n - 1; i >= 0 && i >= n - 4; i--) {
    const b = bytes[i];
    if ((b & 0xc0) === 0x80) continue; // a continuation byte: the lead is further back
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return n - i < need ? i : n;
  }
  return n;
}

/** Whole characters of at least this many bytes, not all ASCII, are decoded by the streaming decoder. */
const ICU_FROM_BYTES = 4096;

/**
 * A streaming, fatal UTF-8 decoder. Throws `onInvalid(cause)` (default InvalidUtf8Error) on the first
 * invalid sequence; a multi-byte character split across chunks is fine.
 *
 * The same result as one TextDecoder('utf-8', { fatal: true }) fed with `{ stream: true }` (a byte
 * order mark is dropped only at the very start), but each chunk's whole characters are decoded in
 * one non-streaming call, which takes Node's fast path (the streaming one is several times slower);
 * a cut character's first bytes are kept for the next chunk, after checking that they can still
 * become a character, so an invalid sequence fails with the chunk it arrived in.
 *
 * That one-call path is fast for ASCII, but for text with other characters its cost per byte grows
 * with the size of the call (Node 20: a 64 KiB chunk takes about twice as long per byte as a 1 KiB
 * one). So a chunk of at least ICU_FROM_BYTES that is not all ASCII goes to a second decoder, a
 * streaming one (ICU, linear), given whole characters only: it holds nothing back between calls.
 */
export function utf8Decoder(onInvalid: (cause: unknown) => Error = (cause) => new InvalidUtf8Error(cause)): Utf8Decoder {
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  let streaming: InstanceType<typeof TextDecoder> | undefined;
  const decodeWhole = (bytes: Uint8Array): string => {
    if (bytes.length < ICU_FROM_BYTES || isAscii(bytes)) return decoder.decode(bytes);
    streaming ??= new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
    return streaming.decode(bytes, { stream: true });
  };
  let carry: Uint8Array | undefined;
  let atStart = true;
  return {
    decode(chunk) {
      let bytes = chunk;
      if (carry !== undefined) {
        bytes = new Uint8Array(carry.length + chunk.length);
        bytes.set(carry);
        bytes.set(chunk, carry.length);
        carry = undefined;
      }
      const whole = completeLength(bytes);
      let text: string;
      try {
        text = whole === 0 ? '' : decodeWhole(whole === bytes.length ? bytes : bytes.subarray(0, whole));
        if (whole < bytes.length) {
          const tail = bytes.slice(whole);
          // Throws now if these bytes can never begin a character (e.g. E0 80: an overlong form).
          new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(tail, { stream: true });
          carry = tail;
        }
      } catch (cause) {
        throw onInvalid(cause);
      }
      if (atStart && text !== '') {
        atStart = false;
        if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      }
      return text;
    },
    end() {
      const rest = carry;
      carry = undefined;
      if (rest === undefined) return '';
      try {
        // A character cut at the very end: always invalid, so this throws.
        return decoder.decode(rest);
      } catch (cause) {
        throw onInvalid(cause);
      }
    },
  };
}

export interface ReadBodyOptions {
  /** Fail with BodyLimitError once more than this many bytes arrived (default: no limit). */
  maxBytes?: number;
  /** With maxBytes: return the first maxBytes bytes instead of failing (lenient decoding: a cut character is expected). */
  truncate?: boolean;
  /** Called after every chunk (idle timers restart here). */
  onChunk?: () => void;
}

function stop(body: unknown): void {
  const b = body as { destroy?: () => void; cancel?: () => Promise<void> };
  if (typeof b.destroy === 'function') b.destroy();
  else if (typeof b.cancel === 'function') void b.cancel().catch(() => undefined);
}

/**
 * Reads a body (a Node stream, undici body or WHATWG ReadableStream: anything async-iterable) to text.
 * Throws InvalidUtf8Error, BodyLimitError, or whatever the body's own iteration throws (transport
 * errors, aborts) unchanged.
 */
export async function readBodyText(body: AsyncIterable<Uint8Array>, options: ReadBodyOptions = {}): Promise<string> {
  const { maxBytes, truncate } = options;
  const lenient = truncate === true ? new TextDecoder('utf-8') : undefined;
  const strict = lenient ? undefined : utf8Decoder();
  const decode = (chunk: Uint8Array): string => (lenient ? lenient.decode(chunk, { stream: true }) : strict!.decode(chunk));
  const parts: string[] = [];
  let total = 0;
  for await (const chunk of body) {
    options.onChunk?.();
    if (maxBytes !== undefined && total + chunk.byteLength > maxBytes) {
      if (truncate) parts.push(decode(chunk.subarray(0, maxBytes - total)));
      // Breaking out of for-await cancels a WHATWG stream; a Node stream is destroyed here.
      stop(body);
      if (truncate) break;
      throw new BodyLimitError(maxBytes);
    }
    total += chunk.byteLength;
    parts.push(decode(chunk));
  }
  parts.push(lenient ? lenient.decode() : strict!.end());
  return parts.join('');
}

/**
 * Reads a binary body (images, audio) into one buffer, failing with BodyLimitError as soon as more than
 * `maxBytes` arrived: the body is then stopped, so at most maxBytes plus one chunk is ever held.
 */
export async function readBodyBytes(body: AsyncIterable<Uint8Array>, options: { maxBytes: number; onChunk?: () => void }): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of body) {
    options.onChunk?.();
    if (total + chunk.byteLength > options.maxBytes) {
      stop(body);
      throw new BodyLimitError(options.maxBytes);
    }
    total += chunk.byteLength;
    chunks.push(chunk);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/** True for a body the readers above can iterate. */
export function isIterableBody(body: unknown): body is AsyncIterable<Uint8Array> {
  return typeof body === 'object' && body !== null && typeof (body as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === 'function';
}

/**
 * First-byte and idle timeouts for a WHATWG fetch (analytics, hosting: clients whose fetch has no
 * timeouts of its own). `signal` goes to fetch; call `gotHeaders()` when the response arrived and
 * `onChunk` per body chunk; `phase` names the timeout that fired, if one did.
 */
export class PhaseTimer {
  private readonly controller = new AbortController();
  private timer: ReturnType<typeof setTimeout> | undefined;
  phase: 'firstByte' | 'idle' | undefined;
  readonly signal: AbortSignal;

  constructor(
    private readonly timeouts: { firstByteMs: number; idleMs: number },
    userSignal?: AbortSignal,
  ) {
    this.signal = userSignal ? AbortSignal.any([userSignal, this.controller.signal]) : this.controller.signal;
    this.arm('firstByte', timeouts.firstByteMs);
  }

  gotHeaders(): void {
    this.arm('idle', this.timeouts.idleMs);
  }

  readonly onChunk = (): void => {
    if (this.phase === undefined) this.arm('idle', this.timeouts.idleMs);
  };

  clear(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private arm(phase: 'firstByte' | 'idle', ms: number): void {
    this.clear();
    if (!Number.isFinite(ms) || ms <= 0) return;
    this.timer = setTimeout(() => {
      this.phase = phase;
      this.controller.abort(new Error(`${phase} timeout`));
    }, ms);
  }
}
