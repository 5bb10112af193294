/**
 * Basic authentication to an HTTP proxy, for the tunnels (CONNECT) undici's ProxyAgent opens.
 *
 * Where the credential comes from, per proxy origin:
 * - the proxy URL itself (`http.proxy` or HTTPS_PROXY = http://user:pass@host:port, percent-encoded):
 *   always sent; a 407 then is an error naming http.proxy, never a question;
 * - otherwise the credential saved for that origin (SecretStorage, through `ProxyAuthHooks`), sent
 *   from the first tunnel on; when the proxy answers 407 it is forgotten and the user is asked;
 * - otherwise, on the first 407, the user is asked once (parallel tunnels share one question); what
 *   they enter is saved only after the proxy accepted it.
 *
 * Re-sending the CONNECT after a 407 is safe by construction: the tunnel was refused, so no byte of
 * the request itself left this machine (the retry happens while the connection is being set up, not
 * by re-sending the request). Credentials never appear in an error message or a log line: errors name
 * the proxy by its origin, which carries no userinfo.
 *
 * The undici part is one documented option, ProxyAgent's `clientFactory`: the pool to the proxy it
 * returns sends the CONNECT (Dispatcher.connect); ours adds Proxy-Authorization and reads the answer.
 */
import { Pool, type Dispatcher } from 'undici';
import { PROXY_AUTH_ERROR_CODE, PROXY_REFUSED_ERROR_CODE } from './connectErrors';

export interface ProxyCredential {
  username: string;
  password: string;
}

export interface ProxyAuthPrompt {
  /** The proxy, e.g. "http://proxy.corp:3128" (never carries credentials). */
  origin: string;
  /** The proxy's realm, as it sent it (cut to 100 characters, control characters removed). */
  realm?: string;
  /** True when a credential was just refused (the question says so). */
  refused: boolean;
}

/** The editor side: SecretStorage and the two input boxes. vscode-free here. */
export interface ProxyAuthHooks {
  load(origin: string): Promise<ProxyCredential | undefined>;
  save(origin: string, credential: ProxyCredential): Promise<void>;
  forget(origin: string): Promise<void>;
  /** Asks for a username and a password; undefined when the user cancels. */
  ask(prompt: ProxyAuthPrompt): Promise<ProxyCredential | undefined>;
}

export const PROXY_AUTH_CODE = PROXY_AUTH_ERROR_CODE;
export const PROXY_REFUSED_CODE = PROXY_REFUSED_ERROR_CODE;

export type ProxyAuthProblem =
  /** 407 and nobody to ask (no hooks). */
  | 'required'
  /** 407, and the user cancelled the question. */
  | 'declined'
  /** The credential the user just entered was refused too. */
  | 'refused'
  /** The credential in the proxy URL (http.proxy) was refused. */
  | 'refusedUrl'
  /** The proxy wants a scheme other than Basic (NTLM, Negotiate, Digest). */
  | 'unsupported';

/** A tunnel the proxy did not open because it wants (other) credentials. Nothing was sent to the target. */
export class ProxyAuthError extends Error {
  readonly code = PROXY_AUTH_CODE;
  constructor(
    readonly origin: string,
    readonly problem: ProxyAuthProblem,
    /** For 'unsupported': the schemes the proxy offered. */
    readonly schemes: readonly string[] = [],
  ) {
    super(proxyAuthMessage(origin, problem, schemes));
    this.name = 'ProxyAuthError';
  }
}

/** A tunnel the proxy refused with a status other than 407 (403 by policy, 502 when it cannot reach the target). */
export class ProxyConnectError extends Error {
  readonly code = PROXY_REFUSED_CODE;
  constructor(
    readonly origin: string,
    readonly status: number,
  ) {
    super(`The proxy ${origin} refused to open a connection (HTTP ${status})`);
    this.name = 'ProxyConnectError';
  }
}

export function proxyAuthMessage(origin: string, problem: ProxyAuthProblem, schemes: readonly string[] = []): string {
  switch (problem) {
    case 'refusedUrl':
      return `The proxy ${origin} refused the username and password in the proxy address (setting http.proxy or HTTPS_PROXY) (407 Proxy Authentication Required). Correct them there.`;
    case 'refused':
      return `The proxy ${origin} refused the username and password (407 Proxy Authentication Required). You will be asked again on the next request.`;
    case 'declined':
      return `The proxy ${origin} needs a username and password (407 Proxy Authentication Required) and none was entered. Reload the window to be asked again, or put them in http.proxy (http://user:password@host:port).`;
    case 'unsupported':
      return `The proxy ${origin} asks for ${schemes.slice(0, 3).join(', ') || 'an'} authentication, which this extension cannot do; only Basic is supported. Ask your administrator for a proxy address that accepts Basic authentication, or run a local helper proxy (such as Px or Cntlm).`;
    default:
      return `The proxy ${origin} needs a username and password (407 Proxy Authentication Required). Put them in http.proxy (http://user:password@host:port).`;
  }
}

