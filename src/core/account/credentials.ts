/**
 * Input checks for the two account credentials (vscode-free). The values themselves only ever live
 * in SecretStorage; these functions return sentences that never echo the secret.
 */
/** The identity-provider token for analytics: a JWT (three dot-separated parts), never an API key (G-AN-1). */
export function validateJwtInput(value: string): string | undefined {
  const v = value.trim();
  if (v === '') return 'Paste the identity-provider token (JWT).';
  if (v.startsWith('svc_')) return 'That is an API key. Usage analytics needs an identity-provider token (JWT) with account-level access.';
  return /^[\w-]+\.[\w-]+\.[\w-]*$/.test(v) ? undefined : 'This does not look like a JWT (three dot-separated base64url parts).';
}

/**
 * Assumption (spec: "how the credentials are issued or composed: not shown"; see hostingClient.ts):
 * Basic credentials are `username:password`, so the username cannot contain a colon.
 */
export function validateHostingUsername(value: string): string | undefined {
  const v = value.trim();
  if (v === '') return 'Enter the hosting API username.';
  return v.includes(':') ? 'The username cannot contain a colon (Basic credentials are username:password).' : undefined;
}

export function validateHostingPassword(value: string): string | undefined {
  return value === '' ? 'Enter the hosting API password or token.' : undefined;
}

export { parseStoredHostingCredentials, serializeHostingCredentials } from './storedCredentials';
