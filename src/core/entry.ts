/**
 * Entry of the lazily loaded chunk dist/core.js (see esbuild.mjs): everything the editor layer needs
 * from undici-backed core code at runtime. The activation bundle requires it on first use only, so
 * undici stays out of dist/extension.js. Keep this list small and stable: src/services.ts declares
 * the matching shape as a type.
 */
import type { Env, NetworkSettings } from './http/dispatcher';
import { Network } from './http/network';

export { createGatewayClient, type GatewayClient, type GatewayClientOptions } from './gateway/gatewayClient';
export { GatewayError, isGatewayError } from './http/errors';
export type { NetworkSettings, TimeoutSettings } from './http/dispatcher';
// The one network layer (pool, proxy, timeouts, user agent, retry, size limits, plain-http check).
export { Network, readTextLimited } from './http/network';
// Usage analytics (JWT) and the hosting account API (Basic): used by src/account, loaded lazily too.
export { fetchAnalytics } from './analytics/analyticsClient';
export { HostingClient } from './hosting/hostingClient';

// Command-time logic kept out of the activation bundle (issue 8: activation bundle < 150 KB). The
// editor glue imports only types from these modules and calls the values through services.loadCore().
// Content commands: request mappers, chat fallback, front-matter merge (the only user of `yaml`,
// ~110 KB minified), placement maths and image classification. Image-reference scanning
// (./content/imageRefs) stays in the activation bundle for the missing-alt diagnostics.
export { generateAltText, summarize, suggestTaxonomy } from './content/contentClient';
export { ContentError } from './content/contentErrors';
export { mergeTaxonomy, newFrontMatter, readTaxonomy } from './content/frontMatter';
export { eolOf, imageMarkup, insertBelowEdit, relativePath, relocateRange, replaceRangeEdit, requestText, taxonomyAsText } from './content/placement';
export { resolveJsxImportedSrc } from './content/imageRefs';
export { checkInlineImage, readLocalImage, readWorkspaceImage } from './content/localImage';
export { altTextEdit, classifySrc, hasAlt, MAX_INLINE_IMAGE_BYTES, mediaTypeForPath, SITE_ROOT_FOLDERS, surroundingContext } from './content/altText';
// Account commands: usage report, cache-exclusions document, transfer form view-models.
export { GROUP_BY_LABELS, parseCustomWindow, presetWindow, renderUsageReport, USAGE_PRESETS, usageReportTitle } from './account/usageReport';
export { BUCKET_WIDTHS, checkAnalyticsCredential, DEFAULT_GROUP_BY, GROUP_BY_DIMENSIONS } from './analytics/analytics';
export { ExclusionsDocumentError, parseExclusionsDocument, serializeExclusions, summarizeReplacement } from './account/exclusionsDocument';
export { describeTransfer, hostingErrorText, isHostingError, parseScheduledTime, transferRequestFromForm, transferSummary, validateUuidInput } from './account/transferForm';
export { HostingValidationError, isUuid } from './hosting/hosting';
export { validateHostingPassword, validateHostingUsername, validateJwtInput } from './account/credentials';
// Catalog: model details for the Models view's tooltips (built on hover, after the catalog fetch
// has loaded this chunk anyway).
export { modelDetails } from './catalog/details';
export { describeRateChanges, detectRepricing } from './catalog/repricing';
// Key commands: the live key check and the rotation flow.
export { checkKey, describeKeyCheck } from './keys/keyCheck';
export { runRotation, temporaryReplacementName } from './keys/rotation';

export interface ProxyFetch {
  /** A fetch (WHATWG signature) that goes through the proxy settings. */
  fetch: (url: string | URL, init?: RequestInit) => Promise<Response>;
  /** Closes the connection pool. */
  dispose(): Promise<void>;
}

/**
 * A proxy-aware fetch on a private Network (tests and tools). The extension itself uses the one
 * shared Network of src/services.ts.
 */
export function createProxyFetch(network: NetworkSettings | (() => NetworkSettings), options: { connectMs?: number; env?: Env } = {}): ProxyFetch {
  const net = new Network({
    settings: typeof network === 'function' ? network : () => network,
    timeouts: () => (options.connectMs !== undefined ? { connectMs: options.connectMs } : {}),
    env: options.env,
  });
  return { fetch: net.fetch, dispose: () => net.dispose() };
}

// Knowledge bases and agents (src/knowledge/knowledgeApi.ts is the one editor file that calls these).
export * as kb from './kb/kbClient';
export { planIndexing, workspacePathOfSource, SKIP_REASON_TEXT, MAX_FILE_BYTES as KB_MAX_FILE_BYTES } from './kb/indexPlan';
export * as agents from './agents/agentsClient';
