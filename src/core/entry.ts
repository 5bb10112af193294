/**
 * Entry of the lazily loaded chunk dist/core.js (see esbuild.mjs): everything the editor layer needs
 * from undici-backed core code at runtime. The activation bundle requires it on first use only, so
 * undici stays out of dist/extension.js. The shared part (network layer, gateway client) is
 * used by src/services.ts; the rest is one namespace per feature (src/core/entries/*.ts).
 */
import type { Env, NetworkSettings } from './http/dispatcher';
import { Network } from './http/network';

export { createGatewayClient, type GatewayClient, type GatewayClientOptions } from './gateway/gatewayClient';
export { GatewayError, isGatewayError } from './http/errors';
export type { NetworkSettings, TimeoutSettings } from './http/dispatcher';
// The one network layer (pool, proxy, timeouts, user agent, retry, size limits, plain-http check).
export { Network, readTextLimited } from './http/network';
// Command-time logic kept out of the activation bundle, one namespace per feature. Each feature
// reaches its namespace through its façade (src/<feature>/<feature>Api.ts, loaded by src/lazy.ts) and
// imports only types from these modules; a feature's list lives next to its façade's name in
// src/core/entries/<feature>.ts instead of one hand-kept list here.
export * as content from './entries/content';
export * as account from './entries/account';
export * as catalog from './entries/catalog';
export * as keys from './entries/keys';
export * as mcp from './entries/mcp';
export * as lm from './entries/lm';
export * as media from './entries/media';
export * as usage from './entries/usage';
export * as knowledge from './entries/knowledge';

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

