/**
 * The clients of the account-level APIs, shared by the usage feature, the hosting commands and the
 * budget: usage analytics (identity-provider JWT) and the hosting account API (Basic). Each client's
 * code is imported on first use, so neither is in the activation entry. Both go through the one network layer of
 * src/services.ts (pool, proxy, timeouts, user agent, size limits, plain-http credential check).
 */
import type * as vscode from 'vscode';
import { effectiveBaseUrl, environmentOverridesAllowed, PLACEHOLDER_HOSTING_BASE_URL, settings } from './config';
import type { AnalyticsQuery, AnalyticsResult } from '../core/usage/analytics';
import type { RetryInfo } from '../core/http/retry';
import { resolveHostingBaseUrl } from '../core/account/hostingUrl';
import type { HostingClient } from '../core/account/hostingClient';
import type { Services } from '../services';
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
  async analytics(query: AnalyticsQuery, signal: AbortSignal, onRetry?: (info: RetryInfo) => void): Promise<AnalyticsResult> {
    const [{ fetchAnalytics }, net] = await Promise.all([import('../core/usage/analyticsClient'), this.services.network()]);
    return fetchAnalytics(
      { baseUrl: () => effectiveBaseUrl().url, getJwt: () => this.secrets.getJwt(), fetch: (url, init) => net.fetch(url, init), userAgent: net.userAgent, maxBodyBytes: net.limits.maxJsonBytes, timeouts: () => net.timeouts(), retry: () => net.retry() },
      query,
      signal,
      { onRetry },
    );
  }

  async hostingClient(): Promise<HostingClient> {
    if (!this.hosting) {
      const [{ HostingClient }, net] = await Promise.all([import('../core/account/hostingClient'), this.services.network()]);
      this.hosting ??= new HostingClient({
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
