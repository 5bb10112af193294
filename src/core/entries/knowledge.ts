/**
 * The knowledge feature's part of dist/core.js (reached through src/knowledge/knowledgeApi.ts):
 * knowledge-base and agents clients, the indexing planner and the source-path check.
 */
export * as kb from '../kb/kbClient';
export { planIndexing, workspacePathOfSource, SKIP_REASON_TEXT, MAX_FILE_BYTES as KB_MAX_FILE_BYTES } from '../kb/indexPlan';
export { workspaceFileOfSource } from '../kb/hitFile';
export { workspacePlanReader } from '../kb/workspaceReader';
export * as agents from '../agents/agentsClient';
