/**
 * The shared network layer (src/services.ts `network()`) for code that takes a plain fetch: the MCP
 * transport, the MCP relay. The network and undici are imported on the first request, not before.
 */
import type { Network } from '../core/http/network';

let sharedNetworkFactory: (() => Promise<Network>) | undefined;

/**
 * Set by the Services at activation (src/services.ts), which owns the network layer; the returned
 * function unsets it again at the Services' disposal (unless another Services replaced it).
 */
export function bindSharedNetwork(factory: () => Promise<Network>): () => void {
  sharedNetworkFactory = factory;
  return () => {
    if (sharedNetworkFactory === factory) sharedNetworkFactory = undefined;
  };
}

/** The shared network layer for code without a Services at hand. Rejects before activation created the Services. */
export async function sharedNetwork(): Promise<Network> {
  if (!sharedNetworkFactory) throw new Error('Not activated');
  return sharedNetworkFactory();
}

export type FetchFn = (url: string | URL, init?: RequestInit) => Promise<Response>;

/** A fetch through the one network layer (pool, proxy, timeouts, user agent, size limits, plain-http check). */
export function proxyFetch(): FetchFn {
  return async (url, init) => (await sharedNetwork()).fetch(url, init);
}
