// Property test (fast-check) for issue 27 item 1 across windows: two windows (each its own
// HistoryStore and LiveConversations, as two extension hosts have) over one history folder send,
// reply, re-read and reopen one conversation in random orders, some of it at the same time. Whatever
// the order, no turn either window saved is lost: every one is in the conversation or in a named
// branch of it, in the order it was saved after its turn's user message.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { HistoryStore, nodeHistoryFs } from '../../../src/core/chat/historyStore';
import { LiveConversations, type LiveMember } from '../../../src/core/chat/liveConversations';
import { newConversation, type Conversation, type StoredMessage } from '../../../src/core/chat/conversation';

const RUNS = 80;

type Op =
  /** A user message saved (the controller's save before send). */
  | { kind: 'send'; w: 0 | 1 }
  /** A reply starts from the conversation as the window shows it now... */
  | { kind: 'begin'; w: 0 | 1 }
  /** ...and is saved later, after whatever happened meanwhile (the reply's end). */
  | { kind: 'finish'; w: 0 | 1 }
  /** A settings change (no message). */
  | { kind: 'setting'; w: 0 | 1 }
  /** The file watcher saw the other window's write. */
  | { kind: 'watch'; w: 0 | 1 }
  /** The window opens the conversation it shows again (history pick). */
  | { kind: 'reopen'; w: 0 | 1 };

const op: fc.Arbitrary<Op> = fc.record({
  kind: fc.constantFrom('send', 'send', 'begin', 'finish', 'finish', 'setting', 'watch', 'reopen'),
  w: fc.constantFrom(0 as const, 1 as const),
}) as fc.Arbitrary<Op>;
/** Each group runs at the same time (Promise.all); groups run one after another. */
const schedule = fc.array(fc.array(op, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 10 });

interface Window {
  store: HistoryStore;
  live: LiveConversations;
  member: LiveMember;
  conv: Conversation;
  /** A reply under way (streaming into the live conversation, not saved yet). */
  reply?: StoredMessage;
  /** The conversation the reply was added to, as it was then. */
  replyConv?: Conversation;
}

let seq = 0;
const msg = (role: 'user' | 'assistant', w: number): StoredMessage => ({ id: `w${w}m${++seq}`, role, content: `${role} of window ${w} #${seq}`, status: 'complete', createdAt: seq });

async function window(dir: string, id: string | undefined): Promise<Window> {
  const store = new HistoryStore(dir, nodeHistoryFs);
  const live = new LiveConversations(store, { newId: () => `b${++seq}` });
  const win = {} as Window;
  win.store = store;
  win.live = live;
  win.member = { adopt: (c) => void (win.conv = c), post: () => {}, answerApproval: () => false };
  const start = id ? await live.open(id) : newConversation('conv', 'm', 0);
  assert.ok(start);
  win.conv = live.show(win.member, start);
  return win;
}

/** What the controller does: save a change made from `from`, then show what was saved. */
async function change(win: Window, from: Conversation, next: Conversation, saved: Set<string>): Promise<void> {
  const result = await win.live.save(next, from, win.member);
  win.conv = win.live.show(win.member, result);
  for (const m of next.messages) saved.add(m.id);
}

async function run(win: Window, o: Op, w: number, saved: Set<string>): Promise<void> {
  const from = win.conv;
  switch (o.kind) {
    case 'send':
      // One request at a time per conversation in a window (the controller's canSend claims it).
      if (!win.live.claim(win.member)) return;
      try {
        return await change(win, from, { ...from, messages: [...from.messages, msg('user', w)] }, saved);
      } finally {
        win.live.release(win.member);
      }
    case 'begin': {
      // As runRequest: the reply joins the live conversation unsaved and streams (another window's
      // save is not adopted meanwhile); it is saved when it ends.
      if (!win.live.claim(win.member)) return;
      const reply: StoredMessage = { ...msg('assistant', w), status: 'streaming' };
      win.reply = reply;
      win.live.setStream(win.member, { requestId: reply.id, abort: new AbortController(), message: reply, pending: '' });
      win.conv = win.live.show(win.member, { ...from, messages: [...from.messages, reply] });
      win.replyConv = win.conv;
      return;
    }
    case 'finish': {
      const reply = win.reply;
      if (!reply) return;
      win.reply = undefined;
      reply.status = 'complete';
      win.live.setStream(win.member, undefined);
      // As finishReply: the live version when it holds the reply (a setting, a merge or a branch may
      // have replaced it), else the conversation as it was when the reply started.
      const toSave = win.conv.messages.includes(reply) ? win.conv : win.replyConv!;
      return change(win, toSave, toSave, saved);
    }
    case 'setting':
      return change(win, from, { ...from, systemPrompt: `prompt ${++seq}` }, saved);
    case 'watch':
      await win.store.refreshFile(win.conv.id);
      await win.store.list();
      return;
    case 'reopen': {
      const c = await win.live.open(win.conv.id);
      if (c) win.conv = win.live.show(win.member, c);
      return;
    }
  }
}

test('[#27.1] two windows saving one conversation in any order lose no turn: each is in the conversation or in a named branch', async () => {
  await fc.assert(
    fc.asyncProperty(schedule, async (groups) => {
      const dir = await mkdtemp(join(tmpdir(), 'chat-two-windows-'));
      try {
        const saved = new Set<string>();
        // Window 0 starts the conversation; window 1 opens it from disk (the sidebar's, in another window).
        const w0 = await window(dir, undefined);
        await change(w0, w0.conv, { ...w0.conv, messages: [msg('user', 0)] }, saved);
        const w1 = await window(dir, 'conv');
        const wins = [w0, w1];
        for (const group of groups) await Promise.all(group.map((o) => run(wins[o.w], o, o.w, saved)));
        for (const [w, win] of wins.entries()) await run(win, { kind: 'finish', w: w as 0 | 1 }, w, saved);

        const files = (await readdir(dir)).filter((n) => n.endsWith('.json'));
        assert.deepEqual((await readdir(dir)).filter((n) => n.endsWith('.lock') || n.endsWith('.tmp')), [], 'no lock or temp file is left behind');
        const convs = await Promise.all(files.map(async (n) => JSON.parse(await readFile(join(dir, n), 'utf8')) as Conversation));
        assert.ok(convs.some((c) => c.id === 'conv'), 'the conversation is still there');
        for (const c of convs) if (c.id !== 'conv') assert.match(c.title, /\(branch\)$/, 'every other file is a named branch');
        const onDisk = new Set(convs.flatMap((c) => c.messages.map((m) => m.id)));
        const lost = [...saved].filter((id) => !onDisk.has(id));
        assert.deepEqual(lost, [], `turns lost: ${lost.join(', ')}`);
        // What each window shows is on disk as it shows it (nothing only in memory).
        for (const w of wins) {
          const file = convs.find((c) => c.id === w.conv.id);
          assert.ok(file, `window shows ${w.conv.id}, which is on disk`);
          for (const m of w.conv.messages) assert.ok(onDisk.has(m.id));
        }
        for (const w of wins) w.live.dispose();
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    }),
    { numRuns: RUNS },
  );
});
