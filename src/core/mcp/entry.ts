/**
 * The lazy dist/mcp.js chunk: everything that pulls in the MCP SDK or ajv. The editor layer loads
 * it with `require('./mcp.js')` on first use of the Tools view, so activation does not pay for it.
 * It takes a fetch function instead of importing undici, so undici lives only in dist/core.js.
 */
export { McpConnection, McpCallError, MAX_TOOL_PAGES } from './mcpClient';
export type { McpConnectionOptions, CallOptions, ToolCallOutcome, McpFailureReason } from './mcpClient';
export { validateAgainstSchema, formatIssues } from './validation';
export type { ValidationResult, ValidationIssue } from './validation';
export { sendToolCallBatch, buildToolCallBatch, assertWithinBatchLimit, BatchLimitError, MAX_BATCH } from './batch';
export type { BatchCall, BatchResult } from './batch';
export { runBatchCalls } from './batchRun';
export type { BatchRunContext, BatchRunOutcome } from './batchRun';
