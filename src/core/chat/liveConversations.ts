/**
 * One conversation shown in several places is one live conversation (issue 27 item 1).
 *
 * In one window: every chat view (sidebar view, editor tabs) showing a conversation id is a member of
 * one entry, which holds the one live Conversation object. A change any member makes (its `conv`
 * assignment) reaches the others (`adopt`), which post their state; a reply's stream messages go to
 * every member (`poster`); while one member streams (or prepares a send: `claim`) the others show it
 * as busy and cannot start a second request. Drafts and attachments stay per view (the controller's).
 *
 * Across windows (extension hosts sharing the history folder): every save is a compare-and-swap on the
 * revision the change was made from (HistoryStore `save(conv, { expect })`). On a conflict the disk's
 * version is merged three-way with ours (`mergeConversations`): turns the other window only appended
 * are adopted, an unsent user message is put after them; anything else is saved as a new conversation
 * "<title> (branch)", the views here move to it and are told, and the other window's version stays
 * under the original id. When another window saves an open conversation that has no unsaved change
 * here (no stream, no save under way), the open views take the new version at once.
 *
 * vscode-free; the controller (chatController.ts) is the only user.
 */
import { randomUUID } from 'node:crypto';
import { DisposableStore, type IDisposable } from '../disposables';
import type { Logger } from '../log';
import { nullLogger } from '../log';
import type { HostToWebview } from '../../protocol/chatProtocol';
import type { Conversation, StoredMessage } from './conversation';
import { restoreInterruptedRegenerate } from './replyVersions';
import { HistoryConflict, type HistoryStore } from './historyStore';

/** A reply being streamed into a conversation (the controller's request). */
export interface LiveStream {
  requestId: string;
  abort: AbortController;
  message: StoredMessage;
  /** Text received but not yet posted (coalescing); the tail of message.content. */
  pending: string;
}

/** One place that shows a conversation (a chat controller). */
export interface LiveMember {
  /**
   * The live conversation changed: another view's change, another window's save, a merge or a branch.
   * `self`: this member's own save caused it (it posts its state itself). `notice`: tell the user.
   */
  adopt(conv: Conversation, change: { self: boolean; notice?: string }): void;
  /** Posts to this member's webview. */
  post(message: HostToWebview): void;
  /** Approve/Deny of a tool call waiting in this member's stream; false when it has none with that id. */
  answerApproval(callId: string, approve: boolean): boolean;
}

interface Entry {
  id: string;
  conv: Conversation;
  members: Set<LiveMember>;
  /** The member whose request runs (or is being prepared: no `act` yet) on this conversation. */
  stream?: { owner: LiveMember; act?: LiveStream };
  /** Saves under way: another window's version is not adopted meanwhile (the save merges it). */
  saving: number;
}

/** What a conversation object was made from: the version on disk (a copy) and its revision (null: none). */
interface Ancestry {
  base: Conversation;
  rev: string | null;
}

const MAX_SAVE_ATTEMPTS = 5;

export class LiveConversations implements IDisposable {
  private readonly entries = new Map<string, Entry>();
  private readonly memberEntry = new Map<LiveMember, Entry>();
  /** For each conversation object seen: the disk version it derives from. */
  private readonly ancestry = new WeakMap<Conversation, Ancestry>();
  private readonly bag = new DisposableStore();
  private readonly newId: () => string;
  private readonly now: () => number;
  private readonly log: Logger;

  constructor(
    private readonly store: HistoryStore,
    opts: { newId?: () => string; now?: () => number; log?: Logger } = {},
  ) {
    this.newId = opts.newId ?? (() => randomUUID().replace(/-/g, '').slice(0, 20));
    this.now = opts.now ?? Date.now;
    this.log = opts.log ?? nullLogger;
    this.bag.add(
      store.onDidChange((c) => {
        for (const s of c.upserted) void this.checkDisk(s.id);
      }),
    );
  }

  /**
   * The conversation to show for `id`: the live one when a view here shows it, else the one on disk
   * (remembered with its revision). Undefined when it is neither.
   */
  async open(id: string): Promise<Conversation | undefined> {
    const live = this.entries.get(id);
    if (live) {
      // Shown here already: brought up to date with the disk first when nothing here is unsaved.
      await this.checkDisk(id);
      return (this.entries.get(id) ?? live).conv;
    }
    const read = await this.store.read(id);
    if (!read) return undefined;
    // A view may have opened it while the file was read: that one is live.
    const meanwhile = this.entries.get(id);
    if (meanwhile) return meanwhile.conv;
    this.ancestry.set(read.conv, { base: snapshot(read.conv), rev: read.rev });
    // A Regenerate the window did not finish: its replaced reply is the reply again (saved with the next change).
    const conv = restoreInterruptedRegenerate(read.conv);
    if (conv !== read.conv) this.ancestry.set(conv, { base: snapshot(read.conv), rev: read.rev });
    return conv;
  }

