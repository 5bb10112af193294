/**
 * OAuth 2.1 sign-in for third-party MCP servers (MCP 2025-11-25 "Authorization"), on the MCP SDK's
 * OAuth client (`auth()` in @modelcontextprotocol/sdk/client/auth.js): protected-resource metadata
 * (RFC 9728, from WWW-Authenticate's resource_metadata or the well-known fallbacks), authorization
 * server metadata (RFC 8414 / OpenID discovery with the path fallbacks, and the 2025-03-26 root
 * fallbacks), Client ID Metadata Documents, pre-registered clients, dynamic registration, PKCE (S256),
 * the scope selection strategy (WWW-Authenticate scope, then scopes_supported, else omitted), every
 * token endpoint auth method (client_secret_basic, client_secret_post, none) and refresh are all the
 * SDK's work. The SDK also binds stored tokens and client registrations to the authorization server
 * (issuer) that issued them, so a refresh token is never posted to another one.
 *
 * What this adds:
 * - McpOAuthHost, the interface the editor implements: the authorization step (open the browser and
 *   wait for the redirect; in the conformance driver, follow the redirect without a browser) and the
 *   token store (SecretStorage per server, in the editor).
 * - The one-shot flow `signIn`: auth() -> REDIRECT -> the host's authorize() -> state check -> auth()
 *   with the code. The PKCE verifier and state live only in memory for that one flow.
 * - The re-send rule after a sign-in (`mayResendAfterAuth`), which is the write-safety rule of #42.5:
 *   see there.
 *
 * No import of `vscode`. Loaded with the MCP chunk (mcpClient.ts imports it), never at activation.
 */
/* eslint-disable @typescript-eslint/no-require-imports */
const sdkAuth = require('@modelcontextprotocol/sdk/client/auth.js') as typeof import('@modelcontextprotocol/sdk/client/auth.js');
/* eslint-enable @typescript-eslint/no-require-imports */
import type { OAuthClientProvider, OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { randomBytes } from 'node:crypto';
import type { FetchLike } from './types';
import { readBodyLimited } from './limitedBody';
import { checkServerUrl } from '../http/serverUrl';

/** What is kept per MCP server between sessions (the editor: one SecretStorage entry per server). */
export interface McpOAuthRecord {
  /** The tokens, stamped by the SDK with the issuer (authorization server) that issued them. */
  tokens?: OAuthTokens;
  /** The client registration (dynamic, CIMD or pre-registered), stamped with its issuer. */
  client?: OAuthClientInformationMixed;
}

export interface McpOAuthStore {
  load(): Promise<McpOAuthRecord | undefined>;
  save(record: McpOAuthRecord): Promise<void>;
  clear(): Promise<void>;
}

/** The editor's (or the conformance driver's) side of a sign-in. */
export interface McpOAuthHost {
  /** The redirect URI registered with the authorization server (a loopback or an asExternalUri URI). */
  redirectUrl: string;
  /** A Client ID Metadata Document URL (https), used as the client_id where the server supports it. */
  clientMetadataUrl?: string;
  /** A client the user registered with the authorization server beforehand (when it offers no registration). */
  preRegistered?: { client_id: string; client_secret?: string };
  clientName: string;
  store: McpOAuthStore;
  /**
   * Lets the user authorize at `url` (the authorization server's page) and resolves with the URL the
   * server redirected back to (its query carries `code` and `state`). Rejects when the user declines or
   * the wait ends. The host decides whether to ask first (the editor names the authorization server's host).
   */
  authorize(url: URL, signal: AbortSignal | undefined): Promise<URL>;
  /** The HTTP function for discovery, registration and token requests (never sends the MCP server's configured headers). */
  fetch?: FetchLike;
}

/** A refused sign-in (declined, a state mismatch, an authorization error the server sent back). */
export class McpSignInError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'McpSignInError';
  }
}

/** A WWW-Authenticate challenge as far as the flow needs it. */
export interface AuthChallenge {
  status: number;
  /** True when the answer carried a `Bearer` challenge (RFC 6750 section 3). */
  bearer: boolean;
  error?: string;
  scope?: string;
  resourceMetadataUrl?: URL;
  /** The raw header, to recognise the same challenge coming back. */
  raw?: string;
}

