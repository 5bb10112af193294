/**
 * The runner's editor-side service: connections per server (lazy SDK chunk), headers from the key
 * manager / JWT mode / SecretStorage, tool lists, and running a call end to end (validate ->
 * confirm -> call with progress and Cancel -> classify -> history). Thin on purpose: protocol,
 * validation, error classification and export live in src/core/mcp.
 */
import * as vscode from 'vscode';
import { affects, settings } from '../config';
import { Disposable, Emitter } from '../core/lifecycle';
import type { Services } from '../services';
import { abilityTarget, isAbilityReadOnly, needsUserKey, NEEDS_USER_KEY_EXPLANATION, RUN_ABILITY_TOOL } from '../core/mcp/abilities';
import { CallHistory, type HistoryEntry } from '../core/mcp/history';
import { toCurl, toJsonRpcRequest } from '../core/mcp/requestExport';
import { classifyToolError } from '../core/mcp/toolErrors';
import type { CredentialKind, McpTool } from '../core/mcp/types';
import type { McpCallError, McpConnection } from '../core/mcp/mcpClient';
import { getProxyFetch, loadMcp } from './mcpChunk';
import { JWT_SECRET_KEY, readServers, secretHeaderValues, type ServerEntry } from './servers';

const HISTORY_STATE_KEY = 'aiGateway.mcp.history';

export type RunOutcome =
  | { kind: 'invalid'; issues: Array<{ path: string; message: string }> }
  | { kind: 'notRun'; reason: string }
  | { kind: 'done'; entry: HistoryEntry };

/** A user-facing "cannot connect" with an optional action, shown in the tree and notifications. */
export class SetupNeededError extends Error {
  constructor(
    message: string,
    readonly action?: { title: string; command: string },
  ) {
    super(message);
  }
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

