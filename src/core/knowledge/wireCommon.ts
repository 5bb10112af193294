/**
 * Shared plumbing of the knowledge-base and agents wire modules: defensive field readers, the list
 * paging loop and a transport over the shared gateway client.
 *
 * ASSUMED (spec: payloads and exact per-route methods "not shown"): every list route takes
 * `?limit=&cursor=` and answers `{ data: [...], has_more: boolean, next_cursor?: string }`; a page
 * without `has_more: true` and a non-empty `next_cursor` is the last one. This is the only place
 * that knows the paging shape.
 *
 * ASSUMED: only GET and POST are used (updates and deletes are POSTs to the item or to an
 * `/archive`, `/delete` sub-route), because the shared client (IGatewayClient) offers exactly those
 * two. Each route's method lives in the route tables of kbWire.ts / agentsWire.ts, so moving a route
 * to PATCH or DELETE is an edit there plus a `requestJson` on the shared client (see `send`).
 */
import type { CallOptions, IGatewayClient, JsonResponse } from '../gateway/api';
import { GatewayError } from '../http/errors';

export type WireMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface WireRoute {
  method: WireMethod;
  path: string;
}

/** Page size asked for, and the most pages any list reads before it stops (so a looping server cannot hold us). */
export const PAGE_LIMIT = 100;
export const MAX_PAGES = 200;
/** Longest cursor we send back; anything longer is a protocol error rather than a growing URL. */
const MAX_CURSOR_CHARS = 1024;

/** A response that cannot be read as the assumed shape. Never carries the server's text. */
export function protocolError(what: string, requestId: string | undefined): GatewayError {
  return new GatewayError({ reason: 'protocol', message: `The gateway sent ${what} that could not be read.`, requestId });
}

export type Obj = Record<string, unknown>;

export function asObject(v: unknown, what: string, requestId: string | undefined): Obj {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw protocolError(what, requestId);
  return v as Obj;
}

export function str(o: Obj, field: string, what: string, requestId: string | undefined): string {
  const v = o[field];
  if (typeof v !== 'string') throw protocolError(what, requestId);
  return v;
}

export function optStr(o: Obj, field: string, what: string, requestId: string | undefined): string | undefined {
  const v = o[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw protocolError(what, requestId);
  return v;
}

export function optNum(o: Obj, field: string, what: string, requestId: string | undefined): number | undefined {
  const v = o[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v)) throw protocolError(what, requestId);
  return v;
}

export function optBool(o: Obj, field: string, what: string, requestId: string | undefined): boolean | undefined {
  const v = o[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'boolean') throw protocolError(what, requestId);
  return v;
}

/** Path segment for an id that came from the server or the user: encoded, never empty, never a dot segment. */
export function seg(id: string): string {
  if (id === '' || id === '.' || id === '..' || id.length > 512) throw new GatewayError({ reason: 'invalid_request', message: 'The identifier is not valid.' });
  return encodeURIComponent(id);
}

export interface Page<T> {
  items: T[];
  nextCursor: string | undefined;
}

/** Reads one page in the assumed shape; `item` parses each element. */
export function parsePage<T>(data: unknown, what: string, requestId: string | undefined, item: (v: unknown) => T): Page<T> {
  const o = asObject(data, `a ${what} list`, requestId);
  if (!Array.isArray(o.data)) throw protocolError(`a ${what} list`, requestId);
  const items = o.data.map(item);
  const hasMore = optBool(o, 'has_more', `a ${what} list`, requestId) === true;
  const next = optStr(o, 'next_cursor', `a ${what} list`, requestId);
  if (next !== undefined && next.length > MAX_CURSOR_CHARS) throw protocolError(`a ${what} list`, requestId);
  return { items, nextCursor: hasMore && next ? next : undefined };
}

export interface ListResult<T> {
  items: T[];
  /** True when MAX_PAGES was reached (or the server repeated a cursor) and more may exist. */
  truncated: boolean;
}

/** Pages through a list: stops at the last page, at MAX_PAGES, or when the server repeats a cursor. */
export async function listAll<T>(
  client: IGatewayClient,
  path: string,
  what: string,
  item: (v: unknown, requestId: string | undefined) => T,
  options: CallOptions & { query?: Record<string, string | undefined>; maxPages?: number } = {},
): Promise<ListResult<T>> {
  const items: T[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  const maxPages = options.maxPages ?? MAX_PAGES;
  for (let page = 0; page < maxPages; page++) {
    const res = await client.getJson<unknown>(path, { signal: options.signal, onRetry: options.onRetry, query: { ...options.query, limit: String(PAGE_LIMIT), cursor } });
    const p = parsePage(res.data, what, res.requestId, (v) => item(v, res.requestId));
    items.push(...p.items);
    if (p.nextCursor === undefined) return { items, truncated: false };
    if (seen.has(p.nextCursor)) return { items, truncated: true };
    seen.add(p.nextCursor);
    cursor = p.nextCursor;
  }
  return { items, truncated: true };
}

/** Optional extension of the shared client for methods other than GET and POST. */
interface RequestJsonCapable {
  requestJson<T>(method: WireMethod, path: string, body: unknown, options?: CallOptions): Promise<JsonResponse<T>>;
}

/** Sends one request on its assumed route through the shared client. */
export async function send(client: IGatewayClient, route: WireRoute, body: unknown, options?: CallOptions): Promise<JsonResponse<unknown>> {
  if (route.method === 'GET') return client.getJson<unknown>(route.path, options);
  if (route.method === 'POST') return client.postJson<unknown>(route.path, body ?? {}, options);
  const extended = client as IGatewayClient & Partial<RequestJsonCapable>;
  if (typeof extended.requestJson === 'function') return extended.requestJson<unknown>(route.method, route.path, body, options);
  throw new GatewayError({ reason: 'invalid_request', message: `${route.method} is not supported by the gateway client.` });
}

/**
 * For a 403 permission refusal: the scope and level the key lacks, as the server named them (parsed
 * once into GatewayError.permission), so a view can say "this key lacks collections read" instead of
 * showing an empty list. `fallbackScope` is the scope the route needs by the spec's table, used when
 * the server's message did not name one.
 */
export function missingPermission(e: unknown, fallbackScope: string, fallbackLevel: 'read' | 'write'): { scope: string; level: string } | undefined {
  if (!(e instanceof Error) || (e as GatewayError).reason !== 'permission') return undefined;
  const p = (e as GatewayError).permission;
  return { scope: p?.scope ?? fallbackScope, level: p?.required ?? fallbackLevel };
}

/** True when `s` holds a C0 control character or DEL (names, ids and paths never should). */
export function hasControlChar(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}
