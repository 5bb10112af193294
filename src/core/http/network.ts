/**
 * The one network layer of the extension host: every HTTP client (the gateway client, analytics, the
 * hosting API, the MCP transport) gets its connection pool, proxy, timeouts, user agent, retry policy,
 * size limits and the plain-http credential check from one `Network`. A change of the proxy or timeout
 * settings therefore applies to all of them at the next request.
 *
 * vscode-free: the editor layer (src/services.ts) supplies the settings as getters and the consent
 * prompt as a callback.
 */
import { fetch as undiciFetch, type Dispatcher } from 'undici';
import { DispatcherCache, DEFAULT_TIMEOUTS, resolveProxy, type Env, type NetworkSettings, type TimeoutSettings } from './dispatcher';
import { assertResolvesPublic, checkedLookup, checkServerUrl, isRedirect, MAX_SERVER_REDIRECTS, SERVER_URL_REFUSED, ServerUrlRefused, type Resolver } from './serverUrl';
import { GatewayError } from './errors';
import { BodyLimitError, InvalidUtf8Error, isIterableBody, readBodyText } from './body';
import { DEFAULT_LIMITS, dropForOtherOrigin, hasCredentialHeader, isInsecureCredentialTarget, type SizeLimits } from './policy';
import { DEFAULT_RETRY, type RetrySettings } from './retry';
import { formatBytes } from '../bytes';
import { ProxyAuth, type ProxyAuthHooks } from './proxyAuth';
import { trustContext } from './trust';
import type { SecureContext } from 'node:tls';

export { DEFAULT_LIMITS, hasCredentialHeader, isInsecureCredentialTarget, isLoopbackHost, type SizeLimits } from './policy';

export interface NetworkOptions {
  /** Proxy settings, read per request; the pool is rebuilt only when they change. */
  settings?: () => NetworkSettings;
  /** Timeouts, read per request. */
  timeouts?: () => Partial<TimeoutSettings>;
  /** Retry policy, read per client creation and per request. */
  retry?: () => Partial<RetrySettings>;
  /** e.g. "ai-gateway-vscode/0.1.0 VSCode/1.95.0"; one value for every client. */
  userAgent?: string;
  limits?: Partial<SizeLimits>;
  /** Environment for HTTP(S)_PROXY / NO_PROXY; defaults to process.env. */
  env?: Env;
  /**
   * Asked before a credential goes over plain http:// to a host that is not loopback; resolves true to
   * send it. Absent means "refuse": a credential is never sent in clear text without the user's yes.
   */
  confirmInsecureCredential?: (url: URL) => Promise<boolean>;
  /** DNS for server-named hosts (serverUrl.ts); defaults to the system's. Tests pass a fake. */
  resolve?: Resolver;
  /**
   * The proxy's Basic authentication: the saved credential per proxy origin and the question on a
   * 407 (proxyAuth.ts). Absent: only credentials in the proxy URL are sent.
   */
  proxyAuth?: ProxyAuthHooks;
  /** Where the operating system's certificate store is read from (trust.ts); tests pass their own file. */
  systemCaFiles?: readonly string[];
  /** Told once per list of trusted authorities where they came from (no certificate, no secret). */
  log?: (line: string) => void;
}

export type WhatwgFetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

export class Network {
  readonly userAgent: string;
  readonly limits: SizeLimits;
  private readonly dispatchers: DispatcherCache;
  /** The pool for server-named hosts: every connection's DNS answer is checked and pinned (serverUrl.ts). */
  private readonly serverDispatchers: DispatcherCache;
  /** Hosts the user allowed to receive a credential over http:// in this session. */
  private readonly allowedInsecureHosts = new Set<string>();
  /** One prompt per host at a time: parallel requests wait on the same answer. */
  private readonly pendingConsent = new Map<string, Promise<boolean>>();

  constructor(private readonly options: NetworkOptions = {}) {
    this.userAgent = options.userAgent ?? 'ai-gateway-vscode';
    this.limits = { ...DEFAULT_LIMITS, ...options.limits };
    const env = options.env ?? process.env;
    // One list of trusted authorities per value of http.systemCertificates, for both pools.
    const contexts = new Map<boolean, SecureContext | undefined>();
    const trust = (s: NetworkSettings): SecureContext | undefined => {
      const system = s.systemCertificates ?? true;
      if (!contexts.has(system)) {
        const built = trustContext({ systemCertificates: system, env, systemCaFiles: options.systemCaFiles });
        contexts.set(system, built.context);
        options.log?.(`TLS: trusting Node's roots${built.sources.map((x) => `, ${x}`).join('')}${system ? '' : ' (http.systemCertificates is off)'}`);
      }
      return contexts.get(system);
    };
    const extras = { trust, proxyAuth: new ProxyAuth(options.proxyAuth) };
    this.dispatchers = new DispatcherCache(env, undefined, extras);
    this.serverDispatchers = new DispatcherCache(env, checkedLookup(options.resolve), extras);
  }

  timeouts(): TimeoutSettings {
    return { ...DEFAULT_TIMEOUTS, ...this.options.timeouts?.() };
  }