  constructor(private readonly services: Services) {
    super();
    const state = services.context.globalState;
    this.history = new CallHistory({
      get: () => state.get<HistoryEntry[]>(HISTORY_STATE_KEY),
      set: (entries) => state.update(HISTORY_STATE_KEY, entries),
    });
    this._register(services.keys.onDidChange(() => this.reset()));
    this._register(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (affects(e, 'aiGateway.mcp', settings.baseUrl)) this.reset();
      }),
    );
    this._register(
      services.context.secrets.onDidChange((e) => {
        if (e.key === JWT_SECRET_KEY || e.key.startsWith('aiGateway.mcp.header.')) this.reset();
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
    return readServers();
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

  /** Every header for `server`, secrets included. Host-only: never sent to the webview or logged. */
  async headers(server: ServerEntry): Promise<Record<string, string>> {
    if (server.kind === 'custom') return { ...server.headers, ...(await secretHeaderValues(this.services.context.secrets, server)) };
    if (settings.mcpAuthentication.get() === 'jwt') {
      const jwt = await this.services.context.secrets.get(JWT_SECRET_KEY);
      const account = settings.mcpServiceAccount.get().trim();
      const project = settings.mcpServiceProject.get().trim();
      if (!jwt) throw new SetupNeededError('JWT mode is on, but no identity token is stored.', { title: 'Set Identity Token', command: 'aiGateway.mcp.setJwt' });
      if (!account || !project) {
        throw new SetupNeededError('JWT mode needs aiGateway.mcp.serviceAccount and aiGateway.mcp.serviceProject.', { title: 'Open Settings', command: 'aiGateway.mcp.openSettings' });
      }
      return { Authorization: `Bearer ${jwt}`, 'Service-Account': account, 'Service-Project': project };
    }
    const key = await this.services.keys.getKey();
    if (!key) throw new SetupNeededError('Add an API key to use the gateway tools.', { title: 'Add API Key', command: 'aiGateway.addApiKey' });
    return { Authorization: `Bearer ${key}` };
  }

  private async knownSecrets(server: ServerEntry): Promise<string[]> {
    try {
      return Object.values(await this.headers(server)).filter((v) => v.length >= 8);
    } catch {
      return [];
    }
  }

  connection(server: ServerEntry): Promise<McpConnection> {
    let conn = this.connections.get(server.id);
    if (!conn) {
      // Fail fast (and show the setup action) before loading the SDK when credentials are missing.
      conn = this.headers(server).then(async (first) => {
        const mcp = loadMcp();
        const secrets = Object.values(first);
        return mcp.McpConnection.connect({
          url: server.url,
          fetch: getProxyFetch(),
          getHeaders: () => this.headers(server),
          log: this.services.log,
          requestTimeoutMs: Math.max(1, settings.mcpRequestTimeoutSeconds.get()) * 1000,
          knownSecrets: () => secrets,
          clientInfo: { name: 'ai-gateway-vscode', version: String((this.services.context.extension.packageJSON as { version?: unknown }).version ?? '0.0.0') },
        });
      });
      this.connections.set(server.id, conn);
      conn.catch(() => this.connections.delete(server.id));
    }
    return conn;
  }

  async tools(server: ServerEntry, refresh = false): Promise<McpTool[]> {
    const cached = this.toolCache.get(server.id);
    if (cached && !refresh) return cached;
    const conn = await this.connection(server);
    const { tools } = await conn.listTools();
    this.toolCache.set(server.id, tools);
    return tools;
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
   * Runs one tool call: validates, confirms run_site_ability, calls with a cancellable progress
   * notification, classifies, stores in history. Never retries by itself.
   */
  async run(server: ServerEntry, tool: McpTool, args: Record<string, unknown>, signal?: AbortSignal): Promise<RunOutcome> {
    const mcp = loadMcp();
    const validation = mcp.validateAgainstSchema(tool.inputSchema, args);
    if (!validation.valid) return { kind: 'invalid', issues: validation.issues };
    if (validation.schemaError) this.services.log.warn(`MCP ${tool.name}: ${validation.schemaError}`);

    if (server.kind === 'gateway' && tool.name === RUN_ABILITY_TOOL) {
      const confirmed = await this.confirmAbility(server, args);
      if (!confirmed) return { kind: 'notRun', reason: 'Not run: the confirmation was declined.' };
    }

    const credential = this.credential(server);
    const entry: HistoryEntry = {
      id: `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`,
      serverId: server.id,
      serverLabel: server.label,
      tool: tool.name,
      args,
      startedAt: Date.now(),
      durationMs: 0,
      requestIds: [],
    };
    const started = Date.now();
    await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Running ${tool.name} on ${server.label}…`, cancellable: true },
      async (_progress, token) => {
        const abort = new AbortController();
        const sub = token.onCancellationRequested(() => abort.abort());
        const onOuter = (): void => abort.abort();
        signal?.addEventListener('abort', onOuter, { once: true });
        try {
          const conn = await this.connection(server);
          const out = await conn.callTool(tool.name, args, { signal: abort.signal });
          entry.durationMs = out.durationMs;
          entry.requestIds = out.requestIds;
          entry.result = out.result;
          entry.toolError = classifyToolError(tool.name, out.result, credential);
          if (tool.outputSchema && !out.result.isError && out.result.structuredContent !== undefined) {
            const v = mcp.validateAgainstSchema(tool.outputSchema, out.result.structuredContent);
            entry.outputValidation = { valid: v.valid, issues: v.issues.map((i) => `${i.path || '(root)'} ${i.message}`) };
          } else if (tool.outputSchema && !out.result.isError) {
            entry.outputValidation = { valid: false, issues: ['the tool has an output schema but returned no structuredContent'] };
          }
        } catch (e) {
          entry.durationMs = Date.now() - started;
          entry.failure = this.describeFailure(e, tool.name, credential);
          const ids = (e as Partial<McpCallError>).requestIds;
          if (Array.isArray(ids)) entry.requestIds = ids;
        } finally {
          sub.dispose();
          signal?.removeEventListener('abort', onOuter);
        }
      },
    );
    const stored = await this.history.add(entry);
    this._onDidChangeHistory.fire();
    this.services.log.info(
      `MCP ${server.label} ${tool.name}: ${entry.failure ? `failed (${entry.failure.message})` : entry.toolError ? `tool error ${entry.toolError.code}` : 'ok'} in ${entry.durationMs} ms${entry.requestIds.length ? ` [${entry.requestIds.join(', ')}]` : ''}`,
    );
    if (entry.toolError?.code === 'ambiguous_outcome') {
      void vscode.window.showWarningMessage(`${tool.name}: the write may or may not have happened. Check the site before running it again; it will not be retried automatically.`);
    }
    return { kind: 'done', entry: stored };
  }

  private describeFailure(e: unknown, toolName: string, credential: CredentialKind): NonNullable<HistoryEntry['failure']> {
    if (e instanceof SetupNeededError) return { message: e.message };
    const err = e as Partial<McpCallError> & { message?: string };
    const message = String(err.message ?? e);
    switch (err.reason) {
      case 'authentication':
        return { message: `${message} — check the API key (or identity token).`, status: err.status };
      case 'permission':
        return {
          message: /mcp/.test(message) && /read/.test(message) ? `${message} — tool calls need mcp at write; this key has read only.` : message,
          status: err.status,
        };
      case 'jsonrpc':
        return { message, code: err.code };
      case 'aborted':
        return { message: 'Cancelled before the result arrived. If the tool writes, the change may still have happened.' };
      default:
        if (credential === 'account' && needsUserKey(toolName, credential)) return { message: `${message}\n${NEEDS_USER_KEY_EXPLANATION}`, status: err.status };
        return { message, status: err.status };
    }
  }

  /**
   * The confirmation for run_site_ability: site, ability and arguments, modal. With
   * aiGateway.mcp.confirmReadOnlyAbilities off, abilities the server marks read-only (looked up with
   * list_site_abilities, a read) skip it; anything unknown is confirmed.
   */
  private async confirmAbility(server: ServerEntry, args: Record<string, unknown>): Promise<boolean> {
    const target = abilityTarget(args);
    if (!settings.mcpConfirmReadOnlyAbilities.get() && target.site && target.ability) {
      try {
        const conn = await this.connection(server);
        const list = await conn.callTool('list_site_abilities', { site_id: target.site });
        if (!list.result.isError && isAbilityReadOnly(list.result, target.ability)) return true;
      } catch (e) {
        this.services.log.warn(`MCP: could not check whether ${target.ability} is read-only (${e instanceof Error ? e.message : String(e)}); asking for confirmation.`);
      }
    }
    const detail = [
      `Site: ${target.site ?? '(not given)'}`,
      `Ability: ${target.ability ?? '(not given)'}`,
      `Arguments: ${JSON.stringify(target.input ?? args, null, 2)}`,
      '',
      'This runs on the live site as you and may change it.',
    ].join('\n');
    const run = 'Run Ability';
    const pick = await vscode.window.showWarningMessage(`Run ${target.ability ?? 'this ability'} on ${target.site ?? 'the site'}?`, { modal: true, detail }, run);
    return pick === run;
  }

  /** JSON-RPC request or curl command for a call; the token and secret headers are redacted. */
  async exportRequest(server: ServerEntry, toolName: string, args: Record<string, unknown>, format: 'jsonrpc' | 'curl'): Promise<string> {
    const body = toJsonRpcRequest(toolName, args);
    if (format === 'jsonrpc') return body;
    let headers: Record<string, string> = {};
    try {
      headers = await this.headers(server);
    } catch {
      headers = { Authorization: 'Bearer $AI_GATEWAY_TOKEN' };
    }
    return toCurl({ url: server.url, body, headers, secretHeaderNames: server.secretHeaders, knownSecrets: await this.knownSecrets(server) });
  }
}
