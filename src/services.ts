/**
 * The few shared services every feature gets (see src/extension.ts):
 * - `context`: the ExtensionContext (prefer the narrow pieces below when they suffice);
 * - `log`: the one LogOutputChannel "AI Gateway"; it is also a core `Logger`; every line written
 *   through it is redacted (src/platform/redactingLog.ts);
 * - `config`: the typed settings of src/platform/config.ts;
 * - `keys`: the API key manager (`getKey()`, `active`, `status`, `onDidChange`; src/core/keys/keyStore.ts);
 * - `getClient()`: the one shared gateway client (src/core/gateway/api.ts), loaded lazily;
 * - `network()`: the one network layer (src/core/http/network.ts): connection pool, proxy, timeouts,
 *   user agent, retry policy, size limits and the plain-http credential check, shared by the gateway
 *   client, analytics, the hosting API and the MCP transport; loaded lazily (undici is in its chunk);
 * - `catalog`: the cached model catalog (src/platform/catalogService.ts, added by the catalog feature);
 * - `spend`, `budget`, `accountSecrets`, `accountClients`: the platform layer (src/platform/), editor
 *   services that several features use: the spend ledger, the budget guard, the identity token and
 *   hosting credentials, the analytics and hosting clients.
 *
 * Contract of `getClient()`: resolves to the shared client (its code is imported on first use). Base URL, timeouts, retry and proxy settings are read per request, through
 * the shared network layer, so a settings change applies to the next request of every client. Never
 * dispose the shared client.
 */
import * as vscode from 'vscode';
import { confirmRisky } from './platform/safeDialog';
import { allowEnvironmentOverrides, BASE_URL_ENV, bindSettingsSource, effectiveBaseUrl, PLACEHOLDER_BASE_URL, settings, type Settings } from './platform/config';
import { HOSTING_BASE_URL_ENV } from './core/account/hostingUrl';
import type { IGatewayClient } from './core/gateway/api';
import type { GatewayClient } from './core/gateway/gatewayClient';
import type { NetworkSettings } from './core/http/dispatcher';
import type { Network } from './core/http/network';
import type { ProxyAuthHooks } from './core/http/proxyAuth';
import { Disposable, toDisposable, type IDisposable } from './core/disposables';
import { KeyStore } from './core/keys/keyStore';
import { CatalogService, type CatalogServiceDeps } from './platform/catalogService';
import { AccountClients, type AccountClientsDeps } from './platform/accountClients';
import { AccountSecrets } from './platform/accountSecrets';
import { BudgetService, type BudgetServiceDeps } from './platform/budgetService';
import { SpendService, type SpendServiceDeps } from './platform/spendService';
import { createRedactingLog } from './platform/redactingLog';
import { bindSharedNetwork } from './platform/network';
import type { ChatHandoffDeps } from './platform/chatHandoff';
import type { ContentSendDeps } from './platform/contentSend';
import type { DefaultModelDeps } from './platform/defaultModel';
import type { McpServiceDeps } from './platform/mcpService';
import type { RecordingDeps } from './platform/recordingClient';

/**
 * Each platform service declares the narrow dependencies it needs beside itself; Services composes them
 * and satisfies every one (this alias fails to compile otherwise). src/platform never imports this file.
 */
type PlatformDeps = AccountClientsDeps & BudgetServiceDeps & CatalogServiceDeps & ChatHandoffDeps & ContentSendDeps & DefaultModelDeps & McpServiceDeps & RecordingDeps & SpendServiceDeps;
type Composes<T extends PlatformDeps> = T;
export type ServicesComposesPlatformDeps = Composes<Services>;

export class Services extends Disposable {
  readonly log: vscode.LogOutputChannel;
  readonly config: Settings = settings;
  readonly keys: KeyStore;
  /** The cached model catalog and the shared "models for capability X" query (src/platform/catalogService.ts). */
  readonly catalog: CatalogService;
  /** The local spend ledger: every priced reply of every surface is recorded here (src/platform/spendService.ts). */
  readonly spend: SpendService;
  /** The budget guard to await before a billed send, and its status bar item (src/platform/budgetService.ts). */
  readonly budget: BudgetService;
  /** The identity token (JWT) and the hosting credentials, in SecretStorage (src/platform/accountSecrets.ts). */
  readonly accountSecrets: AccountSecrets;
  /** The usage analytics and hosting API clients, imported on first use (src/platform/accountClients.ts). */
  readonly accountClients: AccountClients;

  private client: Promise<GatewayClient> | undefined;
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
    const unbindNetwork = bindSharedNetwork((): Promise<Network> => this.network());

