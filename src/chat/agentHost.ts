/**
 * Agent chat's editor side (ChatAgentHost): the MCP servers of the tool runner (gateway /v1/mcp, and
 * the other configured servers the user turns on per conversation), the settings, and the
 * outcome-unknown ledger. Decisions live in src/core/agentLoop; this only supplies editor pieces.
 *
 * - Its own McpService (connections, tool lists; the same servers, headers and credential rules as
 *   the Tools view), created on first use so a chat without agent mode loads no MCP code.
 * - The ledger is the one VS Code's agent path uses (same globalState key), so a write whose outcome
 *   is unknown in one is refused as a silent repeat in the other.
 * - Settings are read from the user's settings only (application scope): a workspace can neither
 *   raise the round limit nor turn off a confirmation.
 */
import * as vscode from 'vscode';
import { settings } from '../platform/config';
import type { ChatAgentHost } from '../core/chat/chatController';
import type { AgentTool, AgentToolbox, ToolCallOutcome } from '../core/agentLoop/agentLoop';
import { buildToolbox, type ToolSource } from '../core/agentLoop/toolbox';
import { isAbilityReadOnly } from '../core/mcp/abilities';
import { OutcomeLedger, OUTCOME_LEDGER_STATE_KEY, type OutcomeUnknownEntry } from '../core/mcp/outcomeLedger';
import type { ChatServices } from './registerChat';
import { McpService } from '../platform/mcpService';

const MAX_ROUNDS_CAP = 50;

export class ChatAgentTools implements ChatAgentHost, vscode.Disposable {
  readonly ledger: OutcomeLedger;
  private service: McpService | undefined;

  constructor(private readonly services: ChatServices) {
    const state = services.context.globalState;
    this.ledger = new OutcomeLedger({ get: () => state.get<OutcomeUnknownEntry[]>(OUTCOME_LEDGER_STATE_KEY), set: (e) => state.update(OUTCOME_LEDGER_STATE_KEY, e) });
  }

  private mcp(): McpService {
    return (this.service ??= new McpService(this.services));
  }

  maxRounds(): number {
    const n = Math.floor(settings.chatAgentMaxRounds.get());
    return Number.isFinite(n) ? Math.min(MAX_ROUNDS_CAP, Math.max(1, n)) : 10;
  }

  confirmReadOnlyAbilities(): boolean {
    return settings.mcpConfirmReadOnlyAbilities.get();
  }

  async toolbox(servers: readonly string[], choice: { kbSearch?: boolean } = {}): Promise<AgentToolbox> {
    const svc = this.mcp();
    const all = svc.servers();
    const gateway = all.find((s) => s.kind === 'gateway');
    const sources: ToolSource[] = [];
    if (gateway) sources.push({ serverId: gateway.id, serverLabel: gateway.label, isGateway: true, tools: await svc.tools(gateway) });
    for (const s of all) {
      if (s.kind !== 'custom' || !servers.includes(s.id)) continue;
      try {
        sources.push({ serverId: s.id, serverLabel: s.label, isGateway: false, tools: await svc.tools(s) });
      } catch (e) {
        this.services.log.warn(`Agent chat: the tools of ${s.label} could not be listed (${e instanceof Error ? e.message : String(e)}); left out.`);
      }
    }
    return buildToolbox(sources, gateway ? svc.credential(gateway) : 'none', { kbSearch: choice.kbSearch === true });
  }

  async callTool(tool: AgentTool, args: Record<string, unknown>, signal: AbortSignal, headers?: Readonly<Record<string, string>>): Promise<ToolCallOutcome> {
    const svc = this.mcp();
    const server = svc.server(tool.serverId);
    if (!server) throw new Error(vscode.l10n.t('The MCP server {0} is no longer configured.', tool.serverLabel));
    const conn = await svc.connection(server);
    return conn.callTool(tool.serverToolName, args, { signal, ...(headers ? { headers } : {}) });
  }

  async abilityReadOnly(site: string, ability: string, signal: AbortSignal): Promise<boolean> {
    const svc = this.mcp();
    const gateway = svc.servers().find((s) => s.kind === 'gateway');
    if (!gateway) return false;
    const conn = await svc.connection(gateway);
    const list = await conn.callTool('list_site_abilities', { site_id: site }, { signal });
    return list.result.isError !== true && isAbilityReadOnly(list.result, ability);
  }

  /** One quick pick: the knowledge-base search toggle first, then the other MCP servers. */
  async pickServers(enabled: readonly string[], kbSearch: boolean): Promise<{ servers: string[]; kbSearch: boolean } | undefined> {
    const custom = this.mcp()
      .servers()
      .filter((s) => s.kind === 'custom');
    type Item = vscode.QuickPickItem & { id?: string };
    const items: Item[] = [
      { label: /* not translated: the product's name */ 'AI Gateway', kind: vscode.QuickPickItemKind.Separator },
      { label: vscode.l10n.t('Knowledge-base search'), description: /* not translated: the tool's name */ 'kb_search', detail: vscode.l10n.t('Lets the model search your knowledge-base collections in this conversation'), picked: kbSearch },
      { label: custom.length ? vscode.l10n.t('Other MCP servers') : vscode.l10n.t('Other MCP servers: none (add one with "AI Gateway: Add MCP Server...")'), kind: vscode.QuickPickItemKind.Separator },
      ...custom.map((s): Item => ({ label: s.label, description: s.url, id: s.id, picked: enabled.includes(s.id) })),
    ];
    const picked = await vscode.window.showQuickPick(items, {
      canPickMany: true,
      title: vscode.l10n.t('Agent Chat Tools'),
      placeHolder: vscode.l10n.t('Tools this conversation may use (the other AI Gateway tools are always on)'),
    });
    if (!picked) return undefined;
    return { servers: picked.flatMap((p) => (p.id ? [p.id] : [])), kbSearch: picked.some((p) => p.id === undefined) };
  }

  dispose(): void {
    this.service?.dispose();
    this.service = undefined;
  }
}
