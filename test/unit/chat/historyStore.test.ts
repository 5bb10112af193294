import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HistoryConflict, HistoryStore, LOCK_STALE_MS, nodeHistoryFs, type HistoryFs } from '../../../src/core/chat/historyStore';
import { mergeConversations } from '../../../src/core/chat/liveConversations';
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

test('[#27.1] save with expect writes only over the revision the change was made from; otherwise HistoryConflict carries the file', async () => {
  await withDir(async (dir) => {
    const one = new HistoryStore(dir);
    const two = new HistoryStore(dir);
    const rev0 = await one.save(conv('a', 'first'), { expect: null });
    assert.equal((await two.read('a'))?.rev, rev0, 'both windows see the same revision');
    const rev1 = await two.save(conv('a', 'window two'), { expect: rev0 });
    const stale = one.save(conv('a', 'window one, made from the first version'), { expect: rev0 });
    await assert.rejects(stale, (e: unknown) => e instanceof HistoryConflict && e.exists && e.current?.rev === rev1 && e.current.conv.messages[0].content === 'window two');
    assert.equal((await new HistoryStore(dir).load('a'))?.messages[0].content, 'window two', 'nothing was overwritten');
    await assert.rejects(one.save(conv('a', 'as new'), { expect: null }), HistoryConflict, 'a new conversation never replaces a file');
    assert.deepEqual((await readdir(dir)).sort(), ['a.json'], 'no lock or temp file is left');
  });
});

test('[#27.1] a lock left by a window that stopped mid-write is broken once stale; a fresh one makes the save wait for it', async () => {
  await withDir(async (dir) => {
    const store = new HistoryStore(dir);
    await store.save(conv('a', 'first'));
    const lock = join(dir, 'a.json.lock');
    await writeFile(lock, '');
    const old = (Date.now() - LOCK_STALE_MS - 60_000) / 1000;
    await utimes(lock, old, old);
    await store.save(conv('a', 'after a stale lock'));
    assert.equal((await store.load('a'))?.messages[0].content, 'after a stale lock');
    // A live lock: the save waits until it is released, then writes.
    await writeFile(lock, '');
    let done = false;
    const saving = store.save(conv('a', 'after the other window')).then(() => (done = true));
    await new Promise((r) => setImmediate(r));
    assert.equal(done, false, 'waits while the other window holds the lock');
    await rm(lock);
    await saving;
    assert.equal((await store.load('a'))?.messages[0].content, 'after the other window');
  });
});

test('[#27.1] merging another version: their appended turns are adopted, an unsent message goes after them, two replies to one point conflict', () => {
  const base = conv('a', 'question');
  const answer = (id: string, text: string) => ({ id, role: 'assistant' as const, content: text, status: 'complete' as const, createdAt: 2 });
  const ask = (id: string, text: string) => ({ id, role: 'user' as const, content: text, status: 'complete' as const, createdAt: 2 });
  const theirs = { ...base, messages: [...base.messages, answer('r1', 'their answer'), ask('u2', 'their next'), answer('r2', 'their second answer')] };
  // Ours only changed a setting: their turns are adopted, our setting kept.
  const setting = mergeConversations(base, { ...base, systemPrompt: 'be brief' }, theirs);
  assert.deepEqual(setting?.messages.map((m) => m.id), ['a-m', 'r1', 'u2', 'r2']);
  assert.equal(setting?.systemPrompt, 'be brief');
  // Ours appended a message not sent yet: it goes after their finished turns.
  const mine = { ...base, messages: [...base.messages, answer('r1', 'their answer'), ask('u3', 'my next')] };
  assert.deepEqual(mergeConversations(base, mine, theirs)?.messages.map((m) => m.id), ['a-m', 'r1', 'u2', 'r2', 'u3']);
  // Both answered the same question: a conflict (the caller saves a branch).
  assert.equal(mergeConversations(base, { ...base, messages: [...base.messages, answer('x', 'my answer')] }, theirs), undefined);
  // Ours regenerated (dropped a reply) while they appended: a conflict too.
  const withReply = { ...base, messages: [...base.messages, answer('r1', 'their answer')] };
  assert.equal(mergeConversations(withReply, base, theirs), undefined);
});