/** Reads the challenge of a 401/403 answer (the SDK's parser: linear, bounded by the header). */
export function readChallenge(res: Response): AuthChallenge {
  const raw = res.headers.get('www-authenticate') ?? undefined;
  const p = sdkAuth.extractWWWAuthenticateParams(res);
  return {
    status: res.status,
    bearer: raw !== undefined && /^\s*bearer\b/i.test(raw),
    ...(p.error ? { error: p.error } : {}),
    ...(p.scope ? { scope: p.scope } : {}),
    ...(p.resourceMetadataUrl ? { resourceMetadataUrl: p.resourceMetadataUrl } : {}),
    ...(raw !== undefined ? { raw } : {}),
  };
}

/** Authorization rounds (a sign-in or a step-up) for one request, at most. */
export const MAX_AUTH_ROUNDS = 2;

/** What one request went through so far: decides whether another sign-in and re-send may happen. */
export interface AuthRounds {
  rounds: number;
  signedInOn401: boolean;
  lastStepUpChallenge?: string;
}

/**
 * May the request answered `challenge` be sent again after a sign-in (#42.5)?
 *
 * Why a re-send after a 401, or a 403 `insufficient_scope`, cannot repeat a write: the answer IS the
 * server's refusal, given before the request was processed. The MCP authorization spec has the server
 * validate the access token of every request before handling it (and answer 401 for a missing,
 * invalid or expired token, 403 insufficient_scope for a token without the scope the operation
 * needs, RFC 6750 section 3.1); the HTTP status is the first thing of the answer, so an answer with
 * such a status carries no JSON-RPC result and no event stream - nothing ran. This is unlike a timeout,
 * a cut connection, a 5xx or an unreadable body, where the request may have reached the tool: those
 * never come here (only a status of 401/403 at the head of the answer does) and stay "outcome
 * unknown", and a resumption GET answered 401 does not re-send the POST (mcpClient.ts resumer).
 *
 * The bounds: one sign-in per request on 401 (a server refusing a fresh token is not asked again),
 * a step-up only for `insufficient_scope` with a Bearer challenge and not twice for the same challenge,
 * and MAX_AUTH_ROUNDS in all.
 */
export function mayResendAfterAuth(challenge: AuthChallenge, done: AuthRounds): boolean {
  if (done.rounds >= MAX_AUTH_ROUNDS) return false;
  if (challenge.status === 401) return !done.signedInOn401;
  if (challenge.status === 403) {
    if (!challenge.bearer || challenge.error !== 'insufficient_scope') return false;
    return challenge.raw === undefined || challenge.raw !== done.lastStepUpChallenge;
  }
  return false;
}

/** Notes a sign-in round in `done` (call after mayResendAfterAuth said yes). */
export function noteAuthRound(challenge: AuthChallenge, done: AuthRounds): void {
  done.rounds++;
  if (challenge.status === 401) done.signedInOn401 = true;
  else done.lastStepUpChallenge = challenge.raw;
}

/**
 * One MCP server's OAuth state, as the SDK's OAuthClientProvider. The record is read once and written
 * through; the PKCE verifier, the state and the discovery result stay in memory for this flow.
 */
export class McpOAuth implements OAuthClientProvider {
  private record: McpOAuthRecord | undefined;
  private loaded = false;
  private verifier: string | undefined;
  private expectedState: string | undefined;
  /** The scope the last sign-in asked for (a step-up adds to it, SEP-2350). */
  private requestedScope: string | undefined;
  private discovery: OAuthDiscoveryState | undefined;
  private pendingRedirect: URL | undefined;
  private inFlight: Promise<void> | undefined;

  constructor(
    readonly serverUrl: string,
    private readonly host: McpOAuthHost,
  ) {}

  get redirectUrl(): string {
    return this.host.redirectUrl;
  }

  get clientMetadataUrl(): string | undefined {
    return this.host.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    // application_type is not in the SDK's type yet; the SDK sends the metadata as given.
    const metadata: OAuthClientMetadata & { application_type: 'web' | 'native' } = {
      // SEP-837 (required by the 2026-07-28 auth scenarios, #42.3): a loopback or custom-scheme redirect is a
      // native application's; an https redirect to another host (code-server's asExternalUri) a web one's.
      application_type: applicationType(this.host.redirectUrl),
      client_name: this.host.clientName,
      redirect_uris: [this.host.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
    return metadata;
  }

  state(): string {
    this.expectedState = randomBytes(24).toString('base64url');
    return this.expectedState;
  }

  private async load(): Promise<McpOAuthRecord> {
    if (!this.loaded) {
      this.record = (await this.host.store.load()) ?? {};
      this.loaded = true;
    }
    return this.record ?? {};
  }

  private async write(patch: Partial<McpOAuthRecord>): Promise<void> {
    this.record = { ...(await this.load()), ...patch };
    await this.host.store.save(this.record);
  }

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    const r = await this.load();
    if (r.client) return r.client;
    return this.host.preRegistered ? { ...this.host.preRegistered } : undefined;
  }

  async saveClientInformation(info: OAuthClientInformationMixed): Promise<void> {
    await this.write({ client: info });
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    return (await this.load()).tokens;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    await this.write({ tokens });
  }

  redirectToAuthorization(url: URL): void {
    this.pendingRedirect = url;
  }

  saveCodeVerifier(v: string): void {
    this.verifier = v;
  }

  codeVerifier(): string {
    if (this.verifier === undefined) throw new McpSignInError('No sign-in is in progress for this server.');
    return this.verifier;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.discovery = state;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.discovery;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'verifier' || scope === 'all') this.verifier = undefined;
    if (scope === 'discovery' || scope === 'all') this.discovery = undefined;
    if (scope === 'tokens' || scope === 'all') await this.write({ tokens: undefined });
    if (scope === 'client' || scope === 'all') await this.write({ client: undefined });
  }

