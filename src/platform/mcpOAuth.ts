/**
 * The editor's side of OAuth sign-in for third-party MCP servers (src/core/mcp/oauth.ts): the one owner
 * of their tokens in SecretStorage (one entry per server; the SDK stamps tokens and registrations with
 * the issuer that gave them and never presents them to another), and the authorization step.
 *
 * The redirect works where the extension host is remote (code-server, Remote SSH): the redirect URI is
 * `vscode.env.asExternalUri(<uriScheme>://<extension id>/mcp-oauth)`, which the editor maps to an
 * address the user's browser can reach and hands back to this extension's URI handler. The browser is
 * opened only after the user confirms, in a modal naming the authorization server's host (safe
 * answer first). Tokens never reach settings, logs or error messages.
 *
 * Loaded with import() on the first connection to a custom server (never at activation).
 */
import * as vscode from 'vscode';
import type { McpOAuth, McpOAuthRecord, McpOAuthStore } from '../core/mcp/oauth';
import type { FetchLike } from '../core/mcp/types';
import { confirmRisky } from './safeDialog';
import { proxyFetch } from './network';

const KEY_PREFIX = 'aiGateway.mcp.oauth.';
/** The SecretStorage key of one server's OAuth record. */
export function oauthSecretKey(serverId: string): string {
  return `${KEY_PREFIX}${serverId}`;
}

/** How long a sign-in waits for the browser to come back. */
export const SIGN_IN_WAIT_MS = 5 * 60_000;
const CALLBACK_PATH = '/mcp-oauth';

/** A record read back from SecretStorage: only the two known fields, each an object. */
function parseRecord(text: string | undefined): McpOAuthRecord | undefined {
  if (!text) return undefined;
  try {
    const v = JSON.parse(text) as unknown;
    if (typeof v !== 'object' || v === null) return undefined;
    const { tokens, client } = v as Record<string, unknown>;
    return {
      ...(typeof tokens === 'object' && tokens !== null ? { tokens: tokens as McpOAuthRecord['tokens'] } : {}),
      ...(typeof client === 'object' && client !== null ? { client: client as McpOAuthRecord['client'] } : {}),
    };
  } catch {
    return undefined;
  }
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '127.0.0.1' || host === '[::1]';
}

export interface SignInServer {
  id: string;
  label: string;
  url: string;
}

