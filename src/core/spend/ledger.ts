/**
 * The local spend ledger: one JSON line per priced provider response, in the extension's global
 * storage, so usage views can show spend from every surface (our chat panel, VS Code's chat through
 * the language model provider).
 *
 * Line fields: `time` (ISO), `model`, `operation` (e.g. "vscode-chat", "chat-panel"), `key_name` (the
 * key's display name, NEVER the secret), `usage` (the gateway's usage object as received),
 * `cost_nano` (exact nanocredits as a decimal integer string, or null when the model has no usable
 * rates), `pricing_version`, and `request_id` when the gateway sent one.
 *
 * Writes: appends are serialised within the process, and each line goes out in ONE write on a file
 * opened for appending (O_APPEND), so lines from two windows never interleave on a local filesystem.
 * A line left partial by a crash is closed with a newline before the next append, so it spoils only
 * itself. Reads: a line that is not a valid entry (corrupt, partial, too long) is skipped and logged.
 */
import { promises as fsp, createReadStream } from 'node:fs';
import { dirname } from 'node:path';
import { costOfUsage, PricingError } from '../pricing';
import type { ModelPricing, Usage } from '../gateway/types';

export interface SpendEntry {
  time: string;
  model: string;
  operation: string;
  key_name?: string;
  usage: Usage;
  cost_nano: string | null;
  pricing_version?: string;
  request_id?: string;
}

/** Longest line read back; longer ones are skipped (a ledger line is a few hundred bytes). */
export const MAX_LINE_CHARS = 64 * 1024;

export interface SpendInput {
  model: string;
  operation: string;
  keyName?: string;
  usage: Usage;
  pricing?: ModelPricing;
  requestId?: string;
  now?: Date;
}

/** The entry for one response, priced exactly (src/core/pricing.ts). */
export function spendEntry(input: SpendInput): SpendEntry {
  let cost: string | null = null;
  const p = input.pricing;
  if (p && p.unit === 'credits' && (p.input_per_million !== undefined || p.output_per_million !== undefined)) {
    try {
      cost = costOfUsage(input.usage, p).totalNano.toString();
    } catch (e) {
      if (!(e instanceof PricingError)) throw e;
    }
  }
  return {
    time: (input.now ?? new Date()).toISOString(),
    model: input.model,
    operation: input.operation,
    ...(input.keyName ? { key_name: input.keyName } : {}),
    usage: input.usage,
    cost_nano: cost,
    ...(p?.pricing_version ? { pricing_version: p.pricing_version } : {}),
    ...(input.requestId ? { request_id: input.requestId } : {}),
  };
}

function isEntry(v: unknown): v is SpendEntry {
  const e = v as Partial<SpendEntry> | null;
  return (
    typeof e === 'object' &&
    e !== null &&
    typeof e.time === 'string' &&
    typeof e.model === 'string' &&
    typeof e.operation === 'string' &&
    typeof e.usage === 'object' &&
    e.usage !== null &&
    (e.cost_nano === null || (typeof e.cost_nano === 'string' && /^\d{1,40}$/.test(e.cost_nano)))
  );
}

export interface SpendLedgerOptions {
  file: string;
  log?: (line: string) => void;
}

export class SpendLedger {
  private queue: Promise<void> = Promise.resolve();
  private checkedTail = false;

  constructor(private readonly options: SpendLedgerOptions) {}

  get file(): string {
    return this.options.file;
  }

  /** Appends one entry; resolves once it is written. Failures reject (the caller logs them). */
  append(entry: SpendEntry): Promise<void> {
    const next = this.queue.then(() => this.write(entry));
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async write(entry: SpendEntry): Promise<void> {
    await fsp.mkdir(dirname(this.options.file), { recursive: true });
    const handle = await fsp.open(this.options.file, 'a+');
    try {
      let prefix = '';
      if (!this.checkedTail) {
        const { size } = await handle.stat();
        if (size > 0) {
          const last = Buffer.alloc(1);
          await handle.read(last, 0, 1, size - 1);
          if (last[0] !== 0x0a) prefix = '\n';
        }
        this.checkedTail = true;
      }
      const data = Buffer.from(`${prefix}${JSON.stringify(entry)}\n`, 'utf8');
      const { bytesWritten } = await handle.write(data, 0, data.length);
      if (bytesWritten !== data.length) {
        this.checkedTail = false; // the next append closes the partial line
        throw new Error(`Spend ledger: wrote ${bytesWritten} of ${data.length} bytes`);
      }
    } finally {
      await handle.close();
    }
  }

  /** Every valid entry in file order; bad lines are skipped and counted. A missing file is empty. */
  async read(): Promise<{ entries: SpendEntry[]; skipped: number }> {
    await this.queue;
    const entries: SpendEntry[] = [];
    let skipped = 0;
    let lineNo = 0;
    const take = (line: string, tooLong: boolean): void => {
      lineNo++;
      if (!tooLong && line.trim() === '') return;
      let v: unknown;
      try {
        v = tooLong ? undefined : JSON.parse(line);
      } catch {
        v = undefined;
      }
      if (isEntry(v)) entries.push(v);
      else {
        skipped++;
        this.options.log?.(`Spend ledger: skipped line ${lineNo} (${tooLong ? 'too long' : 'not a valid entry'}).`);
      }
    };
    let stream;
    try {
      await fsp.access(this.options.file);
      stream = createReadStream(this.options.file, { encoding: 'utf8' });
    } catch {
      return { entries, skipped };
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
    return { entries, skipped };
  }
}