/** "Basic base64(user:password)", UTF-8 as browsers send it. */
export function basicAuthorization(c: ProxyCredential): string {
  return `Basic ${Buffer.from(`${c.username}:${c.password}`, 'utf8').toString('base64')}`;
}

const MAX_CHALLENGE_CHARS = 4096;

/**
 * The schemes and the Basic realm of Proxy-Authenticate (proxy text: read capped, in one pass). A
 * scheme is a token at the start or after a comma that is not followed by "=" (a parameter).
 */
export function parseChallenge(header: string | string[] | undefined): { schemes: string[]; realm?: string } {
  const text = (Array.isArray(header) ? header.join(', ') : (header ?? '')).slice(0, MAX_CHALLENGE_CHARS);
  const schemes: string[] = [];
  for (const m of text.matchAll(/(?:^|,)[ \t]*([A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]*)(?=[ \t]|,|$)/g)) {
    if (schemes.length < 10 && !schemes.some((s) => s.toLowerCase() === m[1].toLowerCase())) schemes.push(m[1]);
  }
  const realm = /\brealm="([^"]{0,200})"/i.exec(text)?.[1].replace(/[\p{Cc}\p{Cf}]/gu, '').slice(0, 100);
  return { schemes, ...(realm ? { realm } : {}) };
}

/** The credential of a proxy URL (percent-decoded; a malformed escape is taken as written). */
export function credentialOfUrl(url: URL): ProxyCredential | undefined {
  if (url.username === '' && url.password === '') return undefined;
  const decode = (s: string): string => {
    try {
      return decodeURIComponent(s);
    } catch {
      return s;
    }
  };
  return { username: decode(url.username), password: decode(url.password) };
}

/** The proxy URL without its credential, and the credential. */
export function splitProxyUrl(proxy: string): { url: string; origin: string; credential?: ProxyCredential } {
  let u: URL;
  try {
    u = new URL(proxy);
  } catch {
    return { url: proxy, origin: proxy };
  }
  const credential = credentialOfUrl(u);
  u.username = '';
  u.password = '';
  return { url: u.href, origin: u.origin, ...(credential ? { credential } : {}) };
}

function sameCredential(a: ProxyCredential | undefined, b: ProxyCredential | undefined): boolean {
  return a !== undefined && b !== undefined && a.username === b.username && a.password === b.password;
}

/**
 * The saved and asked credentials of every proxy, one per Network (it outlives the dispatchers, which
 * are rebuilt when the settings change).
 */
export class ProxyAuth {
  /** undefined: not loaded yet; null: none. */
  private readonly current = new Map<string, ProxyCredential | null>();
  private readonly loading = new Map<string, Promise<ProxyCredential | undefined>>();
  private readonly asking = new Map<string, Promise<ProxyCredential | undefined>>();
  /** Entered in this session and not yet accepted by the proxy (saved once it is). */
  private readonly unsaved = new Map<string, ProxyCredential>();
  /** Origins whose question the user cancelled: not asked again until the settings change. */
  private readonly declined = new Set<string>();

  constructor(private readonly hooks?: ProxyAuthHooks) {}

  /** Called when the proxy settings change: a cancelled question may be asked again. */
  settingsChanged(): void {
    this.declined.clear();
  }

  private async credential(origin: string): Promise<ProxyCredential | undefined> {
    const known = this.current.get(origin);
    if (known !== undefined) return known ?? undefined;
    if (!this.hooks) return undefined;
    let pending = this.loading.get(origin);
    if (!pending) {
      pending = this.hooks
        .load(origin)
        .catch(() => undefined)
        .then((c) => {
          if (!this.current.has(origin)) this.current.set(origin, c ?? null);
          return this.current.get(origin) ?? undefined;
        });
      this.loading.set(origin, pending);
      void pending.finally(() => this.loading.delete(origin));
    }
    return pending;
  }

