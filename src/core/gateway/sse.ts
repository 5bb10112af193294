/**
 * Reads a chat-completion Server-Sent-Events body into typed chunks.
 *
 * Contract: yields one ChatCompletionChunk per `data:` event that carries a `choices` array, in order,
 * and returns at `data: [DONE]`. A valid JSON event without `choices` (`{}`, `[]`: a keep-alive, say)
 * is skipped. An event longer than `maxEventChars` ends the stream with a 'protocol' error naming the
 * limit, before more of it is buffered.
 * Anything else ends in a GatewayError with `partial: true`: a malformed event ('protocol'), an error
 * envelope sent as an event (classified like an HTTP error), a body that ends before [DONE]
 * ('protocol') or breaks ('network' / 'timeout' / 'aborted', via `mapError`). Chunks yielded before
 * the failure stay with the consumer: the error is thrown only after them.
 *
 * Hot path: per network read this does one TextDecoder call and one parser feed (a read over 1 KiB:
 * one per slice, a logarithmic few); per event one JSON.parse, done just before that event is
 * yielded. So the first token of a read is not held back by the decoding and parsing of the events
 * that came with it. No per-chunk timers, closures or logging.
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { errorFromResponse } from '../http/classify';
import { utf8Decoder } from '../http/body';
import { GatewayError } from '../http/errors';
import { DEFAULT_LIMITS } from '../http/policy';
import type { ChatCompletionChunk } from './types';

export interface SseReadOptions {
  requestId?: string;
  /** Classifies a failure of the underlying body (socket reset, idle timeout, abort). */
  mapError?: (err: unknown) => GatewayError;
  /**
   * Called once when iteration ends: normally, by error, or by the consumer breaking out (or throwing)
   * early; `complete` is true only when [DONE] was reached.
   */
  onEnd?: (error: GatewayError | undefined, chunks: number, complete: boolean) => void;
  /** Longest event, in characters, before the stream fails (default DEFAULT_LIMITS.maxEventChars). */
  maxEventChars?: number;
}

const DONE = '[DONE]';

/** Reads up to this many bytes are decoded and parsed in one piece. */
const SLICE_FROM_BYTES = 1024;
/**
 * The most bytes given to the SSE parser at once. Its cost grows faster than linearly with the size of
 * one feed made of many short lines (1 MiB of "a\n" in one feed: seconds), so a large read is fed in
 * pieces of at most this size: what the network could have delivered as separate reads.
 */
const MAX_FEED_BYTES = 16 * 1024;
const LF = 10;

/** The index just after the first blank line ("\n\n") that starts at or after `from`, if it ends before `limit` (and the end of `bytes`); else -1. */
function afterBlankLine(bytes: Uint8Array, from: number, limit: number): number {
  const last = Math.min(bytes.length, limit) - 2;
  for (let i = bytes.indexOf(LF, from); i !== -1 && i < last; i = bytes.indexOf(LF, i + 1)) {
    if (bytes[i + 1] === LF) return i + 2;
  }
  return -1;
}

