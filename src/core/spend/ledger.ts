/**
 * The local spend ledger: one JSON line per priced provider response, in the extension's global
 * storage, so usage views can show spend from every surface (the chat panel, the content commands,
 * VS Code's chat through the language model provider) and every window.
 *
 * Line fields: `time` (ISO), `model`, `operation` (e.g. "vscode-chat", "chat-panel", "summary"),
 * `key_name` (the key's display name, NEVER the secret), `usage` (the gateway's usage object as
 * received), `cost_nano` (exact nanocredits as a decimal integer string, from the catalog's decimal
 * rates at the time of the reply, or null when the model has no usable rates), `pricing_version`,
 * `request_id` when the gateway sent one, and `estimated` when the usage is the client's estimate, not
 * the gateway's figure (core/spend/charge.ts): `stopped` or `failed` (a billed request that may have
 * reached the gateway but reported no usage) or `unreadable_usage` (a conservative estimate in place of
 * usage the client could not read). Estimated entries count like the rest (status bar, budget).
 *
 * Layout: one file per UTC day, `<dir>/spend-YYYY-MM-DD.jsonl`, chosen by the entry's time. So:
 *  - Appends never need a lock: each line goes out in ONE write on a file opened for appending
 *    (O_APPEND), so lines from two windows (two processes) never interleave on a local filesystem.
 *  - Every append starts on a fresh line whatever another process left: the write is "\n" + entry +
 *    "\n", always. A line left partial (another window's crash, a killed or short write, a full disk)
 *    is closed by the next append's leading newline, so it spoils only itself. Checking the file's last
 *    byte first would not do: another process can leave a partial line between the check and the
 *    write. The price is an empty line between entries, which readers skip.
 *  - Compaction is by day and lock-free too: a past day (nobody appends to it any more; see
 *    COMPACT_AFTER_DAYS) is folded into one summary line per (model, operation, key, pricing_version)
 *    written to a temporary file and renamed over the day's file, which is atomic. Two windows
 *    compacting the same day write the same content; a reader sees the old file or the new one whole.
 *  - Reads take only the days a window needs. A line that is not a valid entry (corrupt, partial, too
 *    long) is skipped and logged; the rest of the file is kept.
 */
import { promises as fsp, createReadStream } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { costOfUsage, PricingError } from '../pricing';
import type { ModelPricing, Usage } from '../gateway/types';
import { chargeOf, type EstimateReason } from './charge';

export interface SpendEntry {
  time: string;
  model: string;
  operation: string;
  key_name?: string;
  usage: Usage;
  cost_nano: string | null;
  pricing_version?: string;
  request_id?: string;
  /** The usage is the client's estimate (see the header): why. */
  estimated?: EstimateReason;
}

/**
 * One compacted day: every entry of that UTC day with the same model, operation, key name and
 * pricing version, summed exactly. `unpriced` counts entries whose cost was null.
 */
export interface SpendDaySummary {
  kind: 'day';
  day: string;
  model: string;
  operation: string;
  key_name?: string;
  pricing_version?: string;
  requests: number;
  unpriced: number;
  /** Entries whose cost was an estimate (absent in summaries written before estimates were recorded). */
  estimated?: number;
  cost_nano: string;
  prompt_tokens: number;
  completion_tokens: number;
}

/** Longest line read back; longer ones are skipped (a ledger line is a few hundred bytes). */
export const MAX_LINE_CHARS = 64 * 1024;
/** A day is compacted once it ended at least this many days ago, so late appends never race it. */
export const COMPACT_AFTER_DAYS = 2;
const COMPACTED_MARK = '{"compacted":1}';

export interface SpendInput {
  model: string;
  operation: string;
  keyName?: string;
  usage: Usage;
  pricing?: ModelPricing;
  requestId?: string;
  now?: Date;
  /** Set when `usage` is the client's estimate (core/spend/charge.ts chargeOf). */
  estimated?: EstimateReason;
}

/** The entry for one response, priced exactly (src/core/pricing.ts) with the rates known at that time. */
export function spendEntry(input: SpendInput): SpendEntry {
  let cost: string | null = null;
  const p = input.pricing;
  // Usage the client could not read is never priced as if the unreadable counts were 0 or left out:
  // callers pass a charge (chargeOf) with their own estimate; this is the last guard for those that don't.
  const charge = input.usage.unreadable?.length ? chargeOf(input.usage, () => ({ prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 })) : { usage: input.usage, estimated: input.estimated };
  if (p && p.unit === 'credits' && (p.input_per_million !== undefined || p.output_per_million !== undefined)) {
    try {
      cost = costOfUsage(charge.usage, p).totalNano.toString();
    } catch (e) {
      if (!(e instanceof PricingError)) throw e;
    }
  }
  return {
    time: (input.now ?? new Date()).toISOString(),
    model: input.model,
    operation: input.operation,
    ...(input.keyName ? { key_name: input.keyName } : {}),
    usage: charge.usage,
    cost_nano: cost,
    ...(p?.pricing_version ? { pricing_version: p.pricing_version } : {}),
    ...(input.requestId ? { request_id: input.requestId } : {}),
    ...(charge.estimated ? { estimated: charge.estimated } : {}),
  };
}

