/**
 * Chat history on disk: one JSON file per conversation under a directory the editor layer chooses
 * (context.globalStorageUri/chat).
 *
 * Contract:
 * - `save` is atomic: the file is written to a temporary sibling, flushed, then renamed over the old
 *   one. A crash or error mid-write leaves the previous file intact (rename is atomic on one volume).
 * - Saves of one conversation are serialised in call order, so a slow earlier write never lands after
 *   a later one.
 * - A file that cannot be parsed is skipped by `list`, never deleted: the user may want it back.
 * - Summaries (id, title, updatedAt) live in an in-memory index: built by one scan on first use,
 *   then kept by this store's own save/delete, so listing never reads a conversation file. Files
 *   written by another window are picked up by `refresh()` (on a view's `ready` and on a file-watcher
 *   event), which reads only files whose size or modification time differ from what the index knows.
 * - Files hold what the user typed and attached, so they are private to the user: each file is
 *   written 0600 and the directory is 0700 (an existing, looser directory is tightened once).
 * - Several windows (extension hosts) share the folder. Every write of a conversation holds its lock
 *   file (`<id>.json.lock`, created exclusively; one left by a crashed window is broken after
 *   LOCK_STALE_MS), so a check and the write after it are one step for every window. A conversation's
 *   revision is a hash of its file's text (`read` and `save` return it). `save(conv, { expect })` is a
 *   compare-and-swap: when the file is not at revision `expect` (null: when it exists) nothing is
 *   written and HistoryConflict carries what is on disk, for the caller to merge or branch
 *   (src/core/chat/liveConversations.ts). Never a silent last-writer-wins.
 */
import * as nodeFs from 'node:fs/promises';
import { join } from 'node:path';
import { createHash, randomUUID } from 'node:crypto';
import { Emitter, type IDisposable } from '../disposables';
import type { Logger } from '../log';
import { nullLogger } from '../log';
import type { Conversation } from './conversation';

/** The few file operations the store needs; injectable so tests can simulate a crash mid-write. */
export interface HistoryFs {
  /** Creates the directory (and parents) and leaves it readable by the owner only. */
  mkdir(path: string): Promise<void>;
  readFile(path: string): Promise<string>;
  /** Writes (owner-only, 0600) and flushes the file before resolving. */
  writeFileDurable(path: string, data: string): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  unlink(path: string): Promise<void>;
  readdir(path: string): Promise<string[]>;
  /** Size, modification time and inode, to tell a file another window changed from one we wrote. */
  stat(path: string): Promise<{ size: number; mtimeMs: number; ino?: number }>;
  /** Creates the file only if it does not exist (O_EXCL): true when created, false when it existed. */
  createExclusive(path: string): Promise<boolean>;
}

const PRIVATE_DIR = 0o700;
const PRIVATE_FILE = 0o600;

export const nodeHistoryFs: HistoryFs = {
  async mkdir(path) {
    await nodeFs.mkdir(path, { recursive: true, mode: PRIVATE_DIR });
    // `mode` applies only to directories mkdir creates (and is masked by umask): tighten explicitly,
    // which also fixes a directory an older version created 0755.
    await nodeFs.chmod(path, PRIVATE_DIR);
  },
  readFile: (path) => nodeFs.readFile(path, 'utf8'),
  async writeFileDurable(path, data) {
    const fh = await nodeFs.open(path, 'w', PRIVATE_FILE);
    try {
      // The open mode is masked by umask; chmod makes it exact whatever the umask.
      await fh.chmod(PRIVATE_FILE);
      await fh.writeFile(data, 'utf8');
      await fh.sync();
    } finally {
      await fh.close();
    }
  },
  rename: (from, to) => nodeFs.rename(from, to),
  unlink: (path) => nodeFs.unlink(path),
  readdir: (path) => nodeFs.readdir(path),
  stat: (path) => nodeFs.stat(path),
  async createExclusive(path) {
    try {
      const fh = await nodeFs.open(path, 'wx', PRIVATE_FILE);
      await fh.close();
      return true;
    } catch (e) {
      if ((e as { code?: string }).code === 'EEXIST') return false;
      throw e;
    }
  },
};

