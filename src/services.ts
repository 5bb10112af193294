/**
 * The few shared services every feature gets (see src/extension.ts):
 * - `context`: the ExtensionContext (prefer the narrow pieces below when they suffice);
 * - `log`: the one LogOutputChannel "AI Gateway"; it is also a core `Logger`; every line written
 *   through it is redacted (src/redactingLog.ts);
 * - `config`: the typed settings of src/config.ts;
 * - `keys`: the API key manager (`getKey()`, `active`, `status`, `onDidChange`; src/core/keys/keyStore.ts);
 * - `getClient()`: the one shared gateway client (src/core/gateway/api.ts), loaded lazily;
 * - `catalog`: the cached model catalog (src/catalogService.ts, added by the catalog feature).
 *
 * Contract of `getClient()`: resolves to the shared client (loading dist/core.js on first use; rejects
 * if the chunk is missing). Call it per operation rather than keeping the result: base URL, timeouts
 * and proxy settings apply to the next request of the same client, but a change of the retry settings
 * makes the next call return a new client. Never dispose the shared client.
 */
import * as vscode from 'vscode';
import { affects, bindSettingsSource, effectiveBaseUrl, PLACEHOLDER_BASE_URL, settings, type Settings } from './config';
import type { IGatewayClient } from './core/gateway/api';
import type { GatewayClient } from './core/gateway/gatewayClient';
import { Disposable, toDisposable } from './core/lifecycle';
import { KeyStore } from './core/keys/keyStore';
import { CatalogService } from './catalogService';
import { createRedactingLog } from './redactingLog';

/** What dist/core.js exports (src/core/entry.ts). Type-only: the chunk itself is loaded by loadCore(). */
export type CoreModule = typeof import('./core/entry');

/**
 * Base URL, timeouts and proxy settings are handed to the client as getters: it reads them per call and
 * rebuilds its dispatcher when they change, so a running stream is not cut by a settings change. Retry
 * settings are fixed per client, so changing them makes the next getClient() build a new client.
 */
const RETRY_SECTION = 'aiGateway.retry';

export class Services extends Disposable {
  readonly log: vscode.LogOutputChannel;
  readonly config: Settings = settings;
  readonly keys: KeyStore;
  /** The cached model catalog and the shared "models for capability X" query (src/catalogService.ts). */
  readonly catalog: CatalogService;

  private client: GatewayClient | undefined;
  private readonly userAgent: string;

  constructor(readonly context: vscode.ExtensionContext) {
    super();
    this.log = this._register(createRedactingLog('AI Gateway'));
    this._register(toDisposable(bindSettingsSource(vscode.workspace)));
    this.keys = this._register(new KeyStore(context.secrets, context.globalState));

    const version = String((context.extension.packageJSON as { version?: unknown }).version ?? '0.0.0');
    this.userAgent = `ai-gateway-vscode/${version} VSCode/${vscode.version}`;

    this._register(
      vscode.workspace.onDidChangeConfiguration((e) => {
        // The old client is not disposed here: that would fail its in-flight requests (a running
        // chat stream). Its sockets close on their own once idle (undici keep-alive timeout).
        if (affects(e, RETRY_SECTION) && this.client) {
          this.log.debug('Retry settings changed: the next request uses a new gateway client.');
          this.client = undefined;
        }
      }),
    );
    this._register(
      toDisposable(() => {
        void this.client?.dispose().catch(() => undefined);
        this.client = undefined;
      }),
    );

    const base = effectiveBaseUrl();
    this.log.info(`AI Gateway ${version} activated; gateway ${base.url}${base.fromEnv ? ' (from AI_GATEWAY_BASE_URL)' : ''}`);
    if (base.url === PLACEHOLDER_BASE_URL) this.log.warn(`aiGateway.baseUrl is still the placeholder ${PLACEHOLDER_BASE_URL}: set your gateway's address.`);
    this.catalog = this._register(new CatalogService(this));
  }

  /** The shared client for the active key; see the contract at the top of this file. */
  async getClient(): Promise<IGatewayClient> {
    // Deliberately typed as IGatewayClient: features must not dispose the shared client.
    this.client ??= this.createClient(this.keys.getKey);
    return this.client;
  }

  /**
   * The lazily loaded chunk dist/core.js (src/core/entry.ts): command-time logic kept out of the
   * activation bundle (undici, `yaml`, content and account logic). Features import only types from
   * those core modules and call the values through this, when a command runs; the first call loads
   * the chunk, later ones get Node's cached module. Rejects when the chunk is missing.
   */
  async loadCore(): Promise<CoreModule> {
    return loadCore();
  }

  /**
   * A separate client that authenticates with `getKey` (e.g. a key that is not active yet, during
   * rotation). The caller owns it and calls `dispose()` when done.
   */
  createClient(getKey: () => Promise<string | undefined>): GatewayClient {
    return loadCore().createGatewayClient({
      baseUrl: () => effectiveBaseUrl().url,
      getKey,
      logger: this.log,
      userAgent: this.userAgent,
      timeouts: () => ({
        connectMs: seconds(settings.connectTimeoutSeconds.get()),
        firstByteMs: seconds(settings.firstByteTimeoutSeconds.get()),
        idleMs: seconds(settings.idleTimeoutSeconds.get()),
      }),
      retry: {
        maxAttempts: Math.max(1, Math.floor(settings.retryMaxAttempts.get())),
        maxTotalMs: seconds(settings.retryMaxTotalSeconds.get()),
      },
      network: () => networkSettings(),
      env: process.env,
    });
  }
}

/** The editor's proxy settings; `http.proxySupport: off` means "no proxy from the editor's settings". */
function networkSettings(): { proxy?: string; noProxy?: readonly string[]; strictSSL?: boolean } {
  const http = vscode.workspace.getConfiguration('http');
  if (http.get<string>('proxySupport') === 'off') return {};
  return { proxy: http.get<string>('proxy'), noProxy: http.get<string[]>('noProxy'), strictSSL: http.get<boolean>('proxyStrictSSL') };
}

function seconds(value: number): number {
  return Math.max(0, value) * 1000;
}

let coreModule: CoreModule | undefined;

/**
 * Loads dist/core.js on first use. esbuild marks './core.js' external (esbuild.mjs), so this stays a
 * runtime require next to dist/extension.js and keeps undici out of the activation bundle. Exported for
 * code without a Services at hand (src/account/accountChunk.ts); prefer `services.loadCore()`.
 */
export function loadCore(): CoreModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  coreModule ??= require('./core.js') as CoreModule;
  return coreModule;
}
