/**
 * The shared network layer (src/services.ts `network()`) for code that takes a plain fetch: the MCP
 * transport, the MCP relay. The network and undici are imported on the first request, not before.
 */
import { sharedNetwork } from '../services';

export type FetchFn = (url: string | URL, init?: RequestInit) => Promise<Response>;

/** A fetch through the one network layer (pool, proxy, timeouts, user agent, size limits, plain-http check). */
export function proxyFetch(): FetchFn {
  return async (url, init) => (await sharedNetwork()).fetch(url, init);
}
