/**
 * Reads a Server-Sent-Events body into typed items: `readEventStream` is the reader, given a codec that
 * says what an event's data is and which event ends the stream; `readChatStream` is it with the
 * chat-completion codec (the messages route's codec is in messagesWire.ts).
 *
 * Contract (chat codec): yields one ChatCompletionChunk per `data:` event that carries a `choices`
 * array, in order, and returns at `data: [DONE]`. A valid JSON event without `choices` (`{}`, `[]`: a keep-alive, say)
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
 *
 * The iterator is written by hand rather than as an async generator: a chunk already decoded is
 * handed over with one resolved promise, where a generator's yield costs several promise turns per
 * chunk; only a new network read is awaited. Its observable behaviour is the generator's: calls
 * settle in order, a throw() or an early return() closes the body and reports onEnd once, and a
 * return() before the first next() opens nothing.
 */
import { createParser, type EventSourceMessage, type ParseError } from 'eventsource-parser';
import { errorFromResponse } from '../http/classify';
import { utf8Decoder } from '../http/body';
import { readChatUsage } from './usage';
import { GatewayError } from '../http/errors';
import { DEFAULT_LIMITS } from '../http/policy';
import type { ChatCompletionChunk } from './types';
import { END_OF_STREAM, type EventCodec } from './eventCodec';

export { END_OF_STREAM, type EventCodec };

/**
 * An event sent as the gateway's error envelope (`{ error: { code, ... } }`), classified like the HTTP
 * error it describes, as the partial failure of a started stream.
 */
export function streamEventError(data: string, status: number, requestId: string | undefined): GatewayError {
  const e = errorFromResponse({ status, headerRequestId: requestId, retryAfterMs: undefined, bodyText: data });
  return new GatewayError({ reason: e.reason, message: e.message, status, type: e.type, requestId: e.requestId, permission: e.permission, partial: true });
}




/**
 * The HTTP status an error event's `code` stands for: a whole number from 100 to 599. Anything else (a
 * string, 1e400 which JSON reads as Infinity, 42.5, 9999) is not a status and the event counts as a
 * server error (500), never "HTTP Infinity".
 */
export function envelopeStatus(envelope: unknown): number {
  const code = typeof envelope === 'object' && envelope !== null ? (envelope as { code?: unknown }).code : undefined;
  return typeof code === 'number' && Number.isInteger(code) && code >= 100 && code <= 599 ? code : 500;
}

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
/** Lines the SSE format says to ignore (unknown fields) that one stream may carry; more is not a gateway's stream. */
const MAX_IGNORED_LINES = 1000;
const LF = 10;

/** The index just after the first blank line ("\n\n") that starts at or after `from`, if it ends before `limit` (and the end of `bytes`); else -1. */
function afterBlankLine(bytes: Uint8Array, from: number, limit: number): number {
  // Searched in a view that ends at `limit`: indexOf on the whole read would scan to its end for every
  // slice, and a long read without a line break (1 MiB: 64 slices) cost time quadratic in its size.
  const view = bytes.subarray(0, Math.min(bytes.length, limit));
  const last = view.length - 2;
  for (let i = view.indexOf(LF, from); i !== -1 && i < last; i = view.indexOf(LF, i + 1)) {
    if (view[i + 1] === LF) return i + 2;
  }
  return -1;
}

/** The chunk an event's data carries, undefined for an event to skip, or the failure it is. */
function decodeChatEvent(data: string, requestId: string | undefined): ChatCompletionChunk | GatewayError | undefined {
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
    return streamEventError(data, envelopeStatus(envelope), requestId);
  }
  // Keep-alives and other events without choices carry nothing for the reply.
  if (!Array.isArray((chunk as { choices?: unknown }).choices)) return undefined;
  // The usage object is read into the internal form here, once (gateway/usage.ts).
  if (chunk.usage !== undefined && chunk.usage !== null) chunk.usage = readChatUsage(chunk.usage) ?? null;
  return chunk;
}