  /** The Authorization header value for the MCP server, when signed in. */
  async authorization(): Promise<string | undefined> {
    const t = await this.tokens();
    return t?.access_token ? `Bearer ${t.access_token}` : undefined;
  }

  /** Forgets this server's tokens and registration (Sign Out). */
  async signOut(): Promise<void> {
    this.record = {};
    this.loaded = true;
    this.verifier = undefined;
    this.discovery = undefined;
    await this.host.store.clear();
  }

  /**
   * Gets a usable token for the challenge: a refresh when one is stored and the challenge is a 401
   * (an expired token), else the authorization flow with the user. A step-up (403 insufficient_scope)
   * always goes to the user: a refresh cannot widen the scope. Concurrent requests share one flow.
   */
  async signIn(challenge: Pick<AuthChallenge, 'status' | 'scope' | 'resourceMetadataUrl'>, signal?: AbortSignal): Promise<void> {
    if (this.inFlight) return this.inFlight;
    this.inFlight = this.flow(challenge, signal).finally(() => (this.inFlight = undefined));
    return this.inFlight;
  }

  private async flow(challenge: Pick<AuthChallenge, 'status' | 'scope' | 'resourceMetadataUrl'>, signal?: AbortSignal): Promise<void> {
    // Authorization server metadata whose issuer is not the one its address was built from is refused
    // before any of its endpoints is used (SEP-2468; the 2026-07-28 auth scenarios, #42.3).
    const fetchFn = checkingMetadataIssuer(withinServerReach(this.serverUrl, this.host.fetch ?? ((u, i) => fetch(u, i))));
    // A 401 may mean the resource moved to another authorization server (SEP-2352): discover again. The
    // SDK binds registrations and tokens to their issuer, so a new server gets a new registration.
    if (challenge.status === 401) this.discovery = undefined;
    // A step-up asks for what was asked before as well as the new scope (SEP-2350): the new token
    // replaces the old one, which must not lose what it could do.
    let scope = challenge.scope;
    if (challenge.status === 403 && scope) {
      const before = [...(this.requestedScope ?? '').split(' '), ...((await this.load()).tokens?.scope ?? '').split(' ')];
      scope = [...new Set([...before, ...scope.split(' ')].filter((x) => x !== ''))].join(' ');
    }
    if (scope) this.requestedScope = scope;
    const base = {
      serverUrl: this.serverUrl,
      ...(scope ? { scope } : {}),
      ...(challenge.resourceMetadataUrl ? { resourceMetadataUrl: challenge.resourceMetadataUrl } : {}),
      fetchFn,
    };
    if (challenge.status === 403) {
      // Keep the registration; a new authorization with the wider scope replaces the token.
      const r = await this.load();
      if (r.tokens) await this.write({ tokens: undefined });
    }
    this.pendingRedirect = undefined;
    const first = await sdkAuth.auth(this, base);
    if (first === 'AUTHORIZED') return;
    const url = this.pendingRedirect as URL | undefined;
    if (!url) throw new McpSignInError('The authorization server gave no authorization address.');
    const expected = this.expectedState;
    const back = await this.host.authorize(url, signal);
    const error = back.searchParams.get('error');
    if (error) throw new McpSignInError(`The authorization server refused the sign-in (${error.slice(0, 100)}).`);
    // The state proves the redirect answers this flow's request (not a forged or stale one).
    if (expected !== undefined && back.searchParams.get('state') !== expected) throw new McpSignInError('The sign-in answer did not match this sign-in; try again.');
    const code = back.searchParams.get('code');
    if (!code) throw new McpSignInError('The sign-in answer carried no authorization code.');
    checkResponseIssuer(back, this.discovery?.authorizationServerMetadata);
    const second = await sdkAuth.auth(this, { ...base, authorizationCode: code });
    this.verifier = undefined;
    this.expectedState = undefined;
    if (second !== 'AUTHORIZED') throw new McpSignInError('The sign-in did not complete.');
  }
}

