/**
 * The catalog state machine behind the editor's catalog service, free of vscode so it is tested in
 * plain Node with an injected fetcher, storage and clock.
 *
 * Contract:
 *  - `load()` shows the last good catalog from storage at once (stale, with its age) and never fetches.
 *  - `refresh()` fetches; on success the catalog is replaced, stored and marked fresh. On any failure
 *    (429, network, malformed body, ...) the current catalog is kept unchanged, never emptied, and the
 *    error is reported in the result and the snapshot (G-CAT-13). Concurrent calls share one fetch.
 *  - A repricing (G-CAT-9) is detected against the last stored catalog, so it is reported once even
 *    across windows that share the storage.
 */
import * as l10n from '../l10n';
import { Disposable, Emitter } from '../disposables';
import type { Capability, Model, ModelCatalog } from '../gateway/types';
import { isGatewayError, type GatewayErrorReason } from '../http/errors';
import type { detectRepricing, RepricingReport } from './repricing';
import { modelsForCapability, type ModelsForOptions } from './query';
import { checkDefaultModels, warningKey, type DefaultModelPurpose, type DefaultModelWarning } from './defaults';
import { isRecord } from '../guards';

/** The subset of vscode.Memento the store needs (globalState satisfies it structurally). */
export interface KeyValueStorage {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): PromiseLike<void>;
}

export type CatalogFetcher = (signal?: AbortSignal) => Promise<unknown>;

export const CACHE_KEY = 'aiGateway.catalog.cache';
export const WARNED_DEFAULTS_KEY = 'aiGateway.catalog.warnedDefaults';

interface CachedCatalog {
  v: 1;
  fetchedAt: number;
  catalog: ModelCatalog;
}

export interface CatalogFailure {
  reason: GatewayErrorReason | 'format';
  message: string;
  status?: number;
  requestId?: string;
}

export interface CatalogSnapshot {
  models: readonly Model[];
  /** Where the models came from: nothing yet, the stored cache, or a fetch in this session. */
  source: 'none' | 'cache' | 'network';
  /** Epoch ms of the fetch that produced `models`. */
  fetchedAt?: number;
  /** True when `models` did not come from a successful fetch in this session, or the last refresh failed. */
  stale: boolean;
  /** The failure of the last refresh, cleared by a successful one. */
  lastError?: CatalogFailure;
  loading: boolean;
}

export type RefreshResult =
  | { ok: true; repricing?: RepricingReport; dropped: number }
  /** `cause` is the original error (usually a GatewayError), for the edge to phrase. */
  | { ok: false; error: CatalogFailure; keptCache: boolean; cause: unknown };

export class CatalogFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CatalogFormatError';
  }
}

/**
 * Validates the catalog envelope (G-CAT-1). Entries without a string id cannot be used and are
 * dropped and counted; anything else odd (unknown provider, unknown capability) is kept (G-CAT-2).
 */
export function parseCatalog(raw: unknown): { catalog: ModelCatalog; dropped: number } {
  if (!isRecord(raw) || !Array.isArray(raw.data)) throw new CatalogFormatError('The gateway sent a model catalog without a data list.');
  const data: Model[] = [];
  let dropped = 0;
  for (const entry of raw.data as unknown[]) {
    if (!isRecord(entry) || typeof entry.id !== 'string' || entry.id.length === 0) {
      dropped++;
      continue;
    }
    const m = { ...entry } as unknown as Model;
    if (typeof m.display_name !== 'string') m.display_name = m.id;
    if (typeof m.provider !== 'string') m.provider = '';
    if (typeof m.owned_by !== 'string') m.owned_by = '';
    if (m.capabilities !== undefined && !(Array.isArray(m.capabilities) && m.capabilities.every((c) => typeof c === 'string'))) {
      m.capabilities = undefined;
    }
    if (m.pricing !== undefined && !isRecord(m.pricing)) m.pricing = undefined;
    data.push(m);
  }
  return { catalog: { object: 'list', data }, dropped };
}


export function toFailure(e: unknown): CatalogFailure {
  if (isGatewayError(e)) return { reason: e.reason, message: e.message, status: e.status, requestId: e.requestId };
  if (e instanceof CatalogFormatError) return { reason: 'format', message: e.message };
  return { reason: 'network', message: e instanceof Error ? e.message : String(e) };
}

/** "just now", "5 minutes ago", "3 hours ago", "2 days ago" (in the display language): how old a cached catalog is. */
export function formatAge(ms: number): string {
  const min = Math.floor(Math.max(0, ms) / 60_000);
  if (min < 1) return l10n.t('just now');
  const ago = new Intl.RelativeTimeFormat(l10n.displayLocale(), { numeric: 'always' });
  if (min < 60) return ago.format(-min, 'minute');
  const h = Math.floor(min / 60);
  if (h < 24) return ago.format(-h, 'hour');
  return ago.format(-Math.floor(h / 24), 'day');
}

export interface CatalogStoreOptions {
  fetcher: CatalogFetcher;
  storage: KeyValueStorage;
  /**
   * Repricing detection (G-CAT-9): `detectRepricing` of ./repricing.ts. Injected, not imported, so the
   * editor can load it with the lazy core chunk (it only runs after a fetch, which loaded that chunk)
   * and keep it out of the activation bundle. Required, so no store silently skips G-CAT-9.
   */
  detectRepricing: (...args: Parameters<typeof detectRepricing>) => ReturnType<typeof detectRepricing> | Promise<ReturnType<typeof detectRepricing>>;
  now?: () => number;
}

