/**
 * `aiGateway_runSiteAbility`: the ONLY way VS Code's agent mode runs a site ability (the MCP relay of
 * mcpProvider.ts hides run_site_ability). Two guarantees the MCP client cannot give:
 *
 *  1. The user's say, every time: `invoke` asks with a modal dialog naming the site, the ability and
 *     the arguments. A modal is used (rather than only prepareInvocation's confirmation) because
 *     VS Code's chat.tools auto-approve settings can skip tool confirmations; they cannot skip this.
 *     prepareInvocation shows the same site / ability / arguments in the chat as the call runs.
 *  2. No automatic repeat of an `ambiguous_outcome` write (G-MCP-13): such a call, or one whose
 *     connection broke after it was sent, is recorded in the outcome-unknown ledger
 *     (src/core/mcp/outcomeLedger.ts). The identical call is then refused unless the user, told that
 *     the first may already have happened, picks "Run Again Anyway" in the modal. The result text
 *     tells the model not to retry.
 */
import * as vscode from 'vscode';
import { abilityTarget } from '../core/mcp/abilities';
import { OutcomeLedger, type OutcomeUnknownEntry } from '../core/mcp/outcomeLedger';
import { classifyToolError } from '../core/mcp/toolErrors';
import type { CallToolResult } from '../core/mcp/types';
import { effectiveBaseUrl } from '../config';
import { joinUrl } from '../core/gateway/joinUrl';
import { SITE_ABILITY_LM_TOOL } from '../core/lm/mcpFilter';
import { getProxyFetch, mcpApi } from '../mcp/mcpApi';
import type { Services } from '../services';
import type { GatewayMcpProvider } from './mcpProvider';

const LEDGER_STATE_KEY = 'aiGateway.lm.outcomeUnknown';
const MAX_SHOWN_ARGS = 2000;

interface Input {
  site_id?: unknown;
  ability?: unknown;
  input?: unknown;
}

function describe(input: Input): { site: string; ability: string; args: string } {
  const t = abilityTarget(input as Record<string, unknown>);
  let args = JSON.stringify(t.input ?? {}, null, 2) ?? '{}';
  if (args.length > MAX_SHOWN_ARGS) args = `${args.slice(0, MAX_SHOWN_ARGS)}\n… (${args.length - MAX_SHOWN_ARGS} more characters)`;
  return { site: t.site ?? '(no site given)', ability: t.ability ?? '(no ability given)', args };
}

function text(value: string): vscode.LanguageModelToolResult {
  return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(value)]);
}

export class SiteAbilityTool implements vscode.LanguageModelTool<Input> {
  readonly ledger: OutcomeLedger;

  constructor(
    private readonly services: Services,
    private readonly mcp: GatewayMcpProvider,
  ) {
    const state = services.context.globalState;
    this.ledger = new OutcomeLedger({ get: () => state.get<OutcomeUnknownEntry[]>(LEDGER_STATE_KEY), set: (e) => state.update(LEDGER_STATE_KEY, e) });
  }

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<Input>): vscode.PreparedToolInvocation {
    const d = describe(options.input);
    const md = new vscode.MarkdownString();
    md.appendText(`Run site ability ${d.ability} on site ${d.site} with:\n`);
    md.appendCodeblock(d.args, 'json');
    return { invocationMessage: md };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<Input>, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    const input = options.input ?? {};
    const target = abilityTarget(input as Record<string, unknown>);
    if (!target.site || !target.ability) return text('Not run: site_id and ability are required.');
    const d = describe(input);
    const earlier = this.ledger.find(target.site, target.ability, target.input ?? {});
    const RUN = earlier ? 'Run Again Anyway' : 'Run';
    const detail = `Site: ${d.site}\nAbility: ${d.ability}\nArguments:\n${d.args}`;
    const question = earlier
      ? `The same site ability call at ${earlier.at} had an UNKNOWN outcome: it may already have happened. Check the site before running it again.`
      : 'The agent wants to run a site ability. It can change your live site.';
    const choice = await vscode.window.showWarningMessage(question, { modal: true, detail }, RUN);
    if (choice !== RUN) {
      return text(
        earlier
          ? 'Not run: an identical call earlier had an unknown outcome (ambiguous_outcome) and the user did not approve a repeat. Do not retry; ask the user to check the site.'
          : 'Not run: the user declined this site ability call. Do not retry unless the user asks.',
      );
    }
    const creds = await this.mcp.credentials();
    if (creds.kind === 'missing') return text(`Not run: ${creds.why}`);
    const controller = new AbortController();
    const sub = token.onCancellationRequested(() => controller.abort());
    const secrets = Object.values(creds.headers);
    let connection: Awaited<ReturnType<ReturnType<typeof mcpApi>['McpConnection']['connect']>> | undefined;
    let sent = false;
    try {
      connection = await mcpApi().McpConnection.connect({
        url: joinUrl(effectiveBaseUrl().url, '/v1/mcp').toString(),
        fetch: getProxyFetch(),
        getHeaders: async () => creds.headers,
        log: this.services.log,
        knownSecrets: () => secrets,
        clientInfo: { name: 'ai-gateway-vscode-agent', version: String((this.services.context.extension.packageJSON as { version?: unknown }).version ?? '0.0.0') },
      });
      sent = true;
      const outcome = await connection.callTool('run_site_ability', input as Record<string, unknown>, { signal: controller.signal });
      return await this.report(target, outcome.result, outcome.requestIds, creds.kind === 'account-key' ? 'account' : creds.kind === 'jwt' ? 'jwt' : 'user');
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      if (sent) {
        // The call may have reached the site: treat it like ambiguous_outcome.
        await this.ledger.recordUnknown(target.site, target.ability, target.input ?? {});
        return text(`Outcome unknown: the call failed after it was sent (${message}). It may have happened. Do not retry; ask the user to check the site.`);
      }
      return text(`Not run: could not reach the gateway's tool server (${message}).`);
    } finally {
      sub.dispose();
      void connection?.close();
    }
  }

  private async report(target: ReturnType<typeof abilityTarget>, result: CallToolResult, requestIds: string[], credential: 'account' | 'jwt' | 'user'): Promise<vscode.LanguageModelToolResult> {
    const error = classifyToolError('run_site_ability', result, credential);
    const ids = requestIds.length ? ` (request id ${requestIds.join(', ')})` : '';
    if (!error) {
      const body = (result.content ?? []).map((b) => (b.type === 'text' ? String((b as { text?: unknown }).text ?? '') : JSON.stringify(b))).join('\n');
      return text(body || JSON.stringify(result.structuredContent ?? {}));
    }
    if (error.code === 'ambiguous_outcome') {
      await this.ledger.recordUnknown(target.site ?? '', target.ability ?? '', target.input ?? {}, requestIds[0]);
      return text(`ambiguous_outcome: ${error.message}${ids}. The write may or may not have happened. Do NOT retry; ask the user to check the site.`);
    }
    return text(`${error.code}: ${error.message}${ids}. ${error.advice}`);
  }
}

export { SITE_ABILITY_LM_TOOL };
