/**
 * The editor side of the proxy's Basic authentication (src/core/http/proxyAuth.ts): the credential of
 * each proxy origin in SecretStorage, and the question asked when the proxy answers 407 (a username,
 * then a password in a masked box). Imported with the network layer, on the first request.
 *
 * The credential is kept nowhere else: not in settings, not in the log, not in an error message.
 */
import * as vscode from 'vscode';
import type { ProxyAuthHooks, ProxyAuthPrompt, ProxyCredential } from '../core/http/proxyAuth';

const KEY_PREFIX = 'aiGateway.proxyCredential:';
/** A saved value longer than this is not ours. */
const MAX_SAVED_CHARS = 8192;

function keyOf(origin: string): string {
  return `${KEY_PREFIX}${origin.toLowerCase()}`;
}

/** The saved value, read strictly: anything but {username, password} strings is ignored. */
export function parseSavedCredential(text: string | undefined): ProxyCredential | undefined {
  if (text === undefined || text.length > MAX_SAVED_CHARS) return undefined;
  try {
    const v = JSON.parse(text) as unknown;
    if (typeof v !== 'object' || v === null) return undefined;
    const { username, password } = v as Record<string, unknown>;
    return typeof username === 'string' && typeof password === 'string' ? { username, password } : undefined;
  } catch {
    return undefined;
  }
}

export function proxyCredentialHooks(secrets: vscode.SecretStorage): ProxyAuthHooks {
  return {
    load: async (origin) => parseSavedCredential(await secrets.get(keyOf(origin))),
    save: async (origin, c) => secrets.store(keyOf(origin), JSON.stringify({ username: c.username, password: c.password })),
    forget: async (origin) => secrets.delete(keyOf(origin)),
    ask: askProxyCredential,
  };
}

async function askProxyCredential(prompt: ProxyAuthPrompt): Promise<ProxyCredential | undefined> {
  const where = prompt.realm ? `${prompt.origin} ("${prompt.realm}")` : prompt.origin;
  const why = prompt.refused ? vscode.l10n.t('The proxy {0} refused the saved username and password.', where) : vscode.l10n.t('The proxy {0} needs a username and password.', where);
  const clear = prompt.origin.startsWith('http:') ? ` ${vscode.l10n.t('It is sent to the proxy unencrypted (http://), as for every program using this proxy.')}` : '';
  const username = await vscode.window.showInputBox({
    title: vscode.l10n.t('Proxy Authentication'),
    prompt: vscode.l10n.t('{0} Username:', why),
    ignoreFocusOut: true,
    validateInput: (v) => (v.includes(':') ? vscode.l10n.t('A username for Basic authentication cannot contain ":".') : undefined),
  });
  if (username === undefined || username === '') return undefined;
  const password = await vscode.window.showInputBox({
    title: vscode.l10n.t('Proxy Authentication'),
    prompt: vscode.l10n.t("Password for {0} at {1}. It is kept in the editor's secret storage.", username, prompt.origin) + clear,
    password: true,
    ignoreFocusOut: true,
  });
  if (password === undefined) return undefined;
  return { username, password };
}