const NANO_RE = /^\d{1,40}$/;

function isEntry(v: unknown): v is SpendEntry {
  const e = v as Partial<SpendEntry> | null;
  return (
    typeof e === 'object' &&
    e !== null &&
    typeof e.time === 'string' &&
    !Number.isNaN(Date.parse(e.time)) &&
    typeof e.model === 'string' &&
    typeof e.operation === 'string' &&
    typeof e.usage === 'object' &&
    e.usage !== null &&
    (e.cost_nano === null || (typeof e.cost_nano === 'string' && NANO_RE.test(e.cost_nano)))
  );
}

function isSummary(v: unknown): v is SpendDaySummary {
  const s = v as Partial<SpendDaySummary> | null;
  return (
    typeof s === 'object' &&
    s !== null &&
    s.kind === 'day' &&
    typeof s.day === 'string' &&
    /^\d{4}-\d{2}-\d{2}$/.test(s.day) &&
    typeof s.model === 'string' &&
    typeof s.operation === 'string' &&
    Number.isSafeInteger(s.requests) &&
    Number.isSafeInteger(s.unpriced) &&
    (s.estimated === undefined || Number.isSafeInteger(s.estimated)) &&
    typeof s.cost_nano === 'string' &&
    NANO_RE.test(s.cost_nano) &&
    Number.isSafeInteger(s.prompt_tokens) &&
    Number.isSafeInteger(s.completion_tokens)
  );
}

/** The UTC day (YYYY-MM-DD) of a time in milliseconds. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

const DAY_MS = 86_400_000;
const FILE_RE = /^spend-(\d{4}-\d{2}-\d{2})\.jsonl$/;

export interface SpendLedgerOptions {
  /** The ledger's directory (in the extension's global storage). */
  dir: string;
  log?: (line: string) => void;
}

export interface SpendReadResult {
  entries: SpendEntry[];
  summaries: SpendDaySummary[];
  skipped: number;
}

export class SpendLedger {
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly options: SpendLedgerOptions) {}

  get dir(): string {
    return this.options.dir;
  }

  fileFor(day: string): string {
    return join(this.options.dir, `spend-${day}.jsonl`);
  }

  /** Appends one entry to its day's file; resolves once it is written. Failures reject (the caller logs them). */
  append(entry: SpendEntry): Promise<void> {
    const next = this.queue.then(() => this.write(entry));
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async write(entry: SpendEntry): Promise<void> {
    await fsp.mkdir(this.options.dir, { recursive: true });
    const file = this.fileFor(utcDay(Date.parse(entry.time)));
    // One write() on an O_APPEND file: the leading newline and the entry land together, after whatever
    // any other process wrote (see the header).
    const data = Buffer.from(`\n${JSON.stringify(entry)}\n`, 'utf8');
    const handle = await fsp.open(file, 'a');
    try {
      const { bytesWritten } = await handle.write(data, 0, data.length);
      // A short write leaves a partial line; the next append's leading newline closes it.
      if (bytesWritten !== data.length) throw new Error(`Spend ledger: wrote ${bytesWritten} of ${data.length} bytes`);
    } finally {
      await handle.close();
    }
  }

  /** Resolves once every append started so far has been written or has failed (never rejects). */
  idle(): Promise<void> {
    return this.queue;
  }

  /** The days that have a file, ascending. */
  async days(): Promise<string[]> {
    let names: string[];
    try {
      names = await fsp.readdir(this.options.dir);
    } catch {
      return [];
    }
    return names
      .map((n) => FILE_RE.exec(n)?.[1])
      .filter((d): d is string => d !== undefined)
      .sort();
  }

  /**
   * Every valid line of the days that overlap [fromMs, toMs) (all days when omitted), in file order.
   * Entries are filtered by time exactly; a compacted day's summaries come whole when the day overlaps.
   * Bad lines are skipped, counted and logged. A missing directory is empty.
   */
  async read(range: { fromMs?: number; toMs?: number } = {}): Promise<SpendReadResult> {
    await this.idle();
    const out: SpendReadResult = { entries: [], summaries: [], skipped: 0 };
    const fromDay = range.fromMs === undefined ? undefined : utcDay(range.fromMs);
    const toDay = range.toMs === undefined ? undefined : utcDay(range.toMs - 1);
    for (const day of await this.days()) {
      if ((fromDay !== undefined && day < fromDay) || (toDay !== undefined && day > toDay)) continue;
      await this.readFile(this.fileFor(day), out, (e) => {
        const t = Date.parse(e.time);
        return (range.fromMs === undefined || t >= range.fromMs) && (range.toMs === undefined || t < range.toMs);
      });
    }
    return out;
  }

  private async readFile(file: string, out: SpendReadResult, keep: (e: SpendEntry) => boolean): Promise<void> {
    let lineNo = 0;
    const name = file.slice(this.options.dir.length + 1);
    const take = (line: string, tooLong: boolean): void => {
      lineNo++;
      if (!tooLong && (line.trim() === '' || line === COMPACTED_MARK)) return;
      let v: unknown;
      try {
        v = tooLong ? undefined : JSON.parse(line);
      } catch {
        v = undefined;
      }
      if (isEntry(v)) {
        if (keep(v)) out.entries.push(v);
      } else if (isSummary(v)) out.summaries.push(v);
      else {
        out.skipped++;
        this.options.log?.(`Spend ledger: skipped line ${lineNo} of ${name} (${tooLong ? 'too long' : 'not a valid entry'}).`);
      }
    };
    let stream;
    try {
      await fsp.access(file);
      stream = createReadStream(file, { encoding: 'utf8' });
    } catch {
      return;
    }
    let buf = '';
    let tooLong = false;
    for await (const chunk of stream as AsyncIterable<string>) {
      let start = 0;
      for (let i = chunk.indexOf('\n'); i !== -1; i = chunk.indexOf('\n', start)) {
        const piece = chunk.slice(start, i);
        if (!tooLong && buf.length + piece.length <= MAX_LINE_CHARS) take(buf + piece, false);
        else take('', true);
        buf = '';
        tooLong = false;
        start = i + 1;
      }
      const rest = chunk.slice(start);
      if (!tooLong && buf.length + rest.length <= MAX_LINE_CHARS) buf += rest;
      else {
        tooLong = true;
        buf = '';
      }
    }
    if (tooLong) take('', true);
    else if (buf !== '') take(buf, false);
  }

  /**
   * Folds every day that ended at least COMPACT_AFTER_DAYS before `nowMs` into summary lines. Returns
   * the days compacted. Safe to run from several windows at once (see the header).
   */
  async compact(nowMs: number): Promise<string[]> {
    await this.idle();
    const cutoff = utcDay(nowMs - COMPACT_AFTER_DAYS * DAY_MS);
    const done: string[] = [];
    for (const day of await this.days()) {
      if (day >= cutoff) continue;
      const file = this.fileFor(day);
      const head = await firstLine(file);
      if (head === COMPACTED_MARK) continue;
      const got: SpendReadResult = { entries: [], summaries: [], skipped: 0 };
      await this.readFile(file, got, () => true);
      const lines = [COMPACTED_MARK, ...summarise(day, got.entries, got.summaries).map((x) => JSON.stringify(x))];
      const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
      await fsp.writeFile(tmp, `${lines.join('\n')}\n`, { encoding: 'utf8', flag: 'wx' });
      await fsp.rename(tmp, file);
      done.push(day);
    }
    return done;
  }
}

