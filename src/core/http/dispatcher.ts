/**
 * The undici dispatcher (connection pool) behind every gateway call, proxy-aware.
 *
 * esbuild inlines undici into a chunk of dist/ imported on the first request, so VS Code's own proxy patching of Node's http/https and
 * global fetch never reaches it: the proxy settings are applied here, from the editor's `http.proxy`,
 * `http.noProxy`, `http.proxyStrictSSL` and the HTTP(S)_PROXY / NO_PROXY environment variables.
 * The dispatcher is built once per distinct settings value, not per request.
 */
import type { LookupFunction } from 'node:net';
import { Agent, EnvHttpProxyAgent, type Dispatcher } from 'undici';

export interface NetworkSettings {
  /** `http.proxy`: a proxy URL for both http and https targets; empty or absent means "use the environment". */
  proxy?: string;
  /** `http.noProxy`: hosts (optionally with port, or `*`) that bypass the proxy; merged with NO_PROXY. */
  noProxy?: readonly string[];
  /** `http.proxyStrictSSL`: verify TLS certificates of the proxy and the gateway. Default true. */
  strictSSL?: boolean;
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

/**
 * `lookup`, when given, is the DNS lookup of every connection this process makes to a target (not of
 * the connection to a proxy): serverUrl.ts's checkedLookup pins server-named hosts to checked addresses.
 */
export function createDispatcher(settings: NetworkSettings, connectMs: number, env: Env, lookup?: LookupFunction): Dispatcher {
  const p = resolveProxy(settings, env);
  const tls = { rejectUnauthorized: p.strictSSL, timeout: connectMs };
  const target = lookup ? { ...tls, lookup } : tls;
  if (!p.httpProxy && !p.httpsProxy) return new Agent({ connect: target });
  // EnvHttpProxyAgent picks the proxy per target URL and honours noProxy; values are passed
  // explicitly ('' meaning none) so it never falls back to process.env behind our back.
  return new EnvHttpProxyAgent({
    httpProxy: p.httpProxy,
    httpsProxy: p.httpsProxy,
    noProxy: p.noProxy,
    connect: target,
    proxyTls: tls,
    requestTls: tls,
  });
}

/** Holds the current dispatcher and replaces it when the settings change; the old one drains gracefully. */
export class DispatcherCache {
  private current: Dispatcher | undefined;
  private currentKey = '';

  constructor(
    private readonly env: Env,
    private readonly lookup?: LookupFunction,
  ) {}

  get(settings: NetworkSettings, connectMs: number): Dispatcher {
    const key = `${settings.proxy ?? ''}\n${(settings.noProxy ?? []).join(',')}\n${settings.strictSSL ?? true}\n${connectMs}`;
    if (this.current && key === this.currentKey) return this.current;
    const old = this.current;
    this.current = createDispatcher(settings, connectMs, this.env, this.lookup);
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
