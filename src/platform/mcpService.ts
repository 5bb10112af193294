/**
 * The runner's editor-side service: connections per server (lazy SDK chunk), headers from the key
 * manager / JWT mode / SecretStorage, tool lists, and running a call end to end (validate ->
 * confirm -> call with progress and Cancel -> classify -> history). Thin on purpose: protocol,
 * validation, error classification and export live in src/core/mcp.
 */
import * as vscode from 'vscode';
import { affects, settings } from './config';
import { Disposable, Emitter } from '../core/disposables';
import type { KeyStore } from '../core/keys/keyStore';
import type { AccountSecrets } from './accountSecrets';
import { needsUserKey, NEEDS_USER_KEY_EXPLANATION } from '../core/mcp/abilityKeys';
import type { RunOutcome } from '../core/mcp/toolRunner';
import { CallHistory, type HistoryEntry } from '../core/mcp/history';
import type { CredentialKind, McpTool } from '../core/mcp/types';
import type { McpConnection } from '../core/mcp/mcpClient';
import { proxyFetch } from './network';
import { headerSecretKey, legacyCustomServerId, migrateLegacySecretHeaders, readServers, secretHeaderValues, userCustomServers, type ServerEntry } from './mcpServers';

const HISTORY_STATE_KEY = 'aiGateway.mcp.history';

export type { RunOutcome } from '../core/mcp/toolRunner';

/** A user-facing "cannot connect" with an optional action, shown in the tree and notifications. */
export class SetupNeededError extends Error {
  constructor(
    message: string,
    readonly action?: { title: string; command: string },
  ) {
    super(message);
  }
}

/** What the MCP service needs (src/services.ts composes it). */
export interface McpServiceDeps {
  readonly context: Pick<vscode.ExtensionContext, 'globalState' | 'secrets' | 'extension'>;
  readonly log: vscode.LogOutputChannel;
  readonly keys: Pick<KeyStore, 'onDidChange' | 'active' | 'getKey'>;
  readonly accountSecrets: Pick<AccountSecrets, 'onDidChangeJwt' | 'getJwt'>;
}

export class McpService extends Disposable {
  private readonly _onDidChange = this._register(new Emitter<void>());
  /** Servers, credentials or tool lists changed: views re-read. */
  readonly onDidChange = this._onDidChange.event;
  private readonly _onDidChangeHistory = this._register(new Emitter<void>());
  readonly onDidChangeHistory = this._onDidChangeHistory.event;

  private readonly connections = new Map<string, Promise<McpConnection>>();
  private readonly toolCache = new Map<string, McpTool[]>();
  readonly history: CallHistory;
  /** One-time move of secret headers stored under the old 32-bit server ids (see servers.ts). */
  private readonly migrated: Promise<void>;

  /** The extension's log (the tool panel logs what it ignores). */
  get log(): vscode.LogOutputChannel {
    return this.services.log;
  }