  /** `refused` was refused: forget it (unless another tunnel replaced it already) and ask, once for all tunnels. */
  private async replace(origin: string, refused: ProxyCredential | undefined, realm: string | undefined): Promise<ProxyCredential | undefined> {
    const now = this.current.get(origin) ?? undefined;
    if (now !== undefined && !sameCredential(now, refused)) return now;
    const inFlight = this.asking.get(origin);
    if (inFlight) return inFlight;
    if (refused !== undefined && sameCredential(now, refused)) {
      this.current.set(origin, null);
      if (!this.unsaved.has(origin)) await this.hooks?.forget(origin).catch(() => undefined);
      this.unsaved.delete(origin);
    }
    if (!this.hooks || this.declined.has(origin)) return undefined;
    const hooks = this.hooks;
    const asked = (async () => {
      const c = await hooks.ask({ origin, refused: refused !== undefined, ...(realm ? { realm } : {}) }).catch(() => undefined);
      if (c === undefined) {
        this.declined.add(origin);
        return undefined;
      }
      this.current.set(origin, c);
      this.unsaved.set(origin, c);
      return c;
    })();
    this.asking.set(origin, asked);
    void asked.finally(() => this.asking.delete(origin));
    return asked;
  }

  private accepted(origin: string, c: ProxyCredential): void {
    const pending = this.unsaved.get(origin);
    if (!sameCredential(pending, c) || !this.hooks) return;
    this.unsaved.delete(origin);
    void this.hooks.save(origin, c).catch(() => undefined);
  }

  /**
   * Opens the tunnel through `pool` (a Dispatcher.connect), adding Proxy-Authorization, asking for a
   * credential on a 407 (at most twice per tunnel), failing with ProxyAuthError or ProxyConnectError.
   */
  async connect(
    origin: string,
    fromUrl: ProxyCredential | undefined,
    open: (options: Dispatcher.ConnectOptions) => Promise<Dispatcher.ConnectData>,
    options: Dispatcher.ConnectOptions,
  ): Promise<Dispatcher.ConnectData> {
    const attempt = async (c: ProxyCredential | undefined): Promise<Dispatcher.ConnectData> => {
      const headers = { ...(options.headers as Record<string, string> | undefined) };
      for (const name of Object.keys(headers)) if (name.toLowerCase() === 'proxy-authorization') delete headers[name];
      if (c) headers['proxy-authorization'] = basicAuthorization(c);
      return open({ ...options, headers });
    };
    let credential = fromUrl ?? (await this.credential(origin));
    for (let round = 0; ; round++) {
      const answer = await attempt(credential);
      if (answer.statusCode === 200) {
        if (credential && !fromUrl) this.accepted(origin, credential);
        return answer;
      }
      answer.socket.on('error', () => undefined).destroy();
      if (answer.statusCode !== 407) throw new ProxyConnectError(origin, answer.statusCode);
      const challenge = parseChallenge(answer.headers['proxy-authenticate']);
      if (challenge.schemes.length > 0 && !challenge.schemes.some((s) => s.toLowerCase() === 'basic')) throw new ProxyAuthError(origin, 'unsupported', challenge.schemes);
      if (fromUrl) throw new ProxyAuthError(origin, 'refusedUrl');
      if (round >= 2) throw new ProxyAuthError(origin, 'refused');
      const next = await this.replace(origin, credential, challenge.realm);
      if (next === undefined) throw new ProxyAuthError(origin, credential !== undefined && round > 0 ? 'refused' : this.hooks ? 'declined' : 'required');
      credential = next;
    }
  }

  /**
   * ProxyAgent's `clientFactory`: the pool to the proxy, whose CONNECT goes through `connect` above.
   * `fromUrl` holds the credentials of the proxy URLs, by origin (the URLs given to undici carry none).
   */
  clientFactory(fromUrl: ReadonlyMap<string, ProxyCredential>): (origin: URL, opts: object) => Dispatcher {
    return (proxyUrl, opts) => {
      const pool = new Pool(proxyUrl, opts);
      const origin = proxyUrl.origin;
      const original = pool.connect.bind(pool) as (o: Dispatcher.ConnectOptions, cb?: (err: Error | null, data: Dispatcher.ConnectData) => void) => unknown;
      const open = (o: Dispatcher.ConnectOptions): Promise<Dispatcher.ConnectData> => original(o) as Promise<Dispatcher.ConnectData>;
      const connect = (o: Dispatcher.ConnectOptions, callback?: (err: Error | null, data: Dispatcher.ConnectData) => void): unknown => {
        if (callback) return original(o, callback);
        return this.connect(origin, fromUrl.get(origin), open, o);
      };
      Object.defineProperty(pool, 'connect', { value: connect });
      return pool;
    };
  }
}
