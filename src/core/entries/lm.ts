/**
 * The language-model feature's command-time part of dist/core.js (reached through src/lm/lmApi.ts): the
 * MCP relay, started when VS Code first asks for the gateway's MCP server, and the site-ability tool's
 * decisions and outcome-unknown ledger, used when VS Code's agent mode first prepares or runs it.
 */
export { startMcpRelay } from '../lm/mcpRelay';
export { describeCall, runSiteAbility } from '../lm/siteAbilityRun';
export { OutcomeLedger, OUTCOME_LEDGER_STATE_KEY } from '../mcp/outcomeLedger';
