/**
 * The undici dispatcher (connection pool) behind every gateway call, proxy-aware.
 *
 * esbuild inlines undici into a chunk of dist/ imported on the first request, so VS Code's own proxy patching of Node's http/https and
 * global fetch never reaches it: the proxy settings are applied here, from the editor's `http.proxy`,
 * `http.noProxy`, `http.proxyStrictSSL`, `http.systemCertificates` and the HTTP(S)_PROXY / NO_PROXY /
 * NODE_EXTRA_CA_CERTS environment variables. The dispatcher is built once per distinct settings
 * value, not per request; so is the list of trusted authorities (trust.ts), one SecureContext for the
 * proxy's TLS and the target's. The proxy's Basic authentication is proxyAuth.ts.
 */
import type { LookupFunction } from 'node:net';
import type { SecureContext } from 'node:tls';
import { Agent, EnvHttpProxyAgent, type Dispatcher } from 'undici';
import { ProxyAuth, splitProxyUrl, type ProxyCredential } from './proxyAuth';

export interface NetworkSettings {
  /** `http.proxy`: a proxy URL for both http and https targets; empty or absent means "use the environment". */
  proxy?: string;
  /** `http.noProxy`: hosts (optionally with port, or `*`) that bypass the proxy; merged with NO_PROXY. */
  noProxy?: readonly string[];
  /** `http.proxyStrictSSL`: verify TLS certificates of the proxy and the gateway. Default true. */
  strictSSL?: boolean;
  /** `http.systemCertificates`: trust the operating system's certificate store too. Default true. */
  systemCertificates?: boolean;
}

export interface TimeoutSettings {
  /** TCP connect plus TLS handshake (through the proxy tunnel when there is one). */
  connectMs: number;
  /** From sending the request to receiving the response headers. */
  firstByteMs: number;
  /** Longest silence between two body chunks (streams and JSON bodies alike). */
  idleMs: number;
}

export const DEFAULT_TIMEOUTS: TimeoutSettings = { connectMs: 10_000, firstByteMs: 120_000, idleMs: 60_000 };

export type Env = Readonly<Record<string, string | undefined>>;

export interface ResolvedProxy {
  httpProxy: string;
  httpsProxy: string;
  noProxy: string;
  strictSSL: boolean;
}

function envVar(env: Env, name: string): string {
  return env[name.toLowerCase()] || env[name.toUpperCase()] || '';
}

/** Settings first, environment second. Exposed for tests and for the status shown to users. */
export function resolveProxy(settings: NetworkSettings, env: Env): ResolvedProxy {
  const explicit = settings.proxy?.trim() ?? '';
  const noProxy = [...(settings.noProxy ?? []), ...envVar(env, 'no_proxy').split(/[,\s]+/)]
    .map((h) => h.trim())
    .filter((h) => h !== '');
  return {
    httpProxy: explicit || envVar(env, 'http_proxy'),
    httpsProxy: explicit || envVar(env, 'https_proxy') || envVar(env, 'http_proxy'),
    noProxy: [...new Set(noProxy)].join(','),
    strictSSL: settings.strictSSL ?? true,
  };
}

export interface DispatcherExtras {
  /** The trusted authorities for these settings (trust.ts); undefined: Node's default roots. */
  trust?: (settings: NetworkSettings) => SecureContext | undefined;
  /** Basic authentication to the proxy (saved and asked credentials); absent: only URL credentials. */
  proxyAuth?: ProxyAuth;
}

/**
 * `lookup`, when given, is the DNS lookup of every connection this process makes to a target (not of
 * the connection to a proxy): serverUrl.ts's checkedLookup pins server-named hosts to checked addresses.
 */
export function createDispatcher(settings: NetworkSettings, connectMs: number, env: Env, lookup?: LookupFunction, extras: DispatcherExtras = {}): Dispatcher {
  const p = resolveProxy(settings, env);
  const secureContext = p.strictSSL ? extras.trust?.(settings) : undefined;
  const tls = { rejectUnauthorized: p.strictSSL, timeout: connectMs, ...(secureContext ? { secureContext } : {}) };
  const target = lookup ? { ...tls, lookup } : tls;
  if (!p.httpProxy && !p.httpsProxy) return new Agent({ connect: target });
  // The URLs given to undici carry no credentials: ProxyAuth adds them to each CONNECT (undici would
  // throw on a malformed percent escape, and could not ask on a 407).
  const fromUrl = new Map<string, ProxyCredential>();
  const strip = (proxy: string): string => {
    if (!proxy) return '';
    const split = splitProxyUrl(proxy);
    if (split.credential) fromUrl.set(split.origin, split.credential);
    return split.url;
  };
  const httpProxy = strip(p.httpProxy);
  const httpsProxy = strip(p.httpsProxy);
  // Always our pool to the proxy: a 407 or a refused tunnel becomes an error that says so (undici's
  // own is an "aborted" request, which reads as a cancel).
  const auth = extras.proxyAuth ?? new ProxyAuth();
  // EnvHttpProxyAgent picks the proxy per target URL and honours noProxy; values are passed
  // explicitly ('' meaning none) so it never falls back to process.env behind our back.
  return new EnvHttpProxyAgent({
    httpProxy,
    httpsProxy,
    noProxy: p.noProxy,
    connect: target,
    proxyTls: tls,
    requestTls: tls,
    clientFactory: auth.clientFactory(fromUrl),
  } as ConstructorParameters<typeof EnvHttpProxyAgent>[0]);
}

/** Holds the current dispatcher and replaces it when the settings change; the old one drains gracefully. */
export class DispatcherCache {
  private current: Dispatcher | undefined;
  private currentKey = '';

  constructor(
    private readonly env: Env,
    private readonly lookup?: LookupFunction,
    private readonly extras: DispatcherExtras = {},
  ) {}

  get(settings: NetworkSettings, connectMs: number): Dispatcher {
    const key = `${settings.proxy ?? ''}\n${(settings.noProxy ?? []).join(',')}\n${settings.strictSSL ?? true}\n${settings.systemCertificates ?? true}\n${connectMs}`;
    if (this.current && key === this.currentKey) return this.current;
    const old = this.current;
    this.current = createDispatcher(settings, connectMs, this.env, this.lookup, this.extras);
    if (old) this.extras.proxyAuth?.settingsChanged();
    this.currentKey = key;
    // close() lets in-flight requests (a running stream) finish before the sockets go.
    if (old) void old.close().catch(() => undefined);
    return this.current;
  }

  async dispose(): Promise<void> {
    const d = this.current;
    this.current = undefined;
    if (d) await d.destroy().catch(() => undefined);
  }
}