  constructor(private readonly services: McpServiceDeps) {
    super();
    const state = services.context.globalState;
    this.history = new CallHistory({
      get: () => state.get<HistoryEntry[]>(HISTORY_STATE_KEY),
      set: (entries) => state.update(HISTORY_STATE_KEY, entries),
    });
    this.migrated = migrateLegacySecretHeaders(services.context.secrets, this.servers()).then(
      (n) => {
        if (n > 0) services.log.info(`MCP: moved ${n} secret header value(s) to the new server ids.`);
      },
      (e: unknown) => services.log.warn(`MCP: could not move secret headers to the new server ids: ${e instanceof Error ? e.message : String(e)}`),
    );
    this._register(services.keys.onDidChange(() => this.reset()));
    this._register(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (affects(e, 'aiGateway.mcp', settings.baseUrl)) this.reset();
      }),
    );
    this._register(services.accountSecrets.onDidChangeJwt(() => this.reset()));
    this._register(
      services.context.secrets.onDidChange((e) => {
        if (e.key.startsWith('aiGateway.mcp.header.')) this.reset();
      }),
    );
    this._register({ dispose: () => void this.closeAll() });
  }

  /** Stores a call made outside run() (batches) and tells open panels. */
  async record(entry: HistoryEntry): Promise<HistoryEntry> {
    const stored = await this.history.add(entry);
    this._onDidChangeHistory.fire();
    return stored;
  }

  servers(): ServerEntry[] {
    // Custom servers come from the user's own settings only, so a workspace cannot point a stored secret header at its own host: see servers.ts.
    return readServers(userCustomServers(vscode.workspace.getConfiguration()));
  }

  server(id: string): ServerEntry | undefined {
    return this.servers().find((s) => s.id === id);
  }

  /** Which credential calls to `server` use: decides the "needs a User key" marks. */
  credential(server: ServerEntry): CredentialKind {
    if (server.kind === 'custom') return 'custom';
    if (settings.mcpAuthentication.get() === 'jwt') return 'jwt';
    const type = this.services.keys.active?.type;
    return type === 'Account' ? 'account' : type === 'User' ? 'user' : 'none';
  }

  needsUserKey(server: ServerEntry, toolName: string): string | undefined {
    return server.kind === 'gateway' && needsUserKey(toolName, this.credential(server)) ? NEEDS_USER_KEY_EXPLANATION : undefined;
  }

  /**
   * Stores a custom server's secret header value in SecretStorage. This service owns the MCP header
   * secrets (`aiGateway.mcp.header.*`): nothing else reads, writes or deletes them.
   */
  async storeSecretHeader(serverId: string, header: string, value: string): Promise<void> {
    await this.services.context.secrets.store(headerSecretKey(serverId, header), value);
  }

  /** Deletes every secret header value of a custom server (under its id and its legacy id). */
  async deleteSecretHeaders(server: ServerEntry): Promise<void> {
    const secrets = this.services.context.secrets;
    for (const h of server.secretHeaders) {
      await secrets.delete(headerSecretKey(server.id, h));
      await secrets.delete(headerSecretKey(legacyCustomServerId(server.url), h));
    }
  }

  /** Every header for `server`, secrets included. Host-only: never sent to the webview or logged. */
  async headers(server: ServerEntry): Promise<Record<string, string>> {
    if (server.kind === 'custom') {
      await this.migrated;
      return { ...server.headers, ...(await secretHeaderValues(this.services.context.secrets, server)) };
    }
    if (settings.mcpAuthentication.get() === 'jwt') {
      const jwt = await this.services.accountSecrets.getJwt();
      const account = settings.mcpServiceAccount.get().trim();
      const project = settings.mcpServiceProject.get().trim();
      if (!jwt) throw new SetupNeededError(vscode.l10n.t('JWT mode is on, but no identity token is stored.'), { title: vscode.l10n.t('Set Identity Token'), command: 'aiGateway.mcp.setJwt' });
      if (!account || !project) {
        throw new SetupNeededError(vscode.l10n.t('JWT mode needs {0} and {1}.', 'aiGateway.mcp.serviceAccount', 'aiGateway.mcp.serviceProject'), { title: vscode.l10n.t('Open Settings'), command: 'aiGateway.mcp.openSettings' });
      }
      return { Authorization: `Bearer ${jwt}`, 'Service-Account': account, 'Service-Project': project };
    }
    const key = await this.services.keys.getKey();
    if (!key) throw new SetupNeededError(vscode.l10n.t('Add an API key to use the gateway tools.'), { title: vscode.l10n.t('Add API Key'), command: 'aiGateway.addApiKey' });
    return { Authorization: `Bearer ${key}` };
  }

  connection(server: ServerEntry): Promise<McpConnection> {
    let conn = this.connections.get(server.id);
    if (!conn) {
      // Fail fast (and show the setup action) before loading the SDK when credentials are missing.
      conn = this.headers(server).then(async (first) => {
        // The MCP SDK and ajv are imported here, on the first connection.
        const [{ McpConnection }, { secretHeaderValuesFor }] = await Promise.all([import('../core/mcp/mcpClient'), import('../core/mcp/requestExport')]);
        // Only real secrets are masked in logs and errors; plain header values stay readable, so an exported request still runs.
        const secrets = secretHeaderValuesFor(first, server.secretHeaders);
        return McpConnection.connect({
          url: server.url,
          fetch: proxyFetch(),
          getHeaders: () => this.headers(server),
          log: this.services.log,
          requestTimeoutMs: Math.max(1, settings.mcpRequestTimeoutSeconds.get()) * 1000,
          knownSecrets: () => secrets,
          // OAuth sign-in (#42.1) only for servers the user added; the gateway keeps its API key or JWT.
          ...(server.kind === 'custom' ? { oauth: await (await this.signIn()).oauthFor(server) } : {}),
          // Elicitation (#42.2) only for servers the user added: the gateway's /v1/mcp has none.
          ...(server.kind === 'custom' ? { elicit: (await import('./mcpElicit')).elicitHandlerFor(server.label, this.services.log) } : {}),
          // Both protocol eras (#42.3) for servers the user added; the gateway's /v1/mcp speaks initialize.
          era: server.kind === 'custom' ? 'auto' : 'initialize',
          clientInfo: { name: 'ai-gateway-vscode', version: String((this.services.context.extension.packageJSON as { version?: unknown }).version ?? '0.0.0') },
        });
      });
      this.connections.set(server.id, conn);
      conn.catch(() => this.connections.delete(server.id));
    }
    return conn;
  }

  private signInGlue: Promise<import('./mcpOAuth').McpSignIn> | undefined;

  /** The OAuth glue (src/platform/mcpOAuth.ts, the owner of the servers' tokens), loaded on first use. */
  signIn(): Promise<import('./mcpOAuth').McpSignIn> {
    this.signInGlue ??= import('./mcpOAuth').then((m) => this._register(new m.McpSignIn(this.services.context.secrets, this.services.context.extension.id)));
    return this.signInGlue;
  }

  /** Sign Out (#42.1): forgets the server's OAuth tokens and drops its connection. */
  async signOut(server: ServerEntry): Promise<void> {
    await (await this.signIn()).signOut(server.id);
    const conn = this.connections.get(server.id);
    this.connections.delete(server.id);
    this.toolCache.delete(server.id);
    await conn?.then((c) => c.close()).catch(() => undefined);
    this._onDidChange.fire();
  }

  async tools(server: ServerEntry, refresh = false): Promise<McpTool[]> {
    const cached = this.toolCache.get(server.id);
    if (cached && !refresh) return cached;
    const conn = await this.connection(server);
    const { tools } = await conn.listTools();
    this.toolCache.set(server.id, tools);
    return tools;
  }

  /** The server's instructions from initialize as sent, when connected (untrusted: show through toolHints.ts serverInstructions, #42.4). */
  async instructions(id: string): Promise<string | undefined> {
    return (await this.connections.get(id)?.catch(() => undefined))?.server.instructions;
  }

  cachedTool(serverId: string, name: string): McpTool | undefined {
    return this.toolCache.get(serverId)?.find((t) => t.name === name);
  }

  refresh(): void {
    this.reset();
  }

  private reset(): void {
    void this.closeAll();
    this._onDidChange.fire();
  }

  private async closeAll(): Promise<void> {
    const all = [...this.connections.values()];
    this.connections.clear();
    this.toolCache.clear();
    await Promise.all(all.map((c) => c.then((x) => x.close()).catch(() => undefined)));
  }

  /**
   * Runs one tool call (src/core/mcp/toolRunner.ts): validate, confirm run_site_ability (modal),
   * call under a cancellable progress notification, classify, store. Never retries by itself.
   */
  async run(server: ServerEntry, tool: McpTool, args: Record<string, unknown>, signal?: AbortSignal): Promise<RunOutcome> {
    // The call's glue (mcpRun.ts) loads with the first run: activation only needs the service's state.
    const { runMcpTool } = await import('./mcpRun');
    const out = await runMcpTool({ credential: this.credential(server), connection: () => this.connection(server), history: this.history, log: this.services.log }, server, tool, args, signal);
    if (out.kind === 'done') this._onDidChangeHistory.fire();
    return out;
  }

  /** JSON-RPC request or curl command for a call; the token and secret headers become shell variables. */
  async exportRequest(server: ServerEntry, toolName: string, args: Record<string, unknown>, format: 'jsonrpc' | 'curl'): Promise<string> {
    let headers: Record<string, string> | undefined;
    try {
      headers = await this.headers(server);
    } catch {
      headers = undefined; // No credential yet: the export still shows where the token goes.
    }
    const { composeExport } = await import('../core/mcp/requestExport');
    return composeExport({ format, toolName, args, url: server.url, headers, secretHeaderNames: server.secretHeaders });
  }
}