/** A lock older than this was left by a window that died mid-write (a write takes milliseconds). */
export const LOCK_STALE_MS = 30_000;
/** How long a save waits for another window's write of the same conversation before it fails. */
const LOCK_WAIT_MS = 10_000;

/** The revision of a conversation file: a hash of its exact text. */
function revisionOf(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 32);
}

/**
 * `save(conv, { expect })` found the file at another revision than `expect`: another window (or
 * another writer in this one) saved the conversation meanwhile. Nothing was written. `current` is
 * what is on disk now: undefined when the file is gone (`exists` false) or cannot be read.
 */
export class HistoryConflict extends Error {
  constructor(
    readonly id: string,
    readonly exists: boolean,
    readonly current: { conv: Conversation; rev: string } | undefined,
  ) {
    super(`Conversation ${id} was changed by another window`);
    this.name = 'HistoryConflict';
  }
}

export interface ConversationSummary {
  id: string;
  title: string;
  updatedAt: number;
}

/** What changed in the list of conversations: sent to every view as it is, never as a full rescan. */
export interface HistoryChange {
  upserted: ConversationSummary[];
  removed: string[];
}

interface IndexEntry {
  summary: ConversationSummary;
  /** `size:mtimeMs` of the file when the summary was taken; undefined when stat failed. */
  stamp: string | undefined;
}

const ID_RE = /^[A-Za-z0-9_-]{1,64}$/;

export function isConversation(x: unknown): x is Conversation {
  if (typeof x !== 'object' || x === null) return false;
  const c = x as Record<string, unknown>;
  return (
    c.version === 1 &&
    typeof c.id === 'string' &&
    ID_RE.test(c.id) &&
    typeof c.title === 'string' &&
    typeof c.modelId === 'string' &&
    typeof c.systemPrompt === 'string' &&
    typeof c.createdAt === 'number' &&
    typeof c.updatedAt === 'number' &&
    Array.isArray(c.messages) &&
    c.messages.every(
      (m: unknown) =>
        typeof m === 'object' &&
        m !== null &&
        typeof (m as Record<string, unknown>).id === 'string' &&
        ((m as Record<string, unknown>).role === 'user' || (m as Record<string, unknown>).role === 'assistant') &&
        typeof (m as Record<string, unknown>).content === 'string' &&
        isOptional((m as Record<string, unknown>).responseId, (v) => typeof v === 'string') &&
        isOptional((m as Record<string, unknown>).feedback, (v) => v === 'up' || v === 'down'),
    ) &&
    isOptional(c.agentSession, isAgentSession)
  );
}

function isOptional(v: unknown, ok: (v: unknown) => boolean): boolean {
  return v === undefined || ok(v);
}

/** A conversation's agent session binding: string ids (the wire encodes them as path segments) and an optional name. */
function isAgentSession(v: unknown): boolean {
  if (typeof v !== 'object' || v === null) return false;
  const s = v as Record<string, unknown>;
  return typeof s.agentId === 'string' && typeof s.sessionId === 'string' && s.sessionId !== '' && isOptional(s.agentName, (n) => typeof n === 'string');
}

function summaryOf(c: Conversation): ConversationSummary {
  return { id: c.id, title: c.title, updatedAt: c.updatedAt };
}

function sameSummary(a: ConversationSummary | undefined, b: ConversationSummary): boolean {
  return a !== undefined && a.id === b.id && a.title === b.title && a.updatedAt === b.updatedAt;
}

export class HistoryStore implements IDisposable {
  private readonly _onDidChange = new Emitter<HistoryChange>();
  /** Fires with what changed after a save, delete or refresh, so every open chat view can update its list. */
  readonly onDidChange = this._onDidChange.event;
  private readonly queues = new Map<string, Promise<void>>();
  private ready: Promise<void> | undefined;
  /** The summaries, once the first scan has run. */
  private index: Map<string, IndexEntry> | undefined;
  private scanning: Promise<void> | undefined;
  /** Bumped by every own save/delete of an id, so a scan that started earlier does not undo it. */
  private readonly generation = new Map<string, number>();
  /** The revision of each file as this store last wrote or read it, with the file's stamp then. */
  private readonly revs = new Map<string, { stamp: string; rev: string }>();

