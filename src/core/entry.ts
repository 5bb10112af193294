/**
 * Entry of the lazily loaded chunk dist/core.js (see esbuild.mjs): everything the editor layer needs
 * from undici-backed core code at runtime. The activation bundle requires it on first use only, so
 * undici stays out of dist/extension.js. Keep this list small and stable: src/services.ts declares
 * the matching shape as a type.
 */
import { fetch as undiciFetch, type Dispatcher } from 'undici';
import { DispatcherCache, DEFAULT_TIMEOUTS, type Env, type NetworkSettings } from './http/dispatcher';

export { createGatewayClient, type GatewayClient, type GatewayClientOptions } from './gateway/gatewayClient';
export { GatewayError, isGatewayError } from './http/errors';
export type { NetworkSettings, TimeoutSettings } from './http/dispatcher';
// Usage analytics (JWT) and the hosting account API (Basic): used by src/account, loaded lazily too.
export { fetchAnalytics } from './analytics/analyticsClient';
export { HostingClient } from './hosting/hostingClient';

export interface ProxyFetch {
  /** A fetch (WHATWG signature) that goes through the proxy settings, e.g. for the MCP SDK's transport. */
  fetch: (url: string | URL, init?: RequestInit) => Promise<Response>;
  /** Closes the connection pool. */
  dispose(): Promise<void>;
}

/**
 * A proxy-aware fetch for code that needs a fetch function rather than the gateway client (the MCP
 * transport). `network` is read per call; the dispatcher is rebuilt only when it changes.
 */
export function createProxyFetch(network: NetworkSettings | (() => NetworkSettings), options: { connectMs?: number; env?: Env } = {}): ProxyFetch {
  const cache = new DispatcherCache(options.env ?? process.env);
  const connectMs = options.connectMs ?? DEFAULT_TIMEOUTS.connectMs;
  const current = (): Dispatcher => cache.get(typeof network === 'function' ? network() : network, connectMs);
  return {
    fetch: (url, init) =>
      // undici's fetch and Node's global fetch share the WHATWG shapes; only their TypeScript
      // declarations differ (undici-types vs. undici), hence the casts.
      undiciFetch(url, { ...(init as Parameters<typeof undiciFetch>[1]), dispatcher: current() }) as unknown as Promise<Response>,
    dispose: () => cache.dispose(),
  };
}