    this._register(
      toDisposable(() => {
        this.client = undefined;
        const net = this.net;
        this.net = undefined;
        unbindNetwork();
        void net?.then((n) => n.dispose()).catch(() => undefined);
      }),
    );

    const base = effectiveBaseUrl();
    this.log.info(`AI Gateway ${version} activated; gateway ${base.url}${base.fromEnv ? ` (from ${BASE_URL_ENV})` : ''}`);
    const ignored = [BASE_URL_ENV, HOSTING_BASE_URL_ENV].filter((n) => process.env[n]?.trim() && context.extensionMode === vscode.ExtensionMode.Production);
    if (ignored.length > 0) this.log.warn(`${ignored.join(', ')} ignored: read only when running from source.`);
    if (base.url === PLACEHOLDER_BASE_URL) this.log.warn(`aiGateway.baseUrl is still the placeholder ${PLACEHOLDER_BASE_URL}: set your gateway's address.`);
    this.catalog = this._register(new CatalogService(this));
    this.spend = this._register(new SpendService(this));
    this.budget = this._register(new BudgetService(this, this.spend));
    this.accountSecrets = new AccountSecrets(context.secrets);
    this.accountClients = this._register(new AccountClients(this.accountSecrets, this));
  }

  /**
   * Ties `d` to the extension's lifetime: the root store (src/extension.ts) owns Services, so `d` is
   * disposed with the extension. The one way code adds a disposable beyond its own store; nothing uses
   * `context.subscriptions` but extension.ts (test/unit/layering.test.ts).
   */
  own<T extends IDisposable>(d: T): T {
    return this._register(d);
  }

  private net: Promise<Network> | undefined;

  /**
   * The one network layer (imported with undici on first use). Every client goes through it: a change
   * of `http.proxy*`, `aiGateway.timeouts.*` or `aiGateway.retry.*` applies to the next request of all.
   */
  network(): Promise<Network> {
    this.net ??= Promise.all([import('./core/http/network'), import('./platform/proxyCredentials')]).then(([{ Network }, { proxyCredentialHooks }]) =>
      this.createNetwork(Network, proxyCredentialHooks(this.context.secrets)),
    );
    return this.net;
  }

  private createNetwork(NetworkClass: typeof Network, proxyAuth: ProxyAuthHooks): Network {
    return new NetworkClass({
      settings: networkSettings,
      proxyAuth,
      log: (line) => this.log.info(line),
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
  }

  /** The shared client for the active key; see the contract at the top of this file. */
  async getClient(): Promise<IGatewayClient> {
    // Deliberately typed as IGatewayClient: features must not dispose the shared client.
    this.client ??= this.createClient(this.keys.getKey);
    this.client.catch(() => (this.client = undefined));
    return this.client;
  }

  /**
   * A separate client that authenticates with `getKey` (e.g. a key that is not active yet, during
   * rotation). The caller owns it and calls `dispose()` when done.
   */
  async createClient(getKey: () => Promise<string | undefined>): Promise<GatewayClient> {
    const [{ createGatewayClient }, net] = await Promise.all([import('./core/gateway/gatewayClient'), this.network()]);
    return createGatewayClient({ baseUrl: () => effectiveBaseUrl().url, getKey, logger: this.log, net });
  }
}

/**
 * Asked by the network layer before a credential goes over plain http:// to a host that is not
 * loopback: a modal naming the host, Send Credentials or Don't Send. The layer remembers a Continue per host for
 * the session and shares one prompt between parallel requests.
 */
async function confirmPlainHttpCredential(url: URL): Promise<boolean> {
  return confirmRisky({
    message: vscode.l10n.t('Send credentials to {0} over plain http://?', url.host),
    detail: vscode.l10n.t('Anyone on the way could read and use it. Prefer https://.'),
    safe: vscode.l10n.t("Don't Send"),
    action: vscode.l10n.t('Send Credentials'),
  });
}

/**
 * The editor's proxy and certificate settings, the one reader of them; `http.proxySupport: off` means
 * "no proxy from the editor's settings". `http.systemCertificates` (default true, as in VS Code) adds
 * the operating system's certificate store to the trusted authorities, whatever the proxy settings.
 */
export function networkSettings(): NetworkSettings {
  const http = vscode.workspace.getConfiguration('http');
  const systemCertificates = http.get<boolean>('systemCertificates') ?? true;
  if (http.get<string>('proxySupport') === 'off') return { systemCertificates };
  return { proxy: http.get<string>('proxy'), noProxy: http.get<string[]>('noProxy'), strictSSL: http.get<boolean>('proxyStrictSSL'), systemCertificates };
}

function seconds(value: number): number {
  return Math.max(0, value) * 1000;
}
