/**
 * The MCP feature's command-time logic that needs no MCP SDK, in dist/core.js (reached through
 * src/mcp/mcpApi.ts): running one tool call, the Tools panel's controller and the request export.
 * The SDK itself is in dist/mcp.js.
 */
export { runToolCall } from '../mcp/toolRunner';
export { ToolPanelController } from '../mcp/toolPanelController';
export { composeExport, secretHeaderValuesFor } from '../mcp/requestExport';
