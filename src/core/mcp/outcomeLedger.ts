/**
 * The outcome-unknown ledger (G-MCP-13): every `run_site_ability` call that ended in
 * `ambiguous_outcome` is remembered by a fingerprint of (site, ability, input), so the same write is
 * never repeated automatically, by an agent loop or a retry, in VS Code's agent mode (src/lm) as in
 * our own chat. A repeat is only possible after the user, told that the first one may already have
 * happened, chooses to run it again.
 *
 * The fingerprint is the SHA-256 of canonical JSON (object keys sorted), so argument order does not
 * matter. Storage is a small key-value store (globalState in the editor); entries expire after
 * RETENTION_MS and at most MAX_ENTRIES are kept (oldest dropped), so it never grows without bound.
 */
import { createHash } from 'node:crypto';

export const MAX_ENTRIES = 200;
/** Where the editor keeps the ledger (globalState): one ledger for VS Code's agent path and agent chat. */
export const OUTCOME_LEDGER_STATE_KEY = 'aiGateway.lm.outcomeUnknown';
export const RETENTION_MS = 7 * 24 * 3600_000;

export interface OutcomeUnknownEntry {
  fingerprint: string;
  site: string;
  ability: string;
  /** ISO time of the call whose outcome is unknown. */
  at: string;
  requestId?: string;
}

export interface LedgerStorage {
  get(): readonly OutcomeUnknownEntry[] | undefined;
  set(entries: OutcomeUnknownEntry[]): PromiseLike<void> | void;
}

function canonical(value: unknown, depth = 0): string {
  if (depth > 64) throw new Error('arguments nested too deeply');
  if (Array.isArray(value)) return `[${value.map((v) => canonical(v, depth + 1)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value as Record<string, unknown>).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k], depth + 1)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function fingerprint(site: string, ability: string, input: unknown): string {
  return createHash('sha256').update(canonical({ site, ability, input })).digest('hex');
}

export class OutcomeLedger {
  constructor(
    private readonly storage: LedgerStorage,
    private readonly now: () => number = Date.now,
  ) {}

  private live(): OutcomeUnknownEntry[] {
    const cutoff = this.now() - RETENTION_MS;
    const raw = this.storage.get();
    if (!Array.isArray(raw)) return [];
    return raw.filter((e) => e && typeof e.fingerprint === 'string' && typeof e.at === 'string' && Date.parse(e.at) >= cutoff);
  }

  /** The earlier call with the same fingerprint whose outcome is unknown, if any. */
  find(site: string, ability: string, input: unknown): OutcomeUnknownEntry | undefined {
    const fp = fingerprint(site, ability, input);
    return this.live().find((e) => e.fingerprint === fp);
  }

  async recordUnknown(site: string, ability: string, input: unknown, requestId?: string): Promise<OutcomeUnknownEntry> {
    const entry: OutcomeUnknownEntry = { fingerprint: fingerprint(site, ability, input), site, ability, at: new Date(this.now()).toISOString(), ...(requestId ? { requestId } : {}) };
    const entries = this.live().filter((e) => e.fingerprint !== entry.fingerprint);
    entries.push(entry);
    await this.storage.set(entries.slice(-MAX_ENTRIES));
    return entry;
  }

  /** The user checked the site and the earlier write is settled (it happened, or it did not). */
  async clear(site: string, ability: string, input: unknown): Promise<void> {
    const fp = fingerprint(site, ability, input);
    await this.storage.set(this.live().filter((e) => e.fingerprint !== fp));
  }
}