export class CatalogStore extends Disposable {
  private readonly fetcher: CatalogFetcher;
  private readonly detectRepricing: CatalogStoreOptions['detectRepricing'];
  private readonly storage: KeyValueStorage;
  private readonly now: () => number;
  private snapshot: CatalogSnapshot = { models: [], source: 'none', stale: false, loading: false };
  private byId = new Map<string, Model>();
  private inFlight: Promise<RefreshResult> | undefined;

  private readonly _onDidChange = this._register(new Emitter<CatalogSnapshot>());
  /** Fires whenever the models, staleness, loading flag or last error change. */
  readonly onDidChange = this._onDidChange.event;

  constructor(options: CatalogStoreOptions) {
    super();
    this.fetcher = options.fetcher;
    this.detectRepricing = options.detectRepricing;
    this.storage = options.storage;
    this.now = options.now ?? Date.now;
  }

  get state(): CatalogSnapshot {
    return this.snapshot;
  }

  get models(): readonly Model[] {
    return this.snapshot.models;
  }

  /** Epoch ms age of the shown catalog, or undefined when none is shown. */
  ageMs(): number | undefined {
    return this.snapshot.fetchedAt === undefined ? undefined : this.now() - this.snapshot.fetchedAt;
  }

  getModel(id: string): Model | undefined {
    return this.byId.get(id);
  }

  modelsFor(capability: Capability | readonly Capability[], options?: ModelsForOptions): Model[] {
    return modelsForCapability(this.snapshot.models, capability, this.now(), options);
  }

  /** Shows the stored catalog, if any. Returns true when one was found. A corrupt entry is ignored. */
  load(): boolean {
    const cached = this.readCache();
    if (!cached || this.snapshot.source === 'network') return false;
    this.set({ models: cached.catalog.data, source: 'cache', fetchedAt: cached.fetchedAt, stale: true, loading: this.snapshot.loading });
    return true;
  }

  refresh(signal?: AbortSignal): Promise<RefreshResult> {
    this.inFlight ??= this.doRefresh(signal).finally(() => (this.inFlight = undefined));
    return this.inFlight;
  }

  /**
   * Default-model warnings not yet given for this (purpose, model, state); recorded as given, so each
   * is shown once. A default that is fine again is forgotten, so a later relapse warns again.
   */
  async takeDefaultModelWarnings(defaults: Partial<Record<DefaultModelPurpose, string | undefined>>): Promise<DefaultModelWarning[]> {
    if (this.snapshot.source === 'none') return [];
    const all = checkDefaultModels(defaults, this.snapshot.models, this.now());
    const warned = new Set(this.storage.get<string[]>(WARNED_DEFAULTS_KEY) ?? []);
    const current = new Set(all.map(warningKey));
    const fresh = all.filter((w) => !warned.has(warningKey(w)));
    const keep = [...warned].filter((k) => current.has(k));
    const next = [...keep, ...fresh.map(warningKey)];
    if (next.length !== warned.size || fresh.length) await this.storage.update(WARNED_DEFAULTS_KEY, next);
    return fresh;
  }

  private async doRefresh(signal?: AbortSignal): Promise<RefreshResult> {
    this.set({ ...this.snapshot, loading: true });
    let parsed: { catalog: ModelCatalog; dropped: number };
    try {
      parsed = parseCatalog(await this.fetcher(signal));
    } catch (e) {
      const error = toFailure(e);
      // Keep whatever is shown (cache or an earlier fetch); only the staleness and error change.
      this.set({ ...this.snapshot, stale: this.snapshot.source !== 'none', lastError: error, loading: false });
      return { ok: false, error, keptCache: this.snapshot.models.length > 0, cause: e };
    }
    const previous = this.readCache()?.catalog ?? (this.snapshot.source === 'none' ? undefined : { object: 'list', data: [...this.snapshot.models] });
    const fetchedAt = this.now();
    const repricing = await this.detectRepricing(previous, parsed.catalog);
    this.set({ models: parsed.catalog.data, source: 'network', fetchedAt, stale: false, loading: false });
    const record: CachedCatalog = { v: 1, fetchedAt, catalog: parsed.catalog };
    await this.storage.update(CACHE_KEY, record);
    return { ok: true, repricing, dropped: parsed.dropped };
  }

  private readCache(): CachedCatalog | undefined {
    const raw = this.storage.get<unknown>(CACHE_KEY);
    if (!isRecord(raw) || raw.v !== 1 || typeof raw.fetchedAt !== 'number') return undefined;
    try {
      return { v: 1, fetchedAt: raw.fetchedAt, catalog: parseCatalog(raw.catalog).catalog };
    } catch {
      return undefined;
    }
  }

  private set(next: CatalogSnapshot): void {
    if (next.models !== this.snapshot.models) this.byId = new Map(next.models.map((m) => [m.id, m] as const));
    this.snapshot = next;
    this._onDidChange.fire(next);
  }
}