/** The chat-completion codec: `choices` chunks up to `data: [DONE]`. */
export function chatCodec(requestId: string | undefined): EventCodec<ChatCompletionChunk> {
  return { isEnd: (event) => event.data === DONE, decode: (data) => decodeChatEvent(data, requestId), endName: DONE };
}

export function readChatStream(body: AsyncIterable<Uint8Array>, options: SseReadOptions = {}): AsyncIterableIterator<ChatCompletionChunk> {
  return readEventStream(body, chatCodec(options.requestId), options);
}

export function readEventStream<T>(body: AsyncIterable<Uint8Array>, codec: EventCodec<T>, options: SseReadOptions = {}): AsyncIterableIterator<T> {
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
  const tooLarge = (): void => {
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
      tooLarge();
      return;
    }
    if (codec.isEnd(event)) {
      doneQueued = true;
      pending.push(DONE);
    } else pending.push(data);
  };
  let taken = 0;
  /**
   * The next chunk of `pending`, in order; undefined once it is drained (then it is emptied), at
   * [DONE] (sets `done`) or at a failing event (sets `failure`, replacing a limit failure the parser
   * reported later in the same read: events are judged in order, the rest is dropped).
   */
  const take = (): T | undefined => {
    while (taken < pending.length) {
      const data = pending[taken++];
      if (data === DONE) {
        done = true;
        break;
      }
      const r = codec.decode(data);
      if (r === END_OF_STREAM) {
        done = true;
        break;
      }
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
  // The parser's buffer limit ends the stream (the parser is terminated after it). It also reports
  // lines the SSE format says to ignore (an unknown field, a `retry` that is not a number): ignored,
  // so a gateway that adds a field of its own does not break the reply. The parser builds an error
  // for each one, so a stream of nothing else is stopped after MAX_IGNORED_LINES of them (it would
  // otherwise cost seconds of the extension host per MiB).
  let ignoredLines = 0;
  const onError = (error: ParseError): void => {
    // Nothing after [DONE] counts, as for events (onEvent): the reply is already complete.
    if (doneQueued) return;
    if (error.type === 'max-buffer-size-exceeded') tooLarge();
    else if (++ignoredLines > MAX_IGNORED_LINES) {
      failure ??= new GatewayError({
        reason: 'protocol',
        message: `The gateway sent more than ${MAX_IGNORED_LINES} lines that are not stream events; the reply was stopped`,
        requestId,
        partial: true,
      });
    }
  };
  const parser = createParser({ onEvent, onError, maxBufferSize: maxEventChars });

  /** A failure of the body (or of the consumer's throw()) as the partial GatewayError it ends the stream with. */
  const asFailure = (err: unknown): GatewayError => {
    if (err instanceof GatewayError) return err;
    const mapped = options.mapError?.(err) ?? new GatewayError({ reason: 'network', message: 'The stream broke', requestId, cause: err });
    return new GatewayError({
      reason: mapped.reason,
      message: mapped.message,
      status: mapped.status,
      type: mapped.type,
      requestId: mapped.requestId ?? requestId,
      timeoutPhase: mapped.timeoutPhase,
      partial: true,
      cause: err,
    });
  };

  let reads: AsyncIterator<Uint8Array> | undefined;
  // The body was opened and has neither ended nor failed: ending the stream early closes it.
  let bodyOpen = false;
  let bodyEnded = false;
  let tailFed = false;
  // The current read, fed to the parser slice by slice from `start` (undefined when fully fed).
  let bytes: Uint8Array | undefined;
  let start = 0;
  let reach = 0;
  let count = 0;
  let state: 'new' | 'open' | 'ended' = 'new';

  const ended: IteratorReturnResult<undefined> = { value: undefined, done: true };

  /** Ends the stream once: closes the body if it is still open, reports onEnd, then settles. */
  const end = async (error: GatewayError | undefined): Promise<IteratorResult<T, undefined>> => {
    state = 'ended';
    bytes = undefined;
    let e = error;
    try {
      if (bodyOpen) {
        bodyOpen = false;
        try {
          await reads?.return?.();
        } catch (err) {
          // As with for-await: an error already ending the stream wins over one from closing it.
          e ??= asFailure(err);
        }
      }
    } finally {
      options.onEnd?.(e, count, e === undefined && done);
    }
    if (e !== undefined) throw e;
    return ended;
  };

  /**
   * The next chunk, found without waiting when the events already read hold one; otherwise a promise
   * of the read that brings one (or of the end). Per chunk: no promise besides the one next() returns.
   */
  const step = (): IteratorResult<T, undefined> | Promise<IteratorResult<T, undefined>> => {
    try {
      for (;;) {
        const chunk = take();
        if (chunk !== undefined) {
          count++;
          return { value: chunk, done: false };
        }
        if (failure !== undefined) return end(failure);
        if (done) return end(undefined);
        if (bytes !== undefined) {
          // A long read is decoded and parsed in slices that end just after a blank line, the first
          // one event long and each next one at least twice the one before: the first tokens of a
          // read that carries many events are handed over before the rest is decoded and parsed.
          // The slices are what the network could have delivered as separate reads, so the outcome
          // is the one of such reads.
          let stop = Math.min(bytes.length, start + MAX_FEED_BYTES);
          if (stop - start > SLICE_FROM_BYTES) {
            const cut = afterBlankLine(bytes, start + reach, stop);
            if (cut !== -1) stop = cut;
          }
          reach = 2 * (stop - start);
          const piece = start === 0 && stop === bytes.length ? bytes : bytes.subarray(start, stop);
          start = stop;
          if (start >= bytes.length) bytes = undefined;
          parser.feed(decoder.decode(piece));
          continue;
        }
        if (bodyEnded) {
          // The body ended cleanly. A final event without its blank line still counts (lenient), but a
          // stream without [DONE] was cut short (found once every event before the end was taken).
          bodyEnded = false;
          tailFed = true;
          if (failure === undefined) parser.feed(decoder.end() + '\n\n');
          continue;
        }
        if (tailFed) {
          failure = new GatewayError({ reason: 'protocol', message: `The stream ended before it was complete (${codec.endName} missing)`, requestId, partial: true });
          continue;
        }
        return read();
      }
    } catch (err) {
      return end(asFailure(err));
    }
  };

  const read = async (): Promise<IteratorResult<T, undefined>> => {
    if (reads === undefined) {
      reads = body[Symbol.asyncIterator]();
      bodyOpen = true;
    }
    let r: IteratorResult<Uint8Array>;
    try {
      r = await reads.next();
    } catch (err) {
      bodyOpen = false;
      return end(asFailure(err));
    }
    if (r.done === true) {
      bodyOpen = false;
      bodyEnded = true;
    } else {
      bytes = r.value;
      start = 0;
      reach = 0;
    }
    return step();
  };

  // A call made while an earlier one is under way runs after it settles (calls settle in order, as
  // with a generator); with none under way (the usual case) it runs at once.
  type Step = IteratorResult<T, undefined> | Promise<IteratorResult<T, undefined>>;
  let underWay = 0;
  let last: Promise<unknown> = Promise.resolve();
  const settled = (): void => {
    underWay--;
  };
  const serial = (run: () => Step): Promise<IteratorResult<T, undefined>> => {
    let p: Promise<IteratorResult<T, undefined>>;
    if (underWay === 0) {
      let r: Step;
      try {
        r = run();
      } catch (err) {
        return Promise.reject(err);
      }
      if (!(r instanceof Promise)) return Promise.resolve(r);
      p = r;
    } else {
      p = last.then(run, run);
    }
    underWay++;
    last = p;
    p.then(settled, settled);
    return p;
  };

  const iterator: AsyncIterableIterator<T> = {
    next() {
      return serial(() => {
        if (state === 'ended') return ended;
        state = 'open';
        return step();
      });
    },
    return() {
      return serial(() => {
        // Like a generator: stopped before it started, nothing was opened and nothing is reported.
        if (state !== 'open') {
          state = 'ended';
          return ended;
        }
        return end(undefined);
      });
    },
    throw(err: unknown) {
      return serial(() => {
        if (state !== 'open') {
          state = 'ended';
          throw err;
        }
        return end(asFailure(err));
      });
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
  return iterator;
}
