/**
 * The editor's catalog service (`services.catalog`): the one place every feature gets models from.
 *
 * Contract:
 *  - `models` is never empty when a catalog was ever fetched: the last good catalog is kept in
 *    globalState, shown at once at start-up (stale, with its age) and kept on any fetch failure.
 *  - The first fetch happens on first use (`ensureLoaded()`: the Models view, or a feature needing
 *    models) and on `refresh()`; failures show a non-blocking warning and never throw.
 *  - `modelsFor(capability)` is the shared query (src/core/catalog/query.ts): tool-calling features
 *    ask for 'tools' (G-CAT-3); removed models are never offered (G-CAT-11).
 *  - Default models per purpose live in the `aiGateway.defaultModels.*` settings.
 */
import * as vscode from 'vscode';
import { settings, type Setting } from './config';
import type { IGatewayClient } from '../core/gateway/api';
import type { Capability, Model } from '../core/gateway/types';
import { Disposable, toDisposable } from '../core/disposables';
import type { Logger } from '../core/log';
import { CatalogStore, formatAge, type CatalogSnapshot, type KeyValueStorage, type RefreshResult } from '../core/catalog/catalogStore';
import type { ModelsForOptions } from '../core/catalog/query';
import type { RepricingReport } from '../core/catalog/repricing';
import { PURPOSE_CAPABILITY, type DefaultModelPurpose, type DefaultModelWarning } from '../core/catalog/defaults';

/** The notification code (and the error words it pulls in) loads only when a catalog load fails. */
const notifyError: typeof import('./errorNotifications').showErrorNotification = async (...args) => (await import('./errorNotifications')).showErrorNotification(...args);

const loadRepricing = () => import('../core/catalog/repricing');

/** What the service needs from `Services` (kept narrow so it can be built from fakes). */
export interface CatalogServiceDeps {
  context: { globalState: KeyValueStorage };
  log: Logger & { show?(preserveFocus?: boolean): void };
  getClient(): Promise<IGatewayClient>;
  /** The repricing notice's logic; imported on first use unless a test passes it. */
  repricing?: () => Promise<typeof import('../core/catalog/repricing')>;
}

export const DEFAULT_MODEL_SETTINGS: Readonly<Record<DefaultModelPurpose, Setting<string>>> = {
  chat: settings.defaultChatModel,
  summary: settings.defaultSummaryModel,
  taxonomy: settings.defaultTaxonomyModel,
  alt_text: settings.defaultAltTextModel,
};

/** The Models view id; refresh progress is shown on it. */
export const MODELS_VIEW_ID = 'aiGateway.models';

export class CatalogService extends Disposable {
  private readonly store: CatalogStore;
  private loadedThisSession: Promise<void> | undefined;
  private readonly _onDidChange = this._register(new vscode.EventEmitter<void>());
  /** Fires when the models, their staleness, the loading state or the last error change. */
  readonly onDidChange = this._onDidChange.event;