  /**
   * `member` now shows `conv` (the controller's every assignment of its conversation). The same id as
   * before: `conv` is the new live version and the other members adopt it. Another id: the member
   * leaves its entry and joins that id's, and gets the live object when another view shows it.
   */
  show(member: LiveMember, conv: Conversation): Conversation {
    const cur = this.memberEntry.get(member);
    if (cur && cur.id === conv.id && this.entries.get(conv.id) === cur) {
      if (cur.conv !== conv) this.replace(cur, conv, member);
      return cur.conv;
    }
    this.leave(member);
    let entry = this.entries.get(conv.id);
    if (!entry) {
      entry = { id: conv.id, conv, members: new Set(), saving: 0 };
      this.entries.set(conv.id, entry);
    }
    entry.members.add(member);
    this.memberEntry.set(member, entry);
    return entry.conv;
  }

  private replace(entry: Entry, conv: Conversation, by: LiveMember | undefined, notice?: string): void {
    if (!this.ancestry.has(conv)) {
      const from = this.ancestry.get(entry.conv);
      if (from) this.ancestry.set(conv, from);
    }
    entry.conv = conv;
    for (const m of [...entry.members]) if (m !== by) m.adopt(conv, { self: false, ...(notice ? { notice } : {}) });
    if (by && notice && entry.members.has(by)) by.adopt(conv, { self: true, notice });
  }

  leave(member: LiveMember): void {
    const entry = this.memberEntry.get(member);
    if (!entry) return;
    this.memberEntry.delete(member);
    entry.members.delete(member);
    this.forgetIfIdle(entry);
  }

  private forgetIfIdle(entry: Entry): void {
    if (entry.members.size === 0 && !entry.stream && entry.saving === 0 && this.entries.get(entry.id) === entry) this.entries.delete(entry.id);
  }

  // ---------- one request at a time per conversation ----------

  /**
   * Reserves the member's conversation for a request (a send, an edit, a regenerate). False when a
   * request (this view's or another's) runs or is being prepared on it.
   */
  claim(member: LiveMember): boolean {
    const entry = this.memberEntry.get(member);
    if (!entry) return true;
    if (entry.stream) return false;
    entry.stream = { owner: member };
    return true;
  }

  /** Gives up a claim that did not become a request (the send did not go out). */
  release(member: LiveMember): void {
    for (const entry of this.entries.values()) {
      if (entry.stream?.owner === member && !entry.stream.act) {
        entry.stream = undefined;
        this.forgetIfIdle(entry);
      }
    }
  }

  /** The member's request started (`act`) or ended (undefined). */
  setStream(member: LiveMember, act: LiveStream | undefined): void {
    if (act) {
      const entry = this.memberEntry.get(member);
      if (entry) entry.stream = { owner: member, act };
      return;
    }
    for (const entry of [...this.entries.values()]) {
      if (entry.stream?.owner === member) {
        entry.stream = undefined;
        this.forgetIfIdle(entry);
      }
    }
  }

  /** Another view's request on the conversation `member` shows (running or being prepared), if any. */
  othersRequest(member: LiveMember): { act?: LiveStream } | undefined {
    const s = this.memberEntry.get(member)?.stream;
    return s && s.owner !== member ? s : undefined;
  }

  /** Passes Approve/Deny from a view that shows another view's stream to the view that runs it. */
  answerApproval(member: LiveMember, callId: string, approve: boolean): boolean {
    const s = this.othersRequest(member);
    return !!s && this.memberEntry.get(member)!.stream!.owner.answerApproval(callId, approve);
  }

  /**
   * A function that posts a stream's messages to `member` and to every other view showing its
   * conversation now (the entry moves with a branch; a view that opens it later joins).
   */
  poster(member: LiveMember): (message: HostToWebview) => void {
    const entry = this.memberEntry.get(member);
    return (message) => {
      member.post(message);
      if (entry) for (const m of [...entry.members]) if (m !== member) m.post(message);
    };
  }

  /** The live conversation changed in place (a reply ended): the other views showing it post their state. */
  touch(member: LiveMember): void {
    const entry = this.memberEntry.get(member);
    if (entry) for (const m of [...entry.members]) if (m !== member) m.adopt(entry.conv, { self: false });
  }

