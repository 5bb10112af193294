import { FAULT_KINDS, type ActiveFault, type FaultController, type FaultKind, type FaultSpec, type Req, type Res } from './context';

export function pathOf(req: Req): string {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

function routeMatches(route: string, path: string): boolean {
  if (route === '*') return path.startsWith('/v1/') || path === '/v1';
  if (route.endsWith('*')) return path.startsWith(route.slice(0, -1));
  return path === route;
}

/** Validates a spec coming from JSON (the control endpoint); throws a readable Error. */
export function parseFaultSpec(value: unknown): FaultSpec {
  if (typeof value !== 'object' || value === null) throw new Error('fault must be an object');
  const v = value as Record<string, unknown>;
  if (typeof v.kind !== 'string' || !FAULT_KINDS.includes(v.kind as FaultKind)) {
    throw new Error(`fault.kind must be one of ${FAULT_KINDS.join(', ')}`);
  }
  const spec: FaultSpec = { kind: v.kind as FaultKind };
  if (v.route !== undefined) {
    if (typeof v.route !== 'string') throw new Error('fault.route must be a string');
    spec.route = v.route;
  }
  if (v.method !== undefined) {
    if (typeof v.method !== 'string') throw new Error('fault.method must be a string');
    spec.method = v.method.toUpperCase();
  }
  // JSON has no Infinity: null or "infinite" arm a fault until cleared.
  if (v.count === null || v.count === 'infinite') spec.count = Infinity;
  else if (v.count !== undefined) {
    if (typeof v.count !== 'number' || !(v.count >= 1)) throw new Error('fault.count must be a number >= 1');
    spec.count = v.count;
  }
  for (const field of ['retryAfter', 'afterChunks', 'bytes'] as const) {
    const n = v[field];
    if (n !== undefined) {
      if (typeof n !== 'number' || n < 0) throw new Error(`fault.${field} must be a number >= 0`);
      spec[field] = n;
    }
  }
  return spec;
}

export class Faults implements FaultController {
  private faults: ActiveFault[] = [];
  private nextId = 1;

  add(spec: FaultSpec): number {
    const fault: ActiveFault = {
      id: this.nextId++,
      kind: spec.kind,
      route: spec.route ?? '*',
      count: spec.count ?? 1,
      fired: 0,
      ...(spec.method !== undefined ? { method: spec.method.toUpperCase() } : {}),
      ...(spec.retryAfter !== undefined ? { retryAfter: spec.retryAfter } : {}),
      ...(spec.afterChunks !== undefined ? { afterChunks: spec.afterChunks } : {}),
      ...(spec.bytes !== undefined ? { bytes: spec.bytes } : {}),
    };
    this.faults.push(fault);
    return fault.id;
  }

  clear(): void {
    this.faults = [];
  }

  list(): ActiveFault[] {
    return this.faults.map((f) => ({ ...f }));
  }

  take(req: Req, kinds: readonly FaultKind[]): ActiveFault | undefined {
    const path = pathOf(req);
    const method = (req.method ?? 'GET').toUpperCase();
    const fault = this.faults.find(
      (f) => kinds.includes(f.kind) && routeMatches(f.route, path) && (f.method === undefined || f.method === method) && f.fired < f.count,
    );
    if (fault === undefined) return undefined;
    fault.fired++;
    if (fault.fired >= fault.count) this.faults = this.faults.filter((f) => f !== fault);
    return { ...fault };
  }
}

/** What the wire faults need from the server; passed in so this file stays free of server state. */
export interface WireFaultDeps {
  readBody(req: Req): Promise<Buffer>;
  /** Resolves after ms, or early when the gateway closes. */
  sleep(ms: number): Promise<void>;
  closing: AbortSignal;
  /** options.stallMs, read when a stall starts (0: until the client leaves or the gateway closes). */
  stallMs(): number;
  /** options.faultAfterChunks, read when the fault fires. */
  afterChunks(): number;
}

/** Not UTF-8: a lead byte followed by an ASCII byte, then a byte that never occurs in UTF-8. */
export const INVALID_UTF8 = Buffer.from([0xc3, 0x28, 0xff]);
/** Larger than 16 MiB, the largest event or response limit a client is expected to set. */
export const DEFAULT_OVERSIZED_BYTES = 16 * 1024 * 1024 + 1;
const SLICE = 64 * 1024;

function closedPromise(res: Res): Promise<void> {
  if (res.destroyed || res.writableFinished) return Promise.resolve();
  return new Promise((resolve) => res.once('close', () => resolve()));
}

/** Sends nothing more until the client leaves, stallMs passes or the gateway closes; then kills the socket. */
async function stallThenDestroy(res: Res, deps: WireFaultDeps): Promise<void> {
  const ms = deps.stallMs();
  const limit =
    ms > 0
      ? deps.sleep(ms)
      : new Promise<void>((resolve) => {
          if (deps.closing.aborted) resolve();
          else deps.closing.addEventListener('abort', () => resolve(), { once: true });
        });
  await Promise.race([closedPromise(res), limit]);
  res.destroy();
}

/** Index just inside the first JSON string value (after `":"`), preferring a `"content":"` value. */
function insideFirstString(text: Buffer): number {
  const content = text.indexOf('"content":"');
  if (content !== -1 && text.indexOf('"content":""') !== content) return content + '"content":"'.length;
  const i = text.indexOf('":"');
  return i === -1 ? 0 : i + 3;
}

function withInvalidUtf8(body: Buffer): Buffer {
  const at = insideFirstString(body);
  return Buffer.concat([body.subarray(0, at), INVALID_UTF8, body.subarray(at)]);
}

/** The event that ends a stream: chat's `data: [DONE]`, the messages route's `event: message_stop`. */
function isDoneEvent(event: string): boolean {
  return /^data: ?\[DONE\]\s*$/m.test(event) || /^event: ?message_stop\s*$/m.test(event);
}

/**
 * Applies a wire fault (context.ts, WireFaultKind) to one request of any route. Returns true when the
 * fault disposed of the request itself (reset, stall before headers): the handler must not run.
 * Otherwise it wrapped `res` so the handler's writes are altered, and returns false.
 */
export async function applyWireFault(fault: ActiveFault, req: Req, res: Res, deps: WireFaultDeps): Promise<boolean> {
  switch (fault.kind) {
    case 'reset_before_headers':
      req.socket.destroy();
      return true;
    case 'reset_after_body':
      await deps.readBody(req);
      req.socket.destroy();
      return true;
    case 'stall_before_headers':
      await deps.readBody(req);
      await stallThenDestroy(res, deps);
      return true;
    default:
      wrapWriter(fault, res, deps);
      return false;
  }
}

type Mode = 'sse' | 'json' | 'other';
type WriteCallback = (error?: Error | null) => void;

function modeOf(contentType: unknown): Mode {
  const ct = String(contentType ?? '').toLowerCase();
  if (ct.includes('text/event-stream')) return 'sse';
  if (ct.includes('json')) return 'json';
  return 'other';
}

function toBuffer(chunk: unknown, encoding?: BufferEncoding): Buffer {
  if (chunk === undefined || chunk === null) return Buffer.alloc(0);
  if (Buffer.isBuffer(chunk)) return chunk;
  if (chunk instanceof Uint8Array) return Buffer.from(chunk);
  return Buffer.from(String(chunk), encoding ?? 'utf8');
}

/**
 * Replaces res.writeHead/write/end on this one response. Writes are queued and processed in order;
 * the handler's write callbacks fire once its data was handled (written, held or dropped), so a
 * handler that waits on them keeps its pace. Content-Length is removed (bodies change length).
 */
function wrapWriter(fault: ActiveFault, res: Res, deps: WireFaultDeps): void {
  const kind = fault.kind;
  const n = fault.afterChunks ?? deps.afterChunks();
  const bytes = fault.bytes ?? DEFAULT_OVERSIZED_BYTES;
  const origWriteHead = res.writeHead.bind(res) as (status: number, headers?: Record<string, unknown>) => Res;
  const origWrite = res.write.bind(res) as (chunk: Buffer, cb: WriteCallback) => boolean;
  const origEnd = res.end.bind(res) as (chunk?: Buffer) => Res;
  let mode: Mode | undefined;
  let stopped = false;
  let queue = Promise.resolve();
  let sseBuffer = '';
  let held: string | undefined;
  let eventIndex = 0;
  let malformedDone = false;
  const jsonChunks: Buffer[] = [];

  const raw = (buf: Buffer): Promise<void> =>
    new Promise((resolve) => {
      if (res.destroyed || buf.length === 0) return resolve();
      res.once('close', resolve);
      origWrite(buf, () => {
        res.off('close', resolve);
        resolve();
      });
    });
  const finish = (): void => {
    stopped = true;
    if (!res.destroyed) origEnd();
  };
  const stall = async (): Promise<void> => {
    stopped = true;
    await stallThenDestroy(res, deps);
  };
  const ensureMode = (): Mode => {
    mode ??= modeOf(res.getHeader('content-type'));
    if (!res.headersSent) res.removeHeader('content-length');
    return mode;
  };

  res.writeHead = ((status: number, ...rest: unknown[]) => {
    const given = rest.find((x) => typeof x === 'object' && x !== null && !Array.isArray(x)) as Record<string, unknown> | undefined;
    const headers: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(given ?? {})) if (k.toLowerCase() !== 'content-length') headers[k] = v;
    res.removeHeader('content-length');
    const ct = Object.entries(headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? res.getHeader('content-type');
    mode = modeOf(ct);
    return origWriteHead(status, headers);
  }) as Res['writeHead'];

  /** One complete SSE event (with its blank-line terminator); `last` when the stream ends after it. */
  const onEvent = async (event: string, last: boolean): Promise<void> => {
    const index = eventIndex++;
    const done = isDoneEvent(event);
    const target = !done && (index === n || (last && index < n));
    if (kind === 'no_done' && done) return;
    if (kind === 'malformed_json' && !malformedDone && !done && /^data: ?[[{]/m.test(event)) {
      malformedDone = true;
      const line = /^data: ?(.*)$/m.exec(event)?.[1] ?? '';
      await raw(Buffer.from(event.replace(line, line.slice(0, Math.max(1, Math.floor(line.length / 2)))), 'utf8'));
      return;
    }
    if (!target && !(kind === 'stall_mid_body' && index >= n)) {
      await raw(Buffer.from(event, 'utf8'));
      return;
    }
    switch (kind) {
      case 'stall_mid_body':
        await stall();
        return;
      case 'truncated_event':
        await raw(Buffer.from(event.slice(0, Math.floor(event.replace(/\n+$/, '').length / 2)), 'utf8'));
        finish();
        return;
      case 'invalid_utf8':
        await raw(withInvalidUtf8(Buffer.from(event, 'utf8')));
        return;
      case 'oversized_event': {
        await raw(Buffer.from('data: {"pad":"', 'utf8'));
        const slice = Buffer.alloc(SLICE, 'x');
        for (let sent = 0; sent < bytes && !res.destroyed; sent += SLICE) await raw(sent + SLICE <= bytes ? slice : slice.subarray(0, bytes - sent));
        await raw(Buffer.from('"}\n\n', 'utf8'));
        await raw(Buffer.from(event, 'utf8'));
        return;
      }
      default:
        await raw(Buffer.from(event, 'utf8'));
    }
  };

  const onSse = async (data: Buffer, end: boolean): Promise<void> => {
    sseBuffer += data.toString('utf8');
    for (;;) {
      const cut = sseBuffer.indexOf('\n\n');
      if (cut === -1) break;
      const event = sseBuffer.slice(0, cut + 2);
      sseBuffer = sseBuffer.slice(cut + 2);
      // One event is held back, so the last one is known when the stream ends.
      if (held !== undefined) await onEvent(held, false);
      held = event;
      if (stopped) return;
    }
    if (!end) return;
    if (held !== undefined) await onEvent(held, true);
    held = undefined;
    if (stopped) return;
    if (sseBuffer !== '') await raw(Buffer.from(sseBuffer, 'utf8'));
    finish();
  };

  const onWhole = async (body: Buffer): Promise<void> => {
    switch (kind) {
      case 'malformed_json':
        if (mode === 'json') return void (await raw(body.subarray(0, Math.floor(body.length / 2))), finish());
        break;
      case 'invalid_utf8':
        if (mode === 'json') return void (await raw(withInvalidUtf8(body)), finish());
        break;
      case 'stall_mid_body':
        await raw(body.subarray(0, Math.floor(body.length / 2)));
        return stall();
      case 'oversized_event':
        if (mode === 'json') {
          await raw(Buffer.from('{"pad":"', 'utf8'));
          const slice = Buffer.alloc(SLICE, 'x');
          for (let sent = 0; sent < bytes && !res.destroyed; sent += SLICE) await raw(sent + SLICE <= bytes ? slice : slice.subarray(0, bytes - sent));
          await raw(Buffer.from('","body":', 'utf8'));
          await raw(body.length > 0 ? body : Buffer.from('null', 'utf8'));
          await raw(Buffer.from('}', 'utf8'));
          return finish();
        }
        break;
      default:
        break;
    }
    await raw(body);
    finish();
  };

  const onData = async (data: Buffer, end: boolean): Promise<void> => {
    if (stopped || res.destroyed) return;
    const m = ensureMode();
    if (m === 'sse') return onSse(data, end);
    jsonChunks.push(data);
    if (end) await onWhole(Buffer.concat(jsonChunks));
  };

  const enqueue = (data: Buffer, end: boolean, cb?: WriteCallback): void => {
    queue = queue
      .then(() => onData(data, end))
      .catch(() => res.destroy())
      .then(() => cb?.());
  };

  res.write = ((chunk: unknown, a?: unknown, b?: unknown) => {
    const cb = (typeof a === 'function' ? a : b) as WriteCallback | undefined;
    enqueue(toBuffer(chunk, typeof a === 'string' ? (a as BufferEncoding) : undefined), false, cb);
    return true;
  }) as Res['write'];
  res.end = ((chunk?: unknown, a?: unknown, b?: unknown) => {
    const cb = (typeof chunk === 'function' ? chunk : typeof a === 'function' ? a : b) as (() => void) | undefined;
    enqueue(typeof chunk === 'function' ? Buffer.alloc(0) : toBuffer(chunk, typeof a === 'string' ? (a as BufferEncoding) : undefined), true, cb);
    return res;
  }) as Res['end'];
}