  constructor(
    private readonly dir: string,
    private readonly fs: HistoryFs = nodeHistoryFs,
    private readonly log: Logger = nullLogger,
  ) {}

  private fileOf(id: string): string {
    if (!ID_RE.test(id)) throw new Error(`Invalid conversation id`);
    return join(this.dir, `${id}.json`);
  }

  private ensureDir(): Promise<void> {
    this.ready ??= this.fs.mkdir(this.dir).catch((e: unknown) => {
      this.ready = undefined;
      throw e;
    });
    return this.ready;
  }

  /** Summaries, most recently updated first. Reads files only the first time (one scan). */
  async list(): Promise<ConversationSummary[]> {
    if (!this.index) await this.refresh();
    const out = [...(this.index ?? new Map<string, IndexEntry>()).values()].map((e) => ({ ...e.summary }));
    return out.sort((a, b) => b.updatedAt - a.updatedAt || a.id.localeCompare(b.id));
  }

  /**
   * Brings the index up to date with the directory: reads the files that are new or whose size or
   * modification time changed (another window wrote them), drops those that are gone, and fires one
   * change with the difference. Concurrent calls share one scan.
   */
  refresh(): Promise<void> {
    this.scanning ??= this.scan().finally(() => {
      this.scanning = undefined;
    });
    return this.scanning;
  }

  private async scan(): Promise<void> {
    await this.ensureDir();
    const startGen = new Map(this.generation);
    const changed = (id: string) => (this.generation.get(id) ?? 0) !== (startGen.get(id) ?? 0);
    const old = this.index ?? new Map<string, IndexEntry>();
    const next = new Map<string, IndexEntry>();
    const change: HistoryChange = { upserted: [], removed: [] };
    for (const name of await this.fs.readdir(this.dir)) {
      if (!name.endsWith('.json')) continue; // temp files end in .tmp
      const id = name.slice(0, -5);
      if (!ID_RE.test(id)) continue;
      const stamp = await this.stampOf(id);
      const known = old.get(id);
      if (known && stamp !== undefined && known.stamp === stamp) {
        next.set(id, known);
        continue;
      }
      const conv = await this.load(id);
      if (!conv) continue;
      next.set(id, { summary: summaryOf(conv), stamp });
      if (!sameSummary(known?.summary, summaryOf(conv))) change.upserted.push(summaryOf(conv));
    }
    for (const id of old.keys()) if (!next.has(id)) change.removed.push(id);
    // Own saves and deletes that landed during the scan win over what the scan saw.
    const current = this.index;
    if (current) {
      for (const id of new Set([...current.keys(), ...next.keys()])) {
        if (!changed(id)) continue;
        const mine = current.get(id);
        if (mine) next.set(id, mine);
        else next.delete(id);
        change.upserted = change.upserted.filter((s) => s.id !== id);
        change.removed = change.removed.filter((r) => r !== id);
      }
    }
    this.index = next;
    if (current && (change.upserted.length || change.removed.length)) this._onDidChange.fire(change);
  }

  /**
   * Re-checks one conversation file after a file-watcher event: nothing is read when its size and
   * modification time are what this store wrote last (its own save), so a window's own writes cost
   * one stat. Before the first scan there is no index to update, and the scan will see the file.
   */
  async refreshFile(id: string): Promise<void> {
    if (!this.index || !ID_RE.test(id) || this.queues.has(id)) return;
    const gen = this.generation.get(id) ?? 0;
    const stamp = await this.stampOf(id);
    const known = this.index.get(id);
    if (known && stamp !== undefined && known.stamp === stamp) return;
    const conv = stamp === undefined ? undefined : await this.load(id);
    // An own save or delete that landed meanwhile knows better.
    if ((this.generation.get(id) ?? 0) !== gen || !this.index) return;
    if (conv) {
      this.index.set(id, { summary: summaryOf(conv), stamp });
      if (!sameSummary(known?.summary, summaryOf(conv))) this._onDidChange.fire({ upserted: [summaryOf(conv)], removed: [] });
    } else if (known && stamp === undefined) {
      this.index.delete(id);
      this._onDidChange.fire({ upserted: [], removed: [id] });
    }
  }