/** The DCR application_type (SEP-837) of a redirect URI: 'web' for https to a host that is not the loopback, else 'native'. */
export function applicationType(redirectUrl: string): 'web' | 'native' {
  try {
    const u = new URL(redirectUrl);
    const loopback = u.hostname === 'localhost' || u.hostname === '127.0.0.1' || u.hostname === '[::1]';
    return u.protocol === 'https:' && !loopback ? 'web' : 'native';
  } catch {
    return 'native';
  }
}

/**
 * RFC 9207 / SEP-2468: an `iss` in the authorization response must be exactly (no normalisation) the
 * issuer of the metadata used for this sign-in; when the metadata says it sends `iss`, it must be there.
 */
export function checkResponseIssuer(back: URL, metadata: { issuer?: unknown; authorization_response_iss_parameter_supported?: unknown } | undefined): void {
  const iss = back.searchParams.getAll('iss');
  if (iss.length > 1) throw new McpSignInError('The sign-in answer named more than one issuer; it was not used.');
  if (iss.length === 1 && iss[0] !== metadata?.issuer) throw new McpSignInError('The sign-in answer came from another issuer than the authorization server asked; it was not used.');
  if (iss.length === 0 && metadata?.authorization_response_iss_parameter_supported === true) throw new McpSignInError('The sign-in answer did not name its issuer, which this authorization server promises to do; it was not used.');
}

/**
 * The issuer an authorization server metadata address was built from (RFC 8414 section 3: the well-known
 * segment inserted after the host; OpenID Connect: also appended to the issuer's path), or undefined for
 * another address.
 */
export function issuerOfMetadataUrl(url: string): string | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return undefined;
  }
  for (const wk of ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration']) {
    if (u.pathname === wk || u.pathname.startsWith(`${wk}/`)) return `${u.origin}${u.pathname.slice(wk.length)}`;
    if (wk.endsWith('openid-configuration') && u.pathname.endsWith(wk)) return `${u.origin}${u.pathname.slice(0, -wk.length)}`;
  }
  return undefined;
}

/**
 * Discovery, registration and token requests go where the server's answers point (its 401's
 * resource_metadata, its metadata's endpoints): a server on the public internet may not point them at this
 * computer or the user's network (checkServerUrl's address rules; its own origin stays allowed). A server
 * the user added on this computer or a private network keeps its local sign-in (the user chose that place).
 */
export function withinServerReach(serverUrl: string, fetchFn: FetchLike): FetchLike {
  if (!checkServerUrl(serverUrl).ok) return fetchFn;
  return async (url, init) => {
    const verdict = checkServerUrl(String(url), [serverUrl]);
    if (!verdict.ok) throw new McpSignInError(`The sign-in of ${new URL(serverUrl).host} pointed at an address that is not fetched: ${verdict.problem}.`);
    return fetchFn(url, init);
  };
}

/** Largest authorization server metadata document read. */
const MAX_METADATA_BYTES = 1024 * 1024;

/** A fetch that refuses authorization server metadata whose `issuer` differs from the issuer its address was built from. */
function checkingMetadataIssuer(fetchFn: FetchLike): FetchLike {
  return async (url, init) => {
    const res = await fetchFn(url, init);
    const expected = issuerOfMetadataUrl(String(url));
    if (expected === undefined || !res.ok) return res;
    const text = await readBodyLimited(res, MAX_METADATA_BYTES);
    let issuer: unknown;
    try {
      issuer = (JSON.parse(text) as { issuer?: unknown }).issuer;
    } catch {
      issuer = undefined;
    }
    // RFC 8414 wants the issuer exactly; servers of the 2025-03-26 era publish their metadata at their own
    // origin with an issuer path of their own. So another origin is refused (metadata that would send the
    // sign-in elsewhere), a path variant on the same origin is not.
    if (typeof issuer === 'string' && !sameOrigin(issuer, expected)) {
      throw new McpSignInError(`The authorization server's metadata names another issuer (${issuer.slice(0, 100)}) than its address; it was not used.`);
    }
    return new Response(text, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}

function sameOrigin(a: string, b: string): boolean {
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return false;
  }
}
