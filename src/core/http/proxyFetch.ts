/**
 * A proxy-aware fetch on a private Network (tests and tools). The extension itself uses the one shared
 * Network of src/services.ts.
 */
import type { Env, NetworkSettings } from './dispatcher';
import { Network } from './network';

export interface ProxyFetch {
  /** A fetch (WHATWG signature) that goes through the proxy settings. */
  fetch: (url: string | URL, init?: RequestInit) => Promise<Response>;
  /** Closes the connection pool. */
  dispose(): Promise<void>;
}

export function createProxyFetch(network: NetworkSettings | (() => NetworkSettings), options: { connectMs?: number; env?: Env } = {}): ProxyFetch {
  const net = new Network({
    settings: typeof network === 'function' ? network : () => network,
    timeouts: () => (options.connectMs !== undefined ? { connectMs: options.connectMs } : {}),
    env: options.env,
  });
  return { fetch: net.fetch, dispose: () => net.dispose() };
}