  retry(): RetrySettings {
    return { ...DEFAULT_RETRY, ...this.options.retry?.() };
  }

  /** The connection pool for the current proxy and connect-timeout settings. */
  dispatcher(connectMs = this.timeouts().connectMs): Dispatcher {
    return this.dispatchers.get(this.options.settings?.() ?? {}, connectMs);
  }

  /**
   * The connection pool for a URL a server named (not the gateway's own origin): a connection this
   * process makes is refused when its host resolves to any address that is not public, and is pinned to
   * the checked addresses. Through a proxy the proxy resolves the name, so the name is resolved and
   * checked here first (`checkServerTarget`).
   */
  serverDispatcher(connectMs = this.timeouts().connectMs): Dispatcher {
    return this.serverDispatchers.get(this.options.settings?.() ?? {}, connectMs);
  }

  /**
   * Checks a server-named URL that passed checkServerUrl before it is requested: when a proxy is
   * configured, its host is resolved and every address checked here (the proxy will resolve it again;
   * with no proxy the socket's own lookup checks and pins it). Throws ServerUrlRefused.
   */
  async checkServerTarget(url: URL): Promise<void> {
    const p = resolveProxy(this.options.settings?.() ?? {}, this.options.env ?? process.env);
    if (p.httpProxy || p.httpsProxy) await assertResolvesPublic(url.hostname.replace(/^\[|\]$/g, ''), this.options.resolve);
  }

  /**
   * Resolves when a credential may be sent to `url`; throws a GatewayError (nothing sent) when the
   * user declines or nobody can be asked. Loopback and https:// pass without a question; an allowed
   * host is asked once per session.
   */
  async checkCredentialTarget(url: URL): Promise<void> {
    if (!isInsecureCredentialTarget(url)) return;
    const host = url.host.toLowerCase();
    if (this.allowedInsecureHosts.has(host)) return;
    let pending = this.pendingConsent.get(host);
    if (!pending) {
      const ask = this.options.confirmInsecureCredential;
      pending = ask ? ask(url).catch(() => false) : Promise.resolve(false);
      this.pendingConsent.set(host, pending);
      void pending.finally(() => this.pendingConsent.delete(host));
    }
    if (await pending) {
      this.allowedInsecureHosts.add(host);
      return;
    }
    throw new GatewayError({
      reason: 'aborted',
      message: `Not sent: the credential would travel unencrypted over http:// to ${host}. Use https://, or confirm when asked.`,
      mayHaveReachedServer: false,
    });
  }

  /**
   * A WHATWG fetch through the shared pool (for the MCP SDK's transport, analytics and hosting): the
   * user agent is added when absent, and a request carrying a credential header passes the plain-http
   * check first. The caller's URL is its configured one; a redirect's Location is a URL the server
   * names, so redirects are followed here (at most MAX_SERVER_REDIRECTS), each hop checked with
   * serverUrl.ts as an own-origin URL of the first request, and every header but the few that describe
   * the request (policy.ts dropForOtherOrigin) is dropped as soon as a hop leaves that origin. A refused
   * hop fails the request with a GatewayError that says why.
   */
  readonly fetch: WhatwgFetch = async (url, init) => {
    const first = typeof url === 'string' ? new URL(url) : url;
    const headers = new Headers(init?.headers);
    if (!headers.has('user-agent')) headers.set('user-agent', this.userAgent);
    if (hasCredentialHeader(headers.entries())) await this.checkCredentialTarget(first);
    if (init?.redirect === 'manual' || init?.redirect === 'error') return this.fetchOnce(first, init, headers, this.dispatcher(), init.redirect);
    let target = first;
    let method = (init?.method ?? 'GET').toUpperCase();
    let body = init?.body;
    for (let hop = 0; ; hop++) {
      const own = target.origin === first.origin;
      const refuse = (problem: string, status?: number): never => {
        throw new GatewayError({
          reason: 'protocol',
          status,
          message: `${first.host} redirected to an address that was not fetched: ${problem}. Addresses a server names are fetched only on its own address or over https on a public host.`,
          mayHaveReachedServer: true,
        });
      };
      let res: Response;
      try {
        res = await this.fetchOnce(target, { ...init, method, body }, headers, own ? this.dispatcher() : this.serverDispatcher(), 'manual');
      } catch (e) {
        const refused = own ? undefined : refusedCause(e);
        return refused ? refuse(refused.problem) : Promise.reject(e);
      }
      const location = res.headers.get('location');
      if (!isRedirect(res.status) || location === null) return res;
      await res.body?.cancel().catch(() => undefined);
      if (hop >= MAX_SERVER_REDIRECTS) refuse(`more than ${MAX_SERVER_REDIRECTS} redirects`, res.status);
      const verdict = checkServerUrl(new URL(location, target), [first.origin]);
      if (!verdict.ok) return refuse(verdict.problem, res.status);
      // 303, and 301/302 after a POST, turn into a GET without a body (as fetch does).
      if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === 'POST')) {
        method = method === 'HEAD' ? 'HEAD' : 'GET';
        body = undefined;
        headers.delete('content-type');
        headers.delete('content-length');
      } else if (body !== undefined && body !== null && typeof body !== 'string' && !(body instanceof Uint8Array) && !(body instanceof URLSearchParams)) {
        // A streamed body cannot be sent twice: the redirect is handed back unfollowed.
        return res;
      }
      if (verdict.url.origin !== first.origin) {
        // An allow-list: only headers that describe the request go on; the user's headers for the server (a key
        // under any name), cookies and the MCP session id stay with the origin they were meant for.
        dropForOtherOrigin(headers);
        try {
          await this.checkServerTarget(verdict.url);
        } catch (e) {
          if (e instanceof ServerUrlRefused) return refuse(e.problem, res.status);
          throw e;
        }
      }
      target = verdict.url;
    }
  };

  private fetchOnce(target: URL, init: RequestInit | undefined, headers: Headers, dispatcher: Dispatcher, redirect: 'manual' | 'error'): Promise<Response> {
    // undici's fetch and Node's global fetch share the WHATWG shapes; only their TypeScript
    // declarations differ (undici-types vs. undici), hence the casts.
    return undiciFetch(target, {
      ...(init as Parameters<typeof undiciFetch>[1]),
      headers: Object.fromEntries(headers.entries()),
      redirect,
      dispatcher,
    }) as unknown as Promise<Response>;
  }

  /** Closes the connection pool. In-flight requests fail. */
  async dispose(): Promise<void> {
    await Promise.all([this.dispatchers.dispose(), this.serverDispatchers.dispose()]);
  }
}

