/**
 * The gateway's /v1/mcp as an MCP server definition for VS Code's agent mode
 * (contributes.mcpServerDefinitionProviders `aiGateway.mcp`).
 *
 * Why a local relay: VS Code's MCP client cannot guarantee that `run_site_ability` waits for the
 * user (its chat.tools auto-approve settings skip confirmations) nor that an `ambiguous_outcome`
 * write is not repeated by the agent. So the definition is an HTTP server on 127.0.0.1 (random port,
 * random path token) inside this extension host that forwards to the gateway and hides
 * `run_site_ability` (src/core/lm/mcpFilter.ts); site abilities run only through our language model
 * tool, which asks every time and keeps the outcome-unknown ledger (src/lm/siteAbilityTool.ts).
 *
 * Credentials: never in a definition. The relay adds them per forwarded request (a User or Account
 * key, or in JWT mode the identity token with Service-Account / Service-Project), and only towards the
 * configured gateway. `resolveMcpServerDefinition` (called when VS Code starts the server, where UI is
 * allowed) checks they exist and offers to add them; with an Account key it says that site abilities
 * will be refused. The definition's `version` changes with the key, the JWT mode and the base URL, and
 * the change event fires then, so VS Code reconnects and re-lists tools.
 */
import { createHash } from 'node:crypto';
import * as vscode from 'vscode';
import { affects, effectiveBaseUrl, settings } from '../platform/config';
import { joinUrl } from '../core/gateway/joinUrl';
import { Disposable, Emitter } from '../core/disposables';
import type { McpRelay } from '../core/lm/mcpRelay';
import { proxyFetch } from '../platform/network';
import type { Services } from '../services';

export const MCP_PROVIDER_ID = 'aiGateway.mcp';
export const MCP_LABEL = 'AI Gateway';

export type Credentials = { kind: 'key' | 'account-key' | 'jwt'; headers: Record<string, string> } | { kind: 'missing'; why: string; action: { title: string; command: string } };

export class GatewayMcpProvider extends Disposable implements vscode.McpServerDefinitionProvider<vscode.McpHttpServerDefinition> {
  private readonly _onDidChange = this._register(new Emitter<void>());
  readonly onDidChangeMcpServerDefinitions: vscode.Event<void> = (listener, thisArg, disposables) => {
    const d = this._onDidChange.event(thisArg ? listener.bind(thisArg) : listener);
    disposables?.push(d);
    return d;
  };
  private relay: Promise<McpRelay> | undefined;

  constructor(private readonly services: Services) {
    super();
    const changed = (): void => this._onDidChange.fire();
    this._register(services.keys.onDidChange(changed));
    this._register(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (affects(e, settings.baseUrl, settings.mcpAuthentication, settings.mcpServiceAccount, settings.mcpServiceProject)) changed();
      }),
    );
    this._register(services.accountSecrets.onDidChangeJwt(changed));
    this._register({ dispose: () => void this.relay?.then((r) => r.close()).catch(() => undefined) });
  }

  /** What identifies the credentials in use, without any secret: the definition's version. */
  private versionStamp(): string {
    const jwt = settings.mcpAuthentication.get() === 'jwt';
    const who = jwt ? `jwt:${settings.mcpServiceAccount.get()}:${settings.mcpServiceProject.get()}` : `key:${this.services.keys.active?.id ?? 'none'}`;
    return createHash('sha256').update(`${who}|${effectiveBaseUrl().url}`).digest('hex').slice(0, 12);
  }

  async provideMcpServerDefinitions(): Promise<vscode.McpHttpServerDefinition[]> {
    const url = await this.ensureRelay();
    return [new vscode.McpHttpServerDefinition(MCP_LABEL, vscode.Uri.parse(url), {}, this.versionStamp())];
  }

  async resolveMcpServerDefinition(server: vscode.McpHttpServerDefinition): Promise<vscode.McpHttpServerDefinition | undefined> {
    const creds = await this.credentials();
    if (creds.kind === 'missing') {
      const choice = await vscode.window.showWarningMessage(vscode.l10n.t('AI Gateway MCP server: {0}', creds.why), creds.action.title);
      if (choice) await vscode.commands.executeCommand(creds.action.command);
      return undefined;
    }
    if (creds.kind === 'account-key') {
      void vscode.window.showInformationMessage(
        vscode.l10n.t('AI Gateway MCP server: the active key is an Account key, which acts as nobody: site ability tools will be refused. Use a User key (svc_pat_…) for them.'),
      );
    }
    return server;
  }

  /** The credentials for /v1/mcp now (host only: never returned to VS Code or logged). */
  async credentials(): Promise<Credentials> {
    if (settings.mcpAuthentication.get() === 'jwt') {
      const jwt = await this.services.accountSecrets.getJwt();
      const account = settings.mcpServiceAccount.get().trim();
      const project = settings.mcpServiceProject.get().trim();
      if (!jwt) return { kind: 'missing', why: vscode.l10n.t('JWT mode is on, but no identity token is stored.'), action: { title: vscode.l10n.t('Set Identity Token'), command: 'aiGateway.mcp.setJwt' } };
      if (!account || !project) return { kind: 'missing', why: vscode.l10n.t('JWT mode needs {0} and {1}.', 'aiGateway.mcp.serviceAccount', 'aiGateway.mcp.serviceProject'), action: { title: vscode.l10n.t('Open Settings'), command: 'aiGateway.mcp.openSettings' } };
      return { kind: 'jwt', headers: { Authorization: `Bearer ${jwt}`, 'Service-Account': account, 'Service-Project': project } };
    }
    const key = await this.services.keys.getKey();
    if (!key) return { kind: 'missing', why: vscode.l10n.t('add an API key (a User key lets the tools act as you).'), action: { title: vscode.l10n.t('Add API Key'), command: 'aiGateway.addApiKey' } };
    return { kind: this.services.keys.active?.type === 'Account' ? 'account-key' : 'key', headers: { Authorization: `Bearer ${key}` } };
  }

  private ensureRelay(): Promise<string> {
    this.relay ??= import('../core/lm/mcpRelay').then(({ startMcpRelay }) =>
      startMcpRelay({
      upstreamUrl: () => joinUrl(effectiveBaseUrl().url, '/v1/mcp'),
      fetch: proxyFetch(),
      credentials: async () => {
        const c = await this.credentials();
        return c.kind === 'missing' ? { missing: c.why } : { headers: c.headers };
      },
      log: (line) => this.services.log.warn(line),
    }),
    );
    return this.relay.then((r) => r.url);
  }
}
