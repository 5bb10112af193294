/**
 * Knowledge-base routes of the local gateway: collections, documents and search, in memory per
 * gateway instance. Shapes (the spec shows none; the client's assumptions are mirrored here, written
 * out independently, never imported from src/):
 *   GET  /v1/kb/collections?limit&cursor            -> {data:[collection], has_more, next_cursor?}
 *   POST /v1/kb/collections {name}                  -> 201 collection
 *   GET  /v1/kb/collections/{id}                    -> collection
 *   POST /v1/kb/collections/{id} {name}             -> collection (renamed)
 *   POST /v1/kb/collections/{id}/delete             -> {id, deleted:true}
 *   GET  /v1/kb/collections/{id}/documents?limit&cursor -> page of documents (no text)
 *   GET  /v1/kb/collections/{id}/documents/{doc}    -> document with text
 *   POST /v1/kb/collections/{id}/documents {source_id, title?, content_type, text, content_hash?}
 *        upsert by source_id: 201 new document, 200 with the same id when the source was indexed before
 *   POST /v1/kb/collections/{id}/documents/{doc}/delete -> {id, deleted:true}
 *   POST /v1/kb/collections/{id}/search {query, limit?} -> {data:[{document_id, source_id, title, score,
 *        snippet, line, column, offset}]}
 * collection = {id, name, document_count, created_at}; document = {id, source_id, title, content_type,
 * content_hash, size, created_at, updated_at}.
 *
 * Scopes come from SCOPE_TABLE (scopes.ts) by the route's pattern, so this module and the stubs agree.
 * Search ranking is deterministic: score = total occurrences of the query's words (case-insensitive,
 * whole text), ties by document creation order; the location is the first occurrence of any query
 * word. All scans are linear in the text (indexOf of words of at most 64 characters).
 * Events: `kb-index` {collection, source_id, document_id, replaced}, `kb-search` {collection, query, results}.
 */
import type { GatewayContext, Req, Res, RouteModule } from './context';
import { GatewayHttpError } from './context';
import { levelFor, SCOPE_TABLE } from './scopes';

export const KB_PAGE_DEFAULT = 20;
export const KB_PAGE_MAX = 100;
/** Decisions (spec gaps): the most text one document may hold, and documents per collection. */
export const KB_MAX_TEXT_CHARS = 2 * 1024 * 1024;
export const KB_MAX_DOCUMENTS = 10_000;
const CONTENT_TYPES = new Set(['text/markdown', 'text/html', 'text/plain']);

interface CollectionRec {
  id: string;
  name: string;
  created_at: string;
  docs: Map<string, DocumentRec>;
}
interface DocumentRec {
  id: string;
  source_id: string;
  title: string;
  content_type: string;
  content_hash: string;
  text: string;
  created_at: string;
  updated_at: string;
  seq: number;
}

export function invalid(message: string): GatewayHttpError {
  return new GatewayHttpError(400, 'invalid_request_error', message);
}
export function notFound(what: string): GatewayHttpError {
  return new GatewayHttpError(404, 'not_found_error', `${what} not found`);
}

/** Authorises by the scope-table entry of `pattern` (the same table the fallback stubs use). */
export function guard(req: Req, res: Res, ctx: GatewayContext, pattern: string): boolean {
  const entry = SCOPE_TABLE.find((e) => e.pattern === pattern && (e.method === '*' || e.method === (req.method ?? 'GET').toUpperCase()));
  if (entry === undefined) throw new Error(`no scope-table entry for ${pattern}`);
  return ctx.authorize(req, res, entry.scope, levelFor(req.method, entry.level)) !== undefined;
}

export function record(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalid('request body must be a JSON object');
  return body as Record<string, unknown>;
}

export function queryOf(req: Req): URLSearchParams {
  return new URL(req.url ?? '/', 'http://local').searchParams;
}

/** Cursor pages: `limit` 1..100 (default 20), `cursor` an opaque token naming the next offset. */
export function page<T>(req: Req, items: readonly T[]): { data: T[]; has_more: boolean; next_cursor?: string } {
  const q = queryOf(req);
  const rawLimit = q.get('limit');
  const limit = rawLimit === null ? KB_PAGE_DEFAULT : Number(rawLimit);
  if (!Number.isInteger(limit) || limit < 1 || limit > KB_PAGE_MAX) throw invalid(`'limit' must be an integer from 1 to ${KB_PAGE_MAX}`);
  const rawCursor = q.get('cursor');
  let start = 0;
  if (rawCursor !== null) {
    const m = /^pg_(\d{1,9})$/.exec(Buffer.from(rawCursor, 'base64url').toString('utf8'));
    if (!m) throw invalid("'cursor' is not valid");
    start = Number(m[1]);
  }
  const data = items.slice(start, start + limit);
  const end = start + data.length;
  return end < items.length ? { data, has_more: true, next_cursor: Buffer.from(`pg_${end}`).toString('base64url') } : { data, has_more: false };
}

