/**
 * Reading an HTTP body from an MCP server with a byte limit. A server can send an endless or huge
 * body; nothing here holds more than `limit` bytes of it, and the read stops (the body is cancelled)
 * as soon as the limit is passed.
 */
import { BodyLimitError, readBodyText, utf8Decoder } from '../http/body';
import { formatBytes } from '../bytes';
import { McpCallError, responseTooLarge } from './errors';

export class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`body exceeds ${limit} bytes`);
    this.name = 'BodyTooLargeError';
  }
}

/** Declared Content-Length, when it is a plain non-negative integer. */
export function declaredLength(res: Response): number | undefined {
  const v = res.headers.get('content-length');
  if (v === null || !/^\d{1,15}$/.test(v.trim())) return undefined;
  return Number(v.trim());
}

/**
 * The body as text, at most `limit` bytes. Throws BodyTooLargeError past the limit (or with
 * `truncate`, returns the first `limit` bytes instead, decoded leniently: only error messages are
 * read that way). Otherwise invalid UTF-8 throws InvalidUtf8Error (the shared reader, http/body.ts).
 */
export async function readBodyLimited(res: Response, limit: number, options: { truncate?: boolean } = {}): Promise<string> {
  const declared = declaredLength(res);
  if (declared !== undefined && declared > limit && !options.truncate) {
    await res.body?.cancel().catch(() => undefined);
    throw new BodyTooLargeError(limit);
  }
  if (!res.body) return '';
  try {
    return await readBodyText(res.body, { maxBytes: limit, truncate: options.truncate });
  } catch (e) {
    if (e instanceof BodyLimitError) throw new BodyTooLargeError(limit);
    throw e;
  }
}

export interface GuardOptions {
  /** Largest body, in bytes (for a resumed event stream: all its parts together). */
  limit: number;
  /** Largest single SSE event, in characters (event streams only). */
  maxEventChars: number;
  /** JSON-RPC request ids the POST carried: an event stream that ends before answering all of them is cut. */
  pendingIds: ReadonlySet<string | number>;
  /** Called once with the first problem found; the body then errors with the same error. */
  onFailure: (problem: BodyProblem) => Error;
  /**
   * Resumption (MCP 2025-11-25, SEP-1699): called when an event stream that carried an event id ends
   * or breaks before every pending request was answered. `retryMs` is the server's last `retry`
   * field. Answers the continuation (the body of a GET sent with Last-Event-ID), 'unresumable' (the
   * body then fails with 'truncated', as without resumption) or 'cancelled' (the call was stopped:
   * the body ends with an AbortError, onFailure is not called). Called again if a continuation ends
   * short too; the caller bounds the attempts. Without it, a cut stream fails with 'truncated'.
   */
  resume?: (lastEventId: string, retryMs: number | undefined) => Promise<Response | 'unresumable' | 'cancelled'>;
}

export type BodyProblem =
  | { kind: 'tooLarge'; limit: number }
  | { kind: 'eventTooLarge'; limit: number }
  | { kind: 'invalidUtf8' }
  | { kind: 'badEvent' }
  | { kind: 'truncated' };

/** Longest event id kept for resumption; a longer one (or one that cannot be an HTTP header value) makes the stream unresumable. */
export const MAX_EVENT_ID_CHARS = 1024;
/** The `retry` field, as SSE defines it: ASCII digits only (more than 15 are ignored rather than overflowing). */
const RETRY_VALUE = /^\d{1,15}$/;
/** What can be sent back as a Last-Event-ID header value: printable ASCII. */
const HEADER_SAFE = /^[\x20-\x7e]*$/;

