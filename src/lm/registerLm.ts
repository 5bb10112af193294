/**
 * VS Code's own chat and agent mode:
 *  - the gateway's models as a language model chat provider (vendor `ai-gateway`; activation event
 *    onLanguageModelChatProvider:ai-gateway, so VS Code's chat finds them without the user opening
 *    one of our views first), recording priced replies in the spend ledger;
 *  - the gateway's /v1/mcp as an MCP server definition (through a local relay that hides
 *    run_site_ability; onMcpCollection:aiGateway.mcp);
 *  - site abilities as the language model tool aiGateway_runSiteAbility (asks every time, keeps the
 *    outcome-unknown ledger; onLanguageModelTool:aiGateway_runSiteAbility).
 */
import * as vscode from 'vscode';
import { DisposableStore } from '../core/disposables';
import type { Services } from '../services';
import { GatewayChatProvider, VENDOR } from './chatProvider';
import { GatewayMcpProvider, MCP_PROVIDER_ID } from './mcpProvider';
import { SITE_ABILITY_LM_TOOL, SiteAbilityTool } from './siteAbilityTool';

/** What the lm feature uses of the services (src/services.ts composes them; only extension.ts passes the whole). */
export type LmServices = Pick<Services, 'accountSecrets' | 'budget' | 'catalog' | 'context' | 'getClient' | 'keys' | 'log' | 'spend'>;

export function registerLm(services: LmServices): vscode.Disposable {
  const store = new DisposableStore();
  const spend = services.spend;
  const provider = store.add(new GatewayChatProvider(services, spend));
  store.add(vscode.lm.registerLanguageModelChatProvider(VENDOR, provider));
  const mcp = store.add(new GatewayMcpProvider(services));
  store.add(vscode.lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, mcp));
  store.add(vscode.lm.registerTool(SITE_ABILITY_LM_TOOL, new SiteAbilityTool(services, mcp)));
  return { dispose: () => store.dispose() };
}
