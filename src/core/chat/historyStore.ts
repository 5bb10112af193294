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
 * - Files hold what the user typed and attached, so they are private to the user: each file is
 *   written 0600 and the directory is 0700 (an existing, looser directory is tightened once).
 */
import * as nodeFs from 'node:fs/promises';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { Emitter, type IDisposable } from '../lifecycle';
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
};

export interface ConversationSummary {
  id: string;
  title: string;
  updatedAt: number;
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
        typeof (m as Record<string, unknown>).content === 'string',
    )
  );
}

export class HistoryStore implements IDisposable {
  private readonly _onDidChange = new Emitter<void>();
  /** Fires after any save or delete, so every open chat view can refresh its list. */
  readonly onDidChange = this._onDidChange.event;
  private readonly queues = new Map<string, Promise<void>>();
  private ready: Promise<void> | undefined;

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

  /** Summaries, most recently updated first. */
  async list(): Promise<ConversationSummary[]> {
    await this.ensureDir();
    const names = await this.fs.readdir(this.dir);
    const out: ConversationSummary[] = [];
    for (const name of names) {
      if (!name.endsWith('.json')) continue; // temp files end in .tmp
      const conv = await this.load(name.slice(0, -5));
      if (conv) out.push({ id: conv.id, title: conv.title, updatedAt: conv.updatedAt });
    }
    return out.sort((a, b) => b.updatedAt - a.updatedAt || a.id.localeCompare(b.id));
  }

  /** The conversation, or undefined when it does not exist or its file is unreadable. */
  async load(id: string): Promise<Conversation | undefined> {
    if (!ID_RE.test(id)) return undefined;
    await this.queues.get(id); // read after pending writes
    let text: string;
    try {
      text = await this.fs.readFile(this.fileOf(id));
    } catch {
      return undefined;
    }
    try {
      const parsed: unknown = JSON.parse(text);
      if (isConversation(parsed) && parsed.id === id) return parsed;
      this.log.warn(`Chat history: ${id}.json has an unexpected shape; skipped.`);
    } catch {
      this.log.warn(`Chat history: ${id}.json is not valid JSON; skipped.`);
    }
    return undefined;
  }

  /** Atomically replaces the stored conversation. Rejects (and keeps the old file) when the write fails. */
  save(conv: Conversation): Promise<void> {
    const data = JSON.stringify(conv);
    const file = this.fileOf(conv.id);
    const prev = this.queues.get(conv.id) ?? Promise.resolve();
    const next = prev
      .catch(() => undefined)
      .then(async () => {
        await this.ensureDir();
        const tmp = `${file}.${randomUUID().slice(0, 8)}.tmp`;
        try {
          await this.fs.writeFileDurable(tmp, data);
          await this.fs.rename(tmp, file);
        } catch (e) {
          await this.fs.unlink(tmp).catch(() => undefined);
          throw e;
        }
      });
    this.queues.set(conv.id, next);
    const settle = () => {
      if (this.queues.get(conv.id) === next) this.queues.delete(conv.id);
    };
    return next.then(
      () => {
        settle();
        this._onDidChange.fire();
      },
      (e: unknown) => {
        settle();
        throw e;
      },
    );
  }

  async delete(id: string): Promise<void> {
    await this.queues.get(id)?.catch(() => undefined);
    try {
      await this.fs.unlink(this.fileOf(id));
    } catch (e) {
      if ((e as { code?: string }).code !== 'ENOENT') throw e;
    }
    this._onDidChange.fire();
  }

  dispose(): void {
    this._onDidChange.dispose();
  }
}