  // ---------- saving ----------

  /**
   * Saves `next`, a change made from `from` (the conversation object it was built from), without ever
   * overwriting a version it did not see: a compare-and-swap on `from`'s revision; on a conflict the
   * disk's version is merged in, or `next` is saved as a branch. Resolves with the live version that
   * holds what was saved (every view showing it now shows it: when the live version moved on during
   * the save, e.g. a reply started, both are merged); rejects when the write fails (nothing changed).
   */
  async save(next: Conversation, from: Conversation, by?: LiveMember): Promise<Conversation> {
    const entry = this.entries.get(next.id);
    if (entry) entry.saving++;
    const startBase = (this.ancestry.get(from) ?? this.ancestry.get(next))?.base;
    try {
      const saved = await this.casSave(next, from, entry);
      if (!entry || this.entries.get(entry.id) !== entry) return saved.conv;
      let result = saved.conv;
      const live = entry.conv;
      if (live !== from && live !== next && live !== saved.conv) {
        // The live version changed while this was saved (another change here, e.g. a reply started):
        // keep both (under the branch's id and title when this became a branch).
        const both = mergeConversations(startBase, live, saved.conv);
        if (both) {
          result = saved.notice ? { ...both, id: saved.conv.id, title: saved.conv.title } : both;
          const anc = this.ancestry.get(saved.conv);
          if (anc) this.ancestry.set(result, anc);
        }
      }
      if (entry.conv !== result) this.replace(entry, result, by, saved.notice);
      else if (saved.notice && by && entry.members.has(by)) by.adopt(result, { self: true, notice: saved.notice });
      if (by && entry.members.has(by) && !saved.notice) by.adopt(result, { self: true });
      return result;
    } finally {
      if (entry) {
        entry.saving--;
        this.forgetIfIdle(entry);
      }
    }
  }

  private async casSave(next: Conversation, from: Conversation, entry: Entry | undefined): Promise<{ conv: Conversation; notice?: string }> {
    let anc = this.ancestry.get(from) ?? this.ancestry.get(next);
    let base: Conversation | undefined = anc?.base;
    let expect: string | null | undefined = anc?.rev;
    if (!anc) {
      // A new conversation (not on disk: nothing to compare), or made from something this window
      // never read (not expected): then the disk's version is "theirs", merged on the turns both share.
      expect = (await this.store.revision(next.id)) ?? null;
    }
    let mine = next;
    for (let attempt = 0; attempt < MAX_SAVE_ATTEMPTS; attempt++) {
      try {
        const rev = await this.store.save(mine, { expect: expect ?? null });
        this.ancestry.set(mine, { base: snapshot(mine), rev });
        return { conv: mine };
      } catch (e) {
        if (!(e instanceof HistoryConflict)) throw e;
        if (!e.exists) {
          // Deleted in another window while open here: saved again, nothing is lost.
          expect = null;
          continue;
        }
        if (!e.current) break; // an unreadable file is never overwritten: branch
        const merged = mergeConversations(base, mine, e.current.conv);
        if (!merged) break;
        this.log.info(`Chat history: merged another window's changes into conversation ${next.id}.`);
        mine = merged;
        base = e.current.conv;
        expect = e.current.rev;
        anc = undefined;
      }
    }
    return this.branch(mine, entry);
  }

  /** Saves `mine` as a new conversation "<title> (branch)"; the views showing it move there. */
  private async branch(mine: Conversation, entry: Entry | undefined): Promise<{ conv: Conversation; notice?: string }> {
    const title = `${mine.title} (branch)`.slice(0, 200);
    const branch: Conversation = { ...mine, id: this.newId(), title, updatedAt: this.now() };
    const rev = await this.store.save(branch, { expect: null });
    this.ancestry.set(branch, { base: snapshot(branch), rev });
    this.log.info(`Chat history: conversation ${mine.id} was changed in another window at the same time; this window's version was saved as ${branch.id}.`);
    if (entry && this.entries.get(entry.id) === entry && !this.entries.has(branch.id)) {
      // The views here showed this window's version: they go on with it under the branch's id.
      this.entries.delete(entry.id);
      entry.id = branch.id;
      this.entries.set(branch.id, entry);
    }
    return {
      conv: branch,
      notice: `Another window changed “${mine.title}” at the same time. Nothing was lost: this chat goes on as “${title}”, and the other window's version stays under the old title.`,
    };
  }

