/**
 * The account features' clients, built on first use from the lazily loaded dist/core.js (analytics and
 * hosting clients stay out of the activation bundle). Both go through the one network layer of
 * src/services.ts (pool, proxy, timeouts, user agent, size limits, plain-http credential check).
 */
import type * as vscode from 'vscode';
import { effectiveBaseUrl, environmentOverridesAllowed, PLACEHOLDER_HOSTING_BASE_URL, settings } from '../config';
import type { AnalyticsQuery, AnalyticsResult } from '../core/analytics/analytics';
import type { RetryInfo } from '../core/http/retry';
import { resolveHostingBaseUrl } from '../core/account/hostingUrl';
import type { HostingClient } from '../core/hosting/hostingClient';
import type { Services } from '../services';
import { accountApiNow } from './accountApi';
import type { AccountSecrets } from './accountSecrets';

/**
 * The hosting API's address: the machine-scoped setting, or, in development only (running from
 * source), AI_GATEWAY_HOSTING_BASE_URL: an installed extension's environment may come from a cloned
 * repository's devcontainer.json, and that address would receive the hosting credentials.
 */
export function hostingBaseUrl(): ReturnType<typeof resolveHostingBaseUrl> {
  return resolveHostingBaseUrl(settings.hostingBaseUrl.get(), PLACEHOLDER_HOSTING_BASE_URL, environmentOverridesAllowed() ? process.env : {});
}

export class AccountClients implements vscode.Disposable {
  private hosting: HostingClient | undefined;

  constructor(
    private readonly secrets: AccountSecrets,
    private readonly services: Pick<Services, 'network'>,
  ) {}

  /** GET /v1/analytics on the gateway with the stored identity token (never the API key). */
  analytics(query: AnalyticsQuery, signal: AbortSignal, onRetry?: (info: RetryInfo) => void): Promise<AnalyticsResult> {
    const net = this.services.network();
    return accountApiNow().fetchAnalytics(
      { baseUrl: () => effectiveBaseUrl().url, getJwt: () => this.secrets.getJwt(), fetch: (url, init) => net.fetch(url, init), userAgent: net.userAgent, maxBodyBytes: net.limits.maxJsonBytes, timeouts: () => net.timeouts(), retry: () => net.retry() },
      query,
      signal,
      { onRetry },
    );
  }

  hostingClient(): HostingClient {
    if (!this.hosting) {
      const net = this.services.network();
      this.hosting = new (accountApiNow().HostingClient)({
        baseUrl: () => hostingBaseUrl().url,
        getCredentials: () => this.secrets.getHostingCredentials(),
        fetch: (url, init) => net.fetch(url, init),
        userAgent: net.userAgent,
        maxBodyBytes: net.limits.maxJsonBytes,
        timeouts: () => net.timeouts(),
      });
    }
    return this.hosting;
  }

  dispose(): void {
    // The pool belongs to the shared network layer (src/services.ts), closed with the Services.
    this.hosting = undefined;
  }
}
