/**
 * The network layer's policies that need no HTTP library: size limits and the plain-http credential
 * rule. Kept apart from network.ts (which bundles undici) so the activation bundle can use them.
 */

/**
 * Upper bounds on what a server may make the host buffer. Assumption (spec: not shown): the gateway
 * documents no sizes; these are generous for real traffic (a chat delta is a few hundred bytes, the
 * model catalog a few hundred KB) and small enough that a hostile server cannot exhaust the heap.
 * Change them here; each one ends in a GatewayError 'protocol' that names the limit.
 */
export interface SizeLimits {
  /** Longest single Server-Sent-Event (characters buffered before its blank line). */
  maxEventChars: number;
  /** Largest non-streamed JSON body, in bytes. */
  maxJsonBytes: number;
  /**
   * Largest error body read for its envelope, in bytes; longer bodies are cut, not failed. Also the
   * longest text classify.ts parseErrorEnvelope parses (one limit for both).
   */
  maxErrorBodyBytes: number;
}

export const DEFAULT_LIMITS: SizeLimits = {
  maxEventChars: 4 * 1024 * 1024,
  maxJsonBytes: 32 * 1024 * 1024,
  maxErrorBodyBytes: 64 * 1024,
};

/** Loopback names and addresses: the only hosts a credential may reach over plain http:// unasked. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  if (h === '::1' || h === '0:0:0:0:0:0:0:1') return true;
  if (/^::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h)) return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/** True when sending a credential to `url` would expose it on the wire (http:// to a non-loopback host). */
export function isInsecureCredentialTarget(url: URL): boolean {
  return url.protocol === 'http:' && !isLoopbackHost(url.hostname);
}

/**
 * Headers that may follow a redirect to another origin: they describe the request (its format, the MCP
 * revision, method, name and parameters, which mirror the body that is sent on anyway, a stream's last
 * event) and carry nothing the user configured for a server. Every other header is dropped on a
 * cross-origin hop, whatever its name: a server's custom headers may be credentials under any name
 * (an allow-list, not a pattern), and an MCP session id belongs to the server that issued it.
 */
const CROSS_ORIGIN_SAFE_HEADERS: ReadonlySet<string> = new Set(['accept', 'accept-language', 'content-type', 'content-length', 'user-agent', 'mcp-protocol-version', 'mcp-method', 'mcp-name', 'last-event-id']);

/** True for a header that may follow a redirect to another origin (see CROSS_ORIGIN_SAFE_HEADERS). */
export function isCrossOriginSafeHeader(name: string): boolean {
  const n = name.toLowerCase();
  return CROSS_ORIGIN_SAFE_HEADERS.has(n) || /^mcp-param-[!#$%&'*+\-.^_`|~0-9a-z]+$/.test(n);
}

/** Removes from `headers` every header that may not follow a redirect to another origin. */
export function dropForOtherOrigin(headers: Headers): void {
  for (const name of [...headers.keys()]) if (!isCrossOriginSafeHeader(name)) headers.delete(name);
}

/** Headers that carry a credential: the standard ones, and any name that says key, token, secret or auth. */
export function hasCredentialHeader(headers: Iterable<[string, string]>): boolean {
  for (const [name] of headers) {
    if (/^(authorization|proxy-authorization|cookie)$/i.test(name) || /key|token|secret|auth/i.test(name)) return true;
  }
  return false;
}
