/**
 * Knowledge-base wire shapes: routes, request bodies and response parsers. The spec lists the route
 * families and their scopes (collections, documents, search) but not payloads, per-route methods or
 * sub-routes, so EVERYTHING below marked ASSUMED is an assumption kept in this one file.
 *
 * ASSUMED routes (paging shape and the GET/POST-only rule: wireCommon.ts):
 *   GET  /v1/kb/collections                               list          collections read
 *   POST /v1/kb/collections            {name}             create        collections write
 *   GET  /v1/kb/collections/{id}                          get           collections read
 *   POST /v1/kb/collections/{id}       {name}             rename        collections write
 *   POST /v1/kb/collections/{id}/delete                   delete        collections write
 *   GET  /v1/kb/collections/{id}/documents                list          documents read
 *   GET  /v1/kb/collections/{id}/documents/{doc}          get (+text)   documents read
 *   POST /v1/kb/collections/{id}/documents  {source_id, title, content_type, text, content_hash}
 *                                                         index: upsert by source_id  documents write
 *   POST /v1/kb/collections/{id}/documents/{doc}/delete   delete        documents write
 *   POST /v1/kb/collections/{id}/search {query, limit}    search        search read
 *
 * ASSUMED objects (unknown fields ignored; a wrong type is a protocol error):
 *   collection {id, name, document_count?, created_at?}
 *   document   {id, source_id, title?, content_type?, content_hash?, size?, updated_at?, text? (get only)}
 *   search     {data: [{document_id, source_id, title?, score, snippet, line, column, offset}]}
 *              line and column are 1-based (column in UTF-16 units), offset is 0-based into the text.
 */
import { asObject, optNum, optStr, protocolError, seg, str, type WireRoute } from './wireCommon';

export const KB_ROUTES = {
  collections: (): WireRoute => ({ method: 'GET', path: '/v1/kb/collections' }),
  createCollection: (): WireRoute => ({ method: 'POST', path: '/v1/kb/collections' }),
  collection: (id: string): WireRoute => ({ method: 'GET', path: `/v1/kb/collections/${seg(id)}` }),
  renameCollection: (id: string): WireRoute => ({ method: 'POST', path: `/v1/kb/collections/${seg(id)}` }),
  deleteCollection: (id: string): WireRoute => ({ method: 'POST', path: `/v1/kb/collections/${seg(id)}/delete` }),
  documents: (id: string): WireRoute => ({ method: 'GET', path: `/v1/kb/collections/${seg(id)}/documents` }),
  document: (id: string, doc: string): WireRoute => ({ method: 'GET', path: `/v1/kb/collections/${seg(id)}/documents/${seg(doc)}` }),
  indexDocument: (id: string): WireRoute => ({ method: 'POST', path: `/v1/kb/collections/${seg(id)}/documents` }),
  deleteDocument: (id: string, doc: string): WireRoute => ({ method: 'POST', path: `/v1/kb/collections/${seg(id)}/documents/${seg(doc)}/delete` }),
  search: (id: string): WireRoute => ({ method: 'POST', path: `/v1/kb/collections/${seg(id)}/search` }),
} as const;

export type KbContentType = 'text/markdown' | 'text/html' | 'text/plain';

export interface Collection {
  id: string;
  name: string;
  documentCount: number | undefined;
  createdAt: string | undefined;
}

export interface KbDocument {
  id: string;
  /** Stable id of the source (a workspace-relative path for files indexed from the editor). */
  sourceId: string;
  title: string | undefined;
  contentType: string | undefined;
  contentHash: string | undefined;
  size: number | undefined;
  updatedAt: string | undefined;
  /** Only on a single get. */
  text: string | undefined;
}

export interface IndexDocumentInput {
  sourceId: string;
  title: string;
  contentType: KbContentType;
  text: string;
  contentHash: string;
}

export interface SearchHit {
  documentId: string;
  sourceId: string;
  title: string | undefined;
  score: number;
  snippet: string;
  /** 1-based line of the match in the document text. */
  line: number;
  /** 1-based column (UTF-16 code units) of the match on that line. */
  column: number;
  /** 0-based offset (UTF-16 code units) of the match in the document text. */
  offset: number;
}

/** Longest snippet kept from a server answer, so a result list cannot grow without bound. */
const MAX_SNIPPET_CHARS = 500;
/** Longest document text accepted from a get. */
export const MAX_DOCUMENT_TEXT_CHARS = 8 * 1024 * 1024;

export function toCreateCollection(name: string): unknown {
  return { name };
}
export function toRenameCollection(name: string): unknown {
  return { name };
}
export function toIndexDocument(d: IndexDocumentInput): unknown {
  return { source_id: d.sourceId, title: d.title, content_type: d.contentType, text: d.text, content_hash: d.contentHash };
}
export function toSearch(query: string, limit: number): unknown {
  return { query, limit };
}

export function parseCollection(v: unknown, requestId: string | undefined): Collection {
  const what = 'a collection';
  const o = asObject(v, what, requestId);
  const count = optNum(o, 'document_count', what, requestId);
  return { id: str(o, 'id', what, requestId), name: str(o, 'name', what, requestId), documentCount: count, createdAt: optStr(o, 'created_at', what, requestId) };
}

export function parseDocument(v: unknown, requestId: string | undefined): KbDocument {
  const what = 'a document';
  const o = asObject(v, what, requestId);
  const text = optStr(o, 'text', what, requestId);
  if (text !== undefined && text.length > MAX_DOCUMENT_TEXT_CHARS) throw protocolError(what, requestId);
  return {
    id: str(o, 'id', what, requestId),
    sourceId: str(o, 'source_id', what, requestId),
    title: optStr(o, 'title', what, requestId),
    contentType: optStr(o, 'content_type', what, requestId),
    contentHash: optStr(o, 'content_hash', what, requestId),
    size: optNum(o, 'size', what, requestId),
    updatedAt: optStr(o, 'updated_at', what, requestId),
    text,
  };
}

function positiveInt(o: Record<string, unknown>, field: string, min: number, what: string, requestId: string | undefined): number {
  const n = optNum(o, field, what, requestId);
  if (n === undefined || !Number.isInteger(n) || n < min) throw protocolError(what, requestId);
  return n;
}

export function parseSearchHit(v: unknown, requestId: string | undefined): SearchHit {
  const what = 'a search result';
  const o = asObject(v, what, requestId);
  const score = optNum(o, 'score', what, requestId);
  const snippet = str(o, 'snippet', what, requestId);
  return {
    documentId: str(o, 'document_id', what, requestId),
    sourceId: str(o, 'source_id', what, requestId),
    title: optStr(o, 'title', what, requestId),
    score: score ?? 0,
    snippet: snippet.length > MAX_SNIPPET_CHARS ? `${snippet.slice(0, MAX_SNIPPET_CHARS)}…` : snippet,
    line: positiveInt(o, 'line', 1, what, requestId),
    column: positiveInt(o, 'column', 1, what, requestId),
    offset: positiveInt(o, 'offset', 0, what, requestId),
  };
}

export function parseSearch(data: unknown, requestId: string | undefined): SearchHit[] {
  const o = asObject(data, 'search results', requestId);
  if (!Array.isArray(o.data)) throw protocolError('search results', requestId);
  return o.data.map((h) => parseSearchHit(h, requestId));
}

/** Deletes answer anything; only the status matters. */
export function parseDeleted(_data: unknown): void {}
