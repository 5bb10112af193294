/** The language-model feature's command-time part of dist/core.js (reached through src/lm/lmApi.ts): the MCP relay, started when VS Code first asks for the gateway's MCP server. */
export { startMcpRelay } from '../lm/mcpRelay';
