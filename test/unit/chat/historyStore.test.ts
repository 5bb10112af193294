import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HistoryStore, nodeHistoryFs, type HistoryFs } from '../../../src/core/chat/historyStore';
import { newConversation, type Conversation } from '../../../src/core/chat/conversation';

async function withDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'chat-history-'));
  try {
    await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function conv(id: string, text: string, updatedAt = 1): Conversation {
  const c = newConversation(id, 'openai/gpt-test', 1);
  c.updatedAt = updatedAt;
  c.messages.push({ id: `${id}-m`, role: 'user', content: text, status: 'complete', createdAt: 1 });
  return c;
}

test('a saved conversation loads back identically and is listed newest first', async () => {
  await withDir(async (dir) => {
    const store = new HistoryStore(dir);
    await store.save(conv('a', 'first', 10));
    await store.save(conv('b', 'second', 20));
    assert.deepEqual(await store.load('a'), conv('a', 'first', 10));
    assert.deepEqual(
      (await store.list()).map((s) => s.id),
      ['b', 'a'],
    );
    // A fresh store over the same directory (a window reload) sees the same history.
    assert.deepEqual(await new HistoryStore(dir).load('b'), conv('b', 'second', 20));
  });
});

test('atomic write: a crash mid-write keeps the old file intact', async () => {
  await withDir(async (dir) => {
    await new HistoryStore(dir).save(conv('a', 'old text'));
    // A file system whose write dies half-way, as a crash or a full disk would.
    const crashing: HistoryFs = {
      ...nodeHistoryFs,
      async writeFileDurable(path, data) {
        await writeFile(path, data.slice(0, Math.floor(data.length / 2)));
        throw new Error('ENOSPC: simulated crash mid-write');
      },
    };
    const store = new HistoryStore(dir, crashing);
    await assert.rejects(store.save(conv('a', 'new text that never lands')), /simulated crash/);
    const raw = await readFile(join(dir, 'a.json'), 'utf8');
    assert.deepEqual(JSON.parse(raw), conv('a', 'old text'));
    assert.equal((await new HistoryStore(dir).load('a'))?.messages[0].content, 'old text');
  });
});

test('a half-written temp file left by a real crash is ignored by list and load', async () => {
  await withDir(async (dir) => {
    const store = new HistoryStore(dir);
    await store.save(conv('a', 'kept'));
    await writeFile(join(dir, 'a.json.deadbeef.tmp'), '{"version":1,"id":"a","ti');
    assert.deepEqual((await store.list()).map((s) => s.id), ['a']);
    assert.equal((await store.load('a'))?.messages[0].content, 'kept');
  });
});

test('a corrupt history file is skipped, not deleted', async () => {
  await withDir(async (dir) => {
    const store = new HistoryStore(dir);
    await store.save(conv('good', 'ok'));
    await writeFile(join(dir, 'bad.json'), 'not json');
    assert.deepEqual((await store.list()).map((s) => s.id), ['good']);
    assert.ok((await readdir(dir)).includes('bad.json'));
  });
});

test('saves of one conversation land in call order, even when an earlier write is slower', async () => {
  await withDir(async (dir) => {
    let first = true;
    const slowFirst: HistoryFs = {
      ...nodeHistoryFs,
      async writeFileDurable(path, data) {
        if (first) {
          first = false;
          await new Promise((r) => setTimeout(r, 30));
        }
        await nodeHistoryFs.writeFileDurable(path, data);
      },
    };
    const store = new HistoryStore(dir, slowFirst);
    await Promise.all([store.save(conv('a', 'one')), store.save(conv('a', 'two'))]);
    assert.equal((await store.load('a'))?.messages[0].content, 'two');
    assert.deepEqual((await readdir(dir)).filter((n) => n.endsWith('.tmp')), []);
  });
});

test('delete removes the conversation; ids that could escape the folder are refused', async () => {
  await withDir(async (dir) => {
    const store = new HistoryStore(dir);
    await store.save(conv('a', 'x'));
    await store.delete('a');
    assert.equal(await store.load('a'), undefined);
    assert.equal(await store.load('../etc/passwd'), undefined);
    assert.throws(() => void store.save({ ...conv('a', 'x'), id: '../evil' }), /Invalid conversation id/);
  });
});

test('history is private to the user: files 0600, a new directory 0700, an existing 0755 directory tightened', { skip: process.platform === 'win32' ? 'POSIX modes' : false }, async () => {
  await withDir(async (root) => {
    // Whatever the umask, the modes must be exact: a permissive umask shows that they are set, not inherited.
    const oldMask = process.umask(0o000);
    try {
      const fresh = join(root, 'fresh', 'chat');
      await new HistoryStore(fresh).save(conv('a', 'secret attachment text'));
      assert.equal((await stat(fresh)).mode & 0o777, 0o700);
      assert.equal((await stat(join(fresh, 'a.json'))).mode & 0o777, 0o600);

      const old = join(root, 'old');
      await mkdir(old, { mode: 0o755 });
      await chmod(old, 0o755);
      await new HistoryStore(old).save(conv('b', 'x'));
      assert.equal((await stat(old)).mode & 0o777, 0o700);
      assert.equal((await stat(join(old, 'b.json'))).mode & 0o777, 0o600);
    } finally {
      process.umask(oldMask);
    }
  });
});

test('the list comes from an index: saves and deletes update it without reading files; another window\'s files are picked up by refresh', async () => {
  await withDir(async (dir) => {
    const reads: string[] = [];
    const counting: HistoryFs = { ...nodeHistoryFs, readFile: (p) => (reads.push(p), nodeHistoryFs.readFile(p)) };
    await new HistoryStore(dir).save(conv('a', 'x', 10));
    const store = new HistoryStore(dir, counting);
    const changes: unknown[] = [];
    store.onDidChange((c) => changes.push(c));
    assert.deepEqual((await store.list()).map((s) => s.id), ['a']);
    assert.equal(reads.length, 1);
    await store.save({ ...conv('b', 'y', 20), title: 'B' });
    await store.delete('a');
    assert.deepEqual((await store.list()).map((s) => s.id), ['b']);
    assert.equal(reads.length, 1, 'no file read after the first scan');
    assert.deepEqual(changes, [
      { upserted: [{ id: 'b', title: 'B', updatedAt: 20 }], removed: [] },
      { upserted: [], removed: ['a'] },
    ]);

    // Another window writes c and renames b; a refresh reads those two files only.
    const other = new HistoryStore(dir);
    await other.save({ ...conv('c', 'z', 30), title: 'C' });
    await other.save({ ...conv('b', 'y', 40), title: 'Renamed elsewhere' });
    reads.length = 0;
    changes.length = 0;
    await store.refresh();
    assert.deepEqual(reads.map((p) => p.slice(dir.length + 1)).sort(), ['b.json', 'c.json']);
    assert.deepEqual((await store.list()).map((s) => [s.id, s.title]), [
      ['b', 'Renamed elsewhere'],
      ['c', 'C'],
    ]);
    assert.equal(changes.length, 1);
    // Nothing changed since: a refresh reads nothing and reports nothing.
    reads.length = 0;
    await store.refresh();
    assert.deepEqual(reads, []);
    assert.equal(changes.length, 1);
  });
});

test('a file-watcher event re-reads one file only when another window changed it', async () => {
  await withDir(async (dir) => {
    const reads: string[] = [];
    const counting: HistoryFs = { ...nodeHistoryFs, readFile: (p) => (reads.push(p), nodeHistoryFs.readFile(p)) };
    const store = new HistoryStore(dir, counting);
    await store.list();
    await store.save({ ...conv('a', 'x', 10), title: 'A' });
    await store.refreshFile('a'); // the event for our own write
    assert.deepEqual(reads, []);
    const changes: unknown[] = [];
    store.onDidChange((c) => changes.push(c));
    await new HistoryStore(dir).save({ ...conv('a', 'x', 11), title: 'A, renamed elsewhere with a longer title' });
    await store.refreshFile('a');
    assert.equal(reads.length, 1);
    assert.deepEqual(changes, [{ upserted: [{ id: 'a', title: 'A, renamed elsewhere with a longer title', updatedAt: 11 }], removed: [] }]);
    await new HistoryStore(dir).delete('a');
    await store.refreshFile('a');
    assert.deepEqual(await store.list(), []);
    assert.deepEqual(changes.at(-1), { upserted: [], removed: ['a'] });
  });
});

test('an agent-session conversation loads back with its binding and ratings; a file with a malformed binding or rating is skipped', async () => {
  await withDir(async (dir) => {
    const store = new HistoryStore(dir);
    const bound = conv('bound', 'hello agent');
    bound.agentSession = { agentId: 'agt_1', sessionId: 'sess_2', agentName: 'Helper' };
    bound.messages.push({ id: 'r', role: 'assistant', content: 'hi', status: 'complete', createdAt: 2, responseId: 'resp_3', feedback: 'up' });
    await store.save(bound);
    assert.deepEqual(await new HistoryStore(dir).load('bound'), bound);

    const raw = JSON.parse(JSON.stringify(bound)) as Record<string, unknown>;
    await writeFile(join(dir, 'badsession.json'), JSON.stringify({ ...raw, id: 'badsession', agentSession: { agentId: 'agt_1', sessionId: 7 } }));
    const messages = (raw.messages as Array<Record<string, unknown>>).map((m) => (m.id === 'r' ? { ...m, feedback: 'sideways' } : m));
    await writeFile(join(dir, 'badrating.json'), JSON.stringify({ ...raw, id: 'badrating', messages }));
    const fresh = new HistoryStore(dir);
    assert.equal(await fresh.load('badsession'), undefined);
    assert.equal(await fresh.load('badrating'), undefined);
    assert.deepEqual((await fresh.list()).map((s) => s.id), ['bound']);
  });
});
