/**
 * Input checks for the two account credentials (vscode-free). The values themselves only ever live
 * in SecretStorage; these functions return sentences that never echo the secret.
 */
import * as l10n from '../l10n';

/** The identity-provider token for analytics: a JWT (three dot-separated parts), never an API key (G-AN-1). */
export function validateJwtInput(value: string): string | undefined {
  const v = value.trim();
  if (v === '') return l10n.t('Paste the identity-provider token (JWT).');
  if (v.startsWith('svc_')) return l10n.t('That is an API key. Usage analytics needs an identity-provider token (JWT) with account-level access.');
  return /^[\w-]+\.[\w-]+\.[\w-]*$/.test(v) ? undefined : l10n.t('This does not look like a JWT (three dot-separated base64url parts).');
}

/**
 * Assumption (spec: "how the credentials are issued or composed: not shown"; see hostingClient.ts):
 * Basic credentials are `username:password`, so the username cannot contain a colon.
 */
export function validateHostingUsername(value: string): string | undefined {
  const v = value.trim();
  if (v === '') return l10n.t('Enter the hosting API username.');
  return v.includes(':') ? l10n.t('The username cannot contain a colon (Basic credentials are username:password).') : undefined;
}

export function validateHostingPassword(value: string): string | undefined {
  return value === '' ? l10n.t('Enter the hosting API password or token.') : undefined;
}

export { parseStoredHostingCredentials, serializeHostingCredentials } from './storedCredentials';
