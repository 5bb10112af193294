/**
 * Reading an HTTP body from an MCP server with a byte limit. A server can send an endless or huge
 * body; nothing here holds more than `limit` bytes of it, and the read stops (the body is cancelled)
 * as soon as the limit is passed.
 */
import { BodyLimitError, readBodyText, utf8Decoder } from '../http/body';
import { formatBytes, McpCallError, responseTooLarge } from './errors';

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
  /** Largest body, in bytes. */
  limit: number;
  /** Largest single SSE event, in characters (event streams only). */
  maxEventChars: number;
  /** JSON-RPC request ids the POST carried: an event stream that ends before answering all of them is cut. */
  pendingIds: ReadonlySet<string | number>;
  /** Called once with the first problem found; the body then errors with the same error. */
  onFailure: (problem: BodyProblem) => Error;
}

export type BodyProblem =
  | { kind: 'tooLarge'; limit: number }
  | { kind: 'eventTooLarge'; limit: number }
  | { kind: 'invalidUtf8' }
  | { kind: 'badEvent' }
  | { kind: 'truncated' };

/**
 * The same response with a body that is checked as it passes: the byte limit, UTF-8, and for an event
 * stream each event (at most `maxEventChars`, JSON data) and its end (every request answered). The
 * first problem errors the body and calls `onFailure` once, at that moment, so the caller can fail
 * the pending request at once instead of waiting for a timeout. Linear in the body; holds at most
 * one event.
 */
export function guardResponse(res: Response, options: GuardOptions): Response {
  if (!res.body) return res;
  const sse = (res.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase() === 'text/event-stream';
  const pending = new Set(options.pendingIds);
  const decoder = utf8Decoder();
  let total = 0;
  let failed = false;
  // SSE state: the unfinished line, and the data lines of the current event.
  let line = '';
  let data: string[] = [];
  let dataChars = 0;
  let skipLf = false;

  const fail = (problem: BodyProblem, controller: TransformStreamDefaultController<Uint8Array>): void => {
    if (failed) return;
    failed = true;
    controller.error(options.onFailure(problem));
  };
  let eventType = '';
  const dispatch = (): BodyProblem | undefined => {
    const type = eventType;
    eventType = '';
    if (data.length === 0) return undefined;
    const joined = data.join('\n');
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
  const onLine = (l: string): BodyProblem | undefined => {
    if (l === '') return dispatch();
    if (l.startsWith('data:')) {
      const d = l.charCodeAt(5) === 32 ? l.slice(6) : l.slice(5);
      dataChars += d.length;
      if (dataChars > options.maxEventChars) return { kind: 'eventTooLarge', limit: options.maxEventChars };
      data.push(d);
    } else if (l.startsWith('event:')) {
      eventType = (l.charCodeAt(6) === 32 ? l.slice(7) : l.slice(6)).slice(0, 64);
    }
    return undefined;
  };
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
      if (text.charCodeAt(end) === 13) {
        if (end + 1 >= text.length) skipLf = true;
        else if (text.charCodeAt(end + 1) === 10) end++;
      }
      pos = end + 1;
    }
  };

  const checked = res.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        if (failed) return;
        total += chunk.byteLength;
        if (total > options.limit) return fail({ kind: 'tooLarge', limit: options.limit }, controller);
        let text: string;
        try {
          text = decoder.decode(chunk);
        } catch {
          return fail({ kind: 'invalidUtf8' }, controller);
        }
        if (sse) {
          const problem = feed(text);
          if (problem) return fail(problem, controller);
        }
        controller.enqueue(chunk);
      },
      flush(controller) {
        if (failed) return;
        try {
          decoder.end();
        } catch {
          return fail({ kind: 'invalidUtf8' }, controller);
        }
        if (!sse) return;
        // A last event without its blank line still counts, as the SDK's parser sees it.
        const problem = (line !== '' ? onLine(line) : undefined) ?? dispatch();
        line = '';
        if (problem) return fail(problem, controller);
        if (pending.size > 0) fail({ kind: 'truncated' }, controller);
      },
    }),
  );
  try {
    return new Response(checked, { status: res.status, statusText: res.statusText, headers: res.headers });
  } catch {
    // A status the Response constructor refuses (1xx, say): hand back the original as is.
    void checked.cancel().catch(() => undefined);
    return res;
  }
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