export class McpSignIn implements vscode.Disposable {
  private handler: vscode.Disposable | undefined;
  /** Sign-ins waiting for the browser, by their `state`. */
  private readonly waiting = new Map<string, (uri: vscode.Uri) => void>();

  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly extensionId: string,
    /** The HTTP function for discovery and token requests (the proxy-aware one by default; tests pass Node's). */
    private readonly fetchFn: () => FetchLike = () => proxyFetch(),
  ) {}

  dispose(): void {
    this.handler?.dispose();
    this.handler = undefined;
    this.waiting.clear();
  }

  /** The token store of one server. */
  store(serverId: string): McpOAuthStore {
    const key = oauthSecretKey(serverId);
    return {
      load: async () => parseRecord(await this.secrets.get(key)),
      save: async (r) => this.secrets.store(key, JSON.stringify(r)),
      clear: async () => this.secrets.delete(key),
    };
  }

  /** True when a token is stored for the server (the Sign Out command offers only those). */
  async isSignedIn(serverId: string): Promise<boolean> {
    return (await this.store(serverId).load())?.tokens !== undefined;
  }

  /** Sign Out: forgets the server's tokens and client registration. */
  async signOut(serverId: string): Promise<void> {
    await this.store(serverId).clear();
  }

  /** The redirect URI the authorization server sends the browser back to (see the file comment). */
  async redirectUrl(): Promise<string> {
    const local = vscode.Uri.parse(`${vscode.env.uriScheme}://${this.extensionId}${CALLBACK_PATH}`);
    return (await vscode.env.asExternalUri(local)).toString(true);
  }

  /** The OAuth layer for one third-party server (never the gateway's own /v1/mcp). */
  async oauthFor(server: SignInServer): Promise<McpOAuth> {
    const { McpOAuth } = await import('../core/mcp/oauth');
    return new McpOAuth(server.url, {
      redirectUrl: await this.redirectUrl(),
      clientName: 'AI Gateway for VS Code',
      store: this.store(server.id),
      fetch: this.fetchFn(),
      authorize: (url, signal) => this.authorize(server, url, signal),
    });
  }

  /** The URI handler's work: a redirect back with the `state` of a waiting sign-in ends its wait. */
  handleUri(uri: vscode.Uri): void {
    if (uri.path !== CALLBACK_PATH) return;
    const state = new URLSearchParams(uri.query).get('state');
    const done = state === null ? undefined : this.waiting.get(state);
    if (!done) return;
    this.waiting.delete(state!);
    done(uri);
  }

  private ensureHandler(): void {
    this.handler ??= vscode.window.registerUriHandler({ handleUri: (uri) => this.handleUri(uri) });
  }

  /**
   * Asks the user, opens the authorization page in the browser and waits for the redirect back (or
   * Cancel, the call's Stop, or SIGN_IN_WAIT_MS). Resolves with the redirect as a URL (its query has
   * the code and state; oauth.ts checks the state).
   */
  async authorize(server: SignInServer, url: URL, signal?: AbortSignal): Promise<URL> {
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopback(url.hostname))) {
      throw new Error(vscode.l10n.t('The sign-in page of {0} is not on https ({1}); not opened.', server.label, url.host));
    }
    // The page judged as a tool's links and elicitation URLs are (toolLink.ts): a user name or password in it is
    // refused; a page on this computer or a private network (a local server the user added; a public server
    // cannot point here, oauth.ts checkServerUrl) or on plain http is named in a warning before it opens.
    const { judgeToolLink } = await import('../core/mcp/toolLink');
    const verdict = judgeToolLink(url.href);
    if (verdict.kind !== 'confirm') {
      throw new Error(vscode.l10n.t('The sign-in page of {0} was not opened: {1}.', server.label, verdict.kind === 'refuse' ? verdict.reason : url.protocol));
    }
    const intro = vscode.l10n.t('Your browser opens the sign-in page of {0}. After you sign in, it returns to the editor.', url.host);
    const go = await confirmRisky({
      message: vscode.l10n.t('{0} asks you to sign in at {1}.', server.label, url.host),
      detail: verdict.warning ? `${verdict.warning}\n\n${intro}` : intro,
      safe: vscode.l10n.t('Not Now'),
      action: vscode.l10n.t('Sign In'),
    });
    if (!go) throw new Error(vscode.l10n.t('Sign-in declined.'));
    const state = url.searchParams.get('state') ?? '';
    this.ensureHandler();
    const back = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Waiting for the sign-in to {0} in your browser…', server.label), cancellable: true },
      (_p, token) =>
        new Promise<vscode.Uri>((resolve, reject) => {
          const end = (e: Error): void => {
            this.waiting.delete(state);
            clearTimeout(timer);
            reject(e);
          };
          const timer = setTimeout(() => end(new Error(vscode.l10n.t('The sign-in did not come back in time.'))), SIGN_IN_WAIT_MS);
          token.onCancellationRequested(() => end(new Error(vscode.l10n.t('Sign-in cancelled.'))));
          signal?.addEventListener('abort', () => end(new Error(vscode.l10n.t('Sign-in cancelled.'))), { once: true });
          this.waiting.set(state, (uri) => {
            clearTimeout(timer);
            resolve(uri);
          });
          // The URL as a string, not a vscode.Uri: the editor opens a string as it is, while a Uri is
          // decoded and encoded again on the way (VS Code's "toString(true) + encodeURI" for external
          // links), which cuts a redirect URI that has a query of its own (code-server's
          // `/callback?vscode-reqid=…&vscode-scheme=…`) at its first `&`. The API accepts a string at
          // run time (the extension host's openUri parses it and keeps the text).
          void vscode.env.openExternal(url.href as unknown as vscode.Uri);
        }),
    );
    return new URL(`callback:${back.path}?${back.query}`);
  }
}
