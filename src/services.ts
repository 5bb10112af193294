/**
 * The few shared services every feature gets (see src/extension.ts):
 * - `context`: the ExtensionContext (prefer the narrow pieces below when they suffice);
 * - `log`: the one LogOutputChannel "AI Gateway"; it is also a core `Logger`;
 * - `config`: the typed settings of src/config.ts;
 * - `keys`: the API key manager (`getKey()`, `active`, `status`, `onDidChange`; src/core/keys/keyStore.ts);
 * - `getClient()`: the one shared gateway client (src/core/gateway/api.ts), loaded lazily;
 * - `catalog`: the cached model catalog (src/catalogService.ts, added by the catalog feature).
 *
 * Contract of `getClient()`: resolves to the client for the current settings. Call it per operation
 * rather than keeping the result: when a setting the client depends on changes (base URL, timeouts,
 * retry, proxy), the next call returns a fresh client and the old one is closed once idle.
 */
import * as vscode from 'vscode';
import { affects, bindSettingsSource, effectiveBaseUrl, settings, type Settings } from './config';
import type { IGatewayClient } from './core/gateway/api';
import { Disposable, toDisposable } from './core/lifecycle';
import type { Logger } from './core/log';
import { KeyStore } from './core/keys/keyStore';
import { CatalogService } from './catalogService';

/**
 * What dist/core.js (built from src/core/entry.ts by the HTTP client work) exports. Declared here as a
 * type so this file never pulls the core chunk into the activation bundle.
 */
export interface GatewayClientOptions {
  baseUrl: string;
  /** Bearer token for authenticated routes; undefined means "send none" (the gateway answers 401). */
  getKey: () => Promise<string | undefined>;
  logger: Logger;
  userAgent: string;
  timeouts: { connectMs: number; firstByteMs: number; idleMs: number };
  retry: { maxAttempts: number; maxTotalMs: number };
  network: { proxy?: string; noProxy?: readonly string[]; strictSSL?: boolean };
  env: Readonly<Record<string, string | undefined>>;
}

interface CoreModule {
  createGatewayClient(options: GatewayClientOptions): IGatewayClient;
}

/** Settings whose change means a new client (or dispatcher). */
const CLIENT_SETTINGS = [
  settings.baseUrl,
  'aiGateway.timeouts',
  'aiGateway.retry',
  'http.proxy',
  'http.noProxy',
  'http.proxyStrictSSL',
  'http.proxySupport',
] as const;

export class Services extends Disposable {
  readonly log: vscode.LogOutputChannel;
  readonly config: Settings = settings;
  readonly keys: KeyStore;
  /** The cached model catalog and the shared "models for capability X" query (src/catalogService.ts). */
  readonly catalog: CatalogService;

  private client: IGatewayClient | undefined;
  private readonly userAgent: string;

  constructor(readonly context: vscode.ExtensionContext) {
    super();
    this.log = this._register(vscode.window.createOutputChannel('AI Gateway', { log: true }));
    this._register(toDisposable(bindSettingsSource(vscode.workspace)));
    this.keys = this._register(new KeyStore(context.secrets, context.globalState));

    const version = String((context.extension.packageJSON as { version?: unknown }).version ?? '0.0.0');
    this.userAgent = `ai-gateway-vscode/${version} VSCode/${vscode.version}`;

    this._register(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (affects(e, ...CLIENT_SETTINGS)) this.resetClient('settings changed');
      }),
    );
    this._register(toDisposable(() => this.resetClient('shutting down')));

    const base = effectiveBaseUrl();
    this.log.info(`AI Gateway ${version} activated; gateway ${base.url}${base.fromEnv ? ' (from AI_GATEWAY_BASE_URL)' : ''}`);
    this.catalog = this._register(new CatalogService(this));
  }

  /** The shared client for the active key; see the contract at the top of this file. */
  async getClient(): Promise<IGatewayClient> {
    this.client ??= this.createClient(() => this.keys.getActiveSecret());
    return this.client;
  }

  /**
   * A separate client that authenticates with `getKey` (e.g. a key that is not active yet, during
   * rotation). The caller owns it: dispose it when done if it has `dispose()`.
   */
  createClient(getKey: () => Promise<string | undefined>): IGatewayClient {
    const core = loadCore();
    const http = vscode.workspace.getConfiguration('http');
    const proxySupport = http.get<string>('proxySupport');
    return core.createGatewayClient({
      baseUrl: effectiveBaseUrl().url,
      getKey,
      logger: this.log,
      userAgent: this.userAgent,
      timeouts: {
        connectMs: seconds(settings.connectTimeoutSeconds.get()),
        firstByteMs: seconds(settings.firstByteTimeoutSeconds.get()),
        idleMs: seconds(settings.idleTimeoutSeconds.get()),
      },
      retry: { maxAttempts: Math.max(1, Math.floor(settings.retryMaxAttempts.get())), maxTotalMs: seconds(settings.retryMaxTotalSeconds.get()) },
      // `http.proxySupport: off` means the user wants no proxy from the editor's settings.
      network:
        proxySupport === 'off'
          ? {}
          : { proxy: http.get<string>('proxy'), noProxy: http.get<string[]>('noProxy'), strictSSL: http.get<boolean>('proxyStrictSSL') },
      env: process.env,
    });
  }

  private resetClient(why: string): void {
    const old = this.client;
    this.client = undefined;
    if (old) {
      this.log.debug(`Gateway client reset: ${why}`);
      disposeQuietly(old);
    }
  }
}

function seconds(value: number): number {
  return Math.max(0, value) * 1000;
}

function disposeQuietly(client: IGatewayClient): void {
  const d = (client as Partial<{ dispose(): unknown }>).dispose;
  if (typeof d === 'function') {
    try {
      void Promise.resolve(d.call(client)).catch(() => undefined);
    } catch {
      // best effort: a client that fails to close must not break the settings change
    }
  }
}

let coreModule: CoreModule | undefined;

/**
 * Loads dist/core.js on first use. esbuild marks './core.js' external (esbuild.mjs), so this stays a
 * runtime require next to dist/extension.js and keeps undici out of the activation bundle.
 */
function loadCore(): CoreModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  coreModule ??= require('./core.js') as CoreModule;
  return coreModule;
}