async function firstLine(file: string): Promise<string> {
  const h = await fsp.open(file, 'r');
  try {
    const buf = Buffer.alloc(COMPACTED_MARK.length + 1);
    const { bytesRead } = await h.read(buf, 0, buf.length, 0);
    return buf.subarray(0, bytesRead).toString('utf8').split('\n')[0];
  } finally {
    await h.close();
  }
}

/** Exact per-(model, operation, key, pricing_version) sums of a day's entries and earlier summaries. */
export function summarise(day: string, entries: readonly SpendEntry[], summaries: readonly SpendDaySummary[] = []): SpendDaySummary[] {
  const map = new Map<string, SpendDaySummary>();
  const add = (s: Omit<SpendDaySummary, 'kind' | 'day'>): void => {
    const key = JSON.stringify([s.model, s.operation, s.key_name ?? '', s.pricing_version ?? '']);
    const cur = map.get(key);
    if (!cur) {
      map.set(key, {
        kind: 'day',
        day,
        model: s.model,
        operation: s.operation,
        ...(s.key_name ? { key_name: s.key_name } : {}),
        ...(s.pricing_version ? { pricing_version: s.pricing_version } : {}),
        requests: s.requests,
        unpriced: s.unpriced,
        ...(s.estimated ? { estimated: s.estimated } : {}),
        cost_nano: s.cost_nano,
        prompt_tokens: s.prompt_tokens,
        completion_tokens: s.completion_tokens,
      });
      return;
    }
    cur.requests += s.requests;
    cur.unpriced += s.unpriced;
    if (s.estimated) cur.estimated = (cur.estimated ?? 0) + s.estimated;
    cur.cost_nano = (BigInt(cur.cost_nano) + BigInt(s.cost_nano)).toString();
    cur.prompt_tokens += s.prompt_tokens;
    cur.completion_tokens += s.completion_tokens;
  };
  for (const s of summaries) add(s);
  for (const e of entries) {
    add({
      model: e.model,
      operation: e.operation,
      key_name: e.key_name,
      pricing_version: e.pricing_version,
      requests: 1,
      unpriced: e.cost_nano === null ? 1 : 0,
      estimated: e.estimated ? 1 : 0,
      cost_nano: e.cost_nano ?? '0',
      prompt_tokens: safeCount(e.usage.prompt_tokens),
      completion_tokens: safeCount(e.usage.completion_tokens),
    });
  }
  return [...map.values()];
}

function safeCount(n: unknown): number {
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : 0;
}
