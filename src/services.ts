/**
 * The few shared services every feature gets (see src/extension.ts):
 * - `context`: the ExtensionContext (prefer the narrow pieces below when they suffice);
 * - `log`: the one LogOutputChannel "AI Gateway"; it is also a core `Logger`; every line written
 *   through it is redacted (src/redactingLog.ts);
 * - `config`: the typed settings of src/config.ts;
 * - `keys`: the API key manager (`getKey()`, `active`, `status`, `onDidChange`; src/core/keys/keyStore.ts);
 * - `getClient()`: the one shared gateway client (src/core/gateway/api.ts), loaded lazily;
 * - `network()`: the one network layer (src/core/http/network.ts): connection pool, proxy, timeouts,
 *   user agent, retry policy, size limits and the plain-http credential check, shared by the gateway
 *   client, analytics, the hosting API and the MCP transport; loaded lazily;
 * - `catalog`: the cached model catalog (src/catalogService.ts, added by the catalog feature).
 *
 * Contract of `getClient()`: resolves to the shared client (loading dist/core.js on first use; rejects
 * if the chunk is missing). Base URL, timeouts, retry and proxy settings are read per request, through
 * the shared network layer, so a settings change applies to the next request of every client. Never
 * dispose the shared client.
 */
import * as vscode from 'vscode';
import { confirmRisky } from './safeDialog';
import { allowEnvironmentOverrides, BASE_URL_ENV, bindSettingsSource, effectiveBaseUrl, PLACEHOLDER_BASE_URL, settings, type Settings } from './config';
import { HOSTING_BASE_URL_ENV } from './core/account/hostingUrl';
import type { IGatewayClient } from './core/gateway/api';
import type { GatewayClient } from './core/gateway/gatewayClient';
import type { NetworkSettings } from './core/http/dispatcher';
import type { Network } from './core/http/network';
import { Disposable, toDisposable } from './core/lifecycle';
import { KeyStore } from './core/keys/keyStore';
import { CatalogService } from './catalogService';
import { loadCoreChunk } from './lazy';
import { createRedactingLog } from './redactingLog';

export class Services extends Disposable {
  readonly log: vscode.LogOutputChannel;
  readonly config: Settings = settings;
  readonly keys: KeyStore;
  /** The cached model catalog and the shared "models for capability X" query (src/catalogService.ts). */
  readonly catalog: CatalogService;

  private client: GatewayClient | undefined;
  /** The one user agent of every request: "ai-gateway-vscode/<version> VSCode/<version>". */
  readonly userAgent: string;

  constructor(readonly context: vscode.ExtensionContext) {
    super();
    this.log = this._register(createRedactingLog('AI Gateway'));
    this._register(toDisposable(bindSettingsSource(vscode.workspace)));
    this.keys = this._register(new KeyStore(context.secrets, context.globalState));

    const version = String((context.extension.packageJSON as { version?: unknown }).version ?? '0.0.0');
    this.userAgent = `ai-gateway-vscode/${version} VSCode/${vscode.version}`;
    // Address overrides from the environment only when running from source (F5, tests): an installed
    // extension's environment may come from a cloned repository's devcontainer.json.
    allowEnvironmentOverrides(context.extensionMode !== vscode.ExtensionMode.Production);
    const factory = (): Network => this.network();
    sharedNetworkFactory = factory;

    this._register(
      toDisposable(() => {
        this.client = undefined;
        const net = this.net;
        this.net = undefined;
        if (sharedNetworkFactory === factory) sharedNetworkFactory = undefined;
        void net?.dispose().catch(() => undefined);
      }),
    );

    const base = effectiveBaseUrl();
    this.log.info(`AI Gateway ${version} activated; gateway ${base.url}${base.fromEnv ? ` (from ${BASE_URL_ENV})` : ''}`);
    const ignored = [BASE_URL_ENV, HOSTING_BASE_URL_ENV].filter((n) => process.env[n]?.trim() && context.extensionMode === vscode.ExtensionMode.Production);
    if (ignored.length > 0) this.log.warn(`${ignored.join(', ')} ignored: read only when running from source.`);
    if (base.url === PLACEHOLDER_BASE_URL) this.log.warn(`aiGateway.baseUrl is still the placeholder ${PLACEHOLDER_BASE_URL}: set your gateway's address.`);
    this.catalog = this._register(new CatalogService(this));
  }

  private net: Network | undefined;

  /**
   * The one network layer (loads dist/core.js on first use). Every client goes through it: a change
   * of `http.proxy*`, `aiGateway.timeouts.*` or `aiGateway.retry.*` applies to the next request of all.
   */
  network(): Network {
    this.net ??= new (loadCoreChunk().Network)({
      settings: networkSettings,
      timeouts: () => ({
        connectMs: seconds(settings.connectTimeoutSeconds.get()),
        firstByteMs: seconds(settings.firstByteTimeoutSeconds.get()),
        idleMs: seconds(settings.idleTimeoutSeconds.get()),
      }),
      retry: () => ({
        maxAttempts: Math.max(1, Math.floor(settings.retryMaxAttempts.get())),
        maxTotalMs: seconds(settings.retryMaxTotalSeconds.get()),
      }),
      userAgent: this.userAgent,
      env: process.env,
      confirmInsecureCredential: confirmPlainHttpCredential,
    });
    return this.net;
  }

  /** The shared client for the active key; see the contract at the top of this file. */
  async getClient(): Promise<IGatewayClient> {
    // Deliberately typed as IGatewayClient: features must not dispose the shared client.
    this.client ??= this.createClient(this.keys.getKey);
    return this.client;
  }

  /**
   * A separate client that authenticates with `getKey` (e.g. a key that is not active yet, during
   * rotation). The caller owns it and calls `dispose()` when done.
   */
  createClient(getKey: () => Promise<string | undefined>): GatewayClient {
    return loadCoreChunk().createGatewayClient({ baseUrl: () => effectiveBaseUrl().url, getKey, logger: this.log, net: this.network() });
  }
}

let sharedNetworkFactory: (() => Network) | undefined;

/**
 * The shared network layer for code without a Services at hand (src/mcp/mcpApi.ts). Throws before
 * activation created the Services.
 */
export function sharedNetwork(): Network {
  if (!sharedNetworkFactory) throw new Error('Not activated');
  return sharedNetworkFactory();
}

/**
 * Asked by the network layer before a credential goes over plain http:// to a host that is not
 * loopback: a modal naming the host, Continue or Cancel. The layer remembers a Continue per host for
 * the session and shares one prompt between parallel requests.
 */
async function confirmPlainHttpCredential(url: URL): Promise<boolean> {
  return confirmRisky({ message: `Send credentials to ${url.host} over plain http://?`, detail: 'Anyone on the way could read and use it. Prefer https://.', safe: "Don't Send", action: 'Continue' });
}

/**
 * The editor's proxy settings, the one reader of them; `http.proxySupport: off` means "no proxy from
 * the editor's settings".
 */
export function networkSettings(): NetworkSettings {
  const http = vscode.workspace.getConfiguration('http');
  if (http.get<string>('proxySupport') === 'off') return {};
  return { proxy: http.get<string>('proxy'), noProxy: http.get<string[]>('noProxy'), strictSSL: http.get<boolean>('proxyStrictSSL') };
}

function seconds(value: number): number {
  return Math.max(0, value) * 1000;
}
