/**
 * `aiGateway_runSiteAbility`: the ONLY way VS Code's agent mode runs a site ability (the MCP relay of
 * mcpProvider.ts hides run_site_ability). The decisions (ask every time, refuse an identical repeat of
 * an outcome-unknown write unless the user picks "Run Again Anyway") live in
 * src/core/lm/siteAbilityRun.ts; this adapter supplies VS Code's pieces:
 *
 *  - the question is a modal dialog rather than only prepareInvocation's confirmation, because
 *    VS Code's chat.tools auto-approve settings can skip tool confirmations; they cannot skip this;
 *  - prepareInvocation shows the same site / ability / arguments in the chat as the call runs;
 *  - the outcome-unknown ledger lives in globalState (it outlives the window).
 *
 * The decisions, the ledger and the MCP SDK are imported when the tool is first prepared or run, so
 * only this adapter is in the activation entry.
 */
import * as vscode from 'vscode';
import { confirmRisky } from '../platform/safeDialog';
import { effectiveBaseUrl } from '../platform/config';
import { joinUrl } from '../core/gateway/joinUrl';
import { SITE_ABILITY_LM_TOOL } from '../core/lm/siteAbilityName';
import type { AbilitySession, SiteAbilityDeps } from '../core/lm/siteAbilityRun';
import type { OutcomeLedger, OutcomeUnknownEntry } from '../core/mcp/outcomeLedger';
import { proxyFetch } from '../platform/network';
import type { Services } from '../services';
import type { GatewayMcpProvider } from './mcpProvider';
import { signalFromToken } from '../platform/cancellation';

type Input = Record<string, unknown>;

export class SiteAbilityTool implements vscode.LanguageModelTool<Input> {
  private ledgerInstance: OutcomeLedger | undefined;

  constructor(
    private readonly services: Services,
    private readonly mcp: GatewayMcpProvider,
  ) {}

  /** The ledger in globalState (one key shared with agent chat, so nothing is kept in memory here). */
  private async ledger(): Promise<OutcomeLedger> {
    if (!this.ledgerInstance) {
      const { OutcomeLedger, OUTCOME_LEDGER_STATE_KEY } = await import('../core/mcp/outcomeLedger');
      const state = this.services.context.globalState;
      this.ledgerInstance = new OutcomeLedger({ get: () => state.get<OutcomeUnknownEntry[]>(OUTCOME_LEDGER_STATE_KEY), set: (e) => state.update(OUTCOME_LEDGER_STATE_KEY, e) });
    }
    return this.ledgerInstance;
  }

  async prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<Input>): Promise<vscode.PreparedToolInvocation> {
    const { describeCall } = await import('../core/lm/siteAbilityRun');
    const d = describeCall(options.input);
    const md = new vscode.MarkdownString();
    md.appendText(`${vscode.l10n.t('Run site ability {0} on site {1} with:', d.ability, d.site)}\n`);
    md.appendCodeblock(d.args, 'json');
    return { invocationMessage: md };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<Input>, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    const { runSiteAbility } = await import('../core/lm/siteAbilityRun');
    const ledger = await this.ledger();
    const cancel = signalFromToken(token);
    let headers: Record<string, string> = {};
    const deps: SiteAbilityDeps = {
      ledger,
      credentials: async () => {
        const c = await this.mcp.credentials();
        if (c.kind === 'missing') return { kind: 'missing', why: c.why };
        headers = c.headers;
        return { kind: 'ready', credential: c.kind === 'account-key' ? 'account' : c.kind === 'jwt' ? 'jwt' : 'user' };
      },
      confirm: (p) => confirmRisky({ message: p.question, detail: p.detail, safe: vscode.l10n.t("Don't Run"), action: p.action }),
      connect: async (): Promise<AbilitySession> => {
        const secrets = Object.values(headers);
        const { McpConnection } = await import('../core/mcp/mcpClient');
        const connection = await McpConnection.connect({
          url: joinUrl(effectiveBaseUrl().url, '/v1/mcp').toString(),
          fetch: proxyFetch(),
          getHeaders: async () => headers,
          log: this.services.log,
          knownSecrets: () => secrets,
          clientInfo: { name: 'ai-gateway-vscode-agent', version: String((this.services.context.extension.packageJSON as { version?: unknown }).version ?? '0.0.0') },
        });
        return {
          callTool: (args, signal) => connection.callTool('run_site_ability', args, { signal }),
          close: () => connection.close(),
        };
      },
    };
    try {
      const r = await runSiteAbility(options.input ?? {}, deps, cancel.signal);
      return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(r.text)]);
    } finally {
      cancel.dispose();
    }
  }
}

export { SITE_ABILITY_LM_TOOL };
