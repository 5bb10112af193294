/**
 * The indexing planner over an in-memory workspace, and its round trip with the local gateway:
 * a changed file is re-indexed (replacing its document), an unchanged one is not sent, ignored,
 * oversize and non-text files are skipped with a reason, and files the user did not pick are never read.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LOCAL_KEYS } from '../../localGateway/keys';
import { contentHash, planIndexing, safeRelativePath, workspacePathOfSource, type DirEntry, type PlanReader } from '../../../src/core/knowledge/indexPlan';
import { createCollection, indexDocuments, listDocuments } from '../../../src/core/knowledge/kbClient';
import { useKbGateway } from './helpers';

/** A workspace of files (path -> content); folders are implied. Records every read. */
class MemoryWorkspace implements PlanReader {
  readonly reads: string[] = [];
  constructor(readonly files: Map<string, string | Uint8Array>) {}
  private bytes(path: string): Uint8Array | undefined {
    const v = this.files.get(path);
    return v === undefined ? undefined : typeof v === 'string' ? new TextEncoder().encode(v) : v;
  }
  private isFolder(path: string): boolean {
    return path === '' || [...this.files.keys()].some((f) => f.startsWith(`${path}/`));
  }
  async stat(path: string) {
    const b = this.bytes(path);
    if (b !== undefined) return { kind: 'file' as const, size: b.byteLength };
    return this.isFolder(path) ? { kind: 'folder' as const, size: 0 } : undefined;
  }
  async list(folder: string): Promise<DirEntry[]> {
    const prefix = folder === '' ? '' : `${folder}/`;
    const out = new Map<string, DirEntry>();
    for (const f of this.files.keys()) {
      if (!f.startsWith(prefix)) continue;
      const rest = f.slice(prefix.length);
      const slash = rest.indexOf('/');
      const name = slash === -1 ? rest : rest.slice(0, slash);
      out.set(name, { name, kind: slash === -1 ? 'file' : 'folder' });
    }
    return [...out.values()];
  }
  async read(path: string): Promise<Uint8Array> {
    this.reads.push(path);
    const b = this.bytes(path);
    if (b === undefined) throw new Error('ENOENT');
    return b;
  }
}

function workspace(files: Record<string, string | Uint8Array>): MemoryWorkspace {
  return new MemoryWorkspace(new Map(Object.entries(files)));
}

