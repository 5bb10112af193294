/**
 * The language model provider records priced replies through the shared spend service
 * (src/usage/spendService.ts), so VS Code's chat, the chat panel and the content commands all land in
 * one ledger, and its sends pass the budget guard (src/usage/budgetService.ts).
 */
export type { SpendService as SpendRecorder } from '../usage/spendService';
