/**
 * Knowledge-base client against the local gateway through the shared client: scopes per route
 * (G-AUTH-7, G-AUTH-6), paging through all results, upsert by source id, search with the source
 * location, cancellation, and defensive parsing of what a server sends.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LOCAL_KEYS } from '../../localGateway/keys';
import type { CallOptions, IGatewayClient, JsonResponse } from '../../../src/core/gateway/api';
import { isGatewayError, type GatewayError } from '../../../src/core/http/errors';
import {
  createCollection,
  deleteCollection,
  deleteDocument,
  getCollection,
  getDocument,
  indexDocument,
  indexDocuments,
  kbMissingPermission,
  listCollections,
  listDocuments,
  renameCollection,
  searchCollection,
} from '../../../src/core/knowledge/kbClient';
import { listAll } from '../../../src/core/knowledge/wireCommon';
import { parseCollection, parseDocument, parseSearch } from '../../../src/core/knowledge/kbWire';
import { workspacePathOfSource } from '../../../src/core/knowledge/indexPlan';
import { rejection, useKbGateway } from './helpers';

const { gw, client } = useKbGateway();

function md(sourceId: string, text: string) {
  return { sourceId, title: sourceId, contentType: 'text/markdown' as const, text, contentHash: `h:${text.length}` };
}

async function refused(fn: () => Promise<unknown>): Promise<GatewayError> {
  const e = await rejection(fn);
  assert.ok(isGatewayError(e), String(e));
  assert.equal(e.reason, 'permission');
  assert.equal(e.status, 403);
  return e;
}

describe('knowledge-base scopes', () => {
  test('[G-AUTH-7] collections: read to list and get, write to create, rename and delete; the 403 keeps scope and level', async () => {
    const full = client(LOCAL_KEYS.userFull);
    const readOnly = client(LOCAL_KEYS.userReadOnly);
    const chatOnly = client(LOCAL_KEYS.userChatOnly);
    const c = await createCollection(full, 'Scopes');
    await listCollections(readOnly);
    assert.equal((await getCollection(readOnly, c.id)).name, 'Scopes');

    const listErr = await refused(() => listCollections(chatOnly));
    assert.deepEqual({ scope: listErr.permission?.scope, required: listErr.permission?.required }, { scope: 'collections', required: 'read' });
    assert.deepEqual(kbMissingPermission('listCollections', listErr), { scope: 'collections', level: 'read' });

    for (const write of [() => createCollection(readOnly, 'x'), () => renameCollection(readOnly, c.id, 'y'), () => deleteCollection(readOnly, c.id)]) {
      const e = await refused(write);
      assert.deepEqual({ scope: e.permission?.scope, required: e.permission?.required, granted: e.permission?.granted }, { scope: 'collections', required: 'write', granted: 'read' });
    }
    // A refused write changed nothing.
    assert.equal((await getCollection(full, c.id)).name, 'Scopes');
  });

  test('[G-AUTH-7] documents: read to fetch one, write to index or delete', async () => {
    const full = client(LOCAL_KEYS.userFull);
    const readOnly = client(LOCAL_KEYS.userReadOnly);
    const c = await createCollection(full, 'Docs');
    const d = await indexDocument(full, c.id, md('a.md', 'hello'));
    assert.equal((await getDocument(readOnly, c.id, d.id)).text, 'hello');
    assert.equal((await listDocuments(readOnly, c.id)).items.length, 1);
    const e1 = await refused(() => indexDocument(readOnly, c.id, md('b.md', 'x')));
    assert.deepEqual([e1.permission?.scope, e1.permission?.required], ['documents', 'write']);
    const e2 = await refused(() => deleteDocument(readOnly, c.id, d.id));
    assert.deepEqual([e2.permission?.scope, e2.permission?.required], ['documents', 'write']);
    const e3 = await refused(() => getDocument(client(LOCAL_KEYS.userChatOnly), c.id, d.id));
    assert.deepEqual([e3.permission?.scope, e3.permission?.required], ['documents', 'read']);
  });

  test('[G-AUTH-7] [#39.13] KB search needs search read: a Read only key searches, a Restricted key (search none) is refused', async () => {
    const full = client(LOCAL_KEYS.userFull);
    const c = await createCollection(full, 'Search scope');
    await indexDocument(full, c.id, md('s.md', 'needle'));
    assert.equal((await searchCollection(client(LOCAL_KEYS.userReadOnly), c.id, 'needle')).length, 1);
    const e2 = await refused(() => searchCollection(client(LOCAL_KEYS.userChatOnly), c.id, 'needle'));
    assert.deepEqual([e2.permission?.scope, e2.permission?.required, e2.permission?.granted], ['search', 'read', 'none']);
  });

  test('[G-AUTH-6] [#39.13] write implies read: a Full access key (write on every scope, no read level) lists, fetches and searches', async () => {
    const writer = client(LOCAL_KEYS.userFull);
    const c = await createCollection(writer, 'Writer');
    const d = await indexDocument(writer, c.id, md('w.md', 'write implies read'));
    assert.ok((await listCollections(writer)).items.some((x) => x.id === c.id));
    assert.equal((await getDocument(writer, c.id, d.id)).sourceId, 'w.md');
    assert.equal((await listDocuments(writer, c.id)).items.length, 1);
    assert.equal((await searchCollection(writer, c.id, 'implies'))[0]?.sourceId, 'w.md');
  });
});

describe('knowledge-base operations', () => {
  test('collections list pages through all results (three pages of at most 100)', async () => {
    const full = client(LOCAL_KEYS.userFull);
    const before = (await listCollections(full)).items.length;
    for (let i = 0; i < 205; i++) await createCollection(full, `Paged ${i}`);
    gw().events.clear();
    const all = await listCollections(full);
    assert.equal(all.truncated, false);
    assert.equal(all.items.length, before + 205);
    for (let i = 0; i < 205; i++) assert.ok(all.items.some((c) => c.name === `Paged ${i}`), `Paged ${i}`);
    const pages = gw().events.list('request').filter((e) => e.path === '/v1/kb/collections' && e.method === 'GET');
    assert.equal(pages.length, Math.ceil((before + 205) / 100));
  });

  test('rename and delete; delete of a collection removes it from the list', async () => {
    const full = client(LOCAL_KEYS.userFull);
    const c = await createCollection(full, '  Old name ');
    assert.equal(c.name, 'Old name');
    assert.equal((await renameCollection(full, c.id, 'New name')).name, 'New name');
    await deleteCollection(full, c.id);
    assert.ok(!(await listCollections(full)).items.some((x) => x.id === c.id));
    const e = await rejection(() => getCollection(full, c.id));
    assert.ok(isGatewayError(e) && e.reason === 'not_found');
  });

  test('indexing a source again replaces its document (same id, new text, one document)', async () => {
    const full = client(LOCAL_KEYS.userFull);
    const c = await createCollection(full, 'Upsert');
    const first = await indexDocument(full, c.id, md('notes/a.md', 'old text'));
    const second = await indexDocument(full, c.id, md('notes/a.md', 'new text, longer'));
    assert.equal(second.id, first.id);
    assert.equal((await getDocument(full, c.id, first.id)).text, 'new text, longer');
    assert.equal((await listDocuments(full, c.id)).items.length, 1);
    assert.equal((await getCollection(full, c.id)).documentCount, 1);
  });

  test('search results carry the source, line, column and offset of the first match, ranked by term count', async () => {
    const full = client(LOCAL_KEYS.userFull);
    const c = await createCollection(full, 'Where');
    await indexDocument(full, c.id, md('docs/once.md', '# Title\n\nThe gateway appears once.\n'));
    await indexDocument(full, c.id, md('docs/guide.md', '# Guide\nintro line\n  Configure the Gateway here.\nMore gateway text.\n'));
    await indexDocument(full, c.id, md('docs/none.md', 'nothing relevant'));
    const hits = await searchCollection(full, c.id, 'gateway');
    assert.deepEqual(
      hits.map((h) => [h.sourceId, h.score, h.line, h.column, h.offset]),
      [
        ['docs/guide.md', 2, 3, 17, 35],
        ['docs/once.md', 1, 3, 5, 13],
      ],
    );
    assert.match(hits[0].snippet, /Configure the Gateway here\./);
    assert.equal(workspacePathOfSource(hits[0].sourceId), 'docs/guide.md');
  });

  test('indexDocuments reports progress and stops before the next file once cancelled', async () => {
    const full = client(LOCAL_KEYS.userFull);
    const c = await createCollection(full, 'Cancel');
    const ac = new AbortController();
    const seen: string[] = [];
    const run = await indexDocuments(full, c.id, [md('1.md', 'one'), md('2.md', 'two'), md('3.md', 'three')], {
      signal: ac.signal,
      onProgress: (p) => {
        seen.push(`${p.done}/${p.total} ${p.sourceId}`);
        if (p.done === 1) ac.abort();
      },
    });
    assert.deepEqual(seen, ['1/3 1.md']);
    assert.deepEqual(run.notSent, ['2.md', '3.md']);
    assert.equal(run.error?.reason, 'aborted');
    assert.deepEqual((await listDocuments(full, c.id)).items.map((d) => d.sourceId), ['1.md']);
  });

  test('an aborted signal stops a call with reason aborted', async () => {
    const ac = new AbortController();
    ac.abort();
    const e = await rejection(() => listCollections(client(LOCAL_KEYS.userFull), { signal: ac.signal }));
    assert.ok(isGatewayError(e) && e.reason === 'aborted');
  });
});

/** A client that answers GETs from a script, for what the local gateway never sends. */
function scripted(answer: (path: string, query: Record<string, string | undefined>) => unknown): IGatewayClient & { calls: number } {
  const c = {
    calls: 0,
    async getJson<T>(path: string, options?: CallOptions & { query?: Record<string, string | undefined> }): Promise<JsonResponse<T>> {
      c.calls++;
      return { data: answer(path, options?.query ?? {}) as T, status: 200, requestId: 'req-1' };
    },
    async postJson<T>(): Promise<JsonResponse<T>> {
      throw new Error('not used');
    },
  } as unknown as IGatewayClient & { calls: number };
  return c;
}