export async function* readChatStream(
  body: AsyncIterable<Uint8Array>,
  options: SseReadOptions = {},
): AsyncGenerator<ChatCompletionChunk, void, undefined> {
  const { requestId } = options;
  // Fatal: a stream that is not UTF-8 ends in a 'protocol' error instead of U+FFFD in the reply.
  const decoder = utf8Decoder(
    (cause) => new GatewayError({ reason: 'protocol', message: 'The gateway sent a stream that is not valid UTF-8; the reply was stopped', requestId, partial: true, cause }),
  );
  // The data of the events the parser found during feed(), in order, up to [DONE] or the first
  // failure; drained right after (reused across reads). Each is JSON-parsed only when its turn to be
  // yielded comes, so the first chunk of a read reaches the consumer without waiting for the parse of
  // every later event that arrived with it.
  const pending: string[] = [];
  // [DONE] was queued (it ends what the parser hands over); `done` is set once it is drained.
  let doneQueued = false;
  let done = false;
  let failure: GatewayError | undefined;

  const maxEventChars = options.maxEventChars ?? DEFAULT_LIMITS.maxEventChars;
  const onError = (): void => {
    // The only error the parser reports is its buffer limit; after it the parser is terminated.
    failure ??= new GatewayError({
      reason: 'protocol',
      message: `The gateway sent a stream event larger than the limit of ${maxEventChars} characters; the reply was stopped`,
      requestId,
      partial: true,
    });
  };
  const onEvent = (event: EventSourceMessage): void => {
    if (doneQueued || failure !== undefined) return;
    const data = event.data;
    // The parser bounds what it buffers across reads; an event that arrived within one read is
    // checked here, so the limit holds however the bytes were cut.
    if (data.length > maxEventChars) {
      onError();
      return;
    }
    if (data === DONE) doneQueued = true;
    pending.push(data);
  };
  /** The chunk an event's data carries, undefined for an event to skip, or the failure it is. */
  const decodeEvent = (data: string): ChatCompletionChunk | GatewayError | undefined => {
    let chunk: ChatCompletionChunk;
    try {
      chunk = JSON.parse(data) as ChatCompletionChunk;
    } catch (cause) {
      return new GatewayError({ reason: 'protocol', message: 'The gateway sent a malformed stream event', requestId, partial: true, cause });
    }
    if (typeof chunk !== 'object' || chunk === null || Array.isArray(chunk)) {
      // `[]` is valid JSON but not an event we understand: skipped like any event without choices.
      if (Array.isArray(chunk)) return undefined;
      return new GatewayError({ reason: 'protocol', message: 'The gateway sent a malformed stream event', requestId, partial: true });
    }
    // Assumption (spec: not shown): a failure after the stream began may arrive as an event carrying
    // the usual error envelope; it is classified like the HTTP error it describes.
    const envelope = (chunk as { error?: { code?: unknown } }).error;
    if (envelope !== undefined) {
      const status = typeof envelope === 'object' && envelope !== null && typeof envelope.code === 'number' ? envelope.code : 500;
      const e = errorFromResponse({ status, headerRequestId: requestId, retryAfterMs: undefined, bodyText: data });
      return new GatewayError({ reason: e.reason, message: e.message, status, type: e.type, requestId: e.requestId, permission: e.permission, partial: true });
    }
    // Keep-alives and other events without choices carry nothing for the reply.
    if (!Array.isArray((chunk as { choices?: unknown }).choices)) return undefined;
    return chunk;
  };
  let taken = 0;
  /**
   * The next chunk of `pending`, in order; undefined once it is drained (then it is emptied), at
   * [DONE] (sets `done`) or at a failing event (sets `failure`, replacing a limit failure the parser
   * reported later in the same read: events are judged in order, the rest is dropped).
   */
  const take = (): ChatCompletionChunk | undefined => {
    while (taken < pending.length) {
      const data = pending[taken++];
      if (data === DONE) {
        done = true;
        break;
      }
      const r = decodeEvent(data);
      if (r instanceof GatewayError) {
        failure = r;
        break;
      }
      if (r !== undefined) return r;
    }
    pending.length = 0;
    taken = 0;
    return undefined;
  };
  const parser = createParser({ onEvent, onError, maxBufferSize: maxEventChars });
  let count = 0;
  let endError: GatewayError | undefined;
  // True only once every chunk up to [DONE] was handed to the consumer.
  let complete = false;

  try {
    try {
      for await (const bytes of body) {
        // A long read is decoded and parsed in slices that end just after a blank line, the first
        // one event long and each next one at least twice the one before: the first tokens of a
        // read that carries many events are handed over before the rest is decoded and parsed.
        // The slices are what the network could have delivered as separate reads, so the outcome
        // is the one of such reads.
        let start = 0;
        let reach = 0;
        do {
          let end = Math.min(bytes.length, start + MAX_FEED_BYTES);
          if (end - start > SLICE_FROM_BYTES) {
            const cut = afterBlankLine(bytes, start + reach, end);
            if (cut !== -1) end = cut;
          }
          reach = 2 * (end - start);
          const piece = start === 0 && end === bytes.length ? bytes : bytes.subarray(start, end);
          start = end;
          parser.feed(decoder.decode(piece));
          for (let chunk = take(); chunk !== undefined; chunk = take()) {
            count++;
            yield chunk;
          }
          if (failure !== undefined) throw failure;
          if (done) {
            complete = true;
            return;
          }
        } while (start < bytes.length);
      }
    } catch (err) {
      if (err instanceof GatewayError) throw err;
      const mapped = options.mapError?.(err) ?? new GatewayError({ reason: 'network', message: 'The stream broke', requestId, cause: err });
      throw new GatewayError({
        reason: mapped.reason,
        message: mapped.message,
        status: mapped.status,
        type: mapped.type,
        requestId: mapped.requestId ?? requestId,
        timeoutPhase: mapped.timeoutPhase,
        partial: true,
        cause: err,
      });
    }

    // The body ended cleanly. A final event without its blank line still counts (lenient), but a
    // stream without [DONE] was cut short.
    if (failure === undefined) parser.feed(decoder.end() + '\n\n');
    for (let chunk = take(); chunk !== undefined; chunk = take()) {
      count++;
      yield chunk;
    }
    if (failure !== undefined) throw failure;
    if (!done) {
      throw new GatewayError({ reason: 'protocol', message: 'The stream ended before it was complete ([DONE] missing)', requestId, partial: true });
    }
    complete = true;
  } catch (err) {
    endError = err as GatewayError;
    throw err;
  } finally {
    options.onEnd?.(endError, count, complete);
  }
}