function name(b: Record<string, unknown>): string {
  const n = b.name;
  if (typeof n !== 'string' || n.trim() === '' || n.length > 200) throw invalid("'name' must be a non-empty string of at most 200 characters");
  return n.trim();
}

function words(text: string): string[] {
  return [...new Set(text.toLowerCase().match(/[\p{L}\p{N}_]{1,64}/gu) ?? [])].slice(0, 16);
}

interface Hit {
  doc: DocumentRec;
  score: number;
  offset: number;
}

/** Occurrences of each word and the first offset of any; case-insensitive when lower-casing keeps offsets. */
function scan(text: string, terms: string[]): { score: number; offset: number } {
  const lower = text.toLowerCase();
  const hay = lower.length === text.length ? lower : text;
  let score = 0;
  let first = -1;
  for (const t of terms) {
    for (let i = hay.indexOf(t); i !== -1; i = hay.indexOf(t, i + t.length)) {
      score++;
      if (first === -1 || i < first) first = i;
    }
  }
  return { score, offset: first };
}

export function locate(text: string, offset: number): { line: number; column: number; snippet: string } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  const lineEnd = text.indexOf('\n', offset);
  const full = text.slice(lineStart, lineEnd === -1 ? text.length : lineEnd).replace(/\r$/, '');
  const column = offset - lineStart + 1;
  const from = Math.max(0, column - 1 - 60);
  const snippet = (from > 0 ? '…' : '') + full.slice(from, from + 160).trim() + (full.length > from + 160 ? '…' : '');
  return { line, column, snippet };
}

