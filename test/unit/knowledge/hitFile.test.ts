/**
 * Issue 27, item 11: a knowledge-base search hit that names a workspace file opens that file only when
 * its real path (after symlinks, a symlinked folder included) is inside a workspace folder. Real
 * symlinks in a temporary folder, through the core's workspaceFileOfSource as the Search command
 * (src/knowledge/knowledgeCommands.ts) calls it.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { workspaceFileOfSource } from '../../../src/core/knowledge/hitFile';

describe('[#27.11] a search hit opens a workspace file only when its real path is inside the workspace', () => {
  let tmp: string;
  let ws: string;
  let outside: string;

  before(async () => {
    tmp = await realpath(await mkdtemp(join(tmpdir(), 'kb-hit-')));
    ws = join(tmp, 'workspace');
    outside = join(tmp, 'outside');
    await mkdir(join(ws, 'docs'), { recursive: true });
    await mkdir(outside);
    await writeFile(join(ws, 'docs', 'post.md'), '# inside\n');
    await writeFile(join(outside, 'secret.txt'), 'not yours\n');
    await symlink(join(outside, 'secret.txt'), join(ws, 'docs', 'notes.md')); // a symlinked file pointing outside
    await symlink(outside, join(ws, 'shared')); // a symlinked folder pointing outside
    await symlink(join(ws, 'docs', 'post.md'), join(ws, 'alias.md')); // a symlink that stays inside
    await symlink(join(ws, 'docs'), join(ws, 'docs-alias')); // a folder symlink that stays inside
  });
  after(async () => {
    await rm(tmp, { recursive: true, force: true });
  });

  test('a symlinked file pointing outside is refused, with a message naming the path', async () => {
    const got = await workspaceFileOfSource('docs/notes.md', [ws]);
    assert.equal(got.kind, 'refused', JSON.stringify(got));
    assert.match(got.kind === 'refused' ? got.message : '', /^docs\/notes\.md was not opened: .*outside the workspace/);
  });

  test('a file inside a symlinked folder pointing outside is refused', async () => {
    const got = await workspaceFileOfSource('shared/secret.txt', [ws]);
    assert.equal(got.kind, 'refused', JSON.stringify(got));
  });

  test('a regular file, and symlinks that stay inside, open at their real path', async () => {
    const real = join(ws, 'docs', 'post.md');
    assert.deepEqual(await workspaceFileOfSource('docs/post.md', [ws]), { kind: 'file', realPath: real });
    assert.deepEqual(await workspaceFileOfSource('alias.md', [ws]), { kind: 'file', realPath: real });
    assert.deepEqual(await workspaceFileOfSource('docs-alias/post.md', [ws]), { kind: 'file', realPath: real });
  });

  test('a missing file, a folder, an unsafe source and no workspace give the collection\'s copy', async () => {
    for (const source of ['docs/missing.md', 'docs', '../outside/secret.txt', '/etc/passwd', 'https://example.com/a.md']) {
      assert.deepEqual(await workspaceFileOfSource(source, [ws]), { kind: 'none' }, source);
    }
    assert.deepEqual(await workspaceFileOfSource('docs/post.md', []), { kind: 'none' });
  });

  test('the file is looked for in every workspace folder; an outside one in the first does not hide an inside one in the second', async () => {
    const second = join(tmp, 'second');
    await mkdir(join(second, 'shared'), { recursive: true });
    await writeFile(join(second, 'shared', 'secret.txt'), 'inside the second folder\n');
    assert.deepEqual(await workspaceFileOfSource('shared/secret.txt', [ws, second]), { kind: 'file', realPath: join(second, 'shared', 'secret.txt') });
  });
});
