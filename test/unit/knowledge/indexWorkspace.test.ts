/**
 * Issue 27, item 11 (the indexing side): "Index into Collection…" reads a workspace file for upload only
 * when its real path (after every symlink, a symlinked folder on the way included) is inside a
 * workspace folder. Real symlinks in a temporary folder, planned with the core's checked reader as
 * the command (src/knowledge/knowledgeCommands.ts) plans a local folder; refused files are in the plan with their reason and nothing of them
 * is in what is sent.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, realpath, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { planIndexing, SKIP_REASON_TEXT } from '../../../src/core/knowledge/indexPlan';
import { workspacePlanReader } from '../../../src/core/knowledge/workspaceReader';
import { indexSummary } from '../../../src/knowledge/knowledgeText';

const SECRET = 'not yours';

describe('[#27.11] indexing reads a file only when its real path is inside the workspace', () => {
  let tmp: string;
  let ws: string;

  before(async () => {
    tmp = await realpath(await mkdtemp(join(tmpdir(), 'kb-index-')));
    ws = join(tmp, 'workspace');
    const outside = join(tmp, 'outside');
    await mkdir(join(ws, 'docs'), { recursive: true });
    await mkdir(join(outside, 'deeper'), { recursive: true });
    await writeFile(join(ws, 'docs', 'post.md'), '# inside\n');
    await writeFile(join(outside, 'secret.md'), `${SECRET}\n`);
    await writeFile(join(outside, 'deeper', 'more.md'), `${SECRET} either\n`);
    await symlink(outside, join(ws, 'shared')); // a symlinked folder pointing outside
    await symlink(join(outside, 'secret.md'), join(ws, 'docs', 'notes.md')); // a symlinked file pointing outside
    await symlink(join(ws, 'docs'), join(ws, 'docs-alias')); // a symlinked folder that stays inside
  });
  after(async () => {
    await rm(tmp, { recursive: true, force: true });
  });

  const plan = (picked: string[]) => planIndexing(picked, workspacePlanReader(ws, [ws]), { existing: [] });
  const sentText = (p: Awaited<ReturnType<typeof plan>>) => p.send.map((d) => d.text).join('\n');

  test('a file picked in a symlinked folder pointing outside is refused with its reason, and nothing of it is sent', async () => {
    const p = await plan(['shared/secret.md', 'shared/deeper/more.md']);
    assert.deepEqual(p.send, []);
    assert.deepEqual(p.skipped, [
      { path: 'shared/secret.md', reason: 'outside_workspace' },
      { path: 'shared/deeper/more.md', reason: 'outside_workspace' },
    ]);
  });

  test('a folder picked inside a symlinked folder pointing outside is refused, not walked', async () => {
    const p = await plan(['shared/deeper']);
    assert.deepEqual(p.send, []);
    assert.deepEqual(p.skipped, [{ path: 'shared/deeper', reason: 'outside_workspace' }]);
  });

  test('a symlinked file pointing outside is not read, picked or found by the folder walk', async () => {
    const picked = await plan(['docs/notes.md']);
    assert.deepEqual(picked.send, []);
    assert.deepEqual(picked.skipped.map((s) => s.path), ['docs/notes.md']);
    const walked = await plan(['']);
    assert.doesNotMatch(sentText(walked), new RegExp(SECRET));
    assert.deepEqual(walked.send.map((d) => d.path), ['docs/post.md']);
    assert.ok(walked.skipped.some((s) => s.path === 'docs/notes.md'));
    assert.ok(walked.skipped.some((s) => s.path === 'shared'));
  });

  test('a file reached through a symlinked folder that stays inside is read from its real path', async () => {
    const p = await plan(['docs-alias/post.md']);
    assert.deepEqual(p.skipped, []);
    assert.deepEqual(p.send.map((d) => [d.path, d.text]), [['docs-alias/post.md', '# inside\n']]);
  });

  test('a folder swapped for a symlink to outside between the check and the read is refused at the read', async () => {
    await mkdir(join(ws, 'swap'));
    await writeFile(join(ws, 'swap', 'secret.md'), '# was inside\n');
    const reader = workspacePlanReader(ws, [ws]);
    assert.deepEqual(await reader.stat('swap/secret.md'), { kind: 'file', size: 13 });
    await rename(join(ws, 'swap'), join(ws, 'swapped'));
    await symlink(join(tmp, 'outside'), join(ws, 'swap'));
    await assert.rejects(reader.read('swap/secret.md'), { name: 'WorkspaceFileError', kind: 'outside_workspace' });
  });

  test('the summary names the refused files', async () => {
    const p = await plan(['shared/secret.md', 'docs/post.md']);
    const text = indexSummary('Docs', p, { sent: 1, notSent: 0, cancelled: false, failed: false }, (r) => SKIP_REASON_TEXT[r]);
    assert.match(text, /Skipped 1 reached through a symbolic link to outside the workspace \(not read\)\. Not read: shared\/secret\.md\./);
  });
});