describe('indexing planner', () => {
  test('a changed file is planned as changed with its document id; an unchanged one is not sent', async () => {
    const ws = workspace({ 'docs/a.md': '# A v2', 'docs/b.md': '# B' });
    const plan = await planIndexing(['docs'], ws, {
      existing: [
        { documentId: 'doc_a', sourceId: 'docs/a.md', contentHash: contentHash(new TextEncoder().encode('# A v1')) },
        { documentId: 'doc_b', sourceId: 'docs/b.md', contentHash: contentHash(new TextEncoder().encode('# B')) },
      ],
    });
    assert.deepEqual(plan.send.map((d) => [d.path, d.status, d.documentId, d.text, d.contentType]), [['docs/a.md', 'changed', 'doc_a', '# A v2', 'text/markdown']]);
    assert.deepEqual(plan.unchanged, [{ path: 'docs/b.md', sourceId: 'docs/b.md', documentId: 'doc_b' }]);
  });

  test('.gitignore files in the root and in sub-folders apply; an ignored folder is not entered', async () => {
    const ws = workspace({
      '.gitignore': '# build output\ndist/\n*.log.md\n!keep.log.md\n',
      'docs/.gitignore': '/drafts\nsecret-*.md\n',
      'docs/guide.md': 'guide',
      'docs/secret-plan.md': 'no',
      'docs/drafts/wip.md': 'no',
      'docs/keep.log.md': 'kept by negation',
      'docs/run.log.md': 'no',
      'dist/out.md': 'no',
      'notes/drafts/ok.md': 'anchored pattern only applies below docs/',
    });
    const plan = await planIndexing([''], ws);
    assert.deepEqual(plan.send.map((d) => d.path).sort(), ['docs/guide.md', 'docs/keep.log.md', 'notes/drafts/ok.md']);
    const ignored = plan.skipped.filter((s) => s.reason === 'ignored').map((s) => s.path).sort();
    assert.deepEqual(ignored, ['dist', 'docs/drafts', 'docs/run.log.md', 'docs/secret-plan.md']);
    assert.ok(!ws.reads.some((r) => r.startsWith('dist/') || r.startsWith('docs/drafts/')), ws.reads.join(','));
  });

  test('a picked file that .gitignore ignores is skipped, also when only its folder is ignored', async () => {
    const ws = workspace({ '.gitignore': 'build/\n', 'build/readme.md': 'x', 'a.md': 'a' });
    const plan = await planIndexing(['build/readme.md', 'a.md'], ws);
    assert.deepEqual(plan.skipped, [{ path: 'build/readme.md', reason: 'ignored' }]);
    assert.deepEqual(plan.send.map((d) => d.path), ['a.md']);
  });

  test('files over the size limit, of other types or not UTF-8 text are skipped with their reason', async () => {
    const ws = workspace({
      'big.md': 'x'.repeat(101),
      'fits.txt': 'y'.repeat(100),
      'page.html': '<p>hi</p>',
      'code.ts': 'const x = 1;',
      'binary.txt': new Uint8Array([0xc3, 0x28, 0xff]),
      'nul.md': 'a\u0000b',
    });
    const plan = await planIndexing([''], ws, { maxFileBytes: 100 });
    assert.deepEqual(plan.send.map((d) => [d.path, d.contentType]).sort(), [
      ['fits.txt', 'text/plain'],
      ['page.html', 'text/html'],
    ]);
    assert.deepEqual(
      plan.skipped.map((s) => [s.path, s.reason]).sort(),
      [
        ['big.md', 'too_large'],
        ['binary.txt', 'not_text'],
        ['code.ts', 'type'],
        ['nul.md', 'not_text'],
      ],
    );
    assert.ok(!ws.reads.includes('big.md'), 'an oversize file is judged by its size, not read');
  });

  test('files the user did not pick are never read or planned', async () => {
    const ws = workspace({ 'docs/picked.md': 'p', 'docs/sibling.md': 's', 'other/x.md': 'x', 'docs/sub/deep.md': 'd' });
    const plan = await planIndexing(['docs/picked.md', 'docs/sub'], ws);
    assert.deepEqual(plan.send.map((d) => d.path).sort(), ['docs/picked.md', 'docs/sub/deep.md']);
    const contentReads = ws.reads.filter((r) => !r.endsWith('.gitignore'));
    assert.deepEqual(contentReads.sort(), ['docs/picked.md', 'docs/sub/deep.md']);
  });

  test('picked paths that would leave the workspace are refused; .git is never entered', async () => {
    const ws = workspace({ '.git/info.md': 'no', 'a.md': 'a' });
    const plan = await planIndexing(['../outside.md', '/etc/passwd', 'C:\\x.md', 'a/../../b.md', ''], ws);
    assert.deepEqual(plan.send.map((d) => d.path), ['a.md']);
    assert.deepEqual(plan.skipped.filter((s) => s.reason === 'invalid_path').length, 4);
    assert.ok(!ws.reads.includes('.git/info.md'));
  });

  test('the number of files per run is bounded', async () => {
    const ws = workspace({ 'a.md': 'a', 'b.md': 'b', 'c.md': 'c' });
    const plan = await planIndexing([''], ws, { maxFiles: 2 });
    assert.equal(plan.send.length, 2);
    assert.deepEqual(plan.skipped, [{ path: 'c.md', reason: 'limit' }]);
  });

  test('the walk of a picked folder is bounded in entries looked at', async () => {
    const ws = workspace({ 'big/a.md': 'a', 'big/b.md': 'b', 'big/c.md': 'c', 'big/d.md': 'd' });
    const plan = await planIndexing(['big'], ws, { maxEntries: 3 });
    assert.deepEqual(plan.send.map((d) => d.path), ['big/a.md', 'big/b.md']);
    assert.deepEqual(plan.skipped, [{ path: 'big', reason: 'limit' }]);
  });

  test('a cancelled plan stops with an AbortError', async () => {
    const ac = new AbortController();
    ac.abort();
    await assert.rejects(() => planIndexing([''], workspace({ 'a.md': 'a' }), { signal: ac.signal }), (e: Error) => e.name === 'AbortError');
  });

  test('source ids map back to workspace paths only when they stay inside it', () => {
    assert.equal(workspacePathOfSource('docs/guide.md'), 'docs/guide.md');
    for (const bad of ['../x.md', '/abs.md', 'C:/x.md', 'https://example.com/a', 'a//b.md', 'a/./b.md', 'a\\b.md', '', 'a/\u0000.md']) {
      assert.equal(safeRelativePath(bad), undefined, JSON.stringify(bad));
    }
  });
});

describe('index, change, re-index against the local gateway', () => {
  const { client, gw } = useKbGateway();

  test('re-indexing a folder sends only the changed file, which replaces its document', async () => {
    const full = client(LOCAL_KEYS.userFull);
    const c = await createCollection(full, 'Round trip');
    const ws = workspace({ '.gitignore': 'private.md\n', 'a.md': 'alpha', 'b.md': 'beta', 'private.md': 'secret' });
    const first = await planIndexing([''], ws);
    assert.equal((await indexDocuments(full, c.id, first.send)).error, undefined);

    ws.files.set('a.md', 'alpha, edited');
    const existing = (await listDocuments(full, c.id)).items.map((d) => ({ documentId: d.id, sourceId: d.sourceId, contentHash: d.contentHash }));
    const second = await planIndexing([''], ws, { existing });
    assert.deepEqual(second.send.map((d) => [d.path, d.status]), [['a.md', 'changed']]);
    gw().events.clear();
    await indexDocuments(full, c.id, second.send);
    const indexed = gw().events.list('kb-index');
    assert.deepEqual(indexed.map((e) => [e.source_id, e.replaced]), [['a.md', true]]);
    const docs = (await listDocuments(full, c.id)).items;
    assert.deepEqual(docs.map((d) => d.sourceId).sort(), ['a.md', 'b.md']);
  });
});
