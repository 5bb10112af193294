/**
 * The account feature's part of dist/core.js (reached through src/account/accountApi.ts): usage
 * analytics (JWT) and the hosting account API (Basic) clients, the usage report, the cache-exclusions
 * document and the transfer form view-models.
 */
export { fetchAnalytics } from '../analytics/analyticsClient';
export { HostingClient } from '../hosting/hostingClient';
export { GROUP_BY_LABELS, parseCustomWindow, presetWindow, renderUsageReport, USAGE_PRESETS, usageReportTitle } from '../account/usageReport';
export { BUCKET_WIDTHS, checkAnalyticsCredential, DEFAULT_GROUP_BY, GROUP_BY_DIMENSIONS } from '../analytics/analytics';
export { ExclusionsDocumentError, parseExclusionsDocument, serializeExclusions, summarizeReplacement } from '../account/exclusionsDocument';
export { describeTransfer, parseScheduledTime, transferRequestFromForm, transferSummary, validateUuidInput } from '../account/transferForm';
export { HostingValidationError, isHostingError, isUuid } from '../hosting/hosting';
export { validateHostingPassword, validateHostingUsername, validateJwtInput } from '../account/credentials';
