/**
 * The account features' clients, built on first use from the lazily loaded dist/core.js (undici,
 * analytics and hosting clients stay out of the activation bundle). One proxy-aware fetch is shared
 * by both clients; it reads the editor's proxy settings per request.
 */
import * as vscode from 'vscode';
import { effectiveBaseUrl, PLACEHOLDER_HOSTING_BASE_URL, settings } from '../config';
import type { AnalyticsQuery, AnalyticsResult } from '../core/analytics/analytics';
import { resolveHostingBaseUrl } from '../core/account/hostingUrl';
import type { HostingClient } from '../core/hosting/hostingClient';
// The one loader of the external chunk dist/core.js (src/services.ts); Node caches the module.
import { loadCore, type CoreModule } from '../services';
import type { AccountSecrets } from './accountSecrets';

function networkSettings(): { proxy?: string; noProxy?: readonly string[]; strictSSL?: boolean } {
  const http = vscode.workspace.getConfiguration('http');
  if (http.get<string>('proxySupport') === 'off') return {};
  return { proxy: http.get<string>('proxy'), noProxy: http.get<string[]>('noProxy'), strictSSL: http.get<boolean>('proxyStrictSSL') };
}

export function hostingBaseUrl(): ReturnType<typeof resolveHostingBaseUrl> {
  return resolveHostingBaseUrl(settings.hostingBaseUrl.get(), PLACEHOLDER_HOSTING_BASE_URL, process.env);
}

export class AccountClients implements vscode.Disposable {
  private proxyFetch: ReturnType<CoreModule['createProxyFetch']> | undefined;
  private hosting: HostingClient | undefined;

  constructor(
    private readonly secrets: AccountSecrets,
    private readonly userAgent: string,
  ) {}

  private fetch(): ReturnType<CoreModule['createProxyFetch']>['fetch'] {
    this.proxyFetch ??= loadCore().createProxyFetch(networkSettings, { connectMs: Math.max(1, settings.connectTimeoutSeconds.get()) * 1000 });
    return this.proxyFetch.fetch;
  }

  /** GET /v1/analytics on the gateway with the stored identity token (never the API key). */
  analytics(query: AnalyticsQuery, signal: AbortSignal): Promise<AnalyticsResult> {
    const fetch = this.fetch();
    return loadCore().fetchAnalytics(
      { baseUrl: () => effectiveBaseUrl().url, getJwt: () => this.secrets.getJwt(), fetch: (url, init) => fetch(url, init), userAgent: this.userAgent },
      query,
      signal,
    );
  }

  hostingClient(): HostingClient {
    if (!this.hosting) {
      const fetch = this.fetch();
      this.hosting = new (loadCore().HostingClient)({
        baseUrl: () => hostingBaseUrl().url,
        getCredentials: () => this.secrets.getHostingCredentials(),
        fetch: (url, init) => fetch(url, init),
        userAgent: this.userAgent,
      });
    }
    return this.hosting;
  }

  dispose(): void {
    void this.proxyFetch?.dispose().catch(() => undefined);
    this.proxyFetch = undefined;
    this.hosting = undefined;
  }
}