  /**
   * Another window may have saved `id`: when a view here shows it with no unsaved change (no request,
   * no save under way) and the file is at another revision, every view here takes the disk's version.
   */
  private async checkDisk(id: string): Promise<void> {
    const entry = this.entries.get(id);
    if (!entry || entry.stream || entry.saving) return;
    const shown = entry.conv;
    const anc = this.ancestry.get(shown);
    try {
      const rev = await this.store.revision(id);
      if (rev === undefined || rev === anc?.rev) return;
      const read = await this.store.read(id);
      if (!read || read.rev === anc?.rev) return;
      if (this.entries.get(id) !== entry || entry.conv !== shown || entry.stream || entry.saving) return;
      this.ancestry.set(read.conv, { base: snapshot(read.conv), rev: read.rev });
      this.replace(entry, read.conv, undefined);
    } catch (e) {
      this.log.warn(`Chat history: could not re-read conversation ${id}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  dispose(): void {
    this.bag.dispose();
  }
}

function snapshot(c: Conversation): Conversation {
  return JSON.parse(JSON.stringify(c)) as Conversation;
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

const FIELDS = ['title', 'modelId', 'systemPrompt', 'temperature', 'agent', 'agentSession'] as const;

/**
 * Three-way merge of two versions of one conversation made from `base` (undefined: unknown, then the
 * messages both share from the start are the base). Undefined when the messages conflict. Turns one
 * side only appended are kept after the shared ones; when both appended, only a trailing unanswered
 * user message of ours (not sent yet) goes after their finished turns; anything else conflicts.
 * Settings: ours when we changed them, else theirs. Message objects of `mine` are reused (a reply
 * still streaming stays the same object).
 */
export function mergeConversations(base: Conversation | undefined, mine: Conversation, theirs: Conversation): Conversation | undefined {
  const baseMessages = base ? base.messages : commonPrefix(mine.messages, theirs.messages);
  const n = baseMessages.length;
  const extends_ = (list: readonly StoredMessage[]) => list.length >= n && baseMessages.every((b, i) => list[i].id === b.id);
  const unchanged = (list: readonly StoredMessage[]) => list.length === n && extends_(list) && list.every((m, i) => same(m, baseMessages[i]));
  let messages: StoredMessage[];
  if (unchanged(theirs.messages)) messages = mine.messages;
  // Where theirs holds the same message as ours, ours (the live object: a reply may still stream into it).
  else if (unchanged(mine.messages)) messages = theirs.messages.map((t, i) => (i < mine.messages.length && mine.messages[i].id === t.id && same(mine.messages[i], t) ? mine.messages[i] : t));
  else {
    if (!extends_(mine.messages) || !extends_(theirs.messages)) return undefined;
    const prefix: StoredMessage[] = [];
    for (let i = 0; i < n; i++) {
      const m = mine.messages[i];
      const t = theirs.messages[i];
      const mineChanged = !same(m, baseMessages[i]);
      const theirsChanged = !same(t, baseMessages[i]);
      if (mineChanged && theirsChanged && !same(m, t)) return undefined;
      prefix.push(mineChanged || same(m, t) ? m : t);
    }
    // Turns both appended alike (the same message saved on both sides) are shared too.
    let k = n;
    while (k < mine.messages.length && k < theirs.messages.length && mine.messages[k].id === theirs.messages[k].id && same(mine.messages[k], theirs.messages[k])) prefix.push(mine.messages[k++]);
    const ours = mine.messages.slice(k);
    const their = theirs.messages.slice(k);
    if (ours.length === 0) messages = [...prefix, ...their];
    else if (their.length === 0) messages = [...prefix, ...ours];
    else if (ours.length === 1 && ours[0].role === 'user' && their[their.length - 1].role === 'assistant' && their[their.length - 1].status !== 'streaming') messages = [...prefix, ...their, ...ours];
    else return undefined;
  }
  const out: Conversation = { ...mine, messages, updatedAt: Math.max(mine.updatedAt, theirs.updatedAt) };
  const rec = out as unknown as Record<string, unknown>;
  for (const f of FIELDS) {
    const ourChange = !base || !same(mine[f], base[f]);
    const v = ourChange ? mine[f] : theirs[f];
    if (v === undefined) delete rec[f];
    else rec[f] = v;
  }
  return out;
}

function commonPrefix(a: readonly StoredMessage[], b: readonly StoredMessage[]): StoredMessage[] {
  let i = 0;
  while (i < a.length && i < b.length && a[i].id === b[i].id) i++;
  return b.slice(0, i);
}