/** True when the response's media type is text/event-stream. */
export function isEventStream(res: Response): boolean {
  return (res.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase() === 'text/event-stream';
}

/** Statuses a Response can be built with, with a body. */
function canCarryBody(status: number): boolean {
  return status >= 200 && status <= 599 && status !== 204 && status !== 205 && status !== 304;
}

/**
 * The same response with a body that is checked as it passes: the byte limit, UTF-8, and for an event
 * stream each event (at most `maxEventChars`, JSON data) and its end (every request answered). The
 * first problem errors the body and calls `onFailure` once, at that moment, so the caller can fail
 * the pending request at once instead of waiting for a timeout. Linear in the body; holds at most
 * one event.
 *
 * An event stream is passed on as whole events only, written out again from what was parsed (type,
 * id, data lines; comments and `retry` are dropped): the reader downstream never sees half an event,
 * so an event cut by a broken connection is dropped, as SSE says, and a stream resumed with `resume`
 * reads as one stream. A continuation is closed as soon as every pending request is answered (a GET
 * stream may stay open).
 */
export function guardResponse(res: Response, options: GuardOptions): Response {
  if (!res.body || !canCarryBody(res.status)) return res;
  const sse = isEventStream(res);
  const pending = new Set(options.pendingIds);
  const encoder = new TextEncoder();
  let reader: ReadableStreamDefaultReader<Uint8Array> = res.body.getReader();
  let decoder = utf8Decoder();
  let total = 0;
  let done = false;
  /** True once the stream continues on a resumed (GET) body. */
  let resumed = false;
  // SSE state: the unfinished line, the fields of the current event, the resumption fields, and the
  // whole events ready to pass on.
  let line = '';
  let data: string[] = [];
  let dataChars = 0;
  let skipLf = false;
  let eventType = '';
  let eventHasId = false;
  let idBuffer: string | undefined;
  let lastEventId: string | undefined;
  let retryMs: number | undefined;
  let ready = '';

  const dispatch = (): BodyProblem | undefined => {
    const type = eventType;
    const hasId = eventHasId;
    eventType = '';
    eventHasId = false;
    // SSE: the last event id is taken when an event is dispatched, even one without data (a priming event).
    if (idBuffer !== undefined) lastEventId = idBuffer;
    const idLine = hasId ? `id: ${idBuffer ?? ''}\n` : '';
    if (data.length === 0) {
      if (idLine !== '') ready += `${idLine}\n`;
      return undefined;
    }
    const joined = data.join('\n');
    ready += `${type !== '' ? `event: ${type}\n` : ''}${idLine}data: ${data.join('\ndata: ')}\n\n`;
    data = [];
    dataChars = 0;
    // As the SDK reads them: only 'message' events carry JSON-RPC; an empty one (a priming event for
    // resumption, say) carries nothing.
    if ((type !== '' && type !== 'message') || joined === '') return undefined;
    let parsed: unknown;
    try {
      parsed = JSON.parse(joined);
    } catch {
      return { kind: 'badEvent' };
    }
    for (const m of Array.isArray(parsed) ? parsed : [parsed]) {
      if (typeof m === 'object' && m !== null && 'id' in m && ('result' in m || 'error' in m)) pending.delete((m as { id: string | number }).id);
    }
    return undefined;
  };
  /** Forgets the event being read (a connection broke in the middle of it). */
  const dropEvent = (): void => {
    line = '';
    data = [];
    dataChars = 0;
    eventType = '';
    eventHasId = false;
    idBuffer = lastEventId;
    skipLf = false;
  };
  const onLine = (l: string): BodyProblem | undefined => {
    if (l === '') return dispatch();
    // SSE fields: "name: value", "name:value" or a bare "name"; a line starting with ':' is a comment.
    const colon = l.indexOf(':');
    if (colon === 0) return undefined;
    const name = colon === -1 ? l : l.slice(0, colon);
    const value = colon === -1 ? '' : l.charCodeAt(colon + 1) === 32 ? l.slice(colon + 2) : l.slice(colon + 1);
    switch (name) {
      case 'data':
        dataChars += value.length;
        if (dataChars > options.maxEventChars) return { kind: 'eventTooLarge', limit: options.maxEventChars };
        data.push(value);
        break;
      case 'event':
        eventType = value.slice(0, 64);
        break;
      case 'id':
        // SSE ignores an id with a NUL; one that is too long or not a header value cannot be resumed from.
        if (!value.includes('\0')) {
          idBuffer = value.length <= MAX_EVENT_ID_CHARS && HEADER_SAFE.test(value) ? value : '';
          eventHasId = true;
        }
        break;
      case 'retry':
        if (RETRY_VALUE.test(value)) retryMs = Number(value);
        break;
    }
    return undefined;
  };
  /** Feeds decoded text; stops early once a continuation has answered every pending request. */
  const feed = (text: string): BodyProblem | undefined => {
    let pos = 0;
    if (skipLf && text.charCodeAt(0) === 10) pos = 1;
    skipLf = false;
    for (;;) {
      let end = pos;
      while (end < text.length && text.charCodeAt(end) !== 10 && text.charCodeAt(end) !== 13) end++;
      if (end >= text.length) {
        line += text.slice(pos);
        if (line.length + dataChars > options.maxEventChars) return { kind: 'eventTooLarge', limit: options.maxEventChars };
        return undefined;
      }
      const problem = onLine(line + text.slice(pos, end));
      line = '';
      if (problem) return problem;
      if (resumed && pending.size === 0) return undefined;
      if (text.charCodeAt(end) === 13) {
        if (end + 1 >= text.length) skipLf = true;
        else if (text.charCodeAt(end + 1) === 10) end++;
      }
      pos = end + 1;
    }
  };
  /**
   * End of one part of the stream: a last event without its blank line still counts (it is passed on
   * whole, so the SDK's parser, which has no end step of its own, reads it too).
   */
  const endPart = (): BodyProblem | undefined => {
    try {
      decoder.end();
    } catch {
      return { kind: 'invalidUtf8' };
    }
    if (!sse) return undefined;
    const problem = (line !== '' ? onLine(line) : undefined) ?? dispatch();
    line = '';
    skipLf = false;
    return problem;
  };
  const resumable = (): boolean => sse && options.resume !== undefined && pending.size > 0 && lastEventId !== undefined && lastEventId !== '';

  const stopReading = (reason?: unknown): void => {
    done = true;
    void reader.cancel(reason).catch(() => undefined);
  };
  const fail = (problem: BodyProblem, controller: ReadableStreamDefaultController<Uint8Array>): void => {
    if (done) return;
    controller.error(options.onFailure(problem));
    stopReading();
  };
  const flushReady = (controller: ReadableStreamDefaultController<Uint8Array>): boolean => {
    if (ready === '') return false;
    controller.enqueue(encoder.encode(ready));
    ready = '';
    return true;
  };
  /** Continues on the body `resume` gives; false when the stream was ended instead. */
  const continueStream = async (controller: ReadableStreamDefaultController<Uint8Array>): Promise<boolean> => {
    flushReady(controller);
    const next = await options.resume!(lastEventId!, retryMs);
    if (done) {
      if (next instanceof Response) void next.body?.cancel().catch(() => undefined);
      return false;
    }
    if (next === 'cancelled') {
      done = true;
      controller.error(new DOMException('The call was stopped while waiting to resume the event stream.', 'AbortError'));
      return false;
    }
    if (next === 'unresumable' || !next.body) {
      fail({ kind: 'truncated' }, controller);
      return false;
    }
    reader = next.body.getReader();
    decoder = utf8Decoder();
    resumed = true;
    return true;
  };

  const checked = new ReadableStream<Uint8Array>({
    async pull(controller) {
      for (;;) {
        if (done) return;
        let chunk: Awaited<ReturnType<ReadableStreamDefaultReader<Uint8Array>['read']>>;
        try {
          chunk = await reader.read();
        } catch (e) {
          if (done) return;
          // A connection that broke mid-stream resumes like one that closed, if it can; the event
          // it broke in is dropped (the server sends it again after the last whole one).
          if (resumable()) {
            dropEvent();
            if (await continueStream(controller)) continue;
            return;
          }
          done = true;
          controller.error(e);
          return;
        }
        if (done) return;
        if (chunk.done) {
          const problem = endPart();
          if (problem) return fail(problem, controller);
          if (!sse || pending.size === 0) {
            flushReady(controller);
            done = true;
            controller.close();
            return;
          }
          if (resumable()) {
            if (await continueStream(controller)) continue;
            return;
          }
          return fail({ kind: 'truncated' }, controller);
        }
        const bytes = chunk.value;
        total += bytes.byteLength;
        if (total > options.limit) return fail({ kind: 'tooLarge', limit: options.limit }, controller);
        let text: string;
        try {
          text = decoder.decode(bytes);
        } catch {
          return fail({ kind: 'invalidUtf8' }, controller);
        }
        if (!sse) {
          controller.enqueue(bytes);
          return;
        }
        const problem = feed(text);
        if (problem) return fail(problem, controller);
        if (resumed && pending.size === 0) {
          // A continuation that answered everything is closed here: a GET stream may stay open.
          flushReady(controller);
          controller.close();
          stopReading();
          return;
        }
        if (flushReady(controller)) return;
      }
    },
    cancel(reason) {
      stopReading(reason);
    },
  });
  return new Response(checked, { status: res.status, statusText: res.statusText, headers: res.headers });
}

/** The typed error for the first problem guardResponse found (single calls and batches alike). */
export function bodyProblemError(problem: BodyProblem, requestIds: string[]): McpCallError {
  switch (problem.kind) {
    case 'tooLarge':
      return responseTooLarge(problem.limit, requestIds);
    case 'eventTooLarge':
      return new McpCallError({
        reason: 'protocol',
        requestIds,
        outcomeUnknown: true,
        message: `The MCP server sent an event larger than the limit of ${formatBytes(problem.limit)}; stopped reading it. The server may still have done the work.`,
      });
    case 'invalidUtf8':
      return new McpCallError({ reason: 'protocol', requestIds, outcomeUnknown: true, message: 'The MCP server sent a response that is not valid UTF-8; it was not used. The server may still have done the work.' });
    case 'badEvent':
      return new McpCallError({ reason: 'protocol', requestIds, outcomeUnknown: true, message: 'The MCP server sent an event that is not JSON; the answer was not used. The server may still have done the work.' });
    case 'truncated':
      return new McpCallError({ reason: 'protocol', requestIds, outcomeUnknown: true, message: 'The MCP server ended the event stream before it answered. The server may still have done the work.' });
  }
}