describe('defensive parsing and bounded paging', () => {
  test('a server that always has more stops at the page bound and says the list is truncated', async () => {
    const c = scripted((_p, q) => ({ data: [{ id: `c${q.cursor ?? 0}`, name: 'n' }], has_more: true, next_cursor: String(Number(q.cursor ?? 0) + 1) }));
    const r = await listAll(c, '/v1/kb/collections', 'collection', parseCollection, { maxPages: 5 });
    assert.equal(c.calls, 5);
    assert.equal(r.items.length, 5);
    assert.equal(r.truncated, true);
  });

  test('a repeated cursor ends the listing instead of looping', async () => {
    const c = scripted(() => ({ data: [{ id: 'c', name: 'n' }], has_more: true, next_cursor: 'same' }));
    const r = await listAll(c, '/v1/kb/collections', 'collection', parseCollection);
    assert.equal(c.calls, 2);
    assert.equal(r.truncated, true);
  });

  test('unknown fields are ignored; a wrong type is a protocol error without the server text', () => {
    assert.deepEqual(parseCollection({ id: 'c1', name: 'N', document_count: 3, extra: { deep: true } }, 'r'), { id: 'c1', name: 'N', documentCount: 3, createdAt: undefined });
    for (const bad of [null, [], { id: 1, name: 'x' }, { id: 'c', name: 'x', document_count: '3' }]) {
      const e = (() => {
        try {
          parseCollection(bad, 'r');
        } catch (err) {
          return err;
        }
        return undefined;
      })();
      assert.ok(isGatewayError(e) && e.reason === 'protocol', JSON.stringify(bad));
    }
    assert.throws(() => parseDocument({ id: 'd', source_id: 7 }, 'r'), (e: unknown) => isGatewayError(e) && e.reason === 'protocol');
    assert.throws(() => parseSearch({ data: [{ document_id: 'd', source_id: 's', snippet: 'x', line: 0, column: 1, offset: 0 }] }, 'r'), (e: unknown) => isGatewayError(e) && e.reason === 'protocol');
    assert.throws(() => parseSearch({ data: 'nope' }, 'r'), (e: unknown) => isGatewayError(e) && e.reason === 'protocol');
  });

  test('a page whose data is not a list is a protocol error', async () => {
    const e = await rejection(() => listCollections(scripted(() => ({ data: {} }))));
    assert.ok(isGatewayError(e) && e.reason === 'protocol');
  });
});