  constructor(private readonly deps: CatalogServiceDeps) {
    super();
    this.store = this._register(
      new CatalogStore({
        storage: deps.context.globalState,
        fetcher: async (signal) => (await (await deps.getClient()).listModels({ signal })).data,
        detectRepricing: async (previous, next) => (await (deps.repricing ?? loadRepricing)()).detectRepricing(previous, next),
      }),
    );
    this._register(this.store.onDidChange(() => this._onDidChange.fire()));
    if (this.store.load()) {
      deps.log.info(`Model catalog: showing ${this.store.models.length} cached models from ${formatAge(this.store.ageMs() ?? 0)} until refreshed.`);
    }
    this._register(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (Object.values(DEFAULT_MODEL_SETTINGS).some((s) => e.affectsConfiguration(s.key))) void this.checkDefaultModels();
      }),
    );
    this._register(toDisposable(() => (this.loadedThisSession = undefined)));
  }

  get state(): CatalogSnapshot {
    return this.store.state;
  }

  /** Every model in the catalog, including deprecated and removed ones (use `modelsFor` to choose). */
  get models(): readonly Model[] {
    return this.store.models;
  }

  /** Age in ms of the catalog shown, undefined when none. */
  ageMs(): number | undefined {
    return this.store.ageMs();
  }

  getModel(id: string): Model | undefined {
    return this.store.getModel(id);
  }

  /** The shared "models for capability X" query: not removed, deprecated ones last. */
  modelsFor(capability: Capability | readonly Capability[], options?: ModelsForOptions): Model[] {
    return this.store.modelsFor(capability, options);
  }

  /** Fetches once per session (first view / first use); later calls return the same promise. */
  ensureLoaded(): Promise<void> {
    this.loadedThisSession ??= this.refresh().then(() => undefined);
    return this.loadedThisSession;
  }

  /**
   * Fetches the catalog. Never throws: a failure keeps what is shown and raises a non-blocking
   * warning (with Retry), or an error when there is nothing to show.
   */
  async refresh(): Promise<RefreshResult> {
    const result = await vscode.window.withProgress({ location: { viewId: MODELS_VIEW_ID } }, () => this.store.refresh());
    this.loadedThisSession ??= Promise.resolve();
    if (result.ok) {
      this.deps.log.info(`Model catalog: ${this.store.models.length} models fetched.`);
      if (result.dropped) this.deps.log.warn(`Model catalog: ignored ${result.dropped} entries without an id.`);
      if (result.repricing) await this.announceRepricing(result.repricing);
      await this.checkDefaultModels();
    } else {
      this.deps.log.warn(`Model catalog refresh failed (${result.error.reason}${result.error.status ? ` ${result.error.status}` : ''}): ${result.error.message}`);
      // Disposed meanwhile (the window closes, the extension stops, which also breaks the request): no notification.
      if (this._store.isDisposed) return result;
      const retry = () => this.refresh();
      if (result.keptCache) {
        const age = formatAge(this.store.ageMs() ?? 0);
        void notifyError(result.cause, { context: vscode.l10n.t('Could not refresh the model catalog; showing the cached one from {0}', age), retry, severity: 'warning' });
      } else {
        void notifyError(result.cause, { context: vscode.l10n.t('Could not load the model catalog'), retry });
      }
    }
    return result;
  }

  /** The configured default model id for a purpose, or undefined when none is set. */
  getDefaultModel(purpose: DefaultModelPurpose): string | undefined {
    return DEFAULT_MODEL_SETTINGS[purpose].get().trim() || undefined;
  }

  /**
   * The model to use for a purpose: the configured default when it is in the catalog and not removed,
   * else the first model the shared query offers for the purpose's capability.
   */
  resolveDefaultModel(purpose: DefaultModelPurpose): Model | undefined {
    const candidates = this.modelsFor(PURPOSE_CAPABILITY[purpose]);
    const id = this.getDefaultModel(purpose);
    return (id ? candidates.find((m) => m.id === id) : undefined) ?? candidates[0];
  }

  async setDefaultModel(purpose: DefaultModelPurpose, modelId: string | undefined): Promise<void> {
    await vscode.workspace.getConfiguration().update(DEFAULT_MODEL_SETTINGS[purpose].key, modelId ?? '', vscode.ConfigurationTarget.Global);
  }

  private async announceRepricing(report: RepricingReport): Promise<void> {
    const { describeRateChanges } = await (this.deps.repricing ?? loadRepricing)();
    // The notices' words load with the first notice, not at activation.
    await (await import('./catalogNotices')).announceRepricing(report, describeRateChanges, this.deps.log);
  }

  private async checkDefaultModels(): Promise<void> {
    const defaults: Partial<Record<DefaultModelPurpose, string>> = {};
    for (const p of Object.keys(DEFAULT_MODEL_SETTINGS) as DefaultModelPurpose[]) defaults[p] = this.getDefaultModel(p);
    let warnings: DefaultModelWarning[];
    try {
      warnings = await this.store.takeDefaultModelWarnings(defaults);
    } catch (e) {
      this.deps.log.warn(`Could not check the default models: ${e instanceof Error ? e.message : String(e)}`);
      return;
    }
    for (const w of warnings) void this.warnAboutDefault(w);
  }

  private async warnAboutDefault(w: DefaultModelWarning): Promise<void> {
    await (await import('./catalogNotices')).warnAboutDefault(w, this);
  }
}
