/**
 * The usage feature's part of dist/core.js (reached through src/usage/usageApi.ts): dashboard windows,
 * the ledger view, stitched ranges, reconciliation and CSV.
 */
export { ledgerResult, resolveRequest, toWireView } from '../analytics/dashboard';
export { fetchRange } from '../analytics/range';
export { reconcile } from '../analytics/reconcile';
export { bucketsCsv, reconciliationCsv, totalsCsv } from '../analytics/csv';
export { checkAnalyticsCredential } from '../analytics/analytics';
export { isGatewayError } from '../http/errors';
