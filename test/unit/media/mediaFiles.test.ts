/**
 * Where the media commands may save (checkSaveTarget: realpath inside the workspace folders) and how
 * (writeFileAtomically: a temporary name, then a rename; nothing left behind on failure), plus the
 * default file names.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, readdir, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkSaveTarget, dataUri, extensionForMediaType, fileNameFromPrompt, SaveTargetError, writeFileAtomically } from '../../../src/media/mediaFiles';

async function sandbox(): Promise<{ root: string; outside: string; done: () => Promise<void> }> {
  const base = await realpath(await mkdtemp(join(tmpdir(), 'media-save-')));
  const root = join(base, 'site');
  const outside = join(base, 'elsewhere');
  await mkdir(join(root, 'posts'), { recursive: true });
  await mkdir(outside);
  return { root, outside, done: () => rm(base, { recursive: true, force: true }) };
}

test('a path in a folder of the workspace is accepted, the workspace root itself included', async () => {
  const s = await sandbox();
  try {
    assert.equal(await checkSaveTarget(join(s.root, 'posts', 'a.png'), [s.root]), join(s.root, 'posts', 'a.png'));
    assert.equal(await checkSaveTarget(join(s.root, 'b.png'), [s.root]), join(s.root, 'b.png'));
  } finally {
    await s.done();
  }
});

test('a path outside the workspace folders is refused, naming the path', async () => {
  const s = await sandbox();
  try {
    const target = join(s.outside, 'a.png');
    await assert.rejects(checkSaveTarget(target, [s.root]), (e: unknown) => e instanceof SaveTargetError && e.message.includes(target) && /outside the workspace/.test(e.message));
    await assert.rejects(checkSaveTarget(join(s.root, '..', 'elsewhere', 'a.png'), [s.root]), SaveTargetError);
  } finally {
    await s.done();
  }
});

test('a folder inside the workspace that is a symlink to outside is refused (realpath check)', async () => {
  const s = await sandbox();
  try {
    await symlink(s.outside, join(s.root, 'escape'));
    await assert.rejects(checkSaveTarget(join(s.root, 'escape', 'a.png'), [s.root]), (e: unknown) => e instanceof SaveTargetError && e.message.includes(join(s.outside, 'a.png')));
  } finally {
    await s.done();
  }
});

test('a target name that is a symlink is not overwritten, even one pointing inside', async () => {
  const s = await sandbox();
  try {
    await writeFile(join(s.outside, 'secret.txt'), 'keep');
    await symlink(join(s.outside, 'secret.txt'), join(s.root, 'img.png'));
    await assert.rejects(checkSaveTarget(join(s.root, 'img.png'), [s.root]), /symbolic link/);
    assert.equal(await readFile(join(s.outside, 'secret.txt'), 'utf8'), 'keep');
  } finally {
    await s.done();
  }
});

test('no workspace folder: refused with a message saying to open one; a missing folder is refused', async () => {
  const s = await sandbox();
  try {
    await assert.rejects(checkSaveTarget(join(s.root, 'a.png'), []), /Open a folder/);
    await assert.rejects(checkSaveTarget(join(s.root, 'nope', 'a.png'), [s.root]), /does not exist/);
  } finally {
    await s.done();
  }
});

test('writeFileAtomically writes the bytes and leaves no temporary file', async () => {
  const s = await sandbox();
  try {
    const target = join(s.root, 'a.png');
    await writeFile(target, 'old');
    await writeFileAtomically(target, new Uint8Array([1, 2, 3]));
    assert.deepEqual([...(await readFile(target))], [1, 2, 3]);
    assert.deepEqual(await readdir(s.root), ['a.png', 'posts']);
  } finally {
    await s.done();
  }
});

test('writeFileAtomically: when the rename fails, the temporary file is deleted and the old file kept', async () => {
  const s = await sandbox();
  try {
    // A directory at the target name makes rename fail after the temporary file was written.
    await mkdir(join(s.root, 'posts', 'x.png'));
    await writeFile(join(s.root, 'posts', 'x.png', 'inner'), 'keep');
    await assert.rejects(writeFileAtomically(join(s.root, 'posts', 'x.png'), new Uint8Array([9])));
    assert.deepEqual(await readdir(join(s.root, 'posts')), ['x.png']);
    assert.equal(await readFile(join(s.root, 'posts', 'x.png', 'inner'), 'utf8'), 'keep');
  } finally {
    await s.done();
  }
});

test('default names: prompt words, ASCII, at most 48 characters before the extension', () => {
  assert.equal(fileNameFromPrompt('A red fox, jumping over the lazy dog!', 'image/png'), 'a-red-fox-jumping-over-the-lazy-dog.png');
  assert.equal(fileNameFromPrompt('Café crème', 'image/jpeg'), 'cafe-creme.jpg');
  assert.equal(fileNameFromPrompt('../../etc/passwd', 'image/webp'), 'etc-passwd.webp');
  assert.equal(fileNameFromPrompt('日本', 'image/gif'), 'generated-image.gif');
  const long = fileNameFromPrompt('word '.repeat(40), 'image/png');
  assert.ok(long.length <= 48 + '.png'.length, long);
  assert.equal(extensionForMediaType('audio/mpeg'), 'mp3');
  assert.equal(extensionForMediaType('audio/mp4'), 'm4a');
  assert.equal(extensionForMediaType('text/html'), 'bin');
});

test('dataUri encodes exactly the bytes given, of a subarray too', () => {
  const all = new Uint8Array([0, 137, 80, 78, 71, 255]);
  assert.equal(dataUri('image/png', all.subarray(1, 5)), 'data:image/png;base64,iVBORw==');
});