/** The ServerUrlRefused a connection failed with (undici wraps it as fetch's TypeError cause). */
export function refusedCause(e: unknown): ServerUrlRefused | undefined {
  for (let c: unknown = e, depth = 0; c && depth < 4; c = (c as { cause?: unknown }).cause, depth++) {
    if (c instanceof ServerUrlRefused || (c as { code?: unknown }).code === SERVER_URL_REFUSED) return c as ServerUrlRefused;
  }
  return undefined;
}

/**
 * Reads a body to text, failing with a GatewayError 'protocol' that names the limit as soon as more
 * than `maxBytes` arrived (the rest is not buffered), or that says the body is not UTF-8. `what`
 * names the body in the message. Transport errors of the body pass through unchanged.
 */
export async function readTextLimited(
  body: AsyncIterable<Uint8Array>,
  maxBytes: number,
  what: string,
  extra: { requestId?: string; status?: number; onChunk?: () => void } = {},
): Promise<string> {
  try {
    return await readBodyText(body, { maxBytes: Number.isFinite(maxBytes) ? maxBytes : undefined, onChunk: extra.onChunk });
  } catch (e) {
    throw bodyErrorToGateway(e, what, extra);
  }
}

/** The GatewayError for a body-reader failure (limit, invalid UTF-8); anything else is returned as is. */
export function bodyErrorToGateway(e: unknown, what: string, extra: { requestId?: string; status?: number; partial?: boolean } = {}): unknown {
  if (e instanceof BodyLimitError) {
    return new GatewayError({ reason: 'protocol', message: `${what} is larger than the limit of ${formatBytes(e.limit)}; it was not read`, requestId: extra.requestId, status: extra.status, partial: extra.partial, cause: e });
  }
  if (e instanceof InvalidUtf8Error) {
    return new GatewayError({ reason: 'protocol', message: `${what} is not valid UTF-8; it was not used`, requestId: extra.requestId, status: extra.status, partial: extra.partial, cause: e });
  }
  return e;
}

/** Reads at most `maxBytes` of a body as text and abandons the rest (for error bodies: an envelope is short). */
export async function readTextPrefix(body: AsyncIterable<Uint8Array>, maxBytes: number): Promise<string> {
  const decoder = new TextDecoder('utf-8');
  let total = 0;
  let text = '';
  for await (const chunk of body) {
    const room = maxBytes - total;
    const part = chunk.byteLength > room ? chunk.subarray(0, room) : chunk;
    total += part.byteLength;
    text += decoder.decode(part, { stream: true });
    if (total >= maxBytes) {
      // Stop reading: a hostile server could otherwise keep the socket busy forever.
      const destroy = (body as { destroy?: () => void }).destroy;
      if (typeof destroy === 'function') destroy.call(body);
      break;
    }
  }
  return text + decoder.decode();
}

/** A fetch Response, or the part of one the clients read. */
export interface TextResponse {
  text(): Promise<string>;
  body?: unknown;
}

/**
 * The text of a fetch response, failing with a GatewayError 'protocol' naming the limit once more than
 * `maxBytes` arrived (no limit when undefined), or when it is not UTF-8. Falls back to `text()` when
 * there is no readable body (test fakes).
 */
export function readResponseText(res: TextResponse, maxBytes: number | undefined, what: string, extra: { requestId?: string; status?: number; onChunk?: () => void } = {}): Promise<string> {
  if (!isIterableBody(res.body)) return res.text();
  return readTextLimited(res.body, maxBytes ?? Infinity, what, extra);
}
