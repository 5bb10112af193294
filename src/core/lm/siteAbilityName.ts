/**
 * The language model tool that offers site abilities instead of the MCP server's run_site_ability
 * (package.json contributes.languageModelTools). A module of its own: the tool's registration at
 * activation needs only the name, not the relay's filter (mcpFilter.ts).
 */
export const SITE_ABILITY_LM_TOOL = 'aiGateway_runSiteAbility';
