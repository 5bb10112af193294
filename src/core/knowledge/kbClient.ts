/**
 * Knowledge-base operations on the shared gateway client. Wire shapes and routes: kbWire.ts.
 *
 * Contract: every failure is a GatewayError (from the client; reason 'protocol' for an answer that
 * cannot be read; reason 'permission' with `permission.scope/required` for a 403, see
 * missingPermission). Every call takes an AbortSignal. Nothing here keeps local state, so a failed
 * write changes nothing on this side.
 */
import type { CallOptions, IGatewayClient } from '../gateway/api';
import { GatewayError, isGatewayError } from '../http/errors';
import {
  KB_ROUTES,
  parseCollection,
  parseDocument,
  parseSearch,
  toCreateCollection,
  toIndexDocument,
  toRenameCollection,
  toSearch,
  type Collection,
  type IndexDocumentInput,
  type KbDocument,
  type SearchHit,
} from './kbWire';
import { hasControlChar, listAll, missingPermission, send, type ListResult } from './wireCommon';

export type { Collection, KbDocument, SearchHit, IndexDocumentInput, ListResult };

/** The scope and level each operation needs, by the spec's table (used when a 403 names none). */
export const KB_SCOPES = {
  listCollections: ['collections', 'read'],
  createCollection: ['collections', 'write'],
  renameCollection: ['collections', 'write'],
  deleteCollection: ['collections', 'write'],
  listDocuments: ['documents', 'read'],
  getDocument: ['documents', 'read'],
  indexDocument: ['documents', 'write'],
  deleteDocument: ['documents', 'write'],
  search: ['search', 'read'],
} as const satisfies Record<string, readonly [string, 'read' | 'write']>;

export type KbOperation = keyof typeof KB_SCOPES;

/** What the key lacks for `op`, when `e` is a permission refusal. */
export function kbMissingPermission(op: KbOperation, e: unknown): { scope: string; level: string } | undefined {
  const [scope, level] = KB_SCOPES[op];
  return missingPermission(e, scope, level);
}

const MAX_NAME_CHARS = 200;
const MAX_QUERY_CHARS = 1000;
export const MAX_SEARCH_RESULTS = 50;

function checkName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '' || trimmed.length > MAX_NAME_CHARS || hasControlChar(trimmed)) {
    throw new GatewayError({ reason: 'invalid_request', message: `A collection name must be 1 to ${MAX_NAME_CHARS} characters without control characters.` });
  }
  return trimmed;
}

export function listCollections(client: IGatewayClient, options?: CallOptions): Promise<ListResult<Collection>> {
  return listAll(client, KB_ROUTES.collections().path, 'collection', parseCollection, options);
}

export async function getCollection(client: IGatewayClient, id: string, options?: CallOptions): Promise<Collection> {
  const res = await send(client, KB_ROUTES.collection(id), undefined, options);
  return parseCollection(res.data, res.requestId);
}

export async function createCollection(client: IGatewayClient, name: string, options?: CallOptions): Promise<Collection> {
  const res = await send(client, KB_ROUTES.createCollection(), toCreateCollection(checkName(name)), options);
  return parseCollection(res.data, res.requestId);
}

export async function renameCollection(client: IGatewayClient, id: string, name: string, options?: CallOptions): Promise<Collection> {
  const res = await send(client, KB_ROUTES.renameCollection(id), toRenameCollection(checkName(name)), options);
  return parseCollection(res.data, res.requestId);
}

export async function deleteCollection(client: IGatewayClient, id: string, options?: CallOptions): Promise<void> {
  await send(client, KB_ROUTES.deleteCollection(id), {}, options);
}

export function listDocuments(client: IGatewayClient, collectionId: string, options?: CallOptions): Promise<ListResult<KbDocument>> {
  return listAll(client, KB_ROUTES.documents(collectionId).path, 'document', parseDocument, options);
}

export async function getDocument(client: IGatewayClient, collectionId: string, documentId: string, options?: CallOptions): Promise<KbDocument> {
  const res = await send(client, KB_ROUTES.document(collectionId, documentId), undefined, options);
  return parseDocument(res.data, res.requestId);
}

/** Upsert by source id: indexing a source again replaces its document (same document id). */
export async function indexDocument(client: IGatewayClient, collectionId: string, doc: IndexDocumentInput, options?: CallOptions): Promise<KbDocument> {
  const res = await send(client, KB_ROUTES.indexDocument(collectionId), toIndexDocument(doc), options);
  return parseDocument(res.data, res.requestId);
}

export async function deleteDocument(client: IGatewayClient, collectionId: string, documentId: string, options?: CallOptions): Promise<void> {
  await send(client, KB_ROUTES.deleteDocument(collectionId, documentId), {}, options);
}

export async function searchCollection(client: IGatewayClient, collectionId: string, query: string, options?: CallOptions & { limit?: number }): Promise<SearchHit[]> {
  const q = query.trim();
  if (q === '' || q.length > MAX_QUERY_CHARS) throw new GatewayError({ reason: 'invalid_request', message: `A search needs 1 to ${MAX_QUERY_CHARS} characters.` });
  const limit = Math.max(1, Math.min(MAX_SEARCH_RESULTS, Math.floor(options?.limit ?? 20)));
  const res = await send(client, KB_ROUTES.search(collectionId), toSearch(q, limit), options);
  return parseSearch(res.data, res.requestId).slice(0, MAX_SEARCH_RESULTS);
}

export interface IndexProgress {
  done: number;
  total: number;
  sourceId: string;
}

export interface IndexRunResult {
  indexed: KbDocument[];
  /** Documents not sent because the run was cancelled or a call failed first. */
  notSent: string[];
  error: GatewayError | undefined;
}

/**
 * Sends planned documents one at a time (so Cancel stops between files and a failure names the file).
 * Stops at the first failure or abort; what was indexed before stays indexed (each is its own upsert).
 */
export async function indexDocuments(
  client: IGatewayClient,
  collectionId: string,
  docs: readonly IndexDocumentInput[],
  options: CallOptions & { onProgress?: (p: IndexProgress) => void } = {},
): Promise<IndexRunResult> {
  const indexed: KbDocument[] = [];
  for (let i = 0; i < docs.length; i++) {
    if (options.signal?.aborted) {
      return { indexed, notSent: docs.slice(i).map((d) => d.sourceId), error: new GatewayError({ reason: 'aborted', message: 'The request was cancelled' }) };
    }
    try {
      indexed.push(await indexDocument(client, collectionId, docs[i], options));
    } catch (e) {
      const error = isGatewayError(e) ? e : new GatewayError({ reason: 'protocol', message: 'Indexing failed.', cause: e });
      return { indexed, notSent: docs.slice(i).map((d) => d.sourceId), error };
    }
    options.onProgress?.({ done: i + 1, total: docs.length, sourceId: docs[i].sourceId });
  }
  return { indexed, notSent: [], error: undefined };
}