  private async stampOf(id: string): Promise<string | undefined> {
    try {
      const st = await this.fs.stat(this.fileOf(id));
      return `${st.size}:${st.mtimeMs}:${st.ino ?? ''}`;
    } catch {
      return undefined;
    }
  }

  /**
   * Conversations whose messages contain `query` (case-insensitive), newest first, each with a short
   * snippet around the first match. Bounded: reads at most `maxFiles` of the most recent conversations
   * and stops at `maxMatches`, so a huge history cannot make a keystroke in the history picker read
   * everything. Titles are matched by the picker itself from the in-memory summaries.
   */
  async searchText(query: string, o: { maxFiles?: number; maxMatches?: number } = {}): Promise<Array<{ id: string; snippet: string }>> {
    const needle = query.trim().toLowerCase();
    if (!needle) return [];
    const maxFiles = o.maxFiles ?? 200;
    const maxMatches = o.maxMatches ?? 50;
    const out: Array<{ id: string; snippet: string }> = [];
    for (const summary of (await this.list()).slice(0, maxFiles)) {
      const conv = await this.load(summary.id);
      for (const m of conv?.messages ?? []) {
        const at = m.content.toLowerCase().indexOf(needle);
        if (at < 0) continue;
        const start = Math.max(0, at - 30);
        const text = m.content.slice(start, at + needle.length + 50).replace(/\s+/g, ' ').trim();
        out.push({ id: summary.id, snippet: `${start > 0 ? '…' : ''}${text}…` });
        break;
      }
      if (out.length >= maxMatches) break;
    }
    return out;
  }

  /** The conversation, or undefined when it does not exist or its file is unreadable. */
  async load(id: string): Promise<Conversation | undefined> {
    return (await this.read(id))?.conv;
  }

  /**
   * The conversation with its revision (for a later `save(conv, { expect: rev })`), or undefined when
   * it does not exist or its file is unreadable.
   */
  async read(id: string): Promise<{ conv: Conversation; rev: string } | undefined> {
    if (!ID_RE.test(id)) return undefined;
    await this.queues.get(id); // read after pending writes
    return (await this.readFile(id)).current;
  }

  /** The file as it is now: whether it exists, and its conversation and revision when it can be read. */
  private async readFile(id: string): Promise<{ exists: boolean; current?: { conv: Conversation; rev: string } }> {
    const before = await this.stampOf(id);
    let text: string;
    try {
      text = await this.fs.readFile(this.fileOf(id));
    } catch {
      return { exists: before !== undefined };
    }
    const rev = revisionOf(text);
    // Remembered only when the file did not change while it was read.
    if (before !== undefined && before === (await this.stampOf(id))) this.revs.set(id, { stamp: before, rev });
    try {
      const parsed: unknown = JSON.parse(text);
      if (isConversation(parsed) && parsed.id === id) return { exists: true, current: { conv: parsed, rev } };
      this.log.warn(`Chat history: ${id}.json has an unexpected shape; skipped.`);
    } catch {
      this.log.warn(`Chat history: ${id}.json is not valid JSON; skipped.`);
    }
    return { exists: true };
  }

  /**
   * The revision of the file now (undefined: no file), without reading it when its stamp is the one
   * this store last wrote or read: a window's own saves cost one stat.
   */
  async revision(id: string): Promise<string | undefined> {
    if (!ID_RE.test(id)) return undefined;
    await this.queues.get(id);
    const stamp = await this.stampOf(id);
    if (stamp === undefined) return undefined;
    const known = this.revs.get(id);
    if (known && known.stamp === stamp) return known.rev;
    const now = await this.readFile(id);
    return now.current?.rev ?? (now.exists ? 'unreadable' : undefined);
  }