export const kbModule: RouteModule = {
  name: 'kb',
  register(route, ctx) {
    const collections = new Map<string, CollectionRec>();
    let nextId = 1;
    let seq = 0;
    const now = (): string => ctx.options.now().toISOString();
    const view = (c: CollectionRec) => ({ id: c.id, name: c.name, document_count: c.docs.size, created_at: c.created_at });
    const docView = (d: DocumentRec) => ({
      id: d.id,
      source_id: d.source_id,
      title: d.title,
      content_type: d.content_type,
      content_hash: d.content_hash,
      size: Buffer.byteLength(d.text),
      created_at: d.created_at,
      updated_at: d.updated_at,
    });
    const find = (id: string): CollectionRec => {
      const c = collections.get(id);
      if (c === undefined) throw notFound('collection');
      return c;
    };

    const C = '/v1/kb/collections';
    const C1 = '/v1/kb/collections/{id}';
    const CDEL = '/v1/kb/collections/{id}/delete';
    const D = '/v1/kb/collections/{id}/documents';
    const D1 = '/v1/kb/collections/{id}/documents/{document_id}';
    const DDEL = '/v1/kb/collections/{id}/documents/{document_id}/delete';
    const S = '/v1/kb/collections/{id}/search';

    route('GET', C, (req, res) => {
      if (!guard(req, res, ctx, C)) return;
      ctx.sendJson(res, 200, page(req, [...collections.values()].map(view)));
    });
    route('POST', C, async (req, res) => {
      if (!guard(req, res, ctx, C)) return;
      const b = record(await ctx.readJson(req));
      const c: CollectionRec = { id: `col_${nextId++}`, name: name(b), created_at: now(), docs: new Map() };
      collections.set(c.id, c);
      ctx.sendJson(res, 201, view(c));
    });
    route('GET', C1, (req, res, _ctx, p) => {
      if (!guard(req, res, ctx, C1)) return;
      ctx.sendJson(res, 200, view(find(p.id)));
    });
    route('POST', C1, async (req, res, _ctx, p) => {
      if (!guard(req, res, ctx, C1)) return;
      const b = record(await ctx.readJson(req));
      const c = find(p.id);
      c.name = name(b);
      ctx.sendJson(res, 200, view(c));
    });
    route('POST', CDEL, (req, res, _ctx, p) => {
      if (!guard(req, res, ctx, CDEL)) return;
      req.resume();
      find(p.id);
      collections.delete(p.id);
      ctx.sendJson(res, 200, { id: p.id, deleted: true });
    });

    route('GET', D, (req, res, _ctx, p) => {
      if (!guard(req, res, ctx, D)) return;
      const c = find(p.id);
      ctx.sendJson(res, 200, page(req, [...c.docs.values()].sort((a, b) => a.seq - b.seq).map(docView)));
    });
    route('POST', D, async (req, res, _ctx, p) => {
      if (!guard(req, res, ctx, D)) return;
      const b = record(await ctx.readJson(req));
      const c = find(p.id);
      const sourceId = b.source_id;
      if (typeof sourceId !== 'string' || sourceId === '' || sourceId.length > 4096) throw invalid("'source_id' must be a non-empty string");
      const text = b.text;
      if (typeof text !== 'string') throw invalid("'text' must be a string");
      if (text.length > KB_MAX_TEXT_CHARS) throw new GatewayHttpError(413, 'invalid_request_error', `'text' exceeds ${KB_MAX_TEXT_CHARS} characters`);
      const type = b.content_type;
      if (typeof type !== 'string' || !CONTENT_TYPES.has(type)) throw invalid("'content_type' must be text/markdown, text/html or text/plain");
      const title = b.title === undefined ? sourceId : b.title;
      if (typeof title !== 'string') throw invalid("'title' must be a string");
      const hash = b.content_hash === undefined ? '' : b.content_hash;
      if (typeof hash !== 'string') throw invalid("'content_hash' must be a string");
      const existing = [...c.docs.values()].find((d) => d.source_id === sourceId);
      if (existing === undefined && c.docs.size >= KB_MAX_DOCUMENTS) throw invalid(`a collection holds at most ${KB_MAX_DOCUMENTS} documents`);
      const at = now();
      const doc: DocumentRec = existing
        ? { ...existing, title, content_type: type, content_hash: hash, text, updated_at: at }
        : { id: `doc_${nextId++}`, source_id: sourceId, title, content_type: type, content_hash: hash, text, created_at: at, updated_at: at, seq: seq++ };
      c.docs.set(doc.id, doc);
      ctx.events.push({ type: 'kb-index', collection: c.id, source_id: sourceId, document_id: doc.id, replaced: existing !== undefined });
      ctx.sendJson(res, existing ? 200 : 201, docView(doc));
    });
    route('GET', D1, (req, res, _ctx, p) => {
      if (!guard(req, res, ctx, D1)) return;
      const d = find(p.id).docs.get(p.document_id);
      if (d === undefined) throw notFound('document');
      ctx.sendJson(res, 200, { ...docView(d), text: d.text });
    });
    route('POST', DDEL, (req, res, _ctx, p) => {
      if (!guard(req, res, ctx, DDEL)) return;
      req.resume();
      const c = find(p.id);
      if (!c.docs.delete(p.document_id)) throw notFound('document');
      ctx.sendJson(res, 200, { id: p.document_id, deleted: true });
    });

    route('POST', S, async (req, res, _ctx, p) => {
      if (!guard(req, res, ctx, S)) return;
      const b = record(await ctx.readJson(req));
      const query = b.query;
      if (typeof query !== 'string' || query.trim() === '' || query.length > 1000) throw invalid("'query' must be a non-empty string of at most 1000 characters");
      const limit = b.limit === undefined ? 10 : b.limit;
      if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > 50) throw invalid("'limit' must be an integer from 1 to 50");
      const c = find(p.id);
      const terms = words(query);
      const hits: Hit[] = [];
      for (const doc of c.docs.values()) {
        const { score, offset } = scan(doc.text, terms);
        if (score > 0) hits.push({ doc, score, offset });
      }
      hits.sort((a, b) => b.score - a.score || a.doc.seq - b.doc.seq);
      const data = hits.slice(0, limit).map((h) => {
        const loc = locate(h.doc.text, h.offset);
        return { document_id: h.doc.id, source_id: h.doc.source_id, title: h.doc.title, score: h.score, snippet: loc.snippet, line: loc.line, column: loc.column, offset: h.offset };
      });
      ctx.events.push({ type: 'kb-search', collection: c.id, query, results: data.length });
      ctx.sendJson(res, 200, { data });
    });
  },
};