  /** Holds the conversation's lock file while `fn` runs; waits for another window's write to end. */
  private async withLock<T>(id: string, fn: () => Promise<T>): Promise<T> {
    const lock = `${this.fileOf(id)}.lock`;
    const deadline = Date.now() + LOCK_WAIT_MS;
    let delay = 2;
    while (!(await this.fs.createExclusive(lock))) {
      let age: number | undefined;
      try {
        age = Date.now() - (await this.fs.stat(lock)).mtimeMs;
      } catch {
        continue; // released meanwhile: try again at once
      }
      if (age > LOCK_STALE_MS) {
        this.log.warn(`Chat history: ${id}.json.lock was left by a window that stopped mid-write; removed.`);
        await this.fs.unlink(lock).catch(() => undefined);
        continue;
      }
      if (Date.now() > deadline) throw new Error('the conversation is being saved by another window; try again');
      await new Promise((r) => setTimeout(r, delay));
      delay = Math.min(delay * 2, 50);
    }
    try {
      return await fn();
    } finally {
      await this.fs.unlink(lock).catch(() => undefined);
    }
  }

  /**
   * Atomically replaces the stored conversation and resolves with its new revision. Rejects (and keeps
   * the old file) when the write fails. With `expect` it is a compare-and-swap: it writes only when the
   * file is at that revision (null: only when there is no file), else it rejects with HistoryConflict.
   */
  save(conv: Conversation, opts: { expect?: string | null } = {}): Promise<string> {
    const data = JSON.stringify(conv);
    const file = this.fileOf(conv.id);
    const prev = this.queues.get(conv.id) ?? Promise.resolve();
    const next: Promise<{ summary: ConversationSummary; rev: string }> = prev
      .then(() => undefined, () => undefined)
      .then(async () => {
        await this.ensureDir();
        return this.withLock(conv.id, async () => {
          if (opts.expect !== undefined) await this.check(conv.id, opts.expect);
          const tmp = `${file}.${randomUUID().slice(0, 8)}.tmp`;
          try {
            await this.fs.writeFileDurable(tmp, data);
            await this.fs.rename(tmp, file);
          } catch (e) {
            await this.fs.unlink(tmp).catch(() => undefined);
            throw e;
          }
          const rev = revisionOf(data);
          const summary = summaryOf(conv);
          const stamp = await this.stampOf(conv.id);
          if (stamp !== undefined) this.revs.set(conv.id, { stamp, rev });
          else this.revs.delete(conv.id);
          this.generation.set(conv.id, (this.generation.get(conv.id) ?? 0) + 1);
          this.index?.set(conv.id, { summary, stamp });
          return { summary, rev };
        });
      });
    // The queue never rejects: a failed write is reported to its caller, and later saves and loads go on.
    this.queues.set(
      conv.id,
      next.then(
        () => undefined,
        () => undefined,
      ),
    );
    const queued = this.queues.get(conv.id);
    const settle = () => {
      if (this.queues.get(conv.id) === queued) this.queues.delete(conv.id);
    };
    return next.then(
      ({ summary, rev }) => {
        settle();
        this._onDidChange.fire({ upserted: [summary], removed: [] });
        return rev;
      },
      (e: unknown) => {
        settle();
        throw e;
      },
    );
  }

  /** Under the lock: throws HistoryConflict unless the file is at revision `expect` (null: absent). */
  private async check(id: string, expect: string | null): Promise<void> {
    const stamp = await this.stampOf(id);
    if (stamp === undefined) {
      if (expect === null) return;
      throw new HistoryConflict(id, false, undefined);
    }
    const known = this.revs.get(id);
    if (expect !== null && known && known.stamp === stamp && known.rev === expect) return;
    const now = await this.readFile(id);
    if (expect !== null && now.current?.rev === expect) return;
    throw new HistoryConflict(id, now.exists, now.current);
  }

  async delete(id: string): Promise<void> {
    await this.queues.get(id)?.catch(() => undefined);
    try {
      await this.fs.unlink(this.fileOf(id));
    } catch (e) {
      if ((e as { code?: string }).code !== 'ENOENT') throw e;
    }
    this.generation.set(id, (this.generation.get(id) ?? 0) + 1);
    this.revs.delete(id);
    this.index?.delete(id);
    this._onDidChange.fire({ upserted: [], removed: [id] });
  }

  dispose(): void {
    this._onDidChange.dispose();
  }
}
